//! The threat solver: VCF (victory by continuous fours) and VCT (victory by continuous
//! threats: fours and open threes), as an AND/OR search over forcing moves only.
//!
//! The attacker plays fours (and, for VCT, moves that make an open three); the defender's
//! replies are exactly those that matter: the block of a four, or against an open three the
//! points that leave no open four, plus the defender's own fours (a counter-four forces the
//! attacker to block, and may win). A small cache remembers positions already refuted.

use crate::board::{Board, Color, Pos};
use crate::core::pattern::Combo;

/// Result cache size (slots).
const CACHE_SLOTS: usize = 1 << 16;

/// The solver's reusable state.
pub struct Solver {
    /// Keys of positions (attacker to move) proven not to win within the stored depth, with
    /// the number of the solve that stored them: only the current solve's entries count.
    cache: Vec<(u64, i32, u32)>,
    /// The number of the current solve (starting afresh costs an increment, not a clear:
    /// the search calls the solver at its leaves).
    stamp: u32,
    nodes: u64,
    node_limit: u64,
    threes: bool,
    attacker: Color,
    aborted: bool,
    /// Move lists of finished nodes, kept for the next ones: a node's list allocated afresh
    /// cost more than a tenth of the solver's time in allocation and growth.
    spare_moves: Vec<Vec<(i32, Pos)>>,
    spare_points: Vec<Vec<Pos>>,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl Solver {
    /// A solver with an empty cache.
    pub fn new() -> Solver {
        Solver {
            cache: vec![(0, -1, 0); CACHE_SLOTS],
            stamp: 0,
            nodes: 0,
            node_limit: 0,
            threes: false,
            attacker: Color::Black,
            aborted: false,
            spare_moves: Vec::new(),
            spare_points: Vec::new(),
        }
    }

    /// Nodes visited by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Looks for a VCF of the side to move within `max_depth` attacking moves and
    /// `node_limit` nodes; returns the attacker's winning line, its first move first.
    pub fn vcf(&mut self, board: &mut Board, max_depth: i32, node_limit: u64) -> Option<Vec<Pos>> {
        self.solve(board, max_depth, node_limit, false, &|| false)
    }

    /// Looks for a VCT (fours and open threes) of the side to move, deepening one attacking
    /// move at a time up to `max_depth`: the shortest win it finds comes first.
    pub fn vct(&mut self, board: &mut Board, max_depth: i32, node_limit: u64) -> Option<Vec<Pos>> {
        self.solve(board, max_depth, node_limit, true, &|| false)
    }

    /// [`Solver::vcf`] (`threes` false) or [`Solver::vct`], giving up as soon as `abort`
    /// says so (it is asked every 256 nodes): the search's clock and stop flag.
    pub fn solve(
        &mut self,
        board: &mut Board,
        max_depth: i32,
        node_limit: u64,
        threes: bool,
        abort: &dyn Fn() -> bool,
    ) -> Option<Vec<Pos>> {
        self.aborted = false;
        self.nodes = 0;
        self.node_limit = node_limit;
        self.threes = threes;
        self.attacker = board.side_to_move();
        // Refutations depend on the attacker and the mode: start each solve afresh.
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.cache.iter_mut().for_each(|c| *c = (0, -1, 0));
            self.stamp = 1;
        }
        let mut line = Vec::new();
        if !threes {
            return self.attack(board, max_depth, &mut line, abort).then_some(line);
        }
        // A VCT deepens one attacking move at a time: depth first to the full depth, the
        // solver spends its nodes on long lines of threes and misses short wins (in the
        // defence suite, wins of 4 to 10 attacking moves that a 60,000-node solve to depth 12
        // never reached). Refutations stay valid from one depth to the next.
        for depth in 1..=max_depth {
            if self.attack(board, depth, &mut line, abort) {
                return Some(line);
            }
            line.clear();
            if self.aborted || self.nodes > self.node_limit {
                break;
            }
        }
        None
    }

    fn out_of_nodes(&mut self, abort: &dyn Fn() -> bool) -> bool {
        self.nodes += 1;
        if self.nodes & 255 == 0 && !self.aborted && abort() {
            self.aborted = true;
        }
        self.aborted || self.nodes > self.node_limit
    }

    /// Whether the last call gave up because it was told to (not for want of nodes).
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// How many points make five for `color`, and the first of them.
    fn five_points(board: &Board, color: Color) -> (usize, Option<Pos>) {
        // The counts are of the empty points where `color` makes five: the scan is needed
        // only for where the first one is.
        let count = board.combo_count(color, Combo::Five) as usize;
        (count, board.five_points(color).next())
    }

    /// Attacker to move. True when the attacker wins by threats within `depth` moves.
    fn attack(
        &mut self,
        board: &mut Board,
        depth: i32,
        line: &mut Vec<Pos>,
        abort: &dyn Fn() -> bool,
    ) -> bool {
        let att = self.attacker;
        let def = att.opp();
        if board.combo_count(att, Combo::Five) > 0 {
            line.push(board.five_points(att).next().expect("counted five point"));
            return true;
        }
        if self.out_of_nodes(abort) {
            return false;
        }
        let (def_fives, block) = Solver::five_points(board, def);
        if def_fives > 1 {
            return false;
        }
        if let Some(p) = block {
            // The defender threatens five: the block is forced, and must itself threaten.
            return self.try_attack_move(board, p, depth, line, abort);
        }
        if board.combo_count(att, Combo::FlexFour) > 0 {
            let p = board.candidates().find(|&p| board.combo(p, att) == Combo::FlexFour);
            line.push(p.expect("counted flex-four point"));
            return true;
        }
        if depth <= 0 {
            return false;
        }
        let key = board.key();
        let slot = key as usize & (CACHE_SLOTS - 1);
        let entry = self.cache[slot];
        if entry.0 == key && entry.1 >= depth && entry.2 == self.stamp {
            return false;
        }
        let mut moves = self.spare_moves.pop().unwrap_or_default();
        moves.clear();
        // The counts say how many points make each threat: the scan stops when it has found
        // them all, and is skipped when there is none (most nodes of a VCF).
        let count = |c: Combo| board.combo_count(att, c);
        let threes =
            if self.threes { count(Combo::ThreeThree) + count(Combo::OpenThree) } else { 0 };
        let mut left = count(Combo::FourThree) + count(Combo::Four) + threes;
        for p in board.candidates() {
            if left == 0 {
                break;
            }
            let threat = match board.combo(p, att) {
                Combo::FourThree => 4,
                Combo::Four => 2,
                Combo::ThreeThree if self.threes => 3,
                Combo::OpenThree if self.threes => 1,
                _ => continue,
            };
            moves.push((threat * 10_000 + board.point_value(p, att), p));
            left -= 1;
        }
        moves.sort_unstable_by(|a, b| b.cmp(a));
        let mut won = false;
        for &(_, p) in &moves {
            if self.try_attack_move(board, p, depth - 1, line, abort) {
                won = true;
                break;
            }
            if self.aborted || self.nodes > self.node_limit {
                break;
            }
        }
        self.spare_moves.push(moves);
        if won {
            return true;
        }
        if !self.aborted && self.nodes <= self.node_limit {
            self.cache[slot] = (key, depth, self.stamp);
        }
        false
    }

    /// Plays the attacker's `p`, then lets the defender answer.
    fn try_attack_move(
        &mut self,
        board: &mut Board,
        p: Pos,
        depth: i32,
        line: &mut Vec<Pos>,
        abort: &dyn Fn() -> bool,
    ) -> bool {
        board.make_lite(p);
        line.push(p);
        let won = self.defend(board, depth, line, abort);
        if !won {
            line.pop();
        }
        board.unmake_lite();
        won
    }

    /// Defender to move after an attacking move. True when every defence loses.
    fn defend(
        &mut self,
        board: &mut Board,
        depth: i32,
        line: &mut Vec<Pos>,
        abort: &dyn Fn() -> bool,
    ) -> bool {
        let att = self.attacker;
        let def = att.opp();
        if board.combo_count(def, Combo::Five) > 0 {
            return false;
        }
        let (att_fives, block) = Solver::five_points(board, att);
        if att_fives > 1 {
            return true;
        }
        if let Some(b) = block {
            board.make_lite(b);
            line.push(b);
            let won = self.attack(board, depth, line, abort);
            if !won {
                line.pop();
            }
            board.unmake_lite();
            return won;
        }
        if !self.threes || board.combo_count(att, Combo::FlexFour) == 0 {
            // No threat left: the attack has run out.
            return false;
        }
        // Against an open three: the defender's fours, and every point that leaves the
        // attacker no open four. A stone changes the patterns only of the points within 4 of
        // it on its lines, so a point not on a line with every open-four point cannot
        // hold: only the others are tried on the board. Every such point makes a four for one
        // side, so it is a candidate (within two of a stone): one scan finds them all, in
        // order, and stops when the counts say none is left.
        let mut flex = self.spare_points.pop().unwrap_or_default();
        let mut replies = self.spare_points.pop().unwrap_or_default();
        flex.clear();
        replies.clear();
        let mut att_left = board.combo_count_at_least(att, Combo::Four);
        let mut def_left = board.combo_count_at_least(def, Combo::Four);
        for q in board.candidates() {
            let (a, d) = (board.combo(q, att), board.combo(q, def));
            if a == Combo::FlexFour {
                flex.push(q);
            }
            if a >= Combo::Four || d >= Combo::Four {
                replies.push(q);
                att_left -= (a >= Combo::Four) as u16;
                def_left -= (d >= Combo::Four) as u16;
                if att_left == 0 && def_left == 0 {
                    break;
                }
            }
        }
        replies.retain(|&q| {
            if board.combo(q, def) >= Combo::Four {
                return true;
            }
            if !flex.iter().all(|&f| in_reach(q, f)) {
                return false;
            }
            board.make_lite(q);
            let holds = board.combo_count(att, Combo::FlexFour) == 0;
            board.unmake_lite();
            holds
        });
        self.spare_points.push(flex);
        let mark = line.len();
        let mut all_lose = true;
        for &q in &replies {
            board.make_lite(q);
            line.truncate(mark);
            line.push(q);
            let won = self.attack(board, depth, line, abort);
            board.unmake_lite();
            if !won {
                line.truncate(mark);
                all_lose = false;
                break;
            }
        }
        self.spare_points.push(replies);
        // Keep the line of the last defence tried when every defence loses.
        all_lose
    }
}

/// Whether a stone at `q` can change the patterns of `f`: `q` is `f`, or lies within 4 of
/// it on one of its four lines (the reach of [`Board`]'s line codes).
fn in_reach(q: Pos, f: Pos) -> bool {
    let dr = q.row().abs_diff(f.row());
    let dc = q.col().abs_diff(f.col());
    dr <= 4 && dc <= 4 && (dr == 0 || dc == 0 || dr == dc)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve(text: &str, threes: bool) -> Option<Vec<Pos>> {
        let mut b = Board::from_ascii(text).unwrap();
        let mut s = Solver::new();
        if threes {
            s.vct(&mut b, 10, 1_000_000)
        } else {
            s.vcf(&mut b, 30, 1_000_000)
        }
    }

    /// The premise of the defender's shortcut against an open three: a stone out of reach
    /// of one of the attacker's open-four points leaves that point an open-four point, so
    /// skipping such replies loses no defence. Checked on every point of pseudo-random games.
    #[test]
    fn a_stone_out_of_reach_leaves_an_open_four_point() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let (mut positions, mut skipped) = (0, 0);
        for _ in 0..300 {
            let mut b = Board::with_start(12, crate::board::StartPos::Center4);
            for _ in 0..40 {
                if b.last_move_won() {
                    break;
                }
                let empties: Vec<Pos> = b.candidates().collect();
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                b.make(empties[(state % empties.len() as u64) as usize]);
                for att in [Color::Black, Color::White] {
                    let flex: Vec<Pos> =
                        b.candidates().filter(|&f| b.combo(f, att) == Combo::FlexFour).collect();
                    if flex.is_empty() {
                        continue;
                    }
                    positions += 1;
                    let side = b.side_to_move();
                    for q in b.candidates().filter(|&q| !flex.iter().all(|&f| in_reach(q, f))) {
                        skipped += 1;
                        b.put(q, att.opp());
                        assert!(
                            b.combo_count(att, Combo::FlexFour) > 0,
                            "{q}:\n{}",
                            b.to_ascii(None)
                        );
                        b.unmake();
                        b.set_side_to_move(side);
                    }
                }
            }
        }
        assert!(positions > 100 && skipped > 1000, "{positions} positions, {skipped} points");
    }

    #[test]
    fn finds_a_four_three() {
        // Black to move: 2,5 makes a four on row 2 (2,2..2,5) and an open three on column 5.
        let text = "
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . O X X X . . . . . . O
            . . . . . X . . . . . .
            . . . . . X . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . O . . .
            . O . . . . . . . O . O";
        let line = solve(text, false).expect("VCF");
        assert_eq!(line[0], Pos::new(2, 5), "{line:?}");
    }

    #[test]
    fn no_vcf_without_fours() {
        let text = "
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . X . . . . . . .
            . . . . . X . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . O . . .
            . . . . . . . . . O . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .";
        assert_eq!(solve(text, false), None);
    }
}
