//! Joints (seed 002's mechanisms): the pendulum on a revolute joint under NSGA-GGL holds its
//! pin exactly at position and velocity level, swings with the elliptic-integral period
//! (converging at first order in h in the two-level scheme), and pulls on its pin with the force of rigid-body
//! dynamics; bad joint input is refused by field.
#![cfg(not(target_arch = "wasm32"))]

use contactlab::Simulation;

mod common;
use contactlab::theory::{elliptic_k, theory};

fn pendulum(theta0: f64, h: f64) -> Simulation {
    let mut sim = Simulation::from_preset("pendulum", &[("theta0".into(), theta0)]).unwrap();
    sim.set_time_step(h).unwrap();
    sim
}

/// The pendulum's ω₀ for L = 1 m, m = 1 kg and a rod 0.04 m thick.
fn omega0() -> f64 {
    let inertia: f64 = (1.0 + 0.04 * 0.04) / 12.0 + 0.25;
    (9.81 * 0.5 / inertia).sqrt()
}

#[test]
fn the_complete_elliptic_integral_matches_known_values() {
    assert!((elliptic_k(0.0) - std::f64::consts::FRAC_PI_2).abs() < 1e-15);
    // K(1/√2) = Γ(1/4)² / (4√π) = 1.8540746773013719.
    assert!((elliptic_k(std::f64::consts::FRAC_1_SQRT_2) - 1.854_074_677_301_372).abs() < 1e-14);
    // K(0.9) = 2.2805491384227703 (Abramowitz & Stegun, k² = 0.81).
    assert!((elliptic_k(0.9) - 2.280_549_138_422_770_3).abs() < 1e-13);
}

#[test]
fn nsga_holds_the_pin_exactly_at_position_and_velocity_level_every_step() {
    let mut sim = pendulum(1.5, 1e-3);
    for _ in 0..3000 {
        sim.step().unwrap();
        let report = sim.last_report();
        assert!(report.converged, "t = {}", sim.time());
        let joint = &report.joints[0];
        for (g, rate) in joint.constraint.iter().zip(&joint.rate) {
            assert!(g.abs() <= 1e-10, "t = {}: g = {g}", sim.time());
            assert!(rate.abs() <= 1e-10, "t = {}: ġ = {rate}", sim.time());
        }
        // The pivot disk overlaps the rod at the pin: jointed bodies are not in contact.
        assert!(report.contacts.is_empty());
    }
}

/// The measured period (the second turning point) at step h, and the closed form.
fn period(theta0: f64, h: f64) -> (f64, f64) {
    let mut sim = pendulum(theta0, h);
    while sim.events().turns.len() < 2 {
        sim.step().unwrap();
        assert!(sim.time() < 10.0, "no period within 10 s");
    }
    let exact = 4.0 * elliptic_k((0.5 * theta0).sin()) / omega0();
    (sim.events().turns[1], exact)
}

/// The period converges at second order in h: NSGA's predictor carries the pin's smooth
/// reaction (g̈ = 0 within the generalized-α step), so its corrections are only the residue of
/// a second-order step. Within 1e-4 at h = 1 ms (issue 13).
#[test]
fn the_period_is_the_elliptic_integral_s_converging_at_second_order() {
    for theta0 in [0.3, 1.5] {
        let measured: Vec<f64> = [4e-3, 2e-3, 1e-3]
            .iter()
            .map(|&h| period(theta0, h).0)
            .collect();
        let exact = period(theta0, 1e-3).1;
        let errors: Vec<f64> = measured.iter().map(|t| (t - exact).abs() / exact).collect();
        let small = 2.0 * std::f64::consts::PI / omega0();
        println!(
            "θ₀ = {theta0}: T = {exact:.6} s (small-angle {small:.6}); relative errors {errors:?}"
        );
        // Halving h quarters the error.
        for pair in errors.windows(2) {
            let ratio = pair[0] / pair[1];
            assert!(
                ratio > 3.5 && ratio < 4.5,
                "θ₀ = {theta0}: ratio {ratio} in {errors:?}"
            );
        }
        assert!(errors[2] < 1e-4, "θ₀ = {theta0}: {errors:?} at h = 1 ms");
        // Extrapolated to h → 0 (Richardson on e = b h², from h/2 and h/4) the period is
        // the elliptic one.
        let extrapolated = (4.0 * measured[2] - measured[1]) / 3.0;
        println!("θ₀ = {theta0}: extrapolated {extrapolated:.9} against {exact:.9}");
        assert!(
            (extrapolated - exact).abs() < 2e-7 * exact,
            "θ₀ = {theta0}: extrapolated {extrapolated} against {exact}"
        );
        // At large amplitude the small-angle period is wrong by far more than the error.
        if theta0 > 1.0 {
            assert!((small - exact).abs() / exact > 10.0 * errors[2]);
        }
    }
}

#[test]
fn the_theory_panel_shows_the_period_and_the_held_joint() {
    // At the preset's own step.
    let mut sim = Simulation::from_preset("pendulum", &[]).unwrap();
    sim.run(10_000, 10_000).unwrap();
    let lines = theory(&sim);
    let find = |label: &str| lines.iter().find(|l| l.label.starts_with(label)).unwrap();
    let p = find("period T");
    // Second order in h (above): within 1e-6 at the preset's h = 1 ms.
    assert!(
        (p.simulated - p.predicted).abs() < 1e-5 * p.predicted,
        "{p:?}"
    );
    assert!(find("small-angle guess").wrong);
    assert!(find("joint held: max |g|").simulated <= 1e-10);
    assert!(find("joint held: max |ġ|").simulated <= 1e-10);
}

#[test]
fn at_release_the_pin_pulls_with_the_force_of_rigid_body_dynamics() {
    // Released at rest: no centripetal term, θ̈ = −ω₀² sin θ₀. On the rod the pin pushes
    // m g cos θ₀ along the rod towards the pin, and across it m (g sin θ₀ − (L/2) ω₀² sin θ₀)
    // against the fall's direction. In world axes with the rod along d = (sin θ₀, −cos θ₀).
    let theta0 = 1.0f64;
    let mut sim = pendulum(theta0, 1e-4);
    sim.step().unwrap();
    let r = sim.last_report().joints[0].reaction;
    let (s, c) = theta0.sin_cos();
    let (d, across) = ([s, -c], [c, s]);
    let along = -9.81 * c; // towards the pin: −d
    let normal = 9.81 * s - 0.5 * omega0() * omega0() * s;
    let expected = [
        along * d[0] + normal * across[0],
        along * d[1] + normal * across[1],
    ];
    println!("reaction {r:?}, expected {expected:?}");
    for k in 0..2 {
        assert!(
            (r[k] - expected[k]).abs() < 2e-3 * 9.81,
            "component {k}: {r:?} against {expected:?}"
        );
    }
}

#[test]
fn joints_are_refused_where_they_cannot_hold_and_named_by_field() {
    let bodies = r#"[{"name": "pivot", "fixed": true, "shape": {"type": "disk", "radius": 0.01}},
        {"name": "rod", "mass": 1, "position": [0.5, 0], "shape": {"type": "box", "width": 1, "height": 0.04}}]"#;
    let scene = |joints: &str, stepper: &str| {
        format!(r#"{{"bodies": {bodies}, "joints": {joints}, "stepper": {{"kind": "{stepper}"}}}}"#)
    };
    let message = |json: String| Simulation::from_json(&json).err().unwrap().to_string();
    let pin = r#"[{"type": "revolute", "bodies": ["rod", "pivot"], "anchor": [0, 0]}]"#;
    for stepper in [
        "nsga",
        "moreau-jean",
        "acceleration",
        "penalty-explicit",
        "penalty-implicit",
    ] {
        assert!(
            Simulation::from_json(&scene(pin, stepper)).is_ok(),
            "{stepper}"
        );
    }
    // (bodies, anchor, type, more fields) → words the message must hold.
    for (bodies, anchor, kind, more, words) in [
        (
            r#"["rod", "arm"]"#,
            "[0, 0]",
            "revolute",
            "",
            &["joints[0].bodies[1]", "'arm'"][..],
        ),
        (
            r#"["rod", "rod"]"#,
            "[0, 0]",
            "revolute",
            "",
            &["joints[0].bodies", "two different"],
        ),
        (
            r#"["rod", "pivot"]"#,
            "[0, 0, 1]",
            "revolute",
            "",
            &["joints[0].anchor", "2 numbers"],
        ),
        (
            r#"["rod", "pivot"]"#,
            "[1e9, 0]",
            "revolute",
            "",
            &["joints[0].anchor"],
        ),
        (
            r#"["rod", "pivot"]"#,
            "[0, 0]",
            "slider",
            "",
            &["joints[0].type", "prismatic"],
        ),
        (
            r#"["rod", "pivot"]"#,
            "[0, 0]",
            "prismatic",
            "",
            &["joints[0].axis", "required"],
        ),
        (
            r#"["rod", "pivot"]"#,
            "[0, 0]",
            "prismatic",
            r#", "axis": [0, 0]"#,
            &["joints[0].axis", "zero"],
        ),
        (
            r#"["rod", "pivot"]"#,
            "[0, 0]",
            "revolute",
            r#", "axis": [1, 0]"#,
            &["joints[0].axis", "prismatic joints only"],
        ),
        (
            r#"["rod", "pivot"]"#,
            "[0, 0]",
            "weld",
            r#", "drive_speed": 1"#,
            &["joints[0].drive_speed", "revolute joints only"],
        ),
        (
            r#"["rod", "pivot"]"#,
            "[0, 0]",
            "revolute",
            r#", "drive_speed": 1e9"#,
            &["joints[0].drive_speed"],
        ),
        (
            r#"["rod", "pivot"]"#,
            "[0, 0]",
            "distance",
            "",
            &["joints[0].anchor_b", "required"],
        ),
        (
            r#"["rod", "pivot"]"#,
            "[0, 0]",
            "distance",
            r#", "anchor_b": [0, 0]"#,
            &["joints[0].anchor_b", "1e-9 m"],
        ),
        (
            r#"["rod", "pivot"]"#,
            "[0, 0]",
            "weld",
            r#", "anchor_b": [1, 0]"#,
            &["joints[0].anchor_b", "distance joints only"],
        ),
    ] {
        let joints =
            format!(r#"[{{"type": "{kind}", "bodies": {bodies}, "anchor": {anchor}{more}}}]"#);
        let m = message(scene(&joints, "nsga"));
        assert!(words.iter().all(|w| m.contains(w)), "{m} lacks {words:?}");
    }
    // Every stepper holds joints; the acceleration stepper's note says they drift.
    let sim = pendulum(1.0, 1e-3);
    let offers = sim.steppers_for();
    assert!(offers.iter().all(|o| o.available));
    let acceleration = offers.iter().find(|o| o.name == "acceleration").unwrap();
    assert!(acceleration.note.contains("drift"), "{}", acceleration.note);
}

#[test]
fn the_trace_carries_each_joint_s_reaction_and_its_held_equations() {
    let mut sim = pendulum(1.0, 1e-3);
    let trace = sim.run(500, 50).unwrap();
    let csv = trace.to_csv();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let column = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("no column {name} in {header:?}"))
    };
    let (rx, ry, g, rate) = (
        column("pin.Rx [N]"),
        column("pin.Ry [N]"),
        column("pin.g [m]"),
        column("pin.g_rate [m/s]"),
    );
    let rows: Vec<Vec<f64>> = csv
        .lines()
        .skip(1)
        .map(|l| {
            l.split(',')
                .map(|x| x.parse().unwrap_or(f64::NAN))
                .collect()
        })
        .collect();
    assert_eq!(rows.len(), 10);
    for row in &rows {
        assert!(row[g] <= 1e-10 && row[rate] <= 1e-10, "{row:?}");
        // The pin carries at least part of the weight and never more than the rod's
        // centripetal load at the bottom can add: |R| ≤ m g + m ω² L/2 with ω² ≤ 2 ω₀²(1 − cos θ₀).
        let r = row[rx].hypot(row[ry]);
        let bound = 9.81 + 2.0 * omega0() * omega0() * (1.0 - 1f64.cos()) * 0.5;
        assert!(r > 0.0 && r <= bound + 1e-9, "|R| = {r} against {bound}");
    }
}

/// Two moving boxes, turned and moving, linked by `joint` (JSON), under gravity-free NSGA.
fn two_boxes(joint: &str) -> Simulation {
    Simulation::from_json(&format!(
        r#"{{"gravity": [0, 0], "bodies": [
            {{"name": "a", "mass": 1, "position": [0.1, 0.2], "angle": 0.4, "velocity": [0.3, -0.2], "angular_velocity": 1.5,
              "shape": {{"type": "box", "width": 0.4, "height": 0.1}}}},
            {{"name": "b", "mass": 2, "position": [0.5, 0.1], "angle": -0.3, "velocity": [-0.1, 0.4], "angular_velocity": -0.7,
              "shape": {{"type": "box", "width": 0.4, "height": 0.1}}}}],
          "joints": [{joint}], "stepper": {{"kind": "nsga"}}}}"#
    ))
    .unwrap()
}

#[test]
fn each_joint_row_is_the_time_derivative_of_its_equation() {
    let joints = [
        r#"{"type": "revolute", "bodies": ["a", "b"], "anchor": [0.3, 0.15]}"#,
        r#"{"type": "revolute", "bodies": ["a", "b"], "anchor": [0.3, 0.15], "drive_speed": 2.5}"#,
        r#"{"type": "prismatic", "bodies": ["a", "b"], "anchor": [0.3, 0.15], "axis": [1, 2]}"#,
        r#"{"type": "weld", "bodies": ["a", "b"], "anchor": [0.3, 0.15]}"#,
        r#"{"type": "distance", "bodies": ["a", "b"], "anchor": [0.2, 0.2], "anchor_b": [0.6, 0.05]}"#,
    ];
    let mut checked = 0;
    for (joint, equations) in joints.iter().zip([2, 3, 2, 3, 1]) {
        let sim = two_boxes(joint);
        // Any velocity (not one the joint allows): the row must still be ∂g/∂q.
        let v = nalgebra::DVector::from_vec(vec![0.3, -0.2, 1.5, -0.1, 0.4, -0.7]);
        let rows = common::joint_rows_are_derivatives(&sim, &v, joint);
        assert_eq!(rows, equations, "{joint}");
        checked += rows;
    }
    assert_eq!(checked, 11);
}

#[test]
fn the_slider_crank_puts_the_slider_where_the_kinematics_says_every_step() {
    use contactlab::presets::{SLIDER_CRANK_PHI0, slider_kinematics};
    for (r, ratio, omega) in [(0.1, 3.0, 2.0 * std::f64::consts::PI), (0.2, 1.5, -20.0)] {
        let o = [
            ("r".to_string(), r),
            ("ratio".into(), ratio),
            ("omega".into(), omega),
        ];
        let mut sim = Simulation::from_preset("slider-crank", &o).unwrap();
        let slider = sim.system().body_index("slider").unwrap();
        let mut worst: f64 = 0.0;
        for _ in 0..2000 {
            sim.step().unwrap();
            let system = sim.system();
            let phi = SLIDER_CRANK_PHI0 + omega * system.t;
            let (x, speed) = slider_kinematics(r, ratio * r, phi, omega);
            let at = system.pose(slider, &system.q).position.x;
            let moving = system.twist(slider, &system.v).0.x;
            worst = worst
                .max((at - x).abs() / r)
                .max((moving - speed).abs() / (r * omega.abs()));
            let report = sim.last_report();
            assert!(report.converged, "t = {}: {:?}", sim.time(), report.solver);
            for j in &report.joints {
                for (g, rate) in j.constraint.iter().zip(&j.rate) {
                    assert!(
                        g.abs() <= 1e-10 && rate.abs() <= 1e-10,
                        "t = {}: {j:?}",
                        system.t
                    );
                }
            }
        }
        println!("r = {r}, l/r = {ratio}, Ω = {omega}: worst relative error {worst:e}");
        assert!(
            worst < 1e-12,
            "slider off the kinematics by {worst:e} (relative)"
        );
    }
}

/// The drive's work over whole turns (the mechanism back where it started) against the
/// energy change (zero): with the smooth reactions in NSGA's predictor it falls at second
/// order in h.
#[test]
fn the_drive_s_work_over_whole_turns_closes_the_energy_balance_at_second_order() {
    let work = |h: f64| {
        let mut sim = Simulation::from_preset("slider-crank", &[]).unwrap();
        sim.set_time_step(h).unwrap();
        let (e0, mut work) = (sim.energy(), 0.0);
        // Two turns at Ω = 2π rad/s.
        for _ in 0..(2.0 / h).round() as usize {
            sim.step().unwrap();
            work += sim.last_report().joints[0].torque * 2.0 * std::f64::consts::PI * h;
        }
        (work, sim.energy() - e0)
    };
    let (coarse, change) = work(1e-3);
    let (fine, _) = work(5e-4);
    println!(
        "drive work over two turns: {coarse} J (h = 1 ms), {fine} J (0.5 ms); ΔE = {change} J"
    );
    assert!(change.abs() < 1e-9, "the mechanism is back: ΔE = {change}");
    let ratio = coarse / fine;
    assert!(ratio > 3.5 && ratio < 4.8, "ratio {ratio}");
    // Against the energy the drive moves in and out within a turn (≈ m g r ≈ 0.5 J).
    assert!(fine.abs() < 1e-3, "{fine} J");
}

#[test]
fn moreau_jean_holds_joints_by_projection_and_its_slider_follows_the_kinematics() {
    // The pendulum: the pin held at position and velocity level after every step.
    let mut sim = pendulum(1.5, 1e-3);
    sim.set_stepper("moreau-jean").unwrap();
    for _ in 0..3000 {
        sim.step().unwrap();
        let report = sim.last_report();
        assert!(report.converged, "t = {}", sim.time());
        for (g, rate) in report.joints[0]
            .constraint
            .iter()
            .zip(&report.joints[0].rate)
        {
            assert!(
                g.abs() <= 1e-10 && rate.abs() <= 1e-10,
                "t = {}: g {g}, ġ {rate}",
                sim.time()
            );
        }
    }
    // The slider-crank: positions fully prescribed, so exact under Moreau–Jean too.
    use contactlab::presets::{SLIDER_CRANK_PHI0, slider_kinematics};
    let mut sim = Simulation::from_preset("slider-crank", &[]).unwrap();
    sim.set_stepper("moreau-jean").unwrap();
    let slider = sim.system().body_index("slider").unwrap();
    let (r, l, omega) = (0.1, 0.3, 2.0 * std::f64::consts::PI);
    for _ in 0..2000 {
        sim.step().unwrap();
        let system = sim.system();
        let (x, speed) = slider_kinematics(r, l, SLIDER_CRANK_PHI0 + omega * system.t, omega);
        let err = (system.pose(slider, &system.q).position.x - x).abs();
        assert!(
            err < 1e-12,
            "t = {}: {err:e}, converged {}, joints {:?}",
            system.t,
            sim.last_report().converged,
            sim.last_report().joints
        );
        assert!((system.twist(slider, &system.v).0.x - speed).abs() < 1e-11);
    }
}

/// The pendulum's energy after 5 s under each stepper, against its start: Moreau–Jean's
/// projections dissipate at first order in h; NSGA, its pin's reaction in the predictor, at
/// second order.
#[test]
fn the_pendulum_s_energy_loss_under_each_stepper_falls_at_its_order() {
    for (stepper, order) in [("nsga", 2), ("moreau-jean", 1)] {
        let loss = |h: f64| {
            let mut sim = pendulum(1.5, h);
            sim.set_stepper(stepper).unwrap();
            let e0 = sim.energy();
            sim.run((5.0 / h).round() as usize, 1_000_000).unwrap();
            (e0 - sim.energy()) / (9.81 * 0.5 * (1.0 - 1.5f64.cos()))
        };
        let (coarse, fine) = (loss(1e-3), loss(5e-4));
        println!(
            "{stepper}: relative energy loss over 5 s {coarse:e} (h = 1 ms), {fine:e} (0.5 ms)"
        );
        assert!(coarse > 0.0 && fine > 0.0, "{stepper} loses energy");
        let ratio = coarse / fine;
        let expected = f64::from(1 << order);
        assert!(
            ratio > 0.85 * expected && ratio < 1.15 * expected,
            "{stepper}: ratio {ratio}"
        );
    }
}

#[test]
fn the_plots_a_mechanism_preset_suggests_name_quantities_of_its_trace() {
    for name in [
        "pendulum",
        "slider-crank",
        "sphere-mill",
        "cantilever",
        "elastic-rod-impact",
    ] {
        let mut sim = Simulation::from_preset(name, &[]).unwrap();
        let plots = sim.suggested_plots();
        // Far enough for the rod to reach the wall (its contact column then exists).
        let steps = sim.steps_for(1.5e-3).clamp(2, 200);
        let csv = sim.run(steps, 1).unwrap().to_csv();
        let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
        assert!(!plots.is_empty());
        for entry in &plots {
            for quantity in entry.split('~') {
                assert!(
                    header.contains(&quantity),
                    "{name}: '{quantity}' not in {header:?}"
                );
            }
        }
    }
}

#[test]
fn a_disk_on_a_distance_joint_swings_as_a_simple_pendulum() {
    // A 1 kg disk hanging 0.8 m from a fixed pivot on a massless link to its centre: the link
    // leaves the disk's spin free, so the centre is a point mass, θ̈ = −(g/L) sin θ, and the
    // period is 4K(sin(θ₀/2))/√(g/L).
    let (length, theta0) = (0.8f64, 1.0f64);
    let (x, y) = (length * theta0.sin(), -length * theta0.cos());
    let mut sim = Simulation::from_json(&format!(
        r#"{{"bodies": [
            {{"name": "pivot", "fixed": true, "shape": {{"type": "disk", "radius": 0.01}}}},
            {{"name": "bob", "mass": 1, "position": [{x}, {y}], "shape": {{"type": "disk", "radius": 0.05}}}}],
          "joints": [{{"name": "link", "type": "distance", "bodies": ["bob", "pivot"], "anchor": [{x}, {y}], "anchor_b": [0, 0]}}],
          "stepper": {{"kind": "nsga", "dt": 0.00025}}}}"#
    ))
    .unwrap();
    // Turning points: where the bob's horizontal velocity changes sign (interpolated).
    let (mut turns, mut last) = (Vec::new(), (0.0, 0.0));
    while turns.len() < 2 {
        sim.step().unwrap();
        let j = &sim.last_report().joints[0];
        assert!(
            j.constraint[0].abs() <= 1e-10 && j.rate[0].abs() <= 1e-10,
            "{j:?}"
        );
        let (t, vx) = (sim.time(), sim.system().v[0]);
        if last.1 != 0.0 && (last.1 < 0.0) != (vx < 0.0) {
            turns.push(last.0 + (t - last.0) * last.1 / (last.1 - vx));
        }
        last = (t, vx);
        assert!(t < 5.0);
    }
    let exact = 4.0 * elliptic_k((0.5 * theta0).sin()) / (9.81 / length).sqrt();
    println!("distance pendulum: T = {} s against {exact} s", turns[1]);
    assert!((turns[1] - exact).abs() < 1e-3 * exact);
}

#[test]
fn the_penalty_steppers_hold_joints_by_impulses_and_projection_like_moreau_jean() {
    // Joints are not compliant under the penalty steppers: the step's velocities are held to
    // ġ = 0 by bilateral impulses, and the positions projected after it. The pin is then held
    // at both levels every step, the period converges at first order, and the slider-crank's
    // slider is where the kinematics says.
    use contactlab::presets::{SLIDER_CRANK_PHI0, slider_kinematics};
    for stepper in ["penalty-explicit", "penalty-implicit"] {
        let errors: Vec<f64> = [2e-3, 1e-3]
            .iter()
            .map(|&h| {
                let mut sim = pendulum(1.5, h);
                sim.set_stepper(stepper).unwrap();
                while sim.events().turns.len() < 2 {
                    sim.step().unwrap();
                    let report = sim.last_report();
                    assert!(report.converged);
                    let pin = &report.joints[0];
                    for (g, rate) in pin.constraint.iter().zip(&pin.rate) {
                        assert!(g.abs() <= 1e-10 && rate.abs() <= 1e-10, "{pin:?}");
                    }
                    // The pin carries the rod: its reaction is reported.
                    assert!(pin.reaction[1] > 0.0, "{pin:?}");
                }
                let (measured, exact) = (sim.events().turns[1], period(1.5, h).1);
                (measured - exact).abs() / exact
            })
            .collect();
        let ratio = errors[0] / errors[1];
        assert!((1.7..2.3).contains(&ratio), "{stepper}: {errors:?}");
        let mut sim = Simulation::from_preset("slider-crank", &[]).unwrap();
        sim.set_stepper(stepper).unwrap();
        let slider = sim.system().body_index("slider").unwrap();
        for _ in 0..1000 {
            sim.step().unwrap();
            let system = sim.system();
            let phi = SLIDER_CRANK_PHI0 + std::f64::consts::TAU * system.t;
            let (x, _) = slider_kinematics(0.1, 0.3, phi, std::f64::consts::TAU);
            let at = system.pose(slider, &system.q).position.x;
            assert!(
                (at - x).abs() < 1e-12,
                "{stepper}, t = {}: {at} against {x}",
                system.t
            );
        }
    }
}

/// The pendulum under the acceleration stepper with Baumgarte gains (α, β) = (`gain`, `gain`)
/// (0: off) at step h: the largest |g| over 3 s and the measured period.
fn accelerated_pendulum(gain: f64, h: f64) -> (f64, f64) {
    let mut scene = pendulum(1.5, h).scene().clone();
    scene.stepper.kind = "acceleration".into();
    scene.stepper.dt = h;
    if gain > 0.0 {
        scene.stepper.baumgarte = Some([gain, gain]);
    }
    let mut sim = Simulation::from_scene(scene).unwrap();
    let mut worst: f64 = 0.0;
    while sim.time() < 3.0 {
        sim.step().unwrap();
        for (g, _) in sim.last_report().joints[0]
            .constraint
            .iter()
            .zip(&sim.last_report().joints[0].rate)
        {
            worst = worst.max(g.abs());
        }
    }
    (worst, sim.events().turns[1])
}

#[test]
fn the_acceleration_stepper_holds_joints_at_acceleration_level_and_they_drift_unless_baumgarte_is_on()
 {
    // g̈ = 0 for the pin, beside the contacts' LCP: the pin drifts off like a contact's gap,
    // and Baumgarte's feedback (α = β = 100/s) holds it closer, the closer the finer h.
    let (free_drift, _) = accelerated_pendulum(0.0, 1e-3);
    let (coarse, period_coarse) = accelerated_pendulum(100.0, 1e-3);
    let (fine, period_fine) = accelerated_pendulum(100.0, 5e-4);
    assert!(
        free_drift > 1e-7 && free_drift < 1e-3,
        "drift {free_drift:e} m"
    );
    assert!(
        coarse < free_drift / 3.0,
        "{coarse:e} against {free_drift:e} m"
    );
    assert!(fine < 0.6 * coarse, "{fine:e} against {coarse:e} m");
    // The held acceleration over each step is first order: the period's error halves with h.
    let exact = period(1.5, 1e-3).1;
    let ratio = (period_coarse - exact) / (period_fine - exact);
    assert!(
        (1.7..2.3).contains(&ratio),
        "{period_coarse} and {period_fine} against {exact}"
    );
}

#[test]
fn under_the_acceleration_stepper_the_pin_pulls_with_the_force_of_rigid_body_dynamics() {
    // Released at rest, the first step's reaction is the constrained acceleration's, held
    // over the step: the closed form of the release, along and across the rod.
    let theta0 = 1.0f64;
    let mut scene = pendulum(theta0, 1e-4).scene().clone();
    scene.stepper.kind = "acceleration".into();
    scene.stepper.dt = 1e-4;
    let mut sim = Simulation::from_scene(scene).unwrap();
    sim.step().unwrap();
    let r = sim.last_report().joints[0].reaction;
    let (s, c) = theta0.sin_cos();
    let (d, across) = ([s, -c], [c, s]);
    let along = -9.81 * c;
    let normal = 9.81 * s - 0.5 * omega0() * omega0() * s;
    for k in 0..2 {
        let expected = along * d[k] + normal * across[k];
        assert!(
            (r[k] - expected).abs() < 1e-9 * 9.81,
            "{r:?}: component {k} against {expected}"
        );
    }
}
