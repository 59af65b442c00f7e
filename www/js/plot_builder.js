// The plot builder: any quantity the simulation reports (quantityNames(): time, each moving
// body's coordinates and velocities, each contact's gap, rate, forces, the energy and its
// parts) against time or against any other (a phase plot), as many plots as wanted; the
// choice travels in the URL as `plot=Y~X` entries.

import uPlot from "../vendor/uPlot.esm.js";
import { tickLabels } from "./ticks.js";

const KEEP = 4000; // samples kept per plot

/** "a.b [unit]" → "[unit]" (for axis titles). */
function unitOf(name) {
  return name.match(/\[[^\]]*\]$/)?.[0] ?? "";
}

/** One plot of `y` against `x`: a uPlot chart in "xy" mode (x need not increase). */
class BuiltPlot {
  constructor(container, y, x, onRemove) {
    this.y = y;
    this.x = x;
    this.xs = [];
    this.ys = [];
    this.figure = document.createElement("figure");
    this.figure.className = "built-plot";
    const caption = document.createElement("figcaption");
    caption.textContent = `${y} against ${x}`;
    const remove = document.createElement("button");
    remove.type = "button";
    remove.textContent = "×";
    remove.title = "remove this plot";
    remove.setAttribute("aria-label", `remove the plot of ${y} against ${x}`);
    remove.addEventListener("click", onRemove);
    caption.append(" ", remove);
    this.area = document.createElement("div");
    this.figure.append(caption, this.area);
    container.append(this.figure);
    const ticks = (u, splits, axis, space, increment) => tickLabels(splits, increment);
    this.plot = new uPlot({
      width: Math.max(200, Math.min(600, (container.clientWidth || container.parentElement?.clientWidth || 800) / 2 - 16)),
      height: 200,
      mode: 2, // points joined in the order they came: phase plots loop back
      legend: { show: false },
      scales: { x: { time: false, auto: true }, y: { auto: true } },
      axes: [
        { label: x, values: ticks },
        { label: unitOf(y) || y, size: 70, values: ticks },
      ],
      series: [{}, { label: y, stroke: "#1f6feb", width: 1.5, paths: uPlot.paths.linear(), points: { show: false } }],
    }, [null, [this.xs, this.ys]], this.area);
  }

  push(x, y) {
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    if (this.xs.length && this.xs.at(-1) === x && this.ys.at(-1) === y) return;
    this.xs.push(x);
    this.ys.push(y);
    if (this.xs.length > KEEP) { this.xs.splice(0, this.xs.length - KEEP); this.ys.splice(0, this.ys.length - KEEP); }
  }

  redraw() {
    this.plot.setData([null, [this.xs, this.ys]]);
  }

  clear() {
    this.xs.length = 0;
    this.ys.length = 0;
    this.redraw();
  }

  points() {
    return this.xs.length;
  }

  remove() {
    this.plot.destroy();
    this.figure.remove();
  }
}

/** Plot entries from text: "Y~X" items separated by ";" (X defaults to time). */
export function parseEntries(text) {
  return (text ?? "").split(";").map((s) => s.trim()).filter(Boolean).map((entry) => {
    const [y, x = "t [s]"] = entry.split("~").map((s) => s.trim());
    return { y, x };
  });
}

export class PlotBuilder {
  /**
   * @param {HTMLElement} container where the plots go
   * @param {() => void} changed called when the set of plots changes (to update the URL)
   * @param {{y: HTMLSelectElement, x: HTMLSelectElement, add: HTMLButtonElement}|null} menus
   *   the playground's menus (a figure has none: its plots come from its attribute)
   */
  constructor(container, changed, menus = null) {
    this.changed = changed;
    this.plots = [];
    this.container = container;
    this.menus = menus;
    menus?.add.addEventListener("click", () => this.add(menus.y.value, menus.x.value));
  }

  /** Offers the quantities of the running simulation in the two menus. */
  offer(names) {
    if (!this.menus) return;
    for (const [select, fallback] of [[this.menus.y, "energy [J]"], [this.menus.x, "t [s]"]]) {
      const was = select.value || fallback;
      select.replaceChildren(...names.map((n) => new Option(n, n)));
      select.value = names.includes(was) ? was : fallback;
    }
  }

  add(y, x) {
    if (!y || !x) return;
    const plot = new BuiltPlot(this.container, y, x, () => {
      plot.remove();
      this.plots = this.plots.filter((p) => p !== plot);
      this.changed();
    });
    this.plots.push(plot);
    this.changed();
    return plot;
  }

  /** Records the current values: `names` and `values` from the simulation. */
  record(names, values) {
    if (this.plots.length === 0) return;
    const value = (n) => { const i = names.indexOf(n); return i >= 0 ? values[i] : NaN; };
    for (const p of this.plots) p.push(value(p.x), value(p.y));
  }

  redraw() {
    for (const p of this.plots) p.redraw();
  }

  clear() {
    for (const p of this.plots) p.clear();
  }

  /** The plots as URL entries, `Y~X`. */
  entries() {
    return this.plots.map((p) => `${p.y}~${p.x}`);
  }
}
