//! Step reports for the steppers that use the augmented-Lagrangian laws (NSGA, spatial Moreau–Jean).

use nalgebra::DVector;

use super::{ContactReport, ContactState, FORCE_TOLERANCE, LawReport};
use crate::contact::ContactRows;
use crate::laws::assembly::Assembled;
use crate::laws::{LawBlock, LawCases, LawSolution};

/// A solved velocity-level problem: the stacking, the solution and each contact's ġ_N(v_n).
pub(crate) struct SolvedImpulses<'a> {
    /// The contacts in the problem, in block order.
    pub contacts: Vec<&'a ContactRows>,
    /// Their stacking.
    pub problem: Assembled,
    /// The multipliers (impulses) and relative velocities.
    pub solution: LawSolution,
    /// Normal velocity before the step, per contact, m/s.
    pub approach: Vec<f64>,
}

impl SolvedImpulses<'_> {
    /// The multipliers of the contact with `key`, in law order, if it took part.
    pub fn multipliers(&self, index: usize) -> Vec<f64> {
        let b = &self.problem.blocks[index];
        let len = 1 + b.tangents + b.rolling + b.spin;
        (0..len)
            .map(|i| self.solution.lambda[b.offset + i])
            .collect()
    }
}

/// The law report of one contact from its block of a velocity-level solution.
pub(crate) fn law_report(
    block: &LawBlock,
    solution: &LawSolution,
    cases: LawCases,
    h: f64,
) -> LawReport {
    let o = block.offset;
    let slice = |start: usize, len: usize, v: &DVector<f64>| {
        (start..start + len).map(|k| v[k]).collect::<Vec<f64>>()
    };
    let t0 = o + 1;
    let r0 = t0 + block.tangents;
    let s0 = r0 + block.rolling;
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
        slip: slice(t0, block.tangents, &solution.u),
        rolling: slice(r0, block.rolling, &solution.u),
        spinning: if block.spin > 0 { solution.u[s0] } else { 0.0 },
        friction_force: slice(t0, block.tangents, &solution.lambda)
            .iter()
            .map(|x| x / h)
            .collect(),
        rolling_torque: slice(r0, block.rolling, &solution.lambda)
            .iter()
            .map(|x| x / h)
            .collect(),
        spinning_torque: if block.spin > 0 {
            solution.lambda[s0] / h
        } else {
            0.0
        },
        case,
    }
}

/// Reports for every contact in `contacts` at the end-of-step velocities `v`.
pub(crate) fn report_contacts(
    contacts: &[ContactRows],
    solved: Option<&SolvedImpulses>,
    v: &DVector<f64>,
    h: f64,
    impact_velocity: f64,
) -> Vec<ContactReport> {
    contacts
        .iter()
        .map(|c| {
            let mut out = ContactReport {
                key: c.key,
                gap: c.gap,
                gap_rate: c.normal.dot(v),
                normal: 0.0,
                impulse: 0.0,
                friction: 0.0,
                state: ContactState::Open,
                point: c.point.to_array(),
                direction: c.direction.to_array(),
                laws: None,
            };
            let Some(s) = solved else { return out };
            let Some(k) = s.contacts.iter().position(|x| x.key == c.key) else {
                return out;
            };
            let b = &s.problem.blocks[k];
            let p = s.solution.lambda[b.offset];
            let laws = law_report(b, &s.solution, s.solution.cases[k], h);
            out.impulse = p;
            out.normal = p / h;
            out.friction = match laws.friction_force.as_slice() {
                [single] => *single,
                many => many.iter().map(|x| x * x).sum::<f64>().sqrt(),
            };
            out.state = if p > 0.0 && s.approach[k] < -impact_velocity {
                ContactState::Impact
            } else if out.normal > FORCE_TOLERANCE {
                ContactState::Loaded
            } else if c.gap <= 1e-9 {
                ContactState::Touching
            } else {
                ContactState::Open
            };
            out.laws = Some(laws);
            out
        })
        .collect()
}
