// Live traces with uPlot: the normal reaction N(t) and the gap d(t) of every contact, one
// series per contact id, in a rolling window. The gap axis is in millimetres and auto-ranged,
// so a 0.1 mm penalty overlap is plainly visible.

import uPlot from "../vendor/uPlot.esm.js";
import { layout } from "./layout.js";
import { tickLabels } from "./ticks.js";

const COLORS = ["#1f6feb", "#d1242f", "#1a7f37", "#9a6700", "#8250df", "#bf3989", "#0a7ea4", "#57606a"];
const WINDOW = 4000; // samples kept

/** Room for the widest tick label and the axis title beside it, CSS px. */
function axisSize(self, values) {
  const widest = Math.max(0, ...(values ?? []).map((v) => String(v).length));
  return 28 + 7 * widest;
}

/** One rolling time series chart. */
class Chart {
  constructor(element, yLabel) {
    this.element = element;
    this.yLabel = yLabel;
    this.ids = [];
    this.data = [[]];
    this.plot = null;
  }

  build(ids) {
    this.ids = ids.slice();
    this.data = [[], ...ids.map(() => [])];
    this.plot?.destroy();
    const width = Math.max(200, this.element.clientWidth || 400);
    this.plot = new uPlot(
      {
        width,
        height: 200,
        legend: { show: ids.length > 0 && ids.length <= 8 },
        scales: {
          x: { time: false },
          // Never zoom in below 1e-3 of the axis unit: round-off must not fill the plot.
          y: { range: (u, min, max) => (max - min < 1e-3 ? [min - 5e-4, max + 5e-4] : [min, max]) },
        },
        axes: [
          { label: "t [s]", values: (u, splits, axis, space, increment) => tickLabels(splits, increment) },
          { label: this.yLabel, size: axisSize, values: (u, splits, axis, space, increment) => tickLabels(splits, increment) },
        ],
        series: [{ label: "t" }, ...ids.map((id, i) => ({ label: id, stroke: COLORS[i % COLORS.length], width: 1.5 }))],
      },
      this.shown(),
      this.element,
    );
  }

  push(t, values) {
    // A paused run draws every frame at the same time: one sample per instant.
    if (this.data[0].length && this.data[0].at(-1) === t) return;
    this.data[0].push(t);
    for (let i = 0; i < this.ids.length; i++) this.data[i + 1].push(values[i]);
    if (this.data[0].length > WINDOW) for (const column of this.data) column.splice(0, column.length - WINDOW);
  }

  redraw() {
    this.plot?.setData(this.shown());
  }

  /** The data to draw: before the first sample (a paused figure) two empty points at 0 and
   * 1 s, so that the time axis spans one second from 0, not uPlot's 0–100. */
  shown() {
    const t = this.data[0];
    if (t.length === 0) return [[0, 1], ...this.ids.map(() => [null, null])];
    if (t.at(-1) > t[0]) return this.data;
    // One instant only: widen the axis by a second with an empty point.
    return [[t[0], t[0] + 1], ...this.data.slice(1).map((column) => [column[0], null])];
  }

  resize() {
    if (this.plot) this.plot.setSize({ width: Math.max(200, this.element.clientWidth), height: 200 });
  }

  points() {
    return this.data[0].length;
  }
}

const MODES = 4; // frequency series kept

/** A chart that is not shown: it accepts data and draws nothing. */
const NONE = { build() {}, push() {}, redraw() {}, resize() {}, points: () => 0, ids: [], data: [[]] };

/**
 * The charts of a playground or a figure: reaction, gap, contact-mode frequencies and the
 * sphere laws. Pass the container of each chart to show; leave the others out.
 * @param {{normal?: HTMLElement, gap?: HTMLElement, frequency?: HTMLElement, motion?: HTMLElement, laws?: HTMLElement}} elements
 */
export class TracePlots {
  constructor({ normal, gap, frequency, motion, laws }) {
    const chart = (element, label) => (element ? new Chart(element, label) : NONE);
    this.normal = chart(normal, "N [N]");
    this.gap = chart(gap, "d [mm]");
    this.frequency = chart(frequency, "ω [rad/s]");
    this.frequency.build(Array.from({ length: MODES }, (_, j) => `ω${j + 1}`));
    this.motion = chart(motion, "m/s, rad/s");
    this.motion.build(["slip speed", "ωx", "ωy", "ωz"]);
    this.laws = chart(laws, "N, N·m");
    this.laws.build(["|F_T|", "|τ_R|", "τ_S"]);
    this.ids = null;
    const all = [this.normal, this.gap, this.frequency, this.motion, this.laws];
    const first = normal ?? gap ?? frequency ?? motion ?? laws;
    if (first) new ResizeObserver(() => all.forEach((c) => c.resize())).observe(first);
  }
  /** Starts empty traces (a new scene or a reset). */
  clear() {
    this.ids = null;
    this.frequency.build(this.frequency.ids);
    this.motion.build(this.motion.ids);
    this.laws.build(this.laws.ids);
  }

  /**
   * Records the first contact's law data (Simulation.lawData()) and the first moving body's ω.
   * @param {number} t
   * @param {Float64Array} laws layout.law.stride numbers per contact
   * @param {number[]} omega [ωx, ωy, ωz]
   */
  recordLaws(t, laws, omega) {
    const L = layout.law;
    const first = laws.length >= L.stride ? laws : new Float64Array(L.stride);
    this.motion.push(t, [first[L.slip_speed], omega[0], omega[1], omega[2]]);
    this.laws.push(t, [first[L.friction], first[L.rolling_torque], first[L.spinning_torque]]);
  }

  /** Records the contact-mode frequencies (rad/s) at time t; missing modes are gaps. */
  recordFrequencies(t, omega) {
    this.frequency.push(t, Array.from({ length: MODES }, (_, j) => (j < omega.length ? omega[j] : null)));
  }

  /**
   * Records one sample.
   * @param {number} t time, s
   * @param {string[]} ids contact ids (Simulation.contactIds())
   * @param {Float64Array} contacts Simulation.contactData()
   */
  record(t, ids, contacts) {
    if (this.ids === null || ids.some((id) => !this.ids.includes(id))) {
      const union = this.ids === null ? ids : [...this.ids, ...ids.filter((id) => !this.ids.includes(id))];
      this.ids = union;
      this.normal.build(union);
      this.gap.build(union);
    }
    const normal = this.ids.map(() => null);
    const gap = this.ids.map(() => null);
    ids.forEach((id, k) => {
      const j = this.ids.indexOf(id);
      const c = layout.contact;
      normal[j] = contacts[k * c.stride + c.normal];
      gap[j] = contacts[k * c.stride + c.gap] * 1e3;
    });
    this.normal.push(t, normal);
    this.gap.push(t, gap);
  }

  redraw() {
    this.normal.redraw();
    this.gap.redraw();
    this.frequency.redraw();
    this.motion.redraw();
    this.laws.redraw();
  }
}

/**
 * Records the current state of `sim` into `plots`: reaction and gap of every contact, the
 * contact-mode frequencies, and in space the first moving body's laws.
 * @param {TracePlots} plots
 * @param {object} sim the wasm Simulation
 * @param {Array} bodies sim.bodies()
 * @param {Float64Array} contacts sim.contactData() (already fetched for drawing)
 * @param {boolean} redraw draw now (false while replaying many samples at once)
 */
export function recordState(plots, sim, bodies, contacts, redraw = true) {
  plots.record(sim.time, sim.contactIds(), contacts);
  if (sim.spatial) {
    const first = bodies.findIndex((b) => !b.fixed);
    const v = sim.bodyVelocities3();
    const V = layout.spatial.velocity;
    const o = V.stride * first;
    plots.recordLaws(sim.time, sim.lawData(), [v[o + V.wx], v[o + V.wy], v[o + V.wz]]);
  }
  // (Not for a system too large to analyse every frame: a dense eigenproblem.)
  if (sim.modesLive) plots.recordFrequencies(sim.time, sim.frequencies());
  if (redraw) plots.redraw();
}
