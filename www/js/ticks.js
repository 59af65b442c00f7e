// Axis tick labels that stay readable: as many decimals as the spacing needs, never two equal
// neighbours, never "−0" (plain module: the page's plots and the Node tests import it).

/**
 * Tick labels with as many decimals as the tick spacing needs, so that neighbouring ticks
 * never read the same ("9.81 9.81"), and no "−0".
 */
export function tickLabels(splits, increment) {
  // The fewest decimals that write the spacing exactly (0.25 needs two, 5e-4 four).
  let decimals = 0;
  const scaled = (d) => increment * 10 ** d;
  while (decimals < 12 && Math.abs(Math.round(scaled(decimals)) - scaled(decimals)) > 1e-6 * scaled(decimals)) decimals++;
  const span = Math.max(...splits.map(Math.abs));
  // Very large or very small numbers in exponent form, with the digits the spacing needs.
  if (span >= 1e5 || (span > 0 && span < 1e-3)) {
    const digits = Math.max(1, Math.min(12, Math.ceil(Math.log10(span / increment)) + 1));
    return splits.map((v) => (v === 0 ? "0" : v.toExponential(digits - 1)));
  }
  return splits.map((v) => {
    const text = v.toFixed(decimals);
    return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
  });
}

