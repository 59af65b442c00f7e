//! `f64` maximum as WebAssembly can run it inline: there, Rust's `f64::max` is a call into compiler-builtins' `fmax` (wasm's own `f64.max` returns a NaN operand, Rust's ignores it), and in the block-sparse sweeps that call was 4.6 % of a planar pile's step in Node.
//!
//! Natively the function *is* `f64::max`. In WebAssembly it is `fmax`'s own comparison
//! written out, `if a is NaN or a < b { b } else { a }` (libm 0.2's `generic/fmax.rs`; its
//! canonicalisation changes NaN payloads only), so every result is the bit pattern it was,
//! −0 against +0 included, and the native and wasm runs stay digest for digest the same.

/// The larger of `a` and `b`, ignoring a NaN operand (`f64::max`'s semantics).
#[inline(always)]
pub(crate) fn max(a: f64, b: f64) -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        if a.is_nan() || a < b { b } else { a }
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        a.max(b)
    }
}

#[cfg(test)]
mod tests {
    use super::max;

    /// The values `f64::max` decides, NaN operands and signed zeros included, bit for bit
    /// (natively a tautology; under `wasm-pack test` it checks the written-out comparison
    /// against the libm call).
    #[test]
    fn max_is_f64_max_bit_for_bit() {
        let values = [
            -f64::INFINITY,
            -1.5,
            -0.0,
            0.0,
            f64::MIN_POSITIVE,
            2.0,
            f64::INFINITY,
            f64::NAN,
        ];
        for &a in &values {
            for &b in &values {
                let (ours, std) = (max(a, b), a.max(b));
                assert!(
                    ours.to_bits() == std.to_bits() || (ours.is_nan() && std.is_nan()),
                    "max({a}, {b}) = {ours}, f64::max gives {std}"
                );
            }
        }
    }
}
