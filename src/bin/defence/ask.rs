//! Asking a brain for its move in a suite position, in either protocol: the judge's (with the
//! `MINE` extension) or the Gomocup one (`BOARD`), so that any engine, ours or another, can
//! be measured on the same suite.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use wuzi::board::{Board, Color, Pos, StartPos};

/// The protocol a brain speaks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Proto {
    /// The judge's: `START 1|2`, `MINE`/`PLACE row col`, `TURN` -> `row col`.
    Judge,
    /// Gomocup (piskvork): `START 12`, `BOARD` with `x,y,1|2` lines, `DONE` -> `x,y`.
    Piskvork,
}

impl Proto {
    /// The protocol named `name` on the command line.
    pub fn parse(name: &str) -> Result<Proto, String> {
        match name {
            "judge" => Ok(Proto::Judge),
            "piskvork" => Ok(Proto::Piskvork),
            _ => Err(format!("unknown protocol '{name}' (judge or piskvork)")),
        }
    }
}

/// The judge's clock, told to a Gomocup brain (which has no clock of its own): 2 s a move,
/// 90 s a game, all of it left. A brain with time odds (such as `rapfi.py --turn-ms`) scales
/// these itself.
const PISKVORK_CLOCK: &str =
    "INFO timeout_turn 2000\nINFO timeout_match 90000\nINFO time_left 90000\n";

/// What a brain is sent to ask for its move after `moves` (black first, after the judge's
/// four start stones), up to the question itself.
pub fn script(proto: Proto, moves: &[Pos]) -> String {
    let us_black = moves.len() % 2 == 0;
    match proto {
        Proto::Judge => {
            let mut s = format!("START {}\n", if us_black { 1 } else { 2 });
            for (i, p) in moves.iter().enumerate() {
                let ours = (i % 2 == 0) == us_black;
                let word = if ours { "MINE" } else { "PLACE" };
                s.push_str(&format!("{word} {} {}\n", p.row(), p.col()));
            }
            s + "TURN\n"
        }
        Proto::Piskvork => {
            let mut s = format!("START 12\n{PISKVORK_CLOCK}BOARD\n");
            let me = if us_black { Color::Black } else { Color::White };
            for (p, color) in alternating(moves) {
                let field = if color == me { 1 } else { 2 };
                s.push_str(&format!("{},{},{field}\n", p.col(), p.row()));
            }
            s + "DONE\n"
        }
    }
}

/// Every stone of the position after `moves`, colours alternating black first: the judge's
/// start stones of each colour, then the moves. Gomocup engines (Rapfi among them) rebuild a
/// `BOARD` by playing its stones in turn whatever their fields say, so two stones of a colour
/// in a row would change one's colour in their eyes.
fn alternating(moves: &[Pos]) -> Vec<(Pos, Color)> {
    let start = Board::with_start(12, StartPos::Center4);
    let of = |c: Color| -> Vec<Pos> {
        let starts = start.points().filter(|&p| start.stone(p) == Some(c));
        let first = usize::from(c == Color::White);
        starts.chain(moves.iter().skip(first).step_by(2).copied()).collect()
    };
    let (black, white) = (of(Color::Black), of(Color::White));
    let mut out = Vec::with_capacity(black.len() + white.len());
    for i in 0..black.len().max(white.len()) {
        out.extend(black.get(i).map(|&p| (p, Color::Black)));
        out.extend(white.get(i).map(|&p| (p, Color::White)));
    }
    out
}

/// The move in a brain's answer line, if the line is one (`row col` for the judge, `x,y` for
/// Gomocup); `None` for anything else (acknowledgements, logs, messages).
pub fn answer(proto: Proto, line: &str) -> Option<Pos> {
    let t = line.trim();
    let (row, col) = match proto {
        Proto::Judge => {
            let mut it = t.split_whitespace();
            let pair = (it.next()?, it.next()?);
            if it.next().is_some() {
                return None;
            }
            pair
        }
        Proto::Piskvork => {
            let (x, y) = t.split_once(',')?;
            (y.trim(), x.trim())
        }
    };
    super::parse_pos(&format!("{row},{col}")).ok()
}

/// Asks the brain started by `command` for its move in the position after `moves`: a new
/// process per position, as a judge game would be.
pub fn ask_brain(command: &[String], proto: Proto, moves: &[Pos]) -> Result<Pos, String> {
    let mut child = Command::new(&command[0])
        .args(&command[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", command[0]))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let mut stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
    stdin.write_all(script(proto, moves).as_bytes()).map_err(|e| e.to_string())?;
    stdin.flush().map_err(|e| e.to_string())?;
    let mut found = None;
    let mut line = String::new();
    while stdout.read_line(&mut line).map_err(|e| e.to_string())? > 0 {
        found = answer(proto, &line);
        if found.is_some() {
            break;
        }
        line.clear();
    }
    let end = if proto == Proto::Judge { "END 0\n" } else { "END\n" };
    let _ = stdin.write_all(end.as_bytes());
    drop(stdin);
    let _ = child.wait();
    found.ok_or_else(|| "the brain gave no move".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(r: usize, c: usize) -> Pos {
        Pos::new(r, c)
    }

    #[test]
    fn the_judge_is_told_whose_stones_are_whose() {
        // Black played 7,5, white 7,8: black to move, so we are black.
        assert_eq!(
            script(Proto::Judge, &[pos(7, 5), pos(7, 8)]),
            "START 1\nMINE 7 5\nPLACE 7 8\nTURN\n"
        );
        assert_eq!(script(Proto::Judge, &[pos(7, 5)]), "START 2\nPLACE 7 5\nTURN\n");
    }

    #[test]
    fn a_gomocup_board_alternates_colours_from_the_start_stones() {
        // White to move after black's 7,5: the start stones in turn (black 5,6 and 6,5, white
        // 5,5 and 6,6), then the move; white's stones are the mover's (1), as x,y.
        let s = script(Proto::Piskvork, &[pos(7, 5)]);
        let board: Vec<&str> =
            s.lines().skip_while(|l| *l != "BOARD").skip(1).take_while(|l| *l != "DONE").collect();
        assert_eq!(board, ["6,5,2", "5,5,1", "5,6,2", "6,6,1", "5,7,2"]);
        assert!(s.starts_with("START 12\nINFO timeout_turn 2000\n") && s.ends_with("DONE\n"));
        // Black to move: black's stones are the mover's; the last stone is white's last move.
        let s = script(Proto::Piskvork, &[pos(7, 5), pos(7, 8)]);
        assert!(s.contains("6,5,1\n5,5,2\n5,6,1\n6,6,2\n5,7,1\n8,7,2\nDONE"), "{s}");
    }

    #[test]
    fn answers_are_read_in_each_protocol_and_other_lines_skipped() {
        assert_eq!(answer(Proto::Judge, "7 8\n"), Some(pos(7, 8)));
        assert_eq!(answer(Proto::Piskvork, "8,7\r\n"), Some(pos(7, 8)));
        for other in ["OK", "DEBUG search depth 9", "MESSAGE depth 3", "7 8 9", "12 0", ""] {
            assert_eq!(answer(Proto::Judge, other), None, "{other}");
            assert_eq!(answer(Proto::Piskvork, other), None, "{other}");
        }
        assert_eq!(answer(Proto::Piskvork, "0,12"), None, "off the board");
    }
}
