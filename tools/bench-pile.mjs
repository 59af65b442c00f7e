// Issue 11's pile benchmark in one Node process: contactlab's wasm build (www/pkg) against
// Rapier's wasm builds (@dimforge/rapier3d-compat, rapier2d-compat) on the same scene, and the
// native contactlab beside them. Prints ms/step, deepest penetration, final max speed and
// escaped bodies. Only the step loop is timed.
//
// Usage: node tools/bench-pile.mjs [--n 10,100,1000] [--steps 1000] [--budget SECONDS]
//                                  [--steppers nsga,moreau-jean] [--repeat 5] [--resistance]
//
// Each size runs Rapier with sleeping off and on, contactlab under each stepper, and the
// first stepper with sleeping on twice: with contactlab's own thresholds (1 mm/s for 0.5 s,
// which a body rolling on the floor never meets) and with Rapier's. Then two trades of
// exactness for time (TRADES): Moreau–Jean once more at Rapier's budget of four iterations a
// step (what the step costs when its solves stop where Rapier's do, so the table shows how
// much of the difference is the price of solving the laws to the tolerance; that row reports
// every step that stops short), and NSGA with its gaps solved to 1e-9 m instead of rounding.
//
// Short runs (under 2 s in all) are repeated up to --repeat times from the same initial
// state, and the median ms/step is reported, natively alike: a pile of 10 takes a fraction
// of a second and this machine's clock varies by 1.5x from run to run.
import { readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { initSync, Simulation } from "../www/pkg/contactlab.js";
import RAPIER3 from "@dimforge/rapier3d-compat";
import RAPIER2 from "@dimforge/rapier2d-compat";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const sizes = option("--n", "10,100").split(",").map(Number);
const steps = Number(option("--steps", "1000"));
const budget = Number(option("--budget", "120"));
const steppers = option("--steppers", "nsga,moreau-jean").split(",");
const repeat = Number(option("--repeat", "5"));
if (!Number.isInteger(repeat) || repeat < 1 || repeat > 100) {
  console.error(`--repeat: a whole number in [1, 100], got '${option("--repeat")}'`);
  process.exit(2);
}
const resistance = args.includes("--resistance");
const REPEAT_BELOW_MS = 2000;

// The scene (src/presets_pile.rs is its definition).
const R = 0.05, DENSITY = 1000, HALF = 0.35, HALF_2D = 1.55, DT = 1 / 240, MU = 1;
const jitter = (i) => [0.01 * (((37 * i) % 11) - 5) / 5, 0.01 * (((53 * i) % 13) - 6) / 6];
const sphereAt = (i) => {
  const [jx, jy] = jitter(i);
  return [-0.24 + 0.12 * (i % 5) + jx, -0.24 + 0.12 * (Math.floor(i / 5) % 5) + jy, 0.1 + 0.12 * Math.floor(i / 25)];
};
const diskAt = (i) => [-1.44 + 0.12 * (i % 25) + jitter(i)[0], 0.1 + 0.12 * Math.floor(i / 25)];

initSync({ module: readFileSync(new URL("../www/pkg/contactlab_bg.wasm", import.meta.url)) });
await RAPIER3.init();
await RAPIER2.init();

// Runs one configuration up to `repeat` times while its runs so far took under 2 s in all;
// returns the first run's figures with the median ms/step and the number of runs.
function repeated(run) {
  const first = run();
  const times = [first.ms];
  while (times.length < repeat && times.reduce((a, b) => a + b, 0) * first.steps < REPEAT_BELOW_MS) {
    times.push(run().ms);
  }
  times.sort((a, b) => a - b);
  const m = times.length >> 1;
  first.ms = times.length % 2 ? times[m] : 0.5 * (times[m - 1] + times[m]);
  first.runs = times.length;
  return first;
}

// Rapier's sleeping thresholds (0.4 m/s and 0.5 rad/s, for 2 s) as contactlab's one speed
// |v| + |ω| r with r = 5 cm, 0.4 + 0.5 · 0.05 = 0.425 m/s: a row with them compares sleeping
// on like for like.
const RAPIER_SLEEP = { speed: 0.425, time: 2 };

// Rapier 0.21 takes four solver iterations a step (`numSolverIterations`, one PGS pass
// each). The same budget for Moreau–Jean: its impulses four sweeps of block Gauss–Seidel a
// step and no Newton–Krylov rounds (`stepper.velocity_sweeps`; NSGA ignores it).
const BUDGET = { key: "budget", stepper: "moreau-jean", fields: { velocity_sweeps: 4 }, args: ["--velocity-sweeps", "4"], label: "impulses 4 sweeps a step (Rapier's budget)" };
// NSGA's gaps solved to 1e-9 m (the issue's tests' bound; its target is 1e-6 m) instead of
// rounding (`stepper.gap_tolerance`); its velocity level stays solved to the tolerance.
const GAP = { key: "gap", stepper: "nsga", fields: { gap_tolerance: 1e-9 }, args: ["--gap-tolerance", "1e-9"], label: "gaps to 1e-9 m" };
const TRADES = [BUDGET, GAP].filter((t) => steppers.includes(t.stepper));

// `sleep`: false, true (contactlab's thresholds) or {speed, time}; `trade`: one of TRADES or
// null.
function runContactlab(preset, n, stepper, sleep = false, count = steps, trade = null) {
  const params = { N: n, sleep: sleep ? 1 : 0 };
  if (resistance) Object.assign(params, { rho: 1e-3, gamma: 1e-3 });
  let sim = Simulation.preset(preset, params);
  if (typeof sleep === "object" || trade) {
    const scene = JSON.parse(sim.sceneJson());
    if (typeof sleep === "object") Object.assign(scene.stepper, { sleep: true, sleep_speed: sleep.speed, sleep_time: sleep.time });
    if (trade) Object.assign(scene.stepper, trade.fields);
    sim.free();
    sim = Simulation.fromScene(JSON.stringify(scene));
  }
  sim.setStepper(stepper);
  let done = 0, elapsed = 0;
  while (done < count && elapsed < budget * 1000) {
    const t0 = performance.now();
    done += sim.step(Math.min(count - done, 16));
    elapsed += performance.now() - t0;
  }
  if (done === 0) throw new Error(`contactlab ${preset} N=${n} ${stepper}: no step was taken`);
  const state = sim.pileState();
  const row = {
    engine: `contactlab wasm ${stepper} sleeping ${typeof sleep === "object" ? `on, below ${sleep.speed} m/s for ${sleep.time} s (Rapier's)` : sleep ? "on" : "off"}${trade ? `, ${trade.label}` : ""}`,
    preset, n, steps: done, ms: elapsed / done,
    penetration: Math.max(0, -sim.deepestGap), speed: state.maxSpeed, escaped: state.escaped,
    note: `${sim.unconvergedSteps} unconverged steps`,
  };
  sim.free();
  return row;
}

// Deepest penetration among spheres (or disks) and the box, by a grid of cell 2R.
function penetration(centres, dim) {
  let deepest = 0;
  const cell = 2 * R, grid = new Map();
  const key = (c) => c.map((x) => Math.floor(x / cell)).join(",");
  centres.forEach((c, i) => {
    const k = key(c);
    if (!grid.has(k)) grid.set(k, []);
    grid.get(k).push(i);
    const half = dim === 3 ? HALF : HALF_2D;
    deepest = Math.max(deepest, R - (c[dim - 1]), R - (half - Math.abs(c[0])));
    if (dim === 3) deepest = Math.max(deepest, R - (HALF - Math.abs(c[1])));
  });
  const offsets = dim === 3
    ? [-1, 0, 1].flatMap((a) => [-1, 0, 1].flatMap((b) => [-1, 0, 1].map((d) => [a, b, d])))
    : [-1, 0, 1].flatMap((a) => [-1, 0, 1].map((b) => [a, b]));
  centres.forEach((c, i) => {
    const base = c.map((x) => Math.floor(x / cell));
    for (const o of offsets) {
      for (const j of grid.get(base.map((b, k) => b + o[k]).join(",")) ?? []) {
        if (j <= i) continue;
        const d = Math.hypot(...c.map((x, k) => x - centres[j][k]));
        deepest = Math.max(deepest, 2 * R - d);
      }
    }
  });
  return deepest;
}

function runRapier(dim, n, sleeping, count = steps) {
  const RAPIER = dim === 3 ? RAPIER3 : RAPIER2;
  const world = dim === 3 ? new RAPIER.World({ x: 0, y: 0, z: -9.81 }) : new RAPIER.World({ x: 0, y: -9.81 });
  world.timestep = DT;
  const fixed = (pos, half) => {
    const body = world.createRigidBody(
      dim === 3 ? RAPIER.RigidBodyDesc.fixed().setTranslation(...pos) : RAPIER.RigidBodyDesc.fixed().setTranslation(...pos),
    );
    world.createCollider(RAPIER.ColliderDesc.cuboid(...half).setFriction(MU).setRestitution(0), body);
  };
  const H = 10; // wall half height: no sphere can pass over
  if (dim === 3) {
    fixed([0, 0, -0.5], [2, 2, 0.5]);
    fixed([HALF + 0.5, 0, H], [0.5, 2, H]);
    fixed([-HALF - 0.5, 0, H], [0.5, 2, H]);
    fixed([0, HALF + 0.5, H], [2, 0.5, H]);
    fixed([0, -HALF - 0.5, H], [2, 0.5, H]);
  } else {
    fixed([0, -0.5], [3, 0.5]);
    fixed([HALF_2D + 0.5, H], [0.5, H]);
    fixed([-HALF_2D - 0.5, H], [0.5, H]);
  }
  const mass = (DENSITY * 4 * Math.PI * R ** 3) / 3;
  const bodies = [];
  for (let i = 0; i < n; i++) {
    const p = dim === 3 ? sphereAt(i) : diskAt(i);
    const desc = RAPIER.RigidBodyDesc.dynamic().setTranslation(...p).setCanSleep(sleeping);
    const body = world.createRigidBody(desc);
    // The sphere's mass (a disk too: contactlab gives both 0.5236 kg).
    const collider = RAPIER.ColliderDesc.ball(R).setFriction(MU).setRestitution(0).setMass(mass);
    world.createCollider(collider, body);
    bodies.push(body);
  }
  let elapsed = 0, deepest = 0, done = 0;
  const centres = () => bodies.map((b) => {
    const t = b.translation();
    return dim === 3 ? [t.x, t.y, t.z] : [t.x, t.y];
  });
  while (done < count && elapsed < budget * 1000) {
    const t0 = performance.now();
    world.step();
    elapsed += performance.now() - t0;
    done++;
    deepest = Math.max(deepest, penetration(centres(), dim));
  }
  let speed = 0, escaped = 0;
  for (const b of bodies) {
    const v = b.linvel(), t = b.translation();
    speed = Math.max(speed, Math.hypot(v.x, v.y, v.z ?? 0));
    const out = dim === 3
      ? Math.abs(t.x) > HALF || Math.abs(t.y) > HALF || t.z < 0
      : Math.abs(t.x) > HALF_2D || t.y < 0;
    escaped += out ? 1 : 0;
  }
  world.free();
  return {
    engine: `Rapier ${dim}D ${RAPIER.version()} sleeping ${sleeping ? "on" : "off"}`,
    preset: dim === 3 ? "pile" : "pile-2d", n, steps: done, ms: elapsed / done,
    penetration: deepest, speed, escaped, note: "",
  };
}

// Warm-up, untimed: V8 first runs a wasm function from its baseline compiler and swaps in
// optimised code once the function is hot (compiled in the background), so the first
// seconds of either engine in a process run up to three times as slow. Each engine steps
// its small piles 3000 times first.
for (const [preset, dim] of [["pile", 3], ["pile-2d", 2]]) {
  for (let k = 0; k < 3; k++) {
    runRapier(dim, 10, false, 1000);
    for (const s of steppers) runContactlab(preset, 10, s, false, 1000);
  }
}

// The native run first, so that each wasm row can show its ratio to the same configuration
// natively.
const runNative = (which, extra) => {
  const args = ["bench-pile", "--n", sizes.join(","), "--steppers", which.join(","), "--steps", String(steps), "--budget", String(budget), "--repeat", String(repeat), ...extra];
  if (resistance) args.push("--resistance");
  return execFileSync("target/release/contactlab", args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
};
const nativeMs = new Map();
const readNative = (text, suffix) => {
  for (const line of text.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    if (cells.length > 9 && /^\d+$/.test(cells[2])) nativeMs.set(`${cells[1]} ${cells[2]} ${cells[3]}${suffix}`, Number(cells[8]));
  }
};
let native = runNative(steppers, []);
readNative(native, "");
for (const t of TRADES) {
  const text = runNative([t.stepper], t.args);
  readNative(text, ` ${t.key}`);
  native += `\n${t.stepper}, ${t.label}:\n${text}`;
}

console.log(`Node ${process.version}; contactlab wasm from www/pkg; ${steps} steps of h = 1/240 s (after an untimed warm-up of each engine); median of up to ${repeat} runs where a run is short; ρ = γ = ${resistance ? "1 mm" : "0"}.\n`);
console.log("| scene | N | engine | steps | runs | ms/step | ratio to Rapier (sleeping off) | wasm / native | deepest penetration [m] | final max speed [m/s] | escaped | note |");
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
for (const [preset, dim] of [["pile", 3], ["pile-2d", 2]]) {
  for (const n of sizes) {
    const rows = [repeated(() => runRapier(dim, n, false)), repeated(() => runRapier(dim, n, true))];
    for (const s of steppers) rows.push({ ...repeated(() => runContactlab(preset, n, s)), nativeMs: nativeMs.get(`${preset} ${n} ${s}`) });
    rows.push(repeated(() => runContactlab(preset, n, steppers[0], true)));
    rows.push(repeated(() => runContactlab(preset, n, steppers[0], RAPIER_SLEEP)));
    for (const t of TRADES) {
      rows.push({ ...repeated(() => runContactlab(preset, n, t.stepper, false, steps, t)), nativeMs: nativeMs.get(`${preset} ${n} ${t.stepper} ${t.key}`) });
    }
    const reference = rows[0].ms;
    for (const r of rows) {
      const ratio = r.nativeMs ? (r.ms / r.nativeMs).toFixed(2) : "";
      console.log(`| ${r.preset} | ${r.n} | ${r.engine} | ${r.steps} | ${r.runs} | ${r.ms.toFixed(3)} | ${(r.ms / reference).toFixed(2)} | ${ratio} | ${r.penetration.toExponential(2)} | ${r.speed.toExponential(2)} | ${r.escaped} | ${r.note} |`);
    }
  }
}

console.log("\nNative, same sitting, run before the wasm rows (target/release/contactlab bench-pile):\n");
console.log(native);
