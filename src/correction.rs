//! Correction history: what the search has learned, within a game, about how far the static
//! score misjudges the positions it meets. Each searched node whose result bounds its score
//! away from the static score moves a running average of the difference, kept under two keys
//! (the last two moves' points, and both sides' threat counts); a node's static score is then
//! corrected by both averages before the pruning decisions that trust it. The static score is
//! a sum over points and cannot see the fight the last moves started; the search's results
//! can. The idea is Stockfish's; the keys and numbers are ours.

use crate::board::{Board, Color, NUM_POINTS};
use crate::params::{CORR_GRAIN, CORR_LIMIT, CORR_MAX_DIFF, CORR_MAX_WEIGHT};
use crate::pattern::Combo;

/// Entries of the threat-count table per side to move: 3 × 3 counts for each side.
const THREAT_KEYS: usize = 81;

/// The two tables, for each side to move.
pub struct Correction {
    moves: Box<[[i16; NUM_POINTS * NUM_POINTS]; 2]>,
    threats: [[i16; THREAT_KEYS]; 2],
}

impl Default for Correction {
    fn default() -> Self {
        Correction {
            moves: Box::new([[0; NUM_POINTS * NUM_POINTS]; 2]),
            threats: [[0; THREAT_KEYS]; 2],
        }
    }
}

/// The keys of a position (side to move, last-two-moves slot, threat slot).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Keys {
    side: usize,
    moves: Option<usize>,
    threats: usize,
}

/// A count capped at 2 (none, one, several).
fn cap2(n: u16) -> usize {
    usize::from(n.min(2))
}

/// The keys of `board`'s position.
pub fn keys(board: &Board) -> Keys {
    let me = board.side_to_move();
    let opp = me.opp();
    let h = board.history();
    let moves = if h.len() >= 2 {
        Some(h[h.len() - 1].pos.idx() * NUM_POINTS + h[h.len() - 2].pos.idx())
    } else {
        None
    };
    let counts = |c: Color| {
        let fours = cap2(board.combo_count_at_least(c, Combo::Four));
        // A point that makes two open threes counts as several.
        let threes = if board.combo_count(c, Combo::ThreeThree) > 0 {
            2
        } else {
            cap2(board.combo_count(c, Combo::OpenThree))
        };
        fours * 3 + threes
    };
    Keys { side: me.idx(), moves, threats: counts(me) * 9 + counts(opp) }
}

impl Correction {
    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        *self = Correction::default();
    }

    /// The correction to add to the static score of a position with these keys.
    pub fn get(&self, k: Keys) -> i32 {
        let t = i32::from(self.threats[k.side][k.threats]);
        match k.moves {
            // The mean of the two: each follows the whole difference.
            Some(m) => (t + i32::from(self.moves[k.side][m])) / (2 * CORR_GRAIN),
            None => t / CORR_GRAIN,
        }
    }

    /// Moves both entries towards `diff` (the search's score less the raw static score), the
    /// more the deeper the search that found it.
    pub fn update(&mut self, k: Keys, depth: i32, diff: i32) {
        let target = diff.clamp(-CORR_MAX_DIFF, CORR_MAX_DIFF) * CORR_GRAIN;
        let w = (depth + 1).clamp(1, CORR_MAX_WEIGHT);
        let step = |e: &mut i16| {
            let v = (i32::from(*e) * (256 - w) + target * w) / 256;
            *e = v.clamp(-CORR_LIMIT, CORR_LIMIT) as i16;
        };
        step(&mut self.threats[k.side][k.threats]);
        if let Some(m) = k.moves {
            step(&mut self.moves[k.side][m]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Pos, StartPos};

    #[test]
    fn a_correction_follows_the_searches_and_stays_bounded() {
        let mut b = Board::with_start(12, StartPos::Center4);
        b.make(Pos::new(3, 3));
        b.make(Pos::new(8, 8));
        let k = keys(&b);
        let mut c = Correction::default();
        assert_eq!(c.get(k), 0);
        for _ in 0..200 {
            c.update(k, 10, 100);
        }
        // Both tables converge on the difference.
        let v = c.get(k);
        assert!((90..=100).contains(&v), "{v}");
        for _ in 0..400 {
            c.update(k, 10, -100_000);
        }
        let capped = c.get(k);
        assert!((-CORR_MAX_DIFF..-CORR_MAX_DIFF + 5).contains(&capped), "{capped}");
        // Another last move is another slot of the moves table.
        b.unmake();
        b.make(Pos::new(9, 9));
        let k2 = keys(&b);
        assert_ne!(k, k2);
        c.clear();
        assert_eq!(c.get(k2), 0);
    }

    /// Slots of either table that hold a correction.
    fn used(c: &Correction) -> usize {
        let moves = c.moves.iter().flatten().filter(|&&v| v != 0).count();
        moves + c.threats.iter().flatten().filter(|&&v| v != 0).count()
    }

    #[test]
    fn a_search_teaches_the_correction_and_a_new_game_forgets_it() {
        use crate::budget::Limits;
        use crate::searcher::Searcher;
        use crate::timeman::WallClock;
        use std::sync::atomic::AtomicBool;
        let mut b = Board::with_start(12, StartPos::Center4);
        for (r, c) in [(4, 4), (7, 7)] {
            b.make(Pos::new(r, c));
        }
        let mut s = Searcher::new(1);
        assert_eq!(used(&s.correction), 0);
        let stop = AtomicBool::new(false);
        let r = s.think(&mut b, Limits::depth(6), &WallClock::new(), &stop, &mut |_| {});
        assert_eq!(r.depth, 6, "a searched position, not one the solvers decide");
        assert!(used(&s.correction) > 10, "only {} slots", used(&s.correction));
        s.new_game();
        assert_eq!(used(&s.correction), 0);
    }
}
