//! Defence at the root against the opponent's wins by threats: the moves that refute the
//! opponent's win by fours (VCF), and a check of the move the search chose against the
//! opponent's win by threes and fours (VCT) deeper than the search can see.
//!
//! Games against strong engines are lost by one quiet move after which the opponent has a
//! forced win 11 to 45 plies long: far beyond the alpha-beta horizon, but within reach of the
//! threat solver, which looks at forcing moves only.

use crate::board::{Board, Pos};
use crate::core::params::{
    DEFENCE_MAX_MOVES, DEFENCE_RESCUE_MOVES, DEFENCE_VCT_DEPTH, DEFENCE_VCT_NODES, VCF_MAX_DEPTH,
};
use crate::search::threat::Solver;

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
///
/// When all of those lose, the position is in crisis and the search's order no longer
/// helps: the move that holds is usually one the search ranked low, on the opponent's
/// winning lines. So up to [`DEFENCE_RESCUE_MOVES`] more candidates are checked, the points
/// of the winning lines found (earliest in a line first: the opponent's first attacking
/// point leads), before playing a move already shown to lose.
pub fn check_vct(
    solver: &mut Solver,
    board: &mut Board,
    candidates: &[Pos],
    abort: &dyn Fn() -> bool,
) -> Checked {
    let mut out = Checked::default();
    let mut lines: Vec<Vec<Pos>> = Vec::new();
    for &p in candidates.iter().take(DEFENCE_MAX_MOVES) {
        match check_one(solver, board, p, &mut out, abort) {
            Verdict::Safe | Verdict::Aborted => return out,
            Verdict::Loses(line) => lines.push(line),
        }
    }
    let checked = candidates.len().min(DEFENCE_MAX_MOVES);
    for p in rescue_order(&lines, &candidates[checked..]).into_iter().take(DEFENCE_RESCUE_MOVES) {
        match check_one(solver, board, p, &mut out, abort) {
            Verdict::Safe | Verdict::Aborted => return out,
            Verdict::Loses(_) => {}
        }
    }
    out
}

/// What one check found.
enum Verdict {
    /// No win for the opponent: `out.safe` is set.
    Safe,
    /// The clock ended the check: nothing is claimed.
    Aborted,
    /// The opponent's winning line (its attacking moves and our replies).
    Loses(Vec<Pos>),
}

/// Checks our move `p`: plays it, looks for the opponent's VCT, and records the result.
fn check_one(
    solver: &mut Solver,
    board: &mut Board,
    p: Pos,
    out: &mut Checked,
    abort: &dyn Fn() -> bool,
) -> Verdict {
    board.make(p);
    let win = solver.solve(board, DEFENCE_VCT_DEPTH, DEFENCE_VCT_NODES, true, abort);
    out.nodes += solver.nodes();
    board.unmake();
    if solver.aborted() {
        return Verdict::Aborted;
    }
    match win {
        None => {
            out.safe = Some(p);
            Verdict::Safe
        }
        Some(line) => {
            out.losing.push(p);
            Verdict::Loses(line)
        }
    }
}

/// The `rest` of the candidates that lie on the opponent's winning `lines`, the earliest in a
/// line first (ties in the search's order).
fn rescue_order(lines: &[Vec<Pos>], rest: &[Pos]) -> Vec<Pos> {
    let first_seen = |p: Pos| lines.iter().filter_map(|l| l.iter().position(|&q| q == p)).min();
    let mut on_lines: Vec<(usize, usize, Pos)> =
        rest.iter().enumerate().filter_map(|(i, &p)| first_seen(p).map(|at| (at, i, p))).collect();
    on_lines.sort_unstable();
    on_lines.into_iter().map(|(_, _, p)| p).collect()
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
    fn when_the_best_moves_lose_the_points_of_the_winning_lines_are_tried() {
        let mut b = Board::from_ascii(THREAT).unwrap();
        b.set_side_to_move(Color::White);
        let mut solver = Solver::new();
        // Ten quiet moves far from the three, then the two blocks: the search's order in a
        // position it misjudges.
        let far: Vec<Pos> = (0..10).map(|c| Pos::new(11, c)).collect();
        let blocks = [Pos::new(4, 2), Pos::new(4, 6)];
        let candidates: Vec<Pos> = far.iter().chain(blocks.iter()).copied().collect();
        let checked = check_vct(&mut solver, &mut b, &candidates, &|| false);
        // The first four lose; the rescue goes straight to the blocks (they are on the
        // winning lines), not to the fifth far move.
        assert_eq!(checked.losing, far[..DEFENCE_MAX_MOVES].to_vec());
        assert!(checked.safe.map_or(false, |p| blocks.contains(&p)), "{:?}", checked.safe);
        assert!(b.verify().is_ok());
    }

    #[test]
    fn the_rescue_orders_the_line_points_by_their_place_in_a_line() {
        let p = |r, c| Pos::new(r, c);
        let lines = vec![vec![p(1, 1), p(2, 2), p(3, 3)], vec![p(4, 4), p(3, 3)]];
        // Not on any line: 9,9. 3,3 comes second in the second line.
        let rest = [p(9, 9), p(3, 3), p(2, 2), p(4, 4), p(1, 1)];
        assert_eq!(rescue_order(&lines, &rest), vec![p(4, 4), p(1, 1), p(3, 3), p(2, 2)]);
        assert!(rescue_order(&[], &rest).is_empty());
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
