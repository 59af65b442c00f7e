// Axis tick labels (www/js/ticks.js), in Node: neighbours never read the same, no "−0".
import { test } from "node:test";
import assert from "node:assert/strict";
import { tickLabels } from "../../www/js/ticks.js";

test("ticks 5e-4 apart around 9.81 read 9.8095, 9.8100, 9.8105 (not 9.81 three times)", () => {
  assert.deepEqual(tickLabels([9.8095, 9.81, 9.8105], 0.0005), ["9.8095", "9.8100", "9.8105"]);
});

test("a quarter spacing keeps two decimals; a zero tick never reads −0", () => {
  assert.deepEqual(tickLabels([-0.25, -0, 0.25, 0.5], 0.25), ["-0.25", "0.00", "0.25", "0.50"]);
  assert.deepEqual(tickLabels([-1e-17, 2, 4], 2), ["0", "2", "4"]);
});

test("large and small values in exponent form, distinct at their spacing", () => {
  assert.deepEqual(tickLabels([1e5, 1.5e5, 2e5], 5e4), ["1.0e+5", "1.5e+5", "2.0e+5"]);
  assert.deepEqual(tickLabels([0, 2e-4, 4e-4], 2e-4), ["0", "2.0e-4", "4.0e-4"]);
  const labels = tickLabels([14.62, 14.6205, 14.621], 0.0005);
  assert.equal(new Set(labels).size, 3, labels.join(" "));
});
