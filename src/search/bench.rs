//! The bench: fixed positions searched to a fixed depth with fresh tables. The node count is
//! deterministic and changes only when the search's behaviour does; every commit that changes
//! it says `Bench: N` in its message.

use std::sync::atomic::AtomicBool;

use crate::board::{Board, Color, Pos, StartPos};
use crate::clock::budget::Limits;
use crate::clock::timeman::WallClock;
use crate::search::searcher::Searcher;
use crate::search::stats::Stats;
use crate::search::SearchReport;

/// Default bench depth.
pub const DEFAULT_DEPTH: i32 = 8;

/// The bench positions: a start, then moves as `row,col` pairs, black first.
pub const POSITIONS: [(StartPos, &str); 8] = [
    (StartPos::Center4, ""),
    (StartPos::Center4, "7,7 4,4 5,7"),
    (StartPos::Center4, "4,4 7,7 4,7 3,8 7,4 8,3"),
    (StartPos::Empty, "8,7 4,3 3,6 4,4 4,5 5,4 3,4 5,6 5,5 6,5 3,2 3,5"),
    (StartPos::Empty, "3,8 4,6 6,5 5,6 6,7 6,6 7,6 5,8 5,7 8,7 3,6 3,7"),
    (StartPos::Empty, "5,8 4,4 5,7 5,6 4,7 6,7 7,8 4,8 6,9 7,10 8,7"),
    (StartPos::Empty, "6,5 8,3 5,7 6,7 4,6 5,5 3,5 2,4 3,6 5,6"),
    (StartPos::Empty, "7,7 7,4 6,4 5,3 8,6 7,3 9,5 10,4 7,5 8,3 9,7 10,8"),
];

/// Parses `row,col` pairs separated by blanks.
pub fn parse_moves(text: &str) -> Result<Vec<Pos>, String> {
    text.split_whitespace()
        .map(|pair| {
            let (r, c) = pair.split_once(',').ok_or_else(|| format!("bad move '{pair}'"))?;
            let r: usize = r.trim().parse().map_err(|_| format!("bad row in '{pair}'"))?;
            let c: usize = c.trim().parse().map_err(|_| format!("bad column in '{pair}'"))?;
            if r >= 15 || c >= 15 {
                return Err(format!("'{pair}' is off the board"));
            }
            Ok(Pos::new(r, c))
        })
        .collect()
}

/// The board after playing `moves` (black first) from `start` on a 12×12 board.
pub fn board_after(start: StartPos, moves: &[Pos]) -> Result<Board, String> {
    let mut board = Board::with_start(12, start);
    for &p in moves {
        if !board.on_board(p.row(), p.col()) || !board.is_empty(p) {
            return Err(format!("move {p} is not legal"));
        }
        board.make(p);
    }
    Ok(board)
}

/// Searches every bench position within `limits` with fresh tables; returns the reports.
pub fn search_all(limits: Limits) -> Vec<SearchReport> {
    search_all_counted(limits).0
}

/// [`search_all`], with the instruments' counts summed over the positions.
pub fn search_all_counted(limits: Limits) -> (Vec<SearchReport>, Stats) {
    let mut stats = Stats::default();
    let stop = AtomicBool::new(false);
    let clock = WallClock::new();
    let reports = POSITIONS
        .iter()
        .map(|(start, moves)| {
            let mut board = board_after(*start, &parse_moves(moves).expect("bench moves"))
                .expect("bench position");
            let mut searcher = Searcher::new(16);
            let report = searcher.think(&mut board, limits, &clock, &stop, &mut |_| {});
            stats.add(searcher.stats());
            report
        })
        .collect::<Vec<_>>();
    (reports, stats)
}

/// Runs the bench to `depth` (default [`DEFAULT_DEPTH`]) and prints each position's result
/// and the total as `N nodes M nps`, after the instruments' tables if `with_stats`.
pub fn run(depth: Option<i32>, with_stats: bool) {
    let depth = depth.unwrap_or(DEFAULT_DEPTH);
    let (reports, stats) = search_all_counted(Limits::depth(depth));
    let mut nodes = 0;
    let mut ms = 0;
    for (i, r) in reports.iter().enumerate() {
        println!("position {}: {}", i + 1, r.summary());
        nodes += r.nodes;
        ms += r.time_ms;
    }
    if with_stats {
        print!("{}", stats.report());
    }
    // Last, as CI and the commit signature read the last line.
    println!("{} nodes {} nps", nodes, nodes * 1000 / ms.max(1));
}

/// One line of the tactics suite (`moves ; solutions ; length`): a position whose side to
/// move has a forced win.
#[derive(Clone, Debug)]
pub struct Tactic {
    /// The game so far from an empty board, black first.
    pub moves: Vec<Pos>,
    /// Every known winning move.
    pub solutions: Vec<Pos>,
    /// Attacking moves of the shortest VCF.
    pub length: u32,
}

/// Parses a tactics-suite line; `None` for blank and `#` lines.
pub fn parse_tactic(line: &str) -> Option<Result<Tactic, String>> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let parts: Vec<&str> = line.split(';').collect();
    if parts.len() != 3 {
        return Some(Err(format!("need 'moves ; solutions ; length': {line}")));
    }
    Some((|| {
        Ok(Tactic {
            moves: parse_moves(parts[0])?,
            solutions: parse_moves(parts[1])?,
            length: parts[2].trim().parse().map_err(|_| format!("bad length in {line}"))?,
        })
    })())
}

/// The side to move after `moves` from `start`.
pub fn side_after(start: StartPos, moves: usize) -> Color {
    let stones = start.stones(12).len() + moves;
    if stones % 2 == 0 {
        Color::Black
    } else {
        Color::White
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_are_legal_and_deterministic() {
        for (start, moves) in POSITIONS {
            let moves = parse_moves(moves).unwrap();
            let b = board_after(start, &moves).unwrap();
            assert_eq!(b.side_to_move(), side_after(start, moves.len()));
        }
        let a: Vec<u64> = search_all(Limits::depth(3)).iter().map(|r| r.nodes).collect();
        let b: Vec<u64> = search_all(Limits::depth(3)).iter().map(|r| r.nodes).collect();
        assert_eq!(a, b, "the node count must not depend on the run");
        assert!(a.iter().all(|&n| n > 0));
    }

    #[test]
    fn parse_moves_rejects_garbage() {
        assert!(parse_moves("1,2 3").is_err());
        assert!(parse_moves("a,2").is_err());
        assert!(parse_moves("1,99").is_err());
        assert_eq!(parse_moves(" 1,2  3,4 ").unwrap(), vec![Pos::new(1, 2), Pos::new(3, 4)]);
    }
}
