// Downloads from the page: a file from a Blob, and a figure as one PNG that stands on its own
// (a caption with the scene, its parameters, stepper, h, time and trace digest; the view at full
// width; each plot with its caption and legend), for the playground and the course figures alike.

/** Saves `blob` as `name` through a temporary link. */
export function download(name, blob) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** The series of a uPlot chart as drawn in its legend: [{label, color}] (time excluded). */
export function legendOf(element) {
  return [...element.querySelectorAll(".u-legend .u-series")].slice(1).map((row) => ({
    label: row.querySelector(".u-label")?.textContent ?? "",
    color: getComputedStyle(row.querySelector(".u-marker") ?? row).borderColor || "#1d2330",
  }));
}

/** Lines of `text` that fit `width` pixels in the context's current font. */
function wrap(ctx, text, width) {
  const lines = [];
  let line = "";
  for (const word of text.split(" ")) {
    const next = line ? `${line} ${word}` : word;
    if (ctx.measureText(next).width > width && line) {
      lines.push(line);
      line = word;
    } else {
      line = next;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * Composes the figure: `caption` lines on top, `view` (a canvas) at full width, then `plots`
 * ([{caption, canvas, legend: [{label, color}]}]) two to a row at their own size.
 * @returns {HTMLCanvasElement}
 */
export function composeFigure({ title, caption, view, plots }) {
  const scale = window.devicePixelRatio || 1;
  const width = Math.max(view?.width ?? 0, ...plots.map((p) => p.canvas.width * 2), 900 * scale);
  const pad = 12 * scale;
  const font = (size, weight = "") => `${weight} ${size * scale}px system-ui, sans-serif`;
  const measure = document.createElement("canvas").getContext("2d");
  // Heights first, then drawing.
  measure.font = font(13);
  const captionLines = caption.flatMap((line) => wrap(measure, line, width - 2 * pad));
  const header = pad + 22 * scale + captionLines.length * 17 * scale + pad;
  const viewHeight = view ? Math.round(view.height * (width / view.width)) : 0;
  const column = (width - pad) / 2;
  const rows = [];
  for (let k = 0; k < plots.length; k += 2) rows.push(plots.slice(k, k + 2));
  const plotBlock = (p) => {
    const h = p.canvas.height * (column / p.canvas.width);
    measure.font = font(12);
    const legend = wrap(measure, p.legend.map((s) => `■ ${s.label}`).join("   "), column);
    return { h, legend, total: 20 * scale + h + legend.length * 16 * scale + pad };
  };
  const rowHeights = rows.map((row) => Math.max(...row.map((p) => plotBlock(p).total)));
  const out = document.createElement("canvas");
  out.width = width;
  out.height = header + viewHeight + pad + rowHeights.reduce((a, b) => a + b, 0);
  const ctx = out.getContext("2d");
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.fillStyle = "#1d2330";
  ctx.textBaseline = "top";
  ctx.font = font(18, "600");
  ctx.fillText(title, pad, pad);
  ctx.font = font(13);
  ctx.fillStyle = "#3d4452";
  captionLines.forEach((line, k) => ctx.fillText(line, pad, pad + 26 * scale + k * 17 * scale));
  let y = header;
  if (view) {
    ctx.drawImage(view, 0, y, width, viewHeight);
    y += viewHeight + pad;
  }
  rows.forEach((row, r) => {
    row.forEach((p, c) => {
      const x = c * (column + pad);
      const block = plotBlock(p);
      ctx.fillStyle = "#1d2330";
      ctx.font = font(13, "600");
      // One line per caption: shortened with an ellipsis to its column.
      let title = p.caption;
      while (title.length > 4 && ctx.measureText(title).width > column - pad) title = `${title.slice(0, -2)}…`;
      ctx.fillText(title, x + pad, y);
      ctx.drawImage(p.canvas, x, y + 20 * scale, column, block.h);
      ctx.font = font(12);
      let ly = y + 20 * scale + block.h + 4 * scale;
      // The legend: each label behind a square of its series' colour.
      for (const line of block.legend) {
        let lx = x + pad;
        for (const part of line.split("   ")) {
          const series = p.legend.find((s) => `■ ${s.label}` === part);
          ctx.fillStyle = series?.color ?? "#1d2330";
          ctx.fillText("■", lx, ly);
          ctx.fillStyle = "#1d2330";
          ctx.fillText(part.slice(1), lx + measure.measureText("■").width, ly);
          lx += ctx.measureText(part + "   ").width;
        }
        ly += 16 * scale;
      }
    });
    y += rowHeights[r];
  });
  return out;
}
