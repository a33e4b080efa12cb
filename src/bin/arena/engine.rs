//! An engine under the judge's rules: the two protocols, the clocks, and the faults.
//!
//! The process itself (pipes, reader threads, memory gauge) lives in [`crate::process`].

use std::sync::mpsc::{RecvTimeoutError, TryRecvError};
use std::time::{Duration, Instant};

use crate::game::{Board, Color, Move, SIZE};
use crate::process::{Event, Process, POLL};

/// The judge truncates one DEBUG message at 16 KB and drops messages past 32 KB.
const DEBUG_LINE_MAX: usize = 16 * 1024;
const DEBUG_TOTAL_MAX: usize = 32 * 1024;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    /// The 12x12 judge's protocol (`START F`, `PLACE X Y`, `TURN`, `END F`).
    Judge,
    /// The Gomocup (piskvork) protocol (`START 12`, `BOARD`, `BEGIN`, `TURN x,y`, `END`).
    Piskvork,
}

impl Proto {
    /// Name used in options and records.
    pub fn name(self) -> &'static str {
        match self {
            Proto::Judge => "judge",
            Proto::Piskvork => "piskvork",
        }
    }
}

/// How to start one of the two engines of a match.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// `A` or `B`.
    pub label: char,
    /// The command line as given.
    pub command: String,
    /// The command line split into words.
    pub argv: Vec<String>,
    /// The protocol it speaks.
    pub proto: Proto,
}

/// The judge's limits (configurable so tests can be fast).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Time to answer `START` with `OK`.
    pub start: Duration,
    /// Time to answer one `TURN`.
    pub per_move: Duration,
    /// Thinking time of one side over a whole game.
    pub per_game: Duration,
    /// Peak resident set limit in kB; `None` disables the check.
    pub memory_kb: Option<u64>,
    /// How long an engine may take to exit after `END` before it is killed.
    pub end_grace: Duration,
}

/// The ways to lose a game at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// No `OK` within the start limit.
    StartTimeout,
    /// No answer within the per-move limit.
    MoveTimeout,
    /// The side's total thinking time ran out.
    GameTime,
    /// A non-log line while no answer was due.
    StrayOutput,
    /// An answer that is not a move.
    Malformed,
    /// A move outside the board.
    OffBoard,
    /// A move on a stone.
    Occupied,
    /// The process exited (or closed its pipes) before `END`.
    Exited,
    /// Peak resident memory above the limit.
    Memory,
}

impl FaultKind {
    /// Stable name used in output and records.
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::StartTimeout => "start-timeout",
            FaultKind::MoveTimeout => "move-timeout",
            FaultKind::GameTime => "game-time",
            FaultKind::StrayOutput => "stray-output",
            FaultKind::Malformed => "malformed",
            FaultKind::OffBoard => "off-board",
            FaultKind::Occupied => "occupied",
            FaultKind::Exited => "exited",
            FaultKind::Memory => "memory",
        }
    }
}

/// A rule broken by an engine, with a human-readable detail.
#[derive(Clone, Debug)]
pub struct Fault {
    /// Which rule.
    pub kind: FaultKind,
    /// What happened exactly.
    pub detail: String,
}

fn fault(kind: FaultKind, detail: impl Into<String>) -> Fault {
    Fault { kind, detail: detail.into() }
}

/// A running brain process for one game.
pub struct Engine {
    /// How it was started.
    pub spec: EngineSpec,
    /// Its colour in this game.
    pub color: Color,
    limits: Limits,
    process: Process,
    /// `DEBUG`/`MESSAGE` lines, capped like the judge does.
    pub debug: Vec<String>,
    debug_bytes: usize,
    /// Thinking time used so far this game.
    pub used: Duration,
    /// Longest single move so far.
    pub max_move: Duration,
    /// The latest move's thinking time.
    pub last_move: Duration,
    /// Whether a piskvork engine has been given a position (`BEGIN` or `BOARD`) yet.
    positioned: bool,
    /// Whether `START` was answered with `OK`.
    pub started: bool,
    start_sent: Option<Instant>,
    /// Things seen after the game was decided, recorded but not judged.
    pub notes: Vec<String>,
}

impl Engine {
    /// Starts the process; `Err` means it could not even be executed.
    pub fn spawn(
        spec: &EngineSpec,
        color: Color,
        limits: Limits,
        pin: Option<usize>,
    ) -> Result<Engine, String> {
        let mut argv: Vec<String> = Vec::new();
        if let Some(core) = pin {
            argv.extend(["taskset".to_string(), "-c".to_string(), core.to_string()]);
        }
        argv.extend(spec.argv.iter().cloned());
        let process = Process::spawn(&argv)
            .map_err(|e| format!("engine {}: cannot start `{}`: {e}", spec.label, spec.command))?;
        Ok(Engine {
            spec: spec.clone(),
            color,
            limits,
            process,
            debug: Vec::new(),
            debug_bytes: 0,
            used: Duration::ZERO,
            max_move: Duration::ZERO,
            last_move: Duration::ZERO,
            positioned: false,
            started: false,
            start_sent: None,
            notes: Vec::new(),
        })
    }

    /// The kept tail of the engine's stderr.
    pub fn stderr_tail(&mut self) -> Vec<String> {
        self.process.stderr_tail()
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        if self.process.send(line) {
            Ok(())
        } else {
            Err(self.exited("its input pipe closed"))
        }
    }

    /// A fault for a process that went away, with its exit status when known.
    fn exited(&mut self, what: &str) -> Fault {
        let status = self.process.exit_status(Duration::from_millis(200));
        let status = status.unwrap_or_else(|| "still running".to_string());
        fault(FaultKind::Exited, format!("{what} before END; {status}"))
    }

    fn is_log(&self, line: &str) -> bool {
        let word = line.split_whitespace().next().unwrap_or("");
        match self.spec.proto {
            Proto::Judge => word == "DEBUG",
            Proto::Piskvork => matches!(word, "DEBUG" | "MESSAGE" | "UNKNOWN" | "ERROR"),
        }
    }

    fn log(&mut self, line: String) {
        if self.debug_bytes >= DEBUG_TOTAL_MAX {
            return;
        }
        let mut line = line;
        if line.len() > DEBUG_LINE_MAX {
            let mut cut = DEBUG_LINE_MAX;
            while !line.is_char_boundary(cut) {
                cut -= 1;
            }
            line.truncate(cut);
        }
        self.debug_bytes += line.len();
        self.debug.push(line);
    }

    /// Peak resident memory of the process so far, in kB (0 where the OS does not tell).
    pub fn peak_kb(&self) -> u64 {
        self.process.peak_kb()
    }

    fn memory_fault(&self) -> Option<Fault> {
        let limit = self.limits.memory_kb?;
        let peak = self.process.peak_kb();
        (peak > limit).then(|| {
            fault(
                FaultKind::Memory,
                format!("peak resident memory {} MB > limit {} MB", peak / 1024, limit / 1024),
            )
        })
    }

    /// Sends `START`; the answer is collected by [`Engine::await_start`] so that both engines
    /// can start at the same time.
    pub fn send_start(&mut self) -> Result<(), Fault> {
        self.start_sent = Some(Instant::now());
        match self.spec.proto {
            Proto::Judge => self.send(&format!("START {}", self.color.code())),
            Proto::Piskvork => self.send(&format!("START {SIZE}")),
        }
    }

    /// Waits for `OK`, then tells the engine the game settings and the opening stones.
    ///
    /// Judge-protocol engines get each opening stone as `PLACE X Y` (opponent's colour) or
    /// `MINE X Y` (their own colour), the arena's extension; piskvork engines get the whole
    /// position with `BOARD` when they are first asked to move.
    pub fn await_start(&mut self, opening: &[(Move, Color)]) -> Result<(), Fault> {
        let sent = self.start_sent.expect("START was sent");
        let limit = self.limits.start;
        let (line, at) = self.await_line(sent, limit, |_| {
            fault(
                FaultKind::StartTimeout,
                format!("no OK within {} ms of START", limit.as_millis()),
            )
        })?;
        let took = at.duration_since(sent);
        if line.trim() != "OK" {
            return Err(fault(FaultKind::Malformed, format!("answered START with {line:?}")));
        }
        self.started = true;
        // The judge's 90 s run "from START to END", so its START/OK time is thinking time.
        if self.spec.proto == Proto::Judge {
            self.used += took;
        }
        match self.spec.proto {
            Proto::Judge => {
                for &(mv, color) in opening {
                    let verb = if color == self.color { "MINE" } else { "PLACE" };
                    self.send(&format!("{verb} {} {}", mv.row, mv.col))?;
                }
            }
            Proto::Piskvork => {
                let l = self.limits;
                self.send(&format!("INFO timeout_turn {}", l.per_move.as_millis()))?;
                self.send(&format!("INFO timeout_match {}", l.per_game.as_millis()))?;
                let mem = l.memory_kb.map_or(0, |kb| kb * 1024);
                self.send(&format!("INFO max_memory {mem}"))?;
                self.send("INFO rule 0")?;
            }
        }
        Ok(())
    }

    /// Reads everything the engine printed since the last look. Output is only allowed as an
    /// answer, so any non-log line is a fault, and so is an exit. Events dated after `cutoff`
    /// (the moment the game was decided) are noted instead of judged.
    pub fn drain(&mut self, cutoff: Option<Instant>) -> Result<(), Fault> {
        loop {
            match self.process.rx.try_recv() {
                Ok(Event::Line(line, at)) => {
                    if self.is_log(&line) {
                        self.log(line);
                    } else if cutoff.is_some_and(|c| at > c) {
                        self.notes.push(format!("after the game: {line:?}"));
                    } else {
                        return Err(fault(
                            FaultKind::StrayOutput,
                            format!("printed {line:?} while no answer was due"),
                        ));
                    }
                }
                Ok(Event::Eof) | Err(TryRecvError::Disconnected) => {
                    if cutoff.is_some() {
                        self.notes.push("exited after the game was decided".to_string());
                        return Ok(());
                    }
                    return Err(self.exited("the process ended"));
                }
                Err(TryRecvError::Empty) => break,
            }
        }
        match self.memory_fault() {
            Some(f) if cutoff.is_none() => Err(f),
            _ => Ok(()),
        }
    }

    /// Asks for a move: tells the opponent's last move, sends the turn, and waits for the
    /// answer within the per-move limit and the side's remaining game time. Returns the raw
    /// (row, column) for the referee to check against the board.
    pub fn ask(&mut self, board: &Board, last: Option<Move>) -> Result<(i64, i64), Fault> {
        let remaining = self.limits.per_game.saturating_sub(self.used);
        // The clock starts before the last line of the question is written: a fast brain
        // may answer before `write` even returns.
        let question = match self.spec.proto {
            Proto::Judge => {
                if let Some(mv) = last {
                    self.send(&format!("PLACE {} {}", mv.row, mv.col))?;
                }
                "TURN".to_string()
            }
            Proto::Piskvork => {
                self.send(&format!("INFO time_left {}", remaining.as_millis()))?;
                let question = match last {
                    Some(mv) if self.positioned => format!("TURN {},{}", mv.col, mv.row),
                    _ if board.stones() == 0 => "BEGIN".to_string(),
                    _ => {
                        self.send("BOARD")?;
                        for (mv, color) in board.alternating() {
                            let who = if color == self.color { 1 } else { 2 };
                            self.send(&format!("{},{},{who}", mv.col, mv.row))?;
                        }
                        "DONE".to_string()
                    }
                };
                self.positioned = true;
                question
            }
        };
        let sent = Instant::now();
        self.send(&question)?;
        let per_move = self.limits.per_move;
        let game_bound = remaining < per_move;
        let limit = per_move.min(remaining);
        let (used, per_game) = (self.used, self.limits.per_game);
        let answer = self.await_line(sent, limit, |took| {
            if game_bound {
                fault(
                    FaultKind::GameTime,
                    format!(
                        "game time used up: {} ms before this move + {} ms > {} ms",
                        used.as_millis(),
                        took.as_millis(),
                        per_game.as_millis()
                    ),
                )
            } else {
                fault(
                    FaultKind::MoveTimeout,
                    format!("no answer within {} ms", per_move.as_millis()),
                )
            }
        });
        let (line, at) = match answer {
            Ok(answer) => answer,
            Err(f) => {
                // Keep the clock honest in the record even for a lost move.
                let took = sent.elapsed();
                self.used += took;
                self.max_move = self.max_move.max(took);
                self.last_move = took;
                return Err(f);
            }
        };
        let took = at.duration_since(sent);
        self.used += took;
        self.max_move = self.max_move.max(took);
        self.last_move = took;
        if let Some(f) = self.memory_fault() {
            return Err(f);
        }
        let parsed = match self.spec.proto {
            Proto::Judge => parse_pair(&line, |s| {
                let mut it = s.split_whitespace();
                Some((it.next()?, it.next()?, it.next().is_none()))
            }),
            Proto::Piskvork => parse_pair(&line, |s| {
                let mut it = s.split(',').map(str::trim);
                Some((it.next()?, it.next()?, it.next().is_none()))
            })
            .map(|(x, y)| (y, x)),
        };
        parsed.ok_or_else(|| fault(FaultKind::Malformed, format!("answered {line:?}")))
    }

    /// Waits for the first non-log line printed after `sent` and within `limit` of it.
    fn await_line(
        &mut self,
        sent: Instant,
        limit: Duration,
        timeout: impl Fn(Duration) -> Fault,
    ) -> Result<(String, Instant), Fault> {
        let deadline = sent + limit;
        loop {
            if let Some(f) = self.memory_fault() {
                return Err(f);
            }
            let wait = deadline.saturating_duration_since(Instant::now()).min(POLL);
            match self.process.rx.recv_timeout(wait) {
                Ok(Event::Line(line, at)) => {
                    if self.is_log(&line) {
                        self.log(line);
                    } else if at < sent {
                        // Printed before the question was asked: not an answer.
                        return Err(fault(
                            FaultKind::StrayOutput,
                            format!("printed {line:?} while no answer was due"),
                        ));
                    } else if at.duration_since(sent) > limit {
                        return Err(timeout(at.duration_since(sent)));
                    } else {
                        return Ok((line, at));
                    }
                }
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.exited("the process ended"));
                }
                Err(RecvTimeoutError::Timeout) => {
                    if Instant::now() >= deadline {
                        return Err(timeout(Instant::now().duration_since(sent)));
                    }
                }
            }
        }
    }

    /// Ends the game for this engine: the winning move it has not seen (judge protocol only;
    /// piskvork has no way to tell a move without asking for one), then `END`, then a short
    /// grace period to exit before the process is killed. Output after that is ignored.
    pub fn finish(&mut self, result: u8, last: Option<Move>) {
        self.note_rest(Duration::ZERO);
        if self.spec.proto == Proto::Judge {
            if let Some(mv) = last {
                let _ = self.send(&format!("PLACE {} {}", mv.row, mv.col));
            }
            let _ = self.send(&format!("END {result}"));
        } else {
            let _ = self.send("END");
        }
        self.process.close_stdin();
        if self.process.wait_or_kill(self.limits.end_grace) {
            self.notes.push("did not exit after END; killed".to_string());
        }
        // Collect what was printed up to the exit.
        self.note_rest(Duration::from_millis(50));
    }

    /// Logs or notes (never judges) whatever the engine printed, waiting up to `wait` for
    /// each further line; used once the game is decided.
    fn note_rest(&mut self, wait: Duration) {
        while let Ok(Event::Line(line, _)) = self.process.rx.recv_timeout(wait) {
            if self.is_log(&line) {
                self.log(line);
            } else if self.notes.len() < 20 {
                self.notes.push(format!("after the game: {line:?}"));
            }
        }
    }
}

/// Parses two integers split out of `line` by `split` (which also says nothing followed).
fn parse_pair<'a>(
    line: &'a str,
    split: impl Fn(&'a str) -> Option<(&'a str, &'a str, bool)>,
) -> Option<(i64, i64)> {
    let (a, b, end) = split(line.trim())?;
    if !end {
        return None;
    }
    Some((a.parse().ok()?, b.parse().ok()?))
}
