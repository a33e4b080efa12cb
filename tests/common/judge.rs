//! A model of the 12×12 judge, written from `shared/spec/judge.md` and apart from the crate:
//! nothing here calls the brain's own parser or board, so that a bug there cannot hide itself
//! by agreeing with its own check.
//!
//! - [`parse_command`] reads a line the judge (or a test) sends as the brain documents it
//!   (README "Play it by hand": lower case, extra blanks, `\r\n`, `#` comments, `MINE`);
//! - [`parse_reply`] reads a line the brain prints as the judge would: `DEBUG ...`, `OK`, or
//!   exactly `X Y`, two numbers and one blank;
//! - [`Board`]: the 12×12 board from the four start stones, legality, five or more in a row
//!   (freestyle: an overline wins too), the points that make five or an unstoppable four;
//! - [`sym`] and [`Board::symmetries`]: the 8 symmetries of the square;
//! - [`Referee`]: which answer each line makes due, and whether each printed line fits.

use std::collections::VecDeque;

/// A point, (row, column); off the board when either is outside `0..12`.
pub type P = (i64, i64);
/// The board's side.
pub const N: i64 = 12;
pub const EMPTY: u8 = 0;
pub const BLACK: u8 = 1;
pub const WHITE: u8 = 2;
/// The four stones every game starts from (judge.md "The game").
pub const START_STONES: [(P, u8); 4] =
    [((5, 5), WHITE), ((6, 6), WHITE), ((5, 6), BLACK), ((6, 5), BLACK)];
/// Time limits (judge.md "Limits"): `START` answered within 1 s, each `TURN` within 2 s.
pub const START_MS: u128 = 1_000;
pub const TURN_MS: u128 = 2_000;
/// DEBUG limits (judge.md "Protocol"): one message at most 16 KB, 32 KB in all.
pub const DEBUG_LINE_MAX: usize = 16 * 1024;
pub const DEBUG_TOTAL_MAX: usize = 32 * 1024;

/// The other colour.
pub fn opp(who: u8) -> u8 {
    3 - who
}

pub fn on_board(p: P) -> bool {
    (0..N).contains(&p.0) && (0..N).contains(&p.1)
}

/// Symmetry `k` (0..8) of the square applied to `p`: 0 the identity, 1..=3 the rotations by
/// a quarter turn, 4..=7 the reflections (columns, rows, main and anti diagonal).
pub fn sym(k: usize, p: P) -> P {
    let (r, c, m) = (p.0, p.1, N - 1);
    match k {
        0 => (r, c),
        1 => (c, m - r),
        2 => (m - r, m - c),
        3 => (m - c, r),
        4 => (r, m - c),
        5 => (m - r, c),
        6 => (c, r),
        7 => (m - c, m - r),
        _ => panic!("no symmetry {k}"),
    }
}

/// A command as the brain reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cmd {
    Start(u8),
    Place(i64, i64),
    Mine(i64, i64),
    Turn,
    End(u8),
    /// A blank line, a comment or bad input: the brain only prints DEBUG for it.
    Ignored,
}

pub fn parse_command(line: &str) -> Cmd {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = words.first() else { return Cmd::Ignored };
    if first.starts_with('#') {
        return Cmd::Ignored;
    }
    let num = |i: usize| words[i].parse::<i64>().ok();
    match (first.to_ascii_uppercase().as_str(), words.len()) {
        ("START", 2) if words[1] == "1" => Cmd::Start(BLACK),
        ("START", 2) if words[1] == "2" => Cmd::Start(WHITE),
        ("PLACE", 3) | ("MINE", 3) => match (num(1), num(2)) {
            (Some(x), Some(y)) if first.eq_ignore_ascii_case("PLACE") => Cmd::Place(x, y),
            (Some(x), Some(y)) => Cmd::Mine(x, y),
            _ => Cmd::Ignored,
        },
        ("TURN", 1) => Cmd::Turn,
        ("END", 2) => match num(1) {
            Some(f @ 0..=2) => Cmd::End(f as u8),
            _ => Cmd::Ignored,
        },
        _ => Cmd::Ignored,
    }
}

/// A line the brain printed, as the judge reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    Debug,
    Ok,
    /// `X Y`: two whole numbers, one blank between, nothing else (maybe off the board).
    Move(i64, i64),
    Other,
}

pub fn parse_reply(line: &str) -> Reply {
    if line == "DEBUG" || line.starts_with("DEBUG ") {
        return Reply::Debug;
    }
    if line == "OK" {
        return Reply::Ok;
    }
    let number = |t: &str| {
        let digits = t.strip_prefix('-').unwrap_or(t);
        if digits.is_empty() || digits.len() > 9 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        t.parse::<i64>().ok()
    };
    match line.split_once(' ') {
        Some((x, y)) => match (number(x), number(y)) {
            (Some(x), Some(y)) => Reply::Move(x, y),
            _ => Reply::Other,
        },
        None => Reply::Other,
    }
}

/// The four directions of a line.
const DIRS: [P; 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    cells: [[u8; 12]; 12],
}

impl Board {
    pub fn empty() -> Board {
        Board { cells: [[EMPTY; 12]; 12] }
    }
    /// Every game's start: the four stones.
    pub fn start() -> Board {
        let mut b = Board::empty();
        for (p, who) in START_STONES {
            b.put(p, who);
        }
        b
    }
    pub fn get(&self, p: P) -> u8 {
        if on_board(p) {
            self.cells[p.0 as usize][p.1 as usize]
        } else {
            EMPTY
        }
    }
    pub fn is_free(&self, p: P) -> bool {
        on_board(p) && self.get(p) == EMPTY
    }
    /// Whether the judge takes a stone at `p` (judge.md "Lost at once").
    pub fn legal(&self, p: P) -> Result<(), String> {
        if !on_board(p) {
            Err(format!("{} {} is off the 12x12 board", p.0, p.1))
        } else if self.get(p) != EMPTY {
            Err(format!("{} {} is on a stone", p.0, p.1))
        } else {
            Ok(())
        }
    }
    pub fn put(&mut self, p: P, who: u8) {
        assert!(on_board(p), "put off the board: {p:?}");
        self.cells[p.0 as usize][p.1 as usize] = who;
    }
    pub fn points() -> impl Iterator<Item = P> {
        (0..N).flat_map(|r| (0..N).map(move |c| (r, c)))
    }
    pub fn stones(&self) -> usize {
        Board::points().filter(|&p| self.get(p) != EMPTY).count()
    }
    pub fn full(&self) -> bool {
        self.stones() == 144
    }
    /// Whether a stone of `who` at `p` (there or not) is in a line of five or more.
    pub fn five_through(&self, p: P, who: u8) -> bool {
        DIRS.iter().any(|&(dr, dc)| {
            let run = |s: i64| {
                (1..N)
                    .take_while(|&k| {
                        let q = (p.0 + s * k * dr, p.1 + s * k * dc);
                        on_board(q) && self.get(q) == who
                    })
                    .count()
            };
            run(1) + run(-1) + 1 >= 5
        })
    }
    pub fn has_five(&self, who: u8) -> bool {
        Board::points().any(|p| self.get(p) == who && self.five_through(p, who))
    }
    /// The empty points where `who` would make five or more.
    pub fn five_points(&self, who: u8) -> Vec<P> {
        Board::points().filter(|&p| self.is_free(p) && self.five_through(p, who)).collect()
    }
    /// The empty points where a stone of `who` leaves two or more five points: an open four
    /// or a double four, which one stone of the other side cannot stop.
    pub fn four_threats(&self, who: u8) -> Vec<P> {
        Board::points()
            .filter(|&p| self.is_free(p))
            .filter(|&p| {
                let mut b = self.clone();
                b.put(p, who);
                b.five_points(who).len() >= 2
            })
            .collect()
    }
    /// The board as rows of `.`, `X` (black) and `O` (white), for messages.
    pub fn diagram(&self) -> String {
        (0..N)
            .map(|r| (0..N).map(|c| ['.', 'X', 'O'][self.get((r, c)) as usize]).collect::<String>())
            .collect::<Vec<_>>()
            .join("/")
    }
    /// The board under symmetry `k`.
    pub fn transform(&self, k: usize) -> Board {
        let mut b = Board::empty();
        for p in Board::points() {
            b.put(sym(k, p), self.get(p));
        }
        b
    }
    /// The symmetries that leave this position as it is (the identity always).
    pub fn symmetries(&self) -> Vec<usize> {
        (0..8).filter(|&k| self.transform(k) == *self).collect()
    }
    /// The points equivalent to `p` in this position.
    pub fn equivalents(&self, p: P) -> Vec<P> {
        let mut out: Vec<P> = self.symmetries().into_iter().map(|k| sym(k, p)).collect();
        out.sort();
        out.dedup();
        out
    }
}

/// The board a `--board` drawing shows: the last 13 DEBUG lines of `lines` that form one
/// (a header of column numbers, then rows `NN  c  c ...` with `X` black, `O` white).
pub fn read_drawing(lines: &[String]) -> Option<Board> {
    let header = lines.iter().rposition(|l| {
        let nums: Vec<&str> = l.strip_prefix("DEBUG ").unwrap_or("").split_whitespace().collect();
        nums.len() == 12 && nums.iter().enumerate().all(|(i, n)| *n == i.to_string())
    })?;
    let mut b = Board::empty();
    for r in 0..N {
        let row = lines.get(header + 1 + r as usize)?.strip_prefix("DEBUG ")?.as_bytes();
        if row.len() < 3 + 3 * 12 || row[..2] != *format!("{r:>2}").as_bytes() {
            return None;
        }
        for c in 0..N {
            match row[3 + 3 * c as usize + 1] {
                b'X' => b.put((r, c), BLACK),
                b'O' => b.put((r, c), WHITE),
                b'.' => {}
                _ => return None,
            }
        }
    }
    Some(b)
}

/// An answer the judge waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Due {
    Ok,
    Move,
}

#[derive(Clone, Debug)]
pub struct Game {
    pub board: Board,
    /// Our colour.
    pub me: u8,
    /// We answered `TURN` and no stone came since (a second `TURN` is not answered).
    pub answered: bool,
}

/// The judge's view of one session: the lines sent, in order, and the answers they make due.
/// A line sent while an answer is still due waits (the brain reads it then, but acts on it
/// only after answering), so the answer is checked against the board as it was.
#[derive(Clone, Debug)]
pub struct Referee {
    empty_start: bool,
    pub game: Option<Game>,
    queue: VecDeque<(usize, String)>,
    waiting: Option<(usize, Due)>,
    sent: usize,
    /// DEBUG bytes since the last `START` that was answered.
    pub debug_bytes: usize,
}

impl Referee {
    /// A session whose games start from the four stones (or an empty board: `--start empty`).
    pub fn new(empty_start: bool) -> Referee {
        Referee {
            empty_start,
            game: None,
            queue: VecDeque::new(),
            waiting: None,
            sent: 0,
            debug_bytes: 0,
        }
    }

    /// A line the judge sent (without its `\n`); returns its index.
    pub fn send(&mut self, line: &str) -> usize {
        self.queue.push_back((self.sent, line.to_string()));
        self.sent += 1;
        self.drain();
        self.sent - 1
    }

    /// The answer due now, and the index of the line that made it due.
    pub fn waiting(&self) -> Option<(usize, Due)> {
        self.waiting
    }

    fn drain(&mut self) {
        while self.waiting.is_none() {
            let Some((i, line)) = self.queue.pop_front() else { return };
            match parse_command(&line) {
                Cmd::Start(me) => {
                    let board = if self.empty_start { Board::empty() } else { Board::start() };
                    self.game = Some(Game { board, me, answered: false });
                    self.waiting = Some((i, Due::Ok));
                }
                Cmd::End(_) => self.game = None,
                Cmd::Place(x, y) | Cmd::Mine(x, y) => {
                    let mine = matches!(parse_command(&line), Cmd::Mine(..));
                    if let Some(g) = self.game.as_mut() {
                        // A stone on a taken point or off the board is bad input: no change.
                        if g.board.is_free((x, y)) {
                            g.board.put((x, y), if mine { g.me } else { opp(g.me) });
                            g.answered = false;
                        }
                    }
                }
                Cmd::Turn => {
                    if let Some(g) = &self.game {
                        // A full board has no move to give (the judge would have sent END 0).
                        if !g.answered && !g.board.full() {
                            self.waiting = Some((i, Due::Move));
                        }
                    }
                }
                Cmd::Ignored => {}
            }
        }
    }

    /// A line the brain printed: `Ok(Some(..))` when it was the due answer (which line made
    /// it due, and what it was), `Ok(None)` for a DEBUG line, `Err` when the judge would
    /// declare the game lost.
    pub fn receive(&mut self, line: &str) -> Result<Option<(usize, Due)>, String> {
        let reply = parse_reply(line);
        if reply == Reply::Debug {
            self.debug_bytes += line.len() + 1;
            if line.len() > DEBUG_LINE_MAX {
                return Err(format!("a DEBUG line of {} bytes", line.len()));
            }
            if self.debug_bytes > DEBUG_TOTAL_MAX {
                return Err(format!("{} bytes of DEBUG in one game", self.debug_bytes));
            }
            return Ok(None);
        }
        let Some((i, due)) = self.waiting else {
            return Err(format!("'{line}' printed when no answer was due"));
        };
        match (due, reply) {
            (Due::Ok, Reply::Ok) => self.debug_bytes = 0,
            (Due::Move, Reply::Move(x, y)) => {
                let g = self.game.as_mut().expect("a move is due only in a game");
                g.board.legal((x, y)).map_err(|e| format!("answer '{line}': {e}"))?;
                g.board.put((x, y), g.me);
                g.answered = true;
            }
            (Due::Ok, _) => return Err(format!("expected OK for line {i}, got '{line}'")),
            (Due::Move, _) => return Err(format!("expected a move for line {i}, got '{line}'")),
        }
        self.waiting = None;
        self.drain();
        Ok(Some((i, due)))
    }

    /// At the end of a session: every due answer came.
    pub fn finish(&self) -> Result<(), String> {
        match self.waiting {
            Some((i, due)) => Err(format!("no answer ({due:?}) to line {i}")),
            None => Ok(()),
        }
    }
}

/// The lines of a raw input stream as the brain's reader splits them: on `\n`, a last line
/// without one included, invalid UTF-8 replaced.
pub fn split_stream(input: &[u8]) -> Vec<String> {
    let mut lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    if input.ends_with(b"\n") || input.is_empty() {
        lines.pop();
    }
    lines.into_iter().map(|l| String::from_utf8_lossy(l).into_owned()).collect()
}

/// Checks a whole session: the `input` the brain read and every line it printed.
pub fn check_session(input: &[u8], output: &[String]) -> Result<(), String> {
    let mut referee = Referee::new(false);
    for line in split_stream(input) {
        referee.send(&line);
    }
    for line in output {
        referee.receive(line)?;
    }
    referee.finish()
}
