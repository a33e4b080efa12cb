//! Fives on the board: the points where a side makes five, found from the board's counts and
//! the lines of the last moves, and whether a stone stands in five or more.

use crate::board::{Board, Color, Pos};
use crate::core::bits::NO_POINT;
use crate::core::pattern::Combo;

impl Board {
    /// Empty points where `color` makes five.
    pub fn five_points(&self, color: Color) -> impl Iterator<Item = Pos> + '_ {
        // The counts say at once when there is none, the common case: no scan then. When
        // there is one, one of the last two moves nearly always made it: their lines are
        // looked at first (the scan of every candidate was 4% of the search's time).
        let count = self.combo_count(color, Combo::Five);
        let near = if count == 1 { self.five_point_near_last_moves(color) } else { None };
        let scan = count > 0 && near.is_none();
        near.into_iter().chain(
            scan.then(|| self.candidates().filter(move |&p| self.makes_five(p, color)))
                .into_iter()
                .flatten(),
        )
    }

    /// An empty point on the lines of one of the last two moves (within four) where `color`
    /// makes five, if any.
    fn five_point_near_last_moves(&self, color: Color) -> Option<Pos> {
        let recent = self.history().iter().rev().take(2);
        recent.flat_map(|u| self.line_neighbours(u.pos).iter().flatten()).find_map(|&q| {
            let p = Pos(q);
            (q != NO_POINT && self.is_empty(p) && self.makes_five(p, color)).then_some(p)
        })
    }

    /// Whether the stone at `p` is part of five or more in a row: its runs on each line, up
    /// to the four neighbours a side that the board keeps (enough to see five).
    pub fn five_at(&self, p: Pos) -> bool {
        let color = match self.stone(p) {
            Some(color) => color,
            None => return false,
        };
        let own = |q: &&u8| **q != NO_POINT && self.stone(Pos(**q)) == Some(color);
        self.line_neighbours(p).iter().any(|line| {
            let back = line[..4].iter().rev().take_while(own).count();
            back + line[4..].iter().take_while(own).count() >= 4
        })
    }

    /// Whether the last move made five.
    pub fn last_move_won(&self) -> bool {
        self.last_move().map_or(false, |p| self.five_at(p))
    }
}
