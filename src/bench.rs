//! `contactlab bench`: step cost per preset, and Lemke against PGS on contact LCPs of growing size.
//!
//! Figures are wall-clock on a shared machine: compare the ratios printed in one run, not
//! absolute numbers across runs.

use std::time::{Duration, Instant};

use contactlab::lcp::{Lcp, PgsOptions, solve_lemke, solve_pgs};
use contactlab::scene::Scene;
use contactlab::{Simulation, presets};

/// Runs `f` repeatedly for at least `budget`; returns the mean seconds per call.
fn time_per_call(budget: Duration, mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    let mut calls = 0u64;
    while calls == 0 || start.elapsed() < budget {
        f();
        calls += 1;
    }
    start.elapsed().as_secs_f64() / calls as f64
}

/// A row of `disks` touching disks on the floor, pushed from the left: 2·disks − 1 coupled contacts.
fn disk_row_lcp(disks: usize) -> Lcp {
    let r = 0.05;
    let mut bodies =
        vec![serde_json::json!({"name": "floor", "fixed": true, "shape": {"type": "half_plane"}})];
    for i in 0..disks {
        bodies.push(serde_json::json!({
            "name": format!("d{i}"), "mass": 1.0 + (i % 3) as f64,
            "position": [2.0 * r * i as f64, r], "shape": {"type": "disk", "radius": r}
        }));
    }
    let scene = serde_json::json!({
        "bodies": bodies,
        "forces": [{"type": "constant", "body": "d0", "force": [50.0, 0.0]}],
        "contact_margin": 1e-6
    });
    let scene = Scene::from_json(&scene.to_string()).expect("bench scene is valid");
    Simulation::from_scene(scene)
        .and_then(|s| s.acceleration_lcp())
        .expect("bench LCP builds")
}

/// Mean cost of one step of each preset with its default stepper and time step.
pub fn preset_step_costs(budget: Duration) -> Vec<(&'static str, &'static str, f64, f64)> {
    presets::all()
        .iter()
        .filter_map(|preset| {
            let mut sim = Simulation::from_preset(preset.name, &[]).ok()?;
            let per_step = time_per_call(budget, || {
                if sim.step().is_err() || sim.time() > sim.scene().duration {
                    let _ = sim.reset();
                }
            });
            Some((preset.name, sim.stepper_name(), sim.time_step(), per_step))
        })
        .collect()
}

/// `{"preset": steps per second, …}` for the browser benchmark's native column.
pub fn run_json(quick: bool) -> String {
    let budget = Duration::from_millis(if quick { 50 } else { 400 });
    let map: serde_json::Map<String, serde_json::Value> = preset_step_costs(budget)
        .into_iter()
        .map(|(name, _, _, per_step)| (name.to_string(), (1.0 / per_step).into()))
        .collect();
    format!("{}\n", serde_json::Value::Object(map))
}

/// `count` spheres sliding on a plane in a grid (one sphere–plane contact each), or
/// hovering `lift` m above it (no contact).
fn sphere_grid(count: usize, stepper: &str) -> Simulation {
    sphere_grid_at(count, stepper, 0.0)
}

fn sphere_grid_at(count: usize, stepper: &str, lift: f64) -> Simulation {
    let mut bodies =
        vec![serde_json::json!({"name": "plane", "fixed": true, "shape": {"type": "plane"}})];
    let side = (count as f64).sqrt().ceil() as usize;
    for i in 0..count {
        let (x, y) = ((i % side) as f64 * 0.5, (i / side) as f64 * 0.5);
        bodies.push(serde_json::json!({
            "name": format!("s{i}"), "mass": 1.0, "position": [x, y, 0.1 + lift],
            "velocity": [1.0 + 0.01 * i as f64, 0.5, 0.0], "angular_velocity": [0.0, 0.0, 5.0],
            "shape": {"type": "sphere", "radius": 0.1}
        }));
    }
    let scene = serde_json::json!({
        "spatial_bodies": bodies,
        "material": {"friction": 0.3, "rolling_resistance": 0.001, "spinning_resistance": 0.001},
        "stepper": {"kind": stepper, "dt": 1e-3},
        "contact_margin": 0.01
    });
    Simulation::from_json(&scene.to_string()).expect("bench sphere scene is valid")
}

/// The benchmark report as text (Markdown tables).
pub fn run(quick: bool) -> String {
    let budget = Duration::from_millis(if quick { 50 } else { 400 });
    let mut out = String::from("## Step cost per preset (default stepper and time step)\n\n");
    out.push_str("| preset | stepper | h [s] | µs/step | steps/s |\n|---|---|---|---|---|\n");
    for (name, stepper, h, per_step) in preset_step_costs(budget) {
        out.push_str(&format!(
            "| {name} | {stepper} | {h} | {:.2} | {:.0} |\n",
            per_step * 1e6,
            1.0 / per_step
        ));
    }
    out.push_str("\n## Lemke against PGS on a row of touching disks\n\n");
    out.push_str("| contacts | Lemke µs | Lemke pivots | PGS µs | PGS sweeps | PGS status | PGS/Lemke time |\n|---|---|---|---|---|---|---|\n");
    let pgs = PgsOptions {
        max_iterations: 100_000,
        tolerance: 1e-10,
    };
    for disks in [5, 50] {
        let lcp = disk_row_lcp(disks);
        let lemke = solve_lemke(&lcp);
        let iterative = solve_pgs(&lcp, &pgs);
        let t_lemke = time_per_call(budget, || {
            std::hint::black_box(solve_lemke(&lcp));
        });
        let t_pgs = time_per_call(budget, || {
            std::hint::black_box(solve_pgs(&lcp, &pgs));
        });
        out.push_str(&format!(
            "| {} | {:.1} | {} | {:.1} | {} | {:?} | {:.2} |\n",
            lcp.len(),
            t_lemke * 1e6,
            lemke.iterations,
            t_pgs * 1e6,
            iterative.iterations,
            iterative.status,
            t_pgs / t_lemke
        ));
    }
    out.push_str("\n## NSGA-GGL against Moreau–Jean, spheres sliding on a plane\n\n");
    out.push_str(
        "| spheres | NSGA µs/step | Moreau–Jean µs/step | NSGA / MJ |\n|---|---|---|---|\n",
    );
    for count in [1, 10, 100] {
        let mut cost = [0.0; 2];
        for (k, stepper) in ["nsga", "moreau-jean"].iter().enumerate() {
            let mut sim = sphere_grid(count, stepper);
            cost[k] = time_per_call(budget, || {
                if sim.step().is_err() || sim.time() > 1.0 {
                    let _ = sim.reset();
                }
            });
        }
        out.push_str(&format!(
            "| {count} | {:.1} | {:.1} | {:.2} |\n",
            cost[0] * 1e6,
            cost[1] * 1e6,
            cost[0] / cost[1]
        ));
    }
    out.push_str(&beam_costs(budget));
    out.push_str(&scaling(budget, if quick { 1000 } else { 10_000 }));
    out
}

/// One step of a beam preset against its element count: the ball on the bridge (implicit
/// penalty: band solve plus the contact's low-rank update) and the rod's impact (NSGA).
fn beam_costs(budget: Duration) -> String {
    let mut out = String::from(
        "\n## A flexible beam's step against its element count\n\n| elements | sphere-on-bridge (penalty-implicit, 1 ms) µs/step | elastic-rod-impact (nsga) µs/step |\n|---|---|---|\n",
    );
    for elements in [10.0, 100.0] {
        let cost = ["sphere-on-bridge", "elastic-rod-impact"].map(|name| {
            let overrides = [("n".to_string(), elements)];
            let Ok(mut sim) = Simulation::from_preset(name, &overrides) else {
                return f64::NAN;
            };
            time_per_call(budget, || {
                if sim.step().is_err() || sim.time() > sim.scene().duration {
                    let _ = sim.reset();
                }
            })
        });
        out.push_str(&format!(
            "| {elements} | {:.1} | {:.1} |\n",
            cost[0] * 1e6,
            cost[1] * 1e6
        ));
    }
    out
}

/// One step's cost against the number of bodies: N spheres each in its own contact (sliding
/// on the plane, every stepper), and N spheres in the air (no contact: the broad phase alone).
fn scaling(budget: Duration, largest: usize) -> String {
    let mut out = String::from(
        "\n## Cost against the number of bodies (each sphere in its own contact)\n\n| spheres | stepper | µs/step | µs per sphere |\n|---|---|---|---|\n",
    );
    let mut count = 10;
    while count <= largest {
        for (stepper, lift) in [
            ("nsga", 0.0),
            ("moreau-jean", 0.0),
            ("acceleration", 0.0),
            ("penalty-explicit", 0.0),
            ("nsga", 1.0),
        ] {
            let mut sim = sphere_grid_at(count, stepper, lift);
            let per_step = time_per_call(budget, || {
                if sim.step().is_err() || sim.time() > 0.2 {
                    let _ = sim.reset();
                }
            });
            let label = if lift > 0.0 {
                format!("{stepper} (in the air)")
            } else {
                stepper.to_string()
            };
            out.push_str(&format!(
                "| {count} | {label} | {:.1} | {:.3} |\n",
                per_step * 1e6,
                per_step * 1e6 / count as f64
            ));
        }
        count *= 10;
    }
    out
}
