//! `contactlab bench-pile`: issue 11's pile benchmark natively (ms/step, deepest penetration, final speed, escapes) for the table beside Rapier's.
//!
//! Only the step loop is timed. A run that exceeds its time budget stops there and says how
//! many steps it took, so that a slow configuration reports instead of hanging. Short runs
//! (under [`REPEAT_BELOW_S`] in all) are repeated up to `--repeat` times from the same
//! initial state and the median ms/step is reported: this machine's clock varies by 1.5×
//! from run to run, and a pile of 10 takes a fraction of a second.

use std::cell::{Cell, RefCell};
use std::fmt::Write as _;
use std::time::Instant;

use contactlab::Simulation;
use contactlab::presets_pile::pile_state;

/// A configuration is run again (up to `--repeat` runs) while its runs so far took less than
/// this many seconds in all.
const REPEAT_BELOW_S: f64 = 2.0;

/// Scene settings a run changes from the preset's.
#[derive(Clone, Copy, Default)]
struct Overrides {
    /// Friction coefficient.
    mu: Option<f64>,
    /// `stepper.newton_tolerance`.
    tolerance: Option<f64>,
    /// `stepper.nsgs_max_sweeps`: the cap on a block-sparse solve's sweeps (and MPRGP's
    /// products).
    max_sweeps: Option<u64>,
    /// `stepper.velocity_sweeps`: a fixed budget of sweeps for Moreau–Jean's impulses.
    velocity_sweeps: Option<u64>,
    /// `stepper.gap_tolerance` (m), through the preset's parameter `gap`: the deepest gap
    /// NSGA's position level may leave.
    gap_tolerance: Option<f64>,
    /// `contact_margin`, m: pairs closer than this are contacts.
    margin: Option<f64>,
    /// `stepper.sleep_speed` (m/s) and `stepper.sleep_time` (s), with sleeping on.
    sleep_speed: Option<f64>,
    sleep_time: Option<f64>,
    /// The pile of boxes (the presets' `shape` = 1): cubes (squares) for spheres (disks).
    boxes: bool,
}

impl Overrides {
    /// True when a setting other than μ (which the preset takes as a parameter) changes the
    /// preset's scene.
    fn changes_scene(&self) -> bool {
        self.tolerance.is_some()
            || self.max_sweeps.is_some()
            || self.velocity_sweeps.is_some()
            || self.margin.is_some()
            || self.sleep_speed.is_some()
            || self.sleep_time.is_some()
    }
}

/// One benchmark run's figures.
struct PileRow {
    preset: String,
    n: usize,
    stepper: String,
    resistance: bool,
    sleep: bool,
    steps: usize,
    runs: usize,
    ms_per_step: f64,
    allocations_per_step: f64,
    deepest_gap: f64,
    max_speed: f64,
    escaped: usize,
    unconverged: u64,
    worst_residual: f64,
}

/// The header of `--trace`'s CSV: a `step` line per step (its time, its report's iterations,
/// outcome and largest residual) after a `solve` line per block-sparse solve of that step.
const TRACE_HEADER: &str =
    "kind,preset,n,stepper,step,ms,rows,warm,iterations,converged,residual\n";

/// Runs one configuration for `steps` steps or until `budget_s` seconds have passed; with
/// `trace`, appends its step-by-step CSV lines there ([`TRACE_HEADER`]). A traced run's time
/// leaves out the writing of the trace; its allocations count the solve log's list (a few a
/// step) but not the writing either.
fn run_one(
    preset: &str,
    n: usize,
    stepper: &str,
    (resistance, sleep): (bool, bool),
    overrides: Overrides,
    (steps, budget_s): (usize, f64),
    mut trace: Option<&mut String>,
) -> Result<PileRow, String> {
    let mut set = vec![
        ("N".to_string(), n as f64),
        ("sleep".into(), f64::from(u8::from(sleep))),
    ];
    if let Some(mu) = overrides.mu {
        set.push(("mu".into(), mu));
    }
    if overrides.boxes {
        set.push(("shape".into(), 1.0));
    }
    if let Some(gap) = overrides.gap_tolerance {
        set.push(("gap".into(), gap));
    }
    if resistance {
        set.push(("rho".into(), 1e-3));
        set.push(("gamma".into(), 1e-3));
    }
    let mut sim = Simulation::from_preset(preset, &set).map_err(|e| e.to_string())?;
    if overrides.changes_scene() {
        let mut scene = sim.scene().clone();
        if let Some(tolerance) = overrides.tolerance {
            scene.stepper.newton_tolerance = tolerance;
        }
        if let Some(margin) = overrides.margin {
            scene.contact_margin = margin;
        }
        if let Some(sweeps) = overrides.max_sweeps {
            scene.stepper.nsgs_max_sweeps = sweeps;
        }
        if let Some(sweeps) = overrides.velocity_sweeps {
            scene.stepper.velocity_sweeps = Some(sweeps);
        }
        if let Some(speed) = overrides.sleep_speed {
            scene.stepper.sleep_speed = speed;
        }
        if let Some(time) = overrides.sleep_time {
            scene.stepper.sleep_time = time;
        }
        sim = Simulation::from_scene(scene).map_err(|e| e.to_string())?;
    }
    sim.set_stepper(stepper).map_err(|e| e.to_string())?;
    let allocations = crate::alloc_count::allocations();
    let start = Instant::now();
    // Time spent writing the trace, left out of the step loop's time.
    let (mut writing, mut writing_allocations) = (std::time::Duration::ZERO, 0);
    let mut done = 0;
    while done < steps {
        let step_start = Instant::now();
        let mut stepped = || {
            sim.step()
                .map(|r| (r.iterations, r.converged, r.residual))
                .map_err(|e| format!("{preset} N={n} {stepper}: step {done}: {e}"))
        };
        // The solve log only when tracing: untraced, the loop is the plain step loop (its
        // allocations counted as they are).
        let (outcome, solves) = if trace.is_some() {
            contactlab::laws::solve_log::log(stepped)
        } else {
            (stepped(), Vec::new())
        };
        let ms = 1e3 * step_start.elapsed().as_secs_f64();
        let (iterations, converged, residual) = outcome?;
        done += 1;
        if let Some(out) = trace.as_deref_mut() {
            let (write_start, write_allocations) =
                (Instant::now(), crate::alloc_count::allocations());
            let run = format!("{preset},{n},{stepper},{done}");
            for s in &solves {
                let _ = writeln!(
                    out,
                    "solve,{run},,{},{},{},{},{:.3e}",
                    s.rows,
                    u8::from(s.warm),
                    s.iterations,
                    u8::from(s.converged),
                    s.residual
                );
            }
            let _ = writeln!(
                out,
                "step,{run},{ms:.3},,,{iterations},{},{residual:.3e}",
                u8::from(converged)
            );
            writing += write_start.elapsed();
            writing_allocations += crate::alloc_count::allocations() - write_allocations;
        }
        if (start.elapsed() - writing).as_secs_f64() > budget_s {
            break;
        }
    }
    let seconds = (start.elapsed() - writing).as_secs_f64();
    let allocations = crate::alloc_count::allocations() - allocations - writing_allocations;
    let state = pile_state(sim.system());
    let (unconverged, worst_residual) = sim.unconverged_steps();
    Ok(PileRow {
        preset: preset.into(),
        n,
        stepper: stepper.into(),
        resistance,
        sleep,
        steps: done,
        runs: 1,
        ms_per_step: 1e3 * seconds / done as f64,
        allocations_per_step: allocations as f64 / done as f64,
        deepest_gap: sim.deepest_gap(),
        max_speed: state.max_speed,
        escaped: state.escaped,
        unconverged,
        worst_residual,
    })
}

/// Parses the options and runs every combination; returns the Markdown table.
pub fn run(args: &[String]) -> Result<String, String> {
    let mut sizes = vec![10usize, 100];
    let mut steppers = vec!["nsga".to_string(), "moreau-jean".to_string()];
    let mut presets = vec!["pile".to_string(), "pile-2d".to_string()];
    let (mut steps, mut budget, mut resistance, mut sleep) = (1000usize, 120.0f64, false, false);
    // Each configuration without and with resistance, and the cost of it (issue 11's "at
    // most 1.5 times").
    let mut resistance_ratio = false;
    let (mut overrides, mut repeat) = (Overrides::default(), 1usize);
    let mut trace_path = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--resistance" {
            resistance = true;
            continue;
        }
        if a == "--sleep" {
            sleep = true;
            continue;
        }
        if a == "--resistance-ratio" {
            resistance_ratio = true;
            continue;
        }
        if a == "--boxes" {
            overrides.boxes = true;
            continue;
        }
        let value = it.next().ok_or_else(|| format!("{a} needs a value"))?;
        let list = || value.split(',').map(str::to_string).collect::<Vec<_>>();
        match a.as_str() {
            "--n" => {
                sizes = crate::cli_args::whole_numbers("--n", value, 1, 1000)?;
            }
            "--steppers" => steppers = list(),
            "--presets" => presets = list(),
            "--steps" => {
                steps = crate::cli_args::number_in(
                    a,
                    value,
                    1..=1_000_000,
                    "a whole number in [1, 1000000]",
                )?;
            }
            "--mu" => {
                overrides.mu = Some(crate::cli_args::number_in(
                    a,
                    value,
                    0.0..=f64::MAX,
                    "a friction coefficient ≥ 0",
                )?);
            }
            "--tolerance" => {
                overrides.tolerance = Some(crate::cli_args::number_in(
                    a,
                    value,
                    1e-16..=1e-2,
                    "a relative residual in [1e-16, 1e-2] (as stepper.newton_tolerance)",
                )?);
            }
            "--margin" => {
                overrides.margin = Some(crate::cli_args::number_in(
                    a,
                    value,
                    0.0..=100.0,
                    "metres in [0, 100] (as contact_margin)",
                )?);
            }
            "--max-sweeps" => {
                overrides.max_sweeps = Some(crate::cli_args::number_in(
                    a,
                    value,
                    1..=100_000,
                    "a whole number in [1, 100000] (as stepper.nsgs_max_sweeps)",
                )?);
            }
            "--velocity-sweeps" => {
                overrides.velocity_sweeps = Some(crate::cli_args::number_in(
                    a,
                    value,
                    1..=100_000,
                    "a whole number in [1, 100000] (as stepper.velocity_sweeps)",
                )?);
            }
            "--gap-tolerance" => {
                overrides.gap_tolerance = Some(crate::cli_args::number_in(
                    a,
                    value,
                    1e-14..=1e-6,
                    "metres in [1e-14, 1e-6] (as stepper.gap_tolerance)",
                )?);
            }
            "--repeat" => {
                repeat =
                    crate::cli_args::number_in(a, value, 1..=100, "a whole number in [1, 100]")?;
            }
            "--sleep-speed" => {
                sleep = true;
                overrides.sleep_speed = Some(crate::cli_args::number_in(
                    a,
                    value,
                    1e-9..=10.0,
                    "m/s in [1e-9, 10] (as stepper.sleep_speed)",
                )?);
            }
            "--sleep-time" => {
                sleep = true;
                overrides.sleep_time = Some(crate::cli_args::number_in(
                    a,
                    value,
                    0.0..=1000.0,
                    "seconds in [0, 1000] (as stepper.sleep_time)",
                )?);
            }
            "--trace" => trace_path = Some(value.clone()),
            "--budget" => {
                budget = value
                    .parse()
                    .ok()
                    .filter(|b: &f64| b.is_finite() && *b > 0.0)
                    .ok_or_else(|| format!("--budget: seconds > 0, got '{value}'"))?;
            }
            other => {
                return Err(format!(
                    "unknown option '{other}'; options: --n, --steppers, --presets, --steps, --budget, --repeat, --mu, --tolerance, --max-sweeps, --velocity-sweeps, --gap-tolerance, --margin, --resistance, --resistance-ratio, --boxes, --sleep, --sleep-speed, --sleep-time, --trace FILE"
                ));
            }
        }
    }
    let mut out = String::from(
        "| preset | N | stepper | ρ = γ | sleeping | steps | runs | ms/step (median) | allocations/step | deepest penetration [m] | final max speed [m/s] | escaped | unconverged steps | worst residual |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    if let Some(path) = &trace_path {
        // Fail before the runs, not after them.
        std::fs::write(path, TRACE_HEADER)
            .map_err(|e| format!("--trace: cannot write '{path}': {e}"))?;
    }
    // The trace is of each configuration's first run (the others repeat its arithmetic).
    let trace = RefCell::new(String::from(TRACE_HEADER));
    let resistances: &[bool] = if resistance_ratio {
        &[false, true]
    } else if resistance {
        &[true]
    } else {
        &[false]
    };
    // Per preset and stepper: ms/step summed over the sizes, without and with resistance.
    let mut costs: Vec<(String, String, [f64; 2])> = Vec::new();
    for preset in &presets {
        for &n in &sizes {
            for stepper in &steppers {
                for &resistance in resistances {
                    let first = Cell::new(true);
                    let run = || {
                        let mut lines = trace.borrow_mut();
                        let traced = trace_path.is_some() && first.replace(false);
                        run_one(
                            preset,
                            n,
                            stepper,
                            (resistance, sleep),
                            overrides,
                            (steps, budget),
                            traced.then_some(&mut *lines),
                        )
                    };
                    let r = match repeated(run, repeat) {
                        Ok(r) => r,
                        Err(e) => {
                            // A run that failed keeps the trace up to its failing step.
                            if let Some(path) = &trace_path {
                                let _ = std::fs::write(path, trace.take());
                            }
                            return Err(e);
                        }
                    };
                    out.push_str(&format!(
                    "| {} | {} | {} | {} | {} | {} | {} | {:.3} | {:.2} | {:.2e} | {:.2e} | {} | {} | {:.1e} |\n",
                    r.preset,
                    r.n,
                    r.stepper,
                    if r.resistance { "1 mm" } else { "0" },
                    match (r.sleep, overrides.sleep_speed, overrides.sleep_time) {
                        (false, ..) => "off".to_string(),
                        (true, None, None) => "on".to_string(),
                        (true, speed, time) => format!(
                            "on, below {} m/s for {} s",
                            speed.unwrap_or(contactlab::sleep::SLEEP_SPEED),
                            time.unwrap_or(contactlab::sleep::SLEEP_TIME)
                        ),
                    },
                    r.steps,
                    r.runs,
                    r.ms_per_step,
                    r.allocations_per_step,
                    (-r.deepest_gap).max(0.0),
                    r.max_speed,
                    r.escaped,
                    r.unconverged,
                    r.worst_residual
                ));
                    eprintln!("{}", out.lines().last().unwrap_or(""));
                    let cost = match costs.iter_mut().find(|c| &c.0 == preset && &c.1 == stepper) {
                        Some(c) => c,
                        None => {
                            costs.push((preset.clone(), stepper.clone(), [0.0; 2]));
                            costs.last_mut().expect("pushed")
                        }
                    };
                    cost.2[usize::from(resistance)] += r.ms_per_step;
                }
            }
        }
    }
    if resistance_ratio {
        out.push_str(&resistance_costs(&costs, &sizes));
    }
    if let Some(path) = &trace_path {
        std::fs::write(path, trace.into_inner())
            .map_err(|e| format!("--trace: cannot write '{path}': {e}"))?;
    }
    // The settings the table's rows do not show, when a run changed them from the preset's.
    let changed: Vec<String> = [
        overrides.mu.map(|v| format!("μ = {v}")),
        overrides
            .boxes
            .then(|| "shape = 1 (cubes of 8 cm; squares in the plane)".to_string()),
        overrides
            .tolerance
            .map(|v| format!("stepper.newton_tolerance = {v:e}")),
        overrides
            .max_sweeps
            .map(|v| format!("stepper.nsgs_max_sweeps = {v}")),
        overrides
            .velocity_sweeps
            .map(|v| format!("stepper.velocity_sweeps = {v}")),
        overrides
            .gap_tolerance
            .map(|v| format!("stepper.gap_tolerance = {v:e} m")),
        overrides.margin.map(|v| format!("contact_margin = {v} m")),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !changed.is_empty() {
        out.push_str(&format!(
            "\nChanged from the presets: {}.\n",
            changed.join(", ")
        ));
    }
    Ok(out)
}

/// The lines under the table of `--resistance-ratio`: per preset and stepper, the ms/step
/// of the runs with ρ = γ = 1 mm over those without, summed over the sizes (a sum over
/// neighbouring sizes reads past one pile's trajectory), against the bound.
fn resistance_costs(costs: &[(String, String, [f64; 2])], sizes: &[usize]) -> String {
    let which = match sizes {
        [n] => format!("N = {n}"),
        _ => format!(
            "N = {}, summed",
            sizes
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let mut out = format!(
        "\nRolling and spinning resistance (ρ = γ = 1 mm) against none, ms/step, {which} (issue 11 asks for at most {RESISTANCE_BOUND} times):\n"
    );
    for (preset, stepper, [without, with]) in costs {
        let ratio = with / without;
        let verdict = if ratio <= RESISTANCE_BOUND {
            "within"
        } else {
            "above"
        };
        out.push_str(&format!(
            "- {preset} {stepper}: {without:.3} → {with:.3}, {ratio:.2} times ({verdict} the bound)\n"
        ));
    }
    out
}

/// Issue 11's bound on the cost of rolling and spinning resistance: at most this many times
/// the step without it.
const RESISTANCE_BOUND: f64 = 1.5;

/// Runs a configuration up to `repeat` times while its runs so far took under
/// [`REPEAT_BELOW_S`] in all; returns the first run's figures with the median ms/step of
/// the runs (every run starts from the same state and takes the same steps, unless the
/// time budget cuts one short; the other figures, allocations included, are the first
/// run's).
fn repeated(run: impl Fn() -> Result<PileRow, String>, repeat: usize) -> Result<PileRow, String> {
    let mut first = run()?;
    let mut times = vec![first.ms_per_step];
    while times.len() < repeat
        && times.iter().sum::<f64>() * 1e-3 * (first.steps as f64) < REPEAT_BELOW_S
    {
        times.push(run()?.ms_per_step);
    }
    times.sort_by(f64::total_cmp);
    first.runs = times.len();
    first.ms_per_step = median(&times);
    Ok(first)
}

/// The median of sorted values (the mean of the middle two for an even count).
fn median(sorted: &[f64]) -> f64 {
    let m = sorted.len() / 2;
    if sorted.len().is_multiple_of(2) {
        0.5 * (sorted[m - 1] + sorted[m])
    } else {
        sorted[m]
    }
}

#[cfg(test)]
mod tests {
    // (Paths instead of a `use`: `benches/pile.rs` compiles this module too, without the
    // test harness, where the import would go unused.)
    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(super::median(&[1.0, 2.0, 7.0]), 2.0);
        assert_eq!(super::median(&[1.0, 2.0, 4.0, 9.0]), 3.0);
    }
}
