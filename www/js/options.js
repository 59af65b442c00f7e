// Figure options from attributes or a URL: parsed as data, checked against the preset's
// declared parameters, never evaluated. Anything refused is reported, not silently used.

const PLOTS = ["reaction", "gap", "frequency", "slip", "laws"];
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A finite number written plainly (no expressions, no hex, no Infinity), or null. */
export function parseNumber(text) {
  const t = String(text ?? "").trim();
  if (!NUMBER.test(t)) return null;
  const x = Number(t);
  return Number.isFinite(x) ? x : null;
}

/**
 * Reads figure options through `get(name)` (an attribute or URL lookup).
 * @param {(name: string) => string|null} get
 * @param {Array} presets Simulation.presets()
 * @returns {{scene: string, params: object, plots: string[], controls: string[], autoplay: boolean,
 *   stepper: string|null, dt: number|null, steps: number, timeline: string, errors: string[]}}
 */
export function readOptions(get, presets) {
  const errors = [];
  let scene = (get("scene") ?? "block-pull").trim();
  let preset = presets.find((p) => p.name === scene);
  if (!preset) {
    errors.push(`scene: unknown '${scene}'; known: ${presets.map((p) => p.name).join(", ")}`);
    preset = presets[0];
    scene = preset.name;
  }
  const params = {};
  for (const item of (get("params") ?? "").split(",").map((s) => s.trim()).filter(Boolean)) {
    const [name, value, extra] = item.split("=");
    const p = preset.parameters.find((q) => q.name === name?.trim());
    const x = parseNumber(value);
    if (extra !== undefined || !p) {
      errors.push(`params: '${item}' is not NAME=VALUE with NAME one of ${preset.parameters.map((q) => q.name).join(", ")}`);
    } else if (x === null) {
      errors.push(`params: ${p.name}='${value}' is not a number`);
    } else if (x < p.min || x > p.max) {
      errors.push(`params: ${p.name} must be in [${p.min}, ${p.max}] ${p.unit}, got ${x}`);
    } else {
      params[p.name] = x;
    }
  }
  const list = (name, allowed, fallback) => {
    const raw = get(name);
    if (raw === null || raw === undefined) return fallback;
    const items = raw.split(",").map((s) => s.trim()).filter(Boolean);
    if (items.length === 1 && items[0] === "all") return allowed;
    const bad = items.filter((i) => !allowed.includes(i));
    if (bad.length) errors.push(`${name}: unknown ${bad.join(", ")}; allowed: ${allowed.join(", ")}`);
    return items.filter((i) => allowed.includes(i));
  };
  const plots = list("plots", PLOTS, preset.name.startsWith("sphere") ? ["slip"] : ["reaction"]);
  const controls = list("controls", preset.parameters.map((p) => p.name), []);
  const stepper = get("stepper");
  let dt = null;
  if (get("dt") !== null && get("dt") !== undefined) {
    dt = parseNumber(get("dt"));
    if (dt === null || dt < 1e-7 || dt > 0.1) {
      errors.push(`dt: must be a number in [1e-7, 0.1] s, got '${get("dt")}'`);
      dt = null;
    }
  }
  let steps = 0;
  if (get("steps") !== null && get("steps") !== undefined) {
    const n = parseNumber(get("steps"));
    if (n === null || n < 0 || n > 1e7 || !Number.isInteger(n)) errors.push(`steps: must be a whole number in [0, 10000000], got '${get("steps")}'`);
    else steps = n;
  }
  const autoplayRaw = get("autoplay");
  const autoplay = autoplayRaw !== null && autoplayRaw !== undefined && autoplayRaw !== "false" && autoplayRaw !== "0";
  // The changes of a shared run, by step; the simulation checks the text when it replays it.
  const timeline = (get("timeline") ?? "").trim();
  return { scene, params, plots, controls, autoplay, stepper: stepper || null, dt, steps, timeline, errors };
}
