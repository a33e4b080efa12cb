//! One brain process and the protocol spoken to it.
//!
//! Each engine gets a reader thread for stdout that timestamps every line and sends it over a
//! channel, so output that arrives while no answer is due is noticed (and dated) even though
//! the referee is busy with the other side. A second thread keeps the stderr tail for the
//! record, and a third polls the peak resident set size on Linux.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::game::{Board, Color, Move, SIZE};

/// How often the referee looks at the memory gauge while it waits for an answer.
const POLL: Duration = Duration::from_millis(20);
/// The judge truncates one DEBUG message at 16 KB and drops messages past 32 KB.
const DEBUG_LINE_MAX: usize = 16 * 1024;
const DEBUG_TOTAL_MAX: usize = 32 * 1024;
/// Lines of stderr kept for the record (a panic message is what matters).
const STDERR_KEEP: usize = 100;

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

enum Event {
    Line(String, Instant),
    Eof,
}

/// A running brain process for one game.
pub struct Engine {
    /// How it was started.
    pub spec: EngineSpec,
    /// Its colour in this game.
    pub color: Color,
    limits: Limits,
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Event>,
    peak_kb: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    stderr: Arc<Mutex<Vec<String>>>,
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
        let mut child = Command::new(&argv[0])
            .args(&argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("engine {}: cannot start `{}`: {e}", spec.label, spec.command))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr_pipe = child.stderr.take().expect("stderr is piped");

        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let at = Instant::now();
                        let text = String::from_utf8_lossy(&buf);
                        let text = text.trim_end_matches(['\n', '\r']).to_string();
                        if tx.send(Event::Line(text, at)).is_err() {
                            return;
                        }
                    }
                }
            }
            let _ = tx.send(Event::Eof);
        });

        let stderr = Arc::new(Mutex::new(Vec::new()));
        let keep = Arc::clone(&stderr);
        thread::spawn(move || {
            let reader = BufReader::new(stderr_pipe);
            for line in reader.split(b'\n') {
                let Ok(line) = line else { break };
                let mut kept = keep.lock().unwrap_or_else(|e| e.into_inner());
                if kept.len() == STDERR_KEEP {
                    kept.remove(0);
                }
                kept.push(String::from_utf8_lossy(&line).trim_end().to_string());
            }
        });

        let peak_kb = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let pid = child.id();
        let (peak, halt) = (Arc::clone(&peak_kb), Arc::clone(&stop));
        thread::spawn(move || {
            // Ends when the game ends or the process is gone (or the OS has no /proc).
            while !halt.load(Ordering::Relaxed) {
                match memory_kb(pid) {
                    Some(kb) => {
                        peak.fetch_max(kb, Ordering::Relaxed);
                    }
                    None => break,
                }
                thread::sleep(POLL);
            }
        });

        Ok(Engine {
            spec: spec.clone(),
            color,
            limits,
            child,
            stdin,
            rx,
            peak_kb,
            stop,
            stderr,
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
    pub fn stderr_tail(&self) -> Vec<String> {
        self.stderr.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Peak resident memory seen so far, in kB (0 where the OS does not tell).
    pub fn peak_kb(&self) -> u64 {
        if let Some(kb) = memory_kb(self.child.id()) {
            self.peak_kb.fetch_max(kb, Ordering::Relaxed);
        }
        self.peak_kb.load(Ordering::Relaxed)
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        let ok = match self.stdin.as_mut() {
            Some(w) => w.write_all(format!("{line}\n").as_bytes()).and_then(|_| w.flush()).is_ok(),
            None => false,
        };
        if ok {
            Ok(())
        } else {
            Err(self.exited("its input pipe closed"))
        }
    }

    /// A fault for a process that went away, with its exit status when known.
    fn exited(&mut self, what: &str) -> Fault {
        let deadline = Instant::now() + Duration::from_millis(200);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(s)) => break format!("{s}"),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                _ => break "still running".to_string(),
            }
        };
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

    fn memory_fault(&self) -> Option<Fault> {
        let limit = self.limits.memory_kb?;
        let peak = self.peak_kb();
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
            match self.rx.try_recv() {
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
                        for &(mv, color) in &board.history {
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
            match self.rx.recv_timeout(wait) {
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
        let _ = self.drain(Some(Instant::now()));
        if self.spec.proto == Proto::Judge {
            if let Some(mv) = last {
                let _ = self.send(&format!("PLACE {} {}", mv.row, mv.col));
            }
            let _ = self.send(&format!("END {result}"));
        } else {
            let _ = self.send("END");
        }
        // Closing stdin lets a brain that reads to end-of-file exit by itself.
        self.stdin = None;
        let deadline = Instant::now() + self.limits.end_grace;
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => break,
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                Ok(None) => {
                    self.notes.push("did not exit after END; killed".to_string());
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    break;
                }
            }
        }
        self.stop.store(true, Ordering::Relaxed);
        // Collect the DEBUG lines printed up to the exit.
        while let Ok(ev) = self.rx.recv_timeout(Duration::from_millis(50)) {
            if let Event::Line(line, _) = ev {
                if self.is_log(&line) {
                    self.log(line);
                }
            } else {
                break;
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // Never leave a brain running, whatever path the game took.
        self.stop.store(true, Ordering::Relaxed);
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
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

/// Current peak resident set of `pid` in kB: `VmHWM` (or `VmRSS`) from `/proc/<pid>/status`.
/// `None` where the OS does not tell, or once the process is gone.
pub fn memory_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| {
        status.lines().find_map(|l| {
            let rest = l.strip_prefix(name)?.strip_prefix(':')?;
            rest.split_whitespace().next()?.parse::<u64>().ok()
        })
    };
    field("VmHWM").or_else(|| field("VmRSS"))
}
