//! Time management: how long a move may think, within the limits `crate::clock::budget` gives it.
//! A soft limit is checked between iterations, a hard limit is polled inside the search. The
//! clock is a trait so that tests can fake it.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::clock::budget::Limits;
use crate::clock::ponder::PonderHit;

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

/// The running time manager of one search.
pub struct TimeManager<'a> {
    clock: &'a dyn Clock,
    start: Duration,
    limits: Limits,
    /// Where the search proper must stop: the hard limit less the share kept for the root's
    /// defence check ([`crate::core::params::DEFENCE_TIME_PERCENT`]).
    search_hard: Option<Duration>,
    /// A ponder's expected reply and the limits of the move that follows it.
    hit: Option<(PonderHit, Limits)>,
    /// When the search first saw the hit, in µs on the clock plus one (0: not yet).
    hit_at: AtomicU64,
    /// Whether the root's early defence check has run ([`TimeManager::early_check_done`]).
    early_checked: AtomicBool,
    /// Whether the move the search would play now is one the early check found safe
    /// ([`TimeManager::set_verified`]).
    verified: AtomicBool,
}

/// The limits in force and the time counted against them.
struct Frame {
    elapsed: Duration,
    soft: Option<Duration>,
    hard: Option<Duration>,
    search_hard: Option<Duration>,
}

/// The search's part of a hard limit: the rest, `check_percent`, is the root's defence
/// check's.
fn search_share(hard: Option<Duration>, check_percent: u32) -> Option<Duration> {
    let keep = 100 - check_percent.min(100);
    hard.map(|h| h * keep / 100)
}

impl<'a> TimeManager<'a> {
    /// Starts timing a search under `limits` from now on `clock`.
    pub fn new(clock: &'a dyn Clock, limits: Limits) -> TimeManager<'a> {
        let search_hard = search_share(limits.hard, crate::core::params::DEFENCE_TIME_PERCENT);
        TimeManager {
            clock,
            start: clock.now(),
            limits,
            search_hard,
            hit: None,
            hit_at: AtomicU64::new(0),
            early_checked: AtomicBool::new(false),
            verified: AtomicBool::new(false),
        }
    }
    /// A ponder's manager: once `hit` shows the expected reply came, `then` apply instead of
    /// the ponder's limits, counted from the moment the search first looks at the clock
    /// after it (the search polls every thousand nodes or so, a fraction of a millisecond).
    pub fn until_hit(mut self, hit: PonderHit, then: Limits) -> TimeManager<'a> {
        self.hit = Some((hit, then));
        self
    }
    /// Notes that the root's early defence check has run: after a ponder hit the search
    /// proper may then go on to the usual share of the hard limit
    /// ([`crate::core::params::DEFENCE_TIME_PERCENT`]) instead of stopping early for the final
    /// check ([`crate::core::params::DEFENCE_HIT_PERCENT`]).
    pub fn early_check_done(&self) {
        self.early_checked.store(true, Ordering::Relaxed);
    }
    /// Says whether the move the search would play if stopped now is one the early defence
    /// check found safe. While it is, the final check has nothing to do and the search proper
    /// may go on to all but [`crate::core::params::DEFENCE_VERIFIED_PERCENT`] of the hard limit:
    /// the share kept for the check otherwise went unused (3,182 of 8,570 moves of a 200 ms rung
    /// at the judge's clock ended at the search's 90% with the check skipped).
    pub fn set_verified(&self, verified: bool) {
        self.verified.store(verified, Ordering::Relaxed);
    }
    /// The limits: the ponder's, even after a hit (the depth and node bounds are the same).
    pub fn limits(&self) -> &Limits {
        &self.limits
    }
    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.clock.now().saturating_sub(self.start)
    }
    /// The limits in force now, and the time counted against them.
    fn frame(&self) -> Frame {
        let now = self.clock.now();
        let verified = self.verified.load(Ordering::Relaxed);
        if let Some((_, then)) = self.hit.as_ref().filter(|(h, _)| h.is_hit()) {
            let mut at = self.hit_at.load(Ordering::Relaxed);
            if at == 0 {
                at = now.as_micros() as u64 + 1;
                self.hit_at.store(at, Ordering::Relaxed);
            }
            // Until the early check has run in the move, the final check may be the only
            // one and gets the larger share; after it, the move is like any other.
            let check_percent = if verified {
                crate::core::params::DEFENCE_VERIFIED_PERCENT
            } else if self.early_checked.load(Ordering::Relaxed) {
                crate::core::params::DEFENCE_TIME_PERCENT
            } else {
                crate::core::params::DEFENCE_HIT_PERCENT
            };
            return Frame {
                elapsed: now.saturating_sub(Duration::from_micros(at - 1)),
                soft: then.soft,
                hard: then.hard,
                search_hard: search_share(then.hard, check_percent),
            };
        }
        Frame {
            elapsed: now.saturating_sub(self.start),
            soft: self.limits.soft,
            hard: self.limits.hard,
            search_hard: if verified {
                search_share(self.limits.hard, crate::core::params::DEFENCE_VERIFIED_PERCENT)
            } else {
                self.search_hard
            },
        }
    }
    /// Whether the hard limit has passed: nothing may run any more.
    pub fn hard_exceeded(&self) -> bool {
        let f = self.frame();
        f.hard.map_or(false, |h| f.elapsed >= h)
    }
    /// Whether the search proper must stop: the rest of the hard limit belongs to the check
    /// that the chosen move does not lose to the opponent's threats, which a search cut by the
    /// clock would otherwise skip.
    pub fn search_exceeded(&self) -> bool {
        let f = self.frame();
        f.search_hard.map_or(false, |h| f.elapsed >= h)
    }
    /// Whether `percent` of the search's part of the hard limit has passed (never without a
    /// hard limit: fixed-depth and fixed-node searches stay repeatable).
    pub fn search_past_percent(&self, percent: u32) -> bool {
        let f = self.frame();
        f.search_hard.map_or(false, |h| f.elapsed >= h * percent / 100)
    }
    /// Whether a new iteration should start, when it is expected to take `predicted`.
    /// `scale` (in percent, from [`soft_scale`]) stretches the soft limit: below 100 when the
    /// best move is stable or the game won, above when the score dropped. Within the soft
    /// limit, an iteration starts when the last iterations' times say it can finish before
    /// the search's part of the hard limit, and also, whatever the prediction, in the first
    /// part of it ([`crate::core::params::TM_PARTIAL_START_PERCENT`]): the previous best move is
    /// searched first, so even an iteration the hard limit cuts checks it deeper and may find
    /// a better one. Only an iteration that could neither finish nor get that far is not
    /// started.
    ///
    /// None of that applies while the soft limit reaches the hard one: the per-move cap binds
    /// then (the game has more time than its moves are expected to use), so time a move
    /// leaves is never spent later, and an iteration starts whenever the search's part of
    /// the hard limit is not over. At the judge's clock that is most moves of most games:
    /// 2,586 of the 6,037 searched moves of `891c1c6`'s 200 ms rung stopped between 0.5 and
    /// 1.44 s of their 1.6 s, while the median game used 9 s of its 90.
    pub fn may_start_iteration(&self, scale: u64, predicted: Duration) -> bool {
        let Frame { elapsed, soft, hard, search_hard } = self.frame();
        if matches!((soft, hard), (Some(s), Some(h)) if s >= h) {
            return search_hard.map_or(true, |h| elapsed < h);
        }
        if let Some(soft) = soft {
            if elapsed >= soft * scale.min(u32::MAX as u64) as u32 / 100 {
                return false;
            }
        }
        match search_hard {
            None => true,
            Some(hard) => {
                elapsed + predicted <= hard
                    || elapsed < hard * crate::core::params::TM_PARTIAL_START_PERCENT / 100
            }
        }
    }
}

/// The soft limit's scale in percent (for [`TimeManager::may_start_iteration`]) after an
/// iteration that scored `score`, when the one before scored `prev` and the best move has
/// stayed the same for `stable` iterations: less time when the game is won or the best move
/// stable, more when the score dropped. A lost score keeps the full time: it comes from a
/// tree whose defences were pruned (a few quiet moves a node, late ones cut), so it proves
/// nothing, and the time goes to finding a defence or else the longest resistance.
pub fn soft_scale(score: i32, prev: i32, stable: u32) -> u64 {
    use crate::core::params::*;
    let base = if score > TM_DECIDED_SCORE {
        TM_DECIDED_SCALE
    } else if stable >= 3 {
        TM_STABLE_SCALE
    } else {
        100
    };
    base + if score < prev - TM_DROP_MARGIN { TM_DROP_EXTRA } else { 0 }
}

/// The expected time of the next iteration: the last one's time `last` times the growth from
/// `before` to `last`, the growth clamped to the bounds in `crate::core::params`.
pub fn predict_iteration(before: Duration, last: Duration) -> Duration {
    use crate::core::params::{TM_GROWTH_MAX, TM_GROWTH_MIN};
    let growth = (last.as_nanos() * 100)
        .checked_div(before.as_nanos())
        .map_or(TM_GROWTH_MAX, |g| g.min(TM_GROWTH_MAX as u128) as u64)
        .max(TM_GROWTH_MIN);
    last * growth as u32 / 100
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_won_game_saves_time() {
        use crate::core::params::{
            TM_DECIDED_SCALE, TM_DECIDED_SCORE, TM_DROP_EXTRA, TM_STABLE_SCALE,
        };
        let win = crate::core::params::WIN;
        assert_eq!(soft_scale(TM_DECIDED_SCORE + 1, TM_DECIDED_SCORE + 1, 0), TM_DECIDED_SCALE);
        assert_eq!(soft_scale(win - 9, win - 9, 5), TM_DECIDED_SCALE, "a win found");
        assert_eq!(soft_scale(-TM_DECIDED_SCORE - 1, -TM_DECIDED_SCORE - 1, 0), 100, "lost");
        assert_eq!(soft_scale(-win + 22, -win + 22, 5), TM_STABLE_SCALE, "a loss found, stable");
        assert_eq!(soft_scale(-win + 22, 10, 0), 100 + TM_DROP_EXTRA, "a loss just seen");
        assert_eq!(soft_scale(0, 0, 3), TM_STABLE_SCALE);
        assert_eq!(soft_scale(0, 100, 0), 100 + TM_DROP_EXTRA);
    }

    #[test]
    fn fake_clock_drives_the_limits() {
        let clock = FakeClock::default();
        let tm = TimeManager::new(&clock, Limits::movetime(1000));
        let short = Duration::from_millis(10);
        let long = Duration::from_millis(800);
        assert!(!tm.hard_exceeded());
        assert!(tm.may_start_iteration(100, short));
        clock.advance_ms(300);
        assert!(tm.may_start_iteration(100, short));
        assert!(!tm.may_start_iteration(50, short), "a stable best move halves the soft limit");
        assert!(
            tm.may_start_iteration(100, long),
            "early in the move, an iteration starts even if the hard limit will cut it"
        );
        clock.advance_ms(400);
        assert!(tm.may_start_iteration(200, short), "a score drop stretches the soft limit");
        assert!(
            !tm.may_start_iteration(200, long),
            "late in the move, an iteration that cannot finish is not started"
        );
        assert!(!tm.may_start_iteration(100, short));
        let reserve = crate::core::params::DEFENCE_TIME_PERCENT as u64 * 10;
        assert!(tm.search_past_percent(70), "700 ms of the search's 900");
        assert!(!tm.search_past_percent(80));
        assert!(!TimeManager::new(&clock, Limits::depth(3)).search_past_percent(0), "no clock");
        clock.advance_ms(300 - reserve - 1);
        assert!(!tm.search_exceeded());
        clock.advance_ms(1);
        assert!(tm.search_exceeded(), "the search stops where the defence's share begins");
        assert!(!tm.hard_exceeded());
        clock.advance_ms(reserve);
        assert!(tm.hard_exceeded());
    }

    #[test]
    fn a_verified_move_gives_the_checks_share_to_the_search() {
        use crate::core::params::{DEFENCE_TIME_PERCENT, DEFENCE_VERIFIED_PERCENT};
        let clock = FakeClock::default();
        let tm = TimeManager::new(&clock, Limits::movetime(1000));
        let (usual, verified) =
            (DEFENCE_TIME_PERCENT as u64 * 10, DEFENCE_VERIFIED_PERCENT as u64 * 10);
        assert!(verified < usual);
        clock.advance_ms(1000 - usual);
        assert!(tm.search_exceeded(), "unverified: the check's share is kept");
        tm.set_verified(true);
        assert!(!tm.search_exceeded(), "verified: the search goes on");
        assert!(!tm.may_start_iteration(100, Duration::from_millis(10)), "the soft limit holds");
        clock.advance_ms(usual - verified - 1);
        assert!(!tm.search_exceeded());
        clock.advance_ms(1);
        assert!(tm.search_exceeded() && !tm.hard_exceeded(), "the smaller share");
        tm.set_verified(false);
        assert!(tm.search_exceeded(), "a new best move needs the check again");
        clock.advance_ms(verified);
        assert!(tm.hard_exceeded());
        // After a ponder hit too.
        let hit = PonderHit::default();
        hit.arm(7);
        let then = Limits::movetime(1000);
        let tm = TimeManager::new(&clock, Limits::ponder(60_000)).until_hit(hit.clone(), then);
        assert!(hit.take(7));
        assert!(!tm.search_exceeded());
        clock.advance_ms(1000 - usual);
        tm.early_check_done();
        assert!(tm.search_exceeded());
        tm.set_verified(true);
        assert!(!tm.search_exceeded());
        clock.advance_ms(usual - verified);
        assert!(tm.search_exceeded() && !tm.hard_exceeded());
    }

    #[test]
    fn a_move_the_cap_binds_spends_all_of_its_time() {
        use crate::clock::budget::TimeControl;
        use crate::core::params::{DEFENCE_TIME_PERCENT, TM_DECIDED_SCALE, TM_STABLE_SCALE};
        let clock = FakeClock::default();
        let (short, long) = (Duration::from_millis(10), Duration::from_millis(5_000));
        // The judge's start: the game's share of a move is above the per-move cap.
        let limits = Limits::for_move(&TimeControl::judge(90_000), 136, 4);
        assert_eq!(limits.soft, limits.hard);
        let tm = TimeManager::new(&clock, limits);
        let search =
            limits.hard.unwrap().as_millis() as u64 * (100 - DEFENCE_TIME_PERCENT as u64) / 100;
        clock.advance_ms(search - 1);
        assert!(tm.may_start_iteration(TM_STABLE_SCALE, long), "a stable move goes on");
        assert!(tm.may_start_iteration(TM_DECIDED_SCALE, long), "a won one too");
        assert!(tm.may_start_iteration(100, long), "an iteration the clock will cut");
        clock.advance_ms(1);
        assert!(!tm.may_start_iteration(100, short), "the search's part is over");
        // Late in a game short of time the soft limit is below the cap: time saved is kept.
        let limits = Limits::for_move(&TimeControl::judge(20_000), 40, 100);
        assert!(limits.soft < limits.hard);
        let tm = TimeManager::new(&clock, limits);
        clock.advance_ms(limits.soft.unwrap().as_millis() as u64 * TM_STABLE_SCALE / 100 + 1);
        assert!(!tm.may_start_iteration(TM_STABLE_SCALE, short), "a stable move stops");
        assert!(tm.may_start_iteration(100, short));
        clock.advance_ms(limits.soft.unwrap().as_millis() as u64);
        assert!(!tm.may_start_iteration(100, short), "past the soft limit");
        assert!(!tm.search_exceeded(), "well before the hard one");
    }

    #[test]
    fn a_ponder_switches_to_the_moves_limits_when_the_reply_comes() {
        let clock = FakeClock::default();
        let hit = PonderHit::default();
        hit.arm(3);
        let then = Limits::movetime(1000);
        let tm = TimeManager::new(&clock, Limits::ponder(60_000)).until_hit(hit.clone(), then);
        let short = Duration::from_millis(10);
        clock.advance_ms(10_000);
        assert!(!tm.search_exceeded() && !tm.hard_exceeded(), "pondering: a minute at most");
        assert!(!tm.search_past_percent(DEFENCE_EARLY), "the early check waits for the move");
        assert!(tm.may_start_iteration(100, short), "no soft limit while pondering");
        assert!(hit.take(3));
        // The move's limits count from the first look at the clock after the reply.
        assert!(!tm.hard_exceeded());
        clock.advance_ms(499);
        assert!(tm.may_start_iteration(100, short));
        assert!(tm.search_past_percent(DEFENCE_EARLY), "the early check runs in the move");
        clock.advance_ms(1);
        assert!(!tm.may_start_iteration(100, short), "the move's soft limit (500 ms)");
        let reserve = crate::core::params::DEFENCE_HIT_PERCENT as u64 * 10;
        clock.advance_ms(500 - reserve - 1);
        assert!(!tm.search_exceeded());
        clock.advance_ms(1);
        assert!(tm.search_exceeded(), "the move's hard limit less the hit's larger check share");
        assert!(!tm.hard_exceeded());
        clock.advance_ms(reserve);
        assert!(tm.hard_exceeded());
        assert_eq!(tm.elapsed(), Duration::from_millis(11_000), "reports count from the start");
        // After the early check, the move's search keeps the usual share.
        let tm = TimeManager::new(&clock, Limits::ponder(60_000)).until_hit(hit.clone(), then);
        hit.arm(5);
        assert!(hit.take(5));
        assert!(!tm.search_exceeded());
        let (usual, larger) = (
            crate::core::params::DEFENCE_TIME_PERCENT as u64 * 10,
            crate::core::params::DEFENCE_HIT_PERCENT as u64 * 10,
        );
        clock.advance_ms(1000 - larger);
        assert!(tm.search_exceeded(), "before the early check: the hit's share");
        tm.early_check_done();
        assert!(!tm.search_exceeded(), "after it: the search goes on");
        clock.advance_ms(larger - usual - 1);
        assert!(!tm.search_exceeded());
        clock.advance_ms(1);
        assert!(tm.search_exceeded() && !tm.hard_exceeded(), "the usual share");
    }

    const DEFENCE_EARLY: u32 = crate::core::params::DEFENCE_EARLY_PERCENT;

    #[test]
    fn iteration_times_are_predicted_from_their_growth() {
        let ms = Duration::from_millis;
        assert_eq!(predict_iteration(ms(100), ms(300)), ms(900));
        assert_eq!(predict_iteration(ms(100), ms(100)), ms(150), "at least 1.5 times");
        assert_eq!(predict_iteration(ms(1), ms(100)), ms(600), "at most 6 times");
        assert_eq!(predict_iteration(Duration::ZERO, ms(10)), ms(60));
        assert_eq!(predict_iteration(Duration::from_nanos(1), ms(1)), ms(6), "no overflow");
    }
}
