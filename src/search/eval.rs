//! Static evaluation: the learned per-point feature values of both sides (see
//! `crate::eval::features`; the weights are trained by `src/bin/tune/`), from the side to move's
//! point of view.

use crate::board::Board;

/// The static score of `board` for the side to move. Positive is good for the side to move;
/// `crate::core::params::EVAL_SCALE` units are one logit of the predicted game result. The sums
/// are kept by the board, so this is O(1).
#[inline]
pub fn evaluate(board: &Board) -> i32 {
    let me = board.side_to_move().idx();
    let l = board.learned();
    l.sum(me, 0) + l.sum(1 - me, 1) + crate::eval::weights::TEMPO
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Color, Pos, StartPos};

    #[test]
    fn an_open_three_is_good_for_its_owner() {
        let mut b = Board::with_start(12, StartPos::Empty);
        b.put(Pos::new(5, 4), Color::Black);
        b.put(Pos::new(0, 0), Color::White);
        b.put(Pos::new(5, 5), Color::Black);
        b.put(Pos::new(0, 11), Color::White);
        b.put(Pos::new(5, 6), Color::Black);
        // White to move, facing an open three.
        assert!(evaluate(&b) < 0, "eval {}", evaluate(&b));
        b.set_side_to_move(Color::Black);
        assert!(evaluate(&b) > 0);
    }
}
