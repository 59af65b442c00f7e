//! Paints a [`Picture`] on a browser canvas through web-sys: a replay of its marks, with no
//! geometry of its own.

use wasm_bindgen::JsValue;
use web_sys::CanvasRenderingContext2d;

use super::picture::{Mark, Picture, Px, Style};

/// Clears the canvas and paints `picture`'s marks in order.
pub fn paint(ctx: &CanvasRenderingContext2d, picture: &Picture) -> Result<(), JsValue> {
    ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)?;
    ctx.clear_rect(0.0, 0.0, picture.width, picture.height);
    ctx.set_line_join("round");
    // The dash pattern in force: set only when a mark asks for another (a JS array each time).
    let mut dash: Option<[f64; 2]> = None;
    ctx.set_line_dash(&js_sys::Array::new())?;
    for mark in &picture.marks {
        match mark {
            Mark::Path {
                points,
                closed,
                style,
            } => {
                ctx.begin_path();
                trace(ctx, points);
                if *closed {
                    ctx.close_path();
                }
                finish(ctx, style, *closed, &mut dash)?;
            }
            Mark::Segments { pairs, style } => {
                ctx.begin_path();
                for (a, b) in pairs {
                    ctx.move_to(a[0], a[1]);
                    ctx.line_to(b[0], b[1]);
                }
                finish(ctx, style, false, &mut dash)?;
            }
            Mark::Circle {
                centre,
                radius,
                style,
            } => {
                ctx.begin_path();
                ctx.arc(
                    centre[0],
                    centre[1],
                    radius.max(0.0),
                    0.0,
                    std::f64::consts::TAU,
                )?;
                finish(ctx, style, true, &mut dash)?;
            }
            Mark::Text {
                at,
                text,
                colour,
                size,
            } => {
                ctx.set_fill_style_str(colour);
                ctx.set_font(&format!("{size}px system-ui, sans-serif"));
                ctx.fill_text(text, at[0], at[1])?;
            }
        }
    }
    Ok(())
}

fn trace(ctx: &CanvasRenderingContext2d, points: &[Px]) {
    for (k, p) in points.iter().enumerate() {
        if k == 0 {
            ctx.move_to(p[0], p[1]);
        } else {
            ctx.line_to(p[0], p[1]);
        }
    }
}

/// Fills (closed shapes only) and strokes the current path as `style` says; `dash` is the
/// pattern the context holds, changed only when the style's differs.
fn finish(
    ctx: &CanvasRenderingContext2d,
    style: &Style,
    closed: bool,
    dash: &mut Option<[f64; 2]>,
) -> Result<(), JsValue> {
    if let (Some(fill), true) = (style.fill, closed) {
        ctx.set_fill_style_str(fill);
        ctx.fill();
    }
    if let Some(stroke) = style.stroke {
        ctx.set_stroke_style_str(stroke);
        ctx.set_line_width(style.line_width);
        if style.dash != *dash {
            let pattern = js_sys::Array::new();
            if let Some([on, off]) = style.dash {
                pattern.push(&on.into());
                pattern.push(&off.into());
            }
            ctx.set_line_dash(&pattern)?;
            *dash = style.dash;
        }
        ctx.stroke();
    }
    Ok(())
}
