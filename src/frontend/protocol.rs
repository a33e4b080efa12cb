//! The 12×12 judge protocol: `START F`, `PLACE X Y`, `TURN`, `END F`. This layer only does
//! I/O: it parses lines into [`Command`]s on a reader thread (so that `END` can stop a
//! search at once) and drives the [`Engine`] through its small API.

use std::io::{Read, Write};
use std::sync::atomic::Ordering;
use std::time::Duration;

use crate::board::{Color, StartPos};
use crate::clock::budget::{Limits, TimeControl};
use crate::clock::timeman::{Clock, WallClock};
use crate::engine::{Decision, Engine, Fault, Pondered};
use crate::frontend::input::{spawn_reader, Line, Signals};

/// DEBUG bytes allowed per game (the judge keeps 32 KB in all, 16 KB a line).
pub const DEBUG_BUDGET: usize = 28 * 1024;
/// Longest DEBUG line written.
pub const DEBUG_LINE_MAX: usize = 2000;

/// One parsed input line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START F`: a new game; we are black (1) or white (2).
    Start(Color),
    /// `PLACE X Y`: the opponent's stone.
    Place(i64, i64),
    /// `MINE X Y`: our own stone (an extension for setting up openings; not from the judge).
    Mine(i64, i64),
    /// `TURN`: our move.
    Turn,
    /// `END F`: the game is over (0 draw, 1 we won, 2 we lost).
    End(u8),
    /// A blank line or a `#` comment: ignored.
    Nothing,
    /// A line that is not a command; the text says what was wrong.
    Invalid(String),
}

/// Shows at most 60 characters of `s`, with control characters escaped.
pub fn sanitize(s: &str) -> String {
    let mut out: String = s.chars().take(60).flat_map(char::escape_debug).collect();
    if s.chars().count() > 60 {
        out.push('…');
    }
    out
}

fn parse_int(token: &str) -> Result<i64, String> {
    token.parse::<i64>().map_err(|_| format!("'{}' is not a whole number", sanitize(token)))
}

/// Parses a line as read by the input thread.
pub fn parse_input(line: Line) -> Command {
    match line {
        Ok(text) => parse_line(&text),
        Err(len) => Command::Invalid(format!("line of {len} bytes is too long")),
    }
}

/// Parses one input line (without its line ending).
pub fn parse_line(line: &str) -> Command {
    let trimmed = line.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return Command::Nothing;
    }
    let words: Vec<&str> = trimmed.split_whitespace().collect();
    let name = words[0].to_ascii_uppercase();
    let args = &words[1..];
    let want = |n: usize| -> Result<(), String> {
        if args.len() == n {
            Ok(())
        } else {
            Err(format!("{name} takes {n} argument(s), got {}: '{}'", args.len(), sanitize(line)))
        }
    };
    let parsed = match name.as_str() {
        "START" => want(1).and_then(|_| match args[0] {
            "1" => Ok(Command::Start(Color::Black)),
            "2" => Ok(Command::Start(Color::White)),
            other => Err(format!("START needs 1 (black) or 2 (white), got '{}'", sanitize(other))),
        }),
        "PLACE" | "MINE" => want(2).and_then(|_| {
            let (x, y) = (parse_int(args[0])?, parse_int(args[1])?);
            Ok(if name == "PLACE" { Command::Place(x, y) } else { Command::Mine(x, y) })
        }),
        "TURN" => want(0).map(|_| Command::Turn),
        "END" => want(1).and_then(|_| match parse_int(args[0])? {
            f @ 0..=2 => Ok(Command::End(f as u8)),
            f => Err(format!("END needs 0, 1 or 2, got {f}")),
        }),
        _ => Err(format!("unknown command '{}'", sanitize(trimmed))),
    };
    parsed.unwrap_or_else(Command::Invalid)
}

/// Writes answers and DEBUG lines, flushing each at once and keeping DEBUG output within the
/// judge's per-game budget.
pub struct Output<W: Write> {
    out: W,
    debug_used: usize,
    debug_muted: bool,
}

impl<W: Write> Output<W> {
    /// An output over `out`.
    pub fn new(out: W) -> Output<W> {
        Output { out, debug_used: 0, debug_muted: false }
    }
    /// Writes an answer line (`OK` or a move).
    pub fn answer(&mut self, line: &str) {
        // A broken pipe means the judge is gone: nothing useful is left to do with the error.
        let _ = writeln!(self.out, "{line}");
        let _ = self.out.flush();
    }
    /// Writes `DEBUG message`, one line per line of `message`, within the budget.
    pub fn debug(&mut self, message: &str) {
        for part in message.lines() {
            let mut text: String = part.chars().take(DEBUG_LINE_MAX).collect();
            if text.len() < part.len() {
                text.push('…');
            }
            let cost = text.len() + 7;
            if self.debug_muted {
                return;
            }
            if self.debug_used + cost > DEBUG_BUDGET {
                self.debug_muted = true;
                let _ = writeln!(self.out, "DEBUG debug budget used up; quiet until the next game");
                let _ = self.out.flush();
                return;
            }
            self.debug_used += cost;
            let _ = writeln!(self.out, "DEBUG {text}");
        }
        let _ = self.out.flush();
    }
    /// Starts a new game's DEBUG budget.
    pub fn reset_budget(&mut self) {
        self.debug_used = 0;
        self.debug_muted = false;
    }
}

/// Settings of the judge front-end.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The start position of each game.
    pub start: StartPos,
    /// Hash table size in MB.
    pub hash_mb: usize,
    /// A fixed budget instead of the judge's clock (for deterministic transcripts).
    pub fixed: Option<Limits>,
    /// Draw the board as DEBUG lines after each move.
    pub show_board: bool,
    /// Print the search's line after each move.
    pub verbose: bool,
    /// An injected fault (tests only).
    pub fault: Fault,
    /// Think on the opponent's time (the judge does not count it). On by default.
    pub ponder: bool,
    /// Answer with the safety-net chooser alone (a weak, instant opponent for matches).
    pub safety_net_only: bool,
    /// The judge's time for one move, ms (2000): a smaller clock makes matches faster.
    pub move_ms: u64,
    /// The judge's thinking time for one game, ms (90 000).
    pub game_ms: u64,
    /// Play the opening book's moves (`--no-book` turns it off).
    pub book: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            start: StartPos::Center4,
            hash_mb: crate::core::params::HASH_MB,
            fixed: None,
            show_board: false,
            verbose: true,
            fault: Fault::None,
            // On: 204 games at half the judge's clock against the same brain without it
            // scored +98 =28 -78 (+34 +/- 45 Elo; see the README).
            ponder: true,
            safety_net_only: false,
            move_ms: 2_000,
            game_ms: 90_000,
            book: true,
        }
    }
}

/// One game's bookkeeping.
struct Game {
    me: Color,
    /// We answered `TURN` and no stone came since.
    answered: bool,
    /// Thinking time used, in ms.
    used_ms: u64,
    /// What the last ponder found, until a stone or a new game makes it stale.
    pondered: Option<Pondered>,
}

/// Runs the judge protocol on `input` and `output` until the end of input.
pub fn run<W: Write>(settings: &Settings, input: Box<dyn Read + Send>, output: W) {
    let signals = Signals::new();
    let (stop, aborts, pondering) = (&signals.stop, &signals.aborts, &signals.pondering);
    let mut reader = spawn_reader(
        input,
        signals.clone(),
        parse_input,
        |c| matches!(c, Command::End(_) | Command::Start(_)),
        stone_code,
    );
    let mut out = Output::new(output);
    let mut engine = Engine::new(settings.hash_mb);
    engine.set_fault(settings.fault);
    engine.set_safety_net_only(settings.safety_net_only);
    engine.set_book(settings.book);
    // Pondering fills the hash table by time, which would make fixed budgets depend on it.
    let ponder = settings.ponder && settings.fixed.is_none();
    let mut game: Option<Game> = None;
    // Aborts seen by this loop: those beyond it are still queued in the channel.
    let mut handled_aborts = 0u64;
    let clock = WallClock::new();
    // Whether the line before this one was a stone: a TURN after it was sent with it.
    let mut after_stone = false;
    while let Some(cmd) = reader.next_command() {
        let stone_before = std::mem::replace(&mut after_stone, false);
        match cmd {
            Command::Nothing => {}
            Command::Invalid(why) => out.debug(&format!("ignored: {why}")),
            Command::Start(me) => {
                handled_aborts += 1;
                engine.new_game(crate::board::DEFAULT_SIZE, settings.start);
                out.reset_budget();
                out.answer("OK");
                game = Some(Game { me, answered: false, used_ms: 0, pondered: None });
            }
            Command::End(_) => {
                handled_aborts += 1;
                game = None;
            }
            Command::Place(x, y) | Command::Mine(x, y) => {
                let g = match game.as_mut() {
                    Some(g) => g,
                    None => {
                        out.debug("ignored: no game started (send START 1 or START 2 first)");
                        continue;
                    }
                };
                after_stone = true;
                let mine = matches!(cmd, Command::Mine(..));
                let color = if mine { g.me } else { g.me.opp() };
                let name = if mine { "MINE" } else { "PLACE" };
                // A stone on a taken point (the four start stones included) changes nothing:
                // the judge's board is what our answers must fit.
                match engine.check_move(x, y) {
                    Ok(p) => {
                        engine.play(p, color);
                        g.answered = false;
                        if settings.show_board {
                            out.debug(&engine.board().to_ascii(Some(p)));
                        }
                    }
                    Err(why) => out.debug(&format!("ignored: {name} {x} {y}: {why}")),
                }
            }
            Command::Turn => {
                let g = match game.as_mut() {
                    Some(g) => g,
                    None => {
                        out.debug("ignored: TURN before START");
                        continue;
                    }
                };
                if g.answered {
                    out.debug(
                        "ignored: TURN again, but I already answered and no stone came since",
                    );
                    continue;
                }
                // An END (or START) already read, or the end of input, leaves no time to
                // think: the search stops at once and its best move so far is the answer.
                let ending = aborts.load(Ordering::SeqCst) != handled_aborts
                    || signals.ended.load(Ordering::SeqCst);
                stop.store(ending, Ordering::SeqCst);
                let started = clock.now();
                // The judge's clock started when the line came in, not when this loop got
                // to it (a ponder may have been winding down): from the stone's line when
                // the TURN came right after one, since the judge sends the two together.
                let late = if stone_before {
                    reader.since_previous_read()
                } else {
                    reader.since_last_read()
                };
                let limits = settings
                    .fixed
                    .unwrap_or_else(|| clock_limits(settings, g, engine.board(), 0).less(late));
                let board = engine.board();
                let on_move = board.side_to_move() == g.me;
                let hit = g.pondered.take().filter(|p| on_move && p.key == board.key());
                let hit_report = hit.as_ref().map(|p| (p.report.clone(), p.spent.as_millis()));
                let ready = hit.filter(|p| ponder_ready(p, limits.soft.unwrap_or_default()));
                let decision = if let Some(p) = ready {
                    if p.continued {
                        out.debug(&format!(
                            "ponder hit: searched on from the expected reply, {} ms in all, \
                             {} ms since the reply",
                            p.spent.as_millis(),
                            late.as_millis()
                        ));
                    } else {
                        out.debug(&format!(
                            "ponder hit: answered from {} ms on the opponent's time",
                            p.spent.as_millis()
                        ));
                    }
                    Decision { pos: p.report.best, report: Some(p.report), note: None }
                } else {
                    if let Some(p) = &hit_report {
                        out.debug(&format!(
                            "ponder hit ({} ms on the opponent's time: {}); searching on",
                            p.1,
                            p.0.summary()
                        ));
                    }
                    // While thinking, the reader may read the next line: an END stops the
                    // search, which still answers.
                    reader.permit();
                    engine.think(g.me, limits, &clock, stop, &mut |_| {})
                };
                g.used_ms += (clock.now() - started + late).as_millis() as u64;
                answer_turn(&mut engine, g, &decision, settings, &mut out);
                let game_goes_on = aborts.load(Ordering::SeqCst) == handled_aborts;
                if ponder && g.answered && game_goes_on {
                    // Think on the opponent's time until any line comes from the judge. The
                    // flag goes up before the count is read (see the reader thread).
                    stop.store(false, Ordering::SeqCst);
                    pondering.store(true, Ordering::SeqCst);
                    if !reader.has_unreceived() {
                        reader.permit();
                        let reply = decision.report.as_ref().and_then(|r| r.pv.get(1).copied());
                        // The limits of our next move if the reply comes: the ponder then
                        // goes on as that move's search (the judge sends the stone and the
                        // TURN together, so the move's clock starts with the stone).
                        let watch = settings.fixed.is_none().then(|| {
                            (signals.hit.clone(), clock_limits(settings, g, engine.board(), 1))
                        });
                        g.pondered = engine.ponder(g.me, reply, watch, &clock, stop);
                    }
                    pondering.store(false, Ordering::SeqCst);
                }
            }
        }
    }
}

/// The judge clock's limits for our move on `board` after `ahead` more stones (1: after the
/// opponent's reply a ponder expects), from the game time `g` has left.
fn clock_limits(
    settings: &Settings,
    g: &Game,
    board: &crate::board::Board,
    ahead: usize,
) -> Limits {
    let empty = (board.size().pow(2) - board.stone_count()).saturating_sub(ahead);
    let played = board.history().len() + ahead;
    let left = settings.game_ms.saturating_sub(g.used_ms);
    let tc = TimeControl::scaled(settings.move_ms, settings.game_ms, left);
    Limits::for_move(&tc, empty, played)
}

/// The code of the stone a `PLACE` line puts, as the ponder's expected reply is armed with
/// (a position's index), for the input reader.
fn stone_code(c: &Command) -> Option<u8> {
    match *c {
        Command::Place(x, y) if (0..16).contains(&x) && (0..16).contains(&y) => {
            Some(crate::board::Pos::new(x as usize, y as usize).0)
        }
        _ => None,
    }
}

/// Whether a ponder hit is played at once: when its search went on as the move's own after
/// the reply came (`continued`), or, for a ponder whose search ended before the reply, when it
/// proved a win by threats or searched at least as long as this move may (`soft`): a new
/// search from the tables it filled would go no deeper (after a 1.6 s ponder that reached
/// depth 11, a move's own 1.6 s from its tables reached depth 10).
fn ponder_ready(p: &Pondered, soft: Duration) -> bool {
    p.continued || matches!(p.report.source, "five" | "vcf" | "vct") || p.spent >= soft
}

fn answer_turn<W: Write>(
    engine: &mut Engine,
    g: &mut Game,
    decision: &Decision,
    settings: &Settings,
    out: &mut Output<W>,
) {
    let p = match decision.pos {
        Some(p) => p,
        None => {
            out.debug(decision.note.as_deref().unwrap_or("no move"));
            return;
        }
    };
    engine.play(p, g.me);
    g.answered = true;
    out.answer(&format!("{} {}", p.row(), p.col()));
    if let Some(note) = &decision.note {
        out.debug(note);
    }
    if settings.verbose {
        if let Some(r) = &decision.report {
            out.debug(&r.summary());
        }
    }
    if settings.show_board {
        out.debug(&engine.board().to_ascii(Some(p)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_commands_loosely() {
        assert_eq!(parse_line("start 1\r"), Command::Start(Color::Black));
        assert_eq!(parse_line("  PLACE   3  4 "), Command::Place(3, 4));
        assert_eq!(parse_line("turn"), Command::Turn);
        assert_eq!(parse_line("END 2"), Command::End(2));
        assert_eq!(parse_line(""), Command::Nothing);
        assert_eq!(parse_line("# a comment"), Command::Nothing);
        assert_eq!(parse_line("MINE 1 2"), Command::Mine(1, 2));
    }

    #[test]
    fn rejects_malformed_lines_with_a_reason() {
        for bad in [
            "START 3",
            "START",
            "PLACE 1",
            "PLACE a b",
            "PLACE 99999999999999999999 1",
            "TURN 1",
            "END 7",
            "HELLO",
        ] {
            match parse_line(bad) {
                Command::Invalid(why) => assert!(!why.is_empty()),
                other => panic!("{bad:?} parsed as {other:?}"),
            }
        }
    }

    #[test]
    fn debug_output_stays_within_budget() {
        let mut out = Output::new(Vec::new());
        for _ in 0..10_000 {
            out.debug(&"x".repeat(100));
        }
        out.debug(&"y".repeat(100_000));
        let text = String::from_utf8(out.out).unwrap();
        assert!(text.len() <= DEBUG_BUDGET + 200, "{} bytes", text.len());
        assert!(text.lines().all(|l| l.starts_with("DEBUG ") && l.len() < 16 * 1024));
    }

    #[test]
    fn a_ponder_hit_is_played_at_once_after_a_think_as_long_as_the_move_or_a_proven_win() {
        let soft = Duration::from_millis(1_200);
        let pondered = |source: &'static str, spent_ms: u64| Pondered {
            key: 0,
            report: crate::search::SearchReport {
                best: None,
                score: 0,
                depth: 12,
                nodes: 1,
                time_ms: spent_ms,
                pv: Vec::new(),
                source,
            },
            spent: Duration::from_millis(spent_ms),
            continued: false,
        };
        // A short ponder: the move's own search goes on from its tables.
        assert!(!ponder_ready(&pondered("search", 1_199), soft));
        assert!(!ponder_ready(&pondered("defend", 300), soft));
        // As long as the move may think, or longer: played at once.
        assert!(ponder_ready(&pondered("search", 1_200), soft));
        assert!(ponder_ready(&pondered("defend", 5_000), soft));
        // A search that went on after the reply is the move's, however short.
        let continued = Pondered { continued: true, ..pondered("search", 5) };
        assert!(ponder_ready(&continued, soft));
        // A win by threats is played however short the ponder.
        for won in ["five", "vcf", "vct"] {
            assert!(ponder_ready(&pondered(won, 10), soft), "{won}");
        }
        assert!(!ponder_ready(&pondered("defend", 10), soft));
    }
}
