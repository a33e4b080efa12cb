//! A brain run live, line by line, each printed line stamped with the time it came: for the
//! tests at the real clock, where how fast an answer comes is part of what is checked.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

pub struct Live {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    stderr: Option<JoinHandle<String>>,
}

impl Live {
    /// The crate's `wuzi` binary with `args`.
    pub fn start(args: &[&str]) -> Live {
        let mut child = Command::new(env!("CARGO_BIN_EXE_wuzi"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the wuzi binary starts");
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
