//! The openings file: one opening a line, `row,col` moves separated by blanks, `#` comments.
//!
//! Deterministic brains replay the same game from the same position, so a match only
//! measures something when it starts from varied positions; each opening is played twice
//! with colours swapped so that neither engine profits from a lopsided one.

use std::path::Path;

use crate::game::{Board, Color, Move, JUDGE_START};
use crate::referee::Start;

/// Parses openings text; every opening is checked to be playable from `start` (on the
/// board, on empty points, and not already won).
pub fn parse(text: &str, start: Start) -> Result<Vec<Vec<Move>>, String> {
    let mut openings = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let where_ = || format!("line {}: {raw:?}", i + 1);
        let mut board = Board::new();
        if start == Start::Judge {
            for &(mv, color) in &JUDGE_START {
                board.place(mv, color);
            }
        }
        let mut color = Color::Black;
        let mut moves = Vec::new();
        for token in line.split_whitespace() {
            let (r, c) = token
                .split_once(',')
                .and_then(|(r, c)| Some((r.trim().parse::<i64>().ok()?, c.trim().parse().ok()?)))
                .ok_or_else(|| format!("{}: {token:?} is not row,col", where_()))?;
            let mv =
                board.check(r, c).map_err(|e| format!("{}: move {token} is {e:?}", where_()))?;
            board.place(mv, color);
            if board.makes_five(mv) {
                return Err(format!("{}: move {token} already wins", where_()));
            }
            moves.push(mv);
            color = color.other();
        }
        openings.push(moves);
    }
    if openings.is_empty() {
        return Err("the openings file holds no opening".to_string());
    }
    Ok(openings)
}

/// Reads and parses an openings file.
pub fn load(path: &Path, start: Start) -> Result<Vec<Vec<Move>>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse(&text, start).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::SIZE;

    #[test]
    fn parses_moves_and_comments() {
        let text = "# header\n4,7 7,4  # two moves\n\n 3,3 \n";
        let o = parse(text, Start::Judge).unwrap();
        assert_eq!(o, vec![vec![Move::new(4, 7), Move::new(7, 4)], vec![Move::new(3, 3)]]);
    }

    #[test]
    fn rejects_bad_openings() {
        assert!(parse("5,5\n", Start::Judge).is_err()); // a start stone
        assert!(parse("5,5\n", Start::Empty).is_ok());
        assert!(parse("12,0\n", Start::Judge).is_err());
        assert!(parse("4-7\n", Start::Judge).is_err());
        assert!(parse("1,1 2,2 1,1\n", Start::Judge).is_err());
        assert!(parse("# nothing\n", Start::Judge).is_err());
        let five = "0,0 1,0 0,1 1,1 0,2 1,2 0,3 1,3 0,4";
        assert!(parse(five, Start::Empty).is_err());
    }

    #[test]
    fn shipped_file_is_valid() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/openings12.txt");
        let o = load(Path::new(path), Start::Judge).unwrap();
        assert!(o.len() >= 20 && o.iter().all(|m| (2..=4).contains(&m.len())));
    }

    /// Whether either colour has three stones in a five-point line the other has no stone
    /// in (the judge's start stones included): such an opening is already a threat.
    fn has_free_three(opening: &[Move]) -> bool {
        let mut board = Board::new();
        for &(mv, color) in &JUDGE_START {
            board.place(mv, color);
        }
        let mut color = Color::Black;
        for &mv in opening {
            board.place(mv, color);
            color = color.other();
        }
        let on = |x: i64| (0..SIZE as i64).contains(&x);
        for (dr, dc) in [(0i64, 1i64), (1, 0), (1, 1), (1, -1)] {
            for r in 0..SIZE as i64 {
                for c in 0..SIZE as i64 {
                    if !on(r + 4 * dr) || !on(c + 4 * dc) {
                        continue;
                    }
                    let line = (0..5)
                        .map(|k| board.at(Move::new((r + k * dr) as usize, (c + k * dc) as usize)));
                    let count = |who| line.clone().filter(|&at| at == Some(who)).count();
                    let (black, white) = (count(Color::Black), count(Color::White));
                    if (black >= 3 && white == 0) || (white >= 3 && black == 0) {
                        return true;
                    }
                }
            }
        }
        false
    }

    #[test]
    fn balanced_and_fresh_files_keep_their_rules() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");
        let balanced = load(&Path::new(dir).join("openings12-balanced.txt"), Start::Judge).unwrap();
        let fresh = load(&Path::new(dir).join("openings12-fresh.txt"), Start::Judge).unwrap();
        assert!(balanced.len() >= 100 && fresh.len() >= 100);
        // Black 4,7 lines up with the start's 5,6 and 6,5 on an empty anti-diagonal.
        let m = Move::new;
        assert!(has_free_three(&[m(4, 7), m(3, 3)]) && !has_free_three(&[m(3, 3), m(3, 8)]));
        for o in balanced.iter().chain(&fresh) {
            assert!((2..=4).contains(&o.len()), "{o:?}");
            assert!(o.iter().all(|m| (3..=8).contains(&m.row) && (3..=8).contains(&m.col)));
            assert!(!has_free_three(o), "{o:?} starts with a free three");
        }
        // The fresh list exists to measure on positions the balanced list never showed.
        for o in &fresh {
            assert!(!balanced.contains(o), "{o:?} is in both lists");
        }
        let mut sorted = fresh.clone();
        sorted.sort_by_key(|o| o.iter().map(|m| (m.row, m.col)).collect::<Vec<_>>());
        sorted.dedup();
        assert_eq!(sorted.len(), fresh.len(), "the fresh list repeats an opening");
    }

    #[test]
    fn the_live_openings_are_balanced_ones() {
        // `arena --live-openings` chose them from matches on the balanced list.
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");
        let balanced = load(&Path::new(dir).join("openings12-balanced.txt"), Start::Judge).unwrap();
        let live = load(&Path::new(dir).join("openings12-live.txt"), Start::Judge).unwrap();
        assert!(live.len() >= 40, "{} openings", live.len());
        for o in &live {
            assert!(balanced.contains(o), "{o:?} is not a balanced opening");
        }
    }
}
