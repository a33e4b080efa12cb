//! Boards drawn as text: parsing diagrams (tests, tools, the tactics suite) and drawing the
//! board for people.

use crate::board::{Board, Color, Pos, MAX_SIZE, MIN_SIZE};

impl Board {
    /// Parses a board drawn in ASCII: one row a line, `X` black, `O` white, `.` empty, blanks
    /// ignored. The side to move is black when the stone counts are equal, else white.
    pub fn from_ascii(text: &str) -> Result<Board, String> {
        let rows: Vec<Vec<u8>> = text
            .lines()
            .map(|l| l.bytes().filter(|b| !b.is_ascii_whitespace()).collect::<Vec<u8>>())
            .filter(|r| !r.is_empty())
            .collect();
        let size = rows.len();
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) || rows.iter().any(|r| r.len() != size) {
            return Err(format!("need a square board of 5..=15 rows, got {size} rows"));
        }
        let mut board = Board::new(size);
        let (mut blacks, mut whites) = (Vec::new(), Vec::new());
        for (r, row) in rows.iter().enumerate() {
            for (c, &ch) in row.iter().enumerate() {
                match ch {
                    b'X' | b'x' => blacks.push(Pos::new(r, c)),
                    b'O' | b'o' => whites.push(Pos::new(r, c)),
                    b'.' | b'+' => {}
                    other => return Err(format!("bad cell '{}'", other as char)),
                }
            }
        }
        for p in &blacks {
            board.put(*p, Color::Black);
        }
        for p in &whites {
            board.put(*p, Color::White);
        }
        board.forget_history();
        let side = if blacks.len() > whites.len() { Color::White } else { Color::Black };
        board.set_side_to_move(side);
        Ok(board)
    }

    /// Draws the board in ASCII with row and column numbers; `mark` is shown in brackets.
    pub fn to_ascii(&self, mark: Option<Pos>) -> String {
        let mut out = String::from("   ");
        for c in 0..self.size() {
            out.push_str(&format!("{c:>2} "));
        }
        out.push('\n');
        for r in 0..self.size() {
            out.push_str(&format!("{r:>2} "));
            for c in 0..self.size() {
                let p = Pos::new(r, c);
                let ch = match self.stone(p) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                };
                let (open, close) = if mark == Some(p) { ('[', ']') } else { (' ', ' ') };
                out.push(open);
                out.push(ch);
                out.push(close);
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::board::{Board, Color, Pos};

    #[test]
    fn ascii_round_trip() {
        let text = "\
            . . . . .\n\
            . X O . .\n\
            . . X . .\n\
            . . . . .\n\
            . . . . .\n";
        let b = Board::from_ascii(text).unwrap();
        assert_eq!(b.side_to_move(), Color::White);
        assert_eq!(b.stone(Pos::new(1, 2)), Some(Color::White));
        let drawn = b.to_ascii(Some(Pos::new(2, 2)));
        assert!(drawn.contains("[X]"), "{drawn}");
        b.verify().unwrap();
    }
}
