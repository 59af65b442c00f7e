//! Unilateral contact: every stepper pushes and never pulls, and touching need not load.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::needless_range_loop)] // index loops read like the maths here

use contactlab::Simulation;
use contactlab::integrators::STEPPER_NAMES;

#[test]
fn no_stepper_ever_pulls_on_the_block() {
    for stepper in STEPPER_NAMES {
        for u in [0.0, 5.0, 19.62, 25.0, 60.0] {
            let mut sim = Simulation::from_preset("block-pull", &[("u".into(), u)]).unwrap();
            sim.set_stepper(stepper).unwrap();
            if stepper.starts_with("penalty") {
                sim.set_time_step(1e-4).unwrap();
            }
            let steps = sim.steps_for(0.5);
            let trace = sim.run(steps, 1).unwrap();
            for s in &trace.samples {
                for c in &s.contacts {
                    assert!(
                        c.normal >= 0.0,
                        "{stepper}, u = {u}: N = {} at t = {}",
                        c.normal,
                        s.t
                    );
                    assert!(c.impulse >= 0.0);
                    // (Penalty forces are evaluated at the start of the step, whose gap may
                    // differ in sign from the end-of-step gap in the trace.)
                    if c.gap > 1e-9 && !stepper.starts_with("penalty") {
                        assert_eq!(c.normal, 0.0, "{stepper}: force across an open gap");
                    }
                }
            }
            if u > 19.62 {
                let last = trace.samples.last().unwrap();
                // Free rise from rest: ½ a t² with a = (u − mg)/m, t = 0.5 s.
                let expected = 0.5 * (u - 19.62) / 2.0 * 0.5 * 0.5;
                let rise = last.bodies[0].q[1] - 0.05;
                assert!(
                    (rise - expected).abs() < 0.05 * expected + 1e-3,
                    "{stepper}, u = {u}: rose {rise} m, expected about {expected}"
                );
            }
        }
    }
}

#[test]
fn at_u_equal_mg_the_block_touches_without_load() {
    for stepper in ["acceleration", "moreau-jean"] {
        let mut sim = Simulation::from_preset("block-pull", &[("u".into(), 19.62)]).unwrap();
        sim.set_stepper(stepper).unwrap();
        let trace = sim.run(100, 1).unwrap();
        for s in &trace.samples {
            let c = &s.contacts[0];
            assert_eq!(c.state.label(), "touching", "{stepper} at t = {}", s.t);
            assert!(c.normal.abs() < 1e-12);
            assert!(
                s.bodies[0].v[1].abs() < 1e-12,
                "{stepper}: v = {}",
                s.bodies[0].v[1]
            );
        }
    }
}
