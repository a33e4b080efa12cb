//! The board-matrix protocol of the sibling 11×11 judge, `wuzi --protocol matrix [--size N]`:
//! the brain prints `init end`, then for every move reads the colour it plays now (`1`
//! black, `2` white) and the whole board as N lines of N numbers (0 empty, 1 black, 2 white)
//! and answers `row col`. 5 s a move.
//!
//! The brain rebuilds its state from each board, so any legal position gets a correct
//! answer, including one it did not play into. This protocol has no log channel: anything
//! wrong goes to standard error, and nothing but answers goes to standard output. After a
//! malformed board the reader skips lines until the next line that is a colour alone (`1`
//! or `2`), which no board row can be (rows have at least 5 numbers). Lines starting with
//! `#` are comments.

use std::io::{BufRead, BufReader, Read, Write};
use std::sync::atomic::AtomicBool;

use crate::board::{Color, Pos};
use crate::clock::budget::{Limits, TimeControl};
use crate::clock::timeman::WallClock;
use crate::engine::Engine;
use crate::frontend::input::read_line_capped;
use crate::frontend::protocol::{sanitize, Settings};

/// The sibling judge's board size.
pub const DEFAULT_SIZE: usize = 11;
/// The sibling judge's time for a move, ms.
pub const MOVE_MS: u64 = 5_000;

/// One board request: the colour to play and the stones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The side we play now.
    pub me: Color,
    /// Every stone on the board.
    pub stones: Vec<(Pos, Color)>,
}

/// Parses one board row of `size` numbers.
pub fn parse_row(line: &str, size: usize, row: usize) -> Result<Vec<(Pos, Color)>, String> {
    let cells: Vec<&str> =
        line.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()).collect();
    if cells.len() != size {
        return Err(format!(
            "row {row} has {} cells, not {size}: '{}'",
            cells.len(),
            sanitize(line)
        ));
    }
    let mut stones = Vec::new();
    for (col, cell) in cells.iter().enumerate() {
        match *cell {
            "0" => {}
            "1" => stones.push((Pos::new(row, col), Color::Black)),
            "2" => stones.push((Pos::new(row, col), Color::White)),
            other => {
                return Err(format!("row {row} col {col}: '{}' is not 0, 1 or 2", sanitize(other)))
            }
        }
    }
    Ok(stones)
}

/// Runs the board-matrix protocol for an N×N board until the end of input.
pub fn run<W: Write>(settings: &Settings, size: usize, input: Box<dyn Read + Send>, mut out: W) {
    let mut reader = BufReader::new(input);
    let mut engine = Engine::new(settings.hash_mb);
    engine.set_fault(settings.fault);
    let clock = WallClock::new();
    let stop = AtomicBool::new(false);
    let _ = writeln!(out, "init end");
    let _ = out.flush();
    let next_line = |reader: &mut dyn BufRead| -> Option<String> {
        loop {
            match read_line_capped(reader)? {
                Ok(t) if t.trim().is_empty() || t.trim_start().starts_with('#') => continue,
                Ok(t) => return Some(t),
                // Too long to be a colour or a row: it spoils whatever it stands in.
                Err(len) => return Some(format!("(a line of {len} bytes)")),
            }
        }
    };
    while let Some(line) = next_line(&mut reader) {
        let me = match line.trim() {
            "1" => Color::Black,
            "2" => Color::White,
            other => {
                eprintln!("wuzi: expected the colour (1 or 2), got '{}'; skipped", sanitize(other));
                continue;
            }
        };
        let mut stones = Vec::new();
        let mut error = None;
        for row in 0..size {
            let text = match next_line(&mut reader) {
                Some(text) => text,
                None => {
                    error = Some("the input ended inside a board".to_string());
                    break;
                }
            };
            match parse_row(&text, size, row) {
                Ok(s) => stones.extend(s),
                Err(why) => {
                    error = Some(why);
                    break;
                }
            }
        }
        if let Some(why) = error {
            eprintln!("wuzi: bad board: {why}; waiting for the next colour line");
            continue;
        }
        if stones.len() == size * size {
            eprintln!("wuzi: the board is full; no move to give");
            continue;
        }
        engine.set_position(size, &stones, me);
        let empty = size * size - stones.len();
        let limits = settings.fixed.unwrap_or_else(|| {
            let tc = TimeControl {
                move_ms: MOVE_MS,
                game_left_ms: u64::MAX / 4,
                margin_ms: crate::core::params::MATRIX_MARGIN_MS,
                reserve_ms: 0,
            };
            Limits::for_move(&tc, empty, stones.len())
        });
        let decision = engine.think(me, limits, &clock, &stop, &mut |_| {});
        if let Some(note) = &decision.note {
            eprintln!("wuzi: {note}");
        }
        if let Some(p) = decision.pos {
            let _ = writeln!(out, "{} {}", p.row(), p.col());
            let _ = out.flush();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_parse_strictly() {
        let row = parse_row("0 1 2 0 0", 5, 3).unwrap();
        assert_eq!(row, vec![(Pos::new(3, 1), Color::Black), (Pos::new(3, 2), Color::White)]);
        assert!(parse_row("0 1 2 0", 5, 0).is_err());
        assert!(parse_row("0 1 2 0 0 0", 5, 0).is_err());
        assert!(parse_row("0 1 3 0 0", 5, 0).is_err());
        assert_eq!(parse_row(" 0,0, 0 0\t0\r", 5, 0).unwrap(), vec![]);
    }
}
