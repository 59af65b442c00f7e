//! Helpers shared by the integration tests.

/// A small deterministic generator (xorshift64*), so failures reproduce; uniform in [−1, 1).
pub struct Rng(pub u64);

impl Rng {
    /// The next number in [−1, 1).
    pub fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        (x >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
}
