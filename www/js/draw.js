// Small drawing helpers shared by the planar and the spatial views.

/** A force arrow from (x0, y0) to (x1, y1) in canvas pixels; `px` is the device pixel ratio. */
export function drawArrow(ctx, x0, y0, x1, y1, px) {
  const len = Math.hypot(x1 - x0, y1 - y0);
  if (len < 1) return;
  const head = Math.min(10 * px, 0.4 * len);
  const ux = (x1 - x0) / len, uy = (y1 - y0) / len;
  ctx.strokeStyle = ctx.fillStyle = "#d1242f";
  ctx.lineWidth = 2 * px;
  ctx.beginPath(); ctx.moveTo(x0, y0); ctx.lineTo(x1 - ux * head, y1 - uy * head); ctx.stroke();
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.lineTo(x1 - ux * head - uy * head * 0.5, y1 - uy * head + ux * head * 0.5);
  ctx.lineTo(x1 - ux * head + uy * head * 0.5, y1 - uy * head - ux * head * 0.5);
  ctx.closePath(); ctx.fill();
}

/** Sizes a canvas's backing store to its CSS box at devicePixelRatio; returns the ratio. */
export function fitCanvas(canvas) {
  const dpr = window.devicePixelRatio || 1;
  const { width, height } = canvas.getBoundingClientRect();
  canvas.width = Math.max(1, Math.round(width * dpr));
  canvas.height = Math.max(1, Math.round(height * dpr));
  return dpr;
}
