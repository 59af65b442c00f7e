// Frame time of the notes page with its three figures all in view and running, in headless
// Chromium: the time the shared loop spends stepping and drawing per frame. Usage:
// node tools/bench-figures.mjs
import { chromium } from "playwright-core";
import { serve } from "./serve.mjs";

const { server, url } = await serve("www", 0);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"],
});
const page = await browser.newPage({ viewport: { width: 1100, height: 3000 } });
await page.goto(`${url}examples/notes.html`);
await page.waitForFunction(() => ["block", "bar", "sphere"].every((i) => document.getElementById(i)?.ready));
await page.waitForTimeout(1000);
await page.evaluate(() => Object.assign(window.contactFigureStats, { frames: 0, totalMs: 0, maxMs: 0, samples: [] }));
await page.waitForTimeout(5000);
const stats = await page.evaluate(() => {
  const s = window.contactFigureStats;
  const sorted = [...s.samples].sort((a, b) => a - b);
  const steps = ["block", "bar", "sphere"].map((i) => document.getElementById(i).sim.steps);
  return { frames: s.frames, mean: s.totalMs / s.frames, p95: sorted[Math.floor(0.95 * sorted.length)], max: s.maxMs, steps };
});
await browser.close();
server.close();
console.log(`three figures running, ${stats.frames} frames in 5 s: mean ${stats.mean.toFixed(2)} ms, p95 ${stats.p95.toFixed(2)} ms, max ${stats.max.toFixed(2)} ms per frame (budget at 60 Hz: 16.7 ms); steps so far ${stats.steps.join(", ")}`);
