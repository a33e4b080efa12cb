//! The tools, which the judge's binary never runs and the bundle leaves out: the opening
//! book's builder (`bookgen`, `wuzi book ...`), the proof search (`proof`), the book's files
//! (`bookfile`), and arena records read back (`record`).
//!
//! Uses any layer of the brain; nothing of the brain uses it (the full binary hands
//! `bookgen::main` to the command line).

pub mod bookfile;
pub mod bookgen;
pub mod proof;
pub mod record;
