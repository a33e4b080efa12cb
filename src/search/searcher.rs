//! The search's state, shared by the root (`crate::search::root`) and the alpha-beta search
//! below it (`crate::search::alphabeta`): the tables, the ordering statistics, the line buffers and
//! the node count, with what one search may see of the world.

use crate::search::stats::{Entry, Stats};
use std::sync::atomic::AtomicBool;

use crate::board::{Board, Pos, NUM_POINTS};
use crate::clock::timeman::TimeManager;
use crate::core::params::WIN;
use crate::core::pattern::Combo;
use crate::search::movegen::ScoredMove;
use crate::search::threat::Solver;
use crate::search::tt::Table;

/// Deepest ply the search goes (a 15×15 board has 225 points).
pub const MAX_PLY: usize = 232;

/// Marks a ply without a static score in [`Searcher::evals`].
pub(crate) const NO_EVAL: i32 = i32::MIN;

/// What one search may see of the world: its limits, the clock and the stop flag.
pub(crate) struct Control<'a> {
    pub(crate) tm: TimeManager<'a>,
    pub(crate) stop: &'a AtomicBool,
    pub(crate) max_nodes: u64,
}

/// The searcher and its tables.
/// Its fields are shared by the root (`crate::search::root`) and `crate::search::alphabeta`,
/// the search below it.
pub struct Searcher {
    pub(crate) tt: Table,
    pub(crate) solver: Solver,
    pub(crate) killers: Vec<[Option<Pos>; 2]>,
    pub(crate) history: Box<[[i32; NUM_POINTS]; 2]>,
    pub(crate) pv: Vec<Vec<Pos>>,
    pub(crate) move_lists: Vec<Vec<ScoredMove>>,
    /// The move a singular-extension search leaves out at each ply (`None` almost always).
    pub(crate) excluded: Vec<Option<Pos>>,
    /// The static score of the node at each ply of the current line, [`NO_EVAL`] where the
    /// opponent had a four (the score means little there).
    pub(crate) evals: Vec<i32>,
    /// Per ply: how many answers to an open three on the path to the node were extended
    /// (`params::THREE_EXT_MAX` at most).
    pub(crate) three_exts: Vec<u8>,
    pub(crate) nodes: u64,
    /// The instruments (`crate::search::stats`), summed over this searcher's searches.
    pub(crate) stats: Stats,
    /// Per ply: the kind of move that entered the node at that ply.
    pub(crate) entered_by: Vec<Entry>,
    /// The node count at which the next poll of the limits is due.
    pub(crate) next_poll: u64,
    pub(crate) stopped: bool,
    /// Training data: positions the search visits, sampled (`datagen --tree-every`); `None`
    /// in play.
    pub sampler: Option<NodeSampler>,
    hash_mb: usize,
}

/// Samples the positions inside a search's tree, where move ordering and the evaluation do
/// their work, for training data: the game positions alone are the positions of good play,
/// while most nodes of a tree follow a poor move and want its refutation.
pub struct NodeSampler {
    /// Only nodes with at least this many plies left are candidates (the ordering decides
    /// reductions and pruning there).
    pub min_depth: i32,
    /// About one candidate in this many is taken.
    pub every: u64,
    rng: u64,
    /// The positions taken since the last [`NodeSampler::take`], each as its moves from the
    /// start stones, in order.
    taken: Vec<Vec<Pos>>,
}

impl NodeSampler {
    /// A sampler of about one node in `every` with `min_depth` plies left, seeded by `seed`.
    pub fn new(min_depth: i32, every: u64, seed: u64) -> NodeSampler {
        NodeSampler { min_depth, every: every.max(1), rng: seed, taken: Vec::new() }
    }

    /// A node of `depth` plies left at `board`: taken or not.
    pub(crate) fn visit(&mut self, board: &Board, depth: i32) {
        if depth < self.min_depth {
            return;
        }
        let (state, z) = crate::core::bits::splitmix(self.rng);
        self.rng = state;
        if z % self.every == 0 {
            self.taken.push(board.moves().map(|(p, _)| p).collect());
        }
    }

    /// The positions taken so far, handed over and forgotten.
    pub fn take(&mut self) -> Vec<Vec<Pos>> {
        std::mem::take(&mut self.taken)
    }
}

impl Searcher {
    /// A searcher with a `hash_mb` table.
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            tt: Table::new(hash_mb),
            solver: Solver::new(),
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: Box::new([[0; NUM_POINTS]; 2]),
            pv: (0..=MAX_PLY).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            move_lists: (0..=MAX_PLY).map(|_| Vec::with_capacity(NUM_POINTS)).collect(),
            excluded: vec![None; MAX_PLY + 1],
            evals: vec![NO_EVAL; MAX_PLY + 1],
            three_exts: vec![0; MAX_PLY + 1],
            nodes: 0,
            stats: Stats::default(),
            entered_by: vec![Entry::Root; MAX_PLY + 1],
            next_poll: 0,
            stopped: false,
            sampler: None,
            hash_mb,
        }
    }

    /// The instruments' counts over every search this searcher made.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Forgets the last game's ordering statistics and ages the hash table.
    pub fn new_game(&mut self) {
        self.tt.new_generation();
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().for_each(|h| h.iter_mut().for_each(|v| *v = 0));
    }

    /// Before each search: entries of earlier searches (the last move's, a ponder's) become
    /// replaceable though still usable, killers (whose plies meant another root) are dropped,
    /// and history is halved so that it follows the game instead of saturating over it: a
    /// long ponder would otherwise leave stale history that outweighs every shape score.
    pub(crate) fn age_tables(&mut self) {
        self.tt.new_generation();
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().for_each(|h| h.iter_mut().for_each(|v| *v /= 2));
    }

    /// Starts every table afresh (after a failure, and for the bench).
    pub fn reset(&mut self) {
        let sampler = self.sampler.take();
        *self = Searcher::new(self.hash_mb);
        self.sampler = sampler;
    }
}

/// The score of a position that the threats on the board decide, from the side to move's
/// point of view (`WIN - ply - n` for a win in `n` plies), or `None`: a five to make; two
/// fives of the opponent to stop; an open four (or two fours) where the opponent has no five
/// to make; and a double threat that nothing answers: where the opponent can make no four,
/// our three-three or four-three wins in five plies (one threat is blocked, the other
/// becomes an open four), however far below the horizon a search would see it. (No point
/// where the opponent makes a four means no five point either.) Shared by the alpha-beta
/// search and its quiescence.
pub(crate) fn threat_verdict(board: &Board, ply: i32) -> Option<i32> {
    let me = board.side_to_move();
    let opp = me.opp();
    if board.combo_count(me, Combo::Five) > 0 {
        return Some(WIN - ply - 1);
    }
    let opp_fives = board.combo_count(opp, Combo::Five);
    if opp_fives >= 2 {
        return Some(-(WIN - ply - 2));
    }
    if opp_fives == 0 && board.combo_count(me, Combo::FlexFour) > 0 {
        return Some(WIN - ply - 3);
    }
    if board.combo_count_at_least(opp, Combo::Four) == 0
        && board.combo_count(me, Combo::ThreeThree)
            + board.combo_count_at_least(me, Combo::FourThree)
            > 0
    {
        return Some(WIN - ply - 5);
    }
    None
}

/// Runs `f` on a fresh searcher (1 MB table) with limits that never stop it: the setup of the
/// unit tests that call the search or the quiescence directly.
#[cfg(test)]
pub(crate) fn with_test_searcher<R>(f: impl FnOnce(&mut Searcher, &Control) -> R) -> R {
    use crate::clock::budget::Limits;
    use crate::clock::timeman::FakeClock;
    let clock = FakeClock::default();
    let stop = AtomicBool::new(false);
    let ctl =
        Control { tm: TimeManager::new(&clock, Limits::depth(1)), stop: &stop, max_nodes: 1 << 20 };
    f(&mut Searcher::new(1), &ctl)
}

#[cfg(test)]
mod sampler_tests {
    use super::*;
    use crate::clock::budget::Limits;
    use crate::clock::timeman::FakeClock;
    use crate::search::bench::{board_after, parse_moves, POSITIONS};

    /// A fixed-depth search of bench position `i`, with or without a sampler of every node.
    fn search(i: usize, sampler: Option<NodeSampler>) -> (crate::search::SearchReport, Searcher) {
        let (start, moves) = POSITIONS[i];
        let mut board = board_after(start, &parse_moves(moves).unwrap()).unwrap();
        let mut s = Searcher::new(1);
        s.sampler = sampler;
        let (clock, stop) = (FakeClock::default(), AtomicBool::new(false));
        let report = s.think(&mut board, Limits::depth(5), &clock, &stop, &mut |_| {});
        (report, s)
    }

    #[test]
    fn sampling_takes_positions_of_the_tree_and_leaves_the_search_alone() {
        let (start, moves) = POSITIONS[0];
        let root = parse_moves(moves).unwrap();
        let (plain, _) = search(0, None);
        let (sampled, mut s) = search(0, Some(NodeSampler::new(2, 1, 7)));
        // The same tree: the sampler only looks.
        assert_eq!(
            (plain.best, plain.score, plain.nodes),
            (sampled.best, sampled.score, sampled.nodes)
        );
        let taken = s.sampler.as_mut().unwrap().take();
        assert!(taken.len() > 100, "every node of depth 2 or more: {}", taken.len());
        for path in &taken {
            // Each is the root's line followed by moves of the tree, a legal position.
            assert!(path.len() > root.len() && path.starts_with(&root), "{path:?}");
            assert!(board_after(start, path).is_ok());
        }
        assert!(
            s.sampler.as_mut().unwrap().take().is_empty(),
            "taken positions are handed over once"
        );
        // One in ten takes about a tenth.
        let (_, mut s) = search(0, Some(NodeSampler::new(2, 10, 7)));
        let tenth = s.sampler.as_mut().unwrap().take().len();
        assert!(
            tenth * 10 > taken.len() / 2 && tenth * 10 < taken.len() * 2,
            "{tenth} of {}",
            taken.len()
        );
        // Deeper nodes only: fewer.
        let (_, mut s) = search(0, Some(NodeSampler::new(4, 1, 7)));
        assert!(s.sampler.as_mut().unwrap().take().len() < taken.len());
    }
}
