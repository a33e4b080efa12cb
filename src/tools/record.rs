//! Arena records read back (`src/bin/arena/`, README "Record format"): the game's moves, who
//! played each, and the result. The tools read them: `defence` for its analyses of our games,
//! `datagen --records` to turn them into training games.

use crate::board::{Color, Pos};

/// One arena game as its record tells it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// The `result:` line's text: `1-0`, `0-1` or `1/2`, then how the game ended.
    pub result: String,
    /// Every stone after the four start stones, opening included, in order.
    pub moves: Vec<Pos>,
    /// Who placed each of `moves`: `opening`, or the engine's letter (`A`, `B`).
    pub movers: Vec<String>,
}

impl Record {
    /// Reads a record's text; a move row that does not parse is an error (a record cut short
    /// while the arena wrote it simply has fewer rows).
    pub fn parse(text: &str) -> Result<Record, String> {
        let mut record = Record::default();
        let mut in_moves = false;
        for line in text.lines() {
            if let Some(result) = line.strip_prefix("result:") {
                record.result = result.trim().to_string();
                continue;
            }
            if line.starts_with('[') {
                in_moves = line == "[moves]";
                continue;
            }
            let w: Vec<&str> = line.split_whitespace().collect();
            if !in_moves || w.len() < 5 || w[0].starts_with('#') {
                continue;
            }
            let coord = |s: &str| s.parse::<usize>().ok().filter(|&v| v < 12);
            let (r, c) = match (coord(w[3]), coord(w[4])) {
                (Some(r), Some(c)) => (r, c),
                _ => return Err(format!("bad move row '{line}'")),
            };
            record.moves.push(Pos::new(r, c));
            record.movers.push(w[2].to_string());
        }
        Ok(record)
    }

    /// Reads the record file at `path`.
    pub fn read(path: &str) -> Result<Record, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        Record::parse(&text).map_err(|e| format!("{path}: {e}"))
    }

    /// The colour that won, or `None` for a draw (or a record without a result).
    pub fn winner(&self) -> Option<Color> {
        match self.result.split_whitespace().next() {
            Some("1-0") => Some(Color::Black),
            Some("0-1") => Some(Color::White),
            _ => None,
        }
    }

    /// How many of `moves` are the opening's (placed before either engine moved).
    pub fn opening_len(&self) -> usize {
        self.movers.iter().take_while(|m| *m == "opening").count()
    }

    /// The indices in `moves` of `engine`'s own moves.
    pub fn moves_of(&self, engine: &str) -> Vec<usize> {
        (0..self.movers.len()).filter(|&i| self.movers[i] == engine).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RECORD: &str = "# wuzi arena record\ngame: 3\nresult: 0-1 B wins by five\n\
        moves: 4\n\n[moves]\n#  n colour engine row col     ms\n\
        1 black  opening   3   3      -\n   2 white  opening   8   8      -\n\
        3 black  A        11   0    512\n   4 white  B         2  10     40\n\
        \n[replay]\nPLACE 3 3\nPLACE 8 8\nPLACE 11 0\nPLACE 2 10\n";

    #[test]
    fn a_record_gives_its_moves_movers_and_result() {
        let r = Record::parse(RECORD).unwrap();
        let p = |row, col| Pos::new(row, col);
        assert_eq!(r.moves, [p(3, 3), p(8, 8), p(11, 0), p(2, 10)]);
        assert_eq!(r.opening_len(), 2);
        assert_eq!((r.moves_of("A"), r.moves_of("B")), (vec![2], vec![3]));
        assert_eq!(r.result, "0-1 B wins by five");
        assert_eq!(r.winner(), Some(Color::White));
        let black = Record::parse(&RECORD.replace("0-1 B", "1-0 A")).unwrap();
        assert_eq!(black.winner(), Some(Color::Black));
        let draw = Record::parse(&RECORD.replace("0-1 B wins by five", "1/2 draw")).unwrap();
        assert_eq!(draw.winner(), None);
    }

    #[test]
    fn a_bad_move_row_is_an_error() {
        assert!(Record::parse(&RECORD.replace("11   0", "12   0")).is_err(), "off the board");
        assert!(Record::parse(&RECORD.replace("11   0", "x   0")).is_err(), "not a number");
    }
}
