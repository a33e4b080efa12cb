//! The arena's own board and five-in-a-row check.
//!
//! Deliberately independent of the `wuzi` library: a referee that shared code with the engine
//! under test could not catch that engine's rule bugs.

use std::fmt;

/// Board side of the 12x12 judge.
pub const SIZE: usize = 12;

/// A stone colour; black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Color {
    /// The first player.
    Black,
    /// The second player.
    White,
}

impl Color {
    /// The other colour.
    pub fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The judge's number for this colour (`START 1` is black, `START 2` white).
    pub fn code(self) -> u8 {
        match self {
            Color::Black => 1,
            Color::White => 2,
        }
    }

    /// Lower-case name for output.
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// Index for per-colour arrays (black 0, white 1).
    pub fn index(self) -> usize {
        match self {
            Color::Black => 0,
            Color::White => 1,
        }
    }
}

/// A point on the board, judge convention: row first, then column, both 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// Row, 0 at the top.
    pub row: usize,
    /// Column, 0 at the left.
    pub col: usize,
}

impl Move {
    /// A move at `row`, `col`.
    pub fn new(row: usize, col: usize) -> Move {
        Move { row, col }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.row, self.col)
    }
}

/// The judge's fixed start position: a diagonal cross of four stones in the centre.
pub const JUDGE_START: [(Move, Color); 4] = [
    (Move { row: 5, col: 5 }, Color::White),
    (Move { row: 6, col: 6 }, Color::White),
    (Move { row: 5, col: 6 }, Color::Black),
    (Move { row: 6, col: 5 }, Color::Black),
];

/// Why a point cannot take a stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaceError {
    /// Row or column outside `0..SIZE`.
    OffBoard,
    /// A stone is already there.
    Occupied,
}

/// A 12x12 board that remembers the order stones were put on it.
#[derive(Clone, Debug)]
pub struct Board {
    cells: [[Option<Color>; SIZE]; SIZE],
    /// Every stone in the order it was placed (start stones first).
    pub history: Vec<(Move, Color)>,
}

impl Default for Board {
    fn default() -> Self {
        Board::new()
    }
}

impl Board {
    /// An empty board.
    pub fn new() -> Board {
        Board { cells: [[None; SIZE]; SIZE], history: Vec::new() }
    }

    /// What is at `mv` (which must be on the board).
    pub fn at(&self, mv: Move) -> Option<Color> {
        self.cells[mv.row][mv.col]
    }

    /// Checks that `row`, `col` is an empty point on the board.
    pub fn check(&self, row: i64, col: i64) -> Result<Move, PlaceError> {
        let on = |v: i64| (0..SIZE as i64).contains(&v);
        if !on(row) || !on(col) {
            return Err(PlaceError::OffBoard);
        }
        let mv = Move::new(row as usize, col as usize);
        match self.at(mv) {
            Some(_) => Err(PlaceError::Occupied),
            None => Ok(mv),
        }
    }

    /// Puts a stone; the caller has checked the point with [`Board::check`].
    pub fn place(&mut self, mv: Move, color: Color) {
        debug_assert!(self.at(mv).is_none());
        self.cells[mv.row][mv.col] = Some(color);
        self.history.push((mv, color));
    }

    /// The stones in an order whose colours alternate, black first, each colour's stones in
    /// the order they were placed (any surplus of one colour last). Gomocup engines such as
    /// Rapfi rebuild a `BOARD` position by playing its stones in turn, whatever their field
    /// says, but the judge's start stones are placed two of a colour at a time: sent in that
    /// order, two of the four would change colour in the engine's eyes.
    pub fn alternating(&self) -> Vec<(Move, Color)> {
        let of = |c: Color| self.history.iter().filter(move |s| s.1 == c).copied();
        let (mut black, mut white) = (of(Color::Black), of(Color::White));
        let mut out = Vec::with_capacity(self.history.len());
        loop {
            let (b, w) = (black.next(), white.next());
            if b.is_none() && w.is_none() {
                return out;
            }
            out.extend(b);
            out.extend(w);
        }
    }

    /// Whether the stone at `mv` is part of five or more in a row (freestyle rule).
    pub fn makes_five(&self, mv: Move) -> bool {
        let Some(color) = self.at(mv) else { return false };
        let dirs: [(i64, i64); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
        dirs.iter()
            .any(|&(dr, dc)| 1 + self.run(mv, dr, dc, color) + self.run(mv, -dr, -dc, color) >= 5)
    }

    /// Stones of `color` in a line from `mv` (exclusive) in direction `dr`, `dc`.
    fn run(&self, mv: Move, dr: i64, dc: i64, color: Color) -> usize {
        let (mut r, mut c) = (mv.row as i64 + dr, mv.col as i64 + dc);
        let mut n = 0;
        while (0..SIZE as i64).contains(&r)
            && (0..SIZE as i64).contains(&c)
            && self.cells[r as usize][c as usize] == Some(color)
        {
            n += 1;
            r += dr;
            c += dc;
        }
        n
    }

    /// Whether no empty point is left.
    pub fn is_full(&self) -> bool {
        self.history.len() == SIZE * SIZE
    }

    /// Number of stones on the board.
    pub fn stones(&self) -> usize {
        self.history.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_order_alternates_colours_from_the_judge_start() {
        let mut b = Board::new();
        for (mv, c) in JUDGE_START {
            b.place(mv, c);
        }
        b.place(Move::new(4, 7), Color::Black);
        b.place(Move::new(7, 4), Color::White);
        b.place(Move::new(3, 3), Color::Black);
        let order = b.alternating();
        let colours: Vec<Color> = order.iter().map(|s| s.1).collect();
        let want = [Color::Black, Color::White].repeat(3);
        assert_eq!(colours[..6], want[..]);
        assert_eq!(colours[6], Color::Black);
        let moves: Vec<Move> = order.iter().map(|s| s.0).collect();
        let want = [(5, 6), (5, 5), (6, 5), (6, 6), (4, 7), (7, 4), (3, 3)];
        assert_eq!(moves, want.map(|(r, c)| Move::new(r, c)));
    }

    #[test]
    fn five_in_every_direction_and_overlines() {
        for &(dr, dc) in &[(0i64, 1i64), (1, 0), (1, 1), (1, -1)] {
            let mut b = Board::new();
            let base = (3i64, 6i64);
            for k in 0..4 {
                let mv = b.check(base.0 + k * dr, base.1 + k * dc).unwrap();
                b.place(mv, Color::Black);
                assert!(!b.makes_five(mv));
            }
            let last = b.check(base.0 + 4 * dr, base.1 + 4 * dc).unwrap();
            b.place(last, Color::Black);
            assert!(b.makes_five(last));
            // Six in a row also wins in freestyle.
            let six = b.check(base.0 - dr, base.1 - dc).unwrap();
            b.place(six, Color::Black);
            assert!(b.makes_five(six));
        }
    }

    #[test]
    fn check_reports_off_board_and_occupied() {
        let mut b = Board::new();
        b.place(Move::new(5, 5), Color::White);
        assert_eq!(b.check(5, 5), Err(PlaceError::Occupied));
        assert_eq!(b.check(12, 0), Err(PlaceError::OffBoard));
        assert_eq!(b.check(0, -1), Err(PlaceError::OffBoard));
        assert_eq!(b.check(11, 11), Ok(Move::new(11, 11)));
    }

    #[test]
    fn mixed_colours_do_not_make_five() {
        let mut b = Board::new();
        for c in 0..5 {
            let color = if c == 2 { Color::White } else { Color::Black };
            b.place(Move::new(0, c), color);
        }
        assert!(!b.makes_five(Move::new(0, 4)));
    }
}
