//! The alpha-beta search below the root: negamax with principal-variation search, the
//! transposition table, killer and history ordering, late-move reductions and pruning, and a
//! threat quiescence at the horizon. The root (threat solving, iterative deepening) is in
//! `crate::search::root`.

use crate::board::Board;
use crate::core::params::*;
use crate::core::pattern::Combo;
use crate::search::eval::evaluate;
use crate::search::movegen::{generate, move_score, Threat};
use crate::search::searcher::{threat_verdict, Control, Searcher, MAX_PLY, NO_EVAL};
use crate::search::stats::{depth_row, rank_bucket, Entry};
use crate::search::tt::Bound;
use std::sync::atomic::Ordering;

/// Ordering score of the hash move: above every other (scores stay far from overflow).
const TT_MOVE_SCORE: i32 = 1 << 28;

impl Searcher {
    /// Looks at the clock, the stop flag and the node budget every 1024 nodes. A threshold,
    /// not `nodes % 1024 == 0`: the leaf VCF adds its nodes in steps that could jump over
    /// every multiple for a long time.
    #[inline]
    pub(crate) fn poll(&mut self, ctl: &Control) {
        if self.nodes >= self.next_poll {
            self.next_poll = self.nodes + 1024;
            if ctl.stop.load(Ordering::Relaxed)
                || ctl.tm.search_exceeded()
                || self.nodes >= ctl.max_nodes
            {
                self.stopped = true;
            }
        }
    }

    /// The alpha-beta search below the root.
    pub(crate) fn search(
        &mut self,
        board: &mut Board,
        ctl: &Control,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        // Step 1. Count the node and poll the limits.
        self.nodes += 1;
        self.stats.entered[self.entered_by[ply] as usize] += 1;
        self.poll(ctl);
        self.pv[ply].clear();
        if self.stopped {
            return 0;
        }
        let me = board.side_to_move();
        let opp = me.opp();
        let ply_i = ply as i32;
        // Step 2. Positions decided by threats on the board.
        if let Some(score) = threat_verdict(board, ply_i) {
            return score;
        }
        let opp_fives = board.combo_count(opp, Combo::Five);
        if ply >= MAX_PLY - 1 || board.is_full() {
            return 0;
        }
        // Step 3. Mate-distance pruning.
        let alpha0 = alpha;
        let beta = beta.min(WIN - ply_i - 1);
        if alpha >= beta {
            return alpha;
        }
        // Step 4. At the horizon, the threat quiescence (`crate::search::quiesce`): the static
        // score, unless the side's fours do better. An opponent's four is always answered (below: the
        // block is a single reply, which is extended).
        if depth <= 0 && opp_fives == 0 {
            return self.quiesce(board, ctl, ply, alpha, beta, QS_FOURS);
        }
        // Step 5. The transposition table.
        let key = board.key();
        let excluded = self.excluded[ply];
        let mut tt_move = None;
        let mut singular_candidate = None;
        // On a principal variation now, or flagged so in its hash entry (the flag is kept from
        // one store to the next): its late moves are reduced a ply less (Stockfish's ttPv), so
        // that the lines the root's choice hangs on are searched more exactly.
        let pv_node = !null_window(alpha, beta);
        let mut tt_pv = pv_node;
        if let Some(e) = self.tt.probe(key) {
            tt_move = e.best;
            tt_pv |= e.pv;
            let score = from_tt(e.score, ply_i);
            if e.bound != Bound::Upper
                && e.depth >= depth - SE_DEPTH_MARGIN
                && score.abs() < WIN_BOUND
                && excluded.is_none()
            {
                singular_candidate = e.best.map(|m| (m, score));
            }
            // A search without the hash move is not the node the entry describes.
            if !pv_node && e.depth >= depth && excluded.is_none() {
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    return score;
                }
            }
        }
        // Step 5a. Internal iterative reduction: a deep node the table knows nothing about
        // would be searched with poor ordering; a ply less is cheaper and fills the table for
        // the next iteration.
        let depth = if tt_move.is_none() && depth >= IIR_MIN_DEPTH { depth - 1 } else { depth };
        // The static score, and whether it is better than two plies ago (the same side to
        // move): a side whose position improves is less likely to fail low, so its nodes are
        // pruned on a smaller margin and keep more late moves.
        let static_eval = if opp_fives == 0 { evaluate(board) } else { NO_EVAL };
        self.evals[ply] = static_eval;
        // (`NO_EVAL` is the smallest i32: a node without a score is never improving.)
        let improving =
            ply >= 2 && self.evals[ply - 2] != NO_EVAL && static_eval > self.evals[ply - 2];
        // Step 5b. Reverse futility pruning: near the horizon, at a node off the main line
        // where the opponent threatens nothing forcing (no four, open three or four-three), a
        // static score that beats beta by a margin per ply left is trusted: the side to move
        // could only gain by moving.
        if null_window(alpha, beta)
            && excluded.is_none()
            && depth <= RFP_MAX_DEPTH
            && beta.abs() < WIN_BOUND
            && board.combo_count_at_least(opp, Combo::FourThree) == 0 // fives too: static_eval is set
            && static_eval - RFP_MARGIN * (depth - i32::from(improving)) >= beta
        {
            return static_eval;
        }
        // Step 5c. Razoring: near the horizon, at a node off the main line whose static score
        // is far below alpha, where the opponent has no open three and the side to move no
        // four or double threat to make, the quiescence decides: a quiet move would rarely
        // make up the gap (Rapfi's razoring).
        if null_window(alpha, beta)
            && excluded.is_none()
            && depth <= RAZOR_MAX_DEPTH
            && alpha.abs() < WIN_BOUND
            && static_eval != NO_EVAL
            && static_eval + RAZOR_MARGIN * depth < alpha
            && board.combo_count_at_least(opp, Combo::FlexFour) == 0
            && board.combo_count_at_least(me, Combo::ThreeThree) == 0
        {
            return self.quiesce(board, ctl, ply, alpha, beta, QS_FOURS);
        }
        // Step 5d. Singular extension (deeper than reverse futility pruning works, so the
        // cheap cut comes first): when the hash move is far better than every other (a search
        // without it, at half the depth, fails low under the hash score less a margin), the
        // node hangs on it and it is searched a ply deeper. When even the others beat beta,
        // the node is cut off at once.
        let mut singular_ext = 0;
        if depth >= SE_MIN_DEPTH {
            if let Some((m, tt_score)) = singular_candidate {
                let s_beta = tt_score - SE_MARGIN * depth;
                self.excluded[ply] = Some(m);
                let s = self.search(board, ctl, (depth - 1) / 2, ply, s_beta - 1, s_beta);
                self.excluded[ply] = None;
                if self.stopped {
                    return 0;
                }
                if s < s_beta {
                    singular_ext = 1;
                } else if s_beta >= beta {
                    return s_beta;
                }
            }
        }
        // Step 6. Generate and order the moves.
        let mut moves = std::mem::take(&mut self.move_lists[ply]);
        let threat = generate(board, &mut moves);
        if let Some(sampler) = self.sampler.as_mut() {
            sampler.visit(board, depth);
        }
        if moves.is_empty() {
            self.move_lists[ply] = moves;
            return 0;
        }
        let killers = self.killers[ply];
        // The policy's best score at the node (before any bonus): late moves far below it are
        // reduced more, those close to it less.
        let best_policy = moves.iter().map(|m| m.score).max().unwrap_or(0);
        for m in moves.iter_mut() {
            if Some(m.pos) == tt_move {
                m.score = TT_MOVE_SCORE;
            } else if Some(m.pos) == killers[0] || Some(m.pos) == killers[1] {
                m.score += KILLER_BONUS;
            }
            m.score += self.history[me.idx()][m.pos.idx()] / HISTORY_DIVISOR;
        }
        // A node off the main line whose static score is far above beta will likely fail
        // high: its moves that make no four are searched a ply shallower (Rapfi's fail-high
        // reduction).
        let likely_fail_high = null_window(alpha, beta)
            && static_eval != NO_EVAL
            && static_eval >= beta + FHR_MARGIN * depth;
        // Quiet nodes search only their best few moves.
        let limit =
            if threat == Threat::Quiet { moves.len().min(MAX_QUIET_MOVES) } else { moves.len() };
        // A single forced reply does not use up depth; nor do the answers to an open three,
        // a few times on a path (the threat sequences that decide games are long).
        let single = i32::from(moves.len() == 1);
        let three = i32::from(
            single == 0 && threat == Threat::BlockThree && self.three_exts[ply] < THREE_EXT_MAX,
        );
        let child_three_exts = self.three_exts[ply] + three as u8;
        let extension = single.max(three);
        // Step 7. Principal-variation search over the moves, picked best first (a cut-off
        // usually comes early, so a full sort would be wasted).
        let mut best = -WIN;
        let mut best_move = None;
        for i in 0..limit {
            // The first of the best-scored (its score kept in a register: the scan was a
            // tenth of the search's own time).
            let (mut pick, mut top) = (i, moves[i].score);
            for (j, m) in moves.iter().enumerate().skip(i + 1) {
                if m.score > top {
                    (pick, top) = (j, m.score);
                }
            }
            moves.swap(i, pick);
            let p = moves[i].pos;
            if Some(p) == excluded {
                continue;
            }
            // A lone open three forces only a block, often one that builds for the opponent:
            // late in the order it is reduced and pruned like a quiet move. Double threats
            // and fours are not.
            // What the move makes, read once: the reductions and the instruments want it.
            let combo = board.combo(p, me);
            let quiet = threat == Threat::Quiet && combo < Combo::ThreeThree;
            // Near the leaves, late quiet moves of a node that is not on the main line are
            // hopeless: they make no double threat and come late in the ordering.
            if quiet
                && null_window(alpha, beta)
                && depth <= LMP_MAX_DEPTH
                && i >= lmp_count(depth, improving)
            {
                continue;
            }
            // Only a move that may be reduced needs its policy score again (the ordering score
            // has the bonuses in it), and it must be read before the move is made.
            let reducible = quiet && depth >= LMR_MIN_DEPTH && i >= LMR_MIN_MOVES;
            let gap = if reducible { best_policy - move_score(board, p) } else { 0 };
            let fail_high_cut = i32::from(likely_fail_high && combo < Combo::Four);
            let new_depth = depth - 1 - fail_high_cut
                + if Some(p) == tt_move { extension.max(singular_ext) } else { extension };
            // The child probes the table first (unless it is a leaf): its slot is fetched
            // while the move is made.
            if new_depth > 0 {
                self.tt.prefetch(board.key_after(p));
            }
            board.make(p);
            self.three_exts[ply + 1] = child_three_exts;
            let reduction = if i > 0 && reducible {
                (lmr(depth, i) + lmr_policy_adjust(gap) - i32::from(tt_pv))
                    .min(new_depth - 1)
                    .max(0)
            } else {
                0
            };
            self.entered_by[ply + 1] = entry_kind(threat, combo, reduction);
            let mut score;
            if i == 0 {
                score = -self.search(board, ctl, new_depth, ply + 1, -beta, -alpha);
            } else {
                score =
                    -self.search(board, ctl, new_depth - reduction, ply + 1, -alpha - 1, -alpha);
                if reduction > 0 {
                    let row = depth_row(depth);
                    self.stats.reductions[row][0] += 1;
                    if score > alpha && !self.stopped {
                        let before = self.nodes;
                        score = -self.search(board, ctl, new_depth, ply + 1, -alpha - 1, -alpha);
                        self.stats.reductions[row][1] += 1;
                        self.stats.reductions[row][2] += u64::from(score > alpha);
                        self.stats.research_nodes[row] += self.nodes - before;
                    }
                }
                if score > alpha && score < beta && !self.stopped {
                    score = -self.search(board, ctl, new_depth, ply + 1, -beta, -alpha);
                }
            }
            board.unmake();
            if self.stopped {
                self.move_lists[ply] = moves;
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(p);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(p);
                    head[ply].extend_from_slice(&tail[0]);
                }
                if alpha >= beta {
                    // Step 8. A cut-off: remember the move for ordering.
                    self.stats.cut_rank[depth_row(depth)][rank_bucket(i)] += 1;
                    if quiet {
                        let k = &mut self.killers[ply];
                        if k[0] != Some(p) {
                            k[1] = k[0];
                            k[0] = Some(p);
                        }
                    }
                    let h = &mut self.history[me.idx()][p.idx()];
                    *h = (*h + depth * depth).min(HISTORY_MAX);
                    break;
                }
            }
        }
        self.move_lists[ply] = moves;
        if excluded.is_some() {
            // Only the move left out could beat this: nothing to store.
            return best;
        }
        // Step 9. Store the result.
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, to_tt(best, ply_i), depth.max(0), best_move, bound, tt_pv);
        best
    }
}

/// The kind of move (`crate::search::stats::Entry`) for the instruments: what the node
/// answers first, then what the move makes, then whether it was reduced.
#[inline]
fn entry_kind(threat: Threat, combo: Combo, reduction: i32) -> Entry {
    match threat {
        Threat::BlockFour => Entry::AnswerToFour,
        Threat::BlockThree => Entry::AnswerToThree,
        _ if combo >= Combo::Four => Entry::Four,
        _ if combo >= Combo::ThreeThree => Entry::DoubleThreat,
        _ if reduction > 0 => Entry::ReducedQuiet,
        _ => Entry::Quiet,
    }
}

/// Whether a node's window is null (not a principal-variation node).
#[inline]
fn null_window(alpha: i32, beta: i32) -> bool {
    beta - alpha == 1
}

/// Quiet moves searched at a non-PV node `depth` plies from the horizon before the rest are
/// pruned: fewer when the side to move's static score is not improving.
#[inline]
fn lmp_count(depth: i32, improving: bool) -> usize {
    let n = LMP_BASE + LMP_PER_DEPTH * depth.max(0) as usize;
    if improving {
        n
    } else {
        n * LMP_WORSENING_PERCENT / 100
    }
}

/// The late-move reduction of the `i`-th move (from 0) at `depth`: grows with the logarithm
/// of both, as in strong chess and gomoku engines.
#[inline]
fn lmr(depth: i32, i: usize) -> i32 {
    let r = (depth as f64).ln() * (i as f64).ln() / LMR_DIVISOR + LMR_BASE;
    r.max(1.0) as i32
}

/// The change to a late move's reduction for its policy score `gap` below the node's best:
/// a ply less for a move the policy rates close to the best, a ply more for one far behind.
#[inline]
fn lmr_policy_adjust(gap: i32) -> i32 {
    if gap < LMR_POLICY_NEAR {
        -1
    } else {
        i32::from(gap > LMR_POLICY_FAR)
    }
}

/// A score to store: wins and losses relative to the node, not the root.
pub(crate) fn to_tt(score: i32, ply: i32) -> i32 {
    if score > WIN_BOUND {
        score + ply
    } else if score < -WIN_BOUND {
        score - ply
    } else {
        score
    }
}

/// A stored score back at `ply`.
fn from_tt(score: i32, ply: i32) -> i32 {
    if score > WIN_BOUND {
        score - ply
    } else if score < -WIN_BOUND {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The score of a depth-0 search of `text` (the horizon: no move is searched).
    fn horizon_score(text: &str) -> i32 {
        let mut b = Board::from_ascii(text).unwrap();
        crate::search::searcher::with_test_searcher(|s, ctl| s.search(&mut b, ctl, 0, 1, -WIN, WIN))
    }

    #[test]
    fn an_unanswerable_double_three_is_a_win_at_the_horizon() {
        // Black to move makes two open threes at 5,5 (row 5 and column 5); white has no four
        // to make: a win in five plies from ply 1.
        let double = "
            O . . . . . . . . . . O
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . X . . . . . .
            . . . . . X . . . . . .
            . . . X X . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            O . . . . . . . . . . O";
        assert_eq!(horizon_score(double), WIN - 1 - 5);
        // White with a three that can become a four: no claim, the static score.
        let answered = double.replacen("O . . . . . . . . . . O", ". O O O . . . . . . . .", 1);
        let b = Board::from_ascii(&answered).unwrap();
        assert_eq!(b.side_to_move(), crate::board::Color::Black);
        assert!(b.combo_count_at_least(crate::board::Color::White, Combo::Four) > 0);
        assert!(horizon_score(&answered).abs() < WIN_BOUND);
    }

    #[test]
    fn the_policy_moves_a_reduction_by_a_ply_either_way() {
        assert_eq!(lmr_policy_adjust(0), -1, "the policy's own best choice");
        assert_eq!(lmr_policy_adjust(LMR_POLICY_NEAR - 1), -1);
        assert_eq!(lmr_policy_adjust(LMR_POLICY_NEAR), 0);
        assert_eq!(lmr_policy_adjust(LMR_POLICY_FAR), 0);
        assert_eq!(lmr_policy_adjust(LMR_POLICY_FAR + 1), 1);
        // The base reduction grows with depth and rank.
        assert!(lmr(10, 20) > lmr(3, 3));
    }
}
