// The playground page: picks a scene, runs it at its fixed step, draws it and plots its traces.
// State that a link can carry (scene, parameters, stepper, h) is read from and written to the URL.

import init, { Simulation } from "../pkg/contactlab.js";
import { FixedStepLoop, slowMotion } from "./loop.js";
import { CanvasView } from "./canvas_view.js";
import { View3D } from "./view3d.js";
import { TracePlots, recordState } from "./plots.js";
import { buildControls, boxText, showFor } from "./controls.js";
import { parseNumber } from "./options.js";
import { composeFigure, download, legendOf } from "./export.js";
import { SceneEditor, packScene, unpackScene } from "./editor.js";
import { PlotBuilder } from "./plot_builder.js";
import { renderModes, explicitInstability } from "./modes.js";
import { layout, readLayout } from "./layout.js";

const $ = (id) => document.getElementById(id);
const STATE_NAMES = ["open", "touching", "loaded", "impact"];

const app = {
  sim: null,
  presets: [],
  playing: true,
  speed: 1,
  frames: 0,
  drag: null,
  error: null,
};
window.contactlab = app; // for page tests and the curious

function showMessage(text) {
  const box = $("message");
  box.textContent = text;
  box.hidden = !text;
  app.error = text || null;
}

function format(x, digits = 5) {
  if (x === null || x === undefined || Number.isNaN(x)) return "—";
  if (x === 0) return "0";
  const a = Math.abs(x);
  return a >= 1e-3 && a < 1e5 ? String(Number(x.toPrecision(digits))) : x.toExponential(digits - 1);
}

/** Reads ?scene=…&stepper=…&dt=…&NAME=VALUE…&steps=…&timeline=… (parameters are numbers only;
 * anything else is refused; the timeline is checked by the simulation). */
function urlState() {
  const q = new URLSearchParams(location.search);
  const params = {};
  for (const [k, v] of q) {
    if (["scene", "scene-json", "stepper", "dt", "steps", "timeline", "solver", "view", "end", "plot"].includes(k)) continue;
    const x = Number(v);
    if (v.trim() !== "" && Number.isFinite(x)) params[k] = x;
    else showMessage(`URL: ${k}='${v}' is not a number; ignored`);
  }
  const steps = Number(q.get("steps") ?? 0);
  return {
    scene: q.get("scene"),
    stepper: q.get("stepper"),
    dt: q.get("dt"),
    params,
    steps: Number.isInteger(steps) && steps > 0 ? steps : 0,
    timeline: q.get("timeline") ?? "",
    solver: q.get("solver"),
    view: q.get("view"),
    end: q.get("end"),
    sceneJson: q.get("scene-json"),
    plots: q.getAll("plot"),
  };
}

/** Applies a solver given as "NAME,MAX_ITERATIONS,TOLERANCE" (the form startSettings() uses). */
function applySolver(sim, text) {
  const [name, cap = "1000", tolerance = "1e-10"] = text.split(",");
  sim.setLcpSolver(name, Number(cap), Number(tolerance));
}

/**
 * The link that replays this run exactly: the settings it started from, the changes made
 * while it ran (stepper, h, parameters, pushes and drags, by step) and its step count.
 */
function replayLink(sim) {
  const start = sim.startSettings();
  const q = new URLSearchParams();
  if (app.edited?.packed) q.set("scene-json", app.edited.packed);
  else q.set("scene", sim.name);
  q.set("stepper", start.stepper);
  q.set("dt", String(start.dt));
  const defaults = Object.fromEntries(sim.parameters().map((p) => [p.name, p.default]));
  for (const [name, value] of start.parameters) if (value !== defaults[name]) q.set(name, String(value));
  if (!start.solver.startsWith("lemke")) q.set("solver", start.solver);
  q.set("steps", String(sim.steps));
  if (sim.timeline) q.set("timeline", sim.timeline);
  return `${location.href.split("?")[0]}?${q}`;
}

/**
 * Replays `steps` steps of a shared run, recording about 2000 evenly spaced samples so the
 * plots show the whole history (not two samples joined by a line).
 */
function replay(sim, steps, record) {
  const stride = Math.max(1, Math.ceil(steps / 2000));
  let done = 0;
  while (done < steps) {
    const target = Math.min(steps, done + stride);
    while (done < target) done += sim.step(target - done);
    record();
  }
}

function writeUrl() {
  const q = new URLSearchParams();
  if (app.edited) {
    if (app.edited.packed) q.set("scene-json", app.edited.packed);
  } else {
    q.set("scene", app.sim.name);
  }
  q.set("stepper", app.sim.stepper);
  q.set("dt", String(app.sim.timeStep));
  for (const p of app.sim.parameters()) if (p.value !== p.default) q.set(p.name, String(p.value));
  if (app.sim.spatial && $("view-mode").value !== "3d") q.set("view", $("view-mode").value);
  if ($("end").value !== "stop") q.set("end", $("end").value);
  for (const entry of app.builder?.entries() ?? []) q.append("plot", entry);
  history.replaceState(null, "", `?${q}`);
}

/** The scene menu's entry while an edited scene runs. */
const EDITED = "(edited scene)";

function loadScene(name, params = {}, stepper = null, dt = null, solver = null) {
  let sim;
  try {
    sim = Simulation.preset(name, params);
  } catch (e) {
    showMessage(e.message);
    sim = Simulation.preset(name, {});
  }
  app.edited = null;
  $("editor-embed-row").hidden = true;
  adopt(sim, name, stepper, dt, solver);
}

/**
 * Runs a scene given as JSON (from the editor or a link). Throws the library's message
 * (naming the field and its range) when it refuses the scene; the running one then goes on.
 */
function loadSceneJson(json, stepper = null, dt = null, solver = null) {
  const sim = Simulation.fromScene(json);
  app.edited = { json, packed: null };
  packScene(json).then((packed) => {
    if (app.edited?.json !== json) return;
    app.edited.packed = packed;
    writeUrl();
    $("editor-embed").value = `<contact-figure scene-json="${packed}" plots="reaction,gap" autoplay></contact-figure>`;
    $("editor-embed-row").hidden = false;
  });
  adopt(sim, EDITED, stepper, dt, solver);
}

/**
 * A mechanism's preset suggests plots (joint reactions, a drive's torque, a phase plot) where
 * the contact plots would stay empty: opened when no plot was built or asked for yet.
 */
function suggestPlots(sim) {
  if (!app.builder || app.builder.plots.length > 0) return;
  for (const entry of sim.suggestedPlots()) {
    const [y, x] = entry.split("~");
    app.builder.add(y, x);
  }
}

/** Makes `sim` the running simulation and sets the page up for it. */
function adopt(sim, name, stepper, dt, solver) {
  app.sim?.free();
  app.sim = sim;
  sim.startRecording(); // for the CSV export (reset clears it)
  app.instability = null;
  app.pastEnd = false;
  try {
    if (stepper) sim.setStepper(stepper);
    if (dt !== null && dt !== "") sim.setTimeStep(Number(dt));
    if (solver) applySolver(sim, solver);
  } catch (e) {
    showMessage(e.message);
  }
  const solverNow = sim.startSettings().solver.split(",");
  const match = [...$("solver").options].find((o) => {
    const [n, c] = o.value.split(",");
    return n === solverNow[0] && (n === "lemke" || c === solverNow[1]);
  });
  if (match) $("solver").value = match.value;
  if (name === EDITED && ![...$("scene").options].some((o) => o.value === EDITED)) $("scene").prepend(new Option(EDITED, EDITED));
  $("scene").value = name;
  // The steppers as offered for this scene: unavailable ones greyed out, each with its note.
  $("stepper").replaceChildren(...sim.steppersFor().map((offer) => {
    const option = new Option(offer.name, offer.name);
    option.disabled = !offer.available;
    option.title = offer.note;
    return option;
  }));
  $("stepper").value = sim.stepper;
  $("dt").value = boxText(sim.timeStep);
  const preset = app.presets.find((p) => p.name === name);
  $("description").textContent = preset?.description ?? `An edited scene (${sim.name}): change it in the scene editor below.`;
  app.editor?.show(sim.sceneJson());
  buildControls($("controls"), sim.parameters(), (n, v) => {
    sim.setParameter(n, v);
    writeUrl();
    showMessage("");
  }, showMessage);
  showFor($("controls"), sim.stepper);
  const bodies = sim.bodies();
  app.bodies = bodies;
  // The scene's gravity, or the default the library applies when a scene gives none.
  app.gravity = JSON.parse(sim.sceneJson()).gravity ?? (sim.spatial ? [0, 0, -9.81] : [0, -9.81]);
  app.selected = bodies.findIndex((b) => !b.fixed);
  chooseView(sim);
  app.view.setScene(sim);
  $("drag-hint").hidden = false;
  $("figure-motion").hidden = !sim.spatial;
  $("figure-laws").hidden = !sim.spatial;
  app.plots.clear();
  app.builder?.clear();
  app.quantityCount = -1;
  app.loop.clear();
  chooseSpeed(sim);
  writeUrl();
  render();
}

/** The 3-D view (made on first use; null when WebGL is unavailable, with the reason shown). */
function view3d() {
  if (app.view3d === undefined) {
    try {
      app.view3d = new View3D($("canvas3d"));
      app.view3d.onDrag = (index, target) => {
        if (target === null) releaseDrag();
        else if (app.drag?.index === index) app.drag.target = target;
        else { app.drag = { index, target, spatial: true }; app.selected = index; }
      };
    } catch (e) {
      app.view3d = null;
      showMessage(`3-D view unavailable (${e.message}); showing the side and top projections.`);
    }
  }
  return app.view3d;
}

/** Planar scenes on the 2-D canvas; scenes in space in 3-D or as side and top projections. */
function chooseView(sim) {
  const wants3d = sim.spatial && $("view-mode").value === "3d" && view3d();
  app.view = wants3d ? app.view3d : app.canvasView;
  $("canvas").hidden = Boolean(wants3d);
  $("canvas3d").hidden = !wants3d;
  $("view-choice").hidden = !sim.spatial;
}

/** The view and the visible plots as one captioned canvas (the PNG export). */
function figureCanvas() {
  const sim = app.sim;
  const params = sim.parameters().map((p) => `${p.name} = ${boxText(p.value)}${p.unit === "1" ? "" : ` ${p.unit}`}`).join(", ");
  const unconverged = sim.unconvergedSteps > 0 ? `; ${sim.unconvergedSteps} steps NOT converged` : "";
  const caption = [
    $("description").textContent,
    params ? `Parameters: ${params}.` : "",
    `Stepper ${sim.stepper}, h = ${boxText(sim.timeStep)} s, t = ${format(sim.time, 6)} s after ${sim.steps} steps; trace digest ${sim.digest}${unconverged}.`,
    `Arrows: normal reactions to scale (${$("force-scale").textContent}).`,
  ].filter(Boolean);
  const view = $("canvas").hidden ? $("canvas3d") : $("canvas");
  if (view === $("canvas3d")) app.view.render();
  const plots = [...document.querySelectorAll(".plots figure")]
    .filter((f) => !f.hidden && f.querySelector("canvas"))
    .map((f) => ({ caption: f.querySelector("figcaption").textContent, canvas: f.querySelector("canvas"), legend: legendOf(f) }));
  return composeFigure({ title: `contactlab — ${sim.name}`, caption, view, plots });
}

/** The speed option nearest the slow motion the scene's contact modes want. */
function chooseSpeed(sim) {
  const wanted = slowMotion(sim);
  const options = [...$("speed").options].map((o) => Number(o.value));
  const distance = (v) => Math.abs(Math.log(v / wanted));
  app.speed = options.reduce((best, v) => (distance(v) < distance(best) ? v : best), options[0]);
  $("speed").value = String(app.speed);
}

function stepSafely(n) {
  try {
    const started = performance.now();
    let taken = 0;
    if (app.sim.stepper === "penalty-explicit") {
      // One step at a time, checked against the stability limit after each: an unstable
      // step can compress and throw a body within one frame, unseen by the drawing.
      for (let k = 0; k < n; k++) {
        taken += app.sim.step(1);
        const warning = explicitInstability(app.sim);
        if (warning) app.instability = warning;
      }
    } else {
      taken = app.sim.step(n);
    }
    // The cost of one step, smoothed over the last frames (shown in the readout).
    if (taken > 0) {
      const perStep = (performance.now() - started) / taken;
      app.stepMs = app.stepMs === undefined ? perStep : 0.8 * app.stepMs + 0.2 * perStep;
    }
  } catch (e) {
    app.playing = false;
    $("play").textContent = "Play";
    showMessage(`${e.message} — paused. Lower h or reset.`);
    throw e;
  }
}

/** Readout rows on the solver: its method and whether it converged, now and so far. */
function solverRows(sim) {
  const rows = [["solver", `${sim.solver}, ${sim.converged ? "converged" : "NOT converged"}`]];
  const unconverged = sim.unconvergedSteps;
  if (unconverged > 0) {
    rows.push(["not converged", `${unconverged} of ${sim.steps} steps (worst residual ${format(sim.worstResidual, 3)})`]);
  }
  return rows;
}

/** Feeds the built plots (and keeps the builder's menus to the quantities there are now). */
function recordBuilt(sim, redraw = true) {
  const names = sim.quantityNames();
  if (names.length !== app.quantityCount) {
    app.quantityCount = names.length;
    app.builder.offer(names);
  }
  app.builder.record(names, sim.quantityValues());
  if (redraw) app.builder.redraw();
}

/** What the run does at the scene's duration, for the readout. */
function endText(sim) {
  const at = `${format(sim.duration, 4)} s`;
  const mode = $("end").value;
  if (mode === "run") return `runs on past ${at}`;
  if (mode === "loop") return `loops at ${at}`;
  return app.pastEnd ? `stopped at ${at}; Play runs on` : `stops at ${at}`;
}

function render() {
  const sim = app.sim;
  const contacts = sim.contactData();
  if (app.view === app.canvasView) app.view.setDrag(app.drag?.index, app.drag && !sim.spatial ? app.drag.target : null);
  app.view.draw(sim, contacts);
  recordState(app.plots, sim, app.bodies, contacts);
  recordBuilt(sim);
  const { warning } = renderModes(sim);
  // Latched: once the explicit run went past its limit, the warning stays (also after the
  // unstable mode has thrown a body clear and no contact is compressed any more) until the
  // run is reset or h, the stepper or the scene changes.
  if (warning) app.instability = warning;
  if (app.instability && !app.error) showMessage(`Time step too large for central difference: ${app.instability}`);
  if (!app.instability && app.error?.startsWith("Time step too large")) showMessage("");
  $("force-scale").textContent = app.view.forceLegendText?.() ?? `100 px ≙ ${format(app.view.forceLegend(), 3)} N`;
  const rows = [
    ["t", `${format(sim.time, 6)} s`],
    ["end", endText(sim)],
    ["energy", `${format(sim.energy)} J`],
    ["iterations", String(sim.iterations)],
    ["residual", format(sim.residual, 3)],
    ...solverRows(sim),
    ...(app.stepMs === undefined ? [] : [["step time", `${format(app.stepMs, 3)} ms`]]),
    ["digest", `${sim.digest} (${sim.steps} steps)`],
  ];
  const ids = sim.contactIds();
  // Law cases come from the steppers that solve the contact laws (not the acceleration or
  // penalty steppers, whose lawData is zeros).
  const laws = sim.spatial && (sim.stepper === "nsga" || sim.stepper === "moreau-jean") ? sim.lawData() : null;
  const CASES = ["open", "stick", "slip", "rolling", "spinning"];
  const c = layout.contact;
  // A pile has hundreds of contacts: the readout lists the first few and sums up the rest.
  const SHOWN = 8;
  if (ids.length > SHOWN) {
    rows.push(["contacts", `${ids.length} (${SHOWN} listed)`]);
    rows.push(["deepest gap", `${format(sim.deepestGap * 1e3)} mm`]);
  }
  if (sim.sleepingBodies > 0) rows.push(["asleep", `${sim.sleepingBodies} bodies`]);
  ids.slice(0, SHOWN).forEach((id, k) => {
    rows.push([`N ${id}`, `${format(contacts[c.stride * k + c.normal])} N`]);
    rows.push([`d ${id}`, `${format(contacts[c.stride * k + c.gap] * 1e3)} mm`]);
    rows.push([`state ${id}`, STATE_NAMES[contacts[c.stride * k + c.state]] ?? "?"]);
    if (laws) rows.push([`case ${id}`, CASES[laws[layout.law.stride * k + layout.law.case]] ?? "?"]);
  });
  if (app.loop.behind) rows.push(["speed", "slower than real time"]);
  $("readout").replaceChildren(...rows.map(([k, v]) => {
    const div = document.createElement("div");
    const dt = document.createElement("dt");
    const dd = document.createElement("dd");
    dt.textContent = k;
    dd.textContent = v;
    div.dataset.key = k;
    if (k === "not converged" || v.includes("NOT converged")) div.className = "warn";
    div.append(dt, dd);
    return div;
  }));
  renderTheory(sim.theory());
  describeForScreenReaders(sim, ids, contacts);
}

/**
 * Every two seconds: the key readouts into a polite live region, and each plot's latest
 * values as its text alternative.
 */
function describeForScreenReaders(sim, ids, contacts) {
  const now = performance.now();
  if (now - (app.lastAnnounced ?? -Infinity) < 2000) return;
  app.lastAnnounced = now;
  const c = layout.contact;
  const first = ids.slice(0, 3).map((id, k) =>
    `${id}: N ${format(contacts[c.stride * k + c.normal], 4)} N, gap ${format(contacts[c.stride * k + c.gap] * 1e3, 4)} mm`);
  const status = `${sim.converged ? "" : "Not converged. "}t ${format(sim.time, 4)} s, energy ${format(sim.energy, 4)} J. ${first.join("; ")}`;
  $("announce").textContent = status;
  const plotText = {
    "plot-normal": `Normal reaction at t = ${format(sim.time, 4)} s: ${ids.slice(0, 8).map((id, k) => `${id} ${format(contacts[c.stride * k + c.normal], 4)} N`).join(", ") || "no contact"}`,
    "plot-gap": `Gap at t = ${format(sim.time, 4)} s: ${ids.slice(0, 8).map((id, k) => `${id} ${format(contacts[c.stride * k + c.gap] * 1e3, 4)} mm`).join(", ") || "no contact"}`,
    "plot-frequency": sim.modesLive
      ? `Contact-mode frequencies now: ${sim.frequencies().slice(0, 4).map((w) => `${format(w, 4)} rad/s`).join(", ") || "none"}`
      : "Contact-mode frequencies: not computed live for a system of more than 128 coordinates",
  };
  for (const [id, text] of Object.entries(plotText)) {
    $(id).setAttribute("role", "img");
    $(id).setAttribute("aria-label", text);
  }
}

function renderTheory(lines) {
  const body = $("theory").tBodies[0];
  if (lines.length === 0) {
    const tr = document.createElement("tr");
    const td = document.createElement("td");
    td.colSpan = 3;
    td.textContent = "no closed form for this scene: the simulation is the experiment";
    tr.append(td);
    body.replaceChildren(tr);
    return;
  }
  body.replaceChildren(...lines.map((l) => {
    const tr = document.createElement("tr");
    if (l.wrong) tr.className = "wrong";
    const shown = (x) => (x === null || Number.isNaN(x) ? "—" : `${format(x)} ${l.unit}`);
    const cells = [l.label, shown(l.predicted), shown(l.simulated)];
    cells.forEach((text, i) => {
      const td = document.createElement("td");
      td.textContent = text;
      if (i > 0) td.className = "num";
      tr.append(td);
    });
    return tr;
  }));
}

function applyDrag() {
  if (!app.drag) return;
  if (app.drag.spatial) {
    applyDrag3();
    return;
  }
  const { index, target } = app.drag;
  const poses = app.sim.bodyPoses();
  const vel = app.sim.bodyVelocities();
  const body = app.bodies[index];
  // A critically damped spring of 10 rad/s towards the pointer, scaled by the body's mass,
  // plus the body's weight held up, so that a held body sits at the pointer (without it a
  // body hangs g/ω² = 98 mm below).
  const m = body.mass ?? 1;
  const w = 10;
  const [gx, gy] = app.gravity ?? [0, 0];
  const { pose: P, velocity: V } = layout.planar;
  const [p, u] = [P.stride * index, V.stride * index];
  const fx = m * (w * w * (target[0] - poses[p + P.x]) - 2 * w * vel[u + V.vx] - gx);
  const fy = m * (w * w * (target[1] - poses[p + P.y]) - 2 * w * vel[u + V.vy] - gy);
  try {
    app.sim.setPush(body.name, fx, fy, 0);
  } catch (e) {
    showMessage(e.message);
  }
}

/** The same spring in space (3-D view): towards the target, its weight carried. */
function applyDrag3() {
  const { index, target } = app.drag;
  const body = app.bodies[index];
  const m = body.mass ?? 1;
  const w = 10;
  const g = app.gravity ?? [0, 0, 0];
  const { pose: P, velocity: V } = layout.spatial;
  const poses = app.sim.bodyPoses3();
  const vel = app.sim.bodyVelocities3();
  const [p, u] = [P.stride * index, V.stride * index];
  const x = [poses[p + P.x], poses[p + P.y], poses[p + P.z]];
  const v = [vel[u + V.vx], vel[u + V.vy], vel[u + V.vz]];
  const f = [0, 1, 2].map((k) => m * (w * w * (target[k] - x[k]) - 2 * w * v[k] - g[k]));
  try {
    app.sim.setPush3(body.name, f[0], f[1], f[2]);
  } catch (e) {
    showMessage(e.message);
  }
  app.view3d.showDragLine(x, target);
}

function releaseDrag() {
  if (!app.drag) return;
  const name = app.bodies[app.drag.index].name;
  try {
    if (app.drag.spatial) app.sim.setPush3(name, 0, 0, 0);
    else app.sim.setPush(name, 0, 0, 0);
  } catch { /* scene changed */ }
  app.drag = null;
}

let last = performance.now();
/**
 * Steps no further than the scene's duration unless the run is to run on; there it stops
 * (Play then runs on past it) or starts again, as the "at the end" menu says.
 */
function stepTowardEnd(n) {
  if (!app.playing) return; // stopped at the end earlier in this frame
  const mode = $("end").value;
  if (mode === "run" || app.pastEnd) {
    stepSafely(n);
    return;
  }
  const left = Math.round((app.sim.duration - app.sim.time) / app.sim.timeStep);
  if (left > 0) {
    stepSafely(Math.min(n, left));
    return;
  }
  if (mode === "loop") {
    app.sim.reset();
    app.plots.clear();
    app.instability = null;
    return;
  }
  app.playing = false;
  app.pastEnd = true;
  $("play").textContent = "Play";
}

function frame(now) {
  const elapsed = Math.min((now - last) / 1000, 0.1);
  last = now;
  if (app.playing && !document.hidden && !app.error?.includes("paused")) {
    app.loop.accumulate(elapsed * app.speed);
    applyDrag();
    try {
      app.loop.drain(app.sim.timeStep, stepTowardEnd);
    } catch { /* message shown, paused */ }
  }
  render();
  app.frames++;
  requestAnimationFrame(frame);
}

async function main() {
  await init();
  readLayout(Simulation);
  app.presets = Simulation.presets();
  app.canvasView = new CanvasView($("canvas"));
  app.view = app.canvasView;
  app.plots = new TracePlots({
    normal: $("plot-normal"),
    gap: $("plot-gap"),
    frequency: $("plot-frequency"),
    motion: $("plot-motion"),
    laws: $("plot-laws"),
  });
  app.loop = new FixedStepLoop();
  for (const p of app.presets) $("scene").append(new Option(p.name, p.name));

  $("scene").addEventListener("change", () => {
    if ($("scene").value === EDITED) return;
    showMessage("");
    loadScene($("scene").value);
    suggestPlots(app.sim);
  });
  $("stepper").addEventListener("change", () => {
    try {
      app.sim.setStepper($("stepper").value);
      app.instability = null;
      showFor($("controls"), app.sim.stepper);
      chooseSpeed(app.sim);
      showMessage("");
      writeUrl();
    } catch (e) {
      showMessage(e.message);
      $("stepper").value = app.sim.stepper; // the menu shows the stepper that runs
    }
  });
  $("solver").addEventListener("change", () => {
    try { applySolver(app.sim, $("solver").value); showMessage(""); } catch (e) { showMessage(e.message); }
  });
  $("dt").addEventListener("change", () => {
    const text = $("dt").value;
    const h = parseNumber(text);
    try {
      if (h === null) throw new Error(`h: '${text}' is not a number; allowed 1e-7 to 0.1 s`);
      app.sim.setTimeStep(h);
      app.instability = null;
      showMessage("");
      writeUrl();
    } catch (e) {
      showMessage(e.message);
    }
    $("dt").value = boxText(app.sim.timeStep);
  });
  $("play").addEventListener("click", () => {
    app.playing = !app.playing;
    $("play").textContent = app.playing ? "Pause" : "Play";
    if (app.playing && app.error?.includes("paused")) showMessage("");
  });
  $("single").addEventListener("click", () => {
    app.playing = false;
    $("play").textContent = "Play";
    try { stepSafely(1); } catch { /* shown */ }
    render();
  });
  $("reset").addEventListener("click", () => {
    app.instability = null;
    app.pastEnd = false;
    try { app.sim.reset(); showMessage(""); } catch (e) { showMessage(e.message); }
    app.plots.clear();
    app.builder.clear();
    app.loop.clear();
    render();
  });
  $("speed").addEventListener("change", () => { app.speed = Number($("speed").value); });
  $("end").addEventListener("change", () => { writeUrl(); render(); });
  $("view-mode").addEventListener("change", () => {
    chooseView(app.sim);
    app.view.setScene(app.sim);
    writeUrl();
    render();
  });
  document.addEventListener("visibilitychange", () => { last = performance.now(); app.loop.clear(); });

  const canvas = $("canvas");
  canvas.addEventListener("pointerdown", (e) => {
    const p = app.view.pointerToWorld(e);
    const index = app.view.hit(p);
    if (index >= 0) {
      app.drag = { index, target: p };
      app.selected = index;
      canvas.setPointerCapture(e.pointerId);
    }
  });
  // Keys push the selected body (the last one dragged; at first the first moving one) with
  // its weight, while held: arrows left/right/up/down.
  canvas.tabIndex = 0;
  const KEYS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
  canvas.addEventListener("keydown", (e) => {
    const d = KEYS[e.key];
    const body = app.bodies?.[app.selected];
    if (!d || !body || app.sim.spatial) return;
    e.preventDefault();
    const weight = (body.mass ?? 1) * Math.hypot(...(app.gravity ?? [0, 9.81]));
    try { app.sim.setPush(body.name, d[0] * weight, d[1] * weight, 0); } catch (err) { showMessage(err.message); }
  });
  canvas.addEventListener("keyup", (e) => {
    const body = app.bodies?.[app.selected];
    if (!KEYS[e.key] || !body || app.sim.spatial) return;
    try { app.sim.setPush(body.name, 0, 0, 0); } catch { /* scene changed */ }
  });
  canvas.addEventListener("pointermove", (e) => { if (app.drag) app.drag.target = app.view.pointerToWorld(e); });
  canvas.addEventListener("pointerup", releaseDrag);
  canvas.addEventListener("pointercancel", releaseDrag);

  const state = urlState();
  const name = app.presets.some((p) => p.name === state.scene) ? state.scene : "block-pull";
  if (state.scene && name !== state.scene) showMessage(`URL: unknown scene '${state.scene}'; showing ${name}`);
  if (["stop", "loop", "run"].includes(state.end)) $("end").value = state.end;
  else if (state.end) showMessage(`URL: end='${state.end}' is not stop, loop or run; ignored`);
  if (state.view === "projections") $("view-mode").value = "projections";
  else if (state.view && state.view !== "3d") showMessage(`URL: view='${state.view}' is not 3d or projections; ignored`);
  app.editor = new SceneEditor((json) => loadSceneJson(json));
  app.builder = new PlotBuilder($("custom-plots"), () => writeUrl(), { y: $("builder-y"), x: $("builder-x"), add: $("builder-add") });
  let fromLink = false;
  if (state.sceneJson) {
    try {
      loadSceneJson(await unpackScene(state.sceneJson), state.stepper, state.dt, state.solver);
      fromLink = true;
    } catch (e) {
      showMessage(`URL: ${e.message}`);
    }
  }
  if (!fromLink) loadScene(name, state.params, state.stepper, state.dt, state.solver);
  for (const entry of state.plots) {
    const [y, x = "t [s]"] = entry.split("~");
    app.builder.add(y, x);
  }
  suggestPlots(app.sim);
  if (state.steps > 0) {
    // A shared run: replay it exactly, its changes included, filling the plots; then wait.
    try {
      if (state.timeline) app.sim.replayTimeline(state.timeline);
      replay(app.sim, state.steps, () => {
        recordState(app.plots, app.sim, app.bodies, app.sim.contactData(), false);
        recordBuilt(app.sim, false);
      });
    } catch (e) {
      showMessage(e.message);
    }
    app.playing = false;
    $("play").textContent = "Play";
    // The replayed changes may have switched the stepper or h.
    $("stepper").value = app.sim.stepper;
    $("dt").value = boxText(app.sim.timeStep);
    render();
  }
  $("csv").addEventListener("click", () => {
    const csv = app.sim.traceCsv();
    if (!csv) { showMessage("Nothing recorded yet: run a step first."); return; }
    download(`${app.sim.name}.csv`, new Blob([csv], { type: "text/csv" }));
  });
  $("png").addEventListener("click", () => {
    figureCanvas().toBlob((blob) => download(`${app.sim.name}.png`, blob));
  });
  app.figureCanvas = figureCanvas; // for page tests
  $("link").addEventListener("click", () => {
    writeUrl();
    const link = replayLink(app.sim);
    navigator.clipboard?.writeText(link).catch(() => {});
    showMessage(app.sim.timelineExact
      ? `Link to this run (digest ${app.sim.digest}): ${link}`
      : `This run had more changes than a link keeps (10,000), so the link replays its start and its first changes only (a different digest): ${link}`);
    app.shareLink = link;
  });
  // Shortcuts when no control has focus (as in the figures): space plays or pauses, → takes
  // one step, r resets.
  document.addEventListener("keydown", (e) => {
    if (e.target !== document.body || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === " ") { e.preventDefault(); $("play").click(); }
    else if (e.key === "ArrowRight") { e.preventDefault(); $("single").click(); }
    else if (e.key === "r" || e.key === "R") { e.preventDefault(); $("reset").click(); }
  });
  // Reduced motion: the run waits for Play.
  if (window.matchMedia?.("(prefers-reduced-motion: reduce)").matches && state.steps === 0) {
    app.playing = false;
    $("play").textContent = "Play";
  }
  app.ready = true;
  requestAnimationFrame(frame);
}

main().catch((e) => showMessage(`failed to start: ${e.message ?? e}`));
