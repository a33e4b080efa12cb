//! Proof-number search that black wins: an AND/OR tree over the game, black's moves the OR
//! nodes and white's the AND nodes, with the threat solver ([`crate::search::threat::Solver`]) at
//! every black-to-move node, so that the tree only has to reach positions where black wins
//! by fours and threes.
//!
//! White's replies are all of [`crate::search::movegen::generate`]'s moves (the forced replies when
//! black threatens, else every point within two of a stone); black's are bounded to the best
//! few by the generator's score. A proof is therefore a proof against every defence near the
//! stones: a white stone further away is not tried. A leaf counts as won only when the solver
//! finds the win within budgets no larger than those the brain has at its root
//! (`ROOT_VCF_NODES`, `ROOT_VCT_NODES`, `VCT_MAX_DEPTH` in `crate::core::params`), so that the
//! brain itself finds it when it gets there.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use crate::board::{Board, Color, Pos};
use crate::core::params::{ROOT_VCF_NODES, ROOT_VCT_NODES, VCF_MAX_DEPTH, VCT_MAX_DEPTH};
use crate::core::pattern::Combo;
use crate::search::movegen::{generate, ScoredMove, Threat};
use crate::search::threat::Solver;

/// Proof or disproof number of a solved node.
const INF: u32 = u32::MAX / 4;

/// Settings of one proof run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Most tree nodes.
    pub max_nodes: usize,
    /// Wall-clock limit in seconds.
    pub max_secs: u64,
    /// Black's moves tried at a quiet black node.
    pub width: usize,
    /// Deepest ply below the root expanded (beyond it a node counts as not won).
    pub max_ply: usize,
    /// Node budget of a leaf's VCF (at most `ROOT_VCF_NODES`).
    pub vcf_nodes: u64,
    /// Node budget of a leaf's VCT (at most `ROOT_VCT_NODES`).
    pub vct_nodes: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_nodes: 2_000_000,
            max_secs: 600,
            width: 8,
            max_ply: 40,
            vcf_nodes: ROOT_VCF_NODES,
            vct_nodes: 30_000,
        }
    }
}

/// How black wins a position by threats alone, as the brain's root sees it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LeafWin {
    /// A five, or a VCF: the root plays it out by itself to the end.
    Fours(Pos),
    /// A VCT: its first move. The solver may not see the rest again from the next position
    /// (a deeper search of the same budget can miss what a shallower one found), so the proof
    /// plays it out as a tree.
    Threes(Pos),
}

impl LeafWin {
    /// The first move.
    pub fn pos(self) -> Pos {
        match self {
            LeafWin::Fours(p) | LeafWin::Threes(p) => p,
        }
    }
}

/// The win black's leaf check finds in `board` (black to move) within the brain's root
/// budgets (or smaller ones). The same checks, in the same order and under the same
/// conditions, as the brain's root (`crate::search::root`): a five; a VCF unless white has a five
/// to make; a VCT unless white has a five or an open four to make.
pub fn leaf_win(
    board: &mut Board,
    solver: &mut Solver,
    vcf_nodes: u64,
    vct_nodes: u64,
) -> Option<LeafWin> {
    let me = board.side_to_move();
    let opp = me.opp();
    if let Some(p) = board.five_points(me).next() {
        return Some(LeafWin::Fours(p));
    }
    if board.combo_count(opp, Combo::Five) > 0 {
        return None;
    }
    let vcf = vcf_nodes.min(ROOT_VCF_NODES);
    if let Some(line) = solver.vcf(board, VCF_MAX_DEPTH, vcf) {
        return line.first().map(|&p| LeafWin::Fours(p));
    }
    if board.combo_count(opp, Combo::FlexFour) > 0 {
        return None;
    }
    let line = solver.vct(board, VCT_MAX_DEPTH, vct_nodes.min(ROOT_VCT_NODES))?;
    line.first().map(|&p| LeafWin::Threes(p))
}

/// The moves of a node: every white reply; black's best `width` in a quiet position.
pub fn node_moves(board: &Board, width: usize) -> Vec<Pos> {
    let mut moves: Vec<ScoredMove> = Vec::new();
    let threat = generate(board, &mut moves);
    moves.sort_by(|a, b| b.score.cmp(&a.score).then(a.pos.cmp(&b.pos)));
    if board.side_to_move() == Color::Black && threat == Threat::Quiet {
        moves.truncate(width);
    }
    moves.into_iter().map(|m| m.pos).collect()
}

#[derive(Clone, Debug)]
struct Node {
    mv: Pos,
    parent: u32,
    first: u32,
    count: u32,
    pn: u32,
    dn: u32,
    /// Black's winning move found by the leaf check (a VCF's, proven; a VCT's, to be
    /// played out).
    win: Option<Pos>,
}

/// A proof-number search tree rooted at one position.
pub struct Prover {
    root: Board,
    nodes: Vec<Node>,
    solver: Solver,
    config: Config,
    /// Positions (black to move) proven won before, by canonical key (`crate::book`): their
    /// winning move in the canonical frame.
    known: HashMap<u64, Pos>,
    /// Leaf checks run.
    pub leaf_checks: u64,
}

/// One position of a finished proof: the moves from the proof's root, and black's winning
/// move there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProvenLine {
    /// Moves from the root to the position, both sides.
    pub moves: Vec<Pos>,
    /// Black's winning move.
    pub win: Pos,
}

impl Prover {
    /// A tree holding only `root` (black to move), with wins already known (by canonical
    /// key, the move in the canonical frame).
    pub fn new(root: &Board, config: Config, known: HashMap<u64, Pos>) -> Prover {
        let mut p = Prover {
            root: root.clone(),
            nodes: Vec::new(),
            solver: Solver::new(),
            config,
            known,
            leaf_checks: 0,
        };
        let mut board = root.clone();
        let root_node = p.evaluate(&mut board, Pos(0), 0, 0);
        p.nodes.push(root_node);
        p
    }

    /// Tree nodes so far.
    pub fn size(&self) -> usize {
        self.nodes.len()
    }

    /// The root's proof and disproof numbers (0 proof number: proven).
    pub fn root_numbers(&self) -> (u32, u32) {
        (self.nodes[0].pn, self.nodes[0].dn)
    }

    /// Whether the root is proven won for black.
    pub fn proven(&self) -> bool {
        self.nodes[0].pn == 0
    }

    /// A fresh node for the position on `board` (reached by `mv`), with its numbers.
    fn evaluate(&mut self, board: &mut Board, mv: Pos, parent: u32, ply: usize) -> Node {
        let mut node = Node { mv, parent, first: 0, count: 0, pn: 1, dn: 1, win: None };
        let solved = |n: &mut Node, black_wins: bool| {
            (n.pn, n.dn) = if black_wins { (0, INF) } else { (INF, 0) };
        };
        if board.history().len() > self.root.history().len() && board.last_move_won() {
            solved(&mut node, board.side_to_move() == Color::White);
        } else if board.is_full() {
            solved(&mut node, false);
        } else if board.side_to_move() == Color::Black {
            self.leaf_checks += 1;
            let known = if self.known.is_empty() {
                None
            } else {
                let (key, sym) = crate::book::canonical(board);
                self.known.get(&key).map(|&p| sym.apply(p, board.size()))
            };
            let known = known.filter(|&p| board.is_empty(p)).map(LeafWin::Fours);
            let win = known.or_else(|| {
                leaf_win(board, &mut self.solver, self.config.vcf_nodes, self.config.vct_nodes)
            });
            match win {
                Some(LeafWin::Fours(p)) => {
                    node.win = Some(p);
                    solved(&mut node, true);
                }
                // Played out below, whatever the depth: a VCT is short.
                Some(LeafWin::Threes(p)) => node.win = Some(p),
                None if ply >= self.config.max_ply => solved(&mut node, false),
                None => {}
            }
        } else {
            let black_fives = board.combo_count(Color::Black, Combo::Five);
            if board.combo_count(Color::White, Combo::Five) > 0 {
                solved(&mut node, false);
            } else if black_fives >= 2 {
                solved(&mut node, true);
            } else {
                // Every white reply must be refuted: start from their number.
                node.pn = node_moves(board, self.config.width).len().max(1) as u32;
            }
        }
        node
    }

    /// Runs until the root is solved or a limit is reached; `progress` is called about
    /// every `every` expansions.
    pub fn run(&mut self, every: u64, progress: &mut dyn FnMut(&Prover)) {
        let started = Instant::now();
        let mut expansions = 0u64;
        while self.nodes[0].pn != 0 && self.nodes[0].dn != 0 {
            if self.nodes.len() >= self.config.max_nodes
                || started.elapsed().as_secs() >= self.config.max_secs
            {
                break;
            }
            self.expand_most_proving();
            expansions += 1;
            if expansions % every.max(1) == 0 {
                progress(self);
            }
        }
    }

    fn expand_most_proving(&mut self) {
        let mut board = self.root.clone();
        let mut at = 0usize;
        let mut ply = 0;
        while self.nodes[at].count > 0 {
            let black = board.side_to_move() == Color::Black;
            let n = &self.nodes[at];
            let kids = n.first as usize..(n.first + n.count) as usize;
            let pick = kids
                .min_by_key(|&c| if black { self.nodes[c].pn } else { self.nodes[c].dn })
                .expect("children");
            board.make(self.nodes[pick].mv);
            at = pick;
            ply += 1;
        }
        // Mirror images of one another are one child (the start is symmetric).
        let mut keys = HashSet::new();
        // A VCT's node has one move: the VCT's.
        let moves = match self.nodes[at].win {
            Some(w) => vec![w],
            None => node_moves(&board, self.config.width),
        };
        let moves: Vec<Pos> = moves
            .into_iter()
            .filter(|&m| {
                board.make(m);
                let fresh = keys.insert(crate::book::canonical(&board).0);
                board.unmake();
                fresh
            })
            .collect();
        let first = self.nodes.len() as u32;
        for &m in &moves {
            board.make(m);
            let child = self.evaluate(&mut board, m, at as u32, ply + 1);
            board.unmake();
            self.nodes.push(child);
        }
        self.nodes[at].first = first;
        self.nodes[at].count = moves.len() as u32;
        if moves.is_empty() {
            (self.nodes[at].pn, self.nodes[at].dn) = (INF, 0);
        }
        // Back up the numbers to the root, the board following; a black node proven on the
        // way is remembered, so that a transposition to it is proven at once.
        let mut node = at;
        loop {
            let black = board.side_to_move() == Color::Black;
            let was_open = self.nodes[node].pn != 0;
            self.update(node, black);
            if black && was_open && self.nodes[node].pn == 0 {
                self.remember(&board, node);
            }
            if node == 0 {
                break;
            }
            board.unmake();
            node = self.nodes[node].parent as usize;
        }
    }

    /// Records the proven black node `at` (its position on `board`) in the known wins.
    fn remember(&mut self, board: &Board, at: usize) {
        if let Some(w) = self.winning_move(at) {
            let (key, sym) = crate::book::canonical(board);
            self.known.insert(key, sym.apply(w, board.size()));
        }
    }

    fn update(&mut self, at: usize, black: bool) {
        let n = &self.nodes[at];
        if n.count == 0 {
            return;
        }
        let kids = &self.nodes[n.first as usize..(n.first + n.count) as usize];
        let min_pn = kids.iter().map(|k| k.pn).min().unwrap_or(INF);
        let min_dn = kids.iter().map(|k| k.dn).min().unwrap_or(INF);
        let sum_pn = kids.iter().fold(0u32, |s, k| s.saturating_add(k.pn)).min(INF);
        let sum_dn = kids.iter().fold(0u32, |s, k| s.saturating_add(k.dn)).min(INF);
        let (pn, dn) = if black { (min_pn, sum_dn) } else { (sum_pn, min_dn) };
        self.nodes[at].pn = pn;
        self.nodes[at].dn = dn;
    }

    /// Every proven black-to-move position of the tree, each with its winning move: the
    /// solution trees of every proven node, so also those a transposition relied on (the
    /// whole proof when the root is proven).
    pub fn proven_lines(&self) -> Vec<ProvenLine> {
        let mut out = Vec::new();
        let mut path = Vec::new();
        self.collect(0, true, &mut path, &mut out);
        out
    }

    /// The winning move of a proven black node.
    fn winning_move(&self, at: usize) -> Option<Pos> {
        let n = &self.nodes[at];
        let kids = n.first as usize..(n.first + n.count) as usize;
        n.win.or_else(|| kids.map(|c| &self.nodes[c]).find(|c| c.pn == 0).map(|c| c.mv))
    }

    fn collect(&self, at: usize, black: bool, path: &mut Vec<Pos>, out: &mut Vec<ProvenLine>) {
        let n = &self.nodes[at];
        if black && n.pn == 0 {
            if let Some(win) = self.winning_move(at) {
                out.push(ProvenLine { moves: path.clone(), win });
            }
        }
        for c in n.first as usize..(n.first + n.count) as usize {
            path.push(self.nodes[c].mv);
            self.collect(c, !black, path, out);
            path.pop();
        }
    }

    /// Plies from the root to the deepest leaf of its solution tree (a leaf: a position the
    /// solver wins, its winning move counted), 0 when the root is not proven.
    pub fn proof_depth(&self) -> usize {
        if self.proven() {
            self.solution_depth(0, true)
        } else {
            0
        }
    }

    fn solution_depth(&self, at: usize, black: bool) -> usize {
        let n = &self.nodes[at];
        let kids = n.first as usize..(n.first + n.count) as usize;
        if black {
            match kids.clone().find(|&c| self.nodes[c].pn == 0) {
                Some(c) => 1 + self.solution_depth(c, false),
                _ => 1,
            }
        } else {
            1 + kids.map(|c| self.solution_depth(c, true)).max().unwrap_or(0)
        }
    }

    /// The root's children (black's moves) with their numbers, and for the one closest to
    /// a proof how many of white's replies are proven: what remains open.
    pub fn open_summary(&self) -> String {
        let root = &self.nodes[0];
        let mut lines = Vec::new();
        let kids = root.first as usize..(root.first + root.count) as usize;
        for c in kids {
            let k = &self.nodes[c];
            let replies = k.first as usize..(k.first + k.count) as usize;
            let proven = replies.clone().filter(|&r| self.nodes[r].pn == 0).count();
            let refuted = replies.clone().filter(|&r| self.nodes[r].dn == 0).count();
            lines.push(format!(
                "{}: pn {} dn {}, white replies {} (proven {proven}, not won {refuted})",
                k.mv,
                num(k.pn),
                num(k.dn),
                replies.len()
            ));
        }
        lines.join("\n")
    }
}

fn num(n: u32) -> String {
    match n {
        INF.. => "inf".into(),
        _ => n.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Black to move: 2,5 makes a four on row 2 and an open three on column 5 (a VCF).
    const FOUR_THREE: &str = "
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . O X X X . . . . . . O
        . . . . . X . . . . . .
        . . . . . X . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . O .
        . . . . . . . . O . . .
        . O . . . . . . . O . O";

    fn config(vcf_nodes: u64, vct_nodes: u64) -> Config {
        Config { max_nodes: 20_000, max_secs: 60, width: 6, max_ply: 8, vcf_nodes, vct_nodes }
    }

    #[test]
    fn a_win_the_solver_sees_is_proven_at_the_root() {
        let b = Board::from_ascii(FOUR_THREE).unwrap();
        assert_eq!(b.side_to_move(), Color::Black);
        let p = Prover::new(&b, config(ROOT_VCF_NODES, 1000), HashMap::new());
        assert!(p.proven());
        assert_eq!(p.proof_depth(), 1);
        let lines = p.proven_lines();
        assert_eq!(lines, vec![ProvenLine { moves: vec![], win: Pos::new(2, 5) }]);
    }

    #[test]
    fn a_win_beyond_the_leaf_budget_is_proven_by_the_tree() {
        // A leaf budget too small for the whole VCF: the tree must play it out.
        let b = Board::from_ascii(FOUR_THREE).unwrap();
        let mut p = Prover::new(&b, config(1, 1), HashMap::new());
        assert!(!p.proven());
        p.run(1_000, &mut |_| {});
        assert!(p.proven(), "pn/dn {:?}", p.root_numbers());
        assert!(p.proof_depth() >= 3, "depth {}", p.proof_depth());
        // Every proven position replays legally, black to move, its win on an empty point;
        // the root's line comes first, with the search's own root board untouched.
        let lines = p.proven_lines();
        assert!(lines[0].moves.is_empty());
        for l in &lines {
            let mut board = b.clone();
            for &m in &l.moves {
                assert!(board.is_empty(m));
                board.make(m);
            }
            assert_eq!(board.side_to_move(), Color::Black);
            assert!(board.is_empty(l.win), "{:?}", l);
        }
        assert_eq!(p.root.key(), b.key());
        assert_eq!(p.root.stone_count(), b.stone_count());
    }

    #[test]
    fn a_quiet_position_is_not_proven_by_a_tiny_tree() {
        let b = Board::with_start(12, crate::board::StartPos::Center4);
        let mut c = config(1_000, 1_000);
        c.max_nodes = 300;
        let mut p = Prover::new(&b, c, HashMap::new());
        p.run(1_000, &mut |_| {});
        assert!(!p.proven());
        assert!(p.size() >= 300);
        assert!(p.open_summary().lines().count() >= 2);
    }

    #[test]
    fn known_wins_prove_a_position_without_search() {
        let b = Board::with_start(12, crate::board::StartPos::Center4);
        let (key, sym) = crate::book::canonical(&b);
        let win = Pos::new(4, 7);
        let known = HashMap::from([(key, sym.apply(win, 12))]);
        let p = Prover::new(&b, config(1, 1), known);
        assert!(p.proven());
        assert_eq!(p.proven_lines()[0].win, win);
    }
}
