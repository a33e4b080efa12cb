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
/// Late-move reductions need this much depth. It is also the least that can reduce anything:
/// a reduction never takes a move below depth 1, and at depth 2 the child has depth 1 already
/// (so 2 builds the same trees as 3: bench 1,289,337 either way, checked on 2026-12-02).
pub const LMR_MIN_DEPTH: i32 = 3;
/// Late-move reduction: `LMR_BASE + ln(depth) ln(move index) / LMR_DIVISOR` plies, at least 1.
pub const LMR_BASE: f64 = 0.5;
/// See [`LMR_BASE`].
pub const LMR_DIVISOR: f64 = 2.0;
/// A reduced move whose policy score is less than this below the node's best is reduced a
/// ply less (it is likely to be the search's choice all the same)...
pub const LMR_POLICY_NEAR: i32 = 100;
/// ...and one more than this below it a ply more.
pub const LMR_POLICY_FAR: i32 = 400;
/// Late quiet moves are pruned at non-PV nodes this close to the horizon...
pub const LMP_MAX_DEPTH: i32 = 2;
/// ...after `LMP_BASE + LMP_PER_DEPTH * depth` moves.
pub const LMP_BASE: usize = 4;
/// See [`LMP_BASE`].
pub const LMP_PER_DEPTH: usize = 4;
/// Share of those moves (percent) kept when the static score is not improving.
pub const LMP_WORSENING_PERCENT: usize = 75;
/// A node without a hash move is searched a ply shallower from this depth on.
pub const IIR_MIN_DEPTH: i32 = 4;
/// Singular extensions are tried from this depth on...
pub const SE_MIN_DEPTH: i32 = 5;
/// ...when the hash entry's depth is at most this much below the node's...
pub const SE_DEPTH_MARGIN: i32 = 3;
/// ...and the hash move is singular when the others stay this much per ply below its score.
pub const SE_MARGIN: i32 = 4;
/// Reverse futility pruning works this close to the horizon (plies)...
pub const RFP_MAX_DEPTH: i32 = 3;
/// ...where a static score this much per ply above beta cuts the node off.
pub const RFP_MARGIN: i32 = 80;
/// At most this many answers to an open three are extended by a ply on one path: the
/// defence of a long threat sequence is seen deeper without the tree exploding on the
/// sequences that a search extending every answer would follow to the end. Three beat two
/// by SPRT (+20 Elo, 629 games). Four: +11 and +3 Elo in self-play (undecided), and against
/// Rapfi at 200 ms 97.5/200 over two runs where three made 189.5/400 (the README's ladder).
pub const THREE_EXT_MAX: u8 = 4;
/// Attacking moves of the VCF search at a leaf of the main search where the side to move
/// has a four-three.
pub const QS_VCF_DEPTH: i32 = 8;
/// Node budget of that VCF search.
pub const QS_VCF_NODES: u64 = 40;
/// Fours the two sides may play in the quiescence search below the horizon.
pub const QS_FOURS: i32 = 6;
/// A node off the main line whose static score beats beta by this much a ply of depth searches
/// its moves that make no four a ply shallower (fail-high reduction).
pub const FHR_MARGIN: i32 = 15;
/// Razoring works this close to the horizon (plies)...
pub const RAZOR_MAX_DEPTH: i32 = 2;
/// ...where a static score this much per ply below alpha goes to the quiescence at once.
pub const RAZOR_MARGIN: i32 = 120;
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
pub const MIN_MOVES_LEFT: u64 = 8;
/// The time manager plans for at least (empty points / this) more moves of its own, so that
/// a game that goes on to fill the board slows down gradually instead of running out.
pub const FILL_MOVES_DIVISOR: u64 = 4;
/// The hard limit of a move is at most this many times its planned share (and the cap).
pub const HARD_SHARE_FACTOR: u64 = 3;
/// Lengths of recorded games, in our own moves, that the time manager plans from (see
/// [`crate::clock::budget::expected_moves_left`]): 99 arena games of 2026-11-22 (self-play at
/// 200 ms a move and games against Rapfi, from the balanced openings; the 68-69 are
/// board-filling draws). Regenerate from arena records with
/// `awk '/^\[moves\]/{m=1;next} /^\[/{m=0} m && $3=="A"{n++} END{print n}' game-*.txt`.
#[rustfmt::skip]
pub const GAME_LENGTHS: &[u16] = &[
    6, 6, 7, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 10, 10, 10, 10, 10, 10, 11, 11, 11, 11, 11,
    11, 11, 11, 12, 12, 12, 12, 12, 12, 12, 12, 13, 13, 13, 13, 13, 14, 14, 14, 15, 15, 15,
    15, 16, 16, 16, 17, 17, 17, 17, 18, 19, 19, 19, 19, 19, 21, 21, 21, 21, 22, 22, 22, 23,
    24, 24, 24, 24, 27, 30, 34, 36, 68, 68, 68, 68, 68, 68, 68, 68, 69, 69, 69, 69, 69, 69,
    69, 69, 69, 69, 69, 69, 69
];
/// Soft-limit scale, in percent, when the best move has not changed for three iterations.
pub const TM_STABLE_SCALE: u64 = 85;
/// Extra soft-limit scale, in percent, when the score dropped by more than
/// [`TM_DROP_MARGIN`] since the last iteration.
pub const TM_DROP_EXTRA: u64 = 80;
/// A score drop larger than this between iterations buys more time.
pub const TM_DROP_MARGIN: i32 = 40;
/// Soft-limit scale, in percent, when the score says the game is won (a lost one keeps the
/// full time: see `timeman::soft_scale`).
pub const TM_DECIDED_SCALE: u64 = 40;
/// A score above this (a proven win included) counts as won for the clock.
pub const TM_DECIDED_SCORE: i32 = 3_000;
/// The next iteration is predicted to take the last one's time times the ratio of the last
/// two, clamped to these bounds (in percent).
pub const TM_GROWTH_MIN: u64 = 150;
/// See [`TM_GROWTH_MIN`].
pub const TM_GROWTH_MAX: u64 = 600;
/// Before this share of the hard limit (percent), a new iteration starts even when it is
/// predicted not to finish: a cut iteration has still searched the previous best move deeper.
/// (Only while the game's time is short: while the per-move cap binds, every iteration starts
/// that the search's part of the hard limit leaves time for.)
pub const TM_PARTIAL_START_PERCENT: u32 = 75;

/// The share of the hard limit (percent) the search proper leaves while the move it would
/// play is one the early check found safe: the final check has nothing to do then, so only
/// the answer's own way out is kept (see `timeman::TimeManager::set_verified`).
pub const DEFENCE_VERIFIED_PERCENT: u32 = 2;
/// Share of a move's hard limit (percent) kept for the root's check of the chosen move
/// against the opponent's threats: the search proper stops before it.
pub const DEFENCE_TIME_PERCENT: u32 = 10;
/// The same share after a ponder hit: the search that goes on began its iteration before the
/// reply came and never reaches the early check (`DEFENCE_EARLY_PERCENT`, at the start of an
/// iteration), so the final check gets the time the early one would have had.
pub const DEFENCE_HIT_PERCENT: u32 = 35;

/// Transposition table size in MB (the judge allows 350 MB in all).
pub const HASH_MB: usize = 64;

/// Node budget of the root's VCF search for the side to move (and for the opponent).
pub const ROOT_VCF_NODES: u64 = 200_000;
/// Node budget of each check that a root move refutes the opponent's VCF.
pub const REFUTE_VCF_NODES: u64 = 20_000;
/// Most of a move's soft time limit the root's VCT search may take, in percent.
pub const VCT_TIME_PERCENT: u32 = 15;
/// Node budget of the root's VCT search (doubled with the solver's speed, `f0af316`: the
/// same time as before).
pub const ROOT_VCT_NODES: u64 = 300_000;
/// Most of the search's best moves checked against the opponent's VCT before one is played.
pub const DEFENCE_MAX_MOVES: usize = 4;
/// Before the first iteration that starts after this share (percent) of the search's part
/// of the hard limit, the best move is checked early (see `crate::search::root`).
pub const DEFENCE_EARLY_PERCENT: u32 = 30;
/// When all of those lose, at most this many more are checked: the points of the opponent's
/// winning lines (see [`crate::search::defence::check_vct`]).
pub const DEFENCE_RESCUE_MOVES: usize = 8;
/// Attacking moves of the opponent's VCT that the root defence looks for (two plies each).
pub const DEFENCE_VCT_DEPTH: i32 = 12;
/// Node budget of each of those checks: doubled with the solver's speed (`f0af316`), it
/// finds 13 of the defence suite's 38 wins where 60,000 found 11, in the same time.
pub const DEFENCE_VCT_NODES: u64 = 120_000;
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
