//! Sides and how a game starts.

use crate::core::bits::Pos;

/// A side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// Moves first.
    Black = 0,
    /// Moves second.
    White = 1,
}

impl Color {
    /// The other side.
    pub fn opp(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
    /// 0 for black, 1 for white.
    pub fn idx(self) -> usize {
        self as usize
    }
}

/// How a game starts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StartPos {
    /// The judge's four stones: white at (5,5) and (6,6), black at (5,6) and (6,5), centred on
    /// other sizes; black to move.
    Center4,
    /// An empty board, black to move.
    Empty,
}

impl StartPos {
    /// The stones of this start on a board of `size`, in the order they are placed.
    pub fn stones(self, size: usize) -> Vec<(Pos, Color)> {
        match self {
            StartPos::Empty => Vec::new(),
            StartPos::Center4 => {
                let a = size / 2 - 1;
                let b = a + 1;
                vec![
                    (Pos::new(a, b), Color::Black),
                    (Pos::new(a, a), Color::White),
                    (Pos::new(b, a), Color::Black),
                    (Pos::new(b, b), Color::White),
                ]
            }
        }
    }
}
