//! The broad phase made incremental: candidate pairs found with a skin and kept while no body has moved through it (a Verlet list).
//!
//! Detection runs two or three times a step at nearly the same positions, and a pile at rest
//! keeps its neighbours for thousands of steps; rebuilding the grid
//! ([`super::broad_phase`]) each time costs more than the narrow phase of a settled pile.
//! So the grid is asked once for the pairs within a wider margin, m + 2s (the skin s), and
//! the positions it saw are kept as anchors. While every body is within s of its anchor along
//! each axis, a pair whose cubes overlap now (|cᵢ − cⱼ| ≤ eᵢ + eⱼ per axis, e = r + m/2) had
//!
//! ```text
//!     |cᵢ⁰ − cⱼ⁰| ≤ |cᵢ − cⱼ| + |cᵢ − cᵢ⁰| + |cⱼ − cⱼ⁰| ≤ eᵢ + eⱼ + 2s
//! ```
//!
//! at its anchors, so it is in the kept list; filtering that list by the grid's own cube test
//! ([`super::broad_phase::cubes_overlap`]) gives exactly the pairs the grid would give now,
//! in the same (sorted) order. The list is rebuilt when a body moves farther, when a body's
//! radius or fixedness changes (a body falling asleep counts as fixed), when the body count
//! changes, or when the margin grows past the one it was built for. (Molecular dynamics'
//! neighbour lists, Verlet 1967; Box2D's and Rapier's fattened bounding boxes are the same
//! idea.)
//!
//! The skin is a quarter of the smallest bounded body's half extent r + m/2 (16 mm for the
//! `pile` preset's spheres): a pile at rest never rebuilds, and a landing pile, whose
//! fastest spheres move about a centimetre a step, rebuilds every step or two. The reuse
//! test leaves a tenth of the skin unused, far above the rounding of the coordinate
//! differences; where even that is not so (coordinates 10⁹ skins from the origin) the list
//! is rebuilt on every call, exact as the grid.
//!
//! Detection keeps a few lists per thread ([`KeptPairLists`]): live figures on one page
//! step their simulations in turn on one thread, and each finds its own list still holding.

use super::broad_phase::{ALL_PAIRS_UP_TO, Bounds, candidate_pairs_into, cubes_overlap};

/// The skin as a share of the smallest bounded half extent r + m/2.
const SKIN_SHARE: f64 = 0.25;

/// A list is reused while every body is within this share of the skin of its anchor.
const REUSE_SHARE: f64 = 0.9;

/// The pairs of the last build, the positions they were found at, and what they hold for.
#[derive(Debug, Default)]
pub struct KeptPairs {
    /// The bodies as the last build saw them.
    anchors: Vec<Bounds>,
    /// The pairs within `built_for + 2 skin` at the anchors (sorted).
    pairs: Vec<(usize, usize)>,
    /// The margin the last build was asked for.
    built_for: f64,
    /// The skin of the last build, m.
    skin: f64,
    /// False when the last build had no skin to spare (only a rebuild is exact then).
    reusable: bool,
    /// How many times the list was built (for the tests and profiles).
    builds: u64,
}

impl KeptPairs {
    /// The candidate pairs (i < j, sorted) of `bodies` whose cubes grown by `margin` overlap
    /// into `out` (cleared first): exactly [`super::broad_phase::candidate_pairs`], from the
    /// kept list when it still holds.
    pub fn candidate_pairs_into(
        &mut self,
        bodies: &[Bounds],
        margin: f64,
        out: &mut Vec<(usize, usize)>,
    ) {
        if !self.holds_for(bodies, margin) {
            self.build(bodies, margin);
        }
        self.filter_into(bodies, margin, out);
    }

    /// The kept pairs whose cubes overlap now (all of them against an unbounded body).
    fn filter_into(&self, bodies: &[Bounds], margin: f64, out: &mut Vec<(usize, usize)>) {
        out.clear();
        out.extend(self.pairs.iter().copied().filter(|&(i, j)| {
            let (a, b) = (&bodies[i], &bodies[j]);
            !a.radius.is_finite() || !b.radius.is_finite() || cubes_overlap(a, b, margin)
        }));
    }

    /// How many times the list has been built.
    pub fn builds(&self) -> u64 {
        self.builds
    }

    /// True when the kept pairs contain every pair of `bodies` at `margin` (module docs).
    fn holds_for(&self, bodies: &[Bounds], margin: f64) -> bool {
        let reach = REUSE_SHARE * self.skin;
        self.reusable
            && margin <= self.built_for
            && bodies.len() == self.anchors.len()
            && bodies.iter().zip(&self.anchors).all(|(b, a)| {
                if b.radius.to_bits() != a.radius.to_bits() || b.fixed != a.fixed {
                    return false;
                }
                if !b.radius.is_finite() {
                    return true;
                }
                let moved = (b.centre - a.centre).abs();
                // (NaN fails every comparison, so a body with no position rebuilds.)
                moved.x <= reach && moved.y <= reach && moved.z <= reach
            })
    }

    /// Finds the pairs within the margin and the skin, and keeps the bodies as anchors.
    fn build(&mut self, bodies: &[Bounds], margin: f64) {
        let smallest = bodies
            .iter()
            .filter(|b| b.radius.is_finite())
            .map(|b| b.radius + 0.5 * margin)
            .fold(f64::INFINITY, f64::min);
        let extent = bodies
            .iter()
            .filter(|b| b.radius.is_finite())
            .map(|b| b.centre.abs().max_element())
            .fold(0.0, f64::max);
        let skin = SKIN_SHARE * smallest;
        // A skin lost in the rounding of the coordinates is no skin: rebuild every call.
        self.reusable = skin.is_finite() && skin > 1e-9 * extent;
        self.skin = if self.reusable { skin } else { 0.0 };
        self.built_for = margin;
        self.anchors.clear();
        self.anchors.extend_from_slice(bodies);
        candidate_pairs_into(bodies, margin + 2.0 * self.skin, &mut self.pairs);
        self.builds += 1;
    }
}

/// Lists kept per thread: several simulations stepping in turn on one thread (live figures
/// on one page) each keep their own.
const LISTS: usize = 4;

/// A few [`KeptPairs`], one per scene that detection is asked about in turn.
#[derive(Debug, Default)]
pub struct KeptPairLists {
    lists: Vec<(KeptPairs, u64)>,
    /// Calls so far: each list remembers the last call that used it.
    calls: u64,
}

impl KeptPairLists {
    /// [`KeptPairs::candidate_pairs_into`] from a list that holds for `bodies`; without one,
    /// a new list is built while there are fewer than four, else the one unused the longest
    /// is rebuilt. (A moving pile so cycles through the four; checking them costs a few
    /// comparisons a body, nothing beside the narrow phase.) Scenes of up to 24 bounded
    /// bodies are paired directly by the grid's module, cheaper than any list.
    pub fn candidate_pairs_into(
        &mut self,
        bodies: &[Bounds],
        margin: f64,
        out: &mut Vec<(usize, usize)>,
    ) {
        let bounded = bodies.iter().filter(|b| b.radius.is_finite()).count();
        if bounded <= ALL_PAIRS_UP_TO {
            candidate_pairs_into(bodies, margin, out);
            return;
        }
        self.calls += 1;
        // The list used last first: a simulation stepped alone finds its own at once.
        let holds = |k: usize| self.lists[k].0.holds_for(bodies, margin);
        let last = (0..self.lists.len()).max_by_key(|&k| self.lists[k].1);
        let held = last
            .filter(|&k| holds(k))
            .or_else(|| (0..self.lists.len()).find(|&k| Some(k) != last && holds(k)));
        let slot = held.unwrap_or_else(|| {
            let slot = if self.lists.len() < LISTS {
                self.lists.push((KeptPairs::default(), 0));
                self.lists.len() - 1
            } else {
                (0..self.lists.len())
                    .min_by_key(|&k| self.lists[k].1)
                    .unwrap_or(0)
            };
            self.lists[slot].0.build(bodies, margin);
            slot
        });
        let (list, used) = &mut self.lists[slot];
        *used = self.calls;
        list.filter_into(bodies, margin, out);
    }

    /// How many times any list has been built.
    pub fn builds(&self) -> u64 {
        self.lists.iter().map(|(list, _)| list.builds).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::broad_phase::candidate_pairs;
    use crate::geometry::broad_phase::fixtures::{all_pairs, scatter};
    use glam::DVec3;

    /// Moves every body by its own displacement, uniform in [−amplitude, amplitude]³.
    fn shake(bodies: &mut [Bounds], seed: u64, amplitude: f64) {
        let moves = scatter(seed, bodies.len(), &[0.0], 2.0 * amplitude);
        for (b, m) in bodies.iter_mut().zip(&moves) {
            b.centre += m.centre;
        }
    }

    #[test]
    fn the_kept_pairs_are_the_grids_pairs_as_bodies_move() {
        for (seed, sizes, extent, amplitude) in [
            (1, vec![0.05], 1.0, 1e-4),           // a pile at rest
            (2, vec![0.05], 1.0, 0.01),           // a pile landing: rebuilds now and then
            (3, vec![0.02, 0.1, 0.6], 2.0, 0.03), // mixed sizes, large moves
            (4, vec![0.0, 0.001], 0.1, 1e-4),     // points and grains
        ] {
            let mut bodies = scatter(seed, 300, &sizes, extent);
            bodies.push(Bounds {
                centre: DVec3::ZERO,
                radius: f64::INFINITY,
                fixed: true,
            });
            let mut kept = KeptPairs::default();
            let mut pairs = Vec::new();
            for round in 0..60u64 {
                shake(&mut bodies, 1000 * seed + round, amplitude);
                // The margin shrinks and grows back; a body falls asleep and wakes.
                let margin = if round % 20 == 7 { 0.01 } else { 0.03 };
                bodies[5].fixed = round % 15 == 9;
                kept.candidate_pairs_into(&bodies, margin, &mut pairs);
                assert_eq!(
                    pairs,
                    candidate_pairs(&bodies, margin),
                    "seed {seed}, round {round}"
                );
                assert_eq!(
                    pairs,
                    all_pairs(&bodies, margin),
                    "seed {seed}, round {round}"
                );
            }
            if seed == 1 {
                // At rest the list is built once, then again only when body 5's fixedness
                // changes (rounds 9, 10, 24, 25, 39, 40, 54, 55); a smaller margin reuses it.
                assert_eq!(kept.builds(), 1 + 8, "seed {seed}");
            }
        }
    }

    #[test]
    fn a_body_moving_past_the_skin_rebuilds_the_list() {
        let mut bodies = scatter(9, 100, &[0.05], 1.0);
        let (mut kept, mut pairs) = (KeptPairs::default(), Vec::new());
        kept.candidate_pairs_into(&bodies, 0.03, &mut pairs);
        // The skin is a quarter of r + m/2 = 0.065 m: 16 mm; within nine tenths of it the
        // list holds, past it the list is rebuilt.
        bodies[17].centre.x += 0.014;
        kept.candidate_pairs_into(&bodies, 0.03, &mut pairs);
        assert_eq!(kept.builds(), 1);
        bodies[17].centre.x += 0.002;
        kept.candidate_pairs_into(&bodies, 0.03, &mut pairs);
        assert_eq!(kept.builds(), 2);
        assert_eq!(pairs, all_pairs(&bodies, 0.03));
        // A body with no position (NaN) rebuilds too, and the grid decides its pairs.
        bodies[3].centre.y = f64::NAN;
        kept.candidate_pairs_into(&bodies, 0.03, &mut pairs);
        assert_eq!(kept.builds(), 3);
        assert_eq!(pairs, candidate_pairs(&bodies, 0.03));
        // A margin wider than the one built for rebuilds; a narrower one does not.
        bodies[3].centre.y = 0.0;
        kept.candidate_pairs_into(&bodies, 0.03, &mut pairs);
        kept.candidate_pairs_into(&bodies, 0.02, &mut pairs);
        assert_eq!(kept.builds(), 4);
        kept.candidate_pairs_into(&bodies, 0.04, &mut pairs);
        assert_eq!(kept.builds(), 5);
        assert_eq!(pairs, all_pairs(&bodies, 0.04));
    }

    #[test]
    fn scenes_stepped_in_turn_keep_a_list_each() {
        // Steps `scenes` in turn for `rounds`, each shaken by `amplitude` first, checking the
        // pairs against the grid's; returns how many lists were built.
        fn in_turn(scenes: &mut [Vec<Bounds>], rounds: u64, amplitude: f64) -> u64 {
            let (mut lists, mut pairs) = (KeptPairLists::default(), Vec::new());
            for round in 0..rounds {
                for (k, bodies) in scenes.iter_mut().enumerate() {
                    shake(bodies, 100 * round + k as u64, amplitude);
                    lists.candidate_pairs_into(bodies, 0.03, &mut pairs);
                    let grid = candidate_pairs(bodies, 0.03);
                    assert_eq!(pairs, grid, "scene {k}, round {round}");
                }
            }
            lists.builds()
        }
        // Two piles of 300 on one page, stepped in turn: one build each while they rest.
        let mut two = [11, 12].map(|seed| scatter(seed, 300, &[0.05], 1.0));
        assert_eq!(in_turn(&mut two, 20, 1e-5), 2);
        // Five scenes in turn outgrow the four lists: each call rebuilds the one unused the
        // longest, and the pairs are still the grid's.
        let mut five = [20, 21, 22, 23, 24].map(|seed| scatter(seed, 100, &[0.05], 1.0));
        assert_eq!(in_turn(&mut five, 3, 0.0), 15);
        // A scene of up to 24 bodies is paired directly, without a list.
        let few = scatter(30, 24, &[0.05], 1.0);
        let (mut lists, mut pairs) = (KeptPairLists::default(), Vec::new());
        lists.candidate_pairs_into(&few, 0.03, &mut pairs);
        assert_eq!(pairs, all_pairs(&few, 0.03));
        assert_eq!(lists.builds(), 0);
    }
}
