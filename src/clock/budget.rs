//! The time budget: the game's clock as the front-end knows it (`TimeControl`), and what one
//! search may spend (`Limits`): a fixed depth, nodes or time, or a move's share of the game's
//! clock, from the lengths of recorded games. A fixed reserve of the game's time is never
//! touched.

use std::time::Duration;

/// The limits of one game's clock, as the front-end knows them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Most time one move may take, in ms (the judge: 2000).
    pub move_ms: u64,
    /// Thinking time left for the rest of the game, in ms (the judge: 90 000 at the start).
    pub game_left_ms: u64,
    /// Time to keep back for each move as a safety margin (I/O, a loaded machine), in ms.
    pub margin_ms: u64,
    /// Game time never touched, in ms.
    pub reserve_ms: u64,
}

impl TimeControl {
    /// The 12×12 judge: 2 s a move, 90 s a game.
    pub fn judge(game_left_ms: u64) -> TimeControl {
        TimeControl {
            move_ms: 2000,
            game_left_ms,
            margin_ms: crate::core::params::MOVE_MARGIN_MS,
            reserve_ms: crate::core::params::GAME_RESERVE_MS,
        }
    }
}

impl TimeControl {
    /// A judge's clock of `move_ms` a move and `game_ms` a game (the real one: 2000 and
    /// 90 000), `game_left_ms` left: the margin and the reserve scale with it, so that a
    /// match at a smaller clock behaves like one at the judge's.
    pub fn scaled(move_ms: u64, game_ms: u64, game_left_ms: u64) -> TimeControl {
        TimeControl {
            move_ms,
            game_left_ms,
            margin_ms: crate::core::params::MOVE_MARGIN_MS * move_ms / 2000,
            reserve_ms: crate::core::params::GAME_RESERVE_MS * game_ms / 90_000,
        }
    }
}

/// What one search may do.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Limits {
    /// Stop iterating after this depth.
    pub max_depth: i32,
    /// Stop after about this many nodes (checked with the hard limit).
    pub max_nodes: u64,
    /// Soft limit: start no new iteration after this.
    pub soft: Option<Duration>,
    /// Hard limit: abandon the search at once after this.
    pub hard: Option<Duration>,
}

impl Limits {
    /// Fixed depth, no time limit: deterministic (bench, tests).
    pub fn depth(depth: i32) -> Limits {
        Limits { max_depth: depth, max_nodes: u64::MAX, soft: None, hard: None }
    }
    /// Fixed node budget, no time limit: deterministic.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            max_depth: crate::core::params::MAX_DEPTH,
            max_nodes: nodes,
            soft: None,
            hard: None,
        }
    }
    /// A fixed time per move (soft at about half of it).
    pub fn movetime(ms: u64) -> Limits {
        Limits {
            max_depth: crate::core::params::MAX_DEPTH,
            max_nodes: u64::MAX,
            soft: Some(Duration::from_millis(ms / 2)),
            hard: Some(Duration::from_millis(ms)),
        }
    }

    /// Thinking on the opponent's time: no soft limit (iterate until stopped), at most `ms`.
    pub fn ponder(ms: u64) -> Limits {
        Limits {
            max_depth: crate::core::params::MAX_DEPTH,
            max_nodes: u64::MAX,
            soft: None,
            hard: Some(Duration::from_millis(ms)),
        }
    }

    /// These limits with `spent` already gone from the soft and hard limits.
    pub fn less(self, spent: Duration) -> Limits {
        Limits {
            soft: self.soft.map(|s| s.saturating_sub(spent)),
            hard: self.hard.map(|h| h.saturating_sub(spent)),
            ..self
        }
    }

    /// The budget for one move under `tc`, on a board with `empty_points` empty points of
    /// which `stones_played` were placed in this game (by both sides, start stones excluded).
    ///
    /// The soft limit is the game time left divided by the moves this side can still expect
    /// to play ([`expected_moves_left`], from the lengths of recorded games), never below a
    /// floor that lets a board-filling game finish; the hard limit is the per-move cap, or
    /// less when the game's time runs low. While the soft limit is below the hard one, the
    /// search starts an iteration only when the last iterations' times say it can finish
    /// before the hard limit; while the cap binds (soft equal to hard), a move's spare time
    /// is worth nothing later and the search uses all of it
    /// (`timeman::TimeManager::may_start_iteration`).
    pub fn for_move(tc: &TimeControl, empty_points: usize, stones_played: usize) -> Limits {
        let usable = tc.game_left_ms.saturating_sub(tc.reserve_ms);
        let our_moves = stones_played as u64 / 2;
        // Never plan fewer moves than it takes to fill the board at a reduced pace, so that
        // a long game slows down gradually instead of running out.
        let floor = (empty_points as u64 / crate::core::params::FILL_MOVES_DIVISOR)
            .max(crate::core::params::MIN_MOVES_LEFT);
        let moves_left = expected_moves_left(our_moves).max(floor);
        let share = usable / moves_left;
        let cap = tc.move_ms.saturating_sub(tc.margin_ms);
        let hard = (share * crate::core::params::HARD_SHARE_FACTOR).min(cap).min(usable / 3);
        let soft = share.min(hard);
        Limits {
            max_depth: crate::core::params::MAX_DEPTH,
            max_nodes: u64::MAX,
            soft: Some(Duration::from_millis(soft)),
            hard: Some(Duration::from_millis(hard)),
        }
    }
}

/// How many more moves this side can expect to play after `played` of its own moves: the
/// mean remaining length of the recorded games ([`crate::core::params::GAME_LENGTHS`], moves
/// a side) that lasted longer than `played`, or a few moves past the longest recorded game.
pub fn expected_moves_left(played: u64) -> u64 {
    let longer: Vec<u64> = crate::core::params::GAME_LENGTHS
        .iter()
        .map(|&l| l as u64)
        .filter(|&l| l > played)
        .collect();
    if longer.is_empty() {
        return crate::core::params::MIN_MOVES_LEFT;
    }
    let mean = longer.iter().map(|&l| l - played).sum::<u64>() / longer.len() as u64;
    mean.max(crate::core::params::MIN_MOVES_LEFT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_stay_under_the_judge_caps_for_a_whole_game() {
        // Spend the full hard limit every move of a game that fills the 12×12 board.
        let mut left = 90_000u64;
        let mut empty = 140usize;
        let mut slowest = 0;
        let mut spent_by_move_15 = 0;
        while empty >= 2 {
            let played = 140 - empty;
            let l = Limits::for_move(&TimeControl::judge(left), empty, played);
            let hard = l.hard.unwrap().as_millis() as u64;
            assert!(l.soft.unwrap() <= l.hard.unwrap());
            slowest = slowest.max(hard);
            left -= hard;
            empty -= 2;
            if played / 2 == 14 {
                spent_by_move_15 = 90_000 - left;
            }
        }
        assert!(slowest <= 2000 - crate::core::params::MOVE_MARGIN_MS);
        assert!(left >= crate::core::params::GAME_RESERVE_MS, "only {left} ms left");
        // A typical decisive game (13 of our moves is the median of the recorded ones) may
        // use the full cap on every move: the clock is there to be spent.
        assert_eq!(spent_by_move_15, 15 * slowest, "the cap binds for the first 15 moves");
    }

    #[test]
    fn a_scaled_clock_is_the_judges_in_proportion() {
        assert_eq!(TimeControl::scaled(2000, 90_000, 50_000), TimeControl::judge(50_000));
        let half = TimeControl::scaled(1000, 45_000, 45_000);
        assert_eq!((half.margin_ms, half.reserve_ms), (200, 3_000));
        let l = Limits::for_move(&half, 130, 10);
        assert_eq!(l.hard.unwrap().as_millis(), 800);
    }

    #[test]
    fn the_budget_shrinks_when_the_game_clock_runs_low() {
        let early = Limits::for_move(&TimeControl::judge(90_000), 130, 10);
        let late = Limits::for_move(&TimeControl::judge(12_000), 60, 80);
        assert!(late.hard.unwrap() < early.hard.unwrap());
        assert!(late.soft.unwrap() < early.soft.unwrap());
        assert!(late.hard.unwrap().as_millis() as u64 <= (12_000 - GAME_RESERVE) / 3);
    }

    const GAME_RESERVE: u64 = crate::core::params::GAME_RESERVE_MS;

    #[test]
    fn expected_moves_left_follows_the_recorded_lengths() {
        let lengths = crate::core::params::GAME_LENGTHS;
        let mean = lengths.iter().map(|&l| l as u64).sum::<u64>() / lengths.len() as u64;
        assert_eq!(expected_moves_left(0), mean);
        // Past move 50 only the board-filling games (68-69 moves) are left in the records.
        let late = expected_moves_left(50);
        assert!((18..=19).contains(&late), "{late}");
        assert_eq!(expected_moves_left(1000), crate::core::params::MIN_MOVES_LEFT);
    }
}
