//! A small deterministic generator (xorshift) for the fuzzers, so that a failure can be
//! replayed by its seed.

/// The length unit of the fuzzers' long lines: 4 KB, the most the brain's reader keeps of a
/// line; the long lines run from one to thirty of these, past the 16 KB that judge.md lets
/// one DEBUG message have.
pub const LONG: usize = 4096;

pub struct Rng(pub u64);

impl Rng {
    /// A generator for `seed`, well mixed (never the all-zero state xorshift sticks in).
    pub fn seeded(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}
