//! Tuning constants, all in one place. Changing one changes the bench node count.

/// Value of what a stone on a point would make along one line, by `pattern::Pattern`
/// (orders the threat solver's and the safety net's moves).
pub const LINE_VALUE: [i32; 8] = [0, 2, 7, 6, 22, 24, 80, 300];

/// Extra value of a point for the combination its four lines make, by `pattern::Combo`.
pub const COMBO_BONUS: [i32; 10] = [0, 0, 6, 0, 0, 60, 0, 90, 120, 500];

/// Evaluation units per logit of the predicted result: the learned weights are trained as
/// `sigmoid(eval / EVAL_SCALE)` against game results and written in these units, which keep
/// scores in the range the search's windows and margins were set for.
pub const EVAL_SCALE: f64 = 200.0;
/// Move-ordering units per logit of the learned policy (a killer's bonus and the history
/// scores are in the same units).
pub const POLICY_SCALE: f64 = 100.0;

/// Score of a won position; a win in `n` plies scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Scores beyond this are wins or losses.
pub const WIN_BOUND: i32 = WIN - 1_000;

/// Late-move reductions start after this many moves at a node.
pub const LMR_MIN_MOVES: usize = 3;
/// Late-move reductions need this much depth.
pub const LMR_MIN_DEPTH: i32 = 3;
/// Aspiration window half-width.
pub const ASPIRATION: i32 = 60;
/// Most candidate moves searched at a quiet node (the rest are pruned).
pub const MAX_QUIET_MOVES: usize = 24;

/// Maximum attacking moves of the VCF solver.
pub const VCF_MAX_DEPTH: i32 = 24;
/// Maximum attacking moves of the VCT solver.
pub const VCT_MAX_DEPTH: i32 = 8;

/// Deepest iteration.
pub const MAX_DEPTH: i32 = 64;
/// Per-move safety margin under the judge's 2 s, in ms: the answer must be flushed and
/// the judge's own clock may run on a loaded machine.
pub const MOVE_MARGIN_MS: u64 = 400;
/// Game time never spent, in ms, out of the judge's 90 s.
pub const GAME_RESERVE_MS: u64 = 6_000;
/// Fewest moves the time manager plans for.
pub const MIN_MOVES_LEFT: u64 = 12;

/// Transposition table size in MB (the judge allows 350 MB in all).
pub const HASH_MB: usize = 64;

/// Node budget of the root's VCF search for the side to move (and for the opponent).
pub const ROOT_VCF_NODES: u64 = 200_000;
/// Node budget of each check that a root move refutes the opponent's VCF.
pub const REFUTE_VCF_NODES: u64 = 20_000;
/// Most of a move's soft time limit the root's VCT search may take, in percent.
pub const VCT_TIME_PERCENT: u32 = 15;
/// Node budget of the root's VCT search.
pub const ROOT_VCT_NODES: u64 = 150_000;
/// Ordering bonus of a killer move.
pub const KILLER_BONUS: i32 = 400;
/// History scores are divided by this before they join the ordering score.
pub const HISTORY_DIVISOR: i32 = 16;
/// History scores saturate here.
pub const HISTORY_MAX: i32 = 1 << 16;

/// Longest think on the opponent's time, in ms (it ends at once when the opponent moves).
pub const PONDER_MAX_MS: u64 = 60_000;

/// Time for a move when a manager asks to play as fast as possible (`timeout_turn 0`), ms.
pub const FAST_MOVE_MS: u64 = 50;

/// Time kept back from the board-matrix judge's 5 s a move, ms.
pub const MATRIX_MARGIN_MS: u64 = 1_500;
