//! The transcript runner: replays `tests/transcripts/*.txt` against a brain through pipes,
//! every line checked by the judge model in [`judge`] (written apart from the crate).
//!
//! A transcript is what a person would type, plus expectations in comment lines that the
//! brain ignores, so the same file can be piped by hand (`cargo run --release < FILE`):
//!
//! - `#args: --depth 3` (first lines): command-line arguments for the brain;
//! - `#=> OK`: the next answer is `OK`;
//! - `#=> any`: the next answer is a legal move (on the board, on an empty point);
//! - `#=> wins`: a legal move that makes five or more for us;
//! - `#=> blocks 5`: the opponent had a point to make five, and after the answer has none;
//! - `#=> blocks 4`: the opponent had a point to make an unstoppable four (a stone after
//!   which it has two or more points to make five: an open four or a double four), and
//!   after the answer has no point to make five and no such point;
//! - `#=> sym 4 7`: 4 7 or one of its images under the symmetries of the square that leave
//!   the position as it is (a mirror image of a good move is as good);
//! - `#=> 4 7`, `#=> 4 7 | 3 8`: exactly this move (or one of these); the transcript says
//!   in a comment why no property would do;
//! - `#debug: text`: a `DEBUG` line containing `text` comes before the next answer;
//! - `#close`: standard input is closed here (answers still due are read after it);
//! - `#game: --depth 2`: a whole game from here against another brain run with these
//!   arguments: each of our answers legal, an immediate five taken, else a single five
//!   point of theirs blocked; the game ends by a five or a full board and the runner sends `END`;
//! - every other line is sent to the brain as it is.
//!
//! Every line the brain prints goes through the model's [`judge::Referee`]: nothing but
//! `DEBUG` when no answer is due, each answer the one due. At the end of the file standard
//! input is closed; the brain must exit with status 0 and print nothing but `DEBUG` lines.

// Each test file uses a part of these helpers.
#![allow(dead_code)]

pub mod judge;
pub mod live;

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::Duration;

use judge::{opp, Board, Game, Referee, Reply, P};

const ANSWER_TIMEOUT: Duration = Duration::from_secs(20);

/// The other end of the pipes: a brain, or a fake answer stream for the runner's own tests.
pub trait Peer {
    /// Sends one line (its `\n` added).
    fn send(&mut self, raw: &str);
    /// The next printed line; `None` when none comes in time.
    fn recv(&mut self) -> Option<String>;
    /// Closes standard input.
    fn close(&mut self);
    /// After `close`: the lines still printed until the exit, or why it did not exit well.
    fn finish(&mut self) -> Result<Vec<String>, String>;
}

pub struct Brain {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Brain {
    pub fn start(bin: &Path, args: &[String]) -> Brain {
        let mut child = Command::new(bin)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", bin.display()));
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Brain { stdin: child.stdin.take(), child, lines: rx }
    }
}

impl Peer for Brain {
    fn send(&mut self, raw: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{raw}").and_then(|_| stdin.flush()).expect("brain's stdin");
    }
    fn recv(&mut self) -> Option<String> {
        self.lines.recv_timeout(ANSWER_TIMEOUT).ok()
    }
    fn close(&mut self) {
        drop(self.stdin.take());
    }
    fn finish(&mut self) -> Result<Vec<String>, String> {
        self.close();
        let mut rest = Vec::new();
        loop {
            match self.lines.recv_timeout(ANSWER_TIMEOUT) {
                Ok(l) => rest.push(l),
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => {
                    let _ = self.child.kill();
                    return Err("brain did not exit at end of input".into());
                }
            }
        }
        let status = self.child.wait().map_err(|e| e.to_string())?;
        if !status.success() {
            return Err(format!("brain exited with {status}"));
        }
        Ok(rest)
    }
}

/// Prints the given lines whatever it is sent: the runner's checks tested without a brain.
pub struct Fake(pub VecDeque<String>);

impl Fake {
    pub fn new(lines: &[&str]) -> Fake {
        Fake(lines.iter().map(|l| l.to_string()).collect())
    }
}

impl Peer for Fake {
    fn send(&mut self, _: &str) {}
    fn recv(&mut self) -> Option<String> {
        self.0.pop_front()
    }
    fn close(&mut self) {}
    fn finish(&mut self) -> Result<Vec<String>, String> {
        Ok(self.0.drain(..).collect())
    }
}

/// Our side: the peer and the referee that sees every line both ways.
struct Side<'a> {
    peer: &'a mut dyn Peer,
    referee: Referee,
    closed: bool,
}

impl Side<'_> {
    fn send(&mut self, raw: &str) {
        self.peer.send(raw);
        // The brain drops one '\r' before the '\n'; the model trims blanks itself.
        self.referee.send(raw);
    }

    /// The next answer with the DEBUG lines before it, and the game as it was before it.
    fn answer(&mut self, debug: &mut Vec<String>) -> Result<(String, Option<Game>), String> {
        let before = self.referee.game.clone();
        let Some((_, due)) = self.referee.waiting() else {
            return Err("an answer expected, but the judge model has none due".into());
        };
        loop {
            let line = self.peer.recv().ok_or_else(|| format!("no answer ({due:?} due)"))?;
            match self.referee.receive(&line)? {
                None => debug.push(line),
                Some(_) => return Ok((line, before)),
            }
        }
    }
}

fn parse_point(text: &str) -> Option<P> {
    let mut it = text.split_whitespace().map(|t| t.parse::<i64>());
    match (it.next(), it.next(), it.next()) {
        (Some(Ok(x)), Some(Ok(y)), None) => Some((x, y)),
        _ => None,
    }
}

/// Whether answer `got` (already found legal by the referee) meets `want` in `before`.
fn check_move(want: &str, before: &Game, got: &str) -> Result<(), String> {
    let Reply::Move(x, y) = judge::parse_reply(got) else {
        return Err(format!("expected a move, got '{got}'"));
    };
    let (b, me, mv) = (&before.board, before.me, (x, y));
    let mut after = b.clone();
    after.put(mv, me);
    let fail = |why: String| Err(format!("'{want}' but '{got}': {why}"));
    match want {
        "any" => Ok(()),
        "wins" if after.five_through(mv, me) => Ok(()),
        "wins" => fail(format!("no five (our five points: {:?})", b.five_points(me))),
        "blocks 5" if b.five_points(opp(me)).is_empty() => fail("nothing to block".into()),
        "blocks 5" if after.five_points(opp(me)).is_empty() => Ok(()),
        "blocks 5" => fail(format!("they still make five at {:?}", after.five_points(opp(me)))),
        "blocks 4" if b.four_threats(opp(me)).is_empty() => fail("no four to stop".into()),
        "blocks 4" => {
            let (fives, fours) = (after.five_points(opp(me)), after.four_threats(opp(me)));
            if fives.is_empty() && fours.is_empty() {
                Ok(())
            } else {
                fail(format!("they still make five at {fives:?}, an unstoppable four at {fours:?}"))
            }
        }
        _ if want.starts_with("sym ") => {
            let p = parse_point(&want[4..]).ok_or("bad 'sym' expectation")?;
            b.legal(p).map_err(|e| format!("'{want}': {e}"))?;
            let same = b.equivalents(p);
            if same.contains(&mv) {
                Ok(())
            } else {
                fail(format!("not among {same:?}"))
            }
        }
        _ => {
            let options: Vec<Option<P>> = want.split('|').map(|o| parse_point(o.trim())).collect();
            if options.iter().any(Option::is_none) {
                return Err(format!("unknown expectation '{want}'"));
            }
            if options.contains(&Some(mv)) {
                Ok(())
            } else {
                fail("not one of these".into())
            }
        }
    }
}

/// Replays one transcript against `bin`; `Err` says what went wrong.
pub fn replay(bin: &Path, path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let args = transcript_args(&text);
    let mut brain = Brain::start(bin, &args);
    let mut opponent = |a: &[String]| -> Box<dyn Peer> { Box::new(Brain::start(bin, a)) };
    replay_text(&path.display().to_string(), &text, &mut brain, &mut opponent)
}

/// The `#args:` of a transcript.
pub fn transcript_args(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("#args:"))
        .flat_map(|a| a.split_whitespace().map(String::from).collect::<Vec<_>>())
        .collect()
}

/// Replays transcript `text` (called `name`) against `peer`; `#game:` starts its opponent
/// with `opponent`.
pub fn replay_text(
    name: &str,
    text: &str,
    peer: &mut dyn Peer,
    opponent: &mut dyn FnMut(&[String]) -> Box<dyn Peer>,
) -> Result<(), String> {
    let args = transcript_args(text);
    let empty_start = args.windows(2).any(|w| w[0] == "--start" && w[1] == "empty");
    let mut side = Side { peer, referee: Referee::new(empty_start), closed: false };
    let mut pending_debug: Vec<String> = Vec::new();
    // Split on '\n' only: a transcript written with CRLF endings sends the '\r' too.
    for (n, raw) in text.split('\n').enumerate() {
        let line = raw.trim_end_matches('\r');
        let at = format!("{name}:{}", n + 1);
        if let Some(want) = line.strip_prefix("#=>") {
            let want = want.trim();
            let (got, before) =
                side.answer(&mut pending_debug).map_err(|e| format!("{at}: {e}"))?;
            if want == "OK" {
                if got != "OK" {
                    return Err(format!("{at}: expected OK, got '{got}'"));
                }
            } else {
                let before = before.ok_or_else(|| format!("{at}: a move but no game"))?;
                check_move(want, &before, &got).map_err(|e| format!("{at}: {e}"))?;
            }
            pending_debug.clear();
        } else if let Some(want) = line.strip_prefix("#debug:") {
            let want = want.trim();
            while !pending_debug.iter().any(|d| d.contains(want)) {
                let l = side.peer.recv().ok_or_else(|| format!("{at}: no DEBUG '{want}'"))?;
                match side.referee.receive(&l).map_err(|e| format!("{at}: {e}"))? {
                    None => pending_debug.push(l),
                    Some(_) => return Err(format!("{at}: expected DEBUG '{want}', got '{l}'")),
                }
            }
            pending_debug.retain(|d| !d.contains(want));
        } else if line.trim() == "#close" {
            side.peer.close();
            side.closed = true;
        } else if let Some(them) = line.strip_prefix("#game:") {
            let them: Vec<String> = them.split_whitespace().map(String::from).collect();
            play_game(&mut side, &mut *opponent(&them)).map_err(|e| format!("{at}: {e}"))?;
        } else if line.starts_with("#args:") {
        } else if side.closed {
            if !line.trim().is_empty() {
                return Err(format!("{at}: a line to send after #close"));
            }
        } else {
            side.send(raw);
        }
    }
    let rest = side.peer.finish().map_err(|e| format!("{name}: {e}"))?;
    if let Some(stray) = rest.iter().find(|l| judge::parse_reply(l) != Reply::Debug) {
        return Err(format!("{name}: unexpected line after the last answer: '{stray}'"));
    }
    for l in &rest {
        side.referee.receive(l).map_err(|e| format!("{name}: {e}"))?;
    }
    side.referee.finish().map_err(|e| format!("{name}: {e}"))
}

/// The line an opponent prints next that is not DEBUG.
fn next_move(them: &mut dyn Peer) -> Result<String, String> {
    loop {
        let l = them.recv().ok_or("the opponent gave no answer")?;
        if judge::parse_reply(&l) != Reply::Debug {
            return Ok(l);
        }
    }
}

/// `#game:`: plays the game started on our side to its end against `them`.
fn play_game(side: &mut Side, them: &mut dyn Peer) -> Result<(), String> {
    let me = match &side.referee.game {
        Some(g) if g.board == Board::start() && side.referee.waiting().is_none() => g.me,
        _ => return Err("#game: needs a game just started from the four stones".into()),
    };
    them.send(&format!("START {}", opp(me)));
    if next_move(them)? != "OK" {
        return Err("the opponent did not answer OK".into());
    }
    let mut to_move = judge::BLACK;
    let mut moves: Vec<String> = Vec::new();
    let result = loop {
        let board = side.referee.game.as_ref().map(|g| g.board.clone()).ok_or("no game")?;
        let mv = if to_move == me {
            side.send("TURN");
            let (got, before) = side.answer(&mut Vec::new())?;
            let before = before.ok_or("no game")?;
            // What any brain must play: its own five, else a block of theirs when one stone
            // can block it (against two five points the game is lost whatever we play).
            let theirs = board.five_points(opp(me));
            let want = if !board.five_points(me).is_empty() {
                "wins"
            } else if !theirs.is_empty() && theirs.iter().all(|&q| q == theirs[0]) {
                "blocks 5"
            } else {
                "any"
            };
            check_move(want, &before, &got).map_err(|e| format!("after {moves:?}: {e}"))?;
            them.send(&format!("PLACE {got}"));
            got
        } else {
            them.send("TURN");
            let got = next_move(them)?;
            let p = parse_point(&got).ok_or_else(|| format!("the opponent said '{got}'"))?;
            board.legal(p).map_err(|e| format!("the opponent after {moves:?}: {e}"))?;
            side.send(&format!("PLACE {got}"));
            got
        };
        let p = parse_point(&mv).expect("checked");
        moves.push(mv);
        let board = &side.referee.game.as_ref().ok_or("no game")?.board;
        if board.five_through(p, to_move) {
            break if to_move == me { 1 } else { 2 };
        }
        if board.full() {
            break 0;
        }
        to_move = opp(to_move);
    };
    side.send(&format!("END {result}"));
    them.send(&format!("END {}", [0, 2, 1][result]));
    them.finish().map(|_| ())
}

/// The transcript files, sorted.
pub fn transcripts() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/transcripts")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    files
}

/// A small deterministic generator (xorshift) for the fuzzers and the games' opponents, so
/// that a failure can be replayed by its seed.
/// The length unit of the fuzzers' long lines: 4 KB, the most the brain's reader keeps of a
/// line; the long lines run from one to thirty of these, past the 16 KB that judge.md lets
/// one DEBUG message have.
pub const LONG: usize = 4096;

pub struct Rng(pub u64);

impl Rng {
    /// A generator for `seed`, well mixed (never the all-zero state xorshift sticks in).
    pub fn seeded(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}
