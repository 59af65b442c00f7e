// Where the wasm build spends a pile's steps, by function: V8's sampling profiler (through
// node:inspector, in this process) over contactlab's step loop, its self time summed per
// function and printed as a table, the top first. The build must keep its name section
// (`make profile-pile` makes one in target/profile-pkg: wasm-bindgen keeps names, and
// wasm-opt keeps them with -g); without names the table lists wasm-function[k].
//
// Usage: node tools/profile-pile.mjs [--pkg DIR] [--preset pile|pile-2d] [--n 1000]
//                                    [--stepper nsga|moreau-jean] [--from 0] [--steps 300]
//                                    [--top 25] [--out FILE.cpuprofile]
//
// --from steps are run first, unprofiled (to reach a settled pile, say); then --steps are
// profiled. The same run natively: `perf record target/release/contactlab bench-pile ...`.
import { readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { performance } from "node:perf_hooks";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const whole = (name, fallback, low, high) => {
  const text = option(name, fallback);
  const value = Number(text);
  if (!Number.isInteger(value) || value < low || value > high) {
    console.error(`${name}: a whole number in [${low}, ${high}], got '${text}'`);
    process.exit(2);
  }
  return value;
};
const pkg = resolve(option("--pkg", "target/profile-pkg"));
const preset = option("--preset", "pile");
const stepper = option("--stepper", "nsga");
const n = whole("--n", "1000", 1, 1000);
const from = whole("--from", "0", 0, 1_000_000);
const steps = whole("--steps", "300", 1, 1_000_000);
const top = whole("--top", "25", 1, 1000);
const out = option("--out", null);
if (!["pile", "pile-2d"].includes(preset)) {
  console.error(`--preset: pile or pile-2d, got '${preset}'`);
  process.exit(2);
}
if (!["nsga", "moreau-jean"].includes(stepper)) {
  console.error(`--stepper: nsga or moreau-jean, got '${stepper}'`);
  process.exit(2);
}

const { initSync, Simulation } = await import(pathToFileURL(`${pkg}/contactlab.js`).href);
initSync({ module: readFileSync(`${pkg}/contactlab_bg.wasm`) });
const sim = Simulation.preset(preset, { N: n, sleep: 0 });
sim.setStepper(stepper);
const run = (count) => {
  let done = 0;
  while (done < count) done += sim.step(Math.min(count - done, 16));
};
run(from);

const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 500 });
await session.post("Profiler.start");
const t0 = performance.now();
run(steps);
const elapsed = performance.now() - t0;
const { profile } = await session.post("Profiler.stop");
session.disconnect();
const unconverged = sim.unconvergedSteps;
sim.free();
if (out) writeFileSync(out, JSON.stringify(profile));

// Self time per function: each sample's time goes to the node it landed in, and nodes of
// one function (reached by different paths) are summed under its name, hash dropped.
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map();
let total = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  const frame = nodes.get(id).callFrame;
  const name = (frame.functionName || `(${frame.url || "program"})`).replace(/::h[0-9a-f]{16}$/, "");
  self.set(name, (self.get(name) ?? 0) + dt);
  total += dt;
});
console.log(`${preset}, N = ${n}, ${stepper}: steps ${from}–${from + steps - 1} profiled, ` +
  `${(elapsed / steps).toFixed(1)} ms/step under the profiler, ${unconverged} unconverged steps in all\n`);
console.log("| self time | function |\n|---|---|");
for (const [name, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`| ${(100 * t / total).toFixed(1)} % | \`${name.replaceAll("|", "\\|")}\` |`);
}
