//! The engine: one game's board, the search and its tables, behind a small API that every
//! front-end (judge protocol, Gomocup, board matrix, play by hand, bench) drives the same way.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::board::{Board, Color, Pos, StartPos};
use crate::clock::budget::Limits;
use crate::clock::ponder::PonderHit;
use crate::clock::timeman::Clock;
use crate::search::searcher::Searcher;
use crate::search::SearchReport;

/// Faults that tests can inject to prove the safety net works.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Fault {
    /// Behave.
    #[default]
    None,
    /// Panic inside the search.
    SearchPanic,
}

/// The answer to a request for a move.
#[derive(Clone, Debug)]
pub struct Decision {
    /// The move (`None` only on a full board).
    pub pos: Option<Pos>,
    /// What the search reported, when it ran to the end.
    pub report: Option<SearchReport>,
    /// A note for the log when the safety net had to answer.
    pub note: Option<String>,
}

/// What a ponder found: our answer to the position after the opponent's expected reply.
#[derive(Clone, Debug)]
pub struct Pondered {
    /// The key of that position (our side to move): a later position with this key is a hit.
    pub key: u64,
    /// The search's answer there.
    pub report: SearchReport,
    /// Time the search for it had, from the start of the ponder.
    pub spent: Duration,
    /// Whether the expected reply came while that search ran: it went on as the move's own
    /// search, under the move's limits, so its answer is final.
    pub continued: bool,
}

/// A game in progress and everything needed to think about it.
pub struct Engine {
    board: Board,
    start: StartPos,
    searcher: Searcher,
    fault: Fault,
    safety_net_only: bool,
    /// Play the opening book's move when it has one (see `crate::book`).
    book: bool,
}

impl Engine {
    /// An engine with a `hash_mb` transposition table, ready for a 12×12 judge game.
    pub fn new(hash_mb: usize) -> Engine {
        Engine {
            board: Board::with_start(crate::board::DEFAULT_SIZE, StartPos::Center4),
            start: StartPos::Center4,
            searcher: Searcher::new(hash_mb),
            fault: Fault::None,
            safety_net_only: false,
            book: true,
        }
    }

    /// Sets an injected fault (tests only).
    pub fn set_fault(&mut self, fault: Fault) {
        self.fault = fault;
    }

    /// Answers every move with the safety-net chooser alone: a weak, instant player (the
    /// foundation's chooser) to measure the search against.
    pub fn set_safety_net_only(&mut self, on: bool) {
        self.safety_net_only = on;
    }

    /// Turns the opening book on or off (on by default).
    pub fn set_book(&mut self, on: bool) {
        self.book = on;
    }

    /// Thinks on the opponent's time, until `stop` is raised (any input line) or
    /// [`crate::core::params::PONDER_MAX_MS`] passes. With `reply`, the opponent's expected move,
    /// it first searches our answer to it, as if that move had been played: if it is, the
    /// result is returned ([`Pondered`]). With `watch` as well (its [`PonderHit`] shared with
    /// the input reader, and the limits of our next move), the reply's arrival does not stop
    /// that search: it goes on with the move's own limits, counted from the reply, and ends
    /// as the move's search (`continued`), so that the move gets the opponent's time and its
    /// own. Otherwise, or once that search has nothing left to do, it searches the opponent's
    /// position to fill the hash table for whatever comes. Nothing is played; a failure is
    /// ignored.
    pub fn ponder(
        &mut self,
        me: Color,
        reply: Option<Pos>,
        watch: Option<(PonderHit, Limits)>,
        clock: &dyn Clock,
        stop: &AtomicBool,
    ) -> Option<Pondered> {
        if self.safety_net_only || crate::search::movegen::quick_move(&self.board).is_none() {
            return None;
        }
        let started = clock.now();
        let limits = Limits::ponder(crate::core::params::PONDER_MAX_MS);
        let mut found = None;
        if let Some(reply) = reply.filter(|&p| self.board.is_empty(p)) {
            let mut board = self.board.clone();
            board.put(reply, me.opp());
            board.set_side_to_move(me);
            if !board.last_move_won() && crate::search::movegen::quick_move(&board).is_some() {
                let key = board.key();
                if let Some((hit, _)) = &watch {
                    hit.arm(reply.0);
                }
                let report = self.search_quietly(&mut board, limits, watch.clone(), clock, stop);
                // Disarmed before anything else runs: a reply from now on stops the ponder.
                let continued = watch.map_or(false, |(hit, _)| hit.disarm());
                if let Some(report) = report.filter(|r| r.best.map_or(false, |p| board.is_empty(p)))
                {
                    let spent = clock.now() - started;
                    found = Some(Pondered { key, report, spent, continued });
                }
                if continued {
                    // The reply came and nothing stopped the search: the move is due now.
                    return found;
                }
            }
        }
        if !stop.load(Ordering::SeqCst) {
            let mut board = self.board.clone();
            board.set_side_to_move(me.opp());
            let left = limits.less(clock.now() - started);
            self.search_quietly(&mut board, left, None, clock, stop);
        }
        found
    }

    /// A search of `board` for pondering: no progress reports; a panic resets the tables
    /// and gives `None` (nothing is played from a ponder, so nothing else is needed).
    fn search_quietly(
        &mut self,
        board: &mut Board,
        limits: Limits,
        watch: Option<(PonderHit, Limits)>,
        clock: &dyn Clock,
        stop: &AtomicBool,
    ) -> Option<SearchReport> {
        let searcher = &mut self.searcher;
        let done = catch_unwind(AssertUnwindSafe(|| {
            searcher.think_until_hit(board, limits, watch, clock, stop, &mut |_| {})
        }));
        if done.is_err() {
            self.searcher.reset();
        }
        done.ok()
    }

    /// Starts a new game on a `size` board from `start`. The hash table is aged, not cleared,
    /// so this takes microseconds.
    pub fn new_game(&mut self, size: usize, start: StartPos) {
        self.board = Board::with_start(size, start);
        self.start = start;
        self.searcher.new_game();
    }

    /// Replaces the position: `stones` are played in order, then `to_move` is to move.
    pub fn set_position(&mut self, size: usize, stones: &[(Pos, Color)], to_move: Color) {
        self.board = Board::new(size);
        self.start = StartPos::Empty;
        for &(p, c) in stones {
            self.board.put(p, c);
        }
        self.board.set_side_to_move(to_move);
        self.searcher.new_game();
    }

    /// The current board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The start of the current game.
    pub fn start(&self) -> StartPos {
        self.start
    }

    /// Checks that a stone may go to `row`, `col`.
    pub fn check_move(&self, row: i64, col: i64) -> Result<Pos, String> {
        let n = self.board.size() as i64;
        if row < 0 || col < 0 || row >= n || col >= n {
            return Err(format!("{row},{col} is off the {n}x{n} board"));
        }
        let p = Pos::new(row as usize, col as usize);
        if !self.board.is_empty(p) {
            return Err(format!("{row},{col} is already taken"));
        }
        Ok(p)
    }

    /// Plays a stone of `color` at `p` (checked by [`Engine::check_move`]).
    pub fn play(&mut self, p: Pos, color: Color) {
        self.board.put(p, color);
    }

    /// Takes back the last stone; false when there is none to take back.
    pub fn undo(&mut self) -> bool {
        if self.board.history().is_empty() {
            return false;
        }
        self.board.unmake();
        true
    }

    /// Chooses a move for `color` within `limits`, stopping early when `stop` is set. A panic
    /// in the search is caught and answered by the safety-net chooser.
    pub fn think(
        &mut self,
        color: Color,
        limits: Limits,
        clock: &dyn Clock,
        stop: &AtomicBool,
        on_iteration: &mut dyn FnMut(&SearchReport),
    ) -> Decision {
        self.board.set_side_to_move(color);
        let quick = crate::search::movegen::quick_move(&self.board);
        if quick.is_none() {
            return Decision { pos: None, report: None, note: Some("the board is full".into()) };
        }
        if self.safety_net_only {
            return Decision { pos: quick, report: None, note: None };
        }
        // The book knows only the judge's start; its move is checked to be an empty point.
        if self.book && self.start == StartPos::Center4 {
            if let Some(hit) = crate::book::lookup(&self.board) {
                let source = if hit.proven { "book (proven win)" } else { "book" };
                let report = SearchReport {
                    best: Some(hit.pos),
                    pv: vec![hit.pos],
                    source,
                    ..SearchReport::default()
                };
                return Decision { pos: Some(hit.pos), report: Some(report), note: None };
            }
        }
        let mut board = self.board.clone();
        let fault = self.fault;
        let searcher = &mut self.searcher;
        let result = catch_unwind(AssertUnwindSafe(|| {
            if fault == Fault::SearchPanic {
                panic!("injected search fault");
            }
            searcher.think(&mut board, limits, clock, stop, on_iteration)
        }));
        match result {
            Ok(report) if report.best.map_or(false, |p| self.board.is_empty(p)) => {
                Decision { pos: report.best, report: Some(report), note: None }
            }
            Ok(_) => Decision {
                pos: quick,
                report: None,
                note: Some("search gave no legal move; safety net answered".into()),
            },
            Err(cause) => {
                let what = cause
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| cause.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown".into());
                // The search's tables may be inconsistent now: start them afresh.
                self.searcher.reset();
                Decision {
                    pos: quick,
                    report: None,
                    note: Some(format!("search failed ({what}); safety net answered")),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::timeman::WallClock;

    #[test]
    fn ponder_answers_the_expected_reply_and_leaves_the_game_alone() {
        let mut engine = Engine::new(1);
        engine.set_book(false);
        let clock = WallClock::new();
        let stop = AtomicBool::new(false);
        let d = engine.think(Color::Black, Limits::depth(5), &clock, &stop, &mut |_| {});
        let ours = d.pos.unwrap();
        engine.play(ours, Color::Black);
        let before = engine.board().key();
        let reply = d.report.unwrap().pv.get(1).copied().expect("a reply in the line");
        // The ponder has no limit of its own short of a minute: it must think until the
        // other thread raises `stop`, which it does only after marking `told`.
        let told = AtomicBool::new(false);
        let found = std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(300));
                told.store(true, Ordering::SeqCst);
                stop.store(true, Ordering::SeqCst);
            });
            let found = engine.ponder(Color::Black, Some(reply), None, &clock, &stop);
            // Read before the scope ends: leaving it waits for the other thread.
            assert!(told.load(Ordering::SeqCst), "it thought until told to stop");
            found
        });
        assert_eq!(engine.board().key(), before, "pondering plays nothing");
        let found = found.expect("a pondered answer");
        // The answer belongs to the position after the reply, with us to move.
        let mut after = engine.board().clone();
        after.put(reply, Color::White);
        after.set_side_to_move(Color::Black);
        assert_eq!(found.key, after.key());
        let best = found.report.best.unwrap();
        assert!(after.is_empty(best) && best != reply);
        assert!(found.spent > std::time::Duration::ZERO);
    }

    #[test]
    fn a_ponder_hit_goes_on_as_the_moves_search_and_ends_by_its_limits() {
        let mut engine = Engine::new(1);
        engine.set_book(false);
        let clock = WallClock::new();
        let stop = AtomicBool::new(false);
        let d = engine.think(Color::Black, Limits::depth(5), &clock, &stop, &mut |_| {});
        engine.play(d.pos.unwrap(), Color::Black);
        let reply = d.report.unwrap().pv.get(1).copied().expect("a reply in the line");
        let hit = PonderHit::default();
        let then = Limits::movetime(400);
        // The other thread plays the reader's part: the reply comes after 200 ms. Nothing
        // raises `stop` unless the ponder outlives a generous watchdog.
        let watchdog = AtomicBool::new(false);
        let found = std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(200));
                assert!(hit.take(reply.0), "the ponder armed the reply");
                for _ in 0..300 {
                    std::thread::sleep(std::time::Duration::from_millis(100));
                    if !hit.is_hit() {
                        return;
                    }
                }
                watchdog.store(true, Ordering::SeqCst);
                stop.store(true, Ordering::SeqCst);
            });
            engine.ponder(Color::Black, Some(reply), Some((hit.clone(), then)), &clock, &stop)
        });
        assert!(!watchdog.load(Ordering::SeqCst), "the move's limits ended the search");
        assert!(!stop.load(Ordering::SeqCst));
        let found = found.expect("the move's answer");
        assert!(found.continued, "it went on as the move's search");
        assert!(found.spent >= std::time::Duration::from_millis(200));
        let mut after = engine.board().clone();
        after.put(reply, Color::White);
        after.set_side_to_move(Color::Black);
        assert_eq!(found.key, after.key());
        assert!(after.is_empty(found.report.best.unwrap()));
        assert!(!hit.take(reply.0), "disarmed after the search");
    }

    #[test]
    fn a_panicking_search_is_answered_by_the_safety_net() {
        let mut engine = Engine::new(1);
        // The book would answer the start without searching.
        engine.set_book(false);
        engine.set_fault(Fault::SearchPanic);
        let clock = WallClock::new();
        let stop = AtomicBool::new(false);
        let d = engine.think(Color::Black, Limits::depth(4), &clock, &stop, &mut |_| {});
        let p = d.pos.expect("a move");
        assert!(engine.board().is_empty(p));
        assert!(d.note.unwrap().contains("search failed"));
        // The engine stays usable: the next move is searched normally.
        engine.play(p, Color::Black);
        engine.set_fault(Fault::None);
        let d = engine.think(Color::White, Limits::depth(3), &clock, &stop, &mut |_| {});
        assert!(d.report.is_some() && d.note.is_none());
        assert!(engine.board().is_empty(d.pos.unwrap()));
    }
}
