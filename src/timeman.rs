//! Time management: how long a move may think. A soft limit is checked between iterations,
//! a hard limit is polled inside the search, and a fixed reserve of the game's time is never
//! touched. The clock is a trait so that tests can fake it.

use std::time::{Duration, Instant};

/// A source of elapsed time.
pub trait Clock: Send + Sync {
    /// Time since the clock's origin.
    fn now(&self) -> Duration;
}

/// The wall clock (the judge measures wall-clock time).
#[derive(Debug)]
pub struct WallClock(Instant);

impl WallClock {
    /// A clock whose origin is now.
    pub fn new() -> WallClock {
        WallClock(Instant::now())
    }
}

impl Default for WallClock {
    fn default() -> Self {
        WallClock::new()
    }
}

impl Clock for WallClock {
    fn now(&self) -> Duration {
        self.0.elapsed()
    }
}

/// A clock that moves only when told: for tests.
#[derive(Debug, Default)]
pub struct FakeClock(std::sync::atomic::AtomicU64);

impl FakeClock {
    /// Advances the fake time by `ms` milliseconds.
    pub fn advance_ms(&self, ms: u64) {
        self.0.fetch_add(ms, std::sync::atomic::Ordering::SeqCst);
    }
}

impl Clock for FakeClock {
    fn now(&self) -> Duration {
        Duration::from_millis(self.0.load(std::sync::atomic::Ordering::SeqCst))
    }
}

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
            margin_ms: crate::params::MOVE_MARGIN_MS,
            reserve_ms: crate::params::GAME_RESERVE_MS,
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
        Limits { max_depth: crate::params::MAX_DEPTH, max_nodes: nodes, soft: None, hard: None }
    }
    /// A fixed time per move (soft at about half of it).
    pub fn movetime(ms: u64) -> Limits {
        Limits {
            max_depth: crate::params::MAX_DEPTH,
            max_nodes: u64::MAX,
            soft: Some(Duration::from_millis(ms / 2)),
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

    /// The budget for one move under `tc` with `empty_points` empty points on the board.
    pub fn for_move(tc: &TimeControl, empty_points: usize) -> Limits {
        let usable = tc.game_left_ms.saturating_sub(tc.reserve_ms);
        // Assume the game may run to a full board, but weigh the far future less: most games
        // end long before, and a late move on a crowded board needs little time.
        let moves_left = (empty_points as u64 / 4).max(crate::params::MIN_MOVES_LEFT);
        let share = usable / moves_left;
        let cap = tc.move_ms.saturating_sub(tc.margin_ms);
        let hard = (share * 3).min(cap).min(usable / 2);
        let soft = (share).min(hard * 2 / 3);
        Limits {
            max_depth: crate::params::MAX_DEPTH,
            max_nodes: u64::MAX,
            soft: Some(Duration::from_millis(soft)),
            hard: Some(Duration::from_millis(hard)),
        }
    }
}

/// The running time manager of one search.
pub struct TimeManager<'a> {
    clock: &'a dyn Clock,
    start: Duration,
    limits: Limits,
}

impl<'a> TimeManager<'a> {
    /// Starts timing a search under `limits` from now on `clock`.
    pub fn new(clock: &'a dyn Clock, limits: Limits) -> TimeManager<'a> {
        TimeManager { clock, start: clock.now(), limits }
    }
    /// The limits.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }
    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.clock.now().saturating_sub(self.start)
    }
    /// Whether the hard limit has passed.
    pub fn hard_exceeded(&self) -> bool {
        self.limits.hard.is_some_and(|h| self.elapsed() >= h)
    }
    /// Whether a new iteration should start. `scale` (in percent) stretches the soft limit:
    /// below 100 when the best move is stable, above when the score dropped.
    pub fn may_start_iteration(&self, scale: u64) -> bool {
        match self.limits.soft {
            None => true,
            Some(soft) => {
                let stretched = soft * scale as u32 / 100;
                let cap = self.limits.hard.unwrap_or(stretched);
                // An iteration costs several times the last one: do not start one that
                // cannot finish before the hard limit.
                self.elapsed() < stretched.min(cap / 2)
            }
        }
    }
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
        while empty >= 2 {
            let l = Limits::for_move(&TimeControl::judge(left), empty);
            let hard = l.hard.unwrap().as_millis() as u64;
            assert!(l.soft.unwrap() <= l.hard.unwrap());
            slowest = slowest.max(hard);
            left -= hard;
            empty -= 2;
        }
        assert!(slowest <= 2000 - crate::params::MOVE_MARGIN_MS);
        assert!(left >= crate::params::GAME_RESERVE_MS, "only {left} ms left");
    }

    #[test]
    fn fake_clock_drives_the_limits() {
        let clock = FakeClock::default();
        let tm = TimeManager::new(&clock, Limits::movetime(1000));
        assert!(!tm.hard_exceeded());
        assert!(tm.may_start_iteration(100));
        clock.advance_ms(300);
        assert!(tm.may_start_iteration(100));
        assert!(!tm.may_start_iteration(50), "a stable best move halves the soft limit");
        clock.advance_ms(200);
        assert!(!tm.may_start_iteration(200), "half the hard limit has passed");
        assert!(!tm.hard_exceeded());
        clock.advance_ms(500);
        assert!(tm.hard_exceeded());
    }
}
