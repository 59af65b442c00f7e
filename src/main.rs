//! The native CLI: list presets, run a scene and print its trace, solve an LCP, benchmark.

use std::io::Read;
use std::process::ExitCode;

use contactlab::lcp::{self, Lcp, LcpSolverKind, PgsOptions};
use contactlab::{Error, Simulation, presets};

mod bench;

const USAGE: &str = "usage:
  contactlab presets
  contactlab run <preset|scene.json> [--set NAME=VALUE]... [--stepper NAME] [--dt H]
                 [--duration T] [--every K] [--format jsonl|csv] [--solver lemke|pgs]
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

/// Options of `run`.
struct RunOptions {
    target: String,
    sets: Vec<(String, f64)>,
    stepper: Option<String>,
    dt: Option<f64>,
    duration: Option<f64>,
    every: usize,
    csv: bool,
    solver: Option<String>,
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
        solver: None,
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
                f => return Err(format!("--format: must be jsonl or csv, got '{f}'")),
            },
            flag if flag.starts_with("--") => {
                return Err(format!(
                    "unknown option '{flag}'; run takes --set, --stepper, --dt, --duration, --every, --format, --solver"
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

fn run(args: &[String]) -> Result<String, String> {
    let o = parse_run(args)?;
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
    let duration = o.duration.unwrap_or(sim.scene().duration);
    let steps = sim.steps_for(duration);
    let trace = sim.run(steps, o.every).map_err(e)?;
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
