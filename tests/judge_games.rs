//! Whole games and the judge's `START` at awkward times, every line checked by the judge
//! model (`tests/common/judge.rs`):
//!
//! - against a scripted opponent that never makes five and blocks the brain's lone five
//!   points, a game ends with the brain's five (or a full board), through the transcript
//!   runner's `#game:` (each answer legal, a five always taken, a lone five point blocked);
//! - a game played to a full board: the judge's draw. No brain can be kept from five from
//!   the start, so the game starts from a dead position set up with `MINE`/`PLACE` (every
//!   line of five already holds both colours), and the brain and the opponent fill the rest;
//! - `START` sent during a search, and during a ponder, at the real clock: the answers the
//!   README promises, in time, and a fresh board afterwards (read from `--board`'s drawing).

mod common;

use std::cell::RefCell;
use std::collections::VecDeque;
use std::path::Path;
use std::rc::Rc;
use std::time::{Duration, Instant};

use common::judge::{self, opp, Board, Due, Referee, BLACK, EMPTY, P, WHITE};
use common::live::{limit, Live, Timed};
use common::Rng;
use common::{Brain, Peer};

/// The judge's opponent: random moves near the stones, never a five of its own, the brain's
/// five point taken when it has one. It keeps its own board from what it is sent.
struct Blocker {
    rng: Rng,
    board: Board,
    me: u8,
    out: VecDeque<String>,
    ends: Rc<RefCell<Vec<String>>>,
}

impl Blocker {
    fn choose(&mut self) -> P {
        let free: Vec<P> = Board::points().filter(|&p| self.board.is_free(p)).collect();
        let safe: Vec<P> =
            free.iter().copied().filter(|&p| !self.board.five_through(p, self.me)).collect();
        let theirs = self.board.five_points(opp(self.me));
        if let Some(&p) = theirs.iter().find(|p| safe.contains(p)) {
            return p;
        }
        let near = |p: &P| {
            Board::points().any(|q| {
                self.board.get(q) != EMPTY && (q.0 - p.0).abs() <= 2 && (q.1 - p.1).abs() <= 2
            })
        };
        let close: Vec<P> = safe.iter().copied().filter(near).collect();
        let pool = if !close.is_empty() {
            close
        } else if !safe.is_empty() {
            safe
        } else {
            free
        };
        pool[self.rng.below(pool.len() as u64) as usize]
    }
}

impl Peer for Blocker {
    fn send(&mut self, raw: &str) {
        match judge::parse_command(raw) {
            judge::Cmd::Start(me) => {
                (self.me, self.board) = (me, Board::start());
                self.out.push_back("OK".into());
            }
            judge::Cmd::Place(x, y) => self.board.put((x, y), opp(self.me)),
            judge::Cmd::Turn => {
                let p = self.choose();
                self.board.put(p, self.me);
                self.out.push_back(format!("{} {}", p.0, p.1));
            }
            judge::Cmd::End(_) => self.ends.borrow_mut().push(raw.to_string()),
            other => panic!("the runner sent the opponent {other:?}"),
        }
    }
    fn recv(&mut self) -> Option<String> {
        self.out.pop_front()
    }
    fn close(&mut self) {}
    fn finish(&mut self) -> Result<Vec<String>, String> {
        Ok(Vec::new())
    }
}

#[test]
fn games_against_a_blocking_opponent_end_with_the_brains_five() {
    let bin = Path::new(env!("CARGO_BIN_EXE_wuzi"));
    let ends = Rc::new(RefCell::new(Vec::new()));
    let text = "#args: --nodes 3000 --no-book\nSTART 1\n#=> OK\n#game:\nSTART 2\n#=> OK\n#game:\n\
                START 1\n#=> OK\n#game:\nSTART 2\n#=> OK\n#game:\n";
    let mut seed = 0;
    let mut opponent = |_: &[String]| -> Box<dyn Peer> {
        seed += 1;
        Box::new(Blocker {
            rng: Rng::seeded(seed),
            board: Board::start(),
            me: WHITE,
            out: VecDeque::new(),
            ends: ends.clone(),
        })
    };
    let mut brain = Brain::start(bin, &common::transcript_args(text));
    common::replay_text("blocker games", text, &mut brain, &mut opponent).unwrap();
    // The opponent never makes five: each game ends by the brain's five ("END 2" to the
    // opponent: it lost), or by a full board.
    let ends = ends.borrow();
    assert_eq!(ends.len(), 4, "{ends:?}");
    assert!(ends.iter().all(|e| e == "END 2" || e == "END 0"), "{ends:?}");
}

/// A final position with no five anywhere: black where (r + 2c) mod 4 < 2. Rows alternate,
/// columns and diagonals run in pairs, so every line of five holds two stones of each colour;
/// the four start stones fit it. `k` is one of the symmetries that keep the start.
fn no_five_colour(k: usize, p: P) -> u8 {
    let q = judge::sym(k, p);
    if (q.0 + 2 * q.1) % 4 < 2 {
        BLACK
    } else {
        WHITE
    }
}

/// Whether every line of five through `p` holds both colours without `p`.
fn dead_without(b: &Board, p: P) -> bool {
    [(0, 1), (1, 0), (1, 1), (1, -1)].iter().all(|&(dr, dc)| {
        (-4..=0).all(|s| {
            let cells: Vec<P> =
                (s..s + 5).map(|k| (p.0 + k * dr, p.1 + k * dc)).filter(|&q| q != p).collect();
            if !cells.iter().all(|&q| judge::on_board(q)) {
                return true;
            }
            let has = |who| cells.iter().any(|&q| b.get(q) == who);
            has(BLACK) && has(WHITE)
        })
    })
}

#[test]
fn a_game_played_to_a_full_board_is_a_draw_the_brain_survives() {
    for seed in 1..=2u64 {
        let mut rng = Rng::seeded(seed);
        let k = [0, 2, 6, 7][rng.below(4) as usize];
        let mut full = Board::empty();
        for p in Board::points() {
            full.put(p, no_five_colour(k, p));
        }
        assert!(!full.has_five(BLACK) && !full.has_five(WHITE));
        assert!(judge::START_STONES.iter().all(|&(p, who)| full.get(p) == who));
        // Empty up to 40 points, each kept only if every line through it stays dead.
        let mut position = full.clone();
        let mut order: Vec<P> = Board::points().filter(|&p| Board::start().is_free(p)).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let mut empties = 0;
        for p in order {
            if empties < 40 && dead_without(&position, p) {
                position.put(p, EMPTY);
                empties += 1;
            }
        }
        assert!(empties >= 20, "only {empties} points emptied");
        let me = if seed % 2 == 1 { BLACK } else { WHITE };
        let bin = Path::new(env!("CARGO_BIN_EXE_wuzi"));
        let mut brain = Brain::start(bin, &["--nodes".into(), "300".into()]);
        let mut referee = Referee::new(false);
        let say = |brain: &mut Brain, referee: &mut Referee, line: String| {
            brain.send(&line);
            referee.send(&line);
        };
        say(&mut brain, &mut referee, format!("START {me}"));
        let answer = |brain: &mut Brain, referee: &mut Referee| loop {
            let line = brain.recv().expect("an answer");
            if referee.receive(&line).unwrap_or_else(|e| panic!("seed {seed}: {e}")).is_some() {
                return line;
            }
        };
        assert_eq!(answer(&mut brain, &mut referee), "OK");
        for p in Board::points().filter(|&p| Board::start().is_free(p)) {
            let who = position.get(p);
            if who != EMPTY {
                let cmd = if who == me { "MINE" } else { "PLACE" };
                say(&mut brain, &mut referee, format!("{cmd} {} {}", p.0, p.1));
            }
        }
        let board = |r: &Referee| r.game.as_ref().unwrap().board.clone();
        assert_eq!(board(&referee), position, "the set-up went through as sent");
        let mut ours = 0;
        while !board(&referee).full() {
            say(&mut brain, &mut referee, "TURN".into());
            answer(&mut brain, &mut referee);
            ours += 1;
            let free: Vec<P> = Board::points().filter(|&p| board(&referee).is_free(p)).collect();
            if let Some(&p) = free.get(rng.below(free.len().max(1) as u64) as usize) {
                say(&mut brain, &mut referee, format!("PLACE {} {}", p.0, p.1));
            }
        }
        let end = board(&referee);
        assert!(!end.has_five(BLACK) && !end.has_five(WHITE), "seed {seed}: a five");
        assert_eq!(ours, (empties + 1) / 2, "seed {seed}: every TURN answered");
        // A TURN on the full board (no judge sends one; a draw is END 0): there is no move,
        // so nothing but DEBUG may come; then the draw, and a new game that plays.
        say(&mut brain, &mut referee, "TURN".into());
        say(&mut brain, &mut referee, "END 0".into());
        say(&mut brain, &mut referee, "START 1".into());
        assert_eq!(answer(&mut brain, &mut referee), "OK", "seed {seed}");
        say(&mut brain, &mut referee, "TURN".into());
        answer(&mut brain, &mut referee);
        assert_eq!(board(&referee).stones(), 5, "seed {seed}: a fresh board");
        for line in brain.finish().unwrap_or_else(|e| panic!("seed {seed}: {e}")) {
            referee.receive(&line).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        }
        referee.finish().unwrap();
    }
}

/// Reads on until `--board`'s drawing after the latest answer shows the judge model's board.
fn fresh_drawing(brain: &mut Live, j: &mut Timed) -> Result<(), String> {
    let from = j.lines.len() - 1;
    let want = j.referee.game.as_ref().ok_or("no game")?.board.clone();
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        if let Some(drawn) = judge::read_drawing(&j.lines[from..]) {
            return if drawn == want {
                Ok(())
            } else {
                Err(format!(
                    "the brain's board {} is not the judge's {}",
                    drawn.diagram(),
                    want.diagram()
                ))
            };
        }
        let left = deadline.saturating_duration_since(Instant::now());
        j.take(brain.recv(left).ok_or("no board drawn after the answer")?)?;
    }
}

/// The answer to line `i`: what it was and when it came.
fn answer_to(j: &Timed, i: usize) -> (Due, Instant) {
    let &(_, due, at) = j.answers.iter().find(|a| a.0 == i).expect("an answer");
    (due, at)
}

/// The README: "an END (or START, or the end of input) read while the brain thinks stops the
/// search at once, the move found so far is printed, then the game ends". So TURN, then
/// START at once: the move (legal on the old board), then OK, both within the second the
/// judge gives START (a whole search takes ~1.5 s), and the new game is the four stones.
#[test]
fn start_during_a_search_stops_it_answers_the_move_then_ok() {
    let mut brain = Live::start(&["--no-book", "--board"]);
    let mut j = Timed::new();
    for line in ["START 2", "PLACE 3 3"] {
        j.send(&mut brain, line.as_bytes());
    }
    j.settle(&mut brain).unwrap();
    let turn = j.send(&mut brain, b"TURN");
    // The search is under way (the reader reads on while it thinks).
    std::thread::sleep(Duration::from_millis(100));
    let start = j.send(&mut brain, b"START 1");
    j.settle(&mut brain).unwrap();
    let (due, moved) = answer_to(&j, turn);
    assert_eq!(due, Due::Move);
    let (due, ok) = answer_to(&j, start);
    assert_eq!(due, Due::Ok);
    let since_start = moved.duration_since(j.sent[&start]);
    assert!(since_start < limit(Due::Ok), "the search went on {since_start:?} after START");
    assert!(ok >= moved, "OK before the move");
    let turn = j.send(&mut brain, b"TURN");
    j.settle(&mut brain).unwrap();
    assert_eq!(answer_to(&j, turn).0, Due::Move);
    fresh_drawing(&mut brain, &mut j).unwrap();
    j.send(&mut brain, b"END 0");
    for got in brain.finish(Duration::from_secs(5)).unwrap() {
        j.take(got).unwrap();
    }
    j.referee.finish().unwrap();
}

/// START while the brain ponders on the opponent's time (`--ponder`, after its answer):
/// nothing but DEBUG while it ponders, then OK within the judge's second, no pondered move,
/// and the new game's first move is legal on the four stones, drawn on a fresh board.
#[test]
fn start_while_pondering_answers_ok_at_once_on_a_fresh_board() {
    let mut brain = Live::start(&["--ponder", "--no-book", "--board"]);
    let mut j = Timed::new();
    for line in ["START 2", "PLACE 3 3", "TURN"] {
        j.send(&mut brain, line.as_bytes());
    }
    j.settle(&mut brain).unwrap();
    // The opponent's time: the brain ponders; every line it prints meanwhile is checked.
    let until = Instant::now() + Duration::from_millis(600);
    while let Some(got) = brain.recv(until.saturating_duration_since(Instant::now())) {
        j.take(got).unwrap();
    }
    let answers = j.answers.len();
    let start = j.send(&mut brain, b"START 1");
    j.settle(&mut brain).unwrap();
    assert_eq!(j.answers.len(), answers + 1, "one answer to START: {:?}", j.lines);
    let (due, ok) = answer_to(&j, start);
    assert_eq!(due, Due::Ok);
    let took = ok.duration_since(j.sent[&start]);
    assert!(took < limit(Due::Ok), "OK took {took:?}");
    let turn = j.send(&mut brain, b"TURN");
    j.settle(&mut brain).unwrap();
    assert_eq!(answer_to(&j, turn).0, Due::Move);
    fresh_drawing(&mut brain, &mut j).unwrap();
    for got in brain.finish(Duration::from_secs(5)).unwrap() {
        j.take(got).unwrap();
    }
    j.referee.finish().unwrap();
}
