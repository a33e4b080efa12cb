//! Time: the game's time control and a search's limits (`budget`), the running clock and
//! its soft and hard limits (`timeman`), pondering's hand-over (`ponder`).
//!
//! Uses `core` (the tuning constants). Within the layer: `timeman` uses `budget` and
//! `ponder`.

pub mod budget;
pub mod ponder;
pub mod timeman;
