//! A planar scene drawn from the solver's own geometry: half-planes cut exactly to the view,
//! box outlines through the corners the detector tests, feet, disk rims with a spoke that shows
//! rotation, joint pins, contact points coloured by state and normal-force arrows to scale.

use glam::DVec2;

use super::camera::{Viewport, WorldBox, clip_below};
use super::picture::{Picture, Style, palette};
use crate::geometry::{Shape, box_corners};
use crate::integrators::{ContactReport, ContactState};
use crate::model::System;

/// The box around the bodies' bounding disks at positions `q` (moving bodies only when
/// `moving_only`; half-planes never), or None when there is none.
pub fn extent(system: &System, q: &nalgebra::DVector<f64>, moving_only: bool) -> Option<WorldBox> {
    WorldBox::around(
        system
            .bodies
            .iter()
            .enumerate()
            .filter(|(_, b)| {
                let ground = matches!(b.shape, Shape::HalfPlane);
                let skipped = moving_only && b.is_fixed();
                !ground && !skipped
            })
            .map(|(i, b)| (system.pose(i, q).position, b.shape.bounding_radius())),
    )
}

/// The view to frame: the bodies with a margin of 0.35 × their span, the ground line (y = 0)
/// included unless `moving_only`.
pub fn framed(system: &System, q: &nalgebra::DVector<f64>, moving_only: bool) -> WorldBox {
    let Some(mut b) = extent(system, q, moving_only) else {
        return WorldBox::DEFAULT;
    };
    if !moving_only {
        b.y0 = b.y0.min(0.0);
    }
    b.padded(0.35)
}

/// Everything the planar drawing needs besides the system.
pub struct PlanarFrame<'a> {
    /// Positions.
    pub q: &'a nalgebra::DVector<f64>,
    /// The contacts of the last step.
    pub contacts: &'a [ContactReport],
    /// World → pixels.
    pub view: Viewport,
    /// Force scale: N per metre of arrow.
    pub newtons_per_metre: f64,
    /// Device pixel ratio (line widths and marker sizes scale with it).
    pub dpr: f64,
    /// A dragged body and the pointer's world point.
    pub drag: Option<(usize, DVec2)>,
}

/// Draws the planar scene into `picture`.
pub fn draw(picture: &mut Picture, system: &System, frame: &PlanarFrame) {
    let view = &frame.view;
    let px = frame.dpr;
    for (i, body) in system.bodies.iter().enumerate() {
        let pose = system.pose(i, frame.q);
        let fill = if body.is_fixed() {
            palette::FIXED
        } else {
            palette::BODY
        };
        let outline = Style::filled_outline(fill, palette::INK, 1.5 * px);
        match &body.shape {
            Shape::HalfPlane => {
                // The solid y ≤ 0 of the body frame: the view's rectangle cut by its surface.
                let n = pose.rotate(DVec2::Y);
                let ground = clip_below(&view.world_corners(), pose.position, n);
                if ground.len() >= 3 {
                    picture.polygon(
                        ground.iter().map(|&p| view.px(p)).collect(),
                        Style::fill(palette::GROUND),
                    );
                }
                let t = DVec2::new(n.y, -n.x);
                let reach = 2.0 * view.rect[2].hypot(view.rect[3]) / view.scale;
                let centre = pose.position + t * t.dot(view.centre - pose.position);
                picture.line(
                    vec![view.px(centre - reach * t), view.px(centre + reach * t)],
                    Style::stroke(palette::GROUND_LINE, 1.5 * px),
                );
            }
            Shape::Box { half_extents } => {
                let corners = box_corners(*half_extents).map(|c| view.px(pose.transform(c)));
                picture.polygon(corners.to_vec(), outline);
            }
            Shape::Disk { radius } => {
                let centre = view.px(pose.position);
                picture.circle(centre, radius * view.scale, outline);
                let rim = view.px(pose.transform(DVec2::new(*radius, 0.0)));
                picture.line(vec![centre, rim], Style::stroke(palette::INK, 1.5 * px));
            }
            // A beam in space is drawn by the projections.
            Shape::SpatialBeam { .. } => {}
            Shape::Beam { half_thickness, .. } => {
                if let crate::model::BodyKind::Beam(beam) = &body.kind {
                    // The deformed centreline from the elements' Hermite shape functions,
                    // widened to the section's height (at least 3 px so a thin rod shows).
                    let half = half_thickness.max(1.5 * px / view.scale);
                    let line = beam.centreline(body.q_of(frame.q), 8);
                    let mut outline_px: Vec<[f64; 2]> =
                        line.iter().map(|(p, n)| view.px(*p + *n * half)).collect();
                    outline_px.extend(line.iter().rev().map(|(p, n)| view.px(*p - *n * half)));
                    picture.polygon(outline_px, outline);
                    let (first, last) = (line[0], line[line.len() - 1]);
                    for (support, (at, normal)) in
                        [(beam.supports().0, first), (beam.supports().1, last)]
                    {
                        draw_support(picture, view, support, at, normal, px);
                    }
                }
            }
            Shape::Plane | Shape::Sphere { .. } | Shape::Cuboid { .. } => {}
        }
        // Feet: the body-fixed points that carry its contacts.
        for foot in &body.contact_points {
            let [x, y] = view.px(pose.transform(foot.truncate()));
            let s = 2.0 * px;
            picture.polygon(
                vec![
                    [x - s, y - s],
                    [x + s, y - s],
                    [x + s, y + s],
                    [x - s, y + s],
                ],
                Style::fill(palette::INK),
            );
        }
    }
    // Joints: a pin at each joint's point on A (B's coincides to rounding); a distance
    // joint's massless link as a line to its point on B, pinned there too; a prismatic
    // joint's guide as a thin line along its axis through B's point, across the view.
    let across = 2.0 * (view.rect[2] + view.rect[3]) / view.scale;
    for joint in &system.joints {
        let ((at, _), (other, frame_b)) = joint.points(&system.bodies, frame.q);
        let pin = Style::filled_outline(palette::PIN, palette::INK, 1.5 * px);
        if let crate::model::JointKind::Prismatic { axis } = joint.kind {
            let along = frame_b.rotate(axis) * across;
            picture.line(
                vec![view.px(other - along), view.px(other + along)],
                Style::stroke(palette::MUTED, px),
            );
        }
        if matches!(joint.kind, crate::model::JointKind::Distance { .. }) {
            picture.line(
                vec![view.px(at), view.px(other)],
                Style::stroke(palette::INK, 2.0 * px),
            );
            picture.circle(view.px(other), 4.0 * px, pin);
        }
        picture.circle(view.px(at), 4.0 * px, pin);
    }
    let near = 0.02 * view.rect[3] / view.scale;
    for c in frame.contacts {
        if c.state == ContactState::Open && c.gap > near {
            continue;
        }
        let colour = match c.state {
            ContactState::Loaded | ContactState::Impact => palette::FORCE,
            ContactState::Touching => palette::TOUCHING,
            ContactState::Open => palette::OPEN,
        };
        let at = DVec2::new(c.point[0], c.point[1]);
        picture.circle(view.px(at), 3.5 * px, Style::fill(colour));
        if c.normal > 0.0 {
            let d = c.direction_on_moving_body(&system.bodies);
            let tip = at + DVec2::new(d[0], d[1]) * (c.normal / frame.newtons_per_metre);
            picture.arrow(view.px(at), view.px(tip), px);
        }
    }
    if let Some((index, target)) = frame.drag {
        let from = view.px(system.pose(index, frame.q).position);
        let to = view.px(target);
        let mut dashed = Style::stroke(palette::DRAG, 1.5 * px);
        dashed.dash = Some([5.0 * px, 4.0 * px]);
        picture.line(vec![from, to], dashed);
        picture.circle(to, 5.0 * px, Style::stroke(palette::DRAG, 1.5 * px));
    }
}

/// The moving body whose bounding disk, enlarged by a fifth, holds the world point `p` (the
/// last in scene order, which is drawn on top), if any.
pub fn hit(system: &System, q: &nalgebra::DVector<f64>, p: DVec2) -> Option<usize> {
    (0..system.bodies.len()).rev().find(|&i| {
        let b = &system.bodies[i];
        !b.is_fixed()
            && (p - system.pose(i, q).position).length() <= 1.2 * b.shape.bounding_radius()
    })
}

/// A beam end's support: a clamp as a wall across the end, a pin as a triangle under it, a
/// roller as a triangle on a line (nothing for a free end). `normal` is the section's.
fn draw_support(
    picture: &mut Picture,
    view: &super::camera::Viewport,
    support: crate::model::Support,
    at: DVec2,
    normal: DVec2,
    px: f64,
) {
    use crate::model::Support;
    let size = 10.0 * px / view.scale;
    let ink = Style::stroke(palette::INK, 2.0 * px);
    match support {
        Support::Free => {}
        Support::Clamped => {
            picture.line(
                vec![view.px(at - normal * size), view.px(at + normal * size)],
                Style::stroke(palette::INK, 4.0 * px),
            );
        }
        Support::Pinned | Support::Roller => {
            let down = DVec2::new(0.0, -size);
            let side = DVec2::new(0.6 * size, 0.0);
            picture.polygon(
                vec![
                    view.px(at),
                    view.px(at + down - side),
                    view.px(at + down + side),
                ],
                Style::filled_outline(palette::PIN, palette::INK, 1.5 * px),
            );
            if support == Support::Roller {
                let base = at + down * 1.3;
                picture.line(
                    vec![view.px(base - side * 1.5), view.px(base + side * 1.5)],
                    ink,
                );
            }
        }
    }
}
