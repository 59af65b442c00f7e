//! The smooth contact forces of NSGA's predictor (issue 14's three levels): persistent contacts act inside the generalized-α step, so positions under lasting contact are second order.
//!
//! In the two-level scheme a contact acts only through the step's impulse Λ and the position
//! correction: the predictor moves a sphere rolling against rolling resistance as if it felt
//! no torque, and the impulse sets its velocity right at the end of the step. Velocities are
//! then exact, but positions carry the missing h²/2 ä of every step, which adds up to an
//! error of order h. Here the predictor solves, beside the joints, the acceleration-level
//! laws of the contacts that were *persistent* at the end of the last step (closed, loaded and
//! not separating):
//!
//! ```text
//!     M ä − f − Σ D_kᵀ λ_k = 0,      E_k ä + Ė_k v = 0
//! ```
//!
//! with one equation per law that holds (Pfeiffer & Glocker's acceleration-level contact
//! problem with the sliding directions known):
//!
//! - the **normal** law: E = J_N, g̈_N = 0 while λ_N ≥ 0; its force direction D = J_N plus, for
//!   each law *sliding* at the start of the step (slip, rolling or spinning at a speed above
//!   [`STICK_SPEED`]), the force that law then carries, −c λ_N ŝ·J (c = μ, ρ or γ, ŝ the unit
//!   direction of the relative motion);
//! - each **sticking** law: E = D = its rows (tangents, rolling axes, spin), the relative
//!   acceleration zero while the force stays inside its bound c λ_N.
//!
//! A contact whose normal force comes out negative leaves the set; a sticking law whose force
//! leaves its bound slides (in the direction that force pushes the relative motion), and the
//! predictor solves again ([`SmoothContacts::update`]).
//!
//! The velocity and position levels then work on the totals (Capobianco et al. 2021). The
//! velocity level finds the step's whole percussion P = Λ + d, d = h[(1 − γ)λ̄_n + γλ̄_{n+1}]
//! (λ̄ α-averaged like a; [`ContactMultipliers`]), by the impact, Coulomb and resistance laws,
//! from v̂ − M⁻¹J_{n+1}ᵀd: the part of the percussion the predicted velocity already holds is
//! taken out along the rows at q_{n+1}, so the exact velocity-level invariants of the
//! two-level scheme (5v₀/7, stop times, no creep) are untouched. The position level corrects
//! the gaps from the predicted positions with the smooth *normal* forces' displacement δ
//! taken out, so a persistent gap closes exactly (a normal force a little too large must not
//! leave it open), and its friction starts from the tangential motion −J_T δ that this
//! removal made. What the smooth forces change is the rest of the motion: a rolling sphere's
//! position, a sliding block's, a rocking bar's tilt, a runner's turn.
//!
//! When a law changes within a step (a sphere stops, a foot lifts, a block starts to slide),
//! the α-averaged acceleration remembers a force that no longer acts; the next step restarts
//! the recursion from the consistent acceleration at its start (`nsga.rs`). Beams keep two
//! levels for now (a rod's impact pulse lost 1.4 % of its length with smooth forces).
//!
//! The equations are solved densely with the joints' (their Schur complement, module
//! smooth_joints); a scene whose persistent contacts would add more than
//! [`super::smooth_joints::MAX_SMOOTH_EQUATIONS`] equations (a pile) keeps the two-level
//! scheme.

use std::collections::BTreeMap;

use nalgebra::DVector;
use smallvec::SmallVec;

use crate::contact::{Contact, ContactKey, ContactMaterial, JacobianRow};

/// A law counts as sticking at the start of a step when its relative speed is at most this
/// (m/s or rad/s): the velocity level holds a sticking law to rounding.
pub(super) const STICK_SPEED: f64 = 1e-9;

/// How one law of a persistent contact acts in the predictor.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Motion {
    /// No law (its coefficient is zero, or the contact has no such rows).
    Free,
    /// The relative motion is held: an equation per row.
    Stick,
    /// The relative motion goes along this unit direction (in the law's rows): the force is
    /// −c λ_N times it.
    Slide(Vec<f64>),
}

/// A persistent contact's three tangential laws.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Persistent {
    /// Coulomb friction on the tangent rows.
    pub friction: Motion,
    /// Rolling resistance on the rolling rows.
    pub rolling: Motion,
    /// Spinning resistance on the spin row.
    pub spin: Motion,
}

/// The laws of a contact: (rows, bound coefficient) for friction, rolling and spin.
fn laws<'a>(c: &'a Contact, material: &ContactMaterial) -> [(Vec<&'a JacobianRow>, f64); 3] {
    [
        (c.tangent_rows.iter().collect(), material.friction),
        (c.rolling_rows.iter().collect(), material.rolling_resistance),
        (c.spin_row.iter().collect(), material.spinning_resistance),
    ]
}

impl Persistent {
    /// The laws of `contact` at the end-of-step velocity `v`: sticking where the relative
    /// motion is within [`STICK_SPEED`], sliding along it elsewhere.
    pub(super) fn classify(
        contact: &Contact,
        material: &ContactMaterial,
        v: &DVector<f64>,
    ) -> Self {
        let [friction, rolling, spin] = laws(contact, material).map(|(rows, c)| {
            if rows.is_empty() || c <= 0.0 {
                return Motion::Free;
            }
            let u: Vec<f64> = rows.iter().map(|r| r.dot(v)).collect();
            let speed = u.iter().map(|x| x * x).sum::<f64>().sqrt();
            if speed <= STICK_SPEED {
                Motion::Stick
            } else {
                Motion::Slide(u.iter().map(|x| x / speed).collect())
            }
        });
        Self {
            friction,
            rolling,
            spin,
        }
    }

    fn motion_mut(&mut self, k: usize) -> &mut Motion {
        match k {
            0 => &mut self.friction,
            1 => &mut self.rolling,
            _ => &mut self.spin,
        }
    }
}

/// What an equation of a persistent contact holds.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Holds {
    /// g̈_N = 0 (λ_N ≥ 0).
    Normal,
    /// Row `row` of sticking law `law` (0 friction, 1 rolling, 2 spin).
    Stick { law: usize, row: usize },
}

/// One equation E ä + Ė v = 0 with its force direction D.
#[derive(Debug, Clone)]
pub(super) struct Equation {
    /// The contact it belongs to.
    pub key: ContactKey,
    /// E: the row the equation holds.
    pub row: JacobianRow,
    /// D: the generalized force per unit multiplier.
    pub force: JacobianRow,
    holds: Holds,
}

/// The persistent contacts of a step, by key, and the equations they give at a state.
#[derive(Debug, Clone, Default)]
pub(super) struct SmoothContacts {
    /// The persistent contacts and their laws.
    pub set: BTreeMap<ContactKey, Persistent>,
    /// The material whose coefficients bound the laws.
    pub material: ContactMaterial,
}

impl SmoothContacts {
    /// The equations of the persistent contacts among `contacts` (detected at the predicted
    /// state), in key order.
    pub(super) fn equations(&self, contacts: &[Contact]) -> Vec<Equation> {
        let mut out = Vec::new();
        for c in contacts.iter().filter(|c| !c.bilateral) {
            let Some(persistent) = self.set.get(&c.key) else {
                continue;
            };
            let bounds = [
                persistent.friction.clone(),
                persistent.rolling.clone(),
                persistent.spin.clone(),
            ];
            let rows: [Vec<&JacobianRow>; 3] = [
                c.tangent_rows.iter().collect(),
                c.rolling_rows.iter().collect(),
                c.spin_row.iter().collect(),
            ];
            // D_N = J_N − Σ over sliding laws c ŝ·J.
            let mut force = c.normal_row.clone();
            for ((motion, law_rows), coefficient) in
                bounds.iter().zip(&rows).zip(self.coefficients())
            {
                if let Motion::Slide(direction) = motion {
                    for (row, s) in law_rows.iter().zip(direction) {
                        force
                            .entries
                            .extend(row.entries.iter().map(|&(j, a)| (j, -coefficient * s * a)));
                    }
                }
            }
            out.push(Equation {
                key: c.key,
                row: c.normal_row.clone(),
                force,
                holds: Holds::Normal,
            });
            for (law, (motion, law_rows)) in bounds.iter().zip(&rows).enumerate() {
                if *motion == Motion::Stick {
                    for (k, row) in law_rows.iter().enumerate() {
                        out.push(Equation {
                            key: c.key,
                            row: (*row).clone(),
                            force: (*row).clone(),
                            holds: Holds::Stick { law, row: k },
                        });
                    }
                }
            }
        }
        out
    }

    /// (μ, ρ, γ) of the material.
    fn coefficients(&self) -> [f64; 3] {
        let m = &self.material;
        [m.friction, m.rolling_resistance, m.spinning_resistance]
    }

    /// Checks the predictor's multipliers `lambda` of `equations` against the laws: a
    /// contact pulling (λ_N < 0) leaves the set; a sticking law whose force exceeds c λ_N
    /// slides, in the direction its force pushes. True when the set changed (the predictor
    /// must solve again).
    pub(super) fn update(&mut self, equations: &[Equation], lambda: &[f64]) -> bool {
        let coefficients = self.coefficients();
        let mut changed = false;
        let mut normal: BTreeMap<ContactKey, f64> = BTreeMap::new();
        let mut forces: BTreeMap<(ContactKey, usize), Vec<f64>> = BTreeMap::new();
        for (e, &l) in equations.iter().zip(lambda) {
            match e.holds {
                Holds::Normal => {
                    normal.insert(e.key, l);
                }
                Holds::Stick { law, row } => {
                    let entry = forces.entry((e.key, law)).or_default();
                    entry.resize(entry.len().max(row + 1), 0.0);
                    entry[row] = l;
                }
            }
        }
        for (key, n) in &normal {
            if *n < 0.0 {
                self.set.remove(key);
                changed = true;
            }
        }
        for ((key, law), force) in forces {
            let Some(persistent) = self.set.get_mut(&key) else {
                continue;
            };
            let n = normal.get(&key).copied().unwrap_or(0.0);
            let size = force.iter().map(|x| x * x).sum::<f64>().sqrt();
            let bound = coefficients[law] * n;
            if size > bound * (1.0 + 1e-9) + 1e-12 {
                // The force needed to stick exceeds the bound: the law slides, its relative
                // motion opposite to that force.
                *persistent.motion_mut(law) =
                    Motion::Slide(force.iter().map(|x| -x / size).collect());
                changed = true;
            }
        }
        changed
    }

    /// True when some contact is persistent.
    pub(super) fn is_empty(&self) -> bool {
        self.set.is_empty()
    }
}

/// True when a contact entered or left the set, or one of its laws went from sticking to
/// sliding or back (a sliding direction that turns is no change).
pub(super) fn changed(
    before: &BTreeMap<ContactKey, Persistent>,
    after: &BTreeMap<ContactKey, Persistent>,
) -> bool {
    let kind = |m: &Motion| std::mem::discriminant(m);
    before.len() != after.len()
        || before.iter().zip(after).any(|((k1, p1), (k2, p2))| {
            k1 != k2
                || kind(&p1.friction) != kind(&p2.friction)
                || kind(&p1.rolling) != kind(&p2.rolling)
                || kind(&p1.spin) != kind(&p2.spin)
        })
}

/// The normal part Σ J_Nᵀ λ_N of the generalized forces of `equations` (the normal
/// equation's row E is J_N; its force D adds the sliding laws' part).
pub(super) fn normal_forces(equations: &[Equation], lambda: &[f64], dofs: usize) -> DVector<f64> {
    let mut normal = DVector::zeros(dofs);
    for (e, &l) in equations.iter().zip(lambda) {
        if e.holds == Holds::Normal {
            e.row.add_transpose_to(l, &mut normal);
        }
    }
    normal
}

/// A persistent contact's smooth multipliers laid out on its rows: the normal, then each law's
/// rows (friction's tangents, rolling axes, spin; empty for a law that does not act).
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct ContactMultipliers {
    /// λ_N.
    pub normal: f64,
    /// Each law's multipliers, one per row (at most two: kept inline).
    pub laws: [SmallVec<[f64; 2]>; 3],
}

impl ContactMultipliers {
    /// a·x + b·y, entry by entry (a missing law counts as zeros).
    pub(super) fn combine(a: f64, x: &Self, b: f64, y: &Self) -> Self {
        let law = |k: usize| {
            let n = x.laws[k].len().max(y.laws[k].len());
            (0..n)
                .map(|i| {
                    a * x.laws[k].get(i).copied().unwrap_or(0.0)
                        + b * y.laws[k].get(i).copied().unwrap_or(0.0)
                })
                .collect()
        };
        Self {
            normal: a * x.normal + b * y.normal,
            laws: [law(0), law(1), law(2)],
        }
    }

    /// out += s · Jᵀλ with the rows of `contact` (at whatever state it was detected).
    pub(super) fn add_force(&self, contact: &Contact, s: f64, out: &mut DVector<f64>) {
        contact.normal_row.add_transpose_to(s * self.normal, out);
        let rows: [&[JacobianRow]; 3] = [
            &contact.tangent_rows,
            &contact.rolling_rows,
            contact.spin_row.as_slice(),
        ];
        for (values, law_rows) in self.laws.iter().zip(rows) {
            for (x, row) in values.iter().zip(law_rows) {
                row.add_transpose_to(s * x, out);
            }
        }
    }
}

impl SmoothContacts {
    /// The multipliers of `equations` (solved as `lambda`) per contact, on its rows: a sliding
    /// law's are −c λ_N ŝ.
    pub(super) fn multipliers(
        &self,
        equations: &[Equation],
        lambda: &[f64],
    ) -> BTreeMap<ContactKey, ContactMultipliers> {
        let coefficients = self.coefficients();
        let mut out: BTreeMap<ContactKey, ContactMultipliers> = BTreeMap::new();
        for (e, &l) in equations.iter().zip(lambda) {
            let entry = out.entry(e.key).or_default();
            match e.holds {
                Holds::Normal => {
                    entry.normal = l;
                    if let Some(persistent) = self.set.get(&e.key) {
                        for (k, motion) in
                            [&persistent.friction, &persistent.rolling, &persistent.spin]
                                .into_iter()
                                .enumerate()
                        {
                            if let Motion::Slide(direction) = motion {
                                entry.laws[k] =
                                    direction.iter().map(|s| -coefficients[k] * l * s).collect();
                            }
                        }
                    }
                }
                Holds::Stick { law, row } => {
                    let values = &mut entry.laws[law];
                    values.resize(values.len().max(row + 1), 0.0);
                    values[row] = l;
                }
            }
        }
        out
    }
}
