//! The front-ends: the judge protocol (`protocol`), Gomocup (`piskvork`), the board-matrix
//! judge (`matrix`), a game by hand (`play`), line input on its own thread (`input`), and the
//! command line that picks one (`cli`).
//!
//! Uses `engine` and every layer below it. Within the layer: `matrix` and `piskvork` use
//! `protocol` and `input`; `cli` uses them all.

pub mod cli;
pub mod input;
pub mod matrix;
pub mod piskvork;
pub mod play;
pub mod protocol;
