//! Regression: the CSV of sphere scenes was misaligned.
//!
//! What went wrong: the header named six planar columns per body (x, y, theta, vx, vy,
//! omega) while each row of a sphere scene wrote thirteen spatial values. Now each body
//! kind declares its layout; every preset's CSV has rows as wide as its header, and each
//! column holds what its name says.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;

use contactlab::{Simulation, presets};

/// Splits a CSV into its header and rows, checking every row is as wide as the header.
fn parse(csv: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut lines = csv.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    let rows: Vec<Vec<String>> = lines
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    for (k, r) in rows.iter().enumerate() {
        assert_eq!(
            r.len(),
            header.len(),
            "row {k} is {} wide, header {}",
            r.len(),
            header.len()
        );
    }
    (header, rows)
}

#[test]
fn every_preset_writes_one_column_per_value_each_named_with_its_unit() {
    for preset in presets::all() {
        let mut sim = Simulation::from_preset(preset.name, &[]).unwrap();
        let trace = sim.run(20, 1).unwrap();
        let (header, rows) = parse(&trace.to_csv());
        assert_eq!(rows.len(), 20, "{}", preset.name);
        for name in &header {
            assert!(
                name.contains(" [")
                    || ["converged", "solver", "iterations"].contains(&name.as_str())
                    || name.ends_with(".state"),
                "{}: column '{name}' has no unit",
                preset.name
            );
        }
        // The last row against the state the columns claim to hold.
        let last: BTreeMap<&str, f64> = header
            .iter()
            .zip(rows.last().unwrap())
            .filter_map(|(h, v)| v.parse::<f64>().ok().map(|x| (h.as_str(), x)))
            .collect();
        let system = sim.system();
        for body in system.bodies.iter().filter(|b| !b.is_fixed()) {
            // A beam's columns are its nodes'; its position and twist are its tip's.
            let prefix = match &body.kind {
                contactlab::model::BodyKind::Beam(beam) => {
                    format!("{}.n{}", body.name, beam.nodes() - 1)
                }
                contactlab::model::BodyKind::SpatialBeam(beam) => {
                    format!("{}.n{}", body.name, beam.nodes() - 1)
                }
                _ => body.name.clone(),
            };
            let is_beam = matches!(body.kind, contactlab::model::BodyKind::Beam(_));
            let p = body.position3(&system.q);
            let (u, w) = body.twist3(&system.v);
            // A coordinate a beam's support holds has no column (the tip's y on a roller):
            // it keeps its start, and its rate is zero.
            let (start, _, _) = sim.scene().build().unwrap();
            let index = system
                .bodies
                .iter()
                .position(|b| b.name == body.name)
                .unwrap();
            let p0 = start.bodies[index].position3(&start.q);
            let col = |c: &str| match last.get(format!("{prefix}.{c}").as_str()) {
                Some(&x) => x,
                None if is_beam && c == "y [m]" => p0.y,
                None if is_beam && c == "vy [m/s]" => 0.0,
                None => panic!("{}: no column {prefix}.{c}", preset.name),
            };
            assert_eq!(col("x [m]"), p.x);
            assert_eq!(col("y [m]"), p.y);
            assert_eq!(col("vx [m/s]"), u.x);
            assert_eq!(col("vy [m/s]"), u.y);
            if body.is_spatial() {
                let r = body.orientation(&system.q);
                assert_eq!(col("z [m]"), p.z);
                assert_eq!(
                    [col("qw [1]"), col("qx [1]"), col("qy [1]"), col("qz [1]")],
                    [r.w, r.x, r.y, r.z]
                );
                assert_eq!(col("vz [m/s]"), u.z);
                assert_eq!(
                    [col("wx [rad/s]"), col("wy [rad/s]"), col("wz [rad/s]")],
                    [w.x, w.y, w.z]
                );
            } else {
                assert_eq!(col("theta [rad]"), body.pose(&system.q).angle);
                assert_eq!(col("omega [rad/s]"), w.z);
            }
        }
        assert_eq!(last["t [s]"], sim.time());
    }
}

#[test]
fn the_cli_csv_of_a_sphere_scene_is_aligned() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_contactlab"))
        .args([
            "run",
            "two-spheres",
            "--duration",
            "0.02",
            "--format",
            "csv",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let csv = String::from_utf8(out.stdout).unwrap();
    let (header, rows) = parse(&csv);
    assert!(!rows.is_empty());
    // Two moving spheres: 13 columns each.
    assert_eq!(header.iter().filter(|h| h.ends_with(".qw [1]")).count(), 2);
    assert_eq!(header.iter().filter(|h| h.ends_with("[rad/s]")).count(), 6);
}
