//! Bodies that friction holds at rest stay where they are under NSGA: the position level must not let them creep.
//!
//! The scene is a wedge: sphere A on the floor, sphere B on A and against a wall, the line
//! of their centres 30° from the vertical. B is in equilibrium with the wall pushing it off
//! (mg tan 30°) and A carrying it; A is held against that push by floor friction, which
//! needs F/N = mg tan 30° / 2mg = 0.29 ≤ μ = 1. So Coulomb's law allows the wedge to stick,
//! and the exact answer is that nothing moves.
//!
//! Under two levels the predictor lets every body fall by h²g/2 (4.9 µm at h = 1 ms) each
//! step and the position level puts it back. With friction counted from the predicted
//! positions alone, the wedge slid apart every step (A away from the wall, B down it:
//! 1.8 mm in 1 s); it must count the sag the predictor made.
//!
//! An island of more than 60 rows (a pile; here a row of seven wedges, 99 rows) is corrected
//! by the normal multipliers alone, which can put back only a displacement along the
//! normals: it slid apart by the sag's tangential part every step (2.2 mm in 1 s, with 436
//! of 1000 steps unconverged) until the position level also applied the friction, rolling
//! and spinning percussions of the last step. The same holds a row woken from sleep, and
//! makes a sliding row exact but for its first step.

use contactlab::Simulation;
use contactlab::integrators::StepSolver;
use contactlab::scene::Scene;

const R: f64 = 0.05;
const MASS: f64 = 0.5;

fn sphere(name: String, p: [f64; 3]) -> serde_json::Value {
    serde_json::json!({"name": name, "mass": MASS, "position": p,
        "shape": {"type": "sphere", "radius": R}})
}

/// `pairs` wedges in a touching row along y against the wall x = 0, under NSGA with the
/// given number of levels, with rolling and spinning resistance `resistance` (m).
fn wedges(pairs: usize, levels: u64, resistance: f64) -> Simulation {
    wedges_sleeping(pairs, levels, resistance, false)
}

/// [`wedges`], with sleeping on or off.
fn wedges_sleeping(pairs: usize, levels: u64, resistance: f64, sleep: bool) -> Simulation {
    let s = std::f64::consts::FRAC_1_SQRT_2;
    // Line of centres 30° from the vertical: A is r further from the wall than B.
    let offset = R;
    let rise = (4.0 * R * R - offset * offset).sqrt();
    let mut bodies = vec![
        serde_json::json!({"name": "floor", "fixed": true, "shape": {"type": "plane"}}),
        // A quarter turn about y: the half-space's free side faces +x.
        serde_json::json!({"name": "wall", "fixed": true, "position": [0.0, 0.0, 0.0],
            "orientation": [s, 0.0, s, 0.0], "shape": {"type": "plane"}}),
    ];
    for k in 0..pairs {
        let y = 2.0 * R * k as f64;
        bodies.push(sphere(format!("A{k}"), [R + offset, y, R]));
        // B a picometre above its seat: it lands on A without a measurable impact.
        bodies.push(sphere(format!("B{k}"), [R, y, R + rise + 1e-12]));
    }
    let scene = serde_json::json!({
        "spatial_bodies": bodies,
        "material": {"friction": 1.0, "rolling_resistance": resistance,
            "spinning_resistance": resistance},
        "stepper": {"kind": "nsga", "nsga_levels": levels, "sleep": sleep},
        "contact_margin": 1e-6
    });
    Simulation::from_scene(Scene::from_json(&scene.to_string()).unwrap()).unwrap()
}

/// Steps `sim` for one second and returns the largest distance any sphere's material point
/// moved (its centre's, or R times the angle it turned through, whichever is larger), the
/// largest speed of such a point at the end, the unconverged steps and the position
/// level's methods.
fn drift_over_one_second(mut sim: Simulation) -> (f64, f64, usize, Vec<StepSolver>) {
    let start = sim.system().q.clone();
    let mut unconverged = 0;
    let mut methods = Vec::new();
    let steps = (1.0 / sim.time_step()).round() as usize;
    for _ in 0..steps {
        let report = sim.step().unwrap();
        unconverged += usize::from(!report.converged);
        if !methods.contains(&report.solver) {
            methods.push(report.solver);
        }
    }
    let system = sim.system();
    let (mut moved, mut speed) = (0.0f64, 0.0f64);
    for body in system.bodies.iter().filter(|b| b.dofs() > 0) {
        let (q, q0, v) = (
            body.q_of(&system.q),
            body.q_of(&start),
            body.v_of(&system.v),
        );
        // A sphere's coordinates: its centre, then its orientation as a unit quaternion
        // (turned through 4 asin(|Δq|/2)); its velocities: the centre's, then ω.
        let norm = |x: &mut dyn Iterator<Item = f64>| x.map(|e| e * e).sum::<f64>().sqrt();
        let d = norm(&mut (0..3).map(|k| q[k] - q0[k]));
        let angle = 4.0 * (norm(&mut (3..7).map(|k| q[k] - q0[k])) / 2.0).asin();
        let (v, omega) = (
            norm(&mut (0..3).map(|k| v[k])),
            norm(&mut (3..6).map(|k| v[k])),
        );
        moved = moved.max(d).max(R * angle);
        speed = speed.max(v).max(R * omega);
    }
    (moved, speed, unconverged, methods)
}

/// The wedge under `levels`, for 1 s: every step converged, no centre moved by more than
/// 1e-9 m (creeping by a fraction of the 4.9 µm sag a step would move it by millimetres in
/// the 1000 steps), and at rest.
fn assert_the_wedge_holds(levels: u64) {
    let (moved, speed, unconverged, _) = drift_over_one_second(wedges(1, levels, 0.0));
    assert_eq!(unconverged, 0, "{levels} levels");
    assert!(moved <= 1e-9, "{levels} levels: moved {moved} m in 1 s");
    assert!(speed <= 1e-9, "{levels} levels: {speed} m/s after 1 s");
}

/// One wedge (nine rows) under two levels: the dense position level with friction.
#[test]
fn a_wedge_held_by_friction_stays_put_under_two_levels() {
    assert_the_wedge_holds(2);
}

/// One wedge under three levels: its contacts are persistent from the second step, and the
/// first must not let it slip either.
#[test]
fn a_wedge_held_by_friction_stays_put_under_three_levels() {
    assert_the_wedge_holds(3);
}

/// Seven wedges in a touching row: one island of 33 contacts, 99 rows, which the position
/// level corrects by the normal multipliers alone. Its first step has no friction forces to
/// apply yet (the spheres land), so it may slip by part of that step's sag; once settled
/// (0.1 s), nothing moves by more than 1e-9 m in the next second.
#[test]
fn a_row_of_wedges_in_one_large_island_stays_put_once_settled() {
    assert_the_settled_row_holds(0.0);
}

/// The same with rolling and spinning resistance (ρ = γ = 1 mm): the held spheres' rolling
/// and spinning percussions turn them too. (Applying the friction percussions alone, the
/// spheres turned by 0.25 mm at their surface in the second; applying none, they slid
/// 2.2 mm.)
#[test]
fn a_row_of_wedges_with_rolling_resistance_stays_put_once_settled() {
    assert_the_settled_row_holds(1e-3);
}

fn assert_the_settled_row_holds(resistance: f64) {
    let mut sim = wedges(7, 2, resistance);
    for _ in 0..100 {
        sim.step().unwrap();
    }
    let (moved, speed, unconverged, methods) = drift_over_one_second(sim);
    let summary = format!(
        "ρ = γ = {resistance} m: moved {moved} m in 1 s, {speed} m/s at the end, \
         {unconverged} steps unconverged, methods {methods:?}"
    );
    eprintln!("seven wedges: {summary}");
    assert!(
        methods.contains(&StepSolver::NormalOnlyCorrection),
        "the large island's position level: {summary}"
    );
    assert!(moved <= 1e-9, "{summary}");
    assert!(speed <= 1e-9, "{summary}");
    assert_eq!(unconverged, 0, "{summary}");
}

/// Sixteen disks in a touching row down a 30° incline, μ = 0.1 (below tan θ / 3, so each
/// slides while it spins up): one island of 31 contacts, 62 rows, corrected by the normal
/// multipliers alone. Each centre slides ½ g (sin θ − μ cos θ) t². The velocity level is
/// exact; the position level applies from the second step the displacement
/// (h²/2) μ g cos θ up the slope that the last step's friction percussion makes within a step,
/// exact under a constant force. The first step has no percussion yet: its disks slide
/// h²/2 μ g cos θ too far, once, and that is the whole error at t = 1 s. (Without the
/// friction displacement every step missed it: an error of t h/2 μ g cos θ, 1.77 mm.)
#[test]
fn a_row_of_disks_sliding_down_an_incline_in_one_large_island_errs_by_its_first_step_only() {
    let (theta, mu, r, g) = (30f64.to_radians(), 0.1, 0.05, 9.81);
    let h = 1.0 / 240.0;
    let (s, c) = theta.sin_cos();
    let mut bodies = vec![serde_json::json!({"name": "incline", "fixed": true,
        "angle": theta, "shape": {"type": "half_plane"}})];
    for k in 0..16 {
        // Centres r above the incline, 2r apart along it.
        let along = 2.0 * r * k as f64;
        bodies.push(serde_json::json!({"name": format!("disk {k}"), "mass": 0.5,
            "position": [along * c - r * s, along * s + r * c],
            "shape": {"type": "disk", "radius": r}}));
    }
    let scene = serde_json::json!({
        "bodies": bodies,
        "material": {"friction": mu},
        "stepper": {"kind": "nsga", "dt": h, "nsga_levels": 2},
        "contact_margin": 0.01
    });
    let mut sim = Simulation::from_scene(Scene::from_json(&scene.to_string()).unwrap()).unwrap();
    let start = sim.system().q.clone();
    let mut methods = Vec::new();
    for _ in 0..240 {
        let report = sim.step().unwrap();
        assert!(report.converged, "t = {}", sim.time());
        if !methods.contains(&report.solver) {
            methods.push(report.solver);
        }
    }
    assert!(
        methods.contains(&StepSolver::NormalOnlyCorrection),
        "the large island's position level: {methods:?}"
    );
    let t = sim.time();
    let exact = 0.5 * g * (s - mu * c) * t * t;
    let first_step = 0.5 * h * h * mu * g * c;
    let q = &sim.system().q;
    for k in 0..16 {
        // A disk's coordinates: x, y, angle.
        let (dx, dy) = (q[3 * k] - start[3 * k], q[3 * k + 1] - start[3 * k + 1]);
        let error = dx.hypot(dy) - exact;
        assert!(
            (error - first_step).abs() <= 1e-12,
            "disk {k}: error {error} m, the first step's {first_step} m"
        );
    }
}

/// The row of seven wedges with rolling and spinning resistance (ρ = γ = 1 mm) settles and
/// falls asleep; 0.1 s later a push of 1e-4 N on its last lower sphere, along the row,
/// wakes it all.
/// Friction and rolling resistance hold that push many times over (without rolling
/// resistance the pushed sphere would roll), so the exact answer is that nothing moves. The
/// woken island's contacts apply the percussions that held them when it fell asleep, and
/// the stepper restarts its accelerations (zeroed while asleep): only the push's own sag in
/// its first step, h²/2 F/m = 1e-10 m, is left to slip. (Forgetting those percussions, the
/// row slid by 2.1 µm; keeping them but not restarting the accelerations, by 13 nm.)
#[test]
fn a_row_of_wedges_woken_by_a_small_push_stays_put() {
    let mut sim = wedges_sleeping(7, 2, 1e-3, true);
    let mut steps = 0;
    while sim.sleeping_bodies() < 14 {
        sim.step().unwrap();
        steps += 1;
        assert!(steps <= 2000, "the row never fell asleep");
    }
    // Asleep for 0.1 s: not stepped, not solved.
    for _ in 0..100 {
        sim.step().unwrap();
    }
    assert_eq!(sim.sleeping_bodies(), 14);
    sim.set_push3("A6", [0.0, 1e-4, 0.0]).unwrap();
    assert_eq!(sim.sleeping_bodies(), 0, "the push wakes the row");
    let (moved, speed, unconverged, _) = drift_over_one_second(sim);
    let summary = format!("moved {moved} m in 1 s, {speed} m/s, {unconverged} unconverged");
    eprintln!("woken wedges: {summary}");
    assert!(moved <= 1e-9, "{summary}");
    assert!(speed <= 1e-9, "{summary}");
    assert_eq!(unconverged, 0, "{summary}");
}
