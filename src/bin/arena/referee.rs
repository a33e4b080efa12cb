//! Plays one game between two engines under the judge's rules and keeps what happened.

use std::time::Instant;

use crate::engine::{Engine, EngineSpec, Fault, FaultKind, Limits, Proto};
use crate::game::{Board, Color, Move, PlaceError, JUDGE_START};

/// The position a game starts from, before any opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// The judge's four stones (the default).
    Judge,
    /// An empty board (piskvork engines only: the judge protocol cannot express it).
    Empty,
}

/// Everything needed to play one game.
pub struct GameSetup<'a> {
    /// 1-based game number.
    pub number: usize,
    /// Engine with black.
    pub black: &'a EngineSpec,
    /// Engine with white.
    pub white: &'a EngineSpec,
    /// Start position.
    pub start: Start,
    /// Opening moves played for both sides after the start stones, black first.
    pub opening: &'a [Move],
    /// Time and memory limits.
    pub limits: Limits,
    /// CPU core for the black and the white engine, if pinned.
    pub pins: [Option<usize>; 2],
}

/// How a game ended.
#[derive(Clone, Debug)]
pub enum Ending {
    /// The winner made five or more in a row.
    Five,
    /// The board filled up without a five: a draw.
    FullBoard,
    /// One side broke a rule and lost at once.
    Fault {
        /// The side that broke the rule.
        loser: Color,
        /// What it did.
        fault: Fault,
    },
    /// Neither engine answered `START` properly: a draw, since neither played.
    BothFailedStart {
        /// Black's failure.
        black: Fault,
        /// White's failure.
        white: Fault,
    },
}

/// One stone put by an engine, with the time it took.
#[derive(Clone, Debug)]
pub struct PlayedMove {
    /// Where.
    pub mv: Move,
    /// Whose.
    pub color: Color,
    /// Thinking time in milliseconds.
    pub ms: u128,
}

/// What one side of a game did, indexed by colour in [`GameRecord::sides`].
#[derive(Clone, Debug)]
pub struct SideLog {
    /// `A` or `B`.
    pub label: char,
    /// Its command line.
    pub command: String,
    /// Its protocol.
    pub proto: Proto,
    /// Whether it answered `START` with `OK`.
    pub started: bool,
    /// Longest move in ms.
    pub max_move_ms: u128,
    /// Total thinking time in ms.
    pub used_ms: u128,
    /// Peak resident memory in kB (0 where the OS does not tell).
    pub peak_kb: u64,
    /// Its DEBUG / MESSAGE lines.
    pub debug: Vec<String>,
    /// The tail of its stderr.
    pub stderr: Vec<String>,
    /// Remarks not affecting the result (output after the game, kill after END).
    pub notes: Vec<String>,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 1-based game number.
    pub number: usize,
    /// Black's and white's logs.
    pub sides: [SideLog; 2],
    /// Stones on the board at `START`.
    pub start_stones: Vec<(Move, Color)>,
    /// Opening stones played for the engines.
    pub opening: Vec<(Move, Color)>,
    /// Stones the engines played.
    pub moves: Vec<PlayedMove>,
    /// The winning colour, `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub ending: Ending,
}

impl GameRecord {
    /// The colour engine A had.
    pub fn a_color(&self) -> Color {
        if self.sides[0].label == 'A' {
            Color::Black
        } else {
            Color::White
        }
    }

    /// A's score: 1 win, 0.5 draw, 0 loss.
    pub fn a_score(&self) -> f64 {
        match self.winner {
            None => 0.5,
            Some(c) if c == self.a_color() => 1.0,
            Some(_) => 0.0,
        }
    }

    fn label(&self, color: Color) -> char {
        self.sides[color.index()].label
    }

    /// The result in words, e.g. `A wins by five` or `B wins: A lost by move-timeout (...)`.
    pub fn summary(&self) -> String {
        match &self.ending {
            Ending::Five => format!("{} wins by five", self.label(self.winner.expect("winner"))),
            Ending::FullBoard => "draw by full-board".to_string(),
            Ending::Fault { loser, fault } => format!(
                "{} wins: {} lost by {} ({})",
                self.label(loser.other()),
                self.label(*loser),
                fault.kind.name(),
                fault.detail
            ),
            Ending::BothFailedStart { black, white } => format!(
                "draw: both failed START ({} {}: {}; {} {}: {})",
                self.label(Color::Black),
                black.kind.name(),
                black.detail,
                self.label(Color::White),
                white.kind.name(),
                white.detail
            ),
        }
    }

    /// Score in the usual notation from black's side: `1-0`, `0-1` or `1/2`.
    pub fn score_text(&self) -> &'static str {
        match self.winner {
            Some(Color::Black) => "1-0",
            Some(Color::White) => "0-1",
            None => "1/2",
        }
    }
}

/// Plays one game. `Err` only when an engine could not even be executed.
pub fn play_game(setup: &GameSetup<'_>) -> Result<GameRecord, String> {
    let mut board = Board::new();
    if setup.start == Start::Judge {
        for &(mv, color) in &JUDGE_START {
            board.place(mv, color);
        }
    }
    let start_stones = board.history.clone();
    let mut color = Color::Black;
    let mut opening = Vec::new();
    for &mv in setup.opening {
        // Openings were checked when the file was read; a bad one here is a bug.
        assert!(board.at(mv).is_none(), "opening point {mv} is taken");
        board.place(mv, color);
        opening.push((mv, color));
        color = color.other();
    }

    let limits = setup.limits;
    let black = Engine::spawn(setup.black, Color::Black, limits, setup.pins[0])?;
    let white = Engine::spawn(setup.white, Color::White, limits, setup.pins[1])?;
    let mut engines = [black, white];
    let mut moves = Vec::new();
    let ending = run(&mut engines, &mut board, &opening, color, &mut moves);

    let winner = match &ending {
        Ending::Five => moves.last().map(|m: &PlayedMove| m.color),
        Ending::Fault { loser, .. } => Some(loser.other()),
        Ending::FullBoard | Ending::BothFailedStart { .. } => None,
    };
    // The side that did not make the last move has not seen it: judge engines get it as
    // PLACE before END, as the judge does after a winning move.
    let last = match ending {
        Ending::Five | Ending::FullBoard => moves.last().map(|m| (m.mv, m.color)),
        _ => None,
    };
    for engine in engines.iter_mut() {
        let result = match winner {
            None => 0,
            Some(c) if c == engine.color => 1,
            Some(_) => 2,
        };
        let unseen = last.filter(|&(_, c)| c != engine.color).map(|(mv, _)| mv);
        engine.finish(result, unseen);
    }
    let side = |e: &mut Engine| SideLog {
        label: e.spec.label,
        command: e.spec.command.clone(),
        proto: e.spec.proto,
        started: e.started,
        max_move_ms: e.max_move.as_millis(),
        used_ms: e.used.as_millis(),
        peak_kb: e.peak_kb(),
        debug: e.debug.clone(),
        stderr: e.stderr_tail(),
        notes: e.notes.clone(),
    };
    Ok(GameRecord {
        number: setup.number,
        sides: {
            let (a, b) = engines.split_at_mut(1);
            [side(&mut a[0]), side(&mut b[0])]
        },
        start_stones,
        opening,
        moves,
        winner,
        ending,
    })
}

/// The game proper, from `START` to the decisive move or fault.
fn run(
    engines: &mut [Engine; 2],
    board: &mut Board,
    opening: &[(Move, Color)],
    first: Color,
    moves: &mut Vec<PlayedMove>,
) -> Ending {
    let mut start_faults: [Option<Fault>; 2] = [None, None];
    for (i, e) in engines.iter_mut().enumerate() {
        start_faults[i] = e.send_start().err();
    }
    for (i, e) in engines.iter_mut().enumerate() {
        if start_faults[i].is_none() {
            start_faults[i] = e.await_start(opening).err();
        }
    }
    match start_faults {
        [Some(black), Some(white)] => return Ending::BothFailedStart { black, white },
        [Some(fault), None] => return Ending::Fault { loser: Color::Black, fault },
        [None, Some(fault)] => return Ending::Fault { loser: Color::White, fault },
        [None, None] => {}
    }

    let mut to_move = first;
    // Judge engines already know the opening stones; piskvork ones get them with BOARD.
    let mut last: Option<Move> = None;
    loop {
        // Stray output from either side is caught before anything more is sent.
        for c in [to_move, to_move.other()] {
            if let Err(fault) = engines[c.index()].drain(None) {
                return Ending::Fault { loser: c, fault };
            }
        }
        let raw = match engines[to_move.index()].ask(board, last) {
            Ok(raw) => raw,
            Err(fault) => return Ending::Fault { loser: to_move, fault },
        };
        let mv = match board.check(raw.0, raw.1) {
            Ok(mv) => mv,
            Err(e) => {
                let (kind, what) = match e {
                    PlaceError::OffBoard => (FaultKind::OffBoard, "off the board"),
                    PlaceError::Occupied => (FaultKind::Occupied, "on a stone"),
                };
                let detail = format!("played row {} col {}, {what}", raw.0, raw.1);
                return Ending::Fault { loser: to_move, fault: Fault { kind, detail } };
            }
        };
        let ms = engines[to_move.index()].last_move.as_millis();
        moves.push(PlayedMove { mv, color: to_move, ms });
        board.place(mv, to_move);
        if board.makes_five(mv) {
            return Ending::Five;
        }
        if board.is_full() {
            // A stray line the other side printed before the last move still loses.
            let other = to_move.other();
            if let Err(fault) = engines[other.index()].drain(Some(Instant::now())) {
                return Ending::Fault { loser: other, fault };
            }
            return Ending::FullBoard;
        }
        last = Some(mv);
        to_move = to_move.other();
    }
}
