//! The last step's multipliers by contact, kept for the next step's warm start in buffers that are reused from step to step.
//!
//! A pile of a thousand spheres carries a few thousand contacts; a map from contact to a
//! vector of multipliers allocated a node share and a vector per contact and step. Here the
//! multipliers of one contact sit inline (at most six: normal, two tangents, two rolling,
//! one spinning) and the entries in one vector sorted by key, looked up by binary search;
//! [`WarmStart::clear`] keeps the capacity, so once a pile has its contacts the store
//! allocates nothing.

use crate::contact::ContactKey;

/// One contact's multipliers in law order (normal, tangents, rolling, spinning).
pub(crate) type ContactImpulses = smallvec::SmallVec<[f64; 6]>;

/// Multipliers by contact key.
#[derive(Debug, Clone, Default)]
pub(crate) struct WarmStart {
    /// Sorted by key once [`Self::finish`] has run; keys unique. Each entry carries its
    /// place in push order, so that an unstable sort (which needs no buffer) keeps equal
    /// keys in push order.
    entries: Vec<(ContactKey, u32, ContactImpulses)>,
    /// Whether `entries` may be out of order (pushed since the last sort).
    unsorted: bool,
}

impl WarmStart {
    /// Forgets every entry, keeping the storage.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.unsorted = false;
    }

    /// Adds (or, after [`Self::finish`], replaces) the multipliers of `key`.
    pub fn insert(&mut self, key: ContactKey, values: &[f64]) {
        if self.entries.last().is_some_and(|(last, _, _)| *last >= key) {
            self.unsorted = true;
        }
        // (More than 4·10⁹ contacts is far beyond any scene's limit.)
        let place = u32::try_from(self.entries.len()).unwrap_or(u32::MAX);
        self.entries
            .push((key, place, ContactImpulses::from_slice(values)));
    }

    /// Sorts the entries pushed since the last call; of two entries with one key the later
    /// one stays (as a map's insert would keep it).
    pub fn finish(&mut self) {
        if !self.unsorted {
            return;
        }
        // Sorted by (key, place in push order): equal keys stay in push order, and the last
        // of each run wins.
        self.entries
            .sort_unstable_by_key(|(key, place, _)| (*key, *place));
        let mut write = 0;
        for read in 0..self.entries.len() {
            if write > 0 && self.entries[write - 1].0 == self.entries[read].0 {
                self.entries.swap(write - 1, read);
            } else {
                self.entries.swap(write, read);
                write += 1;
            }
        }
        self.entries.truncate(write);
        self.unsorted = false;
    }

    /// The multipliers of `key`, if kept ([`Self::finish`] must have run since the last
    /// insert out of order).
    pub fn get(&self, key: &ContactKey) -> Option<&ContactImpulses> {
        debug_assert!(!self.unsorted, "WarmStart::get before finish");
        self.entries
            .binary_search_by_key(key, |(k, _, _)| *k)
            .ok()
            .map(|i| &self.entries[i].2)
    }

    /// Number of contacts kept.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(first: usize, second: usize, feature: u32) -> ContactKey {
        ContactKey {
            first,
            second,
            feature,
        }
    }

    /// Entries pushed in any order are found by key; a repeated key keeps its last values;
    /// clearing forgets everything.
    #[test]
    fn finds_what_was_inserted_in_any_order() {
        let mut warm = WarmStart::default();
        let keys = [key(3, 4, 0), key(0, 1, 2), key(0, 1, 1), key(2, 9, 0)];
        for (i, k) in keys.iter().enumerate() {
            warm.insert(*k, &[i as f64, -(i as f64)]);
        }
        warm.insert(key(0, 1, 2), &[7.0, 8.0, 9.0]);
        warm.finish();
        assert_eq!(warm.len(), 4);
        assert_eq!(warm.get(&key(3, 4, 0)).unwrap().as_slice(), &[0.0, -0.0]);
        assert_eq!(
            warm.get(&key(0, 1, 2)).unwrap().as_slice(),
            &[7.0, 8.0, 9.0]
        );
        assert_eq!(warm.get(&key(0, 1, 1)).unwrap().as_slice(), &[2.0, -2.0]);
        assert_eq!(warm.get(&key(2, 9, 0)).unwrap().as_slice(), &[3.0, -3.0]);
        assert!(warm.get(&key(1, 2, 0)).is_none());
        warm.clear();
        assert_eq!(warm.len(), 0);
        assert!(warm.get(&key(3, 4, 0)).is_none());
    }

    /// Three repeats of one key among others: only the last survives, and the order of the
    /// others is unharmed.
    #[test]
    fn the_last_of_a_repeated_key_wins() {
        let mut warm = WarmStart::default();
        for (k, v) in [(5, 1.0), (1, 2.0), (5, 3.0), (3, 4.0), (5, 5.0), (0, 6.0)] {
            warm.insert(key(k, k + 1, 0), &[v]);
        }
        warm.finish();
        assert_eq!(warm.len(), 4);
        let found: Vec<f64> = [0, 1, 3, 5]
            .iter()
            .map(|&k| warm.get(&key(k, k + 1, 0)).unwrap()[0])
            .collect();
        assert_eq!(found, vec![6.0, 2.0, 4.0, 5.0]);
    }
}
