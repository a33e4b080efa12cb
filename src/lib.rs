//! wuzi: a gomoku (five-in-a-row, freestyle) brain.
//!
//! The protocol layer ([`protocol`]) reads commands and drives an [`engine::Engine`], which
//! owns the incremental [`board::Board`] and runs the [`search`] under a [`timeman`] budget.
//! Every module is one concern, one level deep, so that the bundler can merge the crate into
//! one source file for the judge.

pub mod alphabeta;
pub mod bench;
pub mod bits;
pub mod board;
pub mod book;
pub mod book_data;
pub mod bookfile;
pub mod bookgen;
pub mod budget;
pub mod cli;
pub mod color;
pub mod defence;
pub mod diagram;
pub mod engine;
pub mod eval;
pub mod features;
pub mod five;
pub mod input;
pub mod matrix;
pub mod movegen;
pub mod params;
pub mod pattern;
pub mod piskvork;
pub mod play;
pub mod ponder;
pub mod proof;
pub mod protocol;
pub mod quiesce;
pub mod record;
pub mod search;
pub mod searcher;
pub mod threat;
pub mod timeman;
pub mod tt;
pub mod weights;
