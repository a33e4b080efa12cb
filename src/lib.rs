//! wuzi: a gomoku (five-in-a-row, freestyle) brain.
//!
//! The protocol layer ([`protocol`]) reads commands and drives an [`engine::Engine`], which
//! owns the incremental [`board::Board`] and runs the [`search`] under a [`timeman`] budget.
//! Every module is one concern, one level deep, so that the bundler can merge the crate into
//! one source file for the judge.

#[clippy::msrv = "1.63"]
pub mod alphabeta;
#[clippy::msrv = "1.63"]
pub mod bench;
#[clippy::msrv = "1.63"]
pub mod bits;
#[clippy::msrv = "1.63"]
pub mod board;
#[clippy::msrv = "1.63"]
pub mod book;
#[clippy::msrv = "1.63"]
pub mod book_data;
pub mod bookfile;
pub mod bookgen;
#[clippy::msrv = "1.63"]
pub mod budget;
#[clippy::msrv = "1.63"]
pub mod cli;
#[clippy::msrv = "1.63"]
pub mod color;
#[clippy::msrv = "1.63"]
pub mod defence;
#[clippy::msrv = "1.63"]
pub mod diagram;
#[clippy::msrv = "1.63"]
pub mod engine;
#[clippy::msrv = "1.63"]
pub mod eval;
#[clippy::msrv = "1.63"]
pub mod features;
#[clippy::msrv = "1.63"]
pub mod five;
#[clippy::msrv = "1.63"]
pub mod input;
#[clippy::msrv = "1.63"]
pub mod matrix;
#[clippy::msrv = "1.63"]
pub mod movegen;
#[clippy::msrv = "1.63"]
pub mod once;
#[clippy::msrv = "1.63"]
pub mod params;
#[clippy::msrv = "1.63"]
pub mod pattern;
#[clippy::msrv = "1.63"]
pub mod piskvork;
#[clippy::msrv = "1.63"]
pub mod play;
#[clippy::msrv = "1.63"]
pub mod ponder;
pub mod proof;
#[clippy::msrv = "1.63"]
pub mod protocol;
#[clippy::msrv = "1.63"]
pub mod quiesce;
pub mod record;
#[clippy::msrv = "1.63"]
pub mod search;
#[clippy::msrv = "1.63"]
pub mod searcher;
#[clippy::msrv = "1.63"]
pub mod threat;
#[clippy::msrv = "1.63"]
pub mod timeman;
#[clippy::msrv = "1.63"]
pub mod tt;
#[clippy::msrv = "1.63"]
pub mod weights;
