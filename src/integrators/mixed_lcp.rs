//! The acceleration stepper's problems with joints in them: a mixed complementarity problem, equalities on the joints' rows and the LCP on the contacts', solved through the Schur complement of the joints' block.
//!
//! With the rows split into bilateral (b, a joint's equations) and unilateral (u, contacts),
//!
//! ```text
//!     w = W z + q,    w_b = 0 (z_b free),    0 ≤ z_u ⟂ w_u ≥ 0,
//! ```
//!
//! the equalities give z_b = −W_bb⁺ (q_b + W_bu z_u), and the contacts then solve the LCP
//!
//! ```text
//!     S = W_uu − W_ub W_bb⁺ W_bu,    q' = q_u − W_ub W_bb⁺ q_b,    0 ≤ z_u ⟂ S z_u + q' ≥ 0,
//! ```
//!
//! S being the contacts' Delassus operator of the mechanism (what a contact can move once the
//! joints hold). W_bb⁺ is the pseudo-inverse: redundant joint equations (a closed loop held
//! twice) leave W_bb singular, and the smallest-norm multipliers hold them all the same.

use nalgebra::{DMatrix, DVector};

use crate::error::{Error, Result};
use crate::lcp::{Lcp, LcpSolution};

/// z of the mixed problem (module docs) for `w`, `q` and which rows are `bilateral`; the
/// contacts' LCP goes to `solve_lcp`, which names it `what` in an error.
pub(super) fn solve_mixed(
    w: &DMatrix<f64>,
    q: &DVector<f64>,
    bilateral: &[bool],
    what: &str,
    solve_lcp: &mut dyn FnMut(&Lcp) -> Result<LcpSolution>,
) -> Result<DVector<f64>> {
    let b: Vec<usize> = (0..q.len()).filter(|&i| bilateral[i]).collect();
    let u: Vec<usize> = (0..q.len()).filter(|&i| !bilateral[i]).collect();
    let block = |rows: &[usize], cols: &[usize]| {
        DMatrix::from_fn(rows.len(), cols.len(), |i, j| w[(rows[i], cols[j])])
    };
    let part = |rows: &[usize]| DVector::from_fn(rows.len(), |i, _| q[rows[i]]);
    let w_bb = block(&b, &b);
    let scale = w_bb.amax().max(f64::MIN_POSITIVE);
    let inverse = w_bb.pseudo_inverse(1e-12 * scale).map_err(|e| {
        Error::Solver(format!(
            "the {what} problem's joint block has no pseudo-inverse ({e}); the step was not taken"
        ))
    })?;
    let (q_b, w_bu) = (part(&b), block(&b, &u));
    let z_u = if u.is_empty() {
        DVector::zeros(0)
    } else {
        let w_ub = block(&u, &b);
        let schur = block(&u, &u) - &w_ub * &inverse * &w_bu;
        let reduced = part(&u) - &w_ub * &inverse * &q_b;
        let sol = solve_lcp(&Lcp::for_contacts(schur, reduced, what)?)?;
        DVector::from_vec(sol.z)
    };
    let z_b = -(&inverse * (q_b + &w_bu * &z_u));
    let mut z = DVector::zeros(q.len());
    for (k, &i) in b.iter().enumerate() {
        z[i] = z_b[k];
    }
    for (k, &i) in u.iter().enumerate() {
        z[i] = z_u[k];
    }
    Ok(z)
}
