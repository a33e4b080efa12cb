//! Line input on its own thread, so that reading never blocks thinking: every front-end
//! reads its commands through a [`Reader`].

use std::io::{BufRead, BufReader, Read};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::clock::ponder::PonderHit;

/// Longest input line kept; the rest of a longer line is dropped and the line rejected.
pub const MAX_LINE: usize = 4096;

/// Reads lines of at most [`MAX_LINE`] bytes from `input`; a longer line comes back as
/// `Err` with its length, invalid UTF-8 is replaced. `None` at the end of input.
pub fn read_line_capped(input: &mut dyn BufRead) -> Option<Result<String, usize>> {
    let mut line = Vec::new();
    let mut total = 0usize;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => &[],
        };
        if buf.is_empty() {
            if total == 0 {
                return None;
            }
            break;
        }
        let (chunk, found) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        total += chunk.len();
        if line.len() < MAX_LINE {
            let room = MAX_LINE - line.len();
            line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        }
        let used = found.unwrap_or(buf.len());
        input.consume(used);
        if found.is_some() {
            break;
        }
    }
    if total > MAX_LINE {
        return Some(Err(total));
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Some(Ok(String::from_utf8_lossy(&line).into_owned()))
}

/// One line as read: its text, or the length of a line too long to keep.
pub type Line = Result<String, usize>;

/// The reader thread's side of a protocol loop: lines, turned into `T` on the reader thread,
/// come in on `commands`; each token sent on `permits` lets the reader read one more line,
/// so it never runs more than one line ahead of the loop that receives (a piped transcript
/// behaves as if typed, and an `END` sent while the engine thinks is seen at once).
pub struct Reader<T> {
    /// Parsed lines, in input order, with the time each was read.
    pub commands: Receiver<(T, Instant)>,
    /// Permission to read one more line.
    pub permits: Sender<()>,
    /// Lines sent so far (counted before each is sent), plus one at the end of input.
    pub sent: Arc<AtomicU64>,
    given: u64,
    received: u64,
    last_read: Option<Instant>,
    previous_read: Option<Instant>,
}

impl<T> Reader<T> {
    /// Lets the reader read one more line, unless it may already.
    pub fn permit(&mut self) {
        if self.given == self.received {
            self.given += 1;
            // The reader is gone only at the end of input: nothing is lost then.
            let _ = self.permits.send(());
        }
    }

    /// The next parsed line, after letting the reader read it; `None` at the end of input.
    pub fn next_command(&mut self) -> Option<T> {
        self.permit();
        let (cmd, at) = self.commands.recv().ok()?;
        self.received += 1;
        self.previous_read = self.last_read.replace(at);
        Some(cmd)
    }

    /// Whether a line has been read that [`Reader::next_command`] has not returned yet, or
    /// the input has ended.
    pub fn has_unreceived(&self) -> bool {
        self.sent.load(Ordering::SeqCst) > self.received
    }

    /// How long ago the last line returned by [`Reader::next_command`] was read: a clock for
    /// a move runs from then, not from when the loop got to it.
    pub fn since_last_read(&self) -> Duration {
        self.last_read.map_or(Duration::ZERO, |t| t.elapsed())
    }

    /// How long ago the line before the last one was read. A judge sends `PLACE` and `TURN`
    /// together: when the `PLACE` stopped a ponder, the `TURN` waited in the pipe while the
    /// ponder wound down, so its clock is best taken from the `PLACE`.
    pub fn since_previous_read(&self) -> Duration {
        self.previous_read.map_or(Duration::ZERO, |t| t.elapsed())
    }
}

/// What the reader thread shares with the protocol loop.
#[derive(Clone)]
pub struct Signals {
    /// Raised to stop a search at once.
    pub stop: Arc<AtomicBool>,
    /// Lines that end a game or the program (`is_abort`), counted as they are read.
    pub aborts: Arc<AtomicU64>,
    /// While set, any line raises `stop`: the opponent has answered, pondering must end.
    pub pondering: Arc<AtomicBool>,
    /// Raised at the end of input: no line will come, so no search may wait for one.
    pub ended: Arc<AtomicBool>,
    /// The ponder's expected reply: while it is armed, that stone's line does not stop the
    /// ponder but turns it into the move's search (see [`crate::engine::Engine::ponder`]).
    pub hit: PonderHit,
}

impl Signals {
    /// Fresh signals, all down.
    pub fn new() -> Signals {
        Signals {
            stop: Arc::new(AtomicBool::new(false)),
            aborts: Arc::new(AtomicU64::new(0)),
            pondering: Arc::new(AtomicBool::new(false)),
            ended: Arc::new(AtomicBool::new(false)),
            hit: PonderHit::default(),
        }
    }
}

impl Default for Signals {
    fn default() -> Self {
        Signals::new()
    }
}

/// Starts a thread that reads `input` line by line, one line per permit, turning each into
/// a `T` with `parse`. A line for which `is_abort` holds bumps `aborts` and raises `stop`.
/// While pondering, a line raises `stop` too, unless `stone_of` gives it the code of the
/// stone the ponder expects (see [`Signals::hit`]).
pub fn spawn_reader<T: Send + 'static>(
    input: Box<dyn Read + Send>,
    signals: Signals,
    parse: fn(Line) -> T,
    is_abort: fn(&T) -> bool,
    stone_of: fn(&T) -> Option<u8>,
) -> Reader<T> {
    let (tx, rx) = channel();
    let (permit_tx, permit_rx) = channel::<()>();
    let sent = Arc::new(AtomicU64::new(0));
    let counter = Arc::clone(&sent);
    std::thread::spawn(move || {
        let Signals { stop, aborts, pondering, ended, hit } = signals;
        let mut reader = BufReader::new(input);
        while permit_rx.recv().is_ok() {
            let line = match read_line_capped(&mut reader) {
                Some(line) => line,
                None => break,
            };
            let cmd = parse(line);
            if is_abort(&cmd) {
                aborts.fetch_add(1, Ordering::SeqCst);
                stop.store(true, Ordering::SeqCst);
            }
            // Count, send, then look at the pondering flag: the protocol loop sets the flag
            // before it looks at the count, so one of the two always sees the other.
            let stone = stone_of(&cmd);
            counter.fetch_add(1, Ordering::SeqCst);
            if tx.send((cmd, Instant::now())).is_err() {
                return;
            }
            if pondering.load(Ordering::SeqCst) && !stone.map_or(false, |code| hit.take(code)) {
                stop.store(true, Ordering::SeqCst);
            }
        }
        // The end of input counts as an event too: no pondering starts after it, and a
        // search in progress stops at once (one for a move still answers, with the best
        // move it has: nobody will wait for a deeper one).
        counter.fetch_add(1, Ordering::SeqCst);
        ended.store(true, Ordering::SeqCst);
        stop.store(true, Ordering::SeqCst);
    });
    Reader {
        commands: rx,
        permits: permit_tx,
        sent,
        given: 0,
        received: 0,
        last_read: None,
        previous_read: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_and_binary_lines_are_capped() {
        let mut data = vec![b'A'; MAX_LINE + 10];
        data.extend_from_slice(b"\nTURN\r\n\xff\xfe\nlast");
        let mut reader = BufReader::new(&data[..]);
        assert_eq!(read_line_capped(&mut reader), Some(Err(MAX_LINE + 10)));
        assert_eq!(read_line_capped(&mut reader), Some(Ok("TURN".to_string())));
        assert_eq!(read_line_capped(&mut reader), Some(Ok("\u{fffd}\u{fffd}".to_string())));
        assert_eq!(read_line_capped(&mut reader), Some(Ok("last".to_string())));
        assert_eq!(read_line_capped(&mut reader), None);
    }

    #[test]
    fn the_reader_reads_one_line_per_permit_and_flags_aborts() {
        let signals = Signals::new();
        let input: Box<dyn Read + Send> = Box::new(&b"a\nEND\nb\n"[..]);
        let mut r = spawn_reader(input, signals.clone(), |l| l.unwrap(), |s| s == "END", |_| None);
        assert_eq!(r.next_command().as_deref(), Some("a"));
        assert_eq!(signals.aborts.load(Ordering::SeqCst), 0, "END not read yet");
        assert_eq!(r.next_command().as_deref(), Some("END"));
        assert_eq!(signals.aborts.load(Ordering::SeqCst), 1);
        assert!(signals.stop.load(Ordering::SeqCst));
        assert_eq!(r.next_command().as_deref(), Some("b"));
        assert_eq!(r.next_command(), None);
        assert!(r.has_unreceived(), "the end of input counts");
    }

    #[test]
    fn while_pondering_only_the_expected_stone_lets_the_ponder_go_on() {
        let signals = Signals::new();
        let input: Box<dyn Read + Send> = Box::new(&b"5\n6\n5\n"[..]);
        let stone: fn(&String) -> Option<u8> = |s| s.parse().ok();
        let mut r = spawn_reader(input, signals.clone(), |l| l.unwrap(), |_| false, stone);
        // The reader looks at the flags after it sends the line: wait until it has.
        let settled = |s: &Signals| {
            for _ in 0..10_000 {
                if s.hit.is_hit() || s.stop.load(Ordering::SeqCst) {
                    return;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        };
        signals.pondering.store(true, Ordering::SeqCst);
        signals.hit.arm(5);
        assert_eq!(r.next_command().as_deref(), Some("5"));
        settled(&signals);
        assert!(signals.hit.is_hit(), "the expected stone is a hit");
        assert!(!signals.stop.load(Ordering::SeqCst), "and the ponder goes on");
        assert!(signals.hit.disarm());
        signals.hit.arm(5);
        assert_eq!(r.next_command().as_deref(), Some("6"));
        settled(&signals);
        assert!(signals.stop.load(Ordering::SeqCst), "another stone stops the ponder");
        assert!(!signals.hit.is_hit());
        signals.stop.store(false, Ordering::SeqCst);
        assert!(!signals.hit.disarm());
        assert_eq!(r.next_command().as_deref(), Some("5"));
        settled(&signals);
        assert!(signals.stop.load(Ordering::SeqCst), "disarmed: even that stone stops it");
    }
}
