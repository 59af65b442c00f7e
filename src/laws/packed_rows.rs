//! A block-sparse problem's rows packed in windows of three or six consecutive velocity coordinates, so that the sweeps' products read and write w = M⁻¹ Gᵀ λ without an index per entry.
//!
//! Every product of the block-sparse solver is one of two kinds: a gather
//! u_i = G_i · w (a row against the velocity change) and a scatter w += s · M⁻¹ G_iᵀ.
//! A [`crate::contact::JacobianRow`] stores (coordinate, coefficient) pairs, so each
//! entry costs an index load and a bounds check besides its multiply-add. A contact's row
//! touches at most two bodies, and a body's coordinates are consecutive (three in the
//! plane, six in space), so the row fits in at most two windows of W consecutive
//! coordinates, W = 3 where that suffices (a planar body, a translation in space: a round
//! contact's normal row) and 6 otherwise:
//!
//! ```text
//!     G_i · w = Σ_k Σ_{j<W} g_i[k][j] · w[s_k + j],     w[s_k .. s_k + W] += s · m_i[k]
//! ```
//!
//! with g_i and m_i the coefficients of G_i and M⁻¹G_iᵀ over the windows (zeros where the
//! row has none). A window is one slice bounds check and W multiply-adds that the
//! compiler lays out straight; on a pile's rows the gather and scatter cost about half as
//! much natively and two thirds in wasm (a stand-alone comparison of the two layouts over
//! 2147 contacts of three rows, windows of six: 41 against 20 ns a contact natively, 48
//! against 34 in Node). Rows that do not fit two windows (a beam's, a joint's) keep their entries and
//! the old products.
//!
//! The packing is built once per solve (one pass over the rows). A gather sums window by
//! window in coordinate order, and a zero coefficient's product adds nothing; so where a
//! row's entries ascend (a pile's rows do) the products are bit for bit those of the
//! entries, and the pinned digests of the piles of 30 held. A row listed in another order
//! sums in another order, and rounds differently.

use crate::contact::JacobianRow;

/// Consecutive velocity coordinates in a wide window: a body in space.
const WIDTH: usize = 6;

/// Consecutive velocity coordinates in a narrow window: a body in the plane, or a
/// translation in space (a round contact's normal row).
const NARROW: usize = 3;

/// Where a row's windows start.
#[derive(Debug, Clone, Copy, Default)]
struct Windows {
    /// 0 (the row is not packed), 1 or 2.
    count: u8,
    /// [`NARROW`] or [`WIDTH`].
    width: u8,
    start: [usize; 2],
}

/// Coefficients over a row's two windows.
type Coefficients = [[f64; WIDTH]; 2];

/// The packed rows of one problem, kept by the solver between solves.
#[derive(Debug, Default)]
pub(super) struct PackedRows {
    windows: Vec<Windows>,
    /// Per row, G_i over its windows.
    g: Vec<Coefficients>,
    /// Per row, M⁻¹ G_iᵀ over its windows.
    m: Vec<Coefficients>,
}

impl PackedRows {
    /// Packs `rows` and their M⁻¹-weighted `inverse_mass_rows` over `dofs` coordinates,
    /// reusing the storage; with `enabled` false every row keeps its entries (the products
    /// as before the packing, for comparison).
    pub(super) fn pack(
        &mut self,
        rows: &[JacobianRow],
        inverse_mass_rows: &[JacobianRow],
        dofs: usize,
        enabled: bool,
    ) {
        self.windows.clear();
        self.g.clear();
        self.m.clear();
        for (row, weighted) in rows.iter().zip(inverse_mass_rows) {
            let windows = if enabled {
                let narrow = windows_of(row, weighted, dofs, NARROW);
                if narrow.count > 0 {
                    narrow
                } else {
                    windows_of(row, weighted, dofs, WIDTH)
                }
            } else {
                Windows::default()
            };
            let (mut g, mut m) = ([[0.0; WIDTH]; 2], [[0.0; WIDTH]; 2]);
            if windows.count > 0 {
                spread(row, &windows, &mut g);
                spread(weighted, &windows, &mut m);
            }
            self.windows.push(windows);
            self.g.push(g);
            self.m.push(m);
        }
    }
}

/// The windows of `width` coordinates of a row: greedy over its weighted row's
/// coordinates (which ascend, as [`crate::model::BlockDiagonalMass::inverse_times_row`]
/// makes them), each window starting at the first coordinate not yet covered (moved back so
/// that it ends within the `dofs` coordinates). M⁻¹ is block-diagonal by body, so G_i's own
/// coordinates are those bodies' too; a row with one outside the windows, or whose
/// coordinates need more than two windows, is not packed (a count of 0). No sorting: the
/// packing costs a pass over the entries.
fn windows_of(row: &JacobianRow, weighted: &JacobianRow, dofs: usize, width: usize) -> Windows {
    let unpacked = Windows::default();
    if dofs < width {
        return unpacked;
    }
    let mut windows = Windows {
        width: width as u8,
        ..Windows::default()
    };
    for &(j, _) in &weighted.entries {
        if j >= dofs {
            return unpacked;
        }
        if covering(&windows, j).is_some() {
            continue;
        }
        if windows.count == 2 {
            return unpacked;
        }
        windows.start[usize::from(windows.count)] = j.min(dofs - width);
        windows.count += 1;
    }
    if row
        .entries
        .iter()
        .any(|&(j, _)| covering(&windows, j).is_none())
    {
        return unpacked;
    }
    windows
}

/// The first of the windows that covers coordinate `j`.
fn covering(windows: &Windows, j: usize) -> Option<usize> {
    let width = usize::from(windows.width);
    (0..usize::from(windows.count))
        .find(|&k| (windows.start[k]..windows.start[k] + width).contains(&j))
}

/// A row's coefficients laid over its windows (each coordinate in the first window that
/// covers it; a coordinate that repeats adds up).
fn spread(row: &JacobianRow, windows: &Windows, out: &mut Coefficients) {
    for &(j, a) in &row.entries {
        let k = covering(windows, j).expect("every coordinate of a packed row is in a window");
        out[k][j - windows.start[k]] += a;
    }
}

/// G_i · w over a row's windows of `W` coordinates.
#[inline(always)]
fn dot_windows<const W: usize>(g: &Coefficients, windows: &Windows, w: &[f64]) -> f64 {
    let mut s = 0.0;
    for (coefficients, &start) in g
        .iter()
        .zip(&windows.start)
        .take(usize::from(windows.count))
    {
        let part: &[f64; W] = w[start..start + W]
            .try_into()
            .expect("a window lies within the coordinates");
        for (a, x) in coefficients.iter().zip(part) {
            s += a * x;
        }
    }
    s
}

/// w += s · M⁻¹ G_iᵀ over a row's windows of `W` coordinates.
#[inline(always)]
fn add_windows<const W: usize>(m: &Coefficients, windows: &Windows, s: f64, w: &mut [f64]) {
    for (coefficients, &start) in m
        .iter()
        .zip(&windows.start)
        .take(usize::from(windows.count))
    {
        let part: &mut [f64; W] = (&mut w[start..start + W])
            .try_into()
            .expect("a window lies within the coordinates");
        for (x, a) in part.iter_mut().zip(coefficients) {
            *x += s * a;
        }
    }
}

/// The rows of one solve: packed where they fit, their entries where not.
#[derive(Clone, Copy)]
pub(super) struct Rows<'a> {
    packed: &'a PackedRows,
    rows: &'a [JacobianRow],
    inverse_mass_rows: &'a [JacobianRow],
}

impl<'a> Rows<'a> {
    /// The view of `packed`, which must have been packed from these rows.
    pub(super) fn new(
        packed: &'a PackedRows,
        rows: &'a [JacobianRow],
        inverse_mass_rows: &'a [JacobianRow],
    ) -> Self {
        debug_assert_eq!(packed.windows.len(), rows.len());
        Self {
            packed,
            rows,
            inverse_mass_rows,
        }
    }

    /// The number of rows.
    pub(super) fn len(&self) -> usize {
        self.rows.len()
    }

    /// G_i · w.
    #[inline]
    pub(super) fn dot(&self, i: usize, w: &[f64]) -> f64 {
        let windows = &self.packed.windows[i];
        match (windows.count, usize::from(windows.width)) {
            (0, _) => self.rows[i].dot_slice(w),
            (_, NARROW) => dot_windows::<NARROW>(&self.packed.g[i], windows, w),
            _ => dot_windows::<WIDTH>(&self.packed.g[i], windows, w),
        }
    }

    /// w += s · M⁻¹ G_iᵀ.
    #[inline]
    pub(super) fn add(&self, i: usize, s: f64, w: &mut [f64]) {
        let windows = &self.packed.windows[i];
        match (windows.count, usize::from(windows.width)) {
            (0, _) => self.inverse_mass_rows[i].add_transpose_to_slice(s, w),
            (_, NARROW) => add_windows::<NARROW>(&self.packed.m[i], windows, s, w),
            _ => add_windows::<WIDTH>(&self.packed.m[i], windows, s, w),
        }
    }

    /// w = M⁻¹ Gᵀ λ, written into `w`.
    pub(super) fn velocity_change(&self, lambda: &[f64], w: &mut [f64]) {
        w.fill(0.0);
        for (i, &l) in lambda.iter().enumerate() {
            if l != 0.0 {
                self.add(i, l, w);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deterministic numbers in [−1, 1).
    fn noise(k: usize) -> f64 {
        let x = ((k as f64 + 1.0) * 12.9898).sin() * 43758.5453;
        2.0 * (x - x.floor()) - 1.0
    }

    /// Rows of every shape the packing meets: two bodies in space, one body, two planar
    /// bodies side by side (one window), a body at the end of the coordinates (its window
    /// moved back), a repeated coordinate, and a row over three bodies (not packed).
    fn rows(dofs: usize) -> Vec<(JacobianRow, JacobianRow)> {
        let shapes: [&[usize]; 6] = [
            &[0, 1, 2, 3, 4, 5, 12, 13, 14, 15, 16, 17],
            &[6, 7, 8],
            &[3, 4, 5, 6, 7, 8],
            &[dofs - 3, dofs - 2, dofs - 1, 0, 1],
            &[2, 2, 9],
            &[0, 7, 14, 20],
        ];
        shapes
            .iter()
            .enumerate()
            .map(|(r, idx)| {
                let entries = |salt: usize| -> Vec<(usize, f64)> {
                    idx.iter()
                        .enumerate()
                        .map(|(k, &j)| (j, noise(100 * r + 10 * salt + k)))
                        .collect()
                };
                (
                    JacobianRow::from_entries(&entries(0)),
                    JacobianRow::from_entries(&entries(1)),
                )
            })
            .collect()
    }

    /// The products of a view against the rows' own, entry by entry.
    fn assert_products_match(view: &Rows, g: &[JacobianRow], m: &[JacobianRow], dofs: usize) {
        let w: Vec<f64> = (0..dofs).map(|k| noise(1000 + k)).collect();
        for (i, row) in g.iter().enumerate() {
            let (packed, plain) = (view.dot(i, &w), row.dot_slice(&w));
            assert!(
                (packed - plain).abs() <= 1e-14,
                "row {i}: {packed} against {plain}"
            );
        }
        let lambda: Vec<f64> = (0..g.len()).map(|k| noise(2000 + k)).collect();
        let mut packed_w = vec![0.0; dofs];
        view.velocity_change(&lambda, &mut packed_w);
        let mut plain_w = vec![0.0; dofs];
        for (row, &l) in m.iter().zip(&lambda) {
            row.add_transpose_to_slice(l, &mut plain_w);
        }
        for (j, (a, b)) in packed_w.iter().zip(&plain_w).enumerate() {
            assert!((a - b).abs() <= 1e-14, "coordinate {j}: {a} against {b}");
        }
    }

    #[test]
    fn packed_products_equal_the_rows_products() {
        let dofs = 24;
        let (g, m): (Vec<_>, Vec<_>) = rows(dofs).into_iter().unzip();
        let mut packed = PackedRows::default();
        packed.pack(&g, &m, dofs, true);
        // (windows, width): two bodies in space need wide windows; the rest fit narrow
        // ones but the row over three bodies, which keeps its entries.
        let shapes: Vec<(u8, u8)> = packed.windows.iter().map(|w| (w.count, w.width)).collect();
        assert_eq!(shapes, [(2, 6), (1, 3), (2, 3), (2, 3), (2, 3), (0, 0)]);
        assert_products_match(&Rows::new(&packed, &g, &m), &g, &m, dofs);
        // Switched off, every row keeps its entries, with the same products.
        packed.pack(&g, &m, dofs, false);
        assert!(packed.windows.iter().all(|w| w.count == 0));
        assert_products_match(&Rows::new(&packed, &g, &m), &g, &m, dofs);
    }

    #[test]
    fn too_few_coordinates_leave_the_rows_unpacked() {
        let row = JacobianRow::from_entries(&[(0, 1.0), (1, -2.0)]);
        let mut packed = PackedRows::default();
        packed.pack(
            std::slice::from_ref(&row),
            std::slice::from_ref(&row),
            2,
            true,
        );
        assert_eq!(packed.windows[0].count, 0);
        let view = Rows::new(
            &packed,
            std::slice::from_ref(&row),
            std::slice::from_ref(&row),
        );
        assert_eq!(view.dot(0, &[1.0, 5.0]), -9.0);
    }
}
