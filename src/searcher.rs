//! The search's state, shared by the root (`crate::search`) and the alpha-beta search
//! below it (`crate::alphabeta`): the tables, the ordering statistics, the line buffers and
//! the node count, with what one search may see of the world.

use std::sync::atomic::AtomicBool;

use crate::board::{Board, Pos, NUM_POINTS};
use crate::movegen::ScoredMove;
use crate::params::WIN;
use crate::pattern::Combo;
use crate::threat::Solver;
use crate::timeman::TimeManager;
use crate::tt::Table;

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
/// Its fields are shared by the root (`crate::search`) and `crate::alphabeta`, the search
/// below it.
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
    /// The node count at which the next poll of the limits is due.
    pub(crate) next_poll: u64,
    pub(crate) stopped: bool,
    hash_mb: usize,
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
            next_poll: 0,
            stopped: false,
            hash_mb,
        }
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
        *self = Searcher::new(self.hash_mb);
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
    use crate::budget::Limits;
    use crate::timeman::FakeClock;
    let clock = FakeClock::default();
    let stop = AtomicBool::new(false);
    let ctl =
        Control { tm: TimeManager::new(&clock, Limits::depth(1)), stop: &stop, max_nodes: 1 << 20 };
    f(&mut Searcher::new(1), &ctl)
}
