//! Framing: the world box a view shows, grown to hold bodies that leave it but never by more
//! than [`MAX_ZOOM_OUT`], then following them; and the world ↔ pixel map of a panel.

use glam::DVec2;

use super::picture::Px;

/// The view grows to hold bodies that leave it up to this factor of its first size; beyond,
/// it follows them, so a body falling away never shrinks to a dot.
pub const MAX_ZOOM_OUT: f64 = 3.0;

/// An axis-aligned box in world coordinates, m (x0 ≤ x1, y0 ≤ y1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WorldBox {
    /// Left, m.
    pub x0: f64,
    /// Right, m.
    pub x1: f64,
    /// Bottom, m.
    pub y0: f64,
    /// Top, m.
    pub y1: f64,
}

impl WorldBox {
    /// The box shown when there is nothing to frame.
    pub const DEFAULT: WorldBox = WorldBox {
        x0: -1.0,
        x1: 1.0,
        y0: -0.1,
        y1: 1.0,
    };

    /// The smallest box holding every disk (centre, radius) of `items`, or None when empty or
    /// not finite.
    pub fn around(items: impl IntoIterator<Item = (DVec2, f64)>) -> Option<WorldBox> {
        let mut b = WorldBox {
            x0: f64::INFINITY,
            x1: f64::NEG_INFINITY,
            y0: f64::INFINITY,
            y1: f64::NEG_INFINITY,
        };
        for (c, r) in items {
            b.x0 = b.x0.min(c.x - r);
            b.x1 = b.x1.max(c.x + r);
            b.y0 = b.y0.min(c.y - r);
            b.y1 = b.y1.max(c.y + r);
        }
        (b.x0.is_finite() && b.x1.is_finite() && b.y0.is_finite() && b.y1.is_finite()).then_some(b)
    }

    /// The larger of width and height, m.
    pub fn span(&self) -> f64 {
        (self.x1 - self.x0).max(self.y1 - self.y0)
    }

    /// The middle, m.
    pub fn centre(&self) -> DVec2 {
        DVec2::new(0.5 * (self.x0 + self.x1), 0.5 * (self.y0 + self.y1))
    }

    /// The smallest box holding both.
    pub fn union(&self, other: &WorldBox) -> WorldBox {
        WorldBox {
            x0: self.x0.min(other.x0),
            x1: self.x1.max(other.x1),
            y0: self.y0.min(other.y0),
            y1: self.y1.max(other.y1),
        }
    }

    /// The box with a margin of `fraction` of its span on each side (a quarter of that below,
    /// where the ground is).
    pub fn padded(&self, fraction: f64) -> WorldBox {
        let span = if self.span() > 0.0 { self.span() } else { 1.0 };
        let pad = fraction * span;
        WorldBox {
            x0: self.x0 - pad,
            x1: self.x1 + pad,
            y0: self.y0 - 0.25 * pad,
            y1: self.y1 + pad,
        }
    }
}

/// What to show now, given the first view `home`, the box of everything now (`now`) and of the
/// moving bodies only (`moving`): `home` grown to hold `now` while that stays within
/// [`MAX_ZOOM_OUT`] × its span; beyond, a box of `home`'s shape, scaled by at most
/// [`MAX_ZOOM_OUT`], centred on the moving bodies.
pub fn follow(home: &WorldBox, now: &WorldBox, moving: &WorldBox) -> WorldBox {
    let union = home.union(now);
    if union.span() <= MAX_ZOOM_OUT * home.span() {
        return union;
    }
    let scale = (moving.span() / home.span()).clamp(1.0, MAX_ZOOM_OUT);
    let c = moving.centre();
    let half_w = 0.5 * (home.x1 - home.x0) * scale;
    let half_h = 0.5 * (home.y1 - home.y0) * scale;
    WorldBox {
        x0: c.x - half_w,
        x1: c.x + half_w,
        y0: c.y - half_h,
        y1: c.y + half_h,
    }
}

/// A world box fitted into a pixel rectangle at aspect ratio 1 (y up in the world, down on the
/// canvas), centred.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Viewport {
    /// Pixels per metre.
    pub scale: f64,
    /// World point at the rectangle's middle, m.
    pub centre: DVec2,
    /// Pixel rectangle's middle, px.
    pub middle: Px,
    /// The pixel rectangle: left, top, width, height.
    pub rect: [f64; 4],
}

impl Viewport {
    /// `world` shown whole in the pixel rectangle `rect` = [left, top, width, height].
    pub fn fit(world: &WorldBox, rect: [f64; 4]) -> Viewport {
        let [left, top, width, height] = rect;
        let w = (world.x1 - world.x0).max(f64::MIN_POSITIVE);
        let h = (world.y1 - world.y0).max(f64::MIN_POSITIVE);
        Viewport {
            scale: (width / w).min(height / h),
            centre: world.centre(),
            middle: [left + 0.5 * width, top + 0.5 * height],
            rect,
        }
    }

    /// World point → pixels.
    pub fn px(&self, p: DVec2) -> Px {
        [
            self.middle[0] + (p.x - self.centre.x) * self.scale,
            self.middle[1] - (p.y - self.centre.y) * self.scale,
        ]
    }

    /// Pixels → world point.
    pub fn world(&self, px: Px) -> DVec2 {
        DVec2::new(
            self.centre.x + (px[0] - self.middle[0]) / self.scale,
            self.centre.y - (px[1] - self.middle[1]) / self.scale,
        )
    }

    /// The world region the pixel rectangle shows, as a counter-clockwise polygon (m).
    pub fn world_corners(&self) -> [DVec2; 4] {
        let [l, t, w, h] = self.rect;
        [
            self.world([l, t + h]),
            self.world([l + w, t + h]),
            self.world([l + w, t]),
            self.world([l, t]),
        ]
    }
}

/// The part of the convex polygon `polygon` on the side n·(p − o) ≤ 0 of the line through `o`
/// with normal `n` (Sutherland–Hodgman against one edge): the ground drawn exactly to the
/// panel's edges, with no clipping left to the canvas.
pub fn clip_below(polygon: &[DVec2], o: DVec2, n: DVec2) -> Vec<DVec2> {
    let side = |p: DVec2| n.dot(p - o);
    let mut out = Vec::with_capacity(polygon.len() + 1);
    for (k, &a) in polygon.iter().enumerate() {
        let b = polygon[(k + 1) % polygon.len()];
        let (sa, sb) = (side(a), side(b));
        if sa <= 0.0 {
            out.push(a);
        }
        if (sa < 0.0 && sb > 0.0) || (sa > 0.0 && sb < 0.0) {
            out.push(a + (b - a) * (sa / (sa - sb)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit() -> WorldBox {
        WorldBox {
            x0: 0.0,
            x1: 1.0,
            y0: 0.0,
            y1: 1.0,
        }
    }

    #[test]
    fn viewport_round_trips_and_keeps_aspect_one() {
        let world = WorldBox {
            x0: -2.0,
            x1: 2.0,
            y0: 0.0,
            y1: 1.0,
        };
        let v = Viewport::fit(&world, [0.0, 0.0, 800.0, 400.0]);
        assert_eq!(v.scale, 200.0, "width limits: 800 px / 4 m");
        let p = DVec2::new(1.5, 0.25);
        let back = v.world(v.px(p));
        assert!((back - p).length() < 1e-12);
        // y up in the world is y down on the canvas.
        assert!(v.px(DVec2::new(0.0, 1.0))[1] < v.px(DVec2::new(0.0, 0.0))[1]);
    }

    #[test]
    fn follow_grows_up_to_the_cap_then_follows() {
        let home = unit();
        // Twice the span: grows to hold it.
        let near = WorldBox {
            x0: 0.0,
            x1: 2.0,
            y0: 0.0,
            y1: 1.0,
        };
        assert_eq!(follow(&home, &near, &near), home.union(&near));
        // A body 100 m away: the view keeps at most 3× home's size, centred on it.
        let far = WorldBox {
            x0: 99.5,
            x1: 100.5,
            y0: 0.0,
            y1: 1.0,
        };
        let shown = follow(&home, &home.union(&far), &far);
        assert!(
            (shown.span() - 1.0).abs() < 1e-12,
            "moving box is home-sized: no zoom-out"
        );
        assert!((shown.centre() - far.centre()).length() < 1e-12);
    }

    #[test]
    fn clipping_a_square_by_a_tilted_line_keeps_the_lower_part() {
        let square = [
            DVec2::new(0.0, 0.0),
            DVec2::new(2.0, 0.0),
            DVec2::new(2.0, 2.0),
            DVec2::new(0.0, 2.0),
        ];
        // Line y = x through the origin, below it kept: the triangle (0,0), (2,0), (2,2).
        let n = DVec2::new(-1.0, 1.0).normalize();
        let kept = clip_below(&square, DVec2::ZERO, n);
        let area: f64 = (0..kept.len())
            .map(|k| kept[k].perp_dot(kept[(k + 1) % kept.len()]))
            .sum::<f64>()
            / 2.0;
        assert!((area - 2.0).abs() < 1e-12, "area {area}");
        assert!(kept.iter().all(|p| n.dot(*p) <= 1e-12));
    }
}
