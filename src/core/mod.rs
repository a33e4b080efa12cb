//! The basics every layer may use: 256-point bitboards and Zobrist keys, sides and starts,
//! the line patterns and their tables, every tuning constant, a value built once.
//!
//! Uses nothing of the crate (std only). Within the layer: `color` uses `bits`, `pattern`
//! uses `once` and `params`.

pub mod bits;
pub mod color;
pub mod once;
pub mod params;
pub mod pattern;
