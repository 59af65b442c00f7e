// <contact-figure>: a live, embeddable figure for course notes. One ES module; every figure on
// a page shares one wasm module and one animation loop, and runs its own simulation.
//
//   <script type="module" src="js/contact-figure.js"></script>
//   <contact-figure scene="rocking-bar" params="k=2e5,a=0.12" plots="gap,frequency" controls="k" autoplay></contact-figure>
//
// Attributes (all optional): scene, params ("name=value,…"), plots (reaction, gap, frequency,
// slip, laws), controls (parameter names or "all"), autoplay, stepper, dt, steps (run this
// many steps at load, then wait: a shared link), timeline (the changes made during a shared
// run, replayed at their steps). See docs/embed.md.

import init, { Simulation } from "../pkg/contactlab.js";
import { FixedStepLoop, slowMotion } from "./loop.js";
import { CanvasView } from "./canvas_view.js";
import { TracePlots, recordState } from "./plots.js";
import { buildControls } from "./controls.js";
import { readOptions } from "./options.js";
import { readLayout } from "./layout.js";
import { composeFigure, download, legendOf } from "./export.js";
import { unpackScene } from "./editor.js";
import { PlotBuilder, parseEntries } from "./plot_builder.js";

let wasmSource = new URL("../pkg/contactlab_bg.wasm", import.meta.url);
let ready = null;

/** Lets a single-file build hand over the wasm bytes instead of a URL. */
export function setWasmSource(source) {
  wasmSource = source;
}

function wasm() {
  ready ??= init({ module_or_path: globalThis.__contactlabAssets?.wasm ?? wasmSource }).then(() => readLayout(Simulation));
  return ready;
}

const PLOT_CAPTIONS = {
  reaction: "Normal reaction N(t) [N]",
  gap: "Gap d(t) [mm]",
  frequency: "Contact-mode frequencies ω(t) [rad/s]",
  slip: "Slip speed [m/s] and ω [rad/s]",
  laws: "Friction [N] and resistance torques [N·m]",
};

const STYLE = `
contact-figure { display: block; margin: 1rem 0; --cf-height: 220px; }
.cf { border: 1px solid #d5d9e0; border-radius: 6px; padding: 0.5rem; background: #fff; font: 14px/1.4 system-ui, sans-serif; color: #1d2330; }
.cf:focus-visible { outline: 3px solid #1f6feb; outline-offset: 2px; }
.cf-canvas { display: block; width: 100%; height: var(--cf-height); }
.cf-plots { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); gap: 0.5rem; }
.cf-plots figure { margin: 0; min-width: 0; }
.cf-plots figcaption { font-size: 0.8rem; color: #5b6474; }
.cf-built { display: contents; }
.cf-bar { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; margin-top: 0.4rem; }
.cf-bar button { font: inherit; padding: 0.1rem 0.6rem; border: 1px solid #d5d9e0; border-radius: 4px; background: #fff; cursor: pointer; }
.cf-bar button:focus-visible { outline: 2px solid #1f6feb; }
.cf-digest { font: 12px ui-monospace, monospace; color: #5b6474; margin-left: auto; }
.cf-digest.cf-warning { color: #b3261e; }
.cf-message { margin: 0.3rem 0; padding: 0.3rem 0.5rem; background: #fff4d6; color: #6b4e00; border-radius: 4px; }
.cf-link { width: 100%; font: 12px ui-monospace, monospace; }
.cf-controls .param { display: grid; grid-template-columns: 1fr 6rem; gap: 0 0.5rem; margin: 0.3rem 0; }
.cf-controls .param label { grid-column: 1 / -1; font-size: 0.85rem; }
`;

function injectStyle() {
  if (document.getElementById("contact-figure-style")) return;
  const style = document.createElement("style");
  style.id = "contact-figure-style";
  style.textContent = STYLE;
  document.head.append(style);
  const inlined = globalThis.__contactlabAssets?.uplotCss;
  if (inlined) {
    const css = document.createElement("style");
    css.textContent = inlined;
    document.head.append(css);
  } else {
    const uplot = document.createElement("link");
    uplot.rel = "stylesheet";
    uplot.href = new URL("../vendor/uPlot.min.css", import.meta.url).href;
    document.head.append(uplot);
  }
}

// One animation loop for every figure on the page. `frameStats` keeps the time the figures
// take per frame (stepping and drawing), for the frame-time benchmark (tools/bench-figures.mjs).
const running = new Set();
let loopStarted = false;
export const frameStats = { frames: 0, totalMs: 0, maxMs: 0, samples: [] };
function tick(now) {
  const start = performance.now();
  for (const figure of running) figure.frame(now);
  const ms = performance.now() - start;
  if (running.size > 0) {
    frameStats.frames++;
    frameStats.totalMs += ms;
    frameStats.maxMs = Math.max(frameStats.maxMs, ms);
    if (frameStats.samples.length < 10000) frameStats.samples.push(ms);
  }
  requestAnimationFrame(tick);
}
window.contactFigureStats = frameStats;
function startLoop() {
  if (!loopStarted) {
    loopStarted = true;
    requestAnimationFrame(tick);
  }
}

function button(text, label, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  b.setAttribute("aria-label", label);
  b.addEventListener("click", onClick);
  return b;
}


export class ContactFigure extends HTMLElement {
  async connectedCallback() {
    if (this.root) return;
    injectStyle();
    this.root = document.createElement("div");
    this.root.className = "cf";
    this.root.tabIndex = 0;
    this.root.setAttribute("role", "group");
    this.message = document.createElement("div");
    this.message.className = "cf-message";
    this.message.setAttribute("role", "alert");
    this.message.hidden = true;
    this.append(this.root);
    try {
      await wasm();
      await this.build();
    } catch (e) {
      this.root.append(this.message);
      this.showMessage(`contact-figure: ${e.message ?? e}`);
    }
  }

  disconnectedCallback() {
    running.delete(this);
    this.observer?.disconnect();
  }

  /** Options come from attributes; embed.html passes a URL lookup instead. */
  optionSource() {
    return (name) => this.getAttribute(name);
  }

  showMessage(text) {
    this.message.textContent = text;
    this.message.hidden = !text;
  }

  async build() {
    const get = this.optionSource();
    const options = readOptions(get, Simulation.presets());
    this.options = options;
    // An edited scene (from the playground's editor) comes packed in `scene-json`.
    this.packedScene = get("scene-json");
    if (this.packedScene) {
      try {
        this.sim = Simulation.fromScene(await unpackScene(this.packedScene));
        options.scene = this.sim.name;
      } catch (e) {
        options.errors.push(`scene-json: ${e.message.replace(/^scene-json: /, "")}`);
        this.packedScene = null;
      }
    }
    this.sim ??= Simulation.preset(options.scene, options.params);
    if (options.stepper) {
      try { this.sim.setStepper(options.stepper); } catch (e) { options.errors.push(e.message); }
    }
    if (options.dt !== null) this.sim.setTimeStep(options.dt);
    this.sim.startRecording();
    this.root.setAttribute("aria-label", `live figure: ${options.scene}`);

    this.canvas = document.createElement("canvas");
    this.canvas.className = "cf-canvas";
    this.canvas.setAttribute("role", "img");
    this.canvas.setAttribute("aria-label", `${options.scene}: bodies, contacts and normal-force arrows`);
    const plots = document.createElement("div");
    plots.className = "cf-plots";
    const elements = {};
    const key = { reaction: "normal", gap: "gap", frequency: "frequency", slip: "motion", laws: "laws" };
    for (const name of options.plots) {
      const fig = document.createElement("figure");
      const cap = document.createElement("figcaption");
      cap.textContent = PLOT_CAPTIONS[name];
      const div = document.createElement("div");
      fig.append(cap, div);
      plots.append(fig);
      elements[key[name]] = div;
    }
    // Plots of any quantity against any other, from the `plot` attribute ("Y~X;…").
    const built = document.createElement("div");
    built.className = "cf-built";
    plots.append(built);
    this.builder = new PlotBuilder(built, () => {});
    const known = this.sim.quantityNames();
    for (const { y, x } of parseEntries(this.optionSource()("plot"))) {
      // Contacts come and go: a name with a contact id ("a/b#0.") is taken on trust.
      const bad = [y, x].filter((n) => !known.includes(n) && !n.includes("/"));
      if (bad.length) options.errors.push(`plot: unknown ${bad.join(", ")}; known now: ${known.join(", ")}`);
      else this.builder.add(y, x);
    }
    const controls = document.createElement("div");
    controls.className = "cf-controls";
    const bar = document.createElement("div");
    bar.className = "cf-bar";
    this.playButton = button("Play", "play or pause (space)", () => this.toggle());
    bar.append(
      this.playButton,
      button("Step", "single step (right arrow)", () => this.single()),
      button("Reset", "reset (R)", () => this.restart()),
      button("Link", "copy a link that reproduces this figure", () => this.share()),
      button("CSV", "download the traces as CSV", () => download(`${options.scene}.csv`, new Blob([this.sim.traceCsv()], { type: "text/csv" }))),
      button("PNG", "download the figure as PNG", () => this.png()),
    );
    this.digestText = document.createElement("span");
    this.digestText.className = "cf-digest";
    bar.append(this.digestText);
    this.linkField = document.createElement("input");
    this.linkField.className = "cf-link";
    this.linkField.readOnly = true;
    this.linkField.hidden = true;
    this.linkField.setAttribute("aria-label", "share link");
    this.root.append(this.message, this.canvas, plots, controls, bar, this.linkField);

    this.view = new CanvasView(this.canvas);
    const bodies = this.sim.bodies();
    this.bodies = bodies;
    this.view.setScene(this.sim);
    this.plots = new TracePlots(elements);
    const shown = this.sim.parameters().filter((p) => options.controls.includes(p.name));
    buildControls(controls, shown, (name, value) => {
      this.sim.setParameter(name, value);
      this.options.params[name] = value;
      this.restart();
      this.showMessage("");
    }, (m) => this.showMessage(m));
    if (options.errors.length) this.showMessage(options.errors.join("; "));

    this.loop = new FixedStepLoop({ budgetMs: 4 });
    this.speed = slowMotion(this.sim);
    if (options.steps > 0) {
      // A shared run: replay it (with its changes), recording evenly spaced samples for the plots.
      try {
        if (options.timeline) this.sim.replayTimeline(options.timeline);
        const stride = Math.max(1, Math.ceil(options.steps / 2000));
        let done = 0;
        while (done < options.steps) {
          const target = Math.min(options.steps, done + stride);
          while (done < target) done += this.sim.step(target - done);
          recordState(this.plots, this.sim, this.bodies, this.sim.contactData(), false);
        }
      } catch (e) {
        options.errors.push(e.message);
        this.showMessage(options.errors.join("; "));
      }
    }
    const reduced = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
    this.wantsPlay = options.autoplay && !reduced && options.steps === 0;
    this.visible = false;
    this.playButton.textContent = this.wantsPlay ? "Pause" : "Play";
    this.root.addEventListener("keydown", (e) => this.key(e));
    this.observer = new IntersectionObserver((entries) => {
      this.visible = entries.some((e) => e.isIntersecting);
    });
    this.observer.observe(this);
    // Redraw after layout changes even while paused (the first draw may precede layout).
    this.dirty = true;
    new ResizeObserver(() => { this.dirty = true; }).observe(this.canvas);
    this.last = performance.now();
    running.add(this);
    startLoop();
    this.render();
    this.ready = true;
  }

  get playing() {
    return this.wantsPlay && this.visible && !document.hidden;
  }

  key(e) {
    if (e.target !== this.root) return; // typing in a control
    if (e.key === " ") { e.preventDefault(); this.toggle(); }
    else if (e.key === "ArrowRight") { e.preventDefault(); this.single(); }
    else if (e.key === "r" || e.key === "R") { e.preventDefault(); this.restart(); }
  }

  toggle() {
    this.wantsPlay = !this.wantsPlay;
    this.playButton.textContent = this.wantsPlay ? "Pause" : "Play";
  }

  stepSafely(n) {
    try {
      this.sim.step(n);
    } catch (e) {
      this.wantsPlay = false;
      this.playButton.textContent = "Play";
      this.showMessage(`${e.message} — paused`);
      throw e;
    }
  }

  single() {
    this.wantsPlay = false;
    this.playButton.textContent = "Play";
    try { this.stepSafely(1); } catch { /* shown */ }
    this.render();
  }

  restart() {
    this.sim.reset();
    this.plots.clear();
    this.builder.clear();
    this.loop.clear();
    this.render();
  }

  /** The embed.html link that rebuilds this figure at this exact step. */
  shareLink() {
    const q = new URLSearchParams();
    if (this.packedScene) q.set("scene-json", this.packedScene);
    else q.set("scene", this.options.scene);
    const params = Object.entries(this.options.params).map(([k, v]) => `${k}=${v}`).join(",");
    if (params) q.set("params", params);
    const start = this.sim.startSettings();
    q.set("stepper", start.stepper);
    q.set("dt", String(start.dt));
    q.set("steps", String(this.sim.steps));
    if (this.sim.timeline) q.set("timeline", this.sim.timeline);
    q.set("plots", this.options.plots.join(","));
    if (this.builder.plots.length) q.set("plot", this.builder.entries().join(";"));
    if (this.options.controls.length) q.set("controls", this.options.controls.join(","));
    // (In the single-file build the link points beside the script, where `make web` puts
    // an embed.html that loads it.)
    return `${new URL(globalThis.__contactlabAssets ? "embed.html" : "../embed.html", import.meta.url).href}?${q}`;
  }

  share() {
    const link = this.shareLink();
    this.linkField.value = link;
    this.linkField.hidden = false;
    this.linkField.select();
    navigator.clipboard?.writeText(link).catch(() => {});
  }

  /** The scene and its plots as one PNG with a caption (scene, parameters, stepper, h, time,
   * digest), each plot at its own size with its caption and legend. */
  png() {
    const sim = this.sim;
    const params = Object.entries(this.options.params).map(([k, v]) => `${k} = ${v}`).join(", ");
    const caption = [
      `${params ? `Parameters: ${params}. ` : ""}Stepper ${sim.stepper}, h = ${sim.timeStep} s, t = ${sim.time.toFixed(4)} s after ${sim.steps} steps; trace digest ${sim.digest}.`,
    ];
    const plots = [...this.querySelectorAll(".cf-plots figure")]
      .filter((f) => f.querySelector("canvas"))
      .map((f) => ({ caption: f.querySelector("figcaption")?.textContent ?? "", canvas: f.querySelector("canvas"), legend: legendOf(f) }));
    const out = composeFigure({ title: `contactlab — ${this.options.scene}`, caption, view: this.canvas, plots });
    out.toBlob((blob) => download(`${this.options.scene}.png`, blob));
  }

  frame(now) {
    const elapsed = Math.min((now - this.last) / 1000, 0.1);
    this.last = now;
    if (!this.playing) {
      if (this.dirty) {
        this.dirty = false;
        this.render();
      }
      return;
    }
    this.loop.accumulate(elapsed * this.speed);
    try {
      this.loop.drain(this.sim.timeStep, (n) => this.stepSafely(n));
    } catch { /* message shown */ }
    this.render();
  }

  render() {
    const sim = this.sim;
    const contacts = sim.contactData();
    this.view.draw(sim);
    recordState(this.plots, sim, this.bodies, contacts);
    if (this.builder.plots.length) {
      this.builder.record(sim.quantityNames(), sim.quantityValues());
      this.builder.redraw();
    }
    const unconverged = sim.unconvergedSteps;
    const warning = unconverged > 0 ? ` · ⚠ ${unconverged} steps NOT converged (${sim.solver})` : "";
    this.digestText.textContent = `t = ${sim.time.toFixed(4)} s · ${sim.steps} steps · digest ${sim.digest}${warning}`;
    this.digestText.classList.toggle("cf-warning", unconverged > 0);
  }
}

if (!customElements.get("contact-figure")) customElements.define("contact-figure", ContactFigure);
