//! Transcripts of the other front-ends, replayed through pipes against the real binary:
//! `tests/transcripts-piskvork/*.txt` (`wuzi --protocol piskvork`) and
//! `tests/transcripts-matrix/*.txt` (`wuzi --protocol matrix`). Any of them can be piped by
//! hand, e.g. `cargo run --release -- --protocol piskvork < tests/transcripts-piskvork/begin.txt`.
//!
//! Lines are sent as they are; expectations are comment lines the brain skips:
//! `#args: ...` extra arguments; `#=> TEXT` the next answer exactly; `#=> ~TEXT` an answer
//! starting with TEXT; `#=> A | B` one of these; `#=> move` any legal move. Answers are the
//! output lines other than `MESSAGE` and `DEBUG`. At the end of the file standard input is
//! closed and the brain must exit 0 with no answer left over.

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::Duration;

#[derive(Copy, Clone, PartialEq)]
enum Proto {
    Piskvork,
    Matrix,
}

/// The points taken, as the runner follows the game, in the protocol's own coordinates.
struct Model {
    proto: Proto,
    taken: HashSet<(i64, i64)>,
    matrix_row: Option<i64>,
}

impl Model {
    fn see_input(&mut self, line: &str) {
        let t = line.trim();
        let upper = t.to_ascii_uppercase();
        let xy = |s: &str| -> Option<(i64, i64)> {
            let v: Vec<i64> = s.split(',').filter_map(|n| n.trim().parse().ok()).collect();
            (v.len() >= 2).then(|| (v[0], v[1]))
        };
        match self.proto {
            Proto::Piskvork => {
                if upper.starts_with("START") || upper == "RESTART" || upper == "BOARD" {
                    self.taken.clear();
                } else if let Some(rest) = upper.strip_prefix("TURN ") {
                    self.taken.extend(xy(rest));
                } else if let Some(rest) = upper.strip_prefix("TAKEBACK ") {
                    if let Some(p) = xy(rest) {
                        self.taken.remove(&p);
                    }
                } else if t.matches(',').count() == 2 {
                    self.taken.extend(xy(t));
                }
            }
            Proto::Matrix => {
                if t == "1" || t == "2" {
                    self.taken.clear();
                    self.matrix_row = Some(0);
                } else if let Some(r) = self.matrix_row {
                    if !t.is_empty() && !t.starts_with('#') {
                        for (c, cell) in t.split_whitespace().enumerate() {
                            if cell != "0" {
                                self.taken.insert((r, c as i64));
                            }
                        }
                        self.matrix_row = Some(r + 1);
                    }
                }
            }
        }
    }

    fn parse_move(&self, answer: &str) -> Option<(i64, i64)> {
        let sep = if self.proto == Proto::Piskvork { ',' } else { ' ' };
        let v: Vec<i64> = answer.split(sep).filter_map(|n| n.trim().parse().ok()).collect();
        (v.len() == 2 && answer.split(sep).count() == 2).then(|| (v[0], v[1]))
    }
}

fn replay(proto: Proto, path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut args: Vec<String> = vec!["--protocol".into()];
    args.push(if proto == Proto::Piskvork { "piskvork" } else { "matrix" }.into());
    for l in text.lines().filter_map(|l| l.strip_prefix("#args:")) {
        args.extend(l.split_whitespace().map(String::from));
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_wuzi"))
        .args(&args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| e.to_string())?;
    let mut stdin = child.stdin.take();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if !line.starts_with("MESSAGE") && !line.starts_with("DEBUG") && tx.send(line).is_err()
            {
                break;
            }
        }
    });
    let mut model = Model { proto, taken: HashSet::new(), matrix_row: None };
    for (n, line) in text.lines().enumerate() {
        let at = format!("{}:{}", path.display(), n + 1);
        if let Some(want) = line.strip_prefix("#=>") {
            let want = want.trim();
            let got = rx
                .recv_timeout(Duration::from_secs(20))
                .map_err(|_| format!("{at}: expected '{want}', got no answer"))?;
            let ok = if want == "move" {
                model.parse_move(&got).is_some_and(|m| !model.taken.contains(&m))
            } else if let Some(prefix) = want.strip_prefix('~') {
                got.starts_with(prefix.trim())
            } else {
                want.split('|').any(|w| w.trim() == got)
            };
            if !ok {
                return Err(format!("{at}: expected '{want}', got '{got}'"));
            }
            if let Some(m) = model.parse_move(&got) {
                model.taken.insert(m);
            }
        } else if !line.starts_with("#args:") {
            let stdin = stdin.as_mut().ok_or("stdin closed")?;
            // The brain may have exited after END: later lines are simply not read.
            let _ = writeln!(stdin, "{line}").and_then(|_| stdin.flush());
            model.see_input(line);
        }
    }
    drop(stdin.take());
    let status = child.wait().map_err(|e| e.to_string())?;
    if !status.success() {
        return Err(format!("{}: exit {status}", path.display()));
    }
    if let Ok(extra) = rx.recv_timeout(Duration::from_secs(5)) {
        return Err(format!("{}: unexpected answer '{extra}'", path.display()));
    }
    Ok(())
}

fn files(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    v.sort();
    v
}

fn replay_all(proto: Proto, dir: &str, at_least: usize) {
    let files = files(dir);
    assert!(files.len() >= at_least, "only {} transcripts in {dir}", files.len());
    let failures: Vec<String> = files.iter().filter_map(|f| replay(proto, f).err()).collect();
    assert!(failures.is_empty(), "{} failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn piskvork_transcripts() {
    replay_all(Proto::Piskvork, "tests/transcripts-piskvork", 4);
}

#[test]
fn matrix_transcripts() {
    replay_all(Proto::Matrix, "tests/transcripts-matrix", 3);
}
