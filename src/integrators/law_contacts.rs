//! Step reports for the steppers that use the augmented-Lagrangian laws (NSGA, spatial Moreau–Jean).

use nalgebra::DVector;

use super::{CLOSED_GAP, ContactReport, ContactState, JointReport, LawReport, classify};
use crate::contact::Contact;
use crate::laws::assembly::Assembled;
use crate::laws::{LawBlock, LawCases, LawSolution};

/// One island of a solved velocity-level problem: the stacking, the solution and each
/// contact's ġ_N(v_n).
pub(crate) struct SolvedImpulses<'a> {
    /// The contacts in the problem, in block order.
    pub contacts: Vec<&'a Contact>,
    /// Their stacking.
    pub problem: Assembled,
    /// The multipliers (impulses) and relative velocities.
    pub solution: LawSolution,
    /// Normal velocity before the step, per contact, m/s.
    pub approach: Vec<f64>,
}

impl SolvedImpulses<'_> {
    /// The multipliers of the island's contact number `index`, in law order.
    pub fn multipliers(&self, index: usize) -> &[f64] {
        let b = &self.problem.blocks[index];
        let len = 1 + b.tangents + b.rolling + b.spin;
        &self.solution.lambda.as_slice()[b.offset..b.offset + len]
    }
}

/// The law report of one contact from its block of a velocity-level solution.
pub(crate) fn law_report(
    block: &LawBlock,
    solution: &LawSolution,
    cases: LawCases,
    h: f64,
) -> LawReport {
    // The law's entries of v, divided by `divisor` (h turns an impulse into a mean force).
    let slice = |law: &crate::laws::BallLaw, v: &DVector<f64>, divisor: f64| {
        (law.start..law.start + law.len)
            .map(|k| v[k] / divisor)
            .collect::<super::LawValues>()
    };
    let [friction, rolling, spinning] = block.ball_laws();
    let case = if cases.open {
        "open"
    } else if cases.slipping {
        "slip"
    } else if cases.spinning {
        "spinning"
    } else if cases.rolling {
        "rolling"
    } else {
        "stick"
    };
    LawReport {
        slip: slice(&friction, &solution.u, 1.0),
        rolling: slice(&rolling, &solution.u, 1.0),
        spinning: slice(&spinning, &solution.u, 1.0)
            .first()
            .copied()
            .unwrap_or(0.0),
        friction_force: slice(&friction, &solution.lambda, h),
        rolling_torque: slice(&rolling, &solution.lambda, h),
        spinning_torque: slice(&spinning, &solution.lambda, h)
            .first()
            .copied()
            .unwrap_or(0.0),
        case,
    }
}

/// What the velocity-level solve needs besides the contacts: material, Newton settings and
/// the previous step's multipliers by contact (warm start; may be empty).
pub(crate) struct ImpulseSettings<'s> {
    /// Coefficients of the laws.
    pub material: &'s crate::contact::ContactMaterial,
    /// Semismooth Newton settings.
    pub newton: &'s crate::laws::NewtonOptions,
    /// Which solver (Lemke and PGS apply to one-dimensional laws; Newton to all).
    pub solver: crate::laws::LawSolver,
    /// Warm start.
    pub warm: &'s super::warm_start::WarmStart,
    /// Warm-start small (densely solved) islands too; large ones always are.
    pub warm_small: bool,
}

/// The velocity-level laws on `contacts`, island by island: v⁺ = v_free + M⁻¹ Gᵀ Λ with
/// Newton's impact law on ġ_N(v_before). Writes the velocity change M⁻¹ Gᵀ Λ into `dv`
/// (resized, zero outside the islands' bodies) and returns the islands.
pub(crate) fn solve_impulses<'a>(
    system: &crate::model::System,
    contacts: &[&'a Contact],
    (v_free, v_before): (&DVector<f64>, &DVector<f64>),
    settings: &ImpulseSettings,
    report: &mut super::StepReport,
    dv: &mut DVector<f64>,
) -> SolvedIslands<'a> {
    use crate::laws::assembly::{Laws, assemble, islands};
    let (material, options, warm) = (settings.material, settings.newton, settings.warm);
    crate::linalg::buffers::zeroed_vector(dv, system.dofs());
    let mut solved = SolvedIslands::empty();
    // The free relative velocities and the warm start, one buffer each for every island
    // (and kept on this thread from step to step).
    crate::linalg::buffers::with_scratch(&IMPULSE_WORK, |(u_free, guess)| {
        for group in islands(system.mass(), contacts).iter() {
            let (mut members, mut approach) = take_island_lists();
            members.extend(group.iter().map(|&k| contacts[k]));
            let problem = assemble(
                system.mass(),
                &members,
                material,
                Laws {
                    friction: true,
                    resistance: true,
                },
            );
            problem.relative_into(v_free, u_free);
            approach.extend(members.iter().map(|c| c.normal_row.dot(v_before)));
            crate::linalg::buffers::zeroed_vector(guess, u_free.len());
            let use_warm =
                settings.warm_small || problem.rows() > crate::laws::assembly::DENSE_ROWS;
            for ((b, &u), c) in problem.blocks.iter().zip(&approach).zip(&members) {
                if b.bilateral {
                    u_free[b.offset] += c.rate_bias;
                } else {
                    u_free[b.offset] += material.restitution * u.min(0.0);
                }
                if let Some(prev) = warm.get(&c.key).filter(|_| use_warm)
                    && prev.len() == 1 + b.tangents + b.rolling + b.spin
                {
                    for (k, x) in prev.iter().enumerate() {
                        guess[b.offset + k] = *x;
                    }
                }
            }
            let solution = problem.solve(settings.solver, u_free, Some(guess), options);
            report.record_solve(
                super::StepSolver::of_laws(solution.method),
                solution.iterations,
                solution.residual,
                solution.converged,
            );
            problem.add_velocity_change(&solution.lambda, dv);
            solved.islands.push(SolvedImpulses {
                contacts: members,
                problem,
                solution,
                approach,
            });
        }
    });
    solved
}

thread_local! {
    /// The free relative velocities and the warm start of [`solve_impulses`].
    static IMPULSE_WORK: crate::linalg::buffers::ScratchPool<(DVector<f64>, DVector<f64>)> =
        const { std::cell::RefCell::new(Vec::new()) };
    /// The contact and approach lists of dropped islands (the contacts' for any lifetime,
    /// see [`crate::linalg::buffers::recycled`]).
    static SPARE_ISLAND_LISTS: crate::linalg::buffers::ScratchPool<(Vec<&'static Contact>, Vec<f64>)> =
        const { std::cell::RefCell::new(Vec::new()) };
    /// The lists of islands of dropped [`SolvedIslands`].
    static SPARE_SOLVED: crate::linalg::buffers::ScratchPool<Vec<SolvedImpulses<'static>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Island lists kept for reuse: a pile on a floor is one island per bottom sphere (a
/// hundred for a pile of a thousand), and a step holds its islands until it reports them.
const SPARE_ISLAND_LIST_SETS: usize = 1024;

/// Empty contact and approach lists, from a dropped island's storage when there is one.
fn take_island_lists<'a>() -> (Vec<&'a Contact>, Vec<f64>) {
    let (contacts, mut approach) = crate::linalg::buffers::take_spare(&SPARE_ISLAND_LISTS);
    approach.clear();
    (contacts, approach)
}

impl Drop for SolvedImpulses<'_> {
    fn drop(&mut self) {
        let storage = (
            crate::linalg::buffers::recycled(std::mem::take(&mut self.contacts)),
            std::mem::take(&mut self.approach),
        );
        crate::linalg::buffers::give_back(&SPARE_ISLAND_LISTS, storage, SPARE_ISLAND_LIST_SETS);
    }
}

/// The islands of one velocity-level solve ([`solve_impulses`]); read as a slice. Dropped,
/// its list goes back to this thread's store for the next step.
pub(crate) struct SolvedIslands<'a> {
    islands: Vec<SolvedImpulses<'a>>,
}

impl SolvedIslands<'_> {
    /// No islands, in a dropped list's storage when there is one.
    pub(crate) fn empty() -> Self {
        Self {
            islands: crate::linalg::buffers::take_spare(&SPARE_SOLVED),
        }
    }
}

impl<'a> std::ops::Deref for SolvedIslands<'a> {
    type Target = [SolvedImpulses<'a>];

    fn deref(&self) -> &Self::Target {
        &self.islands
    }
}

impl Drop for SolvedIslands<'_> {
    fn drop(&mut self) {
        // The islands give their own storage back as they drop, the last first: the stores
        // are stacks, so the next step's first island takes this step's first island's
        // storage, and a settled scene's islands find lists as long as they need.
        while let Some(island) = self.islands.pop() {
            drop(island);
        }
        let list = crate::linalg::buffers::recycled(std::mem::take(&mut self.islands));
        crate::linalg::buffers::give_back(&SPARE_SOLVED, list, 4);
    }
}

/// Reports for every contact in `contacts` at the end-of-step velocities `v`.
pub(crate) fn report_contacts(
    contacts: &[Contact],
    solved: &[SolvedImpulses],
    v: &DVector<f64>,
    h: f64,
    impact_velocity: f64,
) -> Vec<ContactReport> {
    // Where each solved contact sits: (island, index in it), sorted by key and found in
    // O(log n) (one vector, where a map allocated a node per eleven contacts; kept on this
    // thread from step to step).
    let mut place = crate::linalg::buffers::take_spare(&REPORT_PLACES);
    place.clear();
    place.extend(solved.iter().enumerate().flat_map(|(i, s)| {
        s.contacts
            .iter()
            .enumerate()
            .map(move |(k, c)| (c.key, (i, k)))
    }));
    place.sort_unstable_by_key(|&(key, _)| key);
    let mut reports = super::spare_contact_reports();
    reports.extend(contacts.iter().filter(|c| !c.bilateral).map(|c| {
        let mut out = ContactReport {
            key: c.key,
            gap: c.gap,
            gap_rate: c.normal_row.dot(v),
            normal: 0.0,
            impulse: 0.0,
            friction: 0.0,
            state: ContactState::Open,
            point: c.point.to_array(),
            direction: c.normal.to_array(),
            laws: None,
        };
        let Ok(at) = place.binary_search_by_key(&c.key, |&(key, _)| key) else {
            return out;
        };
        let (island, k) = place[at].1;
        let s = &solved[island];
        let b = &s.problem.blocks[k];
        let p = s.solution.lambda[b.offset];
        let laws = law_report(b, &s.solution, s.solution.cases[k], h);
        out.impulse = p;
        out.normal = p / h;
        out.friction = match laws.friction_force.as_slice() {
            [single] => *single,
            many => many.iter().map(|x| x * x).sum::<f64>().sqrt(),
        };
        out.state = classify(
            p > 0.0 && s.approach[k] < -impact_velocity,
            out.normal,
            c.gap <= CLOSED_GAP,
        );
        out.laws = Some(laws);
        out
    }));
    crate::linalg::buffers::give_back(&REPORT_PLACES, place, 1);
    reports
}

thread_local! {
    /// The solved contacts' places of [`report_contacts`].
    static REPORT_PLACES: crate::linalg::buffers::ScratchPool<Vec<(crate::contact::ContactKey, (usize, usize))>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Reports for every joint whose equations are among `contacts`: g and ġ of each equation at
/// the end of the step and the reaction on body A, Σ (Λ_k / h + λ_k) e_k: the step's impulse
/// as a mean force plus the `smooth` reactions λ of NSGA's predictor (by key; none for
/// Moreau–Jean).
pub(crate) fn report_joints(
    contacts: &[Contact],
    solved: &[SolvedImpulses],
    v: &DVector<f64>,
    h: f64,
    smooth: &[(crate::contact::ContactKey, f64)],
) -> Vec<JointReport> {
    if !contacts.iter().any(|c| c.bilateral) {
        return Vec::new();
    }
    // The smooth reactions (NSGA's predictor) by key; the step's impulse adds to them.
    let smooth: std::collections::BTreeMap<_, f64> = smooth.iter().copied().collect();
    let impulse: std::collections::BTreeMap<crate::contact::ContactKey, f64> = solved
        .iter()
        .flat_map(|s| {
            s.contacts
                .iter()
                .zip(&s.problem.blocks)
                .map(|(c, b)| (c.key, s.solution.lambda[b.offset]))
        })
        .collect();
    let mut out: Vec<JointReport> = Vec::new();
    for c in contacts.iter().filter(|c| c.bilateral) {
        let (joint, _) = crate::contact::joint_rows::joint_of(&c.key);
        if out.last().is_none_or(|r| r.joint != joint) {
            out.push(JointReport {
                joint,
                constraint: Vec::new(),
                rate: Vec::new(),
                reaction: [0.0; 3],
                torque: 0.0,
            });
        }
        let report = out.last_mut().expect("pushed above");
        report.constraint.push(c.gap);
        report.rate.push(c.normal_row.dot(v) + c.rate_bias);
        let force = impulse.get(&c.key).copied().unwrap_or(0.0) / h
            + smooth.get(&c.key).copied().unwrap_or(0.0);
        match c.kinematics {
            crate::geometry::GapKinematics::Rotation => report.torque += force,
            // A hinge's axis equations in space hold its bending moments (not reported).
            crate::geometry::GapKinematics::AxisPair { .. } => {}
            _ => {
                for (r, n) in report.reaction.iter_mut().zip(c.normal.to_array()) {
                    *r += force * n;
                }
            }
        }
    }
    out.sort_by_key(|r| r.joint);
    out
}
