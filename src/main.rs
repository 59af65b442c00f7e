//! The native CLI: list presets, run a scene and print its trace, solve an LCP, benchmark.
//!
//! Exit status: 0 success; 2 bad input (the message names the field and the allowed range);
//! 3 the run finished but some steps (or the LCP) did not reach their solver's tolerance, so
//! the forces printed for them are not trustworthy (one line on stderr says how many and the
//! worst residual); 4 the run stopped early because a step failed (the samples before it
//! were printed).

use std::io::{BufWriter, Read, Write};
use std::process::ExitCode;

use contactlab::lcp::{self, Lcp, LcpSolverKind, LcpStatus, PgsOptions};
use contactlab::trace::CsvLayout;
use contactlab::{Error, Simulation, presets};

mod alloc_count;
mod bench;
mod bench_pile;
mod cli_args;
mod soak;
mod solver_compare;

// (Native only: in WebAssembly the library sets Talc, and the CLI is never run there.)
#[cfg(not(target_arch = "wasm32"))]
#[global_allocator]
static ALLOCATOR: alloc_count::Counting = alloc_count::Counting;

/// Why a command did not succeed, with its exit status.
enum Failure {
    /// Bad input: exit 2.
    Input(String),
    /// The command ran, but its answer is not trustworthy: exit 3.
    NotConverged(String),
    /// A step failed part-way: exit 4.
    Stopped(String),
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure::Input(message)
    }
}

impl From<&str> for Failure {
    fn from(message: &str) -> Self {
        Failure::Input(message.to_string())
    }
}

/// Commands write here as they go; a closed pipe (`| head`) ends the output quietly.
type Out<'a> = &'a mut dyn Write;

/// Writes `text`; false once the reader has gone away.
fn emit(out: Out, text: &str) -> bool {
    out.write_all(text.as_bytes()).is_ok()
}

const USAGE: &str = "usage:
  contactlab presets
  contactlab scene <preset> [--set NAME=VALUE]...     (the preset as a scene file)
  contactlab run <preset|scene.json> [--set NAME=VALUE]... [--stepper NAME] [--dt H]
                 [--duration T] [--every K] [--format jsonl|csv|digest] [--solver lemke|pgs]
  contactlab modes <preset|scene.json> [--set NAME=VALUE]... [--stepper NAME] [--dt H]
                   [--measure T]
  contactlab sweep <preset> --param NAME --values V1,V2,... [--set NAME=VALUE]...
                   [--stepper NAME] [--dt H] [--duration T]
  contactlab lcp <file.json|->
  contactlab bench [--quick] [--json]
  contactlab bench-pile [--n 10,100,1000] [--steppers nsga,moreau-jean] [--presets pile,pile-2d]
                        [--steps 1000] [--budget SECONDS] [--repeat 1] [--resistance] [--boxes] [--sleep]
                        [--sleep-speed M/S] [--sleep-time S] [--tolerance T] [--max-sweeps K]
                        [--velocity-sweeps K] [--gap-tolerance M] [--margin M] [--mu M]
                        [--trace FILE]
  contactlab solver-compare [--preset pile] [--n 100] [--stepper nsga] [--steps 400] [--from 0]
                            [--every 1]
                            [--mu M] [--resistance] [--list] [--levenberg 0,10]
                            [--rounds 10/200/50,20/100/50] [--round-sweeps 50,100]
                            [--residual-every 1,2] [--anderson 0,8] [--dense newton|lemke]
  contactlab soak [--steps N] [--preset NAME] [--stepper NAME]   (long runs; exit 3 if any fails or gains energy)";

const COMMANDS: &str =
    "presets, scene, run, modes, sweep, lcp, bench, bench-pile, solver-compare, soak, help";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let result = dispatch(&args, &mut out);
    let _ = out.flush();
    let (message, code) = match result {
        Ok(()) => return ExitCode::SUCCESS,
        Err(Failure::Input(m)) => (m, 2),
        Err(Failure::NotConverged(m)) => (m, 3),
        Err(Failure::Stopped(m)) => (m, 4),
    };
    eprintln!("contactlab: {}", message.replace('\n', " "));
    ExitCode::from(code)
}

fn dispatch(args: &[String], out: Out) -> Result<(), Failure> {
    let text = match args.first().map(String::as_str) {
        Some("presets") => list_presets(),
        Some("scene") => {
            let o = parse_run(&args[1..])?;
            format!("{}\n", build_simulation(&o)?.scene().to_json())
        }
        Some("run") => return run(&args[1..], out),
        Some("lcp") => return solve_lcp(&args[1..], out),
        Some("modes") => modes(&args[1..])?,
        Some("sweep") => sweep(&args[1..])?,
        Some("soak") => return soak(&args[1..], out),
        Some("bench-pile") => bench_pile::run(&args[1..])?,
        Some("solver-compare") => solver_compare::run(&args[1..])?,
        Some("bench") => {
            let quick = args.iter().any(|a| a == "--quick");
            if args.iter().any(|a| a == "--json") {
                bench::run_json(quick)
            } else {
                bench::run(quick)
            }
        }
        Some("-h") | Some("--help") | Some("help") => format!("{USAGE}\n"),
        Some(other) => {
            return Err(format!("unknown command '{other}'; commands: {COMMANDS}").into());
        }
        None => return Err(format!("no command given; commands: {COMMANDS} (see --help)").into()),
    };
    emit(out, &text);
    Ok(())
}

fn list_presets() -> String {
    let mut out = String::new();
    for p in presets::all() {
        out.push_str(&format!("{}\n  {}\n", p.name, p.description));
        for q in p.parameters {
            out.push_str(&format!(
                "  --set {}=… {} [{}] range [{}, {}] default {}\n",
                q.name, q.label, q.unit, q.min, q.max, q.default
            ));
        }
    }
    out
}

/// Options of `run`, `modes` and `sweep`.
#[derive(Clone)]
struct RunOptions {
    target: String,
    sets: Vec<(String, f64)>,
    stepper: Option<String>,
    dt: Option<f64>,
    duration: Option<f64>,
    every: usize,
    csv: bool,
    digest: bool,
    solver: Option<String>,
    measure: Option<f64>,
    param: Option<String>,
    values: Vec<f64>,
}

fn parse_run(args: &[String]) -> Result<RunOptions, String> {
    let mut o = RunOptions {
        target: String::new(),
        sets: vec![],
        stepper: None,
        dt: None,
        duration: None,
        every: 1,
        csv: false,
        digest: false,
        solver: None,
        measure: None,
        param: None,
        values: vec![],
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |flag: &str| -> Result<String, String> {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match a.as_str() {
            "--set" => {
                let kv = value("--set")?;
                let (k, v) = kv
                    .split_once('=')
                    .ok_or_else(|| format!("--set {kv}: expected NAME=VALUE"))?;
                o.sets
                    .push((k.to_string(), number(&format!("--set {k}"), v)?));
            }
            "--stepper" => o.stepper = Some(value("--stepper")?),
            "--solver" => o.solver = Some(value("--solver")?),
            "--dt" => o.dt = Some(number("--dt", &value("--dt")?)?),
            "--duration" => {
                let d = number("--duration", &value("--duration")?)?;
                if !(0.0..=1e5).contains(&d) {
                    return Err(format!("--duration: must be in [0, 100000] s, got {d}"));
                }
                o.duration = Some(d);
            }
            "--every" => {
                let v = value("--every")?;
                o.every = v
                    .parse()
                    .ok()
                    .filter(|&k: &usize| k >= 1)
                    .ok_or_else(|| format!("--every: must be an integer >= 1, got '{v}'"))?;
            }
            "--format" => match value("--format")?.as_str() {
                "jsonl" => o.csv = false,
                "csv" => o.csv = true,
                "digest" => o.digest = true,
                f => return Err(format!("--format: must be jsonl, csv or digest, got '{f}'")),
            },
            "--measure" => {
                let d = number("--measure", &value("--measure")?)?;
                if !(0.0..=100.0).contains(&d) {
                    return Err(format!("--measure: must be in [0, 100] s, got {d}"));
                }
                o.measure = Some(d);
            }
            "--param" => o.param = Some(value("--param")?),
            "--values" => {
                let list = value("--values")?;
                o.values = list
                    .split(',')
                    .map(|v| number("--values", v))
                    .collect::<Result<_, _>>()?;
            }
            flag if flag.starts_with("--") => {
                return Err(format!(
                    "unknown option '{flag}'; options: --set, --stepper, --dt, --duration, --every, --format, --solver, --measure, --param, --values"
                ));
            }
            t if o.target.is_empty() => o.target = t.to_string(),
            extra => return Err(format!("unexpected argument '{extra}'")),
        }
    }
    if o.target.is_empty() {
        return Err("run: name a preset or a scene.json file (see `contactlab presets`)".into());
    }
    Ok(o)
}

fn number(what: &str, text: &str) -> Result<f64, String> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{what}: '{text}' is not a number"))?;
    if !v.is_finite() {
        return Err(format!("{what}: must be a finite number, got '{text}'"));
    }
    Ok(v)
}

/// The simulation the options describe: preset or scene file, stepper, solver, time step.
fn build_simulation(o: &RunOptions) -> Result<Simulation, String> {
    let e = |e: Error| e.to_string();
    let path = std::path::Path::new(&o.target);
    let mut sim = if o.target.ends_with(".json") || path.exists() {
        if !o.sets.is_empty() {
            return Err("--set applies to presets only; edit the scene file instead".into());
        }
        let text = std::fs::read_to_string(&o.target)
            .map_err(|err| format!("cannot read {}: {err}", o.target))?;
        Simulation::from_json(&text).map_err(|err| format!("{}: {err}", o.target))?
    } else {
        Simulation::from_preset(&o.target, &o.sets).map_err(e)?
    };
    if let Some(s) = &o.stepper {
        sim.set_stepper(s).map_err(e)?;
    }
    if let Some(s) = &o.solver {
        let spec = sim.scene().stepper.clone();
        sim.set_lcp_solver(s, spec.pgs_max_iterations, spec.pgs_tolerance)
            .map_err(e)?;
    }
    if let Some(h) = o.dt {
        sim.set_time_step(h).map_err(e)?;
    }
    Ok(sim)
}

/// Exit 3 with one line when some steps of the run did not converge.
fn check_converged(sim: &Simulation) -> Result<(), Failure> {
    let (steps, worst) = sim.unconverged_steps();
    if steps == 0 {
        return Ok(());
    }
    Err(Failure::NotConverged(format!(
        "{steps} of {} steps did not converge (worst relative residual {}); their forces are not trustworthy",
        sim.steps(),
        contactlab::error::fmt_number(worst)
    )))
}

/// `run`: streams one sample every `every` steps (JSON lines or CSV), or only the digest;
/// nothing is kept in memory but the current state.
fn run(args: &[String], out: Out) -> Result<(), Failure> {
    let o = parse_run(args)?;
    let mut sim = build_simulation(&o)?;
    let duration = o.duration.unwrap_or(sim.scene().duration);
    let steps = sim.steps_for(duration);
    let every = o.every.max(1);
    let stopped = |k: usize, e: Error| {
        Failure::Stopped(format!(
            "step {k} of {steps} failed: {e}; the run stopped there"
        ))
    };
    if o.digest {
        for k in 1..=steps {
            sim.step().map_err(|e| stopped(k, e))?;
        }
        // The same 16-hex-digit trace digest the page and the figures show.
        emit(out, &format!("{:016x}\n", sim.digest()));
        return check_converged(&sim);
    }
    let layout = if o.csv {
        // The header names a column for every contact that appears, so a first pass (the
        // run is deterministic) collects the ids without keeping any sample.
        let mut probe = build_simulation(&o)?;
        let mut ids: Vec<String> = Vec::new();
        for k in 1..=steps {
            probe.step().map_err(|e| stopped(k, e))?;
            if k % every == 0 {
                for c in &probe.last_report().contacts {
                    let id = probe.contact_id(c.key);
                    if !ids.contains(&id) {
                        ids.push(id);
                    }
                }
            }
        }
        let layout = CsvLayout {
            bodies: sim.body_layouts(),
            contacts: ids,
            joints: sim.system().joints.iter().map(|j| j.name.clone()).collect(),
        };
        if !emit(out, &layout.header()) {
            return Ok(());
        }
        Some(layout)
    } else {
        None
    };
    for k in 1..=steps {
        sim.step().map_err(|e| stopped(k, e))?;
        if k % every == 0 {
            // The JSON lines carry the modes; the CSV has no column for them.
            let line = match &layout {
                Some(layout) => layout.row(&sim.sample()),
                None => format!("{}\n", sim.sample_with_modes().to_json_line()),
            };
            if !emit(out, &line) {
                return Ok(());
            }
        }
    }
    check_converged(&sim)
}

/// `soak`: every preset × accepted stepper for N steps (default 10⁶); Markdown table on stdout.
fn soak(args: &[String], out: Out) -> Result<(), Failure> {
    let mut steps = 1_000_000u64;
    let (mut preset, mut stepper) = (None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let value = it.next().ok_or_else(|| format!("{a} needs a value"))?;
        match a.as_str() {
            "--steps" => {
                steps = value
                    .parse()
                    .ok()
                    .filter(|&n: &u64| (1..=100_000_000).contains(&n))
                    .ok_or_else(|| {
                        format!("--steps: must be a whole number in [1, 100000000], got '{value}'")
                    })?;
            }
            "--preset" => preset = Some(value.clone()),
            "--stepper" => stepper = Some(value.clone()),
            other => {
                return Err(format!(
                    "unknown option '{other}'; options: --steps, --preset, --stepper"
                )
                .into());
            }
        }
    }
    let (table, bad) = soak::run(steps, preset.as_deref(), stepper.as_deref());
    emit(out, &table);
    if bad > 0 {
        return Err(Failure::NotConverged(format!(
            "{bad} soak runs failed or gained energy beyond the tolerance (see the table)"
        )));
    }
    Ok(())
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct LcpInput {
    #[serde(rename = "W")]
    w: Vec<Vec<f64>>,
    b: Vec<f64>,
    #[serde(default)]
    solver: Option<String>,
    #[serde(default)]
    max_iterations: Option<u64>,
    #[serde(default)]
    tolerance: Option<f64>,
}

fn solve_lcp(args: &[String], out: Out) -> Result<(), Failure> {
    let source = args
        .first()
        .ok_or("lcp: give a JSON file or - for standard input")?;
    let text = if source == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|err| format!("cannot read standard input: {err}"))?;
        s
    } else {
        std::fs::read_to_string(source).map_err(|err| format!("cannot read {source}: {err}"))?
    };
    let input: LcpInput = serde_json::from_str(&text).map_err(|err| format!("JSON: {err}"))?;
    let problem = Lcp::from_rows(&input.w, &input.b).map_err(|err| err.to_string())?;
    let kind = match &input.solver {
        Some(s) => LcpSolverKind::parse(s).map_err(|err| err.to_string())?,
        None => LcpSolverKind::Lemke,
    };
    let defaults = PgsOptions::default();
    let max_iterations = contactlab::error::check_count(
        "max_iterations",
        input
            .max_iterations
            .unwrap_or(defaults.max_iterations as u64),
        1,
        lcp::MAX_PGS_ITERATIONS as u64,
    )
    .map_err(|err| err.to_string())?;
    let tolerance = contactlab::error::check_range(
        "tolerance",
        input.tolerance.unwrap_or(defaults.tolerance),
        0.0,
        1.0,
    )
    .map_err(|err| err.to_string())?;
    let options = PgsOptions {
        max_iterations,
        tolerance,
    };
    lcp::check_size(problem.len(), kind, &options).map_err(|err| err.to_string())?;
    let solution = lcp::solve(&problem, kind, &options);
    emit(
        out,
        &format!(
            "{}\n",
            serde_json::to_string(&solution).map_err(|err| err.to_string())?
        ),
    );
    match solution.status {
        LcpStatus::NotConverged | LcpStatus::Inaccurate => Err(Failure::NotConverged(format!(
            "the LCP is {} (relative residual {}): z is not an answer",
            solution.status.label(),
            contactlab::error::fmt_number(solution.relative_residual)
        ))),
        LcpStatus::Solved | LcpStatus::NoSolution => Ok(()),
    }
}

/// `modes`: the coupled penalty-contact modes at the scene's initial state.
fn modes(args: &[String]) -> Result<String, Failure> {
    let o = parse_run(args)?;
    let mut sim = build_simulation(&o)?;
    let analysis = sim.modes();
    let omega_max = analysis.omega_max();
    let h_limit: serde_json::Map<String, serde_json::Value> =
        contactlab::integrators::STEPPER_NAMES
            .iter()
            .map(|name| {
                let m = &sim.contact_settings().material;
                let limit = contactlab::modes::time_step_limit(
                    name,
                    &analysis.omega,
                    m.stiffness,
                    m.damping,
                );
                (
                    name.to_string(),
                    limit.map_or(serde_json::Value::Null, Into::into),
                )
            })
            .collect();
    let mut out = serde_json::to_value(&analysis).map_err(|e| e.to_string())?;
    out["h_limit"] = h_limit.into();
    out["h"] = sim.time_step().into();
    out["h_omega_max"] = (sim.time_step() * omega_max).into();
    out["h_omega_bound"] = (sim.time_step() * sim.omega_max_bound()).into();
    out["stepper"] = sim.stepper_name().into();
    out["stability"] = contactlab::modes::stability_note(sim.stepper_name()).into();
    if let Some(duration) = o.measure {
        let m = contactlab::measure::measure_run(&mut sim, duration).map_err(|e| e.to_string())?;
        out["measured_omega"] =
            serde_json::to_value(&m.measured_omega).map_err(|e| e.to_string())?;
    }
    Ok(format!("{out}\n"))
}

/// `sweep`: one measured run per value of a parameter (or of `dt`), one JSON line each.
fn sweep(args: &[String]) -> Result<String, Failure> {
    let o = parse_run(args)?;
    let param = o.param.clone().ok_or("sweep: --param NAME is required")?;
    if o.values.is_empty() {
        return Err("sweep: --values V1,V2,... is required".into());
    }
    let mut out = String::new();
    for &value in &o.values {
        let mut options = o.clone();
        if param == "dt" {
            options.dt = Some(value);
        } else {
            options.sets.retain(|(n, _)| *n != param);
            options.sets.push((param.clone(), value));
        }
        let mut sim = build_simulation(&options)?;
        let duration = o.duration.unwrap_or(sim.scene().duration);
        let m = contactlab::measure::measure_run(&mut sim, duration).map_err(|e| e.to_string())?;
        let mut line = serde_json::to_value(&m).map_err(|e| e.to_string())?;
        line["param"] = param.clone().into();
        line["value"] = value.into();
        out.push_str(&format!("{line}\n"));
    }
    Ok(out)
}
