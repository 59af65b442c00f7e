//! `contactlab solver-compare`: every large-island law problem of one pile trajectory, recorded, then solved again under each candidate setting of the block-sparse solver.
//!
//! A pile's trajectory is chaotic, so comparing two solvers by running the pile twice
//! compares two different sets of problems. Here one run records its problems
//! ([`contactlab::laws::capture`]) and each setting solves exactly those, from the same warm
//! starts: converged count, time, iterations, and the largest multiplier against the free
//! motion's demand (the "growth": a converged answer with forces grown along W's null space
//! is no better than an unconverged one).

use std::time::Instant;

use contactlab::Simulation;
use contactlab::laws::LawSolver;
use contactlab::laws::anderson::MAX_DEPTH;
use contactlab::laws::capture::{SparseProblem, record};
use contactlab::laws::newton_krylov::KrylovOptions;
use contactlab::laws::sparse::{
    ANDERSON, HANDOVER, INCOMPLETE_CHOLESKY, LEVENBERG, PACKED, RESIDUAL_EVERY, ROUND_NEWTON,
    ROUND_SWEEPS, SparseOptions, WORKLIST,
};

/// What one setting did over all the problems.
struct Tally {
    converged: usize,
    seconds: f64,
    iterations: usize,
    worst_growth: f64,
    worst_residual: f64,
}

/// The settings of the block-sparse solver that the comparison varies.
#[derive(Clone, Copy)]
struct Variant {
    /// Levenberg–Marquardt factor of the Newton–Krylov rounds.
    levenberg: f64,
    /// The rounds' Newton steps and Krylov effort.
    round: KrylovOptions,
    /// Sweeps between two rounds.
    sweeps: usize,
    /// Anderson depth (0: off).
    anderson: usize,
    /// Sweeps between two evaluations of the residual.
    every: usize,
    /// MPRGP preconditioned by incomplete Cholesky (refactored past this fraction) or not.
    ic: Option<f64>,
    /// The sweeps' early handover to Newton (a pair's ratio) or none.
    handover: Option<f64>,
    /// A warm start relaxed on a worklist first (its threshold, a fraction of the
    /// tolerance) or not.
    worklist: Option<f64>,
    /// The products through the rows packed in windows (`packed_rows.rs`) or their entries.
    packed: bool,
}

/// A comma-separated list of `none` or fractions in (0, 1] for option `name`, whose
/// fraction means `meaning`.
fn none_or_fractions(name: &str, value: &str, meaning: &str) -> Result<Vec<Option<f64>>, String> {
    value
        .split(',')
        .map(|s| match s {
            "none" => Some(None),
            _ => s
                .parse::<f64>()
                .ok()
                .filter(|r| *r > 0.0 && *r <= 1.0)
                .map(Some),
        })
        .collect::<Option<Vec<Option<f64>>>>()
        .ok_or_else(|| {
            format!("{name}: 'none' or a fraction in (0, 1] ({meaning}) separated by commas, got '{value}'")
        })
}

/// One way to solve the recorded problems.
#[derive(Clone, Copy)]
enum Setting {
    /// The block-sparse solver so set.
    Sparse(Variant),
    /// W formed and solved densely (the small islands' solver): a reference.
    Dense(LawSolver),
}

impl Setting {
    /// The four columns that name it in its line of the table.
    fn columns(self) -> String {
        match self {
            Self::Sparse(v) => format!(
                "{} | {}/{}/{}/{} | {}{}{}{}{}{} | {}",
                v.levenberg,
                v.round.max_newton,
                v.round.max_inner,
                v.round.restart,
                v.round.stagnation,
                v.sweeps,
                if v.anderson > 0 {
                    format!(" (Anderson {})", v.anderson)
                } else {
                    String::new()
                },
                // The handover, named where it is not the shipped one.
                match v.handover {
                    h if h == HANDOVER => String::new(),
                    Some(h) => format!(" (handover past {h})"),
                    None => " (no handover)".to_string(),
                },
                // The worklist, named where it is not the shipped one.
                match v.worklist {
                    t if t == WORKLIST => String::new(),
                    Some(t) => format!(" (worklist past {t} of the tolerance)"),
                    None => " (no worklist)".to_string(),
                },
                // The rows' layout, named where it is not the shipped one.
                match v.packed {
                    p if p == PACKED => "",
                    true => " (rows packed)",
                    false => " (rows as entries)",
                },
                // MPRGP's preconditioner, named where it is not the shipped one.
                match v.ic {
                    ic if ic == INCOMPLETE_CHOLESKY => String::new(),
                    Some(t) => format!(" (MPRGP by IC refactored past {t})"),
                    None => " (MPRGP by Jacobi)".to_string(),
                },
                v.every
            ),
            Self::Dense(solver) => format!("dense {solver:?} | — | — | —"),
        }
    }
}

/// Solves every problem with the given setting; `list` prints one CSV line per problem on
/// stderr: the setting's columns, rows, converged (0 or 1), iterations, seconds, growth,
/// residual, contacts, and contacts whose own residual is above the tolerance.
fn tally(problems: &[SparseProblem], setting: Setting, list: bool) -> Tally {
    let mut t = Tally {
        converged: 0,
        seconds: 0.0,
        iterations: 0,
        worst_growth: 0.0,
        worst_residual: 0.0,
    };
    for p in problems {
        let start = Instant::now();
        let solution = match setting {
            Setting::Sparse(v) => p.solve(SparseOptions {
                levenberg: v.levenberg,
                round: v.round,
                round_sweeps: v.sweeps,
                anderson: v.anderson,
                residual_every: v.every,
                incomplete_cholesky: v.ic,
                handover: v.handover,
                worklist: v.worklist,
                packed: v.packed,
                ..SparseOptions::standard(&p.options)
            }),
            Setting::Dense(solver) => p.solve_dense(solver),
        };
        t.seconds += start.elapsed().as_secs_f64();
        t.iterations += solution.iterations;
        t.converged += usize::from(solution.converged);
        t.worst_growth = t.worst_growth.max(p.growth(&solution));
        t.worst_residual = t.worst_residual.max(solution.residual);
        if list {
            eprintln!(
                "problem,{},{},{},{},{:.3e},{:.3e},{:.3e},{},{}",
                setting.columns().replace(" | ", ","),
                p.problem.rows(),
                u8::from(solution.converged),
                solution.iterations,
                start.elapsed().as_secs_f64(),
                p.growth(&solution),
                solution.residual,
                p.problem.blocks.len(),
                p.blocks_above(&solution, p.options.tolerance)
            );
        }
    }
    t
}

/// Parses the options, records the trajectory's problems and solves them under each
/// setting; returns the Markdown table.
pub fn run(args: &[String]) -> Result<String, String> {
    let (mut preset, mut stepper) = ("pile".to_string(), "nsga".to_string());
    let (mut n, mut steps, mut every) = (100usize, 400usize, 1usize);
    // The first step whose problems are kept (a settled pile's, say); the run starts at 0.
    let mut from = 0usize;
    let (mut mu, mut resistance, mut list) = (None, false, false);
    let mut factors = vec![0.0, LEVENBERG];
    let mut rounds = vec![ROUND_NEWTON];
    let mut dense = None;
    let mut round_sweeps = vec![ROUND_SWEEPS];
    let mut depths = vec![ANDERSON];
    let mut residual_every = vec![RESIDUAL_EVERY];
    let mut preconditioners = vec![INCOMPLETE_CHOLESKY];
    let mut handovers = vec![HANDOVER];
    let mut worklists = vec![WORKLIST];
    let mut layouts = vec![PACKED];
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--resistance" {
            resistance = true;
            continue;
        }
        if a == "--list" {
            list = true;
            continue;
        }
        let value = it.next().ok_or_else(|| format!("{a} needs a value"))?;
        match a.as_str() {
            "--preset" => preset = value.clone(),
            "--stepper" => stepper = value.clone(),
            "--n" => {
                n = crate::cli_args::number_in(a, value, 1..=1000, "a whole number in [1, 1000]")?
            }
            "--steps" => {
                steps = crate::cli_args::number_in(
                    a,
                    value,
                    1..=100_000,
                    "a whole number in [1, 100000]",
                )?;
            }
            "--from" => {
                from =
                    crate::cli_args::number_in(a, value, 0..=1_000_000, "a step in [0, 1000000]")?;
            }
            "--every" => {
                every =
                    crate::cli_args::number_in(a, value, 1..=1000, "a whole number in [1, 1000]")?;
            }
            "--mu" => {
                mu = Some(crate::cli_args::number_in(
                    a,
                    value,
                    0.0..=f64::MAX,
                    "a friction coefficient ≥ 0",
                )?)
            }
            "--levenberg" => {
                factors = value
                    .split(',')
                    .map(|s| s.parse().ok().filter(|t: &f64| t.is_finite() && *t >= 0.0))
                    .collect::<Option<Vec<f64>>>()
                    .ok_or_else(|| {
                        format!("--levenberg: factors ≥ 0 separated by commas, got '{value}'")
                    })?;
            }
            "--round-sweeps" => {
                round_sweeps = crate::cli_args::whole_numbers("--round-sweeps", value, 1, 10_000)?;
            }
            "--residual-every" => {
                residual_every =
                    crate::cli_args::whole_numbers("--residual-every", value, 1, 1000)?;
            }
            "--mprgp" => {
                preconditioners = value
                    .split(',')
                    .map(|s| match s.strip_prefix("ic:") {
                        _ if s == "jacobi" => Some(None),
                        Some(t) => t
                            .parse::<f64>()
                            .ok()
                            .filter(|t| (0.0..=1.0).contains(t))
                            .map(Some),
                        None => None,
                    })
                    .collect::<Option<Vec<Option<f64>>>>()
                    .ok_or_else(|| {
                        format!("--mprgp: 'jacobi' or 'ic:F' (F in [0, 1], the fraction of rows that change sides before the factor is formed again) separated by commas, got '{value}'")
                    })?;
            }
            "--handover" => {
                handovers = none_or_fractions(
                    "--handover",
                    value,
                    "a pair of sweeps that keeps more of the residual ends the round's sweeps",
                )?;
            }
            "--worklist" => {
                worklists = none_or_fractions(
                    "--worklist",
                    value,
                    "a warm start's contacts whose residual is above that fraction of the tolerance are relaxed first",
                )?;
            }
            "--packed" => {
                layouts = value
                    .split(',')
                    .map(|s| match s {
                        "on" => Some(true),
                        "off" => Some(false),
                        _ => None,
                    })
                    .collect::<Option<Vec<bool>>>()
                    .ok_or_else(|| {
                        format!("--packed: 'on' (rows packed in windows of consecutive coordinates) or 'off' (through their entries) separated by commas, got '{value}'")
                    })?;
            }
            "--anderson" => {
                depths = crate::cli_args::whole_numbers("--anderson", value, 0, MAX_DEPTH)?
            }
            "--dense" => {
                dense = Some(match value.as_str() {
                    "newton" => LawSolver::Newton,
                    "lemke" => LawSolver::Lemke,
                    _ => {
                        return Err(format!(
                            "--dense: 'newton' or 'lemke' (W formed, the small islands' solver), got '{value}'"
                        ));
                    }
                })
            }
            "--rounds" => {
                rounds = value
                    .split(',')
                    .map(|s| {
                        let parts: Vec<&str> = s.split('/').collect();
                        let whole = |k: &str| k.parse::<usize>().ok().filter(|k| (1..=10_000).contains(k));
                        let stagnation = match parts.get(3) {
                            Some(f) => f.parse::<f64>().ok().filter(|f| *f > 0.0 && *f <= 1.0)?,
                            None => ROUND_NEWTON.stagnation,
                        };
                        if parts.len() > 4 {
                            return None;
                        }
                        Some(KrylovOptions {
                            max_newton: whole(parts.first()?)?,
                            max_inner: whole(parts.get(1)?)?,
                            restart: whole(parts.get(2)?)?,
                            stagnation,
                            ..ROUND_NEWTON
                        })
                    })
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| format!("--rounds: NEWTON/INNER/RESTART[/STAGNATION] (whole numbers in [1, 10000], a stagnation ratio in (0, 1]) separated by commas, got '{value}'"))?;
            }
            other => {
                return Err(format!(
                    "unknown option '{other}'; options: --preset, --stepper, --n, --steps, --from, --every, --mu, --resistance, --list, --levenberg, --rounds, --round-sweeps, --residual-every, --anderson, --mprgp, --dense"
                ));
            }
        }
    }
    if from >= steps {
        return Err(format!(
            "--from: a step in [0, {}] (before --steps {steps}), got {from}",
            steps - 1
        ));
    }
    let mut set = vec![("N".to_string(), n as f64)];
    if let Some(mu) = mu {
        set.push(("mu".into(), mu));
    }
    if resistance {
        set.push(("rho".into(), 1e-3));
        set.push(("gamma".into(), 1e-3));
    }
    let mut sim = Simulation::from_preset(&preset, &set).map_err(|e| e.to_string())?;
    sim.set_stepper(&stepper).map_err(|e| e.to_string())?;
    // Keep every `every`-th problem: a pile of 100 hands the solver about two a step, each a
    // few hundred kilobytes. Under NSGA those two are its velocity and position levels, so an
    // even `every` keeps mostly one level (the easier one, as it happened): use an odd one.
    let mut problems = Vec::new();
    let mut seen = 0usize;
    for done in 0..steps {
        let (result, recorded) = record(|| sim.step());
        result.map_err(|e| format!("{preset} N={n} {stepper}: step {done}: {e}"))?;
        for p in recorded {
            if seen.is_multiple_of(every) && done >= from {
                problems.push(p);
            }
            seen += 1;
        }
    }
    let mut out = format!(
        "{preset}, N = {n}, {stepper}, μ = {}, ρ = γ = {}, {steps} steps{}: {} of {seen} large-island problems\n\n| Levenberg–Marquardt factor | Newton steps / GMRES iterations / restart / stagnation ratio per round | sweeps per round (Anderson depth) | sweeps between residuals | converged | seconds | iterations | worst growth | worst residual |\n|---|---|---|---|---|---|---|---|---|\n",
        mu.map_or("the preset's".to_string(), |m| m.to_string()),
        if resistance { "1 mm" } else { "0" },
        if from > 0 {
            format!(" (kept from step {from})")
        } else {
            String::new()
        },
        problems.len()
    );
    let settings = factors
        .iter()
        .flat_map(|&f| rounds.iter().map(move |&r| (f, r)))
        .flat_map(|(f, r)| round_sweeps.iter().map(move |&k| (f, r, k)))
        .flat_map(|(f, r, k)| depths.iter().map(move |&m| (f, r, k, m)))
        .flat_map(|(f, r, k, m)| residual_every.iter().map(move |&e| (f, r, k, m, e)))
        .flat_map(|(f, r, k, m, e)| preconditioners.iter().map(move |&ic| (f, r, k, m, e, ic)))
        .flat_map(|(f, r, k, m, e, ic)| handovers.iter().map(move |&h| (f, r, k, m, e, ic, h)))
        .flat_map(
            |(levenberg, round, sweeps, anderson, every, ic, handover)| {
                worklists
                    .iter()
                    .flat_map(|&worklist| layouts.iter().map(move |&packed| (worklist, packed)))
                    .map(move |(worklist, packed)| {
                        Setting::Sparse(Variant {
                            levenberg,
                            round,
                            sweeps,
                            anderson,
                            every,
                            ic,
                            handover,
                            worklist,
                            packed,
                        })
                    })
            },
        )
        .chain(dense.map(Setting::Dense));
    for setting in settings {
        let t = tally(&problems, setting, list);
        out.push_str(&format!(
            "| {} | {} | {:.2} | {} | {:.1e} | {:.1e} |\n",
            setting.columns(),
            t.converged,
            t.seconds,
            t.iterations,
            t.worst_growth,
            t.worst_residual
        ));
        eprintln!("{}", out.lines().last().unwrap_or(""));
    }
    Ok(out)
}
