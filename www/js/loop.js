// Fixed-step loop: real time (times the speed) fills an accumulator that is drained in whole
// steps of the scene's h; the frame renders whatever state the last whole step left.
// A frame never spends more than `budgetMs` stepping: when the simulation cannot keep up, the
// backlog is dropped (the run slows down) instead of freezing the tab.

export class FixedStepLoop {
  /** @param {{budgetMs?: number}} options */
  constructor({ budgetMs = 12 } = {}) {
    this.budgetMs = budgetMs;
    this.accumulator = 0;
    this.behind = false;
  }

  /** Adds `seconds` of simulated time that should elapse. */
  accumulate(seconds) {
    // A long pause (hidden tab, breakpoint) must not be caught up all at once.
    this.accumulator = Math.min(this.accumulator + seconds, 0.25);
  }

  /**
   * Runs `step(n)` for the whole steps due, in chunks, within the frame budget.
   * @param {number} h time step, s
   * @param {(n: number) => void} step advances n steps (may throw)
   * @returns {number} steps taken
   */
  drain(h, step) {
    const start = performance.now();
    let taken = 0;
    let chunk = 1;
    this.behind = false;
    while (this.accumulator >= h) {
      const n = Math.max(1, Math.min(chunk, Math.floor(this.accumulator / h)));
      step(n);
      taken += n;
      this.accumulator -= n * h;
      if (performance.now() - start > this.budgetMs) {
        this.behind = this.accumulator >= h;
        this.accumulator = 0;
        break;
      }
      chunk = Math.min(chunk * 2, 4096);
    }
    return taken;
  }

  clear() {
    this.accumulator = 0;
  }
}

/**
 * Slow motion for stiff contacts: the speed (≤ 1) that shows at most about one contact
 * oscillation per second. Only penalty contacts oscillate (rigid steppers run in real time);
 * each compressed contact's own frequency √(k A) counts (a beam's bending modes, which the
 * coupled modes include, are not what the slow motion is for), and under the implicit penalty
 * stepper only where it resolves it (h·ω < 1): it damps the others within a few steps.
 */
export function slowMotion(sim) {
  if (!sim.stepper.startsWith("penalty")) return 1;
  const shown = sim.contactFrequencies().filter((w) => sim.stepper !== "penalty-implicit" || w * sim.timeStep < 1);
  const fastest = Math.max(0, ...shown);
  return fastest > 0 ? Math.min(1, 6 / fastest) : 1;
}
