//! The opening book for the judge's start: its symmetries, canonical keys, the lookup the
//! engine does before searching, and a walk over the book for statistics and tests.
//!
//! The judge's four start stones (white 5,5 and 6,6, black 5,6 and 6,5) are kept fixed by
//! four symmetries of the 12×12 board: the identity, the reflections in either diagonal and
//! the half turn. A position and its mirror images are one book entry, keyed by the smallest
//! Zobrist key of the four images; the entry's move is stored in the frame of that image and
//! mapped back through the same symmetry (each of the four is its own inverse).

use std::collections::HashSet;

use crate::board::{Board, Color, Pos, StartPos};
use crate::core::bits::{ZOBRIST, ZOBRIST_WHITE};
use crate::search::movegen::{generate, ScoredMove};

/// The only board size the book knows.
pub const BOOK_SIZE: usize = 12;

/// Flag of an entry whose position is proven won for black with the entry's move.
pub const PROVEN: u8 = 1;

/// The four symmetries that keep the judge's start stones in place.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Sym {
    /// (r, c) to (r, c).
    Identity,
    /// (r, c) to (c, r): the reflection in the main diagonal.
    Transpose,
    /// (r, c) to (n-1-c, n-1-r): the reflection in the other diagonal.
    AntiTranspose,
    /// (r, c) to (n-1-r, n-1-c).
    HalfTurn,
}

impl Sym {
    /// All four, the identity first (so that ties keep the position as it is).
    pub const ALL: [Sym; 4] = [Sym::Identity, Sym::Transpose, Sym::AntiTranspose, Sym::HalfTurn];

    /// The image of `p` on a `size` board. Each symmetry is its own inverse.
    pub fn apply(self, p: Pos, size: usize) -> Pos {
        let (r, c, m) = (p.row(), p.col(), size - 1);
        match self {
            Sym::Identity => p,
            Sym::Transpose => Pos::new(c, r),
            Sym::AntiTranspose => Pos::new(m - c, m - r),
            Sym::HalfTurn => Pos::new(m - r, m - c),
        }
    }
}

/// The Zobrist key of the image of `board` under `sym` (stones and side to move).
pub fn key_under(board: &Board, sym: Sym) -> u64 {
    let size = board.size();
    let mut key = 0;
    for p in board.points() {
        if let Some(c) = board.stone(p) {
            key ^= ZOBRIST[c.idx()][sym.apply(p, size).idx()];
        }
    }
    if board.side_to_move() == Color::White {
        key ^= ZOBRIST_WHITE;
    }
    key
}

/// The canonical key of `board` (the smallest key of its four images) and the symmetry that
/// gives it.
pub fn canonical(board: &Board) -> (u64, Sym) {
    let mut best = (key_under(board, Sym::Identity), Sym::Identity);
    for sym in &Sym::ALL[1..] {
        let k = key_under(board, *sym);
        if k < best.0 {
            best = (k, *sym);
        }
    }
    best
}

/// A point as one byte on the book's board: `row * 12 + col`.
pub fn encode(p: Pos) -> u8 {
    (p.row() * BOOK_SIZE + p.col()) as u8
}

/// The point of a byte written by [`encode`]; `None` off the board.
pub fn decode(b: u8) -> Option<Pos> {
    let i = b as usize;
    (i < BOOK_SIZE * BOOK_SIZE).then(|| Pos::new(i / BOOK_SIZE, i % BOOK_SIZE))
}

/// A book entry packed in one word, to keep the generated table small: the canonical key's
/// high 48 bits, the move (encoded, in the canonical frame) in bits 8..16, the flags in
/// bits 0..8. 48 bits of key leave a false hit about once in 10^10 lookups for a book of
/// 10^4 positions, and even then only a move on an empty point is played.
pub type Entry = u64;

/// The key bits of an [`Entry`].
pub const KEY_MASK: u64 = !0xFFFF;

/// Packs an entry.
pub fn pack(key: u64, mv: u8, flags: u8) -> Entry {
    (key & KEY_MASK) | (u64::from(mv) << 8) | u64::from(flags)
}

/// The (key bits, move, flags) of an entry.
pub fn unpack(e: Entry) -> (u64, u8, u8) {
    (e & KEY_MASK, (e >> 8) as u8, e as u8)
}

/// What the book says about a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The move, in the position's own frame; always an empty point of the board.
    pub pos: Pos,
    /// Whether the position is proven won for black with this move.
    pub proven: bool,
}

/// Looks `board` (its side to move) up in `table` (sorted by key). Only a 12×12 board that
/// holds the judge's four start stones can be in the book; a move that is not an empty point
/// of this board (a key collision, a damaged table) is never returned.
pub fn lookup_in(table: &[Entry], board: &Board) -> Option<Hit> {
    if board.size() != BOOK_SIZE || !has_start_stones(board) {
        return None;
    }
    let (key, sym) = canonical(board);
    let i = table.binary_search_by_key(&(key & KEY_MASK), |e| e & KEY_MASK).ok()?;
    let (_, mv, flags) = unpack(table[i]);
    let pos = sym.apply(decode(mv)?, BOOK_SIZE);
    board.is_empty(pos).then_some(Hit { pos, proven: flags & PROVEN != 0 })
}

/// [`lookup_in`] the book compiled into the brain.
pub fn lookup(board: &Board) -> Option<Hit> {
    lookup_in(crate::book::data::BOOK, board)
}

/// Whether the judge's four start stones are on `board`, each of its own colour.
pub fn has_start_stones(board: &Board) -> bool {
    StartPos::Center4.stones(board.size()).iter().all(|&(p, c)| board.stone(p) == Some(c))
}

/// The replies worth following in a walk over the book: what the search would consider.
pub fn replies(board: &Board) -> Vec<Pos> {
    let mut moves: Vec<ScoredMove> = Vec::new();
    generate(board, &mut moves);
    moves.sort_by(|a, b| b.score.cmp(&a.score).then(a.pos.cmp(&b.pos)));
    moves.into_iter().map(|m| m.pos).filter(|&p| board.is_empty(p)).collect()
}

/// Size and shape of a book, from a walk over every position the book reaches from the start.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Entries in the table.
    pub entries: usize,
    /// Entries flagged proven.
    pub proven: usize,
    /// Distinct positions with an entry that the walk reached from the start.
    pub reached: usize,
    /// Longest line from the start to a position with an entry, its book move included, in
    /// plies.
    pub depth: usize,
    /// Whether the start itself is proven won for black.
    pub start_proven: bool,
}

/// Walks `table` from the judge's start over every position the book reaches: from each
/// position, the book's move (whose position needs no entry of its own: the opponent moves
/// there) and every reply the search considers that leads to a position with an entry.
pub fn stats_of(table: &[Entry]) -> Stats {
    let mut stats = Stats {
        entries: table.len(),
        proven: table.iter().filter(|&&e| unpack(e).2 & PROVEN != 0).count(),
        ..Stats::default()
    };
    let mut board = Board::with_start(BOOK_SIZE, StartPos::Center4);
    stats.start_proven = lookup_in(table, &board).map_or(false, |h| h.proven);
    let mut seen = HashSet::new();
    let mut reached = HashSet::new();
    walk(table, &mut board, 0, &mut seen, &mut reached, &mut stats.depth);
    stats.reached = reached.len();
    stats
}

/// The key bits of every entry of `table` that the walk of [`stats_of`] reaches from the
/// judge's start: the rest can never be played from a book line.
pub fn reached_keys(table: &[Entry]) -> HashSet<u64> {
    let mut board = Board::with_start(BOOK_SIZE, StartPos::Center4);
    let (mut seen, mut reached, mut depth) = (HashSet::new(), HashSet::new(), 0);
    walk(table, &mut board, 0, &mut seen, &mut reached, &mut depth);
    reached
}

fn walk(
    table: &[Entry],
    board: &mut Board,
    ply: usize,
    seen: &mut HashSet<u64>,
    reached: &mut HashSet<u64>,
    depth: &mut usize,
) {
    let key = canonical(board).0;
    if board.last_move_won() || board.is_full() || !seen.insert(key) {
        return;
    }
    let hit = lookup_in(table, board);
    if hit.is_some() {
        reached.insert(key & KEY_MASK);
        *depth = (*depth).max(ply + 1);
    }
    let mut moves = replies(board);
    if let Some(h) = hit.filter(|h| !moves.contains(&h.pos)) {
        moves.push(h.pos);
    }
    for p in moves {
        board.make(p);
        if Some(p) == hit.map(|h| h.pos) || lookup_in(table, board).is_some() {
            walk(table, board, ply + 1, seen, reached, depth);
        }
        board.unmake();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start_with(moves: &[(usize, usize)]) -> Board {
        let mut b = Board::with_start(BOOK_SIZE, StartPos::Center4);
        for &(r, c) in moves {
            b.make(Pos::new(r, c));
        }
        b
    }

    #[test]
    fn symmetries_keep_the_start_and_are_involutions() {
        for sym in Sym::ALL {
            for (p, _) in StartPos::Center4.stones(BOOK_SIZE) {
                let image = sym.apply(p, BOOK_SIZE);
                let start = Board::with_start(BOOK_SIZE, StartPos::Center4);
                assert_eq!(start.stone(image), start.stone(p), "{sym:?} moves {p}");
            }
            for i in 0..144u8 {
                let p = decode(i).unwrap();
                assert_eq!(sym.apply(sym.apply(p, BOOK_SIZE), BOOK_SIZE), p);
                assert_eq!(decode(encode(p)), Some(p));
            }
        }
        assert_eq!(decode(144), None);
        // The identity's key is the board's own.
        let b = start_with(&[(4, 7), (7, 4)]);
        assert_eq!(key_under(&b, Sym::Identity), b.key());
    }

    #[test]
    fn mirror_images_share_a_canonical_key() {
        let moves = [(4, 7), (3, 8), (7, 7), (2, 2)];
        let b = start_with(&moves);
        for sym in Sym::ALL {
            let image = mirror(&moves, sym);
            assert_eq!(canonical(&start_with(&image)).0, canonical(&b).0, "{sym:?}");
        }
        // Another position, and the same stones with the other side to move, differ.
        assert_ne!(canonical(&start_with(&[(4, 7), (3, 8), (7, 7), (2, 3)])).0, canonical(&b).0);
        let mut other_side = b.clone();
        other_side.set_side_to_move(Color::White);
        assert_ne!(canonical(&other_side).0, canonical(&b).0);
    }

    /// `moves` mapped through `sym`.
    fn mirror(moves: &[(usize, usize)], sym: Sym) -> Vec<(usize, usize)> {
        moves
            .iter()
            .map(|&(r, c)| {
                let p = sym.apply(Pos::new(r, c), BOOK_SIZE);
                (p.row(), p.col())
            })
            .collect()
    }

    /// A table holding `moves`' position with `reply` (given in the position's own frame).
    fn table_for(moves: &[(usize, usize)], reply: (usize, usize), flags: u8) -> Vec<Entry> {
        let b = start_with(moves);
        let (key, sym) = canonical(&b);
        let mv = encode(sym.apply(Pos::new(reply.0, reply.1), BOOK_SIZE));
        let near = 1 << 16;
        vec![pack(key - near, 0, 0), pack(key, mv, flags), pack(key + near, 0, 0)]
    }

    #[test]
    fn lookup_maps_the_move_back_through_the_symmetry() {
        let moves = [(4, 8), (3, 8)];
        let table = table_for(&moves, (7, 3), PROVEN);
        let hit = lookup_in(&table, &start_with(&moves)).expect("in the book");
        assert_eq!(hit, Hit { pos: Pos::new(7, 3), proven: true });
        // Each mirror image gets the mirrored move.
        for sym in Sym::ALL {
            let image = mirror(&moves, sym);
            let want = sym.apply(Pos::new(7, 3), BOOK_SIZE);
            assert_eq!(lookup_in(&table, &start_with(&image)).map(|h| h.pos), Some(want));
        }
        // Not in the book: one stone more.
        assert_eq!(lookup_in(&table, &start_with(&[(4, 8), (3, 8), (0, 0)])), None);
    }

    #[test]
    fn lookup_never_returns_a_taken_point_or_a_foreign_position() {
        let moves = [(4, 7), (3, 8)];
        // The entry's move is a stone already on the board (as a collision would give).
        let table = table_for(&moves, (4, 7), 0);
        assert_eq!(lookup_in(&table, &start_with(&moves)), None);
        // A move byte off the board.
        let mut bad = table_for(&moves, (7, 4), 0);
        bad[1] = pack(bad[1], 200, 0);
        assert_eq!(lookup_in(&bad, &start_with(&moves)), None);
        // The same stones set up without the judge's start, or on another size.
        let table = table_for(&[], (4, 7), 0);
        assert!(lookup_in(&table, &start_with(&[])).is_some());
        assert_eq!(lookup_in(&table, &Board::new(BOOK_SIZE)), None);
        assert_eq!(lookup_in(&table, &Board::with_start(15, StartPos::Center4)), None);
    }

    #[test]
    fn stats_walk_the_book_from_the_start() {
        let mut table = table_for(&[], (4, 7), PROVEN);
        table.extend(table_for(&[(4, 7), (3, 8)], (7, 4), 0));
        table.sort_unstable();
        let s = stats_of(&table);
        assert_eq!(s.entries, 6);
        assert_eq!(s.proven, 1);
        assert!(s.start_proven);
        // Start (book move), 3,8 (a reply back into the book), then the book's 7,4: 3 plies.
        assert_eq!(s.depth, 3);
        assert_eq!(s.reached, 2);
    }

    #[test]
    fn the_compiled_book_is_sorted_and_every_move_is_on_the_board() {
        let book = crate::book::data::BOOK;
        assert!(book.windows(2).all(|w| w[0] & KEY_MASK < w[1] & KEY_MASK), "sorted, unique");
        assert!(book.iter().all(|&e| decode(unpack(e).1).is_some()));
    }
}
