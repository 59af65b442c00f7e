// Frame rate of the playground's 3-D view in headless Chromium (software WebGL): a pile of N
// spheres (default 100) drawn every frame while the run is paused (drawing alone), and the
// time of one draw call. Usage: node tools/bench-view3d.mjs [N]
import { chromium } from "playwright-core";
import { serve } from "./serve.mjs";

const n = Number(process.argv[2] ?? 100);
const { server, url } = await serve("www", 0);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
await page.goto(`${url}?scene=pile&N=${n}&sleep=1`);
await page.waitForFunction(() => window.contactlab?.ready && window.contactlab.sim.steps > 0);
// Let a few layers land so that contacts and arrows are drawn too, then pause.
await page.waitForFunction(() => window.contactlab.sim.time > 0.6, null, { timeout: 600000 });
await page.evaluate(() => { window.contactlab.playing = false; });
await page.waitForTimeout(500);
const stats = await page.evaluate(async () => {
  const app = window.contactlab;
  // Frames per second of the page's own loop (render every frame) over 5 s.
  const start = app.frames;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, 5000));
  const fps = (app.frames - start) / ((performance.now() - t0) / 1000);
  // One draw (instance matrices, arrows, render), timed with the GPU work flushed by a read.
  const contacts = app.sim.contactData();
  const gl = app.view.renderer.getContext();
  const pixel = new Uint8Array(4);
  const times = [];
  for (let k = 0; k < 100; k++) {
    const s = performance.now();
    app.view.draw(app.sim, contacts);
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  return { fps, median: times[50], p95: times[95], contacts: contacts.length / 12, bodies: app.bodies.length };
});
await browser.close();
server.close();
console.log(`3-D view, pile of ${n} (${stats.bodies} bodies, ${stats.contacts} contacts drawn), paused: ${stats.fps.toFixed(1)} frames/s; one draw ${stats.median.toFixed(2)} ms median, ${stats.p95.toFixed(2)} ms p95 (60 Hz budget 16.7 ms)`);
