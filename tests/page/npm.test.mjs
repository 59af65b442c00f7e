// The npm package (`make npm` builds target/npm/contactlab): `npm pack --dry-run` lists what
// an instructor needs, and the packed tarball, unpacked and served, runs its example's figures
// and types the API.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { start } from "./harness.mjs";
import { serve } from "../../tools/serve.mjs";

const PACKAGE = "target/npm/contactlab";
let browser;
let site;

before(async () => {
  let server;
  ({ browser, server } = await start());
  server.close();
});

after(async () => {
  await browser?.close();
  site?.server.close();
});

test("npm pack --dry-run lists the API with its types, the element, the single file, embed.html and the example", () => {
  const [report] = JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json"], { cwd: PACKAGE, encoding: "utf8" }));
  const files = report.files.map((f) => f.path);
  for (const f of ["package.json", "README.md", "example.html", "embed.html", "pkg/contactlab.js", "pkg/contactlab_bg.wasm", "pkg/contactlab.d.ts", "js/contact-figure.js", "vendor/uPlot.esm.js", "dist/contact-figure.js", "dist/embed.html"]) {
    assert.ok(files.includes(f), `${f} missing from ${files.join(", ")}`);
  }
  // Nothing of the playground (three.js, its page) or of the build.
  assert.ok(!files.some((f) => /main\.js|view3d|three|\.rs$/.test(f)), files.join(", "));
  assert.equal(report.name, "contactlab");
});

test("the packed tarball, unpacked and served, runs both figures of its example; the types declare Simulation", async () => {
  const dir = mkdtempSync(join(tmpdir(), "contactlab-npm-"));
  const [report] = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", dir], { cwd: PACKAGE, encoding: "utf8" }));
  execFileSync("tar", ["xzf", join(dir, report.filename), "-C", dir]);
  const root = join(dir, "package");
  assert.match(readFileSync(join(root, "pkg/contactlab.d.ts"), "utf8"), /export class Simulation/);
  site = await serve(root, 0);
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("requestfailed", (r) => errors.push(`request failed: ${r.url()}`));
  // A module the package left out shows as a 404 here, not as a hang.
  page.on("response", (r) => { if (r.status() >= 400) errors.push(`${r.status()}: ${r.url()}`); });
  await page.goto(`${site.url}example.html`);
  // Figures run only while in view: bring each one in before waiting for its steps.
  for (const id of ["block", "ball"]) {
    await page.waitForFunction((i) => document.getElementById(i)?.ready, id, { timeout: 20000 })
      .catch((e) => { throw new Error(`${id} not ready: ${errors.join("; ") || e.message}`); });
    await page.locator(`#${id}`).scrollIntoViewIfNeeded();
    await page.waitForFunction((i) => document.getElementById(i).sim.steps > 0, id, { timeout: 20000 });
  }
  // Seed 001 in the packed figure: N = mg − u = 14.62 N for the default block.
  const n = await page.evaluate(() => [...document.getElementById("block").sim.contactData()][2]);
  assert.ok(Math.abs(n - (2 * 9.81 - 5)) < 1e-9, `N = ${n}`);
  assert.deepEqual(errors, []);
  await page.close();
});
