//! A scene in space on a 2-D canvas: a side view (x–z) beside a top view (x–y). Planes are cut
//! exactly to each panel; cuboids are drawn through the eight corners the detector tests (their
//! projected outline, then their edges); each sphere carries a marker along its body x-axis and
//! a cross along its body y-axis, so rolling shows in the side view and spinning about the
//! vertical in the top view. Contacts and their normal forces are drawn in the side view.

use glam::{DQuat, DVec2, DVec3};
use nalgebra::DVector;

use super::camera::{Viewport, WorldBox, clip_below};
use super::picture::{Picture, Px, Style, palette};
use crate::geometry::{CUBOID_EDGES, Shape, cuboid_corners};
use crate::integrators::{ContactReport, ContactState};
use crate::model::System;

/// An axis-aligned box in space, m.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpaceBox {
    /// Lower corner.
    pub min: DVec3,
    /// Upper corner.
    pub max: DVec3,
}

impl SpaceBox {
    /// The smallest box holding both.
    pub fn union(&self, other: &SpaceBox) -> SpaceBox {
        SpaceBox {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// The x–z rectangle (side view).
    fn side(&self) -> WorldBox {
        WorldBox {
            x0: self.min.x,
            x1: self.max.x,
            y0: self.min.z,
            y1: self.max.z,
        }
    }

    /// The x–y rectangle (top view).
    fn top(&self) -> WorldBox {
        WorldBox {
            x0: self.min.x,
            x1: self.max.x,
            y0: self.min.y,
            y1: self.max.y,
        }
    }
}

/// The box to frame: spheres and cuboids with a margin of 0.6 × their span around them, from
/// 0.2 × span below the floor (z = 0) to half a span above the highest body.
pub fn framed(system: &System, q: &DVector<f64>) -> SpaceBox {
    let mut min = DVec3::INFINITY;
    let mut max = DVec3::NEG_INFINITY;
    for b in &system.bodies {
        if let crate::model::BodyKind::SpatialBeam(beam) = &b.kind {
            let r = b.shape.smallest_extent() / 2.0;
            for p in beam.centreline(b.q_of(q), 1) {
                min = min.min(p - DVec3::splat(r));
                max = max.max(p + DVec3::splat(r));
            }
            continue;
        }
        if !matches!(b.shape, Shape::Sphere { .. } | Shape::Cuboid { .. }) {
            continue;
        }
        let (c, r) = (b.position3(q), b.shape.bounding_radius());
        min = min.min(c - DVec3::splat(r));
        max = max.max(c + DVec3::splat(r));
    }
    if !(min.is_finite() && max.is_finite()) {
        return SpaceBox {
            min: DVec3::new(-1.0, -1.0, -0.1),
            max: DVec3::new(1.0, 1.0, 1.0),
        };
    }
    let span = (max.x - min.x).max(max.y - min.y).max(max.z).max(0.2);
    let pad = 0.6 * span;
    SpaceBox {
        min: DVec3::new(min.x - pad, min.y - pad, -0.2 * span),
        max: DVec3::new(max.x + pad, max.y + pad, max.z + 0.5 * span),
    }
}

/// The two panels' pixel rectangles in a canvas of `width` × `height` px: side view on the left
/// 58 %, top view on the right, 12 css px apart.
pub fn panels(width: f64, height: f64, dpr: f64) -> ([f64; 4], [f64; 4]) {
    let gap = 12.0 * dpr;
    (
        [0.0, 0.0, 0.58 * width - 0.5 * gap, height],
        [
            0.58 * width + 0.5 * gap,
            0.0,
            0.42 * width - 0.5 * gap,
            height,
        ],
    )
}

/// Side (x–z) and top (x–y) coordinates of a point in space.
fn side(p: DVec3) -> DVec2 {
    DVec2::new(p.x, p.z)
}
fn top(p: DVec3) -> DVec2 {
    DVec2::new(p.x, p.y)
}

/// Convex hull of points (monotone chain), counter-clockwise in the plane of the coordinates.
pub fn hull(points: &[DVec2]) -> Vec<DVec2> {
    let mut p = points.to_vec();
    p.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    let chain = |list: &mut dyn Iterator<Item = DVec2>| {
        let mut out: Vec<DVec2> = Vec::new();
        for q in list {
            while out.len() >= 2 && {
                let (o, a) = (out[out.len() - 2], out[out.len() - 1]);
                (a - o).perp_dot(q - o) <= 0.0
            } {
                out.pop();
            }
            out.push(q);
        }
        out.pop();
        out
    };
    let mut lower = chain(&mut p.iter().copied());
    let upper = chain(&mut p.iter().rev().copied());
    lower.extend(upper);
    lower
}

/// What the projections draw besides the system.
pub struct ProjectionFrame<'a> {
    /// Positions.
    pub q: &'a DVector<f64>,
    /// The contacts of the last step.
    pub contacts: &'a [ContactReport],
    /// The box both panels show (x shared).
    pub world: SpaceBox,
    /// Force scale: N per metre of arrow (in the side view).
    pub newtons_per_metre: f64,
    /// Device pixel ratio.
    pub dpr: f64,
}

/// Draws both panels into `picture`; returns the side view's map (for the force legend), or
/// None when the canvas is too small to draw (before layout).
pub fn draw(picture: &mut Picture, system: &System, frame: &ProjectionFrame) -> Option<Viewport> {
    let px = frame.dpr;
    if picture.width < 60.0 * px || picture.height < 30.0 * px {
        return None;
    }
    let (side_rect, top_rect) = panels(picture.width, picture.height, px);
    let sv = Viewport::fit(&frame.world.side(), side_rect);
    let tv = Viewport::fit(&frame.world.top(), top_rect);
    let label = 22.0 * px;
    // Planes first, their solid side cut to each panel. Seen from above, a floor (normal
    // mostly vertical) is the top panel's background and a wall is cut like in the side view;
    // seen from the side, a wall facing the viewer (normal mostly along y) is left out.
    let planes: Vec<(DVec3, DVec3)> = system
        .bodies
        .iter()
        .filter(|b| matches!(b.shape, Shape::Plane))
        .map(|b| (b.position3(frame.q), b.orientation(frame.q) * DVec3::Z))
        .collect();
    if planes.iter().any(|(_, n)| n.z.abs() > 0.5) {
        let [l, t, w, h] = tv.rect;
        let below = t + label;
        picture.polygon(
            vec![[l, below], [l + w, below], [l + w, t + h], [l, t + h]],
            Style::fill(palette::FLOOR_TOP),
        );
    }
    for &(o, n) in &planes {
        let cuts = [
            (&sv, side(o), side(n), side(n).length() >= 0.5),
            (&tv, top(o), top(n), n.z.abs() <= 0.5),
        ];
        for (view, origin, normal, edge_on) in cuts {
            if !edge_on {
                continue;
            }
            let cut = clip_below(&view.world_corners(), origin, normal.normalize());
            if cut.len() >= 3 {
                picture.polygon(
                    cut.iter().map(|&p| view.px(p)).collect(),
                    Style::fill(palette::GROUND),
                );
            }
        }
    }
    picture.text(
        [side_rect[0] + 6.0 * px, 16.0 * px],
        "side view (x–z)",
        palette::MUTED,
        12.0 * px,
    );
    picture.text(
        [top_rect[0] + 6.0 * px, 16.0 * px],
        "top view (x–y)",
        palette::MUTED,
        12.0 * px,
    );
    let divider = top_rect[0] - 6.0 * px;
    picture.line(
        vec![[divider, 0.0], [divider, picture.height]],
        Style::stroke(palette::RULE, px),
    );
    for body in &system.bodies {
        let (p, r) = (body.position3(frame.q), body.orientation(frame.q));
        match &body.shape {
            Shape::Cuboid { half_extents } => {
                let corners = cuboid_corners(*half_extents).map(|c| p + r * c);
                for (view, project) in [(&sv, side as fn(DVec3) -> DVec2), (&tv, top)] {
                    cuboid(picture, view, &corners.map(project), px);
                }
            }
            Shape::Beam { .. } => {}
            Shape::SpatialBeam { half_thickness, .. } => {
                if let crate::model::BodyKind::SpatialBeam(beam) = &body.kind {
                    spatial_beam(
                        picture,
                        [&sv, &tv],
                        beam,
                        body.q_of(frame.q),
                        *half_thickness,
                        px,
                    );
                }
            }
            Shape::Sphere { radius } => {
                for (view, project) in [(&sv, side as fn(DVec3) -> DVec2), (&tv, top)] {
                    sphere(picture, view, p, r, *radius, project, px);
                }
            }
            Shape::Plane | Shape::HalfPlane | Shape::Box { .. } | Shape::Disk { .. } => {}
        }
    }
    for c in frame.contacts {
        if c.state == ContactState::Open {
            continue;
        }
        let at = DVec3::from_array(c.point);
        picture.circle(sv.px(side(at)), 3.5 * px, Style::fill(palette::FORCE));
        if c.normal > 0.0 {
            let d = DVec3::from_array(c.direction_on_moving_body(&system.bodies));
            let tip = at + d * (c.normal / frame.newtons_per_metre);
            picture.arrow(sv.px(side(at)), sv.px(side(tip)), px);
        }
    }
    Some(sv)
}

/// A beam in space in both views: its deformed centreline (the elements' Hermite curves) as a
/// band of the section's thickness (at least 3 px), a held end marked by a square (clamped) or
/// a ring (pinned).
fn spatial_beam(
    picture: &mut Picture,
    views: [&Viewport; 2],
    beam: &crate::model::SpatialBeam,
    q: &[f64],
    half_thickness: f64,
    px: f64,
) {
    let line = beam.centreline(q, 8);
    let frames = beam.node_frames(q);
    let ends = [
        (frames[0].0, beam.supports().0),
        (frames[frames.len() - 1].0, beam.supports().1),
    ];
    for (view, project) in views.into_iter().zip([side as fn(DVec3) -> DVec2, top]) {
        let width = (2.0 * half_thickness * view.scale).max(3.0 * px);
        let points: Vec<Px> = line.iter().map(|&p| view.px(project(p))).collect();
        picture.line(
            points.clone(),
            Style::stroke(palette::INK, width + 2.0 * px),
        );
        picture.line(points, Style::stroke(palette::BODY, width));
        for (at, support) in ends {
            let c = view.px(project(at));
            let r = 0.5 * width + 3.0 * px;
            match support {
                crate::model::Support::Clamped => picture.polygon(
                    vec![
                        [c[0] - r, c[1] - r],
                        [c[0] + r, c[1] - r],
                        [c[0] + r, c[1] + r],
                        [c[0] - r, c[1] + r],
                    ],
                    Style::fill(palette::FIXED),
                ),
                crate::model::Support::Pinned | crate::model::Support::Roller => picture.circle(
                    c,
                    r,
                    Style::filled_outline(palette::FIXED, palette::INK, px),
                ),
                crate::model::Support::Free => {}
            }
        }
    }
}

/// A cuboid from its eight projected corners: the filled outline, then its twelve edges.
fn cuboid(picture: &mut Picture, view: &Viewport, corners: &[DVec2; 8], px: f64) {
    let outline: Vec<Px> = hull(corners).iter().map(|&c| view.px(c)).collect();
    picture.polygon(
        outline,
        Style::filled_outline(palette::BODY, palette::INK, 1.5 * px),
    );
    picture.marks.push(super::picture::Mark::Segments {
        pairs: CUBOID_EDGES
            .iter()
            .map(|&(i, j)| (view.px(corners[i]), view.px(corners[j])))
            .collect(),
        style: Style::stroke(palette::MUTED, 0.75 * px),
    });
}

/// A sphere's outline with its body-x marker (centre to rim) and body-y cross (±0.6 r).
fn sphere(
    picture: &mut Picture,
    view: &Viewport,
    centre: DVec3,
    rotation: DQuat,
    radius: f64,
    project: fn(DVec3) -> DVec2,
    px: f64,
) {
    let c = project(centre);
    picture.circle(
        view.px(c),
        radius * view.scale,
        Style::filled_outline(palette::BODY, palette::INK, 1.5 * px),
    );
    let ex = project(rotation * DVec3::new(radius, 0.0, 0.0));
    let ey = project(rotation * DVec3::new(0.0, radius, 0.0));
    picture.line(
        vec![view.px(c), view.px(c + ex)],
        Style::stroke(palette::TOUCHING, 1.5 * px),
    );
    picture.line(
        vec![view.px(c - 0.6 * ey), view.px(c + 0.6 * ey)],
        Style::stroke(palette::CROSS, 1.5 * px),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hull_of_a_square_with_an_inner_point_is_the_square() {
        let pts = [
            DVec2::new(0.0, 0.0),
            DVec2::new(1.0, 0.0),
            DVec2::new(0.5, 0.5),
            DVec2::new(1.0, 1.0),
            DVec2::new(0.0, 1.0),
        ];
        let h = hull(&pts);
        assert_eq!(h.len(), 4);
        assert!(!h.contains(&DVec2::new(0.5, 0.5)));
        let area: f64 = (0..4).map(|k| h[k].perp_dot(h[(k + 1) % 4])).sum::<f64>() / 2.0;
        assert!((area - 1.0).abs() < 1e-12, "counter-clockwise, area {area}");
    }
}
