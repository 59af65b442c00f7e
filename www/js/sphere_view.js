// Canvas drawing of a scene in space: a side view (x–z) and a top view (x–y) side by side.
// Each sphere carries a marker along its body x-axis and a cross along its y-axis, so rolling
// shows in the side view and spinning about the vertical in the top view; boxes are drawn as
// their projected outline with their edges.

import { drawArrow, fitCanvas } from "./draw.js";
import { layout } from "./layout.js";

/** The 12 edges of a box as pairs of corner numbers (bit 0: x, bit 1: y, bit 2: z). */
const EDGES = [[0, 1], [2, 3], [4, 5], [6, 7], [0, 2], [1, 3], [4, 6], [5, 7], [0, 4], [1, 5], [2, 6], [3, 7]];

/** Convex hull of 2-D points (monotone chain), counter-clockwise. */
function hull(points) {
  const p = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (list) => {
    const out = [];
    for (const q of list) {
      while (out.length >= 2 && cross(out[out.length - 2], out[out.length - 1], q) <= 0) out.pop();
      out.push(q);
    }
    out.pop();
    return out;
  };
  return [...half(p), ...half([...p].reverse())];
}

/** Half of the largest extent of a body about its centre (for framing the view). */
function reach(b) {
  return b.shape === "cuboid" ? 0.5 * Math.hypot(b.width, b.height, b.depth) : b.radius;
}

function rotate([w, x, y, z], [vx, vy, vz]) {
  // v' = q v q*, written out.
  const tx = 2 * (y * vz - z * vy), ty = 2 * (z * vx - x * vz), tz = 2 * (x * vy - y * vx);
  return [vx + w * tx + (y * tz - z * ty), vy + w * ty + (z * tx - x * tz), vz + w * tz + (x * ty - y * tx)];
}

export class SphereView {
  /** @param {HTMLCanvasElement} canvas */
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.bodies = [];
    this.newtonsPerMetre = 100;
    this.resize();
    new ResizeObserver(() => this.resize()).observe(canvas);
  }

  resize() {
    this.dpr = fitCanvas(this.canvas);
  }

  setScene(bodies, poses3, weight) {
    this.bodies = bodies;
    this.home = this.extent(poses3);
    this.newtonsPerMetre = weight > 0 ? weight / (0.25 * (this.home.z1 - this.home.z0)) : 1;
  }

  extent(p) {
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity, z1 = -Infinity;
    const P = layout.spatial.pose;
    this.bodies.forEach((b, i) => {
      if (b.shape !== "sphere" && b.shape !== "cuboid") return;
      const o = P.stride * i;
      const [x, y, z] = [p[o + P.x], p[o + P.y], p[o + P.z]];
      const r = reach(b);
      x0 = Math.min(x0, x - r); x1 = Math.max(x1, x + r);
      y0 = Math.min(y0, y - r); y1 = Math.max(y1, y + r);
      z1 = Math.max(z1, z + r);
    });
    if (!Number.isFinite(x0)) return { x0: -1, x1: 1, y0: -1, y1: 1, z0: -0.1, z1: 1 };
    const span = Math.max(x1 - x0, y1 - y0, z1, 0.2);
    const pad = 0.6 * span;
    return { x0: x0 - pad, x1: x1 + pad, y0: y0 - pad, y1: y1 + pad, z0: -0.2 * span, z1: z1 + 0.5 * span };
  }

  /** Maps world (a, b) in a panel rectangle with aspect ratio 1. */
  panel(rect, a0, a1, b0, b1) {
    const scale = Math.min(rect.w / (a1 - a0), rect.h / (b1 - b0));
    const ca = (a0 + a1) / 2, cb = (b0 + b1) / 2;
    return {
      scale,
      a: (a) => rect.x + rect.w / 2 + (a - ca) * scale,
      b: (b) => rect.y + rect.h / 2 - (b - cb) * scale,
    };
  }

  /** Newtons represented by 100 CSS pixels of arrow (in the side view). */
  forceLegend() {
    return this.sideScale ? (100 * this.dpr / this.sideScale) * this.newtonsPerMetre : 0;
  }

  draw(poses3, contacts) {
    const ctx = this.ctx;
    const { width, height } = this.canvas;
    const px = this.dpr;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, width, height);
    if (width < 60 * px || height < 30 * px) return; // not laid out yet
    const now = this.extent(poses3);
    const h = this.home;
    const box = {
      x0: Math.min(h.x0, now.x0), x1: Math.max(h.x1, now.x1), y0: Math.min(h.y0, now.y0),
      y1: Math.max(h.y1, now.y1), z0: h.z0, z1: Math.max(h.z1, now.z1),
    };
    const gap = 12 * px;
    const side = { x: 0, y: 0, w: width * 0.58 - gap / 2, h: height };
    const top = { x: width * 0.58 + gap / 2, y: 0, w: width * 0.42 - gap / 2, h: height };
    ctx.fillStyle = "#5b6474";
    ctx.font = `${12 * px}px system-ui, sans-serif`;
    ctx.fillText("side view (x–z)", side.x + 6 * px, 16 * px);
    ctx.fillText("top view (x–y)", top.x + 6 * px, 16 * px);
    ctx.strokeStyle = "#d5d9e0";
    ctx.beginPath(); ctx.moveTo(top.x - gap / 2, 0); ctx.lineTo(top.x - gap / 2, height); ctx.stroke();

    const sv = this.panel(side, box.x0, box.x1, box.z0, box.z1);
    const tv = this.panel(top, box.x0, box.x1, box.y0, box.y1);
    this.sideScale = sv.scale;
    const P = layout.spatial.pose;
    const position = (i) => [poses3[P.stride * i + P.x], poses3[P.stride * i + P.y], poses3[P.stride * i + P.z]];
    const orientation = (i) => [P.qw, P.qx, P.qy, P.qz].map((k) => poses3[P.stride * i + k]);
    // Planes: their trace in the side view (a line through the body origin, normal in x–z).
    this.bodies.forEach((b, i) => {
      if (b.shape !== "plane") return;
      const q = orientation(i);
      const n = rotate(q, [0, 0, 1]);
      const o = [position(i)[0], position(i)[2]];
      const t = [n[2], -n[0]];
      const far = 1e3;
      ctx.save();
      ctx.beginPath();
      ctx.rect(side.x, side.y, side.w, side.h);
      ctx.clip();
      ctx.fillStyle = "#e9e4dc";
      ctx.beginPath();
      ctx.moveTo(sv.a(o[0] - far * t[0]), sv.b(o[1] - far * t[1]));
      ctx.lineTo(sv.a(o[0] + far * t[0]), sv.b(o[1] + far * t[1]));
      ctx.lineTo(sv.a(o[0] + far * t[0] - far * n[0]), sv.b(o[1] + far * t[1] - far * n[2]));
      ctx.lineTo(sv.a(o[0] - far * t[0] - far * n[0]), sv.b(o[1] - far * t[1] - far * n[2]));
      ctx.fill();
      ctx.restore();
      ctx.fillStyle = "#f4f1ec";
      ctx.fillRect(top.x, top.y + 22 * px, top.w, top.h - 22 * px);
    });
    this.bodies.forEach((b, i) => {
      const p = position(i);
      const q = orientation(i);
      if (b.shape === "cuboid") {
        const corners = [0, 1, 2, 3, 4, 5, 6, 7].map((k) => {
          const local = [(k & 1 ? 0.5 : -0.5) * b.width, (k & 2 ? 0.5 : -0.5) * b.height, (k & 4 ? 0.5 : -0.5) * b.depth];
          const r = rotate(q, local);
          return [p[0] + r[0], p[1] + r[1], p[2] + r[2]];
        });
        this.cuboid(sv, corners.map((c) => [c[0], c[2]]), px);
        this.cuboid(tv, corners.map((c) => [c[0], c[1]]), px);
        return;
      }
      if (b.shape !== "sphere") return;
      const ex = rotate(q, [b.radius, 0, 0]);
      const ey = rotate(q, [0, b.radius, 0]);
      this.sphere(sv, p[0], p[2], b.radius, [ex[0], ex[2]], [ey[0], ey[2]], px);
      this.sphere(tv, p[0], p[1], b.radius, [ex[0], ex[1]], [ey[0], ey[1]], px);
    });
    const toMetres = 1 / this.newtonsPerMetre;
    const C = layout.contact;
    for (let k = 0; k + C.stride <= contacts.length; k += C.stride) {
      const at = (field) => contacts[k + C[field]];
      const [normal, state, x, z, nx, nz] = [at("normal"), at("state"), at("x"), at("z"), at("nx"), at("nz")];
      if (state === 0) continue;
      ctx.fillStyle = "#d1242f";
      ctx.beginPath();
      ctx.arc(sv.a(x), sv.b(z), 3.5 * px, 0, 2 * Math.PI);
      ctx.fill();
      if (normal > 0) this.arrow(sv.a(x), sv.b(z), sv.a(x + nx * normal * toMetres), sv.b(z + nz * normal * toMetres), px);
    }
  }

  /** A box from its 8 projected corners: the filled outline, then its edges. */
  cuboid(view, corners, px) {
    const ctx = this.ctx;
    const outline = hull(corners);
    ctx.lineWidth = 1.5 * px;
    ctx.fillStyle = "#c9daf8";
    ctx.strokeStyle = "#1d2330";
    ctx.beginPath();
    outline.forEach(([a, b], k) => (k ? ctx.lineTo(view.a(a), view.b(b)) : ctx.moveTo(view.a(a), view.b(b))));
    ctx.closePath();
    ctx.fill();
    ctx.stroke();
    ctx.lineWidth = 0.75 * px;
    ctx.strokeStyle = "#5b6474";
    ctx.beginPath();
    for (const [i, j] of EDGES) {
      ctx.moveTo(view.a(corners[i][0]), view.b(corners[i][1]));
      ctx.lineTo(view.a(corners[j][0]), view.b(corners[j][1]));
    }
    ctx.stroke();
  }

  sphere(view, a, b, r, marker, cross, px) {
    const ctx = this.ctx;
    const ca = view.a(a), cb = view.b(b), rr = r * view.scale;
    ctx.lineWidth = 1.5 * px;
    ctx.fillStyle = "#c9daf8";
    ctx.strokeStyle = "#1d2330";
    ctx.beginPath(); ctx.arc(ca, cb, rr, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
    ctx.strokeStyle = "#1f6feb";
    ctx.beginPath(); ctx.moveTo(ca, cb); ctx.lineTo(ca + marker[0] * view.scale, cb - marker[1] * view.scale); ctx.stroke();
    ctx.strokeStyle = "#9a6700";
    ctx.beginPath();
    ctx.moveTo(ca - cross[0] * view.scale * 0.6, cb + cross[1] * view.scale * 0.6);
    ctx.lineTo(ca + cross[0] * view.scale * 0.6, cb - cross[1] * view.scale * 0.6);
    ctx.stroke();
  }

  arrow(x0, y0, x1, y1, px) {
    drawArrow(this.ctx, x0, y0, x1, y1, px);
  }

  /** Not used for spheres: dragging is planar only. */
  pointerToWorld() {
    return [NaN, NaN];
  }

  hit() {
    return -1;
  }
}
