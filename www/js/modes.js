// The contact-modes panel: the h·ω_max gauge against the central-difference limit 2, and per
// mode its coupled frequency, the decoupled per-contact estimate, and the gap pattern drawn as
// arrows (up = the gap opens, down = it closes, lengths to scale within the mode).

const SVG = "http://www.w3.org/2000/svg";

function fmt(x) {
  return Number(x.toPrecision(5)).toString();
}

/** A small drawing of one mode shape: one arrow per compressed contact. */
function pattern(shape) {
  const w = 34 * shape.length + 10, h = 40, mid = h / 2;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("width", String(w));
  svg.setAttribute("height", String(h));
  svg.setAttribute("class", "pattern");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `gap pattern ${shape.map((x) => x.toFixed(2)).join(", ")}`);
  const line = document.createElementNS(SVG, "line");
  Object.entries({ x1: 2, x2: w - 2, y1: mid, y2: mid, stroke: "#8a7f72" }).forEach(([k, v]) => line.setAttribute(k, String(v)));
  svg.append(line);
  shape.forEach((x, i) => {
    const cx = 22 + 34 * i;
    const len = 15 * x;
    const arrow = document.createElementNS(SVG, "path");
    const tip = mid - len;
    const head = len > 0 ? 4 : -4;
    arrow.setAttribute("d", Math.abs(len) < 0.5
      ? `M${cx - 3},${mid} h6`
      : `M${cx},${mid} V${tip} M${cx - 4},${tip + head} L${cx},${tip} L${cx + 4},${tip + head}`);
    arrow.setAttribute("stroke", "#1f6feb");
    arrow.setAttribute("stroke-width", "2");
    arrow.setAttribute("fill", "none");
    svg.append(arrow);
  });
  return svg;
}

/**
 * The explicit penalty stepper past its stability limit now: the warning text, else null.
 * (Cheap enough to ask after every step of the small scenes that stepper runs.)
 * @param {object} sim the wasm Simulation
 */
export function explicitInstability(sim) {
  // (Not for a system too large to analyse every step: see renderModes.)
  if (sim.stepper !== "penalty-explicit" || !sim.modesLive) return null;
  const limit = sim.timeStepLimit;
  if (limit === undefined || sim.timeStep < limit) return null;
  return `h·ω_max = ${fmt(sim.hOmegaMax)}; limit h < ${fmt(limit * 1e3)} ms (2/ω_max with no damping) — UNSTABLE: the fastest mode grows every step`;
}

/** The gauge at `ratio` of the limit (1 = at it), red when `over`. */
function setGauge(gauge, ratio, over) {
  gauge.classList.toggle("warn", over);
  gauge.setAttribute("aria-valuenow", String(ratio * 2));
  gauge.querySelector(".gauge-fill").style.width = `${Math.min(100, (ratio / 1.5) * 100)}%`;
}

/**
 * A system too large for its modes every frame: the gauge shows Gershgorin's upper bound on
 * h·ω_max (O(contacts) at any size), and for the explicit stepper the step that bound proves
 * stable; the table and the frequency plot stay hidden.
 */
function renderBound(sim, gauge) {
  const bound = sim.hOmegaBound;
  const explicit = sim.stepper === "penalty-explicit";
  const safe = explicit ? sim.timeStepLimitBound : undefined;
  const over = explicit && safe !== undefined && sim.timeStep >= safe;
  setGauge(gauge, explicit && safe !== undefined ? sim.timeStep / safe : bound / 2, over);
  let text;
  if (bound === 0) text = "no compressed contact: nothing oscillates";
  else if (explicit && safe !== undefined) text = `h·ω_max ≤ ${fmt(bound)} (Gershgorin's bound): stable for h < ${fmt(safe * 1e3)} ms by it${over ? " — NOT GUARANTEED STABLE: the fastest mode may grow every step" : ""}`;
  else text = `h·ω_max ≤ ${fmt(bound)} (Gershgorin's bound) — backward Euler: stable for every h`;
  gauge.querySelector(".gauge-text").textContent = text;
  document.getElementById("modes-note").textContent =
    "More than 128 coordinates: the coupled contact modes (a dense eigenproblem) are not computed live; the gauge shows an upper bound on h·ω_max from Gershgorin's theorem, cheap at any size. sim.modes() gives the modes when asked.";
  return { warning: over ? text : null };
}

/**
 * @param {object} sim the wasm Simulation
 * @returns {{warning: string|null}}
 */
export function renderModes(sim) {
  // Contact modes are those of the penalty springs: rigid steppers have no contact stiffness,
  // so neither gauge nor frequencies apply to them. The analysis is dense (an eigenproblem
  // over the compressed contacts, a pseudo-inverse over every coordinate): a system too large
  // for it (`modesLive` false) would stall the page every frame, so its gauge shows a bound.
  const penalty = sim.stepper.startsWith("penalty");
  for (const id of ["modes", "figure-frequency"]) {
    const element = document.getElementById(id);
    if (element) element.hidden = !(penalty && sim.modesLive);
  }
  const gauge = document.getElementById("gauge");
  gauge.hidden = !penalty;
  if (!penalty) {
    document.getElementById("modes-note").textContent =
      `Rigid contacts under ${sim.stepper}: no contact stiffness, so no contact modes and no stability limit on h from them. Choose penalty-explicit or penalty-implicit to see them.`;
    return { warning: null };
  }
  if (!sim.modesLive) return renderBound(sim, gauge);
  const modes = sim.modes();
  const hw = sim.hOmegaMax;
  const limit = sim.timeStepLimit;
  const explicit = sim.stepper === "penalty-explicit";
  const h = sim.timeStep;
  // The limit includes the contact damping (it is 2/ω_max without it).
  const over = explicit && limit !== undefined && h >= limit;
  const ratio = explicit && limit !== undefined ? h / limit : hw / 2;
  setGauge(gauge, ratio, over);
  let text;
  if (modes.omega.length === 0) text = "no compressed contact: nothing oscillates";
  else if (explicit) text = `h·ω_max = ${fmt(hw)}; limit h < ${fmt(limit * 1e3)} ms (2/ω_max with no damping)${over ? " — UNSTABLE: the fastest mode grows every step" : ""}`;
  else text = `h·ω_max = ${fmt(hw)} — ${modes.stability}`;
  gauge.querySelector(".gauge-text").textContent = text;

  const body = document.querySelector("#modes tbody");
  const rows = modes.omega.map((w, j) => {
    const tr = document.createElement("tr");
    const name = document.createElement("td");
    name.textContent = `${j + 1}`;
    const value = document.createElement("td");
    value.className = "num";
    value.textContent = `${fmt(w)} rad/s`;
    const shape = document.createElement("td");
    shape.append(pattern(modes.modeShapes[j]));
    tr.append(name, value, shape);
    return tr;
  });
  body.replaceChildren(...rows);
  const note = document.getElementById("modes-note");
  const decoupled = modes.decoupledOmega.map(fmt).join(", ");
  note.textContent = modes.omega.length === 0 ? "" :
    `Decoupled per-contact estimates √(kᵢAᵢᵢ): ${decoupled} rad/s — not the coupled frequencies.` +
    (modes.zeroModes > 0 ? ` ${modes.zeroModes} zero eigenvalue(s): redundant gap combinations, not oscillations.` : "") +
    (modes.freeMotions > 0 ? ` ${modes.freeMotions} free motion(s) with J q = 0.` : "");
  return { warning: over ? text : null };
}
