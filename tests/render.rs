//! The 2-D drawing checked against geometry and statics, natively: corners land where the
//! pose puts them, a resting box stands on the drawn floor, arrows add up to the weight, the
//! view never shrinks a body past the zoom cap, and the projections place spheres and boxes.
#![cfg(not(target_arch = "wasm32"))]

use contactlab::Simulation;
use contactlab::render::picture::palette;
use contactlab::render::{Mark, Picture, Renderer, Style};
use glam::DVec2;

const W: f64 = 800.0;
const H: f64 = 500.0;

fn sim(json: &str) -> Simulation {
    Simulation::from_json(json).unwrap()
}

/// A floor turned by `angle` and a 2 kg box of 0.4 × 0.2 m resting on it, turned with it.
fn box_on_floor(angle: f64) -> Simulation {
    let (s, c) = angle.sin_cos();
    sim(&format!(
        r#"{{"bodies": [
            {{"name": "floor", "fixed": true, "angle": {angle}, "shape": {{"type": "half_plane"}}}},
            {{"name": "box", "mass": 2, "position": [{x}, {y}], "angle": {angle},
              "shape": {{"type": "box", "width": 0.4, "height": 0.2}}}}],
          "material": {{"friction": 1.0}},
          "stepper": {{"kind": "acceleration", "dt": 0.001}}}}"#,
        x = -0.1 * s,
        y = 0.1 * c,
    ))
}

fn polygons<'a>(p: &'a Picture, fill: &str) -> Vec<&'a Vec<[f64; 2]>> {
    p.marks
        .iter()
        .filter_map(|m| match m {
            Mark::Path {
                points,
                closed: true,
                style,
            } if style.fill == Some(fill) => Some(points),
            _ => None,
        })
        .collect()
}

fn circles(p: &Picture, fill: &str) -> Vec<([f64; 2], f64)> {
    p.marks
        .iter()
        .filter_map(|m| match m {
            Mark::Circle {
                centre,
                radius,
                style,
            } if style.fill == Some(fill) => Some((*centre, *radius)),
            _ => None,
        })
        .collect()
}

/// Force arrows: (tail, tip) of each head-and-shaft pair (the head polygon's first vertex is
/// the tip; the shaft starts at the tail).
fn arrows(p: &Picture) -> Vec<([f64; 2], [f64; 2])> {
    let mut out = Vec::new();
    for pair in p.marks.windows(2) {
        if let (
            Mark::Path {
                points: shaft,
                closed: false,
                style: s,
            },
            Mark::Path {
                points: head,
                closed: true,
                style: h,
            },
        ) = (&pair[0], &pair[1])
            && s.stroke == Some(palette::FORCE)
            && h.fill == Some(palette::FORCE)
        {
            out.push((shaft[0], head[0]));
        }
    }
    out
}

fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

fn area(points: &[[f64; 2]]) -> f64 {
    let n = points.len();
    (0..n)
        .map(|k| {
            let (a, b) = (points[k], points[(k + 1) % n]);
            a[0] * b[1] - a[1] * b[0]
        })
        .sum::<f64>()
        .abs()
        / 2.0
}

#[test]
fn box_corners_are_drawn_where_the_pose_puts_them_and_rest_on_the_floor_line() {
    for angle in [0.0, 0.3] {
        let s = box_on_floor(angle);
        let mut r = Renderer::new(&s);
        let p = r.picture(&s, W, H, 1.0);
        let boxes = polygons(&p, palette::BODY);
        assert_eq!(boxes.len(), 1, "one moving box");
        let corners = boxes[0];
        assert_eq!(corners.len(), 4);
        // Back to the world: the corners are the pose applied to (±0.2, ±0.1).
        let pose = s.system().pose(1, &s.system().q);
        let world: Vec<DVec2> = corners.iter().map(|&c| r.to_world(c).unwrap()).collect();
        for (k, (sx, sy)) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .into_iter()
            .enumerate()
        {
            let expected = pose.transform(DVec2::new(0.2 * sx, 0.1 * sy));
            assert!(
                (world[k] - expected).length() < 1e-12,
                "corner {k} at {:?}, pose says {expected:?}",
                world[k]
            );
        }
        // Aspect ratio 1: the long side is twice the short one on screen too.
        let ratio = dist(corners[0], corners[1]) / dist(corners[1], corners[2]);
        assert!((ratio - 2.0).abs() < 1e-12, "ratio {ratio}");
        // The bottom corners lie on the floor: the floor's surface is n·(x − o) = 0.
        let n = DVec2::new(-angle.sin(), angle.cos());
        for &c in &world[..2] {
            assert!(
                n.dot(c).abs() < 1e-12,
                "bottom corner off the floor by {}",
                n.dot(c)
            );
        }
        // The ground polygon is the part of the canvas below the floor line.
        let ground = polygons(&p, palette::GROUND);
        assert_eq!(ground.len(), 1);
        for &g in ground[0] {
            assert!(n.dot(r.to_world(g).unwrap()) <= 1e-9);
        }
        if angle == 0.0 {
            let floor_y = p_y_of_floor(&r);
            let expected = W * (H - floor_y);
            assert!((area(ground[0]) - expected).abs() < 1e-6 * expected);
        }
    }
}

fn p_y_of_floor(r: &Renderer) -> f64 {
    // Pixel row of the world line y = 0, from two pixel ↔ world round trips.
    let a = r.to_world([0.0, 0.0]).unwrap().y;
    let b = r.to_world([0.0, 1.0]).unwrap().y;
    -a / (b - a)
}

#[test]
fn contact_arrows_add_up_to_the_weight_at_the_drawn_scale() {
    let mut s = box_on_floor(0.0);
    s.step().unwrap();
    let mut r = Renderer::new(&s);
    let p = r.picture(&s, W, H, 1.0);
    let drawn = arrows(&p);
    assert_eq!(drawn.len(), 2, "two loaded corners");
    let newtons_per_pixel = r.force_for_pixels(1.0).unwrap();
    let total: f64 = drawn
        .iter()
        .map(|&(a, b)| dist(a, b) * newtons_per_pixel)
        .sum();
    let weight = 2.0 * 9.81;
    assert!(
        (total - weight).abs() < 1e-9 * weight,
        "Σ arrows ≙ {total} N"
    );
    for (tail, tip) in drawn {
        assert!(tip[1] < tail[1], "the floor pushes up");
        assert!((tip[0] - tail[0]).abs() < 1e-9, "normal to a level floor");
    }
}

#[test]
fn a_resting_disk_s_weight_draws_as_a_quarter_of_the_first_view() {
    let mut s = sim(r#"{"bodies": [
            {"name": "floor", "fixed": true, "shape": {"type": "half_plane"}},
            {"name": "disk", "mass": 3, "position": [0, 0.1], "shape": {"type": "disk", "radius": 0.1}}],
          "stepper": {"kind": "acceleration", "dt": 0.001}}"#);
    s.step().unwrap();
    let mut r = Renderer::new(&s);
    let p = r.picture(&s, W, H, 1.0);
    let drawn = arrows(&p);
    assert_eq!(drawn.len(), 1);
    // The home view: the disk (0.2 m) padded by 0.35 × 0.2 m on the sides and above, a
    // quarter of that below the floor: 0.34 m high, 0.34 m wide; the canvas is wider than high.
    let view_height = 0.2 + 0.07 + 0.0175;
    let pixels_per_metre = H / view_height;
    let expected = 0.25 * view_height * pixels_per_metre;
    let (tail, tip) = drawn[0];
    assert!(
        (dist(tail, tip) - expected).abs() < 1e-9,
        "{} px",
        dist(tail, tip)
    );
    // The rim: radius 0.1 m at that scale.
    let disks = circles(&p, palette::BODY);
    assert_eq!(disks.len(), 1);
    assert!((disks[0].1 - 0.1 * pixels_per_metre).abs() < 1e-9);
}

#[test]
fn a_body_flying_away_keeps_at_least_a_third_of_its_size_and_stays_in_view() {
    let mut s = sim(r#"{"gravity": [0, 0], "bodies": [
            {"name": "floor", "fixed": true, "shape": {"type": "half_plane"}},
            {"name": "disk", "mass": 1, "position": [0, 0.5], "velocity": [20, 0], "shape": {"type": "disk", "radius": 0.1}}],
          "stepper": {"kind": "acceleration", "dt": 0.01}}"#);
    let mut r = Renderer::new(&s);
    let first = circles(&r.picture(&s, W, H, 1.0), palette::BODY)[0].1;
    s.run(500, 500).unwrap();
    let x = s.system().pose(1, &s.system().q).position.x;
    assert!((x - 100.0).abs() < 1e-6, "x = {x}");
    let (centre, radius) = circles(&r.picture(&s, W, H, 1.0), palette::BODY)[0];
    assert!(
        radius >= first / 3.0 - 1e-9,
        "{radius} px against {first} px at first"
    );
    assert!((0.0..=W).contains(&centre[0]) && (0.0..=H).contains(&centre[1]));
}

#[test]
fn pointer_maps_to_the_world_and_picks_the_body_under_it_with_a_drag_line() {
    let s = box_on_floor(0.0);
    let mut r = Renderer::new(&s);
    assert_eq!(
        r.to_world([0.0, 0.0]),
        None,
        "no view before the first drawing"
    );
    let p = r.picture(&s, W, H, 2.0);
    let centre = polygons(&p, palette::BODY)[0]
        .iter()
        .fold([0.0, 0.0], |acc, c| {
            [acc[0] + c[0] / 4.0, acc[1] + c[1] / 4.0]
        });
    let at = r.to_world(centre).unwrap();
    assert!((at - DVec2::new(0.0, 0.1)).length() < 1e-12);
    assert_eq!(r.hit(&s, at), Some(1));
    assert_eq!(r.hit(&s, DVec2::new(1.0, 0.1)), None, "far from the box");
    r.set_drag(Some((1, DVec2::new(0.5, 0.3))));
    let p = r.picture(&s, W, H, 2.0);
    let dashed: Vec<_> = p
        .marks
        .iter()
        .filter_map(|m| match m {
            Mark::Path { points, style, .. } if style.dash.is_some() => Some(points),
            _ => None,
        })
        .collect();
    assert_eq!(dashed.len(), 1);
    assert!(dist(dashed[0][0], centre) < 1e-9, "from the body's centre");
    let end = r.to_world(dashed[0][1]).unwrap();
    assert!(
        (end - DVec2::new(0.5, 0.3)).length() < 1e-12,
        "to the pointer"
    );
}

/// A sphere of radius 0.1 resting on a plane and a cube of edge 0.2 beside it, turned 0.4 rad
/// about z.
fn space_scene() -> Simulation {
    let (s, c) = (0.2f64.sin(), 0.2f64.cos());
    sim(&format!(
        r#"{{"spatial_bodies": [
            {{"name": "plane", "fixed": true, "shape": {{"type": "plane"}}}},
            {{"name": "ball", "mass": 2, "position": [0, 0, 0.1], "shape": {{"type": "sphere", "radius": 0.1}}}},
            {{"name": "cube", "mass": 1, "position": [0.5, 0.2, 0.1], "orientation": [{c}, 0, 0, {s}],
              "shape": {{"type": "box", "size": [0.2, 0.2, 0.2]}}}}],
          "stepper": {{"kind": "nsga", "dt": 0.001}}}}"#
    ))
}

#[test]
fn projections_place_spheres_and_cuboids_and_draw_the_sphere_s_support() {
    let mut s = space_scene();
    s.step().unwrap();
    let mut r = Renderer::new(&s);
    let p = r.picture(&s, W, H, 1.0);
    let spheres = circles(&p, palette::BODY);
    assert_eq!(
        spheres.len(),
        2,
        "the ball in the side view and in the top view"
    );
    let (side, top) = (spheres[0], spheres[1]);
    assert!(side.0[0] < 0.58 * W && top.0[0] > 0.58 * W);
    // Side view: the support arrow under the ball is its weight at the legend's scale, and
    // the ball's lowest pixel touches the arrow's tail (the contact point).
    let drawn = arrows(&p);
    let newtons_per_pixel = r.force_for_pixels(1.0).unwrap();
    let total: f64 = drawn
        .iter()
        .map(|&(a, b)| dist(a, b) * newtons_per_pixel)
        .sum();
    let weight = 3.0 * 9.81;
    assert!(
        (total - weight).abs() < 1e-6 * weight,
        "Σ arrows ≙ {total} N against {weight}"
    );
    let ball_tail = drawn
        .iter()
        .map(|&(a, _)| a)
        .min_by(|a, b| dist(*a, side.0).total_cmp(&dist(*b, side.0)))
        .unwrap();
    assert!(
        (ball_tail[1] - (side.0[1] + side.1)).abs() < 1e-3,
        "support at the ball's bottom"
    );
    // The cube turned 0.4 rad about z: from above, a square of edge 0.2 m turned 0.4 rad; from
    // the side, its outline is 0.2·(cos 0.4 + sin 0.4) wide and 0.2 high.
    let cubes = polygons(&p, palette::BODY);
    assert_eq!(cubes.len(), 2);
    let width = |poly: &Vec<[f64; 2]>| {
        let xs = poly.iter().map(|p| p[0]);
        xs.clone().fold(f64::MIN, f64::max) - xs.fold(f64::MAX, f64::min)
    };
    let height = |poly: &Vec<[f64; 2]>| {
        let ys = poly.iter().map(|p| p[1]);
        ys.clone().fold(f64::MIN, f64::max) - ys.fold(f64::MAX, f64::min)
    };
    let side_cube = cubes[0];
    let scale = side.1 / 0.1;
    let across = 0.2 * (0.4f64.cos() + 0.4f64.sin());
    assert!((width(side_cube) / scale - across).abs() < 1e-9);
    assert!((height(side_cube) / scale - 0.2).abs() < 1e-9);
    let top_cube = cubes[1];
    assert_eq!(top_cube.len(), 4, "a square from above");
    let top_scale = top.1 / 0.1;
    assert!((area(top_cube) / (top_scale * top_scale) - 0.04).abs() < 1e-9);
}

/// The points of the first open path whose style and points pass `wanted`.
fn open_path(p: &Picture, wanted: impl Fn(&Style, &[[f64; 2]]) -> bool) -> Option<&Vec<[f64; 2]>> {
    p.marks.iter().find_map(|m| match m {
        Mark::Path {
            points,
            closed: false,
            style,
        } if wanted(style, points) => Some(points),
        _ => None,
    })
}

#[test]
fn a_pendulum_s_pin_is_drawn_at_the_joint_on_the_rod_s_end() {
    let s = Simulation::from_preset("pendulum", &[("theta0".into(), 0.5)]).unwrap();
    let mut r = Renderer::new(&s);
    let p = r.picture(&s, W, H, 1.0);
    let pins = circles(&p, palette::PIN);
    assert_eq!(pins.len(), 1);
    // The pin is at the origin, the end of the rod: the rod's outline has two corners half
    // its thickness (0.02 m) from the pin.
    let at = r.to_world(pins[0].0).unwrap();
    assert!(at.length() < 1e-12, "pin at {at:?}");
    let rod = polygons(&p, palette::BODY)[0];
    let near: Vec<f64> = rod
        .iter()
        .map(|&c| r.to_world(c).unwrap().length())
        .filter(|d| *d < 0.1)
        .collect();
    assert_eq!(near.len(), 2);
    assert!(near.iter().all(|d| (d - 0.02).abs() < 1e-12), "{near:?}");
}

#[test]
fn a_distance_joint_is_drawn_as_a_link_between_its_two_pinned_points() {
    let s = sim(r#"{"bodies": [
            {"name": "pivot", "fixed": true, "shape": {"type": "disk", "radius": 0.01}},
            {"name": "bob", "mass": 1, "position": [0.3, -0.4], "shape": {"type": "disk", "radius": 0.05}}],
          "joints": [{"type": "distance", "bodies": ["bob", "pivot"], "anchor": [0.3, -0.4], "anchor_b": [0, 0]}],
          "stepper": {"kind": "nsga"}}"#);
    let mut r = Renderer::new(&s);
    let p = r.picture(&s, W, H, 1.0);
    let pins: Vec<DVec2> = circles(&p, palette::PIN)
        .iter()
        .map(|(c, _)| r.to_world(*c).unwrap())
        .collect();
    assert_eq!(pins.len(), 2);
    let link = open_path(&p, |style, _| {
        style.stroke == Some(palette::INK) && style.line_width == 2.0
    })
    .expect("the link is drawn");
    let ends = [r.to_world(link[0]).unwrap(), r.to_world(link[1]).unwrap()];
    // From the bob's centre to the pivot, 0.5 m long, pinned at both ends.
    assert!((ends[0] - DVec2::new(0.3, -0.4)).length() < 1e-12);
    assert!(ends[1].length() < 1e-12);
    assert!(pins.iter().any(|p| p.length() < 1e-12));
    assert!(
        pins.iter()
            .any(|p| (*p - DVec2::new(0.3, -0.4)).length() < 1e-12)
    );
}

#[test]
fn a_clamped_beam_is_drawn_as_a_band_of_its_height_with_its_clamp() {
    let s = Simulation::from_preset("cantilever", &[("n".into(), 4.0)]).unwrap();
    let mut r = Renderer::new(&s);
    let p = r.picture(&s, W, H, 1.0);
    let band = polygons(&p, palette::BODY)[0];
    let world: Vec<DVec2> = band.iter().map(|&c| r.to_world(c).unwrap()).collect();
    // Straight at the start: x from 0 to L = 1 m, y = ±h/2 = ±5 mm, or ±1.5 px where that
    // is wider (8 points per element).
    assert_eq!(world.len(), 2 * (4 * 8 + 1));
    let half = world[0].y.abs();
    assert!(half >= 0.005 - 1e-12);
    for w in &world {
        assert!((-1e-9..=1.0 + 1e-9).contains(&w.x), "{w:?}");
        assert!((w.y.abs() - half).abs() < 1e-9, "{w:?}");
    }
    // The clamp: a thick ink line across the beam at x = 0.
    let clamp = p.marks.iter().find_map(|m| match m {
        Mark::Path {
            points,
            closed: false,
            style,
        } if style.line_width == 4.0 => Some(points),
        _ => None,
    });
    let clamp = clamp.expect("a clamp is drawn");
    for &c in clamp {
        assert!(r.to_world(c).unwrap().x.abs() < 1e-9);
    }
}

#[test]
fn a_prismatic_joint_s_guide_is_drawn_along_its_axis_through_the_slider() {
    let s = Simulation::from_preset("slider-crank", &[]).unwrap();
    let mut r = Renderer::new(&s);
    let p = r.picture(&s, W, H, 1.0);
    let guide = open_path(&p, |style, points| {
        style.stroke == Some(palette::MUTED) && points.len() == 2
    })
    .expect("the guide is drawn");
    // Along the x axis (the guide's), through the slider's pin at y = 0, across the view.
    let ends = [r.to_world(guide[0]).unwrap(), r.to_world(guide[1]).unwrap()];
    assert!(ends.iter().all(|e| e.y.abs() < 1e-12), "{ends:?}");
    let [left, right] = [ends[0].x.min(ends[1].x), ends[0].x.max(ends[1].x)];
    let (a, b) = (r.to_world([0.0, 0.0]).unwrap(), r.to_world([W, H]).unwrap());
    assert!(left < a.x.min(b.x) && right > a.x.max(b.x), "{ends:?}");
}
