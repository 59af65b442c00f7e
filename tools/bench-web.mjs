// Runs www/bench.html in headless Chromium and the native bench in the same sitting, and
// prints a Markdown table with steps/s in both and their ratio. Usage: node tools/bench-web.mjs
import { execFileSync } from "node:child_process";
import { statSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { serve } from "./serve.mjs";

const { server, url } = await serve("www", 0);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking"],
});
const page = await browser.newPage();
await page.goto(`${url}bench.html`);
await page.waitForFunction(() => window.benchResults, null, { timeout: 120000 });
const web = await page.evaluate(() => window.benchResults);
await browser.close();
server.close();

const native = JSON.parse(execFileSync("target/release/contactlab", ["bench", "--json"], { encoding: "utf8" }));
const version = execFileSync("/usr/bin/chromium", ["--version"], { encoding: "utf8" }).trim();
console.log(`Browser: ${version}, headless; native: target/release/contactlab, same machine, same run.\n`);
console.log("| preset | stepper | h [s] | wasm steps/s | native steps/s | wasm / native |");
console.log("|---|---|---|---|---|---|");
for (const r of web) {
  const n = native[r.name];
  const w = 1 / r.perStep;
  console.log(`| ${r.name} | ${r.stepper} | ${r.h} | ${w.toFixed(0)} | ${n.toFixed(0)} | ${(w / n).toFixed(2)} |`);
}
const wasm = "www/pkg/contactlab_bg.wasm";
const raw = statSync(wasm).size;
const gz = gzipSync(readFileSync(wasm), { level: 9 }).length;
console.log(`\nRelease wasm (after wasm-opt -O3): ${raw} bytes raw, ${gz} bytes gzip -9.`);
