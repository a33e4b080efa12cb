//! The board kept incrementally: stones, line patterns, threat counts, the learned sums and
//! the Zobrist key (`state`, whose items are re-exported here: `crate::board::Board`), its
//! check against a rebuild (`verify`), fives, and diagrams for tests and people.
//!
//! Uses `core` and `eval` (the learned features it updates move by move).

pub mod diagram;
pub mod five;
pub mod state;
pub mod verify;

pub use crate::board::state::*;
