//! The Delassus matrix W = J M⁻¹ Jᵀ, dense or as a matrix-free operator for PGS.

use nalgebra::DMatrix;

use super::JacobianRow;
use crate::lcp::DelassusOperator;
use crate::model::BlockDiagonalMass;

/// Above this many rows [`Delassus::dense`] scatters and visits only the row pairs that
/// share a body; below it, that setup costs more than it saves (measured on the piles of 10
/// with callgrind).
const LISTED_ROWS: usize = 16;

/// Rows J and the matching M⁻¹ Jᵀ columns, ready for W products.
#[derive(Clone, Default)]
pub struct Delassus {
    rows: Vec<JacobianRow>,
    inverse_mass_rows: Vec<JacobianRow>,
    diagonal: Vec<f64>,
    dofs: usize,
}

impl Delassus {
    /// Prepares W for the given rows; O(rows) work, W itself is not formed.
    pub fn new(mass: &BlockDiagonalMass, rows: Vec<JacobianRow>) -> Self {
        let mut delassus = Self {
            rows,
            ..Self::default()
        };
        delassus.refill(mass);
        delassus
    }

    /// Prepares W again, in this one's storage, for rows that `write` appends to the
    /// emptied row list: a solver that assembles an island every step then allocates
    /// nothing for it once the storage has grown.
    pub fn reuse(&mut self, mass: &BlockDiagonalMass, write: impl FnOnce(&mut Vec<JacobianRow>)) {
        self.rows.clear();
        write(&mut self.rows);
        self.refill(mass);
    }

    /// M⁻¹ Jᵀ and the diagonal from the current rows.
    fn refill(&mut self, mass: &BlockDiagonalMass) {
        self.inverse_mass_rows.clear();
        self.inverse_mass_rows
            .extend(self.rows.iter().map(|r| mass.inverse_times_row(r)));
        self.diagonal.clear();
        self.diagonal.extend(
            self.rows
                .iter()
                .zip(&self.inverse_mass_rows)
                .map(|(r, m)| r.dot_sorted_row(m)),
        );
        self.dofs = mass.dofs();
    }

    /// The rows J.
    pub fn rows(&self) -> &[JacobianRow] {
        &self.rows
    }

    /// M⁻¹ Jᵢᵀ for each row.
    pub fn inverse_mass_rows(&self) -> &[JacobianRow] {
        &self.inverse_mass_rows
    }

    /// The dense W (n×n, 1/kg for normal rows).
    ///
    /// Up to `LISTED_ROWS` (16) rows, each Wᵢⱼ = Jᵢ · (M⁻¹ Jⱼᵀ) by
    /// [`JacobianRow::dot_sorted_row`]. Above, column j scatters M⁻¹ Jⱼᵀ into a generalized
    /// vector (zero elsewhere) and visits only the rows that share an index with it (the
    /// others are +0), each summed over its entries in order: the entries it does not share
    /// add products ±0 to a sum that starts at +0, which change nothing, so both ways give
    /// the same W bit for bit (for finite rows: a non-finite state is an error before any
    /// solve).
    pub fn dense(&self) -> DMatrix<f64> {
        let mut w = DMatrix::zeros(0, 0);
        self.dense_into(&mut w);
        w
    }

    /// [`Self::dense`] into `w`, reshaped (its storage kept when large enough).
    pub fn dense_into(&self, w: &mut DMatrix<f64>) {
        let n = self.rows.len();
        crate::linalg::buffers::sized_matrix(w, n, n);
        if n <= LISTED_ROWS {
            for j in 0..n {
                for i in 0..n {
                    w[(i, j)] = self.rows[i].dot_sorted_row(&self.inverse_mass_rows[j]);
                }
            }
            return;
        }
        w.fill(0.0);
        crate::linalg::buffers::with_scratch(&DENSE_WORK, |work| {
            let DenseWork {
                scattered,
                start,
                next,
                rows_at,
                done_for,
                ..
            } = work;
            crate::linalg::buffers::zeroed(scattered, self.dofs);
            self.rows_at_each_index(start, next, rows_at);
            done_for.clear();
            done_for.resize(n, usize::MAX);
            for (j, column) in self.inverse_mass_rows.iter().enumerate() {
                for &(k, m) in &column.entries {
                    scattered[k] = m;
                }
                for &(k, _) in &column.entries {
                    for &i in &rows_at[start[k]..start[k + 1]] {
                        if done_for[i] == j {
                            continue;
                        }
                        done_for[i] = j;
                        let mut s = 0.0;
                        for &(index, a) in &self.rows[i].entries {
                            s += a * scattered[index];
                        }
                        w[(i, j)] = s;
                    }
                }
                for &(k, _) in &column.entries {
                    scattered[k] = 0.0;
                }
            }
        });
    }

    /// The degrees of freedom the rows act on: the generalized-velocity indices where a
    /// column of M⁻¹ Gᵀ has an entry. W = G M⁻¹ Gᵀ has rank at most this, so more rows than
    /// it make W singular for certain (a box resting on four corners: twelve rows, six
    /// degrees of freedom). O(entries), allocating nothing once its marks have grown.
    pub fn coupled_dofs(&self) -> usize {
        crate::linalg::buffers::with_scratch(&DENSE_WORK, |work| {
            let seen = &mut work.seen;
            if seen.len() < self.dofs {
                seen.resize(self.dofs, false);
            }
            let mut count = 0;
            for column in &self.inverse_mass_rows {
                for &(k, _) in &column.entries {
                    if !seen[k] {
                        seen[k] = true;
                        count += 1;
                    }
                }
            }
            for column in &self.inverse_mass_rows {
                for &(k, _) in &column.entries {
                    seen[k] = false;
                }
            }
            count
        })
    }

    /// Into (start, rows_at): the rows with an entry at generalized-velocity index k are
    /// rows_at[start[k]..start[k + 1]], ascending (compressed by index); `next` is work.
    fn rows_at_each_index(
        &self,
        start: &mut Vec<usize>,
        next: &mut Vec<usize>,
        rows_at: &mut Vec<usize>,
    ) {
        start.clear();
        start.resize(self.dofs + 1, 0);
        for row in &self.rows {
            for &(k, _) in &row.entries {
                start[k + 1] += 1;
            }
        }
        for k in 0..self.dofs {
            start[k + 1] += start[k];
        }
        next.clone_from(start);
        rows_at.clear();
        rows_at.resize(start[self.dofs], 0);
        for (i, row) in self.rows.iter().enumerate() {
            for &(k, _) in &row.entries {
                rows_at[next[k]] = i;
                next[k] += 1;
            }
        }
    }
}

/// The work lists of [`Delassus::dense_into`], kept on this thread from call to call.
#[derive(Default)]
struct DenseWork {
    /// One column of M⁻¹ Gᵀ scattered into a generalized vector.
    scattered: Vec<f64>,
    /// The rows at each generalized-velocity index (compressed), and its fill pointers.
    start: Vec<usize>,
    next: Vec<usize>,
    rows_at: Vec<usize>,
    /// The column each row was last computed for.
    done_for: Vec<usize>,
    /// Which generalized-velocity indices [`Delassus::coupled_dofs`] has counted.
    seen: Vec<bool>,
}

thread_local! {
    static DENSE_WORK: crate::linalg::buffers::ScratchPool<DenseWork> =
        const { std::cell::RefCell::new(Vec::new()) };
}

impl DelassusOperator for Delassus {
    fn rows(&self) -> usize {
        self.rows.len()
    }
    fn work_len(&self) -> usize {
        self.dofs
    }
    fn diagonal(&self, i: usize) -> f64 {
        self.diagonal[i]
    }
    fn row_dot(&self, i: usize, u: &[f64]) -> f64 {
        self.rows[i].dot_slice(u)
    }
    fn add_column(&self, i: usize, dz: f64, u: &mut [f64]) {
        self.inverse_mass_rows[i].add_transpose_to_slice(dz, u);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::detect_contacts;

    /// W by scattering against the row-by-row products, bit for bit, for the rows (normal
    /// and tangents) of every contact and joint of `preset` within `margin`, repeated until
    /// there are more than `LISTED_ROWS`; returns (rows, zero entries).
    fn check_scattered_w(preset: &str, set: &[(String, f64)], margin: f64) -> (usize, usize) {
        let sim = crate::Simulation::from_preset(preset, set).unwrap();
        let system = sim.system();
        let contacts = detect_contacts(system, &system.q, margin);
        let once: Vec<JacobianRow> = contacts
            .iter()
            .flat_map(|c| std::iter::once(&c.normal_row).chain(&c.tangent_rows))
            .cloned()
            .collect();
        assert!(!once.is_empty(), "{preset}: no rows");
        let mut rows = once.clone();
        while rows.len() <= LISTED_ROWS {
            rows.extend(once.iter().cloned());
        }
        let delassus = Delassus::new(system.mass(), rows);
        let w = delassus.dense();
        let mut zeros = 0;
        for i in 0..w.nrows() {
            for j in 0..w.ncols() {
                let reference = delassus.rows()[i].dot_sorted_row(&delassus.inverse_mass_rows()[j]);
                assert_eq!(
                    w[(i, j)].to_bits(),
                    reference.to_bits(),
                    "{preset}: W[{i}, {j}]"
                );
                zeros += usize::from(reference == 0.0);
            }
        }
        (w.nrows(), zeros)
    }

    /// Above `LISTED_ROWS`, the scattered W must equal the row products bit for bit (the
    /// zeros it adds cannot change a sum), the zeros between bodies that share nothing
    /// included.
    #[test]
    fn scattered_dense_equals_row_products_bit_for_bit() {
        // The pile's lattice: 2 cm gaps inside the 3 cm margin, so neighbours are contacts;
        // most pairs of rows share no body, so the skipped entries are really tested.
        let (rows, zeros) = check_scattered_w("pile", &[("N".to_string(), 30.0)], 0.03);
        assert!(rows > 3 * LISTED_ROWS, "{rows} rows");
        assert!(zeros > rows * rows / 2, "{zeros} zeros of {}", rows * rows);
        // A beam's consistent mass makes M⁻¹Jᵀ wider than J (every node of the rod): the
        // rows of the joints at its ends then share indices that J alone does not show.
        check_scattered_w("flexible-slider-crank", &[], 0.0);
    }

    /// The degrees of freedom the rows of one body resting on a floor act on: a cube on its
    /// four corners, each a normal and two tangents, acts on all six (twelve rows: W is
    /// singular); a sphere's normal passes through its centre and its tangents turn it about
    /// the two horizontal axes only, so its three rows act on five (its spin about the
    /// normal is untouched).
    #[test]
    fn coupled_dofs_count_what_the_rows_move() {
        let body = |shape: &str, z: f64| {
            format!(
                r#"{{"gravity": [0, 0, -9.81], "material": {{"friction": 1}},
                    "spatial_bodies": [
                        {{"name": "floor", "fixed": true, "shape": {{"type": "plane"}}}},
                        {{"name": "b", "mass": 1, "position": [0, 0, {z}], "shape": {shape}}}],
                    "stepper": {{"kind": "nsga", "dt": 0.004}}}}"#
            )
        };
        for (shape, z, rows, dofs) in [
            (r#"{"type": "box", "size": [0.1, 0.1, 0.1]}"#, 0.05, 12, 6),
            (r#"{"type": "sphere", "radius": 0.05}"#, 0.05, 3, 5),
        ] {
            let sim = crate::Simulation::from_json(&body(shape, z)).unwrap();
            let system = sim.system();
            let contacts = detect_contacts(system, &system.q, 1e-3);
            let all: Vec<JacobianRow> = contacts
                .iter()
                .flat_map(|c| std::iter::once(&c.normal_row).chain(&c.tangent_rows))
                .cloned()
                .collect();
            let delassus = Delassus::new(system.mass(), all);
            assert_eq!(delassus.rows().len(), rows, "{shape}: rows");
            assert_eq!(delassus.coupled_dofs(), dofs, "{shape}: degrees of freedom");
            // Counted twice in a row: the marks are cleared after each count.
            assert_eq!(delassus.coupled_dofs(), dofs, "{shape}: counted again");
        }
    }
}
