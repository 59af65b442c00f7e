// Browser benchmark: steps per second of every preset through the wasm API (bench.html).
// Results land in window.benchResults for tools/bench-web.mjs.

import init, { Simulation } from "../pkg/contactlab.js";

const BUDGET_MS = 400;

function measure(name) {
  const sim = Simulation.preset(name, {});
  const batch = 100;
  let steps = 0;
  const start = performance.now();
  while (performance.now() - start < BUDGET_MS) {
    try {
      steps += sim.step(batch);
    } catch {
      sim.reset();
    }
    if (sim.time > sim.duration) sim.reset();
  }
  const seconds = (performance.now() - start) / 1000;
  const result = { name, stepper: sim.stepper, h: sim.timeStep, perStep: seconds / steps };
  sim.free();
  return result;
}

await init();
const results = [];
const body = document.querySelector("#results tbody");
for (const preset of Simulation.presets()) {
  const r = measure(preset.name);
  results.push(r);
  const tr = document.createElement("tr");
  for (const text of [r.name, r.stepper, String(r.h), (r.perStep * 1e6).toFixed(2), (1 / r.perStep).toFixed(0)]) {
    const td = document.createElement("td");
    td.textContent = text;
    tr.append(td);
  }
  body.append(tr);
  await new Promise((ok) => setTimeout(ok, 0));
}
window.benchResults = results;
