//! The native CLI: list presets, run a scene and print its trace, solve an LCP, benchmark.

use std::io::Read;
use std::process::ExitCode;

use contactlab::lcp::{self, Lcp, LcpSolverKind, PgsOptions};
use contactlab::{Error, Simulation, presets};

mod bench;

const USAGE: &str = "usage:
  contactlab presets
  contactlab run <preset|scene.json> [--set NAME=VALUE]... [--stepper NAME] [--dt H]
                 [--duration T] [--every K] [--format jsonl|csv|digest] [--solver lemke|pgs]
  contactlab modes <preset|scene.json> [--set NAME=VALUE]... [--stepper NAME] [--dt H]
                   [--measure T]
  contactlab sweep <preset> --param NAME --values V1,V2,... [--set NAME=VALUE]...
                   [--stepper NAME] [--dt H] [--duration T]
  contactlab lcp <file.json|->
  contactlab bench [--quick] [--json]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match dispatch(&args) {
        Ok(out) => {
            use std::io::Write;
            // A closed pipe (`| head`) is not an error worth a panic.
            let _ = std::io::stdout().lock().write_all(out.as_bytes());
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("contactlab: {}", message.replace('\n', " "));
            ExitCode::from(2)
        }
    }
}

fn dispatch(args: &[String]) -> Result<String, String> {
    match args.first().map(String::as_str) {
        Some("presets") => Ok(list_presets()),
        Some("run") => run(&args[1..]),
        Some("lcp") => solve_lcp(&args[1..]),
        Some("modes") => modes(&args[1..]),
        Some("sweep") => sweep(&args[1..]),
        Some("bench") => {
            let quick = args.iter().any(|a| a == "--quick");
            if args.iter().any(|a| a == "--json") {
                Ok(bench::run_json(quick))
            } else {
                Ok(bench::run(quick))
            }
        }
        Some("-h") | Some("--help") | Some("help") => Ok(format!("{USAGE}\n")),
        Some(other) => Err(format!(
            "unknown command '{other}'; commands: presets, run, lcp, bench"
        )),
        None => Err("no command given; commands: presets, run, lcp, bench (see --help)".into()),
    }
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
    let mut sim = if o.target.ends_with(".json") || std::path::Path::new(&o.target).is_file() {
        if !o.sets.is_empty() {
            return Err("--set applies to presets only; edit the scene file instead".into());
        }
        let text = std::fs::read_to_string(&o.target)
            .map_err(|err| format!("cannot read {}: {err}", o.target))?;
        Simulation::from_json(&text).map_err(e)?
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

fn run(args: &[String]) -> Result<String, String> {
    let o = parse_run(args)?;
    let e = |e: Error| e.to_string();
    let mut sim = build_simulation(&o)?;
    let duration = o.duration.unwrap_or(sim.scene().duration);
    let steps = sim.steps_for(duration);
    let trace = sim.run(steps, o.every).map_err(e)?;
    if o.digest {
        // The same 16-hex-digit trace digest the page and the figures show.
        return Ok(format!("{:016x}\n", sim.digest()));
    }
    if o.csv {
        Ok(trace.to_csv())
    } else {
        let mut out = String::new();
        for s in &trace.samples {
            out.push_str(&s.to_json_line());
            out.push('\n');
        }
        Ok(out)
    }
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
    max_iterations: Option<usize>,
    #[serde(default)]
    tolerance: Option<f64>,
}

fn solve_lcp(args: &[String]) -> Result<String, String> {
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
    let options = PgsOptions {
        max_iterations: input
            .max_iterations
            .unwrap_or(defaults.max_iterations)
            .max(1),
        tolerance: input.tolerance.unwrap_or(defaults.tolerance),
    };
    if !(0.0..=1.0).contains(&options.tolerance) {
        return Err(format!(
            "tolerance: must be in [0, 1], got {}",
            options.tolerance
        ));
    }
    let solution = lcp::solve(&problem, kind, &options);
    Ok(format!(
        "{}\n",
        serde_json::to_string(&solution).map_err(|err| err.to_string())?
    ))
}

/// `modes`: the coupled penalty-contact modes at the scene's initial state.
fn modes(args: &[String]) -> Result<String, String> {
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
fn sweep(args: &[String]) -> Result<String, String> {
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
