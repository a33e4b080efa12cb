//! Move generation: candidates near the stones, cut down to the forced replies when a side
//! threatens, and ordered by the threat value of each point. Also the safety-net chooser
//! that answers any position in microseconds.

use crate::board::{Board, Pos};
use crate::core::pattern::Combo;

/// What kind of position the generator saw.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Threat {
    /// Nobody threatens anything forcing.
    Quiet,
    /// The side to move can make five: the only move generated.
    Win,
    /// The opponent threatens five: only the blocks (or our five) are generated.
    BlockFour,
    /// The opponent can make an open four next: only our fours and the defences.
    BlockThree,
}

/// A candidate move with its ordering score.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ScoredMove {
    /// The point.
    pub pos: Pos,
    /// Higher is tried first.
    pub score: i32,
}

/// Ordering score of `p` for the side to move: the learned policy (`crate::eval::features`), the
/// value of the mover's own feature at `p` (attack) plus the opponent's (defence) plus their
/// top classes' cross term, in
/// `params::POLICY_SCALE` units per logit of the probability that a deeper search picks it.
#[inline]
pub fn move_score(board: &Board, p: Pos) -> i32 {
    let me = board.side_to_move();
    let t = board.learned().tables();
    let (own, opp) = (board.feature(p, me), board.feature(p, me.opp()));
    t.policy[own][0] + t.policy[opp][1] + t.cross(own, opp)
}

/// How many quiet moves a node should search: those whose policy score ([`move_score`], before
/// any killer or history bonus) is within `margin` of the best one's, but at least `min` and
/// at most `max` (and never more than there are). The policy's logits make the margin mean
/// the same everywhere: a move `margin` below the best is `exp(margin / POLICY_SCALE)` times
/// less likely to be the search's choice. For the search's pruning and reductions.
pub fn quiet_moves_within(moves: &[ScoredMove], margin: i32, min: usize, max: usize) -> usize {
    let best = match moves.iter().map(|m| m.score).max() {
        Some(best) => best,
        None => return 0,
    };
    let keep = moves.iter().filter(|m| m.score >= best - margin).count();
    keep.clamp(min, max).min(moves.len())
}

/// Fills `out` with the moves worth searching, with their static scores (unsorted: the
/// search picks them best first), and says why.
pub fn generate(board: &Board, out: &mut Vec<ScoredMove>) -> Threat {
    out.clear();
    let me = board.side_to_move();
    let opp = me.opp();
    if board.combo_count(me, Combo::Five) > 0 {
        if let Some(p) = board.five_points(me).next() {
            out.push(ScoredMove { pos: p, score: 1 << 28 });
            return Threat::Win;
        }
    }
    let threat = if board.combo_count(opp, Combo::Five) > 0 {
        out.extend(board.five_points(opp).map(|pos| ScoredMove { pos, score: 0 }));
        Threat::BlockFour
    } else if board.combo_count(opp, Combo::FlexFour) > 0 {
        // Every point that makes a four is a candidate (within two of a stone): the scan stops
        // when the counts say it has seen them all.
        let mut mine = board.combo_count_at_least(me, Combo::Four);
        let mut theirs = board.combo_count_at_least(opp, Combo::Four);
        for p in board.candidates() {
            let (a, b) = (board.combo(p, me) >= Combo::Four, board.combo(p, opp) >= Combo::Four);
            if a || b {
                out.push(ScoredMove { pos: p, score: move_score(board, p) });
                mine -= a as u16;
                theirs -= b as u16;
                if mine == 0 && theirs == 0 {
                    break;
                }
            }
        }
        Threat::BlockThree
    } else {
        out.extend(board.candidates().map(|p| ScoredMove { pos: p, score: move_score(board, p) }));
        Threat::Quiet
    };
    if out.is_empty() {
        // No stone on the board yet: the centre.
        let c = board.size() / 2;
        let p = Pos::new(c, c);
        if board.is_empty(p) {
            out.push(ScoredMove { pos: p, score: 0 });
        } else if let Some(p) = board.points().find(|&p| board.is_empty(p)) {
            out.push(ScoredMove { pos: p, score: 0 });
        }
    }
    threat
}

/// The safety-net chooser: a legal, tactically sound move in microseconds. Takes a five;
/// else blocks the opponent's five; else makes an open four; else blocks the opponent's
/// open three (or would-be open four) with the best-valued defence; else the best shape move
/// near the stones; on an empty board the centre. Returns `None` on a full board.
pub fn quick_move(board: &Board) -> Option<Pos> {
    let me = board.side_to_move();
    let opp = me.opp();
    let best_where = |keep: &dyn Fn(Pos) -> bool| {
        board
            .candidates()
            .filter(|&p| keep(p))
            .max_by(|&a, &b| move_score(board, a).cmp(&move_score(board, b)).then(b.cmp(&a)))
    };
    let tiers: [&dyn Fn(Pos) -> bool; 5] = [
        &|p| board.combo(p, me) == Combo::Five,
        &|p| board.combo(p, opp) == Combo::Five,
        &|p| board.combo(p, me) == Combo::FlexFour,
        &|p| board.combo(p, opp) == Combo::FlexFour,
        &|_| true,
    ];
    for keep in tiers.iter() {
        if let Some(p) = best_where(*keep) {
            return Some(p);
        }
    }
    let mut list = Vec::new();
    generate(board, &mut list);
    list.iter().max_by_key(|m| m.score).map(|m| m.pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Color};

    fn board(text: &str) -> Board {
        Board::from_ascii(text).unwrap()
    }

    const WIN_OR_BLOCK: &str = "
        . . . . . . . . . . . .
        . X X X X . . . . . . .
        . . . . . . . . . . . .
        . O O O O . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . X
        . . . . . . . . . . . .";

    #[test]
    fn takes_a_five_before_blocking() {
        let b = board(WIN_OR_BLOCK);
        assert_eq!(b.side_to_move(), Color::White);
        // White moves: white has 0..3 at row 3 too; it wins at 3,0 or 3,5.
        let p = quick_move(&b).unwrap();
        assert!(p == Pos::new(3, 0) || p == Pos::new(3, 5), "{p}");
    }

    #[test]
    fn blocks_a_four() {
        let b = board(
            "
            . . . . . . . . . . . .
            . X X X X O . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . O . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . O . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .",
        );
        assert_eq!(b.side_to_move(), Color::White);
        assert_eq!(quick_move(&b), Some(Pos::new(1, 0)));
        let mut list = Vec::new();
        assert_eq!(generate(&b, &mut list), Threat::BlockFour);
        assert_eq!(list.iter().map(|m| m.pos).collect::<Vec<_>>(), vec![Pos::new(1, 0)]);
    }

    #[test]
    fn defends_an_open_three() {
        let b = board(
            "
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . X X X . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . O . . .
            . . . . . . . . . . . .
            . . . . . . . . . . O .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .",
        );
        let p = quick_move(&b).unwrap();
        assert!(p == Pos::new(3, 2) || p == Pos::new(3, 6), "{p}");
        let mut list = Vec::new();
        assert_eq!(generate(&b, &mut list), Threat::BlockThree);
        let moves: Vec<Pos> = list.iter().map(|m| m.pos).collect();
        for must in [Pos::new(3, 1), Pos::new(3, 2), Pos::new(3, 6), Pos::new(3, 7)] {
            assert!(moves.contains(&must), "{must} missing from {moves:?}");
        }
    }

    #[test]
    fn quiet_moves_within_a_margin() {
        let moves: Vec<ScoredMove> = [500, 480, 300, 100, 460]
            .iter()
            .enumerate()
            .map(|(i, &score)| ScoredMove { pos: Pos(i as u8), score })
            .collect();
        assert_eq!(quiet_moves_within(&moves, 50, 1, 10), 3);
        assert_eq!(quiet_moves_within(&moves, 50, 4, 10), 4);
        assert_eq!(quiet_moves_within(&moves, 1000, 1, 2), 2);
        assert_eq!(quiet_moves_within(&moves, 1000, 1, 99), 5);
        assert_eq!(quiet_moves_within(&[], 50, 1, 10), 0);
    }

    #[test]
    fn the_policy_prefers_shape_to_empty_space() {
        // Black to move: making an open three from the open two beats a move in empty space
        // and one that caps the own two at a wall.
        let b = board(
            "
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . X X . . . . .
            . . . . . . . . . . . .
            . . . . . . O . . . . .
            . . . . . . . O . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .",
        );
        assert_eq!(b.side_to_move(), Color::Black);
        let three = move_score(&b, Pos::new(4, 7));
        assert!(three > move_score(&b, Pos::new(2, 2)), "{three}");
        assert!(three > move_score(&b, Pos::new(2, 9)), "{three}");
    }

    #[test]
    fn centre_on_an_empty_board() {
        let b = Board::new(12);
        assert_eq!(quick_move(&b), Some(Pos::new(6, 6)));
    }
}
