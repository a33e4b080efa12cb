//! The opening book's table, generated: do not edit by hand.
//!
//! Regenerate with `wuzi book export` (see `src/bookgen.rs` and the README's "Opening book").

/// (canonical key, move `row * 12 + col` in the canonical frame, flags), sorted by key.
pub const BOOK: &[(u64, u8, u8)] = &[];

/// Moves from the judge's start to each proven position that no other proven position
/// leads to: where the proof's walks start.
pub const PROOF_ROOTS: &[&str] = &[];
