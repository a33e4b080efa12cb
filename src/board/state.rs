//! The board: stones as bitboards, per-point line indices and patterns, threat counts, an
//! evaluation sum and a Zobrist key, all updated incrementally by [`Board::make`] and undone
//! by [`Board::unmake`] (the threat solver's [`Board::make_lite`] leaves the sum alone).
//!
//! Points are stored in a 16-wide grid (`index = row * 16 + col`), so every board from 5×5 to
//! 15×15 fits in 256 points; points outside the playing size are walls.

use crate::core::bits::{
    dilate2, line_neighbours, BitIter, Bits, NO_POINT, ZOBRIST, ZOBRIST_WHITE,
};
// The grid's geometry lives with the bitboards (which must not depend on the board); every
// other module names it through the board, as before.
pub use crate::core::bits::{Pos, NUM_POINTS, STRIDE};
// Sides and starts are their own small module; the board names them as before.
pub use crate::core::color::{Color, StartPos};
use crate::core::pattern::{tables, ternary_index, Combo, Pattern, Tables, LINE_STEP, NUM_COMBOS};
use crate::eval::features::{LearnedState, GRID_POINTS};

/// Largest playing size.
pub const MAX_SIZE: usize = 15;
/// Smallest playing size.
pub const MIN_SIZE: usize = 5;
const _: () = assert!(GRID_POINTS == NUM_POINTS, "features must know the grid");
/// The judge's board size.
pub const DEFAULT_SIZE: usize = 12;

const EMPTY: u8 = 0;
const WALL: u8 = 3;
/// The cell code of a stone of `color` (0 is empty, 3 wall).
pub(super) fn cell(color: Color) -> u8 {
    color as u8 + 1
}

/// One ply of history: enough to undo it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Undo {
    /// The point played.
    pub pos: Pos,
    /// Who played it.
    pub color: Color,
}

/// What a move changes on the points of its four lines (by line and slot, as the board's
/// neighbour table) and in the counts and sums: saved by the move so that unmaking puts it
/// back instead of recomputing it, since the recomputation's table look-ups were two thirds
/// of the search's time. (Line indices are not saved: unmaking takes the stone's digits out.)
#[derive(Clone, Default)]
struct Saved {
    quads: [[[u16; 2]; 8]; 4],
    learned: [[[u16; 4]; 8]; 4],
    counts: [[u16; NUM_COMBOS]; 2],
    sums: [[i32; 2]; 2],
}

/// The incremental board.
#[derive(Clone)]
pub struct Board {
    size: usize,
    pub(super) cells: [u8; NUM_POINTS],
    pub(super) stones: [Bits; 2],
    /// The playing points (the rest of the grid is wall).
    playable: Bits,
    /// `lines[line][point]`: the point's eight neighbours on the line in base 3 as each side
    /// sees them (`pattern::ternary_index`; black's low 16 bits, white's high): the pattern
    /// and class table by it is 6.5 KB, where one by a code of both sides' cells was 128 KB.
    pub(super) lines: [[u32; NUM_POINTS]; 4],
    pub(super) quads: [[u16; NUM_POINTS]; 2],
    pub(super) counts: [[u16; NUM_COMBOS]; 2],
    pub(super) learned: LearnedState,
    pub(super) key: u64,
    side: Color,
    history: Vec<Undo>,
    /// `saved[k]`: the [`Saved`] record of the `k`-th move of `history`; records past the
    /// history's length are stale, kept to be overwritten.
    saved: Vec<Saved>,
    neighbours: Box<[[[u8; 8]; 4]; NUM_POINTS]>,
    tables: &'static Tables,
    /// Lite moves on the board ([`Board::make_lite`]): while there are any, the learned
    /// features are stale.
    pub(super) lite: u32,
}

impl Board {
    /// An empty board of `size` (5..=15) with black to move.
    pub fn new(size: usize) -> Board {
        assert!((MIN_SIZE..=MAX_SIZE).contains(&size), "board size {size} out of range");
        let mut cells = [WALL; NUM_POINTS];
        for r in 0..size {
            for c in 0..size {
                cells[Pos::new(r, c).idx()] = EMPTY;
            }
        }
        let mut board = Board {
            size,
            cells,
            stones: [[0; 4]; 2],
            playable: [0; 4],
            lines: [[0; NUM_POINTS]; 4],
            quads: [[0; NUM_POINTS]; 2],
            counts: [[0; NUM_COMBOS]; 2],
            learned: LearnedState::new(),
            key: 0,
            side: Color::Black,
            history: Vec::with_capacity(NUM_POINTS),
            saved: Vec::new(),
            neighbours: line_neighbours(size),
            tables: tables(),
            lite: 0,
        };
        board.rebuild_derived();
        board
    }

    /// A board of `size` set up with `start`, black to move.
    pub fn with_start(size: usize, start: StartPos) -> Board {
        let mut board = Board::new(size);
        for (p, c) in start.stones(size) {
            board.put(p, c);
        }
        board.forget_history();
        board.side = Color::Black;
        board.key = board.compute_key();
        board
    }

    /// Recomputes every line index, pattern, count and sum from the stones alone.
    pub(super) fn rebuild_derived(&mut self) {
        self.lines = [[0; NUM_POINTS]; 4];
        self.counts = [[0; NUM_COMBOS]; 2];
        self.learned.clear_sums();
        self.playable = [0; 4];
        for p in self.points() {
            for d in 0..4 {
                let mut code = 0u16;
                for slot in 0..8 {
                    let q = self.neighbours[p.idx()][d][slot];
                    let cell = if q == NO_POINT { WALL } else { self.cells[q as usize] };
                    code |= (cell as u16) << (2 * slot);
                }
                let [b, w] = [0, 1].map(|s| ternary_index(code, s) as u32);
                self.lines[d][p.idx()] = b | w << 16;
            }
            self.playable[p.idx() >> 6] |= 1 << (p.idx() & 63);
        }
        let by_line = &self.learned.tables().pattern_class;
        for p in self.points() {
            for s in 0..2 {
                let pattern = |d: usize| (by_line[self.line(p.idx(), d, s)] & 7) as u16;
                self.quads[s][p.idx()] = (0..4).fold(0, |quad, d| quad | pattern(d) << (3 * d));
            }
            let lines = [0, 1].map(|s| [0, 1, 2, 3].map(|d| self.line(p.idx(), d, s) as u16));
            self.learned.set_point(p.idx(), lines);
            if self.cells[p.idx()] == EMPTY {
                self.add_point(p);
            }
        }
    }

    fn add_point(&mut self, p: Pos) {
        for s in 0..2 {
            let q = self.quads[s][p.idx()] as usize;
            self.counts[s][self.tables.combo[q] as usize] += 1;
        }
        self.learned.add_point(p.idx());
    }

    fn remove_point<const LEARN: bool>(&mut self, p: Pos) {
        for s in 0..2 {
            let q = self.quads[s][p.idx()] as usize;
            self.counts[s][self.tables.combo[q] as usize] -= 1;
        }
        if LEARN {
            self.learned.remove_point(p.idx());
        }
    }

    /// Side `s`'s base-3 index of point `q`'s line `d`.
    fn line(&self, q: usize, d: usize, s: usize) -> usize {
        (self.lines[d][q] >> (16 * s)) as u16 as usize
    }

    /// Puts a stone of `color` at empty `p` and updates everything derived (the learned
    /// features only if `LEARN`), saving what it changes for [`Board::lift`].
    fn place<const LEARN: bool>(&mut self, p: Pos, color: Color) {
        let i = p.idx();
        // One record a move, reused: the record of the `k`-th move of the history lives at
        // `saved[k]` and is overwritten, never zeroed (a fresh one each move showed in the
        // profile).
        let k = self.history.len();
        if self.saved.len() <= k {
            self.saved.resize_with(k + 1, Saved::default);
        }
        self.saved[k].counts = self.counts;
        if LEARN {
            self.saved[k].sums = self.learned.sums_state();
        }
        self.remove_point::<LEARN>(p);
        self.cells[i] = cell(color);
        self.stones[color.idx()][i >> 6] |= 1 << (i & 63);
        self.key ^= ZOBRIST[color.idx()][i];
        let Board { neighbours, lines, quads, counts, learned, cells, tables, saved, .. } = self;
        let rec = &mut saved[k];
        // The sums' changes are gathered here and added once: kept in the state, each change
        // waited on the one before.
        let mut delta = [[0i32; 2]; 2];
        // Each of the 32 neighbours is its own point: saving a point and then updating it, one
        // at a time, is the same as saving all first.
        for d in 0..4 {
            for slot in 0..8 {
                let q = neighbours[i][d][slot];
                if q == NO_POINT {
                    continue;
                }
                let q = q as usize;
                // The stone is the neighbour's cell 7 - slot.
                lines[d][q] += LINE_STEP[color.idx()][7 - slot];
                // Only empty points change, so only they are saved (and restored).
                if cells[q] != EMPTY {
                    continue;
                }
                rec.quads[d][slot] = [quads[0][q], quads[1][q]];
                if LEARN {
                    rec.learned[d][slot] = learned.point_state(q);
                }
                let by_line = &learned.tables().pattern_class;
                for s in 0..2 {
                    let byte = by_line[(lines[d][q] >> (16 * s)) as u16 as usize];
                    // The class refines the pattern: an unchanged class leaves the pattern as
                    // it was.
                    if LEARN && !learned.set_class(q, d, s, byte >> 3, &mut delta[s]) {
                        continue;
                    }
                    let old = quads[s][q];
                    let new = (old & !(7 << (3 * d))) | (((byte & 7) as u16) << (3 * d));
                    if new != old {
                        counts[s][tables.combo[old as usize] as usize] -= 1;
                        counts[s][tables.combo[new as usize] as usize] += 1;
                        quads[s][q] = new;
                    }
                }
            }
        }
        if LEARN {
            learned.add_to_sums(delta);
        }
    }

    /// Lifts the stone of `color` that the last [`Board::place`] put at `p`: everything derived
    /// (the learned features only if `LEARN`, as the place) is put back as it was saved. (The
    /// point's own patterns and classes were never touched while the stone stood on it, since
    /// only empty points are refreshed.)
    fn lift<const LEARN: bool>(&mut self, p: Pos, color: Color) {
        let i = p.idx();
        // `unmake` has popped the move, so the history's length is the move's index.
        let saved = &self.saved[self.history.len()];
        self.cells[i] = EMPTY;
        self.stones[color.idx()][i >> 6] &= !(1 << (i & 63));
        self.key ^= ZOBRIST[color.idx()][i];
        for d in 0..4 {
            for slot in 0..8 {
                let q = self.neighbours[i][d][slot];
                if q != NO_POINT {
                    let q = q as usize;
                    // The move only added its stone's digits: taking them out restores them.
                    self.lines[d][q] -= LINE_STEP[color.idx()][7 - slot];
                    if self.cells[q] == EMPTY {
                        [self.quads[0][q], self.quads[1][q]] = saved.quads[d][slot];
                        if LEARN {
                            self.learned.restore_point(q, saved.learned[d][slot]);
                        }
                    }
                }
            }
        }
        self.counts = saved.counts;
        if LEARN {
            self.learned.restore_sums(saved.sums);
        }
    }

    /// Plays the side to move's stone at `p` (which must be empty and on the board).
    pub fn make(&mut self, p: Pos) {
        debug_assert_eq!(self.lite, 0, "a move on top of a lite one");
        self.play::<true>(p);
    }

    /// Takes back the last move, a [`Board::make`]. Panics if there is none.
    pub fn unmake(&mut self) {
        debug_assert_eq!(self.lite, 0, "a full unmake of a lite move");
        self.take_back::<true>();
    }

    /// [`Board::make`] for the threat solver, which reads only patterns and counts: the
    /// learned features are not updated (half of a move's cost), and stay stale until the
    /// matching [`Board::unmake_lite`]. Only lite moves may be made on top of a lite move.
    pub fn make_lite(&mut self, p: Pos) {
        self.lite += 1;
        self.play::<false>(p);
    }

    /// Takes back the last move, a [`Board::make_lite`].
    pub fn unmake_lite(&mut self) {
        debug_assert!(self.lite > 0, "a lite unmake of a full move");
        self.take_back::<false>();
        self.lite -= 1;
    }

    fn play<const LEARN: bool>(&mut self, p: Pos) {
        debug_assert!(self.is_empty(p), "make on a non-empty point {p}");
        let color = self.side;
        self.place::<LEARN>(p, color);
        self.history.push(Undo { pos: p, color });
        self.side = color.opp();
        self.key ^= ZOBRIST_WHITE;
    }

    fn take_back<const LEARN: bool>(&mut self) {
        let undo = self.history.pop().expect("unmake with no move");
        self.lift::<LEARN>(undo.pos, undo.color);
        self.side = undo.color;
        self.key ^= ZOBRIST_WHITE;
    }

    /// Puts a stone of `color` at `p` as a move of `color`; the other side moves next.
    pub fn put(&mut self, p: Pos, color: Color) {
        self.set_side_to_move(color);
        self.make(p);
    }

    /// Sets the side to move without playing.
    pub fn set_side_to_move(&mut self, color: Color) {
        if self.side != color {
            self.side = color;
            self.key ^= ZOBRIST_WHITE;
        }
    }

    /// Playing size.
    pub fn size(&self) -> usize {
        self.size
    }
    /// Side to move.
    pub fn side_to_move(&self) -> Color {
        self.side
    }
    /// Zobrist key of stones and side to move.
    pub fn key(&self) -> u64 {
        self.key
    }
    /// The key after the side to move plays at empty `p`, without playing it.
    #[inline]
    pub fn key_after(&self, p: Pos) -> u64 {
        self.key ^ ZOBRIST[self.side.idx()][p.idx()] ^ ZOBRIST_WHITE
    }
    /// Moves played on this board (set-up stones included), oldest first.
    pub fn history(&self) -> &[Undo] {
        &self.history
    }
    /// Forgets how the stones came to be: they stay, but can no longer be unmade (a position
    /// set up from a diagram has no history).
    pub fn forget_history(&mut self) {
        self.history.clear();
        self.saved.clear();
    }
    /// The moves played, oldest first, as (point, colour): what [`Board::put`] replays.
    pub fn moves(&self) -> impl Iterator<Item = (Pos, Color)> + '_ {
        self.history.iter().map(|u| (u.pos, u.color))
    }
    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Pos> {
        self.history.last().map(|u| u.pos)
    }
    /// Number of stones on the board.
    pub fn stone_count(&self) -> usize {
        // Word by word: a flattened iterator over both sides' words cost 4% of the search, which
        // asks at every node whether the board is full.
        let [b, w] = &self.stones;
        b.iter().zip(w).map(|(b, w)| (b | w).count_ones() as usize).sum()
    }
    /// Whether `row`, `col` is on the board.
    pub fn on_board(&self, row: usize, col: usize) -> bool {
        row < self.size && col < self.size
    }
    /// Whether `p` is an empty point of the board.
    pub fn is_empty(&self, p: Pos) -> bool {
        self.cells[p.idx()] == EMPTY
    }
    /// The stone at `p`, if any.
    pub fn stone(&self, p: Pos) -> Option<Color> {
        match self.cells[p.idx()] {
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => None,
        }
    }
    /// Whether the board has no empty point left.
    pub fn is_full(&self) -> bool {
        self.stone_count() == self.size * self.size
    }
    /// Every point of the board, row by row.
    pub fn points(&self) -> impl Iterator<Item = Pos> {
        let n = self.size;
        (0..n).flat_map(move |r| (0..n).map(move |c| Pos::new(r, c)))
    }
    /// The bitboard of `color`'s stones.
    pub fn stones(&self, color: Color) -> &Bits {
        &self.stones[color.idx()]
    }
    /// Empty points within two steps (Chebyshev distance) of a stone.
    #[inline]
    pub fn candidates(&self) -> BitIter {
        let occ: Bits = [0, 1, 2, 3].map(|w| self.stones[0][w] | self.stones[1][w]);
        let near = dilate2(&occ);
        BitIter::new([0, 1, 2, 3].map(|w| near[w] & !occ[w] & self.playable[w]))
    }
    /// The pattern a stone of `color` at empty `p` makes along direction `d`.
    pub fn pattern(&self, p: Pos, color: Color, d: usize) -> Pattern {
        Pattern::from_u8(((self.quads[color.idx()][p.idx()] >> (3 * d)) & 7) as u8)
    }
    /// The combo a stone of `color` at empty `p` makes.
    #[inline]
    pub fn combo(&self, p: Pos, color: Color) -> Combo {
        self.tables.combo[self.quads[color.idx()][p.idx()] as usize]
    }
    /// The evaluation value of empty `p` for `color`.
    #[inline]
    pub fn point_value(&self, p: Pos, color: Color) -> i32 {
        self.tables.value[self.quads[color.idx()][p.idx()] as usize]
    }
    /// How many empty points give `color` the combo `combo`.
    #[inline]
    pub fn combo_count(&self, color: Color, combo: Combo) -> u16 {
        self.counts[color.idx()][combo as usize]
    }
    /// How many empty points give `color` at least the combo `combo`.
    pub fn combo_count_at_least(&self, color: Color, combo: Combo) -> u16 {
        self.counts[color.idx()][combo as usize..].iter().sum()
    }
    /// The learned per-point features and evaluation sums (see `crate::eval::features`).
    #[inline]
    pub fn learned(&self) -> &LearnedState {
        debug_assert_eq!(self.lite, 0, "learned features read on top of a lite move");
        &self.learned
    }
    /// The learned feature of a stone of `color` at empty `p`.
    #[inline]
    pub fn feature(&self, p: Pos, color: Color) -> usize {
        self.learned().feature(p.idx(), color.idx())
    }
    /// Whether a stone of `color` at empty `p` makes five or more.
    #[inline]
    pub fn makes_five(&self, p: Pos, color: Color) -> bool {
        self.combo(p, color) == Combo::Five
    }
    /// The points up to four steps either way of `p` on each of its four lines
    /// (`bits::line_neighbours`: steps -4..-1, then 1..4; `bits::NO_POINT` off the board).
    #[inline]
    pub fn line_neighbours(&self, p: Pos) -> &[[u8; 8]; 4] {
        &self.neighbours[p.idx()]
    }

    pub(super) fn compute_key(&self) -> u64 {
        let stones = self.points().filter_map(|p| self.stone(p).map(|c| ZOBRIST[c.idx()][p.idx()]));
        let side = if self.side == Color::White { ZOBRIST_WHITE } else { 0 };
        stones.fold(side, |key, z| key ^ z)
    }
}
