//! Regression: the CLI printed untrustworthy runs as good ones, kept whole runs in memory,
//! could be made to loop for ever, and wrote messages that misled.
//!
//! What went wrong: a run whose solver did not converge exited 0 with nothing said; `run …
//! --format digest` kept every sample and was killed for memory on long runs; `lcp` took
//! `max_iterations` = 2⁶⁴−1 with tolerance 0 and never ended; a 2000-contact LCP ran for
//! minutes; numbers in errors printed in full (309 digits for 1e308); the unknown-command list
//! omitted `modes` and `sweep`; `run /dev/null` said "unknown preset"; a top-level `[]` was
//! accepted as a scene; `[0, 0.05, 0]` as a planar position said "trailing characters".
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::contactlab;

fn scene_file(name: &str, json: &str) -> String {
    let path = std::env::temp_dir().join(format!("contactlab-{}-{name}", std::process::id()));
    std::fs::write(&path, json).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn a_run_with_unconverged_steps_exits_3_and_says_how_many() {
    // PGS capped at 1000 sweeps cannot resolve 1 kg under 1000 kg (it needs ≈ 13,800).
    let (code, out, err) = contactlab(
        &[
            "run",
            "stacked-boxes",
            "--solver",
            "pgs",
            "--duration",
            "0.005",
        ],
        None,
    );
    assert_eq!(code, 3, "stderr: {err}");
    assert_eq!(out.lines().count(), 5, "the samples are still printed");
    assert!(out.contains("\"converged\":false"));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("5 of 5 steps did not converge") && err.contains("worst relative residual"),
        "{err}"
    );
    // The same run with Lemke is exact and exits 0.
    let (code, _, err) = contactlab(&["run", "stacked-boxes", "--duration", "0.005"], None);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn a_run_stopped_by_a_diverging_step_exits_4_after_the_good_samples() {
    // A 1 g bob on a 1e6 N/m spring has ω = √(k/m) ≈ 31,623 rad/s; at h = 10 ms (hω ≈ 316,
    // far above the explicit limit 2) each step multiplies the motion by about (hω)², so the
    // second step leaves the documented state range.
    let scene = scene_file(
        "spring.json",
        r#"{"bodies": [{"name": "bob", "mass": 0.001, "position": [0.1, 0], "shape": {"type": "disk", "radius": 0.01}}],
            "gravity": [0, 0],
            "forces": [{"type": "spring", "body": "bob", "anchor": [0, 0], "stiffness": 1e6}],
            "stepper": {"kind": "moreau-jean", "dt": 0.01}, "duration": 1}"#,
    );
    let (code, out, err) = contactlab(&["run", &scene], None);
    assert_eq!(code, 4, "stderr: {err}");
    assert!(
        err.contains("step 2 of 100 failed") && err.contains("diverged"),
        "{err}"
    );
    assert_eq!(out.lines().count(), 1, "the good sample comes first");
    assert!(!out.contains("null"), "no non-finite number was printed");
}

#[test]
fn digest_runs_keep_no_samples() {
    // 200,000 steps: a run that kept its samples would need far more than 64 MB.
    let (code, out, err) = {
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v 65536; exec {} run block-pull --duration 200 --dt 0.001 --format digest",
                env!("CARGO_BIN_EXE_contactlab")
            ))
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim().len(), 16, "{out}");
}

#[test]
fn lcp_work_is_bounded_and_named() {
    let (code, _, err) = contactlab(
        &["lcp", "-"],
        Some(
            r#"{"W": [[2, 1], [1, 2]], "b": [-3, -3], "solver": "pgs", "max_iterations": 18446744073709551615, "tolerance": 0}"#,
        ),
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("max_iterations") && err.contains("[1, 1000000]"),
        "{err}"
    );
    // A 2000-contact chain is refused with the size limit named, at once.
    let n: usize = 2000;
    let rows: Vec<String> = (0..n)
        .map(|i| {
            let row: Vec<&str> = (0..n)
                .map(|j| {
                    if i == j {
                        "2"
                    } else if i.abs_diff(j) == 1 {
                        "-1"
                    } else {
                        "0"
                    }
                })
                .collect();
            format!("[{}]", row.join(","))
        })
        .collect();
    let b = vec!["-1"; n].join(",");
    let input = format!(r#"{{"W": [{}], "b": [{b}]}}"#, rows.join(","));
    let (code, _, err) = contactlab(&["lcp", "-"], Some(&input));
    assert_eq!(code, 2);
    assert!(err.contains("2000 rows") && err.contains("1000"), "{err}");
}

#[test]
fn an_lcp_that_is_not_solved_exits_3() {
    let (code, out, err) = contactlab(
        &["lcp", "-"],
        Some(r#"{"W": [[1e-9]], "b": [-1e300], "solver": "pgs"}"#),
    );
    assert_eq!(code, 3, "{err}");
    assert!(out.contains("\"status\":\"inaccurate\""), "{out}");
    assert!(err.contains("inaccurate"), "{err}");
}

#[test]
fn messages_name_the_field_in_short_numbers() {
    let floor = r#"{"name": "floor", "fixed": true, "shape": {"type": "half_plane"}}"#;
    let body = |extra: &str| {
        format!(
            r#"{{"bodies": [{floor}, {{"name": "b", "mass": 1, "position": [0, 0.05], "shape": {{"type": "box", "width": 0.1, "height": 0.1}}{extra}}}]}}"#
        )
    };
    let huge = scene_file("huge.json", &body(r#", "velocity": [1e308, 0]"#));
    let (code, _, err) = contactlab(&["run", &huge], None);
    assert_eq!(code, 2);
    assert!(
        err.contains("bodies[1].velocity[0]") && err.contains("got 1e308"),
        "{err}"
    );
    assert!(err.len() < 200, "one short line: {err}");

    let three = scene_file(
        "three.json",
        &format!(
            r#"{{"bodies": [{floor}, {{"name": "b", "mass": 1, "position": [0, 0.05, 0], "shape": {{"type": "disk", "radius": 0.05}}}}]}}"#
        ),
    );
    let (code, _, err) = contactlab(&["run", &three], None);
    assert_eq!(code, 2);
    assert!(
        err.contains("bodies[1].position") && err.contains("expected a list of 2 numbers, got 3"),
        "{err}"
    );

    let array = scene_file("array.json", "[]");
    let (code, _, err) = contactlab(&["run", &array], None);
    assert_eq!(code, 2);
    assert!(err.contains("JSON object"), "{err}");

    let (code, _, err) = contactlab(&["run", "/dev/null"], None);
    assert_eq!(code, 2);
    assert!(
        err.contains("/dev/null") && !err.contains("unknown preset"),
        "{err}"
    );

    let (code, _, err) = contactlab(&["frobnicate"], None);
    assert_eq!(code, 2);
    for command in ["presets", "run", "modes", "sweep", "lcp", "bench"] {
        assert!(err.contains(command), "{command} missing from: {err}");
    }

    // The same iteration limit natively and in wasm (a u64 checked against [1, 10000]).
    let many = scene_file(
        "many.json",
        &format!(
            r#"{{"bodies": [{floor}, {{"name": "b", "mass": 1, "position": [0, 0.05], "shape": {{"type": "box", "width": 0.1, "height": 0.1}}}}],
                "stepper": {{"kind": "nsga", "newton_max_iterations": 1000000000000}}}}"#
        ),
    );
    let (code, _, err) = contactlab(&["run", &many], None);
    assert_eq!(code, 2);
    assert!(
        err.contains("stepper.newton_max_iterations") && err.contains("[1, 10000]"),
        "{err}"
    );
}
