//! The operating-system side of an engine: the child process, a reader thread per output
//! pipe, and the memory gauge.
//!
//! Every stdout line is timestamped by its reader thread when it arrives and sent over a
//! channel, so output that comes while no answer is due is noticed (and dated) even while
//! the referee is busy with the other side. The stderr thread keeps a tail for the record (a
//! panic message is what explains a crash), and the memory thread polls the peak resident set
//! size on Linux while the game runs.

use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How often the memory gauge is read.
pub const POLL: Duration = Duration::from_millis(20);
/// Lines of stderr kept for the record.
const STDERR_KEEP: usize = 100;

/// Something read from the engine's stdout.
pub enum Event {
    /// One line without its line ending, and when it arrived.
    Line(String, Instant),
    /// The engine closed its stdout (it exited, most likely).
    Eof,
}

/// A running child process with its pipes and watcher threads.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    /// stdout lines as they arrive.
    pub rx: Receiver<Event>,
    peak_kb: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    stderr: Arc<Mutex<Vec<String>>>,
    stderr_done: Arc<AtomicBool>,
}

impl Process {
    /// Starts `argv` with all three standard streams piped.
    pub fn spawn(argv: &[String]) -> io::Result<Process> {
        let mut child = Command::new(&argv[0])
            .args(&argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr_pipe = child.stderr.take().expect("stderr is piped");

        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            let mut at = Instant::now();
            loop {
                buf.clear();
                // Lines that arrived in one chunk with the previous line share its time: a
                // line printed right after an answer is then dated before the next question,
                // however late this thread gets to it.
                let fresh_chunk = reader.buffer().is_empty();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if fresh_chunk {
                            at = Instant::now();
                        }
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
        let stderr_done = Arc::new(AtomicBool::new(false));
        let done = Arc::clone(&stderr_done);
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
            done.store(true, Ordering::SeqCst);
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

        Ok(Process { child, stdin, rx, peak_kb, stop, stderr, stderr_done })
    }

    /// Writes one line and flushes it; `false` when the engine no longer reads.
    pub fn send(&mut self, line: &str) -> bool {
        match self.stdin.as_mut() {
            Some(w) => w.write_all(format!("{line}\n").as_bytes()).and_then(|_| w.flush()).is_ok(),
            None => false,
        }
    }

    /// Closes the engine's stdin, so that a brain reading to end-of-file exits by itself.
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The exit status, waiting up to `wait` for the process to end.
    pub fn exit_status(&mut self, wait: Duration) -> Option<String> {
        let deadline = Instant::now() + wait;
        loop {
            match self.child.try_wait() {
                Ok(Some(s)) => return Some(format!("{s}")),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(5)),
                _ => return None,
            }
        }
    }

    /// Waits up to `grace` for the process to exit, then kills it. `true` if it was killed.
    pub fn wait_or_kill(&mut self, grace: Duration) -> bool {
        let killed = self.exit_status(grace).is_none();
        if killed {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        self.stop.store(true, Ordering::Relaxed);
        killed
    }

    /// The kept tail of stderr. Once the process has ended, waits (up to a second) for the
    /// reader to reach the end of the pipe, so that a dying brain's last words are kept.
    pub fn stderr_tail(&mut self) -> Vec<String> {
        if matches!(self.child.try_wait(), Ok(Some(_))) {
            let deadline = Instant::now() + Duration::from_secs(1);
            while !self.stderr_done.load(Ordering::SeqCst) && Instant::now() < deadline {
                thread::sleep(Duration::from_millis(2));
            }
        }
        self.stderr.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Peak resident memory seen so far in kB, read afresh (0 where the OS does not tell).
    pub fn peak_kb(&self) -> u64 {
        if let Some(kb) = memory_kb(self.child.id()) {
            self.peak_kb.fetch_max(kb, Ordering::Relaxed);
        }
        self.peak_kb.load(Ordering::Relaxed)
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        // Never leave a brain running, whatever path the game took.
        self.stop.store(true, Ordering::Relaxed);
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
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
