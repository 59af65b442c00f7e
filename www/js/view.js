// Canvas drawing of the scene: floor, bodies, contact points and normal-force arrows to scale,
// at devicePixelRatio, refitting when the window resizes. Model and view stay apart: this file
// reads poses and contact arrays and draws; it never touches the simulation.

import { drawArrow, fitCanvas } from "./draw.js";
import { layout } from "./layout.js";

/** [x, y, θ] of body i from a bodyPoses() array, through the API's layout. */
function pose(poses, i) {
  const P = layout.planar.pose;
  const o = P.stride * i;
  return [poses[o + P.x], poses[o + P.y], poses[o + P.theta]];
}


/** The view grows to hold bodies that leave it up to this factor of its first size. */
const MAX_ZOOM_OUT = 3;

export class SceneView {
  /** @param {HTMLCanvasElement} canvas */
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.bodies = [];
    this.bounds = { x0: -1, x1: 1, y0: -0.1, y1: 1 };
    this.newtonsPerMetre = 100;
    this.resize();
    new ResizeObserver(() => this.resize()).observe(canvas);
  }

  resize() {
    this.dpr = fitCanvas(this.canvas);
  }

  /**
   * Sets the bodies (from Simulation.bodies()) and fits the view to their initial poses.
   * @param {Array} bodies
   * @param {Float64Array} poses
   * @param {number} weight a representative force (N) that should draw as a quarter of the view
   */
  setScene(bodies, poses, weight) {
    this.bodies = bodies;
    this.home = this.extent(poses);
    this.bounds = { ...this.home };
    const height = this.home.y1 - this.home.y0;
    this.newtonsPerMetre = weight > 0 ? weight / (0.25 * height) : 1;
  }

  /** Bounding box of the moving bodies (and fixed disks, unless `movingOnly`) with a margin;
   * the floor line shows. */
  extent(poses, movingOnly = false) {
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    this.bodies.forEach((b, i) => {
      if (b.shape === "half_plane" || (movingOnly && b.fixed)) return;
      const [x, y] = pose(poses, i);
      const r = b.shape === "disk" ? b.radius : Math.hypot(b.width, b.height) / 2;
      x0 = Math.min(x0, x - r); x1 = Math.max(x1, x + r);
      y0 = Math.min(y0, y - r); y1 = Math.max(y1, y + r);
    });
    if (!Number.isFinite(x0)) return { x0: -1, x1: 1, y0: -0.1, y1: 1 };
    if (!movingOnly) y0 = Math.min(y0, 0);
    const span = Math.max(x1 - x0, y1 - y0) || 1;
    const pad = 0.35 * span;
    return { x0: x0 - pad, x1: x1 + pad, y0: y0 - 0.25 * pad, y1: y1 + pad };
  }

  /**
   * The world box to show: the home view grown to hold bodies that leave it, up to
   * MAX_ZOOM_OUT times its size; beyond that (a body falling away, two bodies flying apart) a
   * box of at most that size follows the moving bodies' middle, so nothing shrinks to a dot.
   */
  frame(poses) {
    const h = this.home;
    const now = this.extent(poses);
    const union = {
      x0: Math.min(h.x0, now.x0), x1: Math.max(h.x1, now.x1),
      y0: Math.min(h.y0, now.y0), y1: Math.max(h.y1, now.y1),
    };
    const span = (b) => Math.max(b.x1 - b.x0, b.y1 - b.y0);
    if (span(union) <= MAX_ZOOM_OUT * span(h)) return union;
    const moving = this.extent(poses, true);
    const scale = Math.min(MAX_ZOOM_OUT, Math.max(1, span(moving) / span(h)));
    const [cx, cy] = [(moving.x0 + moving.x1) / 2, (moving.y0 + moving.y1) / 2];
    const [w, hh] = [(h.x1 - h.x0) * scale / 2, (h.y1 - h.y0) * scale / 2];
    return { x0: cx - w, x1: cx + w, y0: cy - hh, y1: cy + hh };
  }

  /** World → canvas pixels, keeping aspect ratio 1. */
  transform() {
    const { width, height } = this.canvas;
    const b = this.bounds;
    const scale = Math.min(width / (b.x1 - b.x0), height / (b.y1 - b.y0));
    const cx = (b.x0 + b.x1) / 2, cy = (b.y0 + b.y1) / 2;
    return {
      scale,
      x: (x) => width / 2 + (x - cx) * scale,
      y: (y) => height / 2 - (y - cy) * scale,
      inverse: (px, py) => [cx + (px - width / 2) / scale, cy - (py - height / 2) / scale],
    };
  }

  /** A dashed line from the dragged body's centre to the pointer, with a ring at the pointer. */
  drawDragLine(poses, index, target) {
    const [x, y] = pose(poses, index);
    const t = this.transform();
    const ctx = this.ctx;
    const px = this.dpr;
    ctx.save();
    ctx.strokeStyle = "#8250df";
    ctx.lineWidth = 1.5 * px;
    ctx.setLineDash([5 * px, 4 * px]);
    ctx.beginPath();
    ctx.moveTo(t.x(x), t.y(y));
    ctx.lineTo(t.x(target[0]), t.y(target[1]));
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.beginPath();
    ctx.arc(t.x(target[0]), t.y(target[1]), 5 * px, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.restore();
  }

  /** The world point under a pointer event. */
  pointerToWorld(event) {
    const r = this.canvas.getBoundingClientRect();
    return this.transform().inverse((event.clientX - r.left) * this.dpr, (event.clientY - r.top) * this.dpr);
  }

  /** Index of the moving body under world point p, or -1. */
  hit(p, poses) {
    for (let i = this.bodies.length - 1; i >= 0; i--) {
      const b = this.bodies[i];
      if (b.fixed) continue;
      const [x, y] = pose(poses, i);
      const dx = p[0] - x, dy = p[1] - y;
      const r = b.shape === "disk" ? b.radius : Math.hypot(b.width, b.height) / 2;
      if (Math.hypot(dx, dy) <= 1.2 * r) return i;
    }
    return -1;
  }

  /** Newtons represented by 100 CSS pixels of arrow. */
  forceLegend() {
    const t = this.transform();
    return (100 * this.dpr / t.scale) * this.newtonsPerMetre;
  }

  /**
   * Draws one frame.
   * @param {Float64Array} poses [x, y, θ] per body
   * @param {Float64Array} contacts Simulation.contactData()
   */
  draw(poses, contacts) {
    this.bounds = this.frame(poses);
    const ctx = this.ctx;
    const t = this.transform();
    const px = this.dpr;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    ctx.lineJoin = "round";
    this.bodies.forEach((b, i) => this.drawBody(b, ...pose(poses, i), t, px));
    const forceToMetres = 1 / this.newtonsPerMetre;
    const C = layout.contact;
    for (let k = 0; k + C.stride <= contacts.length; k += C.stride) {
      const at = (field) => contacts[k + C[field]];
      const [gap, normal, state, x, y, nx, ny] = ["gap", "normal", "state", "x", "y", "nx", "ny"].map(at);
      if (state === 0 && gap > 0.02 * (this.bounds.y1 - this.bounds.y0)) continue;
      ctx.fillStyle = state >= 2 ? "#d1242f" : state === 1 ? "#1f6feb" : "#9aa3b2";
      ctx.beginPath();
      ctx.arc(t.x(x), t.y(y), 3.5 * px, 0, 2 * Math.PI);
      ctx.fill();
      if (normal > 0) {
        const len = normal * forceToMetres;
        this.arrow(t.x(x), t.y(y), t.x(x + nx * len), t.y(y + ny * len), px);
      }
    }
  }

  drawBody(b, x, y, angle, t, px) {
    const ctx = this.ctx;
    ctx.save();
    ctx.translate(t.x(x), t.y(y));
    ctx.rotate(-angle);
    ctx.lineWidth = 1.5 * px;
    if (b.shape === "half_plane") {
      const big = 1e4;
      ctx.fillStyle = "#e9e4dc";
      ctx.fillRect(-big, 0, 2 * big, big);
      ctx.strokeStyle = "#8a7f72";
      ctx.beginPath(); ctx.moveTo(-big, 0); ctx.lineTo(big, 0); ctx.stroke();
    } else if (b.shape === "box") {
      const w = b.width * t.scale, hgt = b.height * t.scale;
      ctx.fillStyle = b.fixed ? "#d8d2c8" : "#c9daf8";
      ctx.strokeStyle = "#1d2330";
      ctx.fillRect(-w / 2, -hgt / 2, w, hgt);
      ctx.strokeRect(-w / 2, -hgt / 2, w, hgt);
      for (const [fx, fy] of b.contactPoints) {
        ctx.fillStyle = "#1d2330";
        ctx.fillRect(fx * t.scale - 2 * px, -fy * t.scale - 2 * px, 4 * px, 4 * px);
      }
    } else if (b.shape === "disk") {
      const r = b.radius * t.scale;
      ctx.fillStyle = b.fixed ? "#d8d2c8" : "#c9daf8";
      ctx.strokeStyle = "#1d2330";
      ctx.beginPath(); ctx.arc(0, 0, r, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
      ctx.beginPath(); ctx.moveTo(0, 0); ctx.lineTo(r, 0); ctx.stroke(); // shows rotation
    }
    ctx.restore();
  }

  arrow(x0, y0, x1, y1, px) {
    drawArrow(this.ctx, x0, y0, x1, y1, px);
  }
}
