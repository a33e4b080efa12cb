//! Line patterns: what a stone on an empty point makes along one line, and what the four
//! lines through a point make together.
//!
//! A point's *line code* packs the eight cells around it on one line (four each side) at two
//! bits a cell: 0 empty, 1 black, 2 white, 3 wall (off the board). The shapes below, written
//! as readable strings, turn every line code into a [`Pattern`] for each side; the four
//! patterns of a point then map to a [`Combo`] and a point value. All tables are filled once
//! at start-up (see [`tables`]), in a few milliseconds.

use crate::core::once::OnceValue;

/// What one stone makes along one line, weakest first. Overlines count as five (freestyle).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Pattern {
    /// Nothing that can grow into a five here.
    None = 0,
    /// Two stones in a five-window with three empties, not open.
    Two = 1,
    /// A two that one more stone turns into an open three.
    OpenTwo = 2,
    /// Three stones in a five-window with two empties: one more stone makes a four.
    Three = 3,
    /// One more stone makes an open four.
    OpenThree = 4,
    /// One point left to make five.
    Four = 5,
    /// Two or more points that make five: cannot be stopped by one stone.
    OpenFour = 6,
    /// Five or more in a row.
    Five = 7,
}

impl Pattern {
    /// All patterns, weakest first.
    pub const ALL: [Pattern; 8] = [
        Pattern::None,
        Pattern::Two,
        Pattern::OpenTwo,
        Pattern::Three,
        Pattern::OpenThree,
        Pattern::Four,
        Pattern::OpenFour,
        Pattern::Five,
    ];

    /// The pattern with this numeric value (values above 7 saturate to `Five`).
    pub fn from_u8(v: u8) -> Pattern {
        Pattern::ALL[(v as usize).min(7)]
    }
}

/// The shapes, strongest class first. `X` is a stone of the side (the new stone must stand on
/// one of them), `_` an empty point; the cells outside a shape do not matter. A line gets the
/// class of the strongest shape that matches it.
pub const SHAPES: [(Pattern, &[&str]); 7] = [
    (Pattern::Five, &["XXXXX"]),
    // Two different points make five.
    (Pattern::OpenFour, &["_XXXX_", "X_XXX_X", "XX_XX_XX", "XXX_X_XXX"]),
    // One point makes five.
    (Pattern::Four, &["XXXX_", "XXX_X", "XX_XX", "X_XXX", "_XXXX"]),
    // One more stone makes an open four. The last two are a four-in-waiting on both sides.
    (
        Pattern::OpenThree,
        &[
            "_XXX__", "__XXX_", "_XX_X_", "_X_XX_", "X_XX__X", "X__XX_X", "XX_X__XX", "XX__X_XX",
            "X_X_X_X",
        ],
    ),
    // One more stone makes a four.
    (
        Pattern::Three,
        &["XXX__", "XX_X_", "XX__X", "X_XX_", "X_X_X", "X__XX", "_XXX_", "_XX_X", "_X_XX", "__XXX"],
    ),
    // One more stone makes an open three.
    (
        Pattern::OpenTwo,
        &[
            "_XX___", "__XX__", "___XX_", "_X_X__", "__X_X_", "_X__X_", "X__X__X", "X_X___X",
            "X___X_X",
        ],
    ),
    // One more stone makes a three.
    (
        Pattern::Two,
        &["XX___", "X_X__", "X__X_", "X___X", "_XX__", "_X_X_", "_X__X", "__XX_", "__X_X", "___XX"],
    ),
];

/// The strongest combination of a point's four line patterns, for one side. Ordered weakest
/// first; the numeric value indexes [`crate::board::Board::combo_count`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Combo {
    /// No two or better.
    None = 0,
    /// One or more twos.
    Two = 1,
    /// Two or more open twos in different lines.
    TwoTwo = 2,
    /// A closed three.
    Three = 3,
    /// An open three.
    OpenThree = 4,
    /// Open threes in two lines: wins unless the opponent has fours.
    ThreeThree = 5,
    /// A four.
    Four = 6,
    /// A four and an open three in another line: wins unless the opponent has fours.
    FourThree = 7,
    /// An open four, or fours in two lines: wins unless the opponent makes five at once.
    FlexFour = 8,
    /// Five in a row.
    Five = 9,
}

/// Number of [`Combo`] values.
pub const NUM_COMBOS: usize = 10;

impl Combo {
    /// All combos, weakest first.
    pub const ALL: [Combo; NUM_COMBOS] = [
        Combo::None,
        Combo::Two,
        Combo::TwoTwo,
        Combo::Three,
        Combo::OpenThree,
        Combo::ThreeThree,
        Combo::Four,
        Combo::FourThree,
        Combo::FlexFour,
        Combo::Five,
    ];
}

/// Number of line codes: 8 cells of 2 bits.
pub const NUM_CODES: usize = 1 << 16;
/// Number of packed pattern quadruples: 4 lines of 3 bits.
pub const NUM_QUADS: usize = 1 << 12;

/// The start-up tables.
pub struct Tables {
    /// `line[side][code]`: the pattern a stone of `side` (0 black, 1 white) makes on a point
    /// whose line code is `code`.
    pub line: [Box<[u8]>; 2],
    /// `combo[quad]`: the combo of four packed patterns (3 bits a line).
    pub combo: Box<[Combo]>,
    /// `value[quad]`: the evaluation value of four packed patterns (see `crate::core::params`).
    pub value: Box<[i32]>,
}

/// The tables, built on first use.
pub fn tables() -> &'static Tables {
    static TABLES: OnceValue<Tables> = OnceValue::new();
    TABLES.get_or_init(build_tables)
}

/// Cells of a 9-cell line as seen by one side: the new stone stands in cell 4.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Bit i set: cell i holds a stone of the side.
    pub own: u16,
    /// Bit i set: cell i is empty.
    pub empty: u16,
}

impl Line {
    /// The line a stone of `side` sees on a point with line code `code`.
    pub fn from_code(code: u16, side: usize) -> Line {
        let mine = side as u16 + 1;
        let mut line = Line { own: 1 << 4, empty: 0 };
        for slot in 0..8 {
            let cell = (code >> (2 * slot)) & 3;
            let bit = if slot < 4 { slot } else { slot + 1 };
            if cell == 0 {
                line.empty |= 1 << bit;
            } else if cell == mine {
                line.own |= 1 << bit;
            }
        }
        line
    }

    /// The line of base-3 index `t` (see [`ternary_index`]).
    pub fn from_ternary(t: usize) -> Line {
        let mut line = Line { own: 1 << 4, empty: 0 };
        let mut rest = t;
        for cell in 0..8 {
            let bit = if cell < 4 { cell } else { cell + 1 };
            match rest % 3 {
                0 => line.empty |= 1 << bit,
                1 => line.own |= 1 << bit,
                _ => {}
            }
            rest /= 3;
        }
        line
    }

    /// Whether `shape` (a string of `X` and `_`) matches with the new stone on one of its
    /// `X` cells, anywhere along the line.
    pub fn matches_anywhere(self, shape: &str) -> bool {
        let bytes = shape.as_bytes();
        let len = bytes.len() as i32;
        (4 - len + 1..=4).any(|start| self.matches(bytes, start))
    }

    /// Whether `shape` matches with its first cell at line cell `start` (may be negative).
    fn matches(self, shape: &[u8], start: i32) -> bool {
        let mut covers_new_stone = false;
        for (i, &ch) in shape.iter().enumerate() {
            let cell = start + i as i32;
            if !(0..9).contains(&cell) {
                return false;
            }
            let bit = 1u16 << cell;
            let ok = match ch {
                b'X' => self.own & bit != 0,
                _ => self.empty & bit != 0,
            };
            if !ok {
                return false;
            }
            covers_new_stone |= cell == 4 && ch == b'X';
        }
        covers_new_stone
    }

    /// The pattern of this line by the shape strings.
    pub fn classify(self) -> Pattern {
        for (pattern, shapes) in SHAPES.iter() {
            if shapes.iter().any(|shape| self.matches_anywhere(shape)) {
                return *pattern;
            }
        }
        Pattern::None
    }
}

/// Number of (own, empty, other) configurations of a point's eight neighbours on a line.
pub const NUM_TERNARY: usize = 6561;

/// The base-3 index of line code `code` seen by `side` (0 black, 1 white): digit 0 empty, 1
/// own stone, 2 the opponent's stone or a wall, neighbour 0 the least significant digit.
/// Tables are classified once per ternary index, then spread over the 65,536 codes.
pub fn ternary_index(code: u16, side: usize) -> usize {
    let mine = side as u16 + 1;
    let mut t = 0usize;
    for slot in (0..8).rev() {
        let cell = (code >> (2 * slot)) & 3;
        let digit = if cell == 0 {
            0
        } else if cell == mine {
            1
        } else {
            2
        };
        t = t * 3 + digit;
    }
    t
}

/// `LINE_STEP[side][k]`: what a stone of `side` (0 black, 1 white) in neighbour `k` adds to
/// a point's pair of [`ternary_index`]es of one line, as the board keeps them (black's view
/// in the low 16 bits, white's in the high): digit 1 for the stone's own side, 2 for the other.
pub const LINE_STEP: [[u32; 8]; 2] = {
    let mut step = [[0; 8]; 2];
    let mut k = 0;
    while k < 8 {
        let unit = 3u32.pow(k as u32);
        step[0][k] = unit | ((2 * unit) << 16);
        step[1][k] = (2 * unit) | (unit << 16);
        k += 1;
    }
    step
};

/// The combo of four line patterns.
pub fn combo_of(pats: [Pattern; 4]) -> Combo {
    let count = |p: Pattern| pats.iter().filter(|&&q| q == p).count();
    let at_least = |p: Pattern| pats.iter().filter(|&&q| q >= p).count();
    if count(Pattern::Five) > 0 {
        Combo::Five
    } else if count(Pattern::OpenFour) > 0 || count(Pattern::Four) >= 2 {
        Combo::FlexFour
    } else if count(Pattern::Four) == 1 {
        if count(Pattern::OpenThree) > 0 {
            Combo::FourThree
        } else {
            Combo::Four
        }
    } else if count(Pattern::OpenThree) >= 2 {
        Combo::ThreeThree
    } else if count(Pattern::OpenThree) == 1 {
        Combo::OpenThree
    } else if count(Pattern::Three) > 0 {
        Combo::Three
    } else if at_least(Pattern::OpenTwo) >= 2 {
        Combo::TwoTwo
    } else if at_least(Pattern::Two) > 0 {
        Combo::Two
    } else {
        Combo::None
    }
}

/// The value of a point for one side: what a stone there would make (used to order threat
/// moves; the evaluation itself is learned, see `crate::eval::features`).
pub fn point_value(pats: [Pattern; 4], combo: Combo) -> i32 {
    use crate::core::params::{COMBO_BONUS, LINE_VALUE};
    pats.iter().map(|&p| LINE_VALUE[p as usize]).sum::<i32>() + COMBO_BONUS[combo as usize]
}

/// Unpacks a quadruple index into its four patterns.
pub fn unpack(quad: usize) -> [Pattern; 4] {
    [0, 1, 2, 3].map(|d| Pattern::from_u8(((quad >> (3 * d)) & 7) as u8))
}

fn build_tables() -> Tables {
    // Classify each (own, empty) configuration of the eight neighbours once: 3^8 of them.
    let by_ternary: Vec<Pattern> =
        (0..NUM_TERNARY).map(|t| Line::from_ternary(t).classify()).collect();
    let mut line =
        [vec![0u8; NUM_CODES].into_boxed_slice(), vec![0u8; NUM_CODES].into_boxed_slice()];
    for (side, table) in line.iter_mut().enumerate() {
        for (code, entry) in table.iter_mut().enumerate() {
            *entry = by_ternary[ternary_index(code as u16, side)] as u8;
        }
    }
    let mut combo = vec![Combo::None; NUM_QUADS].into_boxed_slice();
    let mut value = vec![0i32; NUM_QUADS].into_boxed_slice();
    for quad in 0..NUM_QUADS {
        let pats = unpack(quad);
        combo[quad] = combo_of(pats);
        value[quad] = point_value(pats, combo[quad]);
    }
    Tables { line, combo, value }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The points that make five with the new stone, by brute force.
    fn five_points(l: Line) -> u16 {
        let mut points = 0;
        for start in 0..=4 {
            let window = 0b11111u16 << start;
            let missing = window & !l.own;
            if missing.count_ones() == 1 && missing & l.empty != 0 {
                points |= missing;
            }
        }
        points
    }

    /// The pattern by its definition: what the best next stone makes.
    fn by_definition(l: Line) -> Pattern {
        if (0..=4).any(|s| (0b11111u16 << s) & !l.own == 0) {
            return Pattern::Five;
        }
        match five_points(l).count_ones() {
            0 => {}
            1 => return Pattern::Four,
            _ => return Pattern::OpenFour,
        }
        let next = |l: Line| {
            (0..9).filter(move |b| l.empty & (1 << b) != 0).map(move |b| {
                by_definition(Line { own: l.own | 1 << b, empty: l.empty & !(1 << b) })
            })
        };
        let best = next(l).max().unwrap_or(Pattern::None);
        match best {
            Pattern::OpenFour => Pattern::OpenThree,
            Pattern::Four => Pattern::Three,
            Pattern::OpenThree => Pattern::OpenTwo,
            Pattern::Three => Pattern::Two,
            _ => Pattern::None,
        }
    }

    #[test]
    fn shapes_agree_with_the_definition_on_every_line() {
        let mut wrong = Vec::new();
        for t in 0..6561usize {
            let mut l = Line { own: 1 << 4, empty: 0 };
            let mut rest = t;
            for cell in 0..8 {
                let bit = if cell < 4 { cell } else { cell + 1 };
                match rest % 3 {
                    0 => l.empty |= 1 << bit,
                    1 => l.own |= 1 << bit,
                    _ => {}
                }
                rest /= 3;
            }
            let (got, want) = (l.classify(), by_definition(l));
            if got != want {
                let s: String = (0..9)
                    .map(|b| {
                        if l.own & (1 << b) != 0 {
                            'X'
                        } else if l.empty & (1 << b) != 0 {
                            '_'
                        } else {
                            'O'
                        }
                    })
                    .collect();
                wrong.push(format!("{s}: shapes {got:?}, definition {want:?}"));
            }
        }
        assert!(wrong.is_empty(), "{} lines disagree:\n{}", wrong.len(), wrong.join("\n"));
    }

    #[test]
    fn line_codes_map_to_patterns_for_both_sides() {
        let t = tables();
        // Black stones at -3..-1 and +1 (slots 1,2,3,4), empty elsewhere: XXX?X is five.
        let code: u16 = (1 << 2) | (1 << 4) | (1 << 6) | (1 << 8);
        assert_eq!(t.line[0][code as usize], Pattern::Five as u8);
        assert_eq!(t.line[1][code as usize], Pattern::None as u8);
        // The same with white stones.
        assert_eq!(t.line[1][(code * 2) as usize], Pattern::Five as u8);
        // Walls on both sides, all empty: nothing.
        let walls: u16 = 0xffff;
        assert_eq!(t.line[0][walls as usize], Pattern::None as u8);
    }

    #[test]
    fn a_stone_adds_its_line_step_to_both_sides_indices() {
        let pair =
            |code: u16| ternary_index(code, 0) as u32 | (ternary_index(code, 1) as u32) << 16;
        for code in 0..=u16::MAX {
            for k in (0..8).filter(|k| (code >> (2 * k)) & 3 == 0) {
                for (side, steps) in LINE_STEP.iter().enumerate() {
                    let with = code | ((side as u16 + 1) << (2 * k));
                    assert_eq!(pair(with), pair(code) + steps[k], "code {code:#06x} cell {k}");
                }
            }
        }
    }

    #[test]
    fn combos_of_typical_points() {
        use Pattern as P;
        assert_eq!(combo_of([P::Four, P::Four, P::None, P::None]), Combo::FlexFour);
        assert_eq!(combo_of([P::Four, P::OpenThree, P::None, P::None]), Combo::FourThree);
        assert_eq!(combo_of([P::OpenThree, P::None, P::OpenThree, P::Two]), Combo::ThreeThree);
        assert_eq!(combo_of([P::Two, P::None, P::None, P::None]), Combo::Two);
        assert_eq!(combo_of([P::None; 4]), Combo::None);
    }
}
