// The 3-D view of a scene in space (three.js): shaded spheres, boxes and planes, contact points
// and normal-force arrows, under an orbit camera. Spheres are painted in coloured octants so
// that rolling and spinning show; all spheres are one instanced mesh, so a pile of hundreds is
// one draw call. Planes are drawn as finite panels around the bodies (the floor with a grid,
// walls translucent). Force arrows are scaled to the scene: the largest normal force seen
// recently draws as a fixed fraction of the scene's size (never 1 m per 9.81 N).

import * as THREE from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";
import { layout } from "./layout.js";

/** Fraction of the scene's size that the largest recent normal force draws as. */
const ARROW_FRACTION = 0.3;
/** Z is up in contactlab's space scenes (gravity along −z). */
const UP = new THREE.Vector3(0, 0, 1);

/** A 256 × 128 equirectangular texture in eight coloured octants with dark meridians: any
 * rotation of the sphere shows, about any axis. */
function octantTexture() {
  const canvas = document.createElement("canvas");
  canvas.width = 256;
  canvas.height = 128;
  const ctx = canvas.getContext("2d");
  const colours = ["#f2f4f8", "#3f7be0", "#f2f4f8", "#e5a13a", "#3f7be0", "#f2f4f8", "#e5a13a", "#f2f4f8"];
  for (let k = 0; k < 8; k++) {
    ctx.fillStyle = colours[k];
    ctx.fillRect((k % 4) * 64, Math.floor(k / 4) * 64, 64, 64);
  }
  ctx.strokeStyle = "#1d2330";
  ctx.lineWidth = 3;
  ctx.beginPath();
  for (let x = 0; x <= 256; x += 64) { ctx.moveTo(x, 0); ctx.lineTo(x, 128); }
  ctx.moveTo(0, 64); ctx.lineTo(256, 64);
  ctx.stroke();
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  return texture;
}


/** Centre and radius of a ball holding every sphere, box and beam (planes excluded). */
function bounds(bodies, poses, beams) {
  const box = bodyBox(bodies, poses, beams);
  if (box.isEmpty()) return { centre: new THREE.Vector3(0, 0, 0.5), radius: 1 };
  const sphere = box.getBoundingSphere(new THREE.Sphere());
  return { centre: sphere.center, radius: Math.max(sphere.radius, 0.05) };
}

/** The axis-aligned box around every sphere and box (planes excluded), and the centrelines
 * of the beams (`beams`: body index → flat [x, y, z, …] points). */
function bodyBox(bodies, poses, beams = new Map()) {
  const P = layout.spatial.pose;
  const box = new THREE.Box3();
  for (const [i, points] of beams) {
    if (bodies[i]?.fixed) continue;
    for (let k = 0; k + 2 < points.length; k += 3) box.expandByPoint(new THREE.Vector3(points[k], points[k + 1], points[k + 2]));
  }
  bodies.forEach((b, i) => {
    if (b.shape !== "sphere" && b.shape !== "cuboid") return;
    const o = P.stride * i;
    const c = new THREE.Vector3(poses[o + P.x], poses[o + P.y], poses[o + P.z]);
    const r = b.shape === "sphere" ? b.radius : 0.5 * Math.hypot(b.width, b.height, b.depth);
    box.expandByPoint(c.clone().addScalar(r));
    box.expandByPoint(c.clone().addScalar(-r));
  });
  return box;
}

/** True when WebGL runs on the CPU (SwiftShader, llvmpipe): no GPU to spend on smoothing. */
function softwareWebGL() {
  const gl = document.createElement("canvas").getContext("webgl2") ?? document.createElement("canvas").getContext("webgl");
  const info = gl?.getExtension("WEBGL_debug_renderer_info");
  const name = info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : "";
  gl?.getExtension("WEBGL_lose_context")?.loseContext();
  return /swiftshader|llvmpipe|software/i.test(name);
}

/** The axis-aligned box around the bodies and the planes' origins, never thinner than the
 * bodies' size. */
function sceneBox(bodies, poses, beams) {
  const P = layout.spatial.pose;
  const box = bodyBox(bodies, poses, beams);
  if (box.isEmpty()) box.set(new THREE.Vector3(-1, -1, 0), new THREE.Vector3(1, 1, 1));
  bodies.forEach((b, i) => {
    if (b.shape !== "plane") return;
    const o = P.stride * i;
    box.expandByPoint(new THREE.Vector3(poses[o + P.x], poses[o + P.y], poses[o + P.z]));
  });
  return box;
}

export class View3D {
  /** @param {HTMLCanvasElement} canvas */
  constructor(canvas) {
    this.canvas = canvas;
    // Antialiasing multiplies the fragment work; without a GPU (software WebGL) it is left
    // off, which roughly halves the frame time there (docs/benchmarks.md).
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: !softwareWebGL(), preserveDrawingBuffer: true });
    this.renderer.setClearColor(0xf6f7f9);
    this.scene = new THREE.Scene();
    this.camera = new THREE.PerspectiveCamera(40, 1, 0.01, 1000);
    this.camera.up.copy(UP);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.enableDamping = false;
    this.controls.listenToKeyEvents(canvas); // arrow keys pan when the canvas has focus
    this.controls.addEventListener("change", () => this.render());
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x8a8070, 1.6));
    const sun = new THREE.DirectionalLight(0xffffff, 1.6);
    sun.position.set(2, -3, 5);
    this.scene.add(sun);
    this.sphereTexture = octantTexture();
    this.content = new THREE.Group();
    this.scene.add(this.content);
    this.forceScale = 0; // largest recent normal force, N
    this.dpr = 1;
    this.setUpDragging();
    this.resize();
    new ResizeObserver(() => { this.resize(); this.render(); }).observe(canvas);
  }

  /**
   * Dragging a body: a press on a moving sphere or box grabs it (the orbit camera pauses), the
   * pointer then moves the grab point in the plane through it facing the camera, and
   * `onDrag(index, target)` gets the centre's target (null on release). A dashed line joins
   * the centre to the target while held.
   */
  setUpDragging() {
    this.onDrag = null;
    this.raycaster = new THREE.Raycaster();
    this.dragLine = new THREE.Line(
      new THREE.BufferGeometry().setFromPoints([new THREE.Vector3(), new THREE.Vector3()]),
      new THREE.LineDashedMaterial({ color: 0x8250df, dashSize: 0.02, gapSize: 0.015, depthTest: false }),
    );
    this.dragLine.renderOrder = 11;
    this.dragLine.visible = false;
    this.scene.add(this.dragLine);
    const ray = (e) => {
      const r = this.canvas.getBoundingClientRect();
      const ndc = new THREE.Vector2(((e.clientX - r.left) / r.width) * 2 - 1, -((e.clientY - r.top) / r.height) * 2 + 1);
      this.raycaster.setFromCamera(ndc, this.camera);
      return this.raycaster.ray;
    };
    this.canvas.addEventListener("pointerdown", (e) => {
      if (!this.bodies || !this.onDrag || e.button !== 0) return;
      const hit = this.pick(ray(e));
      if (!hit) return;
      e.stopImmediatePropagation();
      this.controls.enabled = false;
      const normal = this.camera.getWorldDirection(new THREE.Vector3());
      this.grab = { index: hit.index, offset: hit.point.clone().sub(hit.centre), plane: new THREE.Plane().setFromNormalAndCoplanarPoint(normal, hit.point) };
      this.canvas.setPointerCapture(e.pointerId);
      this.onDrag(hit.index, hit.centre.toArray());
    }, { capture: true });
    this.canvas.addEventListener("pointermove", (e) => {
      if (!this.grab) return;
      const point = ray(e).intersectPlane(this.grab.plane, new THREE.Vector3());
      if (point) this.onDrag(this.grab.index, point.sub(this.grab.offset).toArray());
    });
    const release = () => {
      if (!this.grab) return;
      this.grab = null;
      this.controls.enabled = true;
      this.dragLine.visible = false;
      this.onDrag?.(-1, null);
    };
    this.canvas.addEventListener("pointerup", release);
    this.canvas.addEventListener("pointercancel", release);
  }

  /** The moving body under a ray: its index, the hit point and its centre; null if none. */
  pick(ray) {
    this.raycaster.ray.copy(ray);
    const targets = [...(this.spheres ? [this.spheres] : []), ...this.cuboids.values()];
    for (const hit of this.raycaster.intersectObjects(targets, false)) {
      let index = -1;
      if (hit.object === this.spheres) index = this.sphereIndex[hit.instanceId];
      else for (const [i, mesh] of this.cuboids) if (mesh === hit.object) index = i;
      if (index < 0 || this.bodies[index].fixed) continue;
      const centre = hit.object === this.spheres
        ? new THREE.Vector3().setFromMatrixPosition(new THREE.Matrix4().fromArray(this.spheres.instanceMatrix.array, 16 * hit.instanceId))
        : hit.object.position.clone();
      return { index, point: hit.point.clone(), centre };
    }
    return null;
  }

  /** Shows the drag line from `from` to `to` (world points). */
  showDragLine(from, to) {
    this.dragLine.geometry.setFromPoints([new THREE.Vector3(...from), new THREE.Vector3(...to)]);
    this.dragLine.computeLineDistances();
    this.dragLine.visible = true;
  }

  resize() {
    const { clientWidth: w, clientHeight: h } = this.canvas;
    if (w === 0 || h === 0) return;
    this.dpr = window.devicePixelRatio || 1;
    this.renderer.setPixelRatio(this.dpr);
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
  }

  /** Builds the meshes for a scene; frames the camera on its bodies. */
  setScene(sim) {
    const bodies = sim.bodies();
    const poses3 = sim.bodyPoses3();
    this.bodies = bodies;
    for (const child of [...this.content.children]) {
      this.content.remove(child);
      child.geometry?.dispose();
    }
    // Beams in space: a tube along the deformed centreline, rebuilt every frame.
    this.beamPoints = new Map();
    bodies.forEach((b, i) => { if (b.shape === "spatial_beam") this.beamPoints.set(i, sim.beamCentreline3(i)); });
    const { centre, radius } = bounds(bodies, poses3, this.beamPoints);
    this.home = { centre, radius };
    this.size = radius;
    this.forceScale = 0;
    this.lastCentre = null;
    this.following = false;
    this.followOn = true;
    // Spheres: one instanced mesh, a unit sphere scaled by each radius.
    this.sphereIndex = [];
    bodies.forEach((b, i) => { if (b.shape === "sphere") this.sphereIndex.push(i); });
    if (this.sphereIndex.length > 0) {
      // Fewer facets when there are many (a pile reads as well with 20 × 14), and Lambert
      // shading: the physically based material cost 1.4 ms per sphere per frame in software
      // WebGL (docs/benchmarks.md).
      const detail = this.sphereIndex.length > 200 ? [14, 10] : this.sphereIndex.length > 20 ? [20, 14] : [32, 24];
      const material = new THREE.MeshLambertMaterial({ map: this.sphereTexture });
      this.spheres = new THREE.InstancedMesh(new THREE.SphereGeometry(1, ...detail), material, this.sphereIndex.length);
      this.sphereIndex.forEach((i, k) => {
        const tint = bodies[i].fixed ? new THREE.Color(0x9aa3b2) : new THREE.Color(0xffffff);
        this.spheres.setColorAt(k, tint);
      });
      this.content.add(this.spheres);
    } else {
      this.spheres = null;
    }
    // Boxes: a mesh with its edges each (few per scene).
    this.cuboids = new Map();
    bodies.forEach((b, i) => {
      if (b.shape !== "cuboid") return;
      const geometry = new THREE.BoxGeometry(b.width, b.height, b.depth);
      const mesh = new THREE.Mesh(geometry, new THREE.MeshStandardMaterial({ color: b.fixed ? 0xb8bfcc : 0x8fb3ee, roughness: 0.6 }));
      mesh.add(new THREE.LineSegments(new THREE.EdgesGeometry(geometry), new THREE.LineBasicMaterial({ color: 0x1d2330 })));
      this.cuboids.set(i, mesh);
      this.content.add(mesh);
    });
    this.beams = new Map();
    for (const [i, points] of this.beamPoints) {
      const r = bodies[i].radius;
      const mesh = new THREE.Mesh(tube(points, r), new THREE.MeshStandardMaterial({ color: 0x8fb3ee, roughness: 0.5 }));
      this.beams.set(i, mesh);
      this.content.add(mesh);
      // A held end: a wall plate across the beam (clamped) or a ball (pinned); they stay put.
      const n = points.length / 3;
      for (const [k, support] of (bodies[i].supports ?? []).entries()) {
        const at = k === 0 ? 0 : n - 1;
        const next = k === 0 ? 1 : n - 2;
        const p = new THREE.Vector3(points[3 * at], points[3 * at + 1], points[3 * at + 2]);
        const axis = p.clone().sub(new THREE.Vector3(points[3 * next], points[3 * next + 1], points[3 * next + 2])).normalize();
        const material = new THREE.MeshStandardMaterial({ color: 0x9aa3b2, roughness: 0.7 });
        if (support === "clamped") {
          const plate = new THREE.Mesh(new THREE.BoxGeometry(0.6 * r, 10 * r, 10 * r), material);
          plate.quaternion.setFromUnitVectors(new THREE.Vector3(1, 0, 0), axis);
          plate.position.copy(p).addScaledVector(axis, 0.3 * r);
          this.content.add(plate);
        } else if (support === "pinned") {
          const pin = new THREE.Mesh(new THREE.SphereGeometry(2 * r, 16, 12), material);
          pin.position.copy(p);
          this.content.add(pin);
        }
      }
    }
    // Planes: finite panels. The scene's box holds the bodies and the planes' origins (an open
    // box's walls pass through theirs); a wall is drawn where its plane cuts that box, the
    // floor as a wide panel under it.
    const P = layout.spatial.pose;
    const box = sceneBox(bodies, poses3, this.beamPoints);
    bodies.forEach((b, i) => {
      if (b.shape !== "plane") return;
      const o = P.stride * i;
      const q = new THREE.Quaternion(poses3[o + P.qx], poses3[o + P.qy], poses3[o + P.qz], poses3[o + P.qw]);
      const normal = UP.clone().applyQuaternion(q);
      const origin = new THREE.Vector3(poses3[o + P.x], poses3[o + P.y], poses3[o + P.z]);
      // Facing up (a floor, an incline): a wide ground under the bodies; else a wall.
      const floor = normal.z > 0.5;
      const u = new THREE.Vector3(1, 0, 0).applyQuaternion(q);
      const v = new THREE.Vector3(0, 1, 0).applyQuaternion(q);
      // The box's corners in the plane's own axes.
      let [u0, u1, v0, v1] = [Infinity, -Infinity, Infinity, -Infinity];
      for (let k = 0; k < 8; k++) {
        const c = new THREE.Vector3(k & 1 ? box.max.x : box.min.x, k & 2 ? box.max.y : box.min.y, k & 4 ? box.max.z : box.min.z).sub(origin);
        u0 = Math.min(u0, c.dot(u)); u1 = Math.max(u1, c.dot(u));
        v0 = Math.min(v0, c.dot(v)); v1 = Math.max(v1, c.dot(v));
      }
      if (floor) {
        // Centred under the bodies and wide enough for them to travel (fog hides its edge).
        const c = centre.clone().sub(origin);
        const half = Math.max(20, 200 * radius);
        [u0, u1, v0, v1] = [c.dot(u) - half, c.dot(u) + half, c.dot(v) - half, c.dot(v) + half];
      }
      const [w, h] = [Math.max(u1 - u0, 1e-3), Math.max(v1 - v0, 1e-3)];
      // The ground is one flat colour with grid lines near the bodies: a texture repeated a
      // thousand times over the wide panel cost 24 ms a frame in software WebGL.
      const material = floor
        ? new THREE.MeshLambertMaterial({ color: 0xece7df, side: THREE.DoubleSide, polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1 })
        : new THREE.MeshLambertMaterial({ color: 0x9fb4d6, transparent: true, opacity: 0.18, side: THREE.DoubleSide, depthWrite: false });
      const mesh = new THREE.Mesh(new THREE.PlaneGeometry(w, h), material);
      mesh.quaternion.copy(q);
      mesh.position.copy(origin).addScaledVector(u, (u0 + u1) / 2).addScaledVector(v, (v0 + v1) / 2);
      if (floor) {
        const cell = niceStep(radius / 3);
        const cells = 2 * Math.ceil((4 * radius) / cell);
        const grid = new THREE.GridHelper(cells * cell, cells, 0xc9c1b5, 0xc9c1b5);
        grid.rotation.x = Math.PI / 2; // GridHelper lies in x–z; the plane's own axes are x–y
        const c = centre.clone().sub(mesh.position);
        grid.position.set(Math.round(c.dot(u) / cell) * cell, Math.round(c.dot(v) / cell) * cell, 0);
        mesh.add(grid);
      }
      if (!floor) {
        mesh.add(new THREE.LineSegments(new THREE.EdgesGeometry(mesh.geometry), new THREE.LineBasicMaterial({ color: 0x6b7a93 })));
      }
      mesh.renderOrder = floor ? 0 : 2;
      this.content.add(mesh);
    });
    // Contact points and arrows: instanced, grown as needed.
    this.markers = this.makeInstanced(new THREE.SphereGeometry(1, 10, 8), 0xd1242f, 64);
    this.shafts = this.makeInstanced(new THREE.CylinderGeometry(1, 1, 1, 8).translate(0, 0.5, 0), 0xd1242f, 64);
    this.heads = this.makeInstanced(new THREE.ConeGeometry(1, 1, 12).translate(0, -0.5, 0), 0xd1242f, 64);
    this.frame();
  }

  /** An instanced mesh drawn over the bodies (contact points and arrows sit inside them). */
  makeInstanced(geometry, colour, count) {
    const material = new THREE.MeshBasicMaterial({ color: colour, depthTest: false, transparent: true, opacity: 0.9 });
    const mesh = new THREE.InstancedMesh(geometry, material, count);
    mesh.count = 0;
    mesh.frustumCulled = false;
    mesh.renderOrder = 10;
    this.content.add(mesh);
    return mesh;
  }

  /** Grows an instanced mesh to hold `count` instances. */
  ensure(name, count) {
    const mesh = this[name];
    if (mesh.instanceMatrix.count >= count) return mesh;
    const bigger = new THREE.InstancedMesh(mesh.geometry, mesh.material, Math.max(count, 2 * mesh.instanceMatrix.count));
    bigger.frustumCulled = false;
    bigger.renderOrder = mesh.renderOrder;
    this.content.remove(mesh);
    mesh.dispose();
    this.content.add(bigger);
    this[name] = bigger;
    return bigger;
  }

  /** Points the camera at the bodies from a raised three-quarter view. */
  frame() {
    const { centre, radius } = this.home;
    const distance = radius / Math.sin(THREE.MathUtils.degToRad(this.camera.fov / 2)) * 1.15;
    const direction = new THREE.Vector3(0.55, -1, 0.55).normalize();
    this.camera.position.copy(centre).addScaledVector(direction, distance);
    this.camera.near = distance / 200;
    this.camera.far = distance * 50;
    this.scene.fog = new THREE.Fog(0xf6f7f9, 4 * distance, 14 * distance);
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(centre);
    // The zoom is capped so that the bodies never shrink to dots or fill the screen.
    this.controls.minDistance = 0.2 * distance;
    this.controls.maxDistance = 6 * distance;
    this.controls.update();
  }

  /** The arrow length of the largest recent force: a fraction of the scene, and longer than
   * the smallest body, so that one sphere's reaction shows outside it. */
  arrowLength() {
    return Math.max(ARROW_FRACTION * this.size, 1.2 * this.smallest());
  }

  /** A text for the force legend: the force that draws as an arrow of the given length. */
  forceLegendText() {
    const metres = this.arrowLength();
    return this.forceScale > 0 ? `${formatLength(metres)} ≙ ${this.forceScale.toPrecision(3)} N` : "no load yet";
  }

  /** Draws the simulation now; `contacts` is its contactData(). */
  draw(sim, contacts) {
    if (!this.bodies) return;
    const poses3 = sim.bodyPoses3();
    const P = layout.spatial.pose;
    const m = new THREE.Matrix4();
    const q = new THREE.Quaternion();
    const p = new THREE.Vector3();
    const s = new THREE.Vector3();
    if (this.spheres) {
      this.sphereIndex.forEach((i, k) => {
        const o = P.stride * i;
        p.set(poses3[o + P.x], poses3[o + P.y], poses3[o + P.z]);
        q.set(poses3[o + P.qx], poses3[o + P.qy], poses3[o + P.qz], poses3[o + P.qw]);
        const r = this.bodies[i].radius;
        s.set(r, r, r);
        this.spheres.setMatrixAt(k, m.compose(p, q, s));
      });
      this.spheres.instanceMatrix.needsUpdate = true;
      this.spheres.computeBoundingSphere();
    }
    for (const [i, mesh] of this.cuboids) {
      const o = P.stride * i;
      mesh.position.set(poses3[o + P.x], poses3[o + P.y], poses3[o + P.z]);
      mesh.quaternion.set(poses3[o + P.qx], poses3[o + P.qy], poses3[o + P.qz], poses3[o + P.qw]);
    }
    for (const [i, mesh] of this.beams) {
      const points = sim.beamCentreline3(i);
      this.beamPoints.set(i, points);
      mesh.geometry.dispose();
      mesh.geometry = tube(points, this.bodies[i].radius);
    }
    this.drawContacts(contacts);
    this.follow(poses3);
    this.render();
  }

  /** Keeps the moving bodies in view: when their centre leaves the middle of the picture,
   * the camera follows it (same direction and distance, so nothing shrinks) until it is
   * back near the middle; a user's orbit, zoom or pan is kept. */
  follow(poses3) {
    const moving = this.bodies.map((b) => (b.fixed ? { ...b, shape: "fixed" } : b));
    const box = bodyBox(moving, poses3, this.beamPoints);
    if (box.isEmpty()) return;
    const centre = box.getCenter(new THREE.Vector3());
    const last = this.lastCentre ?? centre;
    this.lastCentre = centre.clone();
    if (!this.followOn) return;
    const seen = centre.clone().project(this.camera);
    const off = Math.max(Math.abs(seen.x), Math.abs(seen.y));
    if (off > 0.45 || seen.z > 1) this.following = true;
    else if (off < 0.15) this.following = false;
    if (!this.following) return;
    // Keep pace with the bodies, and close a sixth of the remaining offset per frame.
    const shift = centre.clone().sub(last).addScaledVector(centre.clone().sub(this.controls.target), 1 / 6);
    this.controls.target.add(shift);
    this.camera.position.add(shift);
    this.controls.update();
  }

  drawContacts(contacts) {
    const C = layout.contact;
    const count = Math.floor(contacts.length / C.stride);
    let largest = 0;
    for (let k = 0; k < count; k++) largest = Math.max(largest, contacts[k * C.stride + C.normal]);
    // The scale follows the largest force: up at once, down slowly (no flicker).
    this.forceScale = largest > this.forceScale ? largest : Math.max(largest, 0.98 * this.forceScale);
    const markers = this.ensure("markers", count);
    const shafts = this.ensure("shafts", count);
    const heads = this.ensure("heads", count);
    const dot = 0.1 * this.smallest();
    const length = this.arrowLength();
    const m = new THREE.Matrix4();
    const q = new THREE.Quaternion();
    const y = new THREE.Vector3(0, 1, 0);
    const n = new THREE.Vector3();
    const at = new THREE.Vector3();
    let shown = 0;
    let arrows = 0;
    for (let k = 0; k < count; k++) {
      const f = (name) => contacts[k * C.stride + C[name]];
      if (f("state") === 0) continue;
      at.set(f("x"), f("y"), f("z"));
      markers.setMatrixAt(shown++, m.compose(at, q.identity(), new THREE.Vector3(dot, dot, dot)));
      const normal = f("normal");
      if (!(normal > 0) || !(this.forceScale > 0)) continue;
      const l = length * normal / this.forceScale;
      n.set(f("nx"), f("ny"), f("nz")).normalize();
      q.setFromUnitVectors(y, n);
      const head = Math.min(0.4 * l, 3 * dot);
      const width = 0.5 * dot;
      shafts.setMatrixAt(arrows, m.compose(at, q, new THREE.Vector3(width, Math.max(l - head, 0), width)));
      const tip = at.clone().addScaledVector(n, l);
      heads.setMatrixAt(arrows, m.compose(tip, q, new THREE.Vector3(1.8 * width + 0.4 * head, head, 1.8 * width + 0.4 * head)));
      arrows++;
    }
    markers.count = shown;
    shafts.count = heads.count = arrows;
    for (const mesh of [markers, shafts, heads]) mesh.instanceMatrix.needsUpdate = true;
  }

  /** The smallest sphere radius or box half-size (sets the size of contact markers and the
   * shortest reference arrow). */
  smallest() {
    let r = Infinity;
    for (const b of this.bodies) {
      if (b.shape === "sphere" || b.shape === "spatial_beam") r = Math.min(r, b.radius);
      // A box's middle half extent: a thin plate still gets markers that show.
      if (b.shape === "cuboid") r = Math.min(r, 0.5 * [b.width, b.height, b.depth].sort((x, y) => x - y)[1]);
    }
    return Number.isFinite(r) ? r : 0.1 * this.size;
  }

  /** Where body `i` appears: its centre and apparent radius in canvas pixels (for tests and
   * picking), or null when it is behind the camera. */
  project(i, poses3) {
    const P = layout.spatial.pose;
    const b = this.bodies[i];
    const o = P.stride * i;
    const c = new THREE.Vector3(poses3[o + P.x], poses3[o + P.y], poses3[o + P.z]);
    const r = b.shape === "sphere" || b.shape === "spatial_beam" ? b.radius : 0.5 * [b.width, b.height, b.depth].sort((x, y) => x - y)[1];
    const ndc = c.clone().project(this.camera);
    if (ndc.z > 1) return null;
    const { width, height } = this.canvas;
    const distance = c.distanceTo(this.camera.position);
    const pixelsPerMetre = height / (2 * distance * Math.tan(THREE.MathUtils.degToRad(this.camera.fov / 2)));
    return { x: (ndc.x + 1) / 2 * width, y: (1 - ndc.y) / 2 * height, r: r * pixelsPerMetre };
  }

  render() {
    if (this.canvas.clientWidth === 0) return;
    this.renderer.render(this.scene, this.camera);
  }
}

/** A tube of radius `r` along a beam's centreline (flat [x, y, z, …] points, closely spaced
 * along its Hermite curves, so a straight polyline between them reads as the curve). */
function tube(points, r) {
  const path = new THREE.CurvePath();
  for (let k = 0; k + 5 < points.length; k += 3) {
    path.add(new THREE.LineCurve3(
      new THREE.Vector3(points[k], points[k + 1], points[k + 2]),
      new THREE.Vector3(points[k + 3], points[k + 4], points[k + 5])));
  }
  const segments = Math.max(1, points.length / 3 - 1);
  return new THREE.TubeGeometry(path, 2 * segments, r, 12, false);
}

/** 1, 2 or 5 times a power of ten near `x` (grid spacing). */
function niceStep(x) {
  const p = 10 ** Math.floor(Math.log10(x));
  const m = x / p;
  return (m < 2 ? 1 : m < 5 ? 2 : 5) * p;
}

function formatLength(m) {
  return m >= 1 ? `${m.toPrecision(2)} m` : `${(m * 100).toPrecision(2)} cm`;
}
