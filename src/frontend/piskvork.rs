//! The Gomocup (piskvork) protocol, `wuzi --protocol piskvork`: for Piskvork, c-gomoku-cli
//! and Gomocup-style tournaments on boards from 5×5 to 15×15. Coordinates are `x,y`, that is
//! column,row. Freestyle only (five or more wins).
//!
//! Answers: `OK`, a move `x,y`, `ERROR reason` for a malformed or unsupported command,
//! `UNKNOWN reason` for an unknown one; `MESSAGE` lines carry the search summary. Lines
//! starting with `#` are comments (for transcripts).

use std::io::{Read, Write};
use std::sync::atomic::Ordering;

use crate::board::{Color, Pos, MAX_SIZE, MIN_SIZE};
use crate::clock::budget::{Limits, TimeControl};
use crate::clock::timeman::WallClock;
use crate::engine::Engine;
use crate::frontend::input::{spawn_reader, Line, Signals};
use crate::frontend::protocol::{sanitize, Settings};

/// The clock as the manager set it with `INFO`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// `timeout_turn`, ms (0: play as fast as possible).
    pub turn_ms: u64,
    /// `timeout_match`, ms (0: no limit).
    pub match_ms: u64,
    /// `time_left`, ms, when told.
    pub left_ms: Option<u64>,
}

impl Default for Clock {
    fn default() -> Self {
        // Gomocup's usual defaults until the manager says otherwise.
        Clock { turn_ms: 5_000, match_ms: 180_000, left_ms: None }
    }
}

impl Clock {
    /// The search limits for a move with `empty` points left, `played` stones on the board.
    pub fn limits(&self, empty: usize, played: usize) -> Limits {
        if self.turn_ms == 0 {
            return Limits::movetime(crate::core::params::FAST_MOVE_MS);
        }
        let left = match (self.left_ms, self.match_ms) {
            (Some(l), _) => l,
            (None, 0) => u64::MAX / 4,
            (None, m) => m,
        };
        let tc = TimeControl {
            move_ms: self.turn_ms,
            game_left_ms: left,
            // Keep an eighth of the turn (at most 400 ms) for I/O and a loaded machine.
            margin_ms: (self.turn_ms / 8).min(crate::core::params::MOVE_MARGIN_MS),
            reserve_ms: (left / 30).min(crate::core::params::GAME_RESERVE_MS),
        };
        Limits::for_move(&tc, empty, played)
    }
}

/// `x,y` (column,row) to a point, checked against the board.
fn parse_xy(engine: &Engine, text: &str) -> Result<(i64, i64), String> {
    let mut it = text.split(',').map(|t| t.trim().parse::<i64>());
    match (it.next(), it.next(), it.next()) {
        (Some(Ok(x)), Some(Ok(y)), None) => {
            let n = engine.board().size() as i64;
            if x < 0 || y < 0 || x >= n || y >= n {
                Err(format!("{x},{y} is off the {n}x{n} board"))
            } else {
                Ok((x, y))
            }
        }
        _ => Err(format!("'{}' is not x,y", sanitize(text))),
    }
}

/// The loop's state between commands.
struct Session {
    engine: Engine,
    started: bool,
    clock: Clock,
    /// A `BOARD` being read.
    board: Option<PendingBoard>,
}

/// The stones of a `BOARD` block read so far (own = true), and the first error in it.
type PendingBoard = (Vec<(Pos, bool)>, Option<String>);

/// Runs the Gomocup protocol on `input` and `output` until `END` or the end of input.
pub fn run<W: Write>(settings: &Settings, input: Box<dyn Read + Send>, mut out: W) {
    let signals = Signals::new();
    let mut reader = spawn_reader(
        input,
        signals.clone(),
        |l: Line| l,
        |l| l.as_ref().map_or(false, |t| t.trim().eq_ignore_ascii_case("END")),
        |_| None,
    );
    let mut s = Session {
        engine: Engine::new(settings.hash_mb),
        started: false,
        clock: Clock::default(),
        board: None,
    };
    s.engine.set_fault(settings.fault);
    let clock = WallClock::new();
    let say = |out: &mut W, line: &str| {
        // A closed pipe means the manager is gone; nothing is left to do.
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    };
    while let Some(line) = reader.next_command() {
        let text = match line {
            Ok(t) => t,
            Err(len) => {
                say(&mut out, &format!("ERROR line of {len} bytes is too long"));
                continue;
            }
        };
        let t = text.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let (word, rest) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
        let word = word.to_ascii_uppercase();
        let rest = rest.trim();
        if let Some((stones, error)) = s.board.as_mut() {
            if word != "DONE" {
                let parsed = parse_board_line(&s.engine, t);
                match parsed {
                    Ok((p, own)) if stones.iter().all(|(q, _)| *q != p) => stones.push((p, own)),
                    Ok((p, _)) => {
                        error.get_or_insert(format!("{},{} is given twice", p.col(), p.row()));
                    }
                    Err(why) => {
                        error.get_or_insert(why);
                    }
                }
                continue;
            }
        }
        let need_start = !matches!(word.as_str(), "START" | "INFO" | "ABOUT" | "END");
        if need_start && !s.started {
            say(&mut out, "ERROR no game: send START first");
            continue;
        }
        let mut think = false;
        match word.as_str() {
            "START" => match rest.parse::<usize>() {
                Ok(n) if (MIN_SIZE..=MAX_SIZE).contains(&n) => {
                    s.engine.new_game(n, crate::board::StartPos::Empty);
                    s.started = true;
                    say(&mut out, "OK");
                }
                Ok(n) => say(&mut out, &format!("ERROR board size {n} not supported (5 to 15)")),
                Err(_) => {
                    say(&mut out, &format!("ERROR START needs a size, got '{}'", sanitize(rest)))
                }
            },
            "RESTART" => {
                let n = s.engine.board().size();
                s.engine.new_game(n, crate::board::StartPos::Empty);
                say(&mut out, "OK");
            }
            "BEGIN" => think = true,
            "TURN" => match parse_xy(&s.engine, rest) {
                Ok((x, y)) => match s.engine.check_move(y, x) {
                    Ok(p) => {
                        let color = s.engine.board().side_to_move();
                        s.engine.play(p, color);
                        think = true;
                    }
                    Err(why) => say(&mut out, &format!("ERROR TURN {}: {why}", sanitize(rest))),
                },
                Err(why) => say(&mut out, &format!("ERROR TURN: {why}")),
            },
            "BOARD" => s.board = Some((Vec::new(), None)),
            "DONE" => match s.board.take() {
                Some((_, Some(error))) => say(&mut out, &format!("ERROR BOARD: {error}")),
                Some((stones, None)) => {
                    set_board(&mut s.engine, &stones);
                    think = true;
                }
                None => say(&mut out, "ERROR DONE without BOARD"),
            },
            "TAKEBACK" => match parse_xy(&s.engine, rest) {
                Ok((x, y)) => match take_back(&mut s.engine, Pos::new(y as usize, x as usize)) {
                    Ok(()) => say(&mut out, "OK"),
                    Err(why) => say(&mut out, &format!("ERROR TAKEBACK: {why}")),
                },
                Err(why) => say(&mut out, &format!("ERROR TAKEBACK: {why}")),
            },
            "INFO" => {
                if let Err(why) = info(&mut s.clock, rest) {
                    say(&mut out, &format!("ERROR {why}"));
                }
            }
            "ABOUT" => say(
                &mut out,
                &format!(
                    "name=\"wuzi\", version=\"{}\", author=\"the wuzi developers\", country=\"CN\"",
                    env!("CARGO_PKG_VERSION")
                ),
            ),
            "END" => break,
            _ => say(&mut out, &format!("UNKNOWN command '{}'", sanitize(&word))),
        }
        if !think {
            continue;
        }
        let board = s.engine.board();
        let empty = board.size() * board.size() - board.stone_count();
        let late = reader.since_last_read();
        let limits =
            settings.fixed.unwrap_or_else(|| s.clock.limits(empty, board.stone_count()).less(late));
        // At the end of input nobody waits for a deeper search: answer at once. An END read
        // while thinking stops the search too; the move found so far is still given, then
        // the loop reads the END and stops.
        signals.stop.store(signals.ended.load(Ordering::SeqCst), Ordering::SeqCst);
        reader.permit();
        let me = s.engine.board().side_to_move();
        let decision = s.engine.think(me, limits, &clock, &signals.stop, &mut |_| {});
        match decision.pos {
            Some(p) => {
                if let Some(r) = &decision.report {
                    if settings.verbose {
                        say(&mut out, &format!("MESSAGE {}", r.summary()));
                    }
                }
                if let Some(note) = &decision.note {
                    say(&mut out, &format!("MESSAGE {note}"));
                }
                s.engine.play(p, me);
                say(&mut out, &format!("{},{}", p.col(), p.row()));
            }
            None => say(&mut out, "ERROR the board is full"),
        }
    }
}

/// One `x,y,who` line of a `BOARD` block.
fn parse_board_line(engine: &Engine, line: &str) -> Result<(Pos, bool), String> {
    let parts: Vec<&str> = line.split(',').map(str::trim).collect();
    if parts.len() != 3 {
        return Err(format!("'{}' is not x,y,who", sanitize(line)));
    }
    let (x, y) = parse_xy(engine, &format!("{},{}", parts[0], parts[1]))?;
    let p = Pos::new(y as usize, x as usize);
    match parts[2] {
        "1" => Ok((p, true)),
        "2" => Ok((p, false)),
        "3" => Err("continuous-game stones (3) are not supported".into()),
        other => Err(format!("who must be 1 or 2, got '{}'", sanitize(other))),
    }
}

/// Sets up a `BOARD` position with us to move: we are black when the stone counts are equal.
fn set_board(engine: &mut Engine, stones: &[(Pos, bool)]) {
    let own = stones.iter().filter(|(_, o)| *o).count();
    let me = if own * 2 == stones.len() { Color::Black } else { Color::White };
    let placed: Vec<(Pos, Color)> =
        stones.iter().map(|&(p, o)| (p, if o { me } else { me.opp() })).collect();
    let size = engine.board().size();
    engine.set_position(size, &placed, me);
}

/// Removes the stone at `p`; the side that played it is to move again.
fn take_back(engine: &mut Engine, p: Pos) -> Result<(), String> {
    let color = match engine.board().stone(p) {
        Some(color) => color,
        None => {
            return Err(format!("no stone at {},{}", p.col(), p.row()));
        }
    };
    if engine.board().last_move() == Some(p) {
        engine.undo();
        return Ok(());
    }
    let size = engine.board().size();
    let kept: Vec<(Pos, Color)> = engine.board().moves().filter(|&(q, _)| q != p).collect();
    engine.set_position(size, &kept, color);
    Ok(())
}

/// Applies one `INFO key value`.
fn info(clock: &mut Clock, rest: &str) -> Result<(), String> {
    let (key, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let key = key.to_ascii_lowercase();
    let value = value.trim();
    let number = || {
        value
            .parse::<i64>()
            .map_err(|_| format!("INFO {key}: '{}' is not a number", sanitize(value)))
    };
    match key.as_str() {
        "timeout_turn" => clock.turn_ms = number()?.max(0) as u64,
        "timeout_match" => clock.match_ms = number()?.max(0) as u64,
        "time_left" => clock.left_ms = Some(number()?.max(0) as u64),
        // Memory: the engine needs about 70 MB; nothing to adjust below the usual limits.
        "max_memory" | "game_type" => {
            number()?;
        }
        "rule" => {
            let rule = number()?;
            if rule != 0 {
                return Err(format!("rule {rule} is not supported: wuzi plays freestyle (rule 0)"));
            }
        }
        // Informational keys some managers send.
        "folder" | "evaluate" => {}
        _ => return Err(format!("INFO key '{}' is not supported", sanitize(&key))),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_limits_follow_the_info_values() {
        let mut c = Clock::default();
        info(&mut c, "timeout_turn 2000").unwrap();
        info(&mut c, "timeout_match 90000").unwrap();
        info(&mut c, "time_left 90000").unwrap();
        let l = c.limits(140, 4);
        assert!(l.hard.unwrap().as_millis() <= 1750, "{l:?}");
        info(&mut c, "timeout_turn 0").unwrap();
        assert!(c.limits(140, 4).hard.unwrap().as_millis() <= 100);
        assert!(info(&mut c, "rule 1").is_err());
        assert!(info(&mut c, "rule 0").is_ok());
        assert!(info(&mut c, "colour blue").is_err());
        assert!(info(&mut c, "timeout_turn soon").is_err());
    }
}
