//! Defence at the root against the opponent's wins by threats: the moves that refute the
//! opponent's win by fours (VCF), and a check of the move the search chose against the
//! opponent's win by threes and fours (VCT) deeper than the search can see.
//!
//! Games against strong engines are lost by one quiet move after which the opponent has a
//! forced win 11 to 45 plies long: far beyond the alpha-beta horizon, but within reach of the
//! threat solver, which looks at forcing moves only.

use crate::board::{Board, Pos};
use crate::params::{DEFENCE_MAX_MOVES, DEFENCE_VCT_DEPTH, DEFENCE_VCT_NODES, VCF_MAX_DEPTH};
use crate::threat::Solver;

/// What a defence check costs and found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// The move to play: the first of the candidates after which the opponent has no win
    /// by threats, or `None` when every candidate checked loses (or the clock ran out).
    pub safe: Option<Pos>,
    /// Candidates found losing, in the order checked.
    pub losing: Vec<Pos>,
    /// Solver nodes spent.
    pub nodes: u64,
}

/// The root moves (of `moves`) after which the opponent has no VCF within `nodes` nodes
/// each; empty when the clock ran out (`abort`) before the check was complete.
pub fn refute_vcf(
    solver: &mut Solver,
    board: &mut Board,
    moves: &[Pos],
    nodes: u64,
    spent: &mut u64,
    abort: &dyn Fn() -> bool,
) -> Vec<Pos> {
    let mut refutes = Vec::new();
    for &p in moves {
        board.make(p);
        let still = solver.solve(board, VCF_MAX_DEPTH, nodes, false, abort);
        *spent += solver.nodes();
        board.unmake();
        if solver.aborted() {
            return Vec::new();
        }
        if still.is_none() {
            refutes.push(p);
        }
    }
    refutes
}

/// Checks `candidates` in order (the search's best first): the first after which the
/// opponent has no VCT of up to [`DEFENCE_VCT_DEPTH`] attacking moves within
/// [`DEFENCE_VCT_NODES`] nodes is safe. At most [`DEFENCE_MAX_MOVES`] are tried; the clock
/// (`abort`) may end the check early, leaving `safe` empty.
pub fn check_vct(
    solver: &mut Solver,
    board: &mut Board,
    candidates: &[Pos],
    abort: &dyn Fn() -> bool,
) -> Checked {
    let mut out = Checked::default();
    for &p in candidates.iter().take(DEFENCE_MAX_MOVES) {
        board.make(p);
        let win = solver.solve(board, DEFENCE_VCT_DEPTH, DEFENCE_VCT_NODES, true, abort);
        out.nodes += solver.nodes();
        board.unmake();
        if solver.aborted() {
            break;
        }
        if win.is_none() {
            out.safe = Some(p);
            break;
        }
        out.losing.push(p);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;

    /// White to move against black's open three on row 4: a quiet move elsewhere loses to
    /// the open four, a block at either end holds.
    const THREAT: &str = "
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . X X X . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . O . .
        . . . . . . . . . . . .
        . . . . . . . . . . O .
        . . . . . . . . . . . .
        . . . . . . . . . . . .";

    #[test]
    fn a_move_that_ignores_a_threat_sequence_is_rejected() {
        let mut b = Board::from_ascii(THREAT).unwrap();
        b.set_side_to_move(Color::White);
        let mut solver = Solver::new();
        let far = Pos::new(11, 0);
        let block = Pos::new(4, 6);
        let checked = check_vct(&mut solver, &mut b, &[far, block], &|| false);
        assert_eq!(checked.losing, vec![far]);
        assert_eq!(checked.safe, Some(block));
        assert!(checked.nodes > 0);
        // The check leaves the board as it was.
        assert_eq!(b.stone_count(), 5);
        assert!(b.verify().is_ok());
    }

    #[test]
    fn an_aborted_check_claims_nothing() {
        let mut b = Board::from_ascii(THREAT).unwrap();
        b.set_side_to_move(Color::White);
        let mut solver = Solver::new();
        let checked = check_vct(&mut solver, &mut b, &[Pos::new(11, 0)], &|| true);
        // The solver polls its abort every 256 nodes: a tiny search may finish first, but
        // it never calls a losing move safe.
        assert_ne!(checked.safe, Some(Pos::new(11, 0)));
    }
}
