//! The search: move generation, the threat solver, the hash table, the root's defence, the
//! static score, the search's state, the root (`root`, whose report is re-exported here),
//! alpha-beta and quiescence below it, the instruments (`stats`) and the bench.
//!
//! Uses `core`, `eval`, `board` and `clock`.

pub mod alphabeta;
pub mod bench;
pub mod defence;
pub mod eval;
pub mod movegen;
pub mod quiesce;
pub mod root;
pub mod searcher;
pub mod stats;
pub mod threat;
pub mod tt;

pub use crate::search::root::{score_text, SearchReport};
