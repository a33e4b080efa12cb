//! wuzi: a gomoku (five-in-a-row, freestyle) brain.
//!
//! The crate is in layers, each a folder whose `mod.rs` says what it holds and what it may
//! use; a layer imports only the layers listed before it here, never one after it:
//!
//! - [`core`]: bitboards, sides, line patterns, tuning constants (uses nothing);
//! - [`eval`]: the learned features and their weights (core);
//! - [`board`]: the incremental board (core, eval);
//! - [`clock`]: time control, limits, the clock, pondering's hand-over (core);
//! - [`search`]: move generation, threat solver, hash table, the search, bench (all above);
//! - [`book`]: the opening book's table and lookup (core, board, search);
//! - [`engine`]: one game behind the small API every front-end drives (all above);
//! - [`frontend`]: the judge protocol and the other front-ends, the command line (all above);
//! - [`tools`]: the book builder and prover, the book's files, arena records (all above).
//!
//! Everything but `tools` is the brain, which the bundler (`src/bin/bundle.rs`) merges into
//! one source file for the judge; the tools are left out of it.

#[clippy::msrv = "1.63"]
pub mod board;
#[clippy::msrv = "1.63"]
pub mod book;
#[clippy::msrv = "1.63"]
pub mod clock;
#[clippy::msrv = "1.63"]
pub mod core;
#[clippy::msrv = "1.63"]
pub mod engine;
#[clippy::msrv = "1.63"]
pub mod eval;
#[clippy::msrv = "1.63"]
pub mod frontend;
#[clippy::msrv = "1.63"]
pub mod search;
pub mod tools;
