//! Deserializers for scene fields: fixed-length number lists whose errors say what was expected.
//!
//! serde's own message for `[0, 0.05, 0]` where a planar position `[x, y]` belongs is
//! "trailing characters"; these read any list of numbers and then check its length, so the
//! message says "expected 2 numbers, got 3" (and the scene parser prefixes the field's path).

use serde::de::{Deserialize, Deserializer, Error};

fn exact<E: Error, const N: usize>(values: Vec<f64>) -> Result<[f64; N], E> {
    let len = values.len();
    values
        .try_into()
        .map_err(|_| E::custom(format!("expected a list of {N} numbers, got {len}")))
}

/// A list of exactly N numbers.
pub fn array<'de, D: Deserializer<'de>, const N: usize>(d: D) -> Result<[f64; N], D::Error> {
    exact(Vec::<f64>::deserialize(d)?)
}

/// An optional list of exactly N numbers.
pub fn optional_array<'de, D: Deserializer<'de>, const N: usize>(
    d: D,
) -> Result<Option<[f64; N]>, D::Error> {
    match Option::<Vec<f64>>::deserialize(d)? {
        Some(values) => exact(values).map(Some),
        None => Ok(None),
    }
}

/// A list of lists of exactly N numbers (e.g. contact points).
pub fn array_list<'de, D: Deserializer<'de>, const N: usize>(
    d: D,
) -> Result<Vec<[f64; N]>, D::Error> {
    Vec::<Vec<f64>>::deserialize(d)?
        .into_iter()
        .map(exact)
        .collect()
}
