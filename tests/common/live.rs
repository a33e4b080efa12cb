//! A brain run live, line by line, each printed line stamped with the time it came: for the
//! tests at the real clock, where how fast an answer comes is part of what is checked.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::judge::{self, Due, Referee};

pub struct Live {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    stderr: Option<JoinHandle<String>>,
}

/// The crate's `wuzi` binary with `args`, its three streams piped.
pub fn spawn_wuzi(args: &[&str]) -> std::io::Result<Child> {
    Command::new(env!("CARGO_BIN_EXE_wuzi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
}

impl Live {
    /// The crate's `wuzi` binary with `args`.
    pub fn start(args: &[&str]) -> Live {
        let mut child = spawn_wuzi(args).expect("the wuzi binary starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            // Bytes, not `lines()`: output that is not UTF-8 must reach the checks, not stop
            // the reading.
            while matches!(reader.read_until(b'\n', &mut buf), Ok(n) if n > 0) {
                let at = Instant::now();
                let text = String::from_utf8_lossy(&buf);
                if tx.send((at, text.trim_end_matches('\n').to_string())).is_err() {
                    break;
                }
                buf.clear();
            }
        });
        let mut err = child.stderr.take().unwrap();
        let stderr = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = err.read_to_string(&mut s);
            s
        });
        let stdin = child.stdin.take();
        Live { child, stdin, lines: rx, stderr: Some(stderr) }
    }

    /// Sends `bytes` and a `\n`; returns when it was sent.
    pub fn send(&mut self, bytes: &[u8]) -> Instant {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin
            .write_all(bytes)
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush())
            .expect("the brain reads its input");
        Instant::now()
    }

    /// The next printed line and when it came, waiting at most `wait`.
    pub fn recv(&mut self, wait: Duration) -> Option<(Instant, String)> {
        self.lines.recv_timeout(wait).ok()
    }

    /// A printed line that came already, if any.
    pub fn try_recv(&mut self) -> Option<(Instant, String)> {
        self.lines.try_recv().ok()
    }

    /// Closes standard input and waits up to `wait` for the exit; returns the lines printed
    /// meanwhile, or why the brain did not exit well (a status, a panic on stderr, a hang).
    pub fn finish(&mut self, wait: Duration) -> Result<Vec<(Instant, String)>, String> {
        drop(self.stdin.take());
        let deadline = Instant::now() + wait;
        let mut rest = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => rest.push(l),
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => {
                    let _ = self.child.kill();
                    return Err(format!("no exit within {wait:?} of the end of input"));
                }
            }
        }
        let status = self.child.wait().map_err(|e| e.to_string())?;
        let err = self.stderr.take().map(|h| h.join().unwrap_or_default()).unwrap_or_default();
        if !status.success() || err.contains("panicked") {
            return Err(format!("exit {status}, stderr: {err}"));
        }
        Ok(rest)
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        // A failed test must not leave a brain thinking on the machine.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The longest an answer may take (judge.md "Limits").
pub fn limit(due: Due) -> Duration {
    Duration::from_millis(match due {
        Due::Ok => judge::START_MS,
        Due::Move => judge::TURN_MS,
    } as u64)
}

/// The judge's side of a live session: the model, when each line went, the slowest move.
pub struct Timed {
    pub referee: Referee,
    pub sent: HashMap<usize, Instant>,
    pub slowest: Duration,
    /// Every line printed so far, and each answer: the line that asked, when it came.
    pub lines: Vec<String>,
    pub answers: Vec<(usize, Due, Instant)>,
}

impl Timed {
    pub fn new() -> Timed {
        Timed {
            referee: Referee::new(false),
            sent: HashMap::new(),
            slowest: Duration::ZERO,
            lines: Vec::new(),
            answers: Vec::new(),
        }
    }

    pub fn send(&mut self, brain: &mut Live, bytes: &[u8]) -> usize {
        let at = brain.send(bytes);
        let i = self.referee.send(&String::from_utf8_lossy(bytes));
        self.sent.insert(i, at);
        i
    }

    /// Checks one printed line; an answer must come in time after the line that asked.
    pub fn take(&mut self, (at, line): (Instant, String)) -> Result<(), String> {
        self.lines.push(line.clone());
        if let Some((i, due)) = self.referee.receive(&line)? {
            self.answers.push((i, due, at));
            let took = at.duration_since(self.sent[&i]);
            if took > limit(due) {
                return Err(format!("'{line}' (for line {i}) took {took:?}"));
            }
            if due == Due::Move {
                self.slowest = self.slowest.max(took);
            }
        }
        Ok(())
    }

    /// Reads until no answer is due; fails when one is late (a second beyond its limit).
    pub fn settle(&mut self, brain: &mut Live) -> Result<(), String> {
        while let Some((i, due)) = self.referee.waiting() {
            let deadline = self.sent[&i] + limit(due) + Duration::from_secs(1);
            let wait = deadline.saturating_duration_since(Instant::now());
            let got = brain.recv(wait).ok_or_else(|| format!("no answer ({due:?}) to line {i}"))?;
            self.take(got)?;
        }
        Ok(())
    }
}
