//! The threat quiescence at the search's horizon: a static score is trusted only where the
//! side to move has no four worth trying. Below the horizon the side to move may stand pat
//! on its static score or play a four (the opponent's block is forced);
//! a block that makes a four forces the other side in turn. So a win by fours that starts at
//! the horizon is seen, and a score that only holds until the next four is not trusted.
//!
//! At the horizon every four is tried (and a four-three anywhere gets a small VCF solve, which
//! also sees wins whose fours lie far apart); below it only the fours near the side's own last
//! stone, as in Rapfi's quiescence: a chain of fours grows from where the attack is.

use crate::board::{Board, Pos};
use crate::core::params::{QS_FOURS, QS_VCF_DEPTH, QS_VCF_NODES, WIN};
use crate::core::pattern::Combo;
use crate::search::eval::evaluate;
use crate::search::movegen::ScoredMove;
use crate::search::searcher::{threat_verdict, Control, Searcher, MAX_PLY};

/// Whether `a` is within two points of `b` in a square, or four along one of its lines: the
/// points where a stone at `b` can help make a four.
#[inline]
fn near(a: Pos, b: Pos) -> bool {
    let dr = a.row().abs_diff(b.row());
    let dc = a.col().abs_diff(b.col());
    let far = dr.max(dc);
    far <= 2 || (far <= 4 && (dr == 0 || dc == 0 || dr == dc))
}

impl Searcher {
    /// The quiescence search of a node at or below the horizon (`fours` is how many fours the
    /// two sides may still play). Fail-soft, from the side to move's point of view; win scores
    /// as in the main search (`WIN - ply - n`).
    pub(crate) fn quiesce(
        &mut self,
        board: &mut Board,
        ctl: &Control,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        fours: i32,
    ) -> i32 {
        self.nodes += 1;
        self.poll(ctl);
        if self.stopped {
            return 0;
        }
        let me = board.side_to_move();
        let opp = me.opp();
        let ply_i = ply as i32;
        if let Some(score) = threat_verdict(board, ply_i) {
            return score;
        }
        if ply >= MAX_PLY - 2 || board.is_full() {
            return evaluate(board);
        }
        if board.combo_count(opp, Combo::Five) == 1 {
            // The block is forced: it costs no four of the budget, and stands no pat.
            let block = board.five_points(opp).next().expect("counted five point");
            board.make(block);
            let score = -self.quiesce(board, ctl, ply + 1, -beta, -alpha, fours);
            board.unmake();
            return score;
        }
        // At the horizon, a four-three anywhere: a small VCF solve, which also sees wins whose
        // fours are far apart.
        if fours == QS_FOURS && board.combo_count_at_least(me, Combo::FourThree) > 0 {
            let won = self.solver.solve(board, QS_VCF_DEPTH, QS_VCF_NODES, false, &|| false);
            self.nodes += self.solver.nodes();
            if let Some(line) = won {
                return WIN - ply_i - line.len() as i32;
            }
        }
        let stand = evaluate(board);
        if stand >= beta || fours <= 0 || board.combo_count_at_least(me, Combo::Four) == 0 {
            return stand;
        }
        // At the horizon every four is tried; below it only the fours around the side's last
        // stone (a chain of fours grows from where the attack is).
        let last = if fours < QS_FOURS {
            board.history().iter().rev().find(|u| u.color == me).map(|u| u.pos)
        } else {
            None
        };
        // The ply's move list is free: the node at this ply generates no moves of its own.
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        moves.clear();
        // The counts say how many fours there are: the scan stops when it has seen them all.
        let mut left = board.combo_count_at_least(me, Combo::Four);
        for pos in board.candidates() {
            let c = board.combo(pos, me);
            if c < Combo::Four {
                continue;
            }
            if last.map_or(true, |l| near(pos, l)) {
                moves.push(ScoredMove {
                    pos,
                    score: (c as i32) * 10_000 + board.point_value(pos, me),
                });
            }
            left -= 1;
            if left == 0 {
                break;
            }
        }
        moves.sort_unstable_by(|a, b| b.score.cmp(&a.score).then(b.pos.cmp(&a.pos)));
        let mut best = stand;
        alpha = alpha.max(stand);
        for &ScoredMove { pos: p, .. } in moves.iter() {
            board.make(p);
            let score = -self.quiesce(board, ctl, ply + 1, -beta, -alpha, fours - 1);
            board.unmake();
            if self.stopped {
                best = 0;
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.move_lists[ply] = moves;
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::params::WIN_BOUND;
    use crate::search::searcher::with_test_searcher;

    fn quiesce_at(b: &mut Board, ply: usize) -> i32 {
        with_test_searcher(|s, ctl| s.quiesce(b, ctl, ply, -WIN, WIN, QS_FOURS))
    }

    fn quiesce_score(text: &str) -> i32 {
        quiesce_at(&mut Board::from_ascii(text).unwrap(), 1)
    }

    #[test]
    fn near_is_a_square_of_two_and_lines_of_four() {
        let c = Pos::new(6, 6);
        assert!(near(Pos::new(4, 8), c));
        assert!(near(Pos::new(6, 2), c));
        assert!(near(Pos::new(10, 10), c));
        assert!(!near(Pos::new(3, 5), c));
        assert!(!near(Pos::new(6, 1), c));
    }

    #[test]
    fn a_four_three_at_the_horizon_wins_against_an_opponent_with_a_four() {
        // Black to move: 5,5 makes a four on row 5 and an open three on column 5. White has a
        // four to make (row 9), so the main search's double-threat rule does not apply; the
        // quiescence plays the four, white blocks at 5,6, and the open three wins.
        let text = "
            O . . . . . . . . . . O
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . X . . . . . .
            . . . . . X . . . . . .
            . O X X X . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . X O O O . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .";
        let b = Board::from_ascii(text).unwrap();
        assert_eq!(b.side_to_move(), crate::board::Color::Black);
        assert!(b.combo_count_at_least(crate::board::Color::White, Combo::Four) > 0);
        assert!(quiesce_score(text) > WIN_BOUND);
        // Without the four to play (the row's three blocked), the static score.
        let blocked = text.replacen("O X X X .", "O X X X O", 1);
        let b = Board::from_ascii(&blocked.replacen(
            "X . . . . . . . . . . O",
            "X . . . . . . . . . X O",
            1,
        ))
        .unwrap();
        let s = quiesce_score(&blocked.replacen(
            "X . . . . . . . . . . O",
            "X . . . . . . . . . X O",
            1,
        ));
        assert_eq!(s, evaluate(&b));
        assert!(s.abs() < WIN_BOUND);
    }

    #[test]
    fn a_plain_four_that_leads_to_a_double_threat_wins() {
        // Black to move has no double threat to make, so the static score would stand; but
        // the four at 5,5 (white must block at 5,6) makes 4,5 a four (column 5) and an open
        // three (row 4) at once, which white, with no four of its own, cannot meet.
        let text = "
            O . . . . . . . . . . O
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . O . . .
            . . . . . . X X . . . .
            . O X X X . . . . . . .
            . . . . . X . . . . . .
            . . . . . X . . . . . .
            . . . . . O . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            O . . . . . . . . . . O";
        let b = Board::from_ascii(text).unwrap();
        let black = crate::board::Color::Black;
        assert_eq!(b.side_to_move(), black);
        assert_eq!(
            b.combo_count_at_least(black, Combo::ThreeThree),
            b.combo_count(black, Combo::Four)
        );
        assert_eq!(b.combo(Pos::new(5, 5), black), Combo::Four);
        assert_eq!(quiesce_score(text), WIN - 8);
    }

    #[test]
    fn a_four_of_the_opponent_is_blocked_first() {
        // White to move faces black's four on row 5: the block at 5,6 is the only move, and
        // the score is the one after it.
        let text = "
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . O X X X X . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . O O . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .";
        let mut b = Board::from_ascii(text).unwrap();
        assert_eq!(b.side_to_move(), crate::board::Color::White);
        let s = quiesce_at(&mut b, 1);
        assert!(s.abs() < WIN_BOUND, "score {s}");
        b.make(Pos::new(5, 6));
        assert_eq!(s, -quiesce_at(&mut b, 2));
        assert_ne!(s, {
            b.unmake();
            evaluate(&b)
        });
    }
}
