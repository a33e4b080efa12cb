//! Bit-level helpers of the board: 256-point bitboards (a 16-wide grid), their iteration and
//! dilation, and the Zobrist keys.

/// Row stride of the point grid.
pub const STRIDE: usize = 16;
/// Points in the grid.
pub const NUM_POINTS: usize = STRIDE * STRIDE;
/// A point on the board: `row * 16 + col`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Pos(pub u8);

impl Pos {
    /// The point at `row`, `col` (both below 16).
    pub fn new(row: usize, col: usize) -> Pos {
        debug_assert!(row < STRIDE && col < STRIDE);
        Pos((row * STRIDE + col) as u8)
    }
    /// Row, from 0 at the top.
    pub fn row(self) -> usize {
        self.0 as usize / STRIDE
    }
    /// Column, from 0 at the left.
    pub fn col(self) -> usize {
        self.0 as usize % STRIDE
    }
    /// Grid index.
    pub fn idx(self) -> usize {
        self.0 as usize
    }
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{}", self.row(), self.col())
    }
}

/// A missing neighbour in [`line_neighbours`]: off the board.
pub const NO_POINT: u8 = 255;

/// `table[p][line][slot]`: the points up to four steps either way of each point of a
/// `size`×`size` board on its four lines (horizontal, vertical, diagonal, anti-diagonal),
/// nearest last before the point and first after it (steps -4..-1, then 1..4), or
/// [`NO_POINT`] off the board.
pub fn line_neighbours(size: usize) -> Box<[[[u8; 8]; 4]; NUM_POINTS]> {
    const DIRS: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
    let mut table = Box::new([[[NO_POINT; 8]; 4]; NUM_POINTS]);
    let on = |x: i32| (0..size as i32).contains(&x);
    for r in 0..size as i32 {
        for c in 0..size as i32 {
            for (d, &(dr, dc)) in DIRS.iter().enumerate() {
                for (slot, k) in [-4, -3, -2, -1, 1, 2, 3, 4].into_iter().enumerate() {
                    let (rr, cc) = (r + dr * k, c + dc * k);
                    if on(rr) && on(cc) {
                        let p = Pos::new(r as usize, c as usize).idx();
                        table[p][d][slot] = Pos::new(rr as usize, cc as usize).0;
                    }
                }
            }
        }
    }
    table
}

/// One step of the SplitMix64 generator: the next state and its output (the Zobrist keys,
/// and the tools' and the tree sampler's random numbers: the crate has no dependencies).
pub const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn zobrist_table() -> [[u64; NUM_POINTS]; 2] {
    let mut table = [[0u64; NUM_POINTS]; 2];
    let mut state = 0x5755_5A49_u64; // "WUZI"
    let mut side = 0;
    while side < 2 {
        let mut p = 0;
        while p < NUM_POINTS {
            let (s, z) = splitmix(state);
            state = s;
            table[side][p] = z;
            p += 1;
        }
        side += 1;
    }
    table
}

/// Zobrist keys of a stone of each side on each point.
pub static ZOBRIST: [[u64; NUM_POINTS]; 2] = zobrist_table();
/// Zobrist key of white to move.
pub const ZOBRIST_WHITE: u64 = 0xA5A5_5A5A_C3C3_3C3C;

/// A bitboard over the 256-point grid.
pub type Bits = [u64; 4];

/// Columns 0 and 1, and 14 and 15, of every row: what a shift along a row must not carry
/// into the next row.
const COL_0: u64 = 0x0001_0001_0001_0001;
const COL_15: u64 = COL_0 << 15;

#[inline]
fn shl(x: &Bits, n: u32) -> Bits {
    [
        x[0] << n,
        (x[1] << n) | (x[0] >> (64 - n)),
        (x[2] << n) | (x[1] >> (64 - n)),
        (x[3] << n) | (x[2] >> (64 - n)),
    ]
}

#[inline]
fn shr(x: &Bits, n: u32) -> Bits {
    [
        (x[0] >> n) | (x[1] << (64 - n)),
        (x[1] >> n) | (x[2] << (64 - n)),
        (x[2] >> n) | (x[3] << (64 - n)),
        x[3] >> n,
    ]
}

/// The points within Chebyshev distance 2 of a set point (the set points included).
#[inline]
pub fn dilate2(x: &Bits) -> Bits {
    // Along the rows: one and two columns each way, never wrapping into the next row.
    let not_c0 = !COL_0;
    let not_c01 = !(COL_0 | (COL_0 << 1));
    let not_c15 = !COL_15;
    let not_c1415 = !(COL_15 | (COL_15 >> 1));
    let mut h = [0u64; 4];
    for w in 0..4 {
        let v = x[w];
        h[w] = v;
        h[w] |= (v << 1) & not_c0;
        h[w] |= (v << 2) & not_c01;
        h[w] |= (v >> 1) & not_c15;
        h[w] |= (v >> 2) & not_c1415;
    }
    // A word holds four whole rows, so no in-row shift needs a carry between words. Then up
    // and down by one and two rows (16 and 32 grid points).
    let (u1, u2, d1, d2) = (shl(&h, 16), shl(&h, 32), shr(&h, 16), shr(&h, 32));
    [0, 1, 2, 3].map(|w| h[w] | u1[w] | u2[w] | d1[w] | d2[w])
}

/// Iterates the set points of a bitboard, lowest first.
pub struct BitIter {
    bits: Bits,
    word: usize,
}

impl BitIter {
    /// Iterates the set points of `bits`.
    pub fn new(bits: Bits) -> BitIter {
        BitIter { bits, word: 0 }
    }
}

impl Iterator for BitIter {
    type Item = Pos;
    #[inline]
    fn next(&mut self) -> Option<Pos> {
        while self.word < 4 {
            let w = self.bits[self.word];
            if w != 0 {
                self.bits[self.word] = w & (w - 1);
                return Some(Pos((self.word * 64 + w.trailing_zeros() as usize) as u8));
            }
            self.word += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_iterate_in_order_and_dilate_within_rows() {
        let mut x: Bits = [0; 4];
        for p in [0usize, 15, 16, 200] {
            x[p >> 6] |= 1 << (p & 63);
        }
        let got: Vec<u8> = BitIter::new(x).map(|p| p.0).collect();
        assert_eq!(got, vec![0, 15, 16, 200]);
        // Column 15 never spills into the next row's column 0 or 1.
        let mut y: Bits = [0; 4];
        y[0] |= 1 << 15;
        let d = dilate2(&y);
        let has = |p: usize| d[p >> 6] & (1 << (p & 63)) != 0;
        assert!(has(13) && has(31) && has(47), "within two steps of (0,15)");
        assert!(!has(16) && !has(17) && !has(12), "no wrap into the next row, nothing farther");
    }
}
