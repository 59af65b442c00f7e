// Page tests of the embeddable figures: the notes page, share links, CSV export, bad
// attributes, reduced motion. Run after `make web`.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { SHOTS, start } from "./harness.mjs";

let server;
let base;
let browser;

before(async () => {
  ({ server, base, browser } = await start());
});

after(async () => {
  await browser?.close();
  server?.close();
});

async function page(path, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, ...options });
  const p = await context.newPage();
  const errors = [];
  const requests = [];
  p.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  p.on("pageerror", (e) => errors.push(e.message));
  p.on("request", (r) => requests.push(r.url()));
  await p.goto(`${base}${path}`);
  return { p, errors, requests, context };
}

/** Steps taken by the figure with this id (after scrolling it into view for `ms`). */
async function runFigure(p, id, ms = 600) {
  await p.waitForFunction((i) => document.getElementById(i)?.ready, id, { timeout: 20000 });
  await p.locator(`#${id}`).scrollIntoViewIfNeeded();
  await p.waitForTimeout(ms);
  return p.evaluate((i) => document.getElementById(i).sim.steps, id);
}

test("the notes page runs three live figures whose plots receive data, with no network requests elsewhere", async () => {
  const { p, errors, requests, context } = await page("examples/notes.html");
  for (const id of ["block", "bar", "sphere"]) {
    const steps = await runFigure(p, id);
    assert.ok(steps > 0, `${id} did not run`);
    const points = await p.evaluate((i) => {
      const f = document.getElementById(i);
      return [f.plots.normal.points(), f.plots.frequency.points(), f.plots.motion.points()];
    }, id);
    assert.ok(points.some((n) => n > 3), `${id} plots: ${points}`);
  }
  await p.screenshot({ path: `${SHOTS}/notes.png`, fullPage: true });
  const foreign = requests.filter((u) => !u.startsWith(base) && !u.startsWith("data:") && !u.startsWith("blob:"));
  assert.deepEqual(foreign, []);
  assert.deepEqual(errors, []);
  await context.close();
});

test("figures run only in view and pause out of view", async () => {
  const { p, context } = await page("examples/notes.html");
  await p.waitForFunction(() => document.getElementById("sphere")?.ready, null, { timeout: 20000 });
  await p.waitForTimeout(400);
  // The third figure starts below the fold: it has not moved yet.
  assert.equal(await p.evaluate(() => document.getElementById("sphere").sim.steps), 0);
  const steps = await runFigure(p, "sphere");
  assert.ok(steps > 0);
  await p.locator("#block").scrollIntoViewIfNeeded();
  await p.waitForTimeout(300);
  const a = await p.evaluate(() => document.getElementById("sphere").sim.steps);
  await p.waitForTimeout(300);
  const b = await p.evaluate(() => document.getElementById("sphere").sim.steps);
  assert.equal(a, b, "an out-of-view figure kept running");
  await context.close();
});

test("two figures of one scene with different parameters give different traces", async () => {
  const html = `<!doctype html><script type="module" src="js/contact-figure.js"></script>
    <contact-figure id="a" scene="bouncing-ball" params="e=0.5" plots="gap" steps="800"></contact-figure>
    <contact-figure id="b" scene="bouncing-ball" params="e=0.8" plots="gap" steps="800"></contact-figure>`;
  const { p, context } = await page("");
  await p.setContent(html.replace(/src="js/, `src="${base}js`));
  await p.waitForFunction(() => document.getElementById("a")?.ready && document.getElementById("b")?.ready, null, { timeout: 20000 });
  const [da, db] = await p.evaluate(() => ["a", "b"].map((i) => document.getElementById(i).sim.digest));
  assert.notEqual(da, db);
  const ya = await p.evaluate(() => ["a", "b"].map((i) => document.getElementById(i).sim.bodyPoses()[4]));
  assert.notEqual(ya[0], ya[1]);
  await context.close();
});

test("a shared link reproduces the digest exactly", async () => {
  const { p, context } = await page("examples/notes.html");
  await runFigure(p, "block", 700);
  await p.click("#block button[aria-label='play or pause (space)']");
  const link = await p.evaluate(() => document.getElementById("block").shareLink());
  const digest = await p.evaluate(() => document.getElementById("block").sim.digest);
  const steps = await p.evaluate(() => document.getElementById("block").sim.steps);
  assert.match(link, /embed\.html\?scene=block-pull/);
  const other = await context.newPage();
  await other.goto(link);
  await other.waitForFunction(() => document.getElementById("figure")?.ready, null, { timeout: 20000 });
  const again = await other.evaluate(() => [document.getElementById("figure").sim.digest, document.getElementById("figure").sim.steps]);
  assert.deepEqual(again, [digest, steps]);
  // The replayed history is in the plots, not just the final sample.
  const points = await other.evaluate(() => document.getElementById("figure").plots.normal.points());
  assert.ok(points > Math.min(steps, 2000) / 2, `${points} samples plotted for ${steps} replayed steps`);
  await context.close();
});

test("CSV export matches the API trace", async () => {
  const { p, context } = await page("embed.html?scene=block-pull&params=u=25&steps=50&plots=reaction");
  await p.waitForFunction(() => document.getElementById("figure")?.ready, null, { timeout: 20000 });
  const [figureCsv, apiCsv] = await p.evaluate(async () => {
    const { Simulation } = await import("./pkg/contactlab.js");
    const sim = Simulation.preset("block-pull", { u: 25 });
    sim.startRecording();
    sim.step(50);
    return [document.getElementById("figure").sim.traceCsv(), sim.traceCsv()];
  });
  assert.equal(figureCsv, apiCsv);
  const lines = figureCsv.trim().split("\n");
  assert.equal(lines.length, 51);
  assert.match(lines[0], /^t \[s\],block\.x \[m\].*block\/floor#0\.normal \[N\]/);
  await context.close();
});

test("a bad attribute shows a message and the other figures keep running", async () => {
  const html = `<!doctype html><script type="module" src="${base}js/contact-figure.js"></script>
    <contact-figure id="bad" scene="block-pull" params="u=alert(1)" autoplay></contact-figure>
    <contact-figure id="good" scene="block-pull" autoplay></contact-figure>`;
  const { p, context } = await page("");
  await p.setContent(html);
  await p.waitForFunction(() => document.getElementById("good")?.ready && document.getElementById("bad")?.ready, null, { timeout: 20000 });
  await p.waitForTimeout(500);
  assert.match(await p.textContent("#bad .cf-message"), /u='alert\(1\)' is not a number/);
  const steps = await p.evaluate(() => document.getElementById("good").sim.steps);
  assert.ok(steps > 0, "the good figure runs");
  await context.close();
});

test("with reduced motion, figures start paused and step on demand; the keyboard works", async () => {
  const { p, context } = await page("examples/notes.html", { reducedMotion: "reduce" });
  await runFigure(p, "block", 500);
  assert.equal(await p.evaluate(() => document.getElementById("block").sim.steps), 0);
  await p.focus("#block .cf");
  await p.keyboard.press("ArrowRight");
  assert.equal(await p.evaluate(() => document.getElementById("block").sim.steps), 1);
  await p.keyboard.press("Space");
  await p.waitForTimeout(300);
  assert.ok(await p.evaluate(() => document.getElementById("block").sim.steps) > 1);
  await p.keyboard.press("Space"); // pause again, so the reset below is not followed by steps
  await p.keyboard.press("r");
  assert.equal(await p.evaluate(() => document.getElementById("block").sim.steps), 0);
  await context.close();
});

test("a figure's plot attribute draws any quantity against any other; a bad name is refused with the known ones", async () => {
  const plot = encodeURIComponent("kinetic energy [J]~t [s];ball.vy [m/s]~ball.y [m]");
  const { p, errors, context } = await page(`embed.html?scene=bouncing-ball&plots=gap&plot=${plot}&autoplay`);
  await p.waitForFunction(() => document.getElementById("figure")?.ready, null, { timeout: 20000 });
  await p.waitForFunction(() => document.getElementById("figure").builder.plots.every((b) => b.points() > 20), null, { timeout: 20000 });
  const [entries, link, kinetic, speed] = await p.evaluate(() => {
    const f = document.getElementById("figure");
    const [energy, phase] = f.builder.plots;
    return [f.builder.entries(), f.shareLink(), energy.ys.at(-1), phase.ys.at(-1)];
  });
  assert.deepEqual(entries, ["kinetic energy [J]~t [s]", "ball.vy [m/s]~ball.y [m]"]);
  assert.match(decodeURIComponent(link.replaceAll("+", " ")), /plot=kinetic energy \[J\]~t \[s\];ball\.vy \[m\/s\]~ball\.y \[m\]/);
  // A 1 kg ball: the kinetic energy plotted is ½ v² of the same sample's speed.
  assert.ok(Math.abs(kinetic - 0.5 * speed * speed) <= 1e-9 * Math.max(1, kinetic), `${kinetic} against ${speed}`);
  assert.equal(await p.locator("#figure .built-plot").count(), 2);
  const bad = await context.newPage();
  await bad.goto(`${base}embed.html?scene=bouncing-ball&plot=${encodeURIComponent("ball.q [m]~t [s]")}`);
  await bad.waitForFunction(() => document.getElementById("figure")?.ready, null, { timeout: 20000 });
  assert.match(await bad.textContent(".cf-message"), /plot: unknown ball\.q \[m\]; known now: t \[s\], ball\.x \[m\]/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("the single-file build runs with no request for .wasm or CSS files", async () => {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const p = await context.newPage();
  const requests = [];
  const errors = [];
  p.on("request", (r) => requests.push(r.url()));
  p.on("pageerror", (e) => errors.push(e.message));
  await p.route(/\/(pkg|vendor)\//, (route) => route.abort());
  await p.goto(`${base}examples/single-file.html`);
  const steps = await runFigure(p, "one", 500);
  assert.ok(steps > 0, "the single-file figure runs");
  // Its share link opens beside the single file (dist/embed.html) and replays the same run.
  const [link, digest] = await p.evaluate(() => {
    const f = document.getElementById("one");
    if (f.wantsPlay) f.toggle();
    return [f.shareLink(), f.sim.digest];
  });
  assert.match(link, /\/dist\/embed\.html\?/);
  const shared = await context.newPage();
  shared.on("pageerror", (e) => errors.push(e.message));
  shared.on("request", (r) => requests.push(r.url()));
  await shared.goto(link);
  await shared.waitForFunction(() => document.getElementById("figure")?.ready, null, { timeout: 20000 });
  assert.equal(await shared.evaluate(() => document.getElementById("figure").sim.digest), digest);
  assert.deepEqual(requests.filter((u) => /\/(pkg|vendor)\//.test(u)), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test("native and wasm give the same trace digest, bit for bit", async () => {
  const { execFileSync } = await import("node:child_process");
  const { p, context } = await page("embed.html?scene=bouncing-ball&params=e=0.7&steps=500&plots=gap");
  await p.waitForFunction(() => document.getElementById("figure")?.ready, null, { timeout: 20000 });
  for (const [scene, sets, steps] of [["bouncing-ball", ["e=0.7"], 500], ["sphere-slide", [], 500], ["rocking-bar", ["kind=1"], 500]]) {
    const args = ["run", scene, ...sets.flatMap((s) => ["--set", s]), "--duration", String(steps), "--format", "digest"];
    // --duration is in seconds: use the scene's own step to turn steps into time.
    const dt = await p.evaluate(([s, list]) => import("./pkg/contactlab.js").then(({ Simulation }) => {
      const params = Object.fromEntries(list.map((x) => x.split("=").map((y, i) => (i ? Number(y) : y))));
      const sim = Simulation.preset(s, params);
      return sim.timeStep;
    }), [scene, sets]);
    args[args.indexOf("--duration") + 1] = String(steps * dt);
    const native = execFileSync("target/release/contactlab", args, { encoding: "utf8" }).trim();
    const web = await p.evaluate(([s, list, n]) => import("./pkg/contactlab.js").then(({ Simulation }) => {
      const params = Object.fromEntries(list.map((x) => x.split("=").map((y, i) => (i ? Number(y) : y))));
      const sim = Simulation.preset(s, params);
      sim.step(n);
      return sim.digest;
    }), [scene, sets, steps]);
    assert.equal(web, native, `${scene}: wasm ${web}, native ${native}`);
  }
  await context.close();
});
