//! A game by hand in the terminal, `wuzi play`: the board drawn with row and column numbers
//! and the last move in brackets, moves typed as `row col`, and commands to take back, start
//! again, swap colours, change the thinking time and ask for a hint.

use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;

use crate::board::{Color, Pos, StartPos};
use crate::clock::budget::Limits;
use crate::clock::timeman::WallClock;
use crate::engine::Engine;
use crate::search::{score_text, SearchReport};

/// How a game by hand is set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Whether the person plays black.
    pub human_black: bool,
    /// The start position.
    pub start: StartPos,
    /// The brain's thinking time a move, ms.
    pub think_ms: u64,
    /// Board size.
    pub size: usize,
    /// Hash table size, MB.
    pub hash_mb: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            human_black: true,
            start: StartPos::Center4,
            think_ms: 1000,
            size: crate::board::DEFAULT_SIZE,
            hash_mb: crate::core::params::HASH_MB,
        }
    }
}

const HELP: &str = "\
Type a move as `row col` (or `row,col`), for example `4 7`. Commands:
  undo       take back your last move (and the brain's answer)
  new        start a new game          swap     change colours
  time MS    the brain's thinking time hint     the brain's suggestion for you
  board      draw the board again      help     this text
  quit       leave";

/// What a line typed by the person asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A move at row, column.
    Move(i64, i64),
    /// Take back.
    Undo,
    /// A new game.
    New,
    /// Change colours.
    Swap,
    /// Set the thinking time.
    Time(u64),
    /// Ask for a suggestion.
    Hint,
    /// Draw the board.
    Board,
    /// Show the help.
    Help,
    /// Leave.
    Quit,
    /// Nothing typed.
    Empty,
}

/// Parses a typed line; `Err` explains what was wrong.
pub fn parse_input(line: &str) -> Result<Input, String> {
    let t = line.trim().to_ascii_lowercase();
    let words: Vec<&str> =
        t.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()).collect();
    match words.as_slice() {
        [] => Ok(Input::Empty),
        ["undo"] | ["u"] => Ok(Input::Undo),
        ["new"] | ["n"] => Ok(Input::New),
        ["swap"] => Ok(Input::Swap),
        ["hint"] => Ok(Input::Hint),
        ["board"] | ["b"] => Ok(Input::Board),
        ["help"] | ["h"] | ["?"] => Ok(Input::Help),
        ["quit"] | ["q"] | ["exit"] => Ok(Input::Quit),
        ["time", ms] => match ms.parse::<u64>() {
            Ok(ms) if (10..=60_000).contains(&ms) => Ok(Input::Time(ms)),
            _ => Err(format!("time takes milliseconds from 10 to 60000, not '{ms}'")),
        },
        [r, c] => match (r.parse::<i64>(), c.parse::<i64>()) {
            (Ok(r), Ok(c)) => Ok(Input::Move(r, c)),
            _ => Err(format!("'{}' is not a move: type row and column, like `4 7`", line.trim())),
        },
        _ => Err(format!("'{}' is not a move or a command (type help)", line.trim())),
    }
}

/// What `wuzi play` says after its move: where a book move came from, or the search's
/// evaluation, depth and expected line (a book move has neither, so it says so instead).
fn move_note(r: &SearchReport) -> String {
    if r.source.starts_with("book") {
        return if r.source.contains("proven") {
            "from the opening book, a proven win".to_string()
        } else {
            "from the opening book".to_string()
        };
    }
    let line: Vec<String> = r.pv.iter().skip(1).take(8).map(|p| p.to_string()).collect();
    let mut note = format!("eval {}, depth {}", score_text(r.score), r.depth);
    if !line.is_empty() {
        note.push_str(&format!(", expects {}", line.join(" ")));
    }
    note
}

/// Runs a game by hand on `input` and `out` until `quit` or the end of input.
pub fn run(options: &Options, input: &mut dyn BufRead, out: &mut dyn Write) {
    let mut engine = Engine::new(options.hash_mb);
    let mut human = if options.human_black { Color::Black } else { Color::White };
    let mut think_ms = options.think_ms;
    let clock = WallClock::new();
    let stop = AtomicBool::new(false);
    engine.new_game(options.size, options.start);
    let _ = writeln!(out, "wuzi: five in a row (freestyle). You play {}.", name(human));
    let _ = writeln!(out, "{HELP}");
    let mut over = false;
    let mut show = true;
    loop {
        if !over && engine.board().side_to_move() != human {
            let me = human.opp();
            let limits = Limits::movetime(think_ms);
            let d = engine.think(me, limits, &clock, &stop, &mut |_| {});
            if let Some(p) = d.pos {
                engine.play(p, me);
                let _ = write!(out, "wuzi plays {} {}", p.row(), p.col());
                if let Some(r) = d.report {
                    let _ = write!(out, "  ({})", move_note(&r));
                }
                let _ = writeln!(out);
            }
            show = true;
        }
        if show {
            let _ = write!(out, "{}", engine.board().to_ascii(engine.board().last_move()));
            show = false;
        }
        if !over {
            if let Some(result) = result(&engine, human) {
                let _ = writeln!(out, "{result} Type new for another game, undo to take back.");
                over = true;
            }
        }
        let _ = write!(out, "{}> ", if over { "game over" } else { "your move" });
        let _ = out.flush();
        let mut line = String::new();
        match input.read_line(&mut line) {
            Ok(0) | Err(_) => {
                let _ = writeln!(out);
                return;
            }
            Ok(_) => {}
        }
        match parse_input(&line) {
            Err(why) => {
                let _ = writeln!(out, "{why}");
            }
            Ok(Input::Empty) => {}
            Ok(Input::Help) => {
                let _ = writeln!(out, "{HELP}");
            }
            Ok(Input::Quit) => return,
            Ok(Input::Board) => show = true,
            Ok(Input::Time(ms)) => {
                think_ms = ms;
                let _ = writeln!(out, "the brain now thinks {ms} ms a move");
            }
            Ok(Input::New) => {
                engine.new_game(options.size, options.start);
                over = false;
                show = true;
                let _ = writeln!(out, "new game; you play {}", name(human));
            }
            Ok(Input::Swap) => {
                human = human.opp();
                show = true;
                let _ = writeln!(out, "you play {} now", name(human));
            }
            Ok(Input::Undo) => {
                // Take back to the person's previous turn: one or two stones.
                let mut taken = 0;
                while engine.undo() {
                    taken += 1;
                    if engine.board().side_to_move() == human {
                        break;
                    }
                }
                over = false;
                show = true;
                let _ = writeln!(out, "took back {taken} stone(s)");
            }
            Ok(Input::Hint) if !over => {
                let d = engine.think(human, Limits::movetime(think_ms), &clock, &stop, &mut |_| {});
                if let Some(p) = d.pos {
                    let _ = writeln!(out, "hint: {} {}", p.row(), p.col());
                }
            }
            Ok(Input::Move(..)) | Ok(Input::Hint) if over => {
                let _ = writeln!(out, "the game is over: type new, undo or quit");
            }
            Ok(Input::Move(r, c)) => match engine.check_move(r, c) {
                Ok(p) => {
                    engine.play(p, human);
                    show = true;
                }
                Err(why) => {
                    let _ = writeln!(out, "{why}; try another point");
                }
            },
            Ok(Input::Hint) => {}
        }
    }
}

fn name(c: Color) -> &'static str {
    match c {
        Color::Black => "black (X)",
        Color::White => "white (O)",
    }
}

/// The end of the game, if it has come.
fn result(engine: &Engine, human: Color) -> Option<String> {
    let b = engine.board();
    let last: Option<Pos> = b.last_move();
    if b.last_move_won() {
        let winner = last.and_then(|p| b.stone(p));
        return Some(
            if winner == Some(human) {
                "Five in a row: you win!"
            } else {
                "Five in a row: wuzi wins."
            }
            .to_string(),
        );
    }
    if b.is_full() {
        return Some("The board is full: a draw.".to_string());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(script: &str, options: Options) -> String {
        let mut out = Vec::new();
        run(&options, &mut script.as_bytes(), &mut out);
        String::from_utf8(out).unwrap()
    }

    fn quick() -> Options {
        Options { think_ms: 30, hash_mb: 1, ..Options::default() }
    }

    #[test]
    fn parses_moves_and_commands() {
        assert_eq!(parse_input(" 4 7 "), Ok(Input::Move(4, 7)));
        assert_eq!(parse_input("4,7"), Ok(Input::Move(4, 7)));
        assert_eq!(parse_input("UNDO"), Ok(Input::Undo));
        assert_eq!(parse_input("time 300"), Ok(Input::Time(300)));
        assert!(parse_input("time soon").is_err());
        assert!(parse_input("four seven").is_err());
        assert!(parse_input("1 2 3").is_err());
    }

    #[test]
    fn a_scripted_game_shows_the_board_and_answers_mistakes() {
        let text = play("4 7\n4 7\n99 1\nhello\nundo\nhint\nquit\n", quick());
        assert!(text.contains("You play black"), "{text}");
        assert!(text.contains("wuzi plays"), "{text}");
        assert!(text.contains("[O]"), "the brain's last move is marked: {text}");
        assert!(text.contains("4,7 is already taken"), "{text}");
        assert!(text.contains("off the 12x12 board"), "{text}");
        assert!(text.contains("is not a move"), "{text}");
        assert!(text.contains("took back 2 stone(s)"), "{text}");
        assert!(text.contains("hint: "), "{text}");
    }

    #[test]
    fn a_book_move_says_it_came_from_the_book() {
        // At the judge's start with black to move the book answers; nothing was searched.
        let options = Options { human_black: false, start: StartPos::Center4, ..quick() };
        let text = play("quit\n", options);
        let said = text.lines().find(|l| l.starts_with("wuzi plays")).expect("the brain moved");
        assert!(said.ends_with("(from the opening book)"), "{said}");
        assert!(!said.contains("depth"), "{said}");
    }

    #[test]
    fn the_brain_moves_first_when_the_person_is_white_and_wins_are_told() {
        let options = Options { human_black: false, start: StartPos::Empty, ..quick() };
        // The person plays far away; the brain makes five long before the board fills.
        let moves: String = (0..12).map(|c| format!("0 {c}\n11 {c}\n")).collect();
        let text = play(&moves, options);
        assert!(text.contains("You play white"));
        assert!(text.find("wuzi plays").unwrap() < text.find("your move").unwrap());
        assert!(text.contains("wuzi wins"), "{text}");
        assert!(text.contains("the game is over"), "{text}");
    }
}
