//! The search: threat solving at the root, then iterative-deepening negamax with
//! principal-variation search, aspiration windows, a transposition table, killer and history
//! ordering and late-move reductions, over the threat-limited moves of `movegen`.
//!
//! Scores are from the side to move's point of view; a win in `n` plies from the root scores
//! `WIN - n`, so faster wins and slower losses are preferred.

use crate::search::stats::{depth_row, rank_bucket, Entry};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::board::{Board, Pos};
use crate::clock::budget::Limits;
use crate::clock::ponder::PonderHit;
use crate::clock::timeman::{predict_iteration, soft_scale, Clock, TimeManager};
use crate::core::params::*;
use crate::core::pattern::Combo;
use crate::search::defence::{check_vct, refute_vcf};
use crate::search::movegen::generate;
use crate::search::searcher::{Control, Searcher};

/// What a finished (or interrupted) search found.
#[derive(Clone, Debug, Default)]
pub struct SearchReport {
    /// The move to play.
    pub best: Option<Pos>,
    /// Score for the side to move.
    pub score: i32,
    /// Deepest completed iteration (0 when a threat solver decided the move).
    pub depth: i32,
    /// Nodes searched (alpha-beta and threat solver).
    pub nodes: u64,
    /// Time spent, in ms.
    pub time_ms: u64,
    /// The expected line.
    pub pv: Vec<Pos>,
    /// What decided the move: "five", "vcf", "vct", "search", "defend".
    pub source: &'static str,
}

impl SearchReport {
    /// One short line for the log: depth, score, nodes, speed, time and line.
    pub fn summary(&self) -> String {
        let pv: Vec<String> = self.pv.iter().take(12).map(|p| p.to_string()).collect();
        let nps = self.nodes * 1000 / self.time_ms.max(1);
        format!(
            "{} depth {} score {} nodes {} nps {} time {} pv {}",
            self.source,
            self.depth,
            score_text(self.score),
            self.nodes,
            nps,
            self.time_ms,
            pv.join(" ")
        )
    }
}

/// A score as text: `win in N` / `loss in N` (plies) for decided scores.
pub fn score_text(score: i32) -> String {
    if score > WIN_BOUND {
        format!("win in {}", WIN - score)
    } else if score < -WIN_BOUND {
        format!("loss in {}", WIN + score)
    } else {
        score.to_string()
    }
}

/// The check of the best move against the opponent's threats during the search.
#[derive(Default)]
struct EarlyCheck {
    /// Whether it ran.
    done: bool,
    /// The move it found safe, if any.
    safe: Option<Pos>,
    /// Whether the search's best move lost and gave way to the others.
    rescued: bool,
}

impl Searcher {
    /// Searches `board` for the side to move within `limits`.
    pub fn think(
        &mut self,
        board: &mut Board,
        limits: Limits,
        clock: &dyn Clock,
        stop: &AtomicBool,
        on_iteration: &mut dyn FnMut(&SearchReport),
    ) -> SearchReport {
        self.think_until_hit(board, limits, None, clock, stop, on_iteration)
    }

    /// [`Searcher::think`] for a ponder: once `hit` shows that the expected reply came, the
    /// move's own limits (the second of the pair) apply from then on, and the search ends as
    /// the move's search, checked against the opponent's threats like any other.
    pub fn think_until_hit(
        &mut self,
        board: &mut Board,
        limits: Limits,
        hit: Option<(PonderHit, Limits)>,
        clock: &dyn Clock,
        stop: &AtomicBool,
        on_iteration: &mut dyn FnMut(&SearchReport),
    ) -> SearchReport {
        let mut tm = TimeManager::new(clock, limits);
        if let Some((hit, then)) = hit {
            tm = tm.until_hit(hit, then);
        }
        let ctl = Control { tm, stop, max_nodes: limits.max_nodes };
        self.nodes = 0;
        self.next_poll = 0;
        self.stopped = false;
        self.age_tables();
        let mut report = self.root(board, &ctl, on_iteration);
        report.time_ms = ctl.tm.elapsed().as_millis() as u64;
        report.nodes = self.nodes;
        report
    }

    fn root(
        &mut self,
        board: &mut Board,
        ctl: &Control,
        on_iteration: &mut dyn FnMut(&SearchReport),
    ) -> SearchReport {
        let me = board.side_to_move();
        let opp = me.opp();
        let decided = |best: Pos, score: i32, pv: Vec<Pos>, source| SearchReport {
            best: Some(best),
            score,
            pv,
            source,
            ..SearchReport::default()
        };
        // Step 1. A five ends the game.
        if let Some(p) = board.five_points(me).next() {
            return decided(p, WIN - 1, vec![p], "five");
        }
        // The solvers are bounded by nodes, and by the clock and the stop flag as well: on a
        // loaded machine, or when pondering ends, they must give up at once.
        let abort = || ctl.stop.load(Ordering::Relaxed) || ctl.tm.search_exceeded();
        // Step 2. A win by continuous fours is played at once.
        if board.combo_count(opp, Combo::Five) == 0 {
            let found = self.solver.solve(board, VCF_MAX_DEPTH, ROOT_VCF_NODES, false, &abort);
            self.nodes += self.solver.nodes();
            if let Some(line) = found {
                return decided(line[0], WIN - line.len() as i32, line, "vcf");
            }
        }
        // Step 3. The root moves; against an opponent's win by fours, only the refutations.
        let mut moves = Vec::new();
        generate(board, &mut moves);
        moves.sort_by(|a, b| b.score.cmp(&a.score).then(a.pos.cmp(&b.pos)));
        let mut root: Vec<Pos> = moves.iter().map(|m| m.pos).collect();
        let mut source = "search";
        if board.combo_count(opp, Combo::Five) == 0 && !self.solver.aborted() {
            board.set_side_to_move(opp);
            let threat = self.solver.solve(board, VCF_MAX_DEPTH, ROOT_VCF_NODES, false, &abort);
            self.nodes += self.solver.nodes();
            board.set_side_to_move(me);
            if threat.is_some() {
                let (solver, nodes) = (&mut self.solver, &mut self.nodes);
                let refutes = refute_vcf(solver, board, &root, REFUTE_VCF_NODES, nodes, &abort);
                if !refutes.is_empty() {
                    root = refutes;
                    source = "defend";
                }
            }
        }
        // Step 4. A win by threes and fours.
        if board.combo_count(opp, Combo::Five) == 0
            && board.combo_count(opp, Combo::FlexFour) == 0
            && !self.solver.aborted()
        {
            // The VCT gets a share of the move's time, so that it never starves the search.
            let share = ctl.tm.limits().soft.map(|s| s * VCT_TIME_PERCENT / 100);
            let vct_abort = || abort() || share.map_or(false, |s| ctl.tm.elapsed() >= s);
            let found = self.solver.solve(board, VCT_MAX_DEPTH, ROOT_VCT_NODES, true, &vct_abort);
            self.nodes += self.solver.nodes();
            if let Some(line) = found {
                return decided(line[0], WIN - line.len() as i32, line, "vct");
            }
        }
        if abort() {
            self.stopped = true;
        }
        let mut best = SearchReport {
            best: root.first().copied(),
            pv: root.first().copied().into_iter().collect(),
            source,
            ..SearchReport::default()
        };
        if root.len() <= 1 || self.stopped {
            return best;
        }
        let mut early = EarlyCheck::default();
        self.deepen(board, ctl, &mut root, &mut best, &mut early, on_iteration);
        if early.rescued && early.safe == best.best {
            best.source = "defend-vct";
        }
        // Step 6. The opponent's wins by threats after the chosen move, deeper than the
        // search saw: while the best move loses to one, the next in the search's order. It
        // runs also when the clock cut the search (the manager kept the rest of the hard
        // limit for it), but not after a stop or the node budget.
        let interrupted = ctl.stop.load(Ordering::Relaxed) || self.nodes >= ctl.max_nodes;
        let verified = early.safe.is_some() && early.safe == best.best;
        if !(self.stopped && interrupted) && best.score.abs() < WIN_BOUND && !verified {
            let abort = || ctl.stop.load(Ordering::Relaxed) || ctl.tm.hard_exceeded();
            if let Some(i) = best.best.and_then(|b| root.iter().position(|&p| p == b)) {
                root[..=i].rotate_right(1);
            }
            let checked = check_vct(&mut self.solver, board, &root, &abort);
            self.nodes += checked.nodes;
            if let Some(safe) = checked.safe.filter(|&p| Some(p) != best.best) {
                best.best = Some(safe);
                best.pv = vec![safe];
                best.source = "defend-vct";
            }
        }
        best
    }

    /// Step 5: iterative deepening over `root`, improving `best` after each iteration.
    fn deepen(
        &mut self,
        board: &mut Board,
        ctl: &Control,
        root: &mut [Pos],
        best: &mut SearchReport,
        early: &mut EarlyCheck,
        on_iteration: &mut dyn FnMut(&SearchReport),
    ) {
        // Step 5. Iterative deepening with aspiration windows. An iteration starts only when
        // the clock says it can finish: its time is predicted from the last two.
        let mut prev_score = 0;
        let mut stable = 0;
        let mut iter_times = [Duration::ZERO; 2];
        // The root moves searched: all but those the early check showed to lose.
        let mut active = root.len();
        for depth in 1..=ctl.tm.limits().max_depth {
            let scale = soft_scale(best.score, prev_score, stable);
            // Step 5a. Once the move's time is well under way, the best move is checked
            // against the opponent's wins by threats (the check of step 6, early): when it
            // and the next best lose, the rest of the time goes to finding a move that holds,
            // instead of to a deeper search among losing moves.
            if depth > 1
                && !early.done
                && best.score.abs() < WIN_BOUND
                && ctl.tm.search_past_percent(DEFENCE_EARLY_PERCENT)
            {
                early.done = true;
                ctl.tm.early_check_done();
                let abort = || ctl.stop.load(Ordering::Relaxed) || ctl.tm.hard_exceeded();
                // (`search_root` put the iteration's best move first.)
                let checked = check_vct(&mut self.solver, board, root, &abort);
                self.nodes += checked.nodes;
                early.safe = checked.safe;
                // The moves shown to lose go to the back, out of the search, unless nothing
                // would be left; a move that holds comes first and becomes the best so far.
                if !checked.losing.is_empty() && checked.losing.len() < active {
                    let lost = |p: &Pos| checked.losing.contains(p);
                    root[..active].sort_by_key(|p| (lost(p), Some(*p) != checked.safe));
                    active -= checked.losing.len();
                    if best.best.map_or(false, |b| lost(&b)) {
                        best.best = Some(root[0]);
                        best.pv = vec![root[0]];
                        early.rescued = true;
                        stable = 0;
                    }
                }
            }
            // Step 5b. While the move the search would play is the one the early check found
            // safe, the final check has nothing to do: its share of the clock goes to the
            // search (`search_root` takes it back when another move leads).
            ctl.tm.set_verified(early.safe.is_some() && early.safe == best.best);
            let predicted = predict_iteration(iter_times[0], iter_times[1]);
            if depth > 1 && !ctl.tm.may_start_iteration(scale, predicted) {
                break;
            }
            let iter_start = ctl.tm.elapsed();
            let (mut alpha, mut beta) = if depth >= 3 && best.score.abs() < WIN_BOUND {
                (best.score - ASPIRATION, best.score + ASPIRATION)
            } else {
                (-WIN, WIN)
            };
            let mut delta = ASPIRATION;
            let score = loop {
                let s = self.search_root(
                    board,
                    ctl,
                    &mut root[..active],
                    depth,
                    (alpha, beta),
                    early.safe,
                );
                if self.stopped {
                    break s;
                }
                if s <= alpha {
                    alpha = (alpha - delta).max(-WIN);
                } else if s >= beta {
                    beta = (beta + delta).min(WIN);
                } else {
                    break s;
                }
                delta *= 2;
            };
            if self.stopped && depth > 1 {
                // Keep the last completed iteration, unless this one already found a move
                // that beats it (the first root move is the previous best).
                if self.pv[0].first().map_or(false, |&p| Some(p) != best.best) && score > best.score
                {
                    best.best = self.pv[0].first().copied();
                    best.pv = self.pv[0].clone();
                    best.score = score;
                }
                break;
            }
            iter_times = [iter_times[1], ctl.tm.elapsed() - iter_start];
            prev_score = best.score;
            stable = if best.best == self.pv[0].first().copied() { stable + 1 } else { 0 };
            best.best = self.pv[0].first().copied().or(best.best);
            best.pv = self.pv[0].clone();
            best.score = score;
            best.depth = depth;
            best.nodes = self.nodes;
            best.time_ms = ctl.tm.elapsed().as_millis() as u64;
            on_iteration(best);
            if score.abs() > WIN_BOUND && depth as i64 > (WIN - score.abs()) as i64 {
                break;
            }
            if self.stopped {
                break;
            }
        }
    }

    /// One iteration over the root moves in the window `(alpha, beta)`; reorders `root` best
    /// first. A new best move other than `safe` (the early check's) tells the clock that the
    /// final check is needed again.
    fn search_root(
        &mut self,
        board: &mut Board,
        ctl: &Control,
        root: &mut [Pos],
        depth: i32,
        (mut alpha, beta): (i32, i32),
        safe: Option<Pos>,
    ) -> i32 {
        let mut best = -WIN;
        let mut best_idx = 0;
        self.pv[0].clear();
        self.three_exts[1] = 0;
        self.entered_by[1] = Entry::Root;
        let row = depth_row(depth);
        for (i, &p) in root.iter().enumerate() {
            let before = self.nodes;
            board.make(p);
            let mut score;
            if i == 0 {
                score = -self.search(board, ctl, depth - 1, 1, -beta, -alpha);
            } else {
                score = -self.search(board, ctl, depth - 1, 1, -alpha - 1, -alpha);
                if score > alpha && score < beta && !self.stopped {
                    score = -self.search(board, ctl, depth - 1, 1, -beta, -alpha);
                }
            }
            board.unmake();
            self.stats.root_nodes[row][rank_bucket(i)] += self.nodes - before;
            if self.stopped {
                break;
            }
            if score > best {
                if Some(p) != safe {
                    ctl.tm.set_verified(false);
                }
                best = score;
                best_idx = i;
                let child = std::mem::take(&mut self.pv[1]);
                self.pv[0].clear();
                self.pv[0].push(p);
                self.pv[0].extend_from_slice(&child);
                self.pv[1] = child;
                if score > alpha {
                    alpha = score;
                }
                if alpha >= beta {
                    break;
                }
            }
        }
        if !self.stopped {
            self.stats.root_best[row][rank_bucket(best_idx)] += 1;
        }
        root[..=best_idx].rotate_right(1);
        best
    }
}
