//! The transcript runner: replays `tests/transcripts/*.txt` against a brain through pipes.
//!
//! A transcript is what a person would type, plus expectations in comment lines that the
//! brain ignores, so the same file can be piped by hand (`cargo run --release < FILE`):
//!
//! - `#args: --depth 3` (first lines): command-line arguments for the brain;
//! - `#=> OK`, `#=> 4 7`: the next answer, exactly; `#=> 4 7 | 3 8`: one of these;
//!   `#=> any`: any legal move;
//! - `#debug: text`: a `DEBUG` line containing `text` comes before the next answer;
//! - `#close`: standard input is closed here (answers still due are read after it);
//! - every other line is sent to the brain as it is.
//!
//! `DEBUG` lines are otherwise skipped. At the end of the file standard input is closed; the
//! brain must exit with status 0 and print nothing but `DEBUG` lines after the last answer.

// Each test file uses a part of these helpers.
#![allow(dead_code)]

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::Duration;

const ANSWER_TIMEOUT: Duration = Duration::from_secs(20);

/// What the runner knows of the game, to check "any legal move".
struct Model {
    taken: HashSet<(i64, i64)>,
    empty_start: bool,
    placed: usize,
}

impl Model {
    const START: [(i64, i64); 4] = [(5, 5), (6, 6), (5, 6), (6, 5)];
    fn new(empty_start: bool) -> Model {
        let mut m = Model { taken: HashSet::new(), empty_start, placed: 0 };
        m.reset();
        m
    }
    fn reset(&mut self) {
        self.taken.clear();
        self.placed = 0;
        if !self.empty_start {
            self.taken.extend(Model::START);
        }
    }
    fn place(&mut self, x: i64, y: i64, theirs: bool) {
        // A stone on a taken point, the four start stones included, changes nothing.
        if theirs {
            self.placed += 1;
        }
        if (0..12).contains(&x) && (0..12).contains(&y) {
            self.taken.insert((x, y));
        }
    }
}

struct Brain {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Brain {
    fn start(bin: &Path, args: &[String]) -> Brain {
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

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").and_then(|_| stdin.flush()).expect("brain's stdin");
    }

    /// The next non-DEBUG line, and the DEBUG lines before it.
    fn next_answer(&mut self) -> (Option<String>, Vec<String>) {
        let mut debug = Vec::new();
        loop {
            match self.lines.recv_timeout(ANSWER_TIMEOUT) {
                Ok(line) if line.starts_with("DEBUG") => debug.push(line),
                Ok(line) => return (Some(line), debug),
                Err(_) => return (None, debug),
            }
        }
    }
}

fn parse_move(text: &str) -> Option<(i64, i64)> {
    let mut it = text.split_whitespace().map(|t| t.parse::<i64>());
    match (it.next(), it.next(), it.next()) {
        (Some(Ok(x)), Some(Ok(y)), None) => Some((x, y)),
        _ => None,
    }
}

/// Replays one transcript against `bin`; `Err` says what went wrong.
pub fn replay(bin: &Path, path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let args: Vec<String> = text
        .lines()
        .filter_map(|l| l.strip_prefix("#args:"))
        .flat_map(|a| a.split_whitespace().map(String::from).collect::<Vec<_>>())
        .collect();
    let empty_start = args.windows(2).any(|w| w[0] == "--start" && w[1] == "empty");
    let mut brain = Brain::start(bin, &args);
    let mut model = Model::new(empty_start);
    let mut pending_debug: Vec<String> = Vec::new();
    // Split on '\n' only: a transcript written with CRLF endings sends the '\r' too.
    for (n, raw) in text.split('\n').enumerate() {
        let line = raw.trim_end_matches('\r');
        let at = format!("{}:{}", path.display(), n + 1);
        if let Some(want) = line.strip_prefix("#=>") {
            let want = want.trim();
            let (got, debug) = brain.next_answer();
            pending_debug.extend(debug);
            let got = got.ok_or_else(|| format!("{at}: expected '{want}', got no answer"))?;
            if want == "OK" || want == "none" {
                if got != want {
                    return Err(format!("{at}: expected '{want}', got '{got}'"));
                }
            } else {
                let mv = parse_move(&got).ok_or_else(|| format!("{at}: '{got}' is no move"))?;
                if model.taken.contains(&mv) || !(0..12).contains(&mv.0) || !(0..12).contains(&mv.1)
                {
                    return Err(format!("{at}: illegal move '{got}'"));
                }
                if want != "any" {
                    let options: Vec<Option<(i64, i64)>> =
                        want.split('|').map(|o| parse_move(o.trim())).collect();
                    if !options.contains(&Some(mv)) {
                        return Err(format!("{at}: expected one of '{want}', got '{got}'"));
                    }
                }
                model.place(mv.0, mv.1, false);
            }
            pending_debug.clear();
        } else if let Some(want) = line.strip_prefix("#debug:") {
            let want = want.trim();
            while !pending_debug.iter().any(|d| d.contains(want)) {
                match brain.lines.recv_timeout(ANSWER_TIMEOUT) {
                    Ok(l) if l.starts_with("DEBUG") => pending_debug.push(l),
                    Ok(l) => return Err(format!("{at}: expected DEBUG '{want}', got '{l}'")),
                    Err(_) => return Err(format!("{at}: no DEBUG line with '{want}'")),
                }
            }
            pending_debug.retain(|d| !d.contains(want));
        } else if line.trim() == "#close" {
            drop(brain.stdin.take());
        } else if line.starts_with("#args:") {
        } else if brain.stdin.is_none() {
            if !line.trim().is_empty() {
                return Err(format!("{at}: a line to send after #close"));
            }
        } else {
            brain.send(raw);
            let words: Vec<String> =
                line.split_whitespace().map(|w| w.to_ascii_uppercase()).collect();
            match words.first().map(String::as_str) {
                Some("START") => model.reset(),
                Some("PLACE") | Some("MINE") => {
                    if let Some(mv) = parse_move(&words[1..].join(" ")) {
                        let theirs = words[0] == "PLACE";
                        if !model.taken.contains(&mv) {
                            model.place(mv.0, mv.1, theirs);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    drop(brain.stdin.take());
    let mut rest = Vec::new();
    loop {
        match brain.lines.recv_timeout(ANSWER_TIMEOUT) {
            Ok(l) => rest.push(l),
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => {
                let _ = brain.child.kill();
                return Err(format!("{}: brain did not exit at end of input", path.display()));
            }
        }
    }
    if let Some(stray) = rest.iter().find(|l| !l.starts_with("DEBUG")) {
        return Err(format!(
            "{}: unexpected line after the last answer: '{stray}'",
            path.display()
        ));
    }
    let status = brain.child.wait().map_err(|e| e.to_string())?;
    if !status.success() {
        return Err(format!("{}: brain exited with {status}", path.display()));
    }
    Ok(())
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

/// Whether the stone just played at `p` makes five or more on a 12×12 grid.
fn five_through(grid: &[[u8; 12]; 12], p: (i64, i64)) -> bool {
    let who = grid[p.0 as usize][p.1 as usize];
    [(0, 1), (1, 0), (1, 1), (1, -1)].iter().any(|&(dr, dc)| {
        let run = |s: i64| {
            (1..5)
                .take_while(|k| {
                    let (r, c) = (p.0 + s * k * dr, p.1 + s * k * dc);
                    (0..12).contains(&r)
                        && (0..12).contains(&c)
                        && grid[r as usize][c as usize] == who
                })
                .count()
        };
        run(1) + run(-1) + 1 >= 5
    })
}

/// Plays a whole game between `bin` run with `ours` (black when `we_are_black`) and `bin`
/// run with `theirs`, from the judge's four stones, and writes it as a transcript from our
/// side: our answers become exact expectations, theirs become `PLACE` lines.
pub fn record_selfplay(
    bin: &Path,
    ours: &[String],
    theirs: &[String],
    we_are_black: bool,
) -> String {
    let mut us = Brain::start(bin, ours);
    let mut them = Brain::start(bin, theirs);
    let mut grid = [[0u8; 12]; 12];
    for (r, c, who) in [(5, 5, 2), (6, 6, 2), (5, 6, 1), (6, 5, 1)] {
        grid[r][c] = who;
    }
    let mut out = String::new();
    out.push_str(&format!("#args: {}\n", ours.join(" ")));
    out.push_str(&format!("#selfplay: {}\n", theirs.join(" ")));
    out.push_str(&format!("START {}\n#=> OK\n", if we_are_black { 1 } else { 2 }));
    us.send(&format!("START {}", if we_are_black { 1 } else { 2 }));
    them.send(&format!("START {}", if we_are_black { 2 } else { 1 }));
    assert_eq!(us.next_answer().0.as_deref(), Some("OK"));
    assert_eq!(them.next_answer().0.as_deref(), Some("OK"));
    let mut black_to_move = true;
    let result;
    loop {
        let ours_to_move = black_to_move == we_are_black;
        let (mover, other) = if ours_to_move { (&mut us, &mut them) } else { (&mut them, &mut us) };
        mover.send("TURN");
        let answer = mover.next_answer().0.expect("an answer");
        let mv = parse_move(&answer).expect("a move");
        assert_eq!(grid[mv.0 as usize][mv.1 as usize], 0, "illegal move {answer}");
        grid[mv.0 as usize][mv.1 as usize] = if black_to_move { 1 } else { 2 };
        other.send(&format!("PLACE {} {}", mv.0, mv.1));
        if ours_to_move {
            out.push_str(&format!("TURN\n#=> {} {}\n", mv.0, mv.1));
        } else {
            out.push_str(&format!("PLACE {} {}\n", mv.0, mv.1));
        }
        if five_through(&grid, mv) {
            result = if ours_to_move { 1 } else { 2 };
            break;
        }
        if grid.iter().flatten().all(|&v| v != 0) {
            result = 0;
            break;
        }
        black_to_move = !black_to_move;
    }
    out.push_str(&format!("END {result}\n"));
    out
}
