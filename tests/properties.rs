//! Property tests: random scenes within the documented ranges never panic, never produce a
//! non-finite state or output, and never report a pulling floor (N < 0) or friction outside
//! its cone. A step may be refused (a diverging explicit run, a contact problem without a
//! solution), but then with an error and the state kept.
#![cfg(not(target_arch = "wasm32"))]

use contactlab::Simulation;
use proptest::prelude::*;
use serde_json::{Value, json};

const STEPPERS: [&str; 5] = [
    "acceleration",
    "moreau-jean",
    "penalty-explicit",
    "penalty-implicit",
    "nsga",
];

/// A log-uniform number in [lo, hi].
fn log_uniform(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    (lo.ln()..hi.ln()).prop_map(f64::exp)
}

fn material() -> impl Strategy<Value = Value> {
    (
        0.0..2.0f64,
        0.0..1.0f64,
        log_uniform(1e3, 1e8),
        0.0..100.0f64,
        0.0..0.01f64,
        0.0..0.01f64,
    )
        .prop_map(|(mu, e, k, c, rho, gamma)| {
            json!({"friction": mu, "restitution": e, "stiffness": k, "damping": c,
                   "rolling_resistance": rho, "spinning_resistance": gamma})
        })
}

fn planar_body(index: usize) -> impl Strategy<Value = Value> {
    (
        prop::bool::ANY,
        log_uniform(1e-2, 1e2),
        log_uniform(0.02, 0.5),
        log_uniform(0.02, 0.5),
        -1.0..1.0f64,
        0.0..1.0f64,
        -3.0..3.0f64,
        (-5.0..5.0f64, -5.0..5.0f64, -10.0..10.0f64),
    )
        .prop_map(move |(is_box, mass, a, b, x, lift, angle, (vx, vy, w))| {
            let shape = if is_box {
                json!({"type": "box", "width": a, "height": b})
            } else {
                json!({"type": "disk", "radius": 0.5 * a})
            };
            // Lifted clear of the floor (y ≥ the bounding radius): no initial overlap with it.
            let reach = if is_box { 0.5 * a.hypot(b) } else { 0.5 * a };
            json!({"name": format!("b{index}"), "mass": mass, "position": [x, reach + lift],
                   "angle": angle, "velocity": [vx, vy], "angular_velocity": w, "shape": shape})
        })
}

fn planar_scene() -> impl Strategy<Value = Value> {
    (
        prop::collection::vec(0..1usize, 1..4),
        material(),
        0..STEPPERS.len(),
        log_uniform(1e-5, 5e-3),
    )
        .prop_flat_map(|(count, material, stepper, dt)| {
            let bodies: Vec<_> = (0..count.len()).map(planar_body).collect();
            (bodies, Just(material), Just(stepper), Just(dt))
        })
        .prop_map(|(mut bodies, material, stepper, dt)| {
            bodies.insert(
                0,
                json!({"name": "floor", "fixed": true, "shape": {"type": "half_plane"}}),
            );
            json!({"bodies": bodies, "material": material, "contact_margin": 0.05,
                   "stepper": {"kind": STEPPERS[stepper], "dt": dt}})
        })
}

fn spatial_scene() -> impl Strategy<Value = Value> {
    (
        prop::collection::vec(
            (
                log_uniform(1e-2, 1e2),
                log_uniform(0.01, 0.3),
                (-1.0..1.0f64, -1.0..1.0f64, 0.0..1.0f64),
                (-5.0..5.0f64, -5.0..5.0f64, -5.0..5.0f64),
                (-20.0..20.0f64, -20.0..20.0f64, -20.0..20.0f64),
            ),
            1..4,
        ),
        material(),
        prop::bool::ANY,
        log_uniform(1e-4, 5e-3),
    )
        .prop_map(|(spheres, material, nsga, dt)| {
            let mut bodies = vec![json!({"name": "floor", "fixed": true, "shape": {"type": "plane"}})];
            for (k, (m, r, (x, y, lift), v, w)) in spheres.into_iter().enumerate() {
                bodies.push(json!({"name": format!("s{k}"), "mass": m,
                    "position": [x, y, r + lift], "velocity": [v.0, v.1, v.2],
                    "angular_velocity": [w.0, w.1, w.2], "shape": {"type": "sphere", "radius": r}}));
            }
            json!({"spatial_bodies": bodies, "material": material, "contact_margin": 0.05,
                   "stepper": {"kind": if nsga { "nsga" } else { "moreau-jean" }, "dt": dt}})
        })
}

/// One to four spheres and cuboids in space over a floor, turned every way and thrown: the
/// pairs meet at faces, edges and corners (`geometry/cuboid_pair.rs`, `sphere_cuboid.rs`).
fn spatial_mixed_scene() -> impl Strategy<Value = Value> {
    (
        prop::collection::vec(
            (
                prop::bool::ANY,
                log_uniform(1e-2, 1e2),
                (
                    log_uniform(0.02, 0.3),
                    log_uniform(0.02, 0.3),
                    log_uniform(0.02, 0.3),
                ),
                (-0.5..0.5f64, -0.5..0.5f64, 0.0..1.0f64),
                (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64),
                (-5.0..5.0f64, -5.0..5.0f64, -5.0..5.0f64),
                (-20.0..20.0f64, -20.0..20.0f64, -20.0..20.0f64),
            ),
            1..5,
        ),
        material(),
        prop::bool::ANY,
        log_uniform(1e-4, 5e-3),
    )
        .prop_map(|(shapes, material, nsga, dt)| {
            let mut bodies =
                vec![json!({"name": "floor", "fixed": true, "shape": {"type": "plane"}})];
            for (k, (is_box, m, size, (x, y, lift), turn, v, w)) in shapes.into_iter().enumerate() {
                // A turn from four uniform numbers (the identity where they are all near 0).
                let (a, b, c, d) = turn;
                let norm = (a * a + b * b + c * c + d * d).sqrt();
                let orientation = if norm > 1e-3 {
                    [a / norm, b / norm, c / norm, d / norm]
                } else {
                    [1.0, 0.0, 0.0, 0.0]
                };
                let (shape, reach) = if is_box {
                    let half = 0.5 * (size.0 * size.0 + size.1 * size.1 + size.2 * size.2).sqrt();
                    (
                        json!({"type": "box", "size": [size.0, size.1, size.2]}),
                        half,
                    )
                } else {
                    (json!({"type": "sphere", "radius": size.0}), size.0)
                };
                bodies.push(json!({"name": format!("b{k}"), "mass": m,
                    "position": [x, y, reach + lift], "orientation": orientation,
                    "velocity": [v.0, v.1, v.2], "angular_velocity": [w.0, w.1, w.2],
                    "shape": shape}));
            }
            json!({"spatial_bodies": bodies, "material": material, "contact_margin": 0.05,
                   "stepper": {"kind": if nsga { "nsga" } else { "moreau-jean" }, "dt": dt}})
        })
}

/// Runs up to `steps` steps and checks every outcome; Err only as a value.
fn check_run(scene: &Value, steps: usize) -> Result<(), TestCaseError> {
    let mut sim = match Simulation::from_json(&scene.to_string()) {
        Ok(sim) => sim,
        // Spheres generated inside each other are refused as a scene error: fine.
        Err(e) => {
            if std::env::var("PROPERTIES_VERBOSE").is_ok() {
                eprintln!("refused: {e}");
            }
            prop_assert!(e.to_string().contains("inside"), "unexpected refusal: {e}");
            return Ok(());
        }
    };
    let mu = scene["material"]["friction"].as_f64().unwrap();
    for k in 0..steps {
        let before = (sim.system().q.clone(), sim.system().v.clone());
        match sim.step() {
            Ok(_) => {}
            Err(e) => {
                if std::env::var("PROPERTIES_VERBOSE").is_ok() {
                    eprintln!("step {k}: {e}\nSCENE {scene}");
                }
                prop_assert_eq!(
                    &sim.system().q,
                    &before.0,
                    "state kept after a refused step"
                );
                return Ok(());
            }
        }
        let s = sim.sample();
        prop_assert!(s.energy.is_finite(), "step {k}: energy {}", s.energy);
        prop_assert!(s.residual.is_finite());
        for b in &s.bodies {
            prop_assert!(b.q.iter().chain(&b.v).all(|x| x.is_finite()));
        }
        for c in &s.contacts {
            for x in [c.gap, c.gap_rate, c.normal, c.impulse, c.friction] {
                prop_assert!(x.is_finite(), "step {k}: contact {} has {x}", c.id);
            }
            prop_assert!(
                c.normal >= 0.0,
                "step {k}: N = {} < 0 at {}",
                c.normal,
                c.id
            );
            prop_assert!(c.impulse >= 0.0, "step {k}: impulse {} < 0", c.impulse);
            prop_assert!(
                c.friction.abs() <= mu * c.normal * (1.0 + 1e-9) + 1e-9,
                "step {k}: |F| = {} > μN = {}",
                c.friction.abs(),
                mu * c.normal
            );
        }
        let modes = sim.sample_with_modes().modes.unwrap();
        prop_assert!(modes.frequencies.iter().all(|w| w.is_finite()));
    }
    Ok(())
}

proptest! {
    // 128 cases a run; `PROPTEST_CASES=5000 make properties` for a longer search.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(128),
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_planar_scenes_stay_finite_and_inside_their_laws(scene in planar_scene()) {
        check_run(&scene, 300)?;
    }

    #[test]
    fn random_sphere_scenes_stay_finite_and_inside_their_laws(scene in spatial_scene()) {
        check_run(&scene, 300)?;
    }

    #[test]
    fn random_scenes_of_spheres_and_cuboids_stay_finite_and_inside_their_laws(
        scene in spatial_mixed_scene()
    ) {
        check_run(&scene, 300)?;
    }
}
