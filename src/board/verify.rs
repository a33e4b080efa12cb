//! The board's check against itself: every incremental part (line indices, patterns,
//! counts, learned sums, key) against a rebuild from the stones, and the cells against the
//! stone bitboards at every point. Used by debug assertions and tests.

use crate::board::state::{cell, Board, Color, NUM_POINTS};

impl Board {
    /// Checks that the incremental state equals a rebuild from the stones; returns what
    /// differs. Used by debug assertions and tests.
    pub fn verify(&self) -> Result<(), String> {
        let mut fresh = self.clone();
        fresh.rebuild_derived();
        if fresh.lines != self.lines {
            return Err("line indices differ".into());
        }
        for p in self.points().filter(|&p| self.is_empty(p)) {
            for s in 0..2 {
                if fresh.quads[s][p.idx()] != self.quads[s][p.idx()] {
                    return Err(format!("patterns at {p} differ for side {s}"));
                }
            }
        }
        if fresh.counts != self.counts {
            return Err(format!("combo counts differ: {:?} vs {:?}", self.counts, fresh.counts));
        }
        // The learned features are stale on top of lite moves, and only then.
        if self.lite == 0 {
            let empties = self.points().filter(|&p| self.is_empty(p)).map(|p| p.idx());
            self.learned.agrees(&fresh.learned, empties)?;
        }
        // The cells and the stone bitboards record the same stones, both ways.
        for i in 0..NUM_POINTS {
            let bits = [0, 1].map(|s| self.stones[s][i >> 6] >> (i & 63) & 1 == 1);
            let want = [self.cells[i] == cell(Color::Black), self.cells[i] == cell(Color::White)];
            if bits != want {
                return Err(format!("point {i}: cell {} but bitboards {bits:?}", self.cells[i]));
            }
        }
        if self.compute_key() != self.key {
            return Err("Zobrist key differs".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Pos, StartPos};

    fn set_bit(b: &mut Board, side: usize, p: Pos) {
        b.stones[side][p.idx() >> 6] |= 1 << (p.idx() & 63);
    }

    /// The judge's start with one more stone each: black 3,3 and white 8,8.
    fn board() -> Board {
        let mut b = Board::with_start(12, StartPos::Center4);
        b.make(Pos::new(3, 3));
        b.make(Pos::new(8, 8));
        b
    }

    #[test]
    fn a_good_board_verifies() {
        assert_eq!(board().verify(), Ok(()));
        assert_eq!(Board::new(5).verify(), Ok(()));
    }

    #[test]
    fn a_cell_without_its_bit_is_found() {
        let mut b = board();
        b.cells[Pos::new(0, 0).idx()] = cell(Color::Black);
        assert!(b.verify().is_err());
    }

    #[test]
    fn a_bit_without_its_cell_is_found() {
        for side in 0..2 {
            let mut b = board();
            set_bit(&mut b, side, Pos::new(0, 0));
            let err = b.verify().unwrap_err();
            assert!(err.contains("bitboards"), "{err}");
        }
    }

    #[test]
    fn a_bit_in_both_colours_is_found() {
        let mut b = board();
        set_bit(&mut b, 1, Pos::new(3, 3)); // black's stone, now also white's
        let err = b.verify().unwrap_err();
        assert!(err.contains("bitboards"), "{err}");
        let mut b = board();
        set_bit(&mut b, 0, Pos::new(8, 8)); // white's stone, now also black's
        assert!(b.verify().is_err());
    }
}
