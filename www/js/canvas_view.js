// The 2-D canvas view of a scene. The drawing is the library's (src/render/, painted through
// web-sys): planar scenes as they are, scenes in space as a side and a top projection, from the
// solver's own geometry. This file sizes the canvas to its box at devicePixelRatio and turns
// pointer events into world points.

import { SceneCanvas } from "../pkg/contactlab.js";

/** Sizes a canvas's backing store to its CSS box at devicePixelRatio; returns the ratio. */
export function fitCanvas(canvas) {
  const dpr = window.devicePixelRatio || 1;
  const { width, height } = canvas.getBoundingClientRect();
  canvas.width = Math.max(1, Math.round(width * dpr));
  canvas.height = Math.max(1, Math.round(height * dpr));
  return dpr;
}

export class CanvasView {
  /** @param {HTMLCanvasElement} canvas */
  constructor(canvas) {
    this.canvas = canvas;
    this.painter = new SceneCanvas(canvas);
    this.sim = null;
    this.resize();
    new ResizeObserver(() => this.resize()).observe(canvas);
  }

  resize() {
    this.dpr = fitCanvas(this.canvas);
  }

  /** Frames the view on the scene as it stands (when the scene changes). */
  setScene(sim) {
    this.sim = sim;
    this.painter.frame(sim);
  }

  /** Draws the simulation now (the contacts come from the simulation itself). */
  draw(sim) {
    this.sim = sim;
    this.painter.draw(sim, this.dpr);
  }

  /** A dashed line from body `index` to the world point `target`, or none (null). */
  setDrag(index, target) {
    if (target) this.painter.setDrag(index, target[0], target[1]);
    else this.painter.clearDrag();
  }

  /** The world point under a pointer event ([NaN, NaN] in the projections). */
  pointerToWorld(event) {
    const r = this.canvas.getBoundingClientRect();
    return Array.from(this.painter.pointerToWorld((event.clientX - r.left) * this.dpr, (event.clientY - r.top) * this.dpr));
  }

  /** Index of the moving body under world point p, or -1. */
  hit(p) {
    return this.sim ? this.painter.hit(this.sim, p[0], p[1]) : -1;
  }

  /** World → canvas pixels of the last planar drawing, for tests and overlays. */
  transform() {
    const at = (x, y) => this.painter.worldToPixels(x, y);
    return { scale: this.painter.pixelsPerMetre, x: (x) => at(x, 0)[0], y: (y) => at(0, y)[1] };
  }

  /** Newtons represented by 100 CSS pixels of arrow. */
  forceLegend() {
    return this.painter.forceForPixels(100 * this.dpr);
  }
}
