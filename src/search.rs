//! The search (placeholder until the alpha-beta lands: the safety-net chooser).

use std::sync::atomic::AtomicBool;

use crate::board::{Board, Pos};
use crate::timeman::{Clock, Limits};

/// What a finished (or interrupted) search found.
#[derive(Clone, Debug, Default)]
pub struct SearchReport {
    /// The move to play.
    pub best: Option<Pos>,
    /// Score for the side to move.
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent, in ms.
    pub time_ms: u64,
    /// The expected line.
    pub pv: Vec<Pos>,
}

impl SearchReport {
    /// One short line for the log: depth, score, nodes, speed, time and line.
    pub fn summary(&self) -> String {
        let pv: Vec<String> = self.pv.iter().take(12).map(|p| p.to_string()).collect();
        let nps = self.nodes * 1000 / self.time_ms.max(1);
        format!(
            "depth {} score {} nodes {} nps {} time {} pv {}",
            self.depth,
            crate::search::score_text(self.score),
            self.nodes,
            nps,
            self.time_ms,
            pv.join(" ")
        )
    }
}

/// A score as text: `win in N` / `loss in N` (plies) for decided scores.
pub fn score_text(score: i32) -> String {
    use crate::params::{WIN, WIN_BOUND};
    if score > WIN_BOUND {
        format!("win in {}", WIN - score)
    } else if score < -WIN_BOUND {
        format!("loss in {}", WIN + score)
    } else {
        score.to_string()
    }
}

/// The searcher and its tables.
pub struct Searcher {}

impl Searcher {
    /// A searcher with a `hash_mb` table.
    pub fn new(_hash_mb: usize) -> Searcher {
        Searcher {}
    }
    /// Forgets the last game.
    pub fn new_game(&mut self) {}
    /// Clears every table.
    pub fn reset(&mut self) {}
    /// Searches `board` for the side to move.
    pub fn think(
        &mut self,
        board: &mut Board,
        _limits: Limits,
        _clock: &dyn Clock,
        _stop: &AtomicBool,
        _on_iteration: &mut dyn FnMut(&SearchReport),
    ) -> SearchReport {
        let best = crate::movegen::quick_move(board);
        SearchReport { best, pv: best.into_iter().collect(), ..SearchReport::default() }
    }
}
