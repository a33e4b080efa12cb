//! Features of the learned evaluation and move ordering.
//!
//! Each empty point has, for each side, a *line class* on each of its four lines: what a stone
//! of that side there would make, finer than [`crate::core::pattern::Pattern`] (a split two apart
//! from a solid one, a closed three apart from an open one, split or solid, and so on). The
//! four classes of a point, as a sorted multiset, are the point's *feature* for that side:
//! one of [`NUM_FEATURES`]. The learned tables (`crate::eval::weights`) give each feature
//!
//! - two evaluation values: one when the side that owns the feature is to move, one when it
//!   is not (the side to move converts its shapes first, so they are worth more), and
//! - two policy values: as an attack (the mover's own feature at the point) and as a
//!   defence (the opponent's feature at the point),
//!
//! and each pair of *top classes* (the strongest of a feature's four) of the mover and the
//! opponent at one point a policy value of its own: a point that builds and blocks at once
//! is worth more, or less, than the sum of the two (`weights::POLICY_CROSS`).
//!
//! [`LearnedState`] keeps, incrementally, each point's packed classes and each side's sums of
//! evaluation values over the empty points, so the evaluation stays O(1).

use crate::core::once::OnceValue;

use crate::core::pattern::{Line, Pattern, NUM_TERNARY};

/// Number of line classes.
pub const NUM_CLASSES: usize = 12;
/// Number of features: multisets of four line classes, C(12 + 3, 4).
pub const NUM_FEATURES: usize = 1365;
/// Number of policy cross terms: the mover's top class times the opponent's.
pub const NUM_CROSS: usize = NUM_CLASSES * NUM_CLASSES;
/// Points of the board's 16-wide grid (`board::NUM_POINTS`; the board asserts they agree),
/// kept here so that this module does not depend on the board.
pub const GRID_POINTS: usize = 256;
/// Packed classes of a point: 4 bits a line.
const NUM_FQUADS: usize = 1 << 16;

/// The line classes, weakest first, with the [`Pattern`] each refines. `X` is a stone of the
/// side (the new stone stands on one), `_` an empty point; a line takes the first class, in
/// the order of [`CLASS_SHAPES`], whose shape matches, or class 0 (dead: no five fits).
pub const CLASS_NAMES: [(&str, Pattern); NUM_CLASSES] = [
    ("dead", Pattern::None),
    ("one", Pattern::None),
    ("two", Pattern::Two),
    ("open two split", Pattern::OpenTwo),
    ("open two", Pattern::OpenTwo),
    ("three split", Pattern::Three),
    ("three", Pattern::Three),
    ("open three split", Pattern::OpenThree),
    ("open three", Pattern::OpenThree),
    ("four", Pattern::Four),
    ("open four", Pattern::OpenFour),
    ("five", Pattern::Five),
];

/// The shapes of each class, strongest first. Within a [`Pattern`] the shapes are those of
/// `pattern::SHAPES`, split by how the stones stand (solid before split), so that every class
/// refines the pattern the line has.
pub const CLASS_SHAPES: [(u8, &[&str]); 11] = [
    (11, &["XXXXX"]),
    (10, &["_XXXX_", "X_XXX_X", "XX_XX_XX", "XXX_X_XXX"]),
    (9, &["XXXX_", "XXX_X", "XX_XX", "X_XXX", "_XXXX"]),
    (8, &["_XXX__", "__XXX_"]),
    (7, &["_XX_X_", "_X_XX_", "X_XX__X", "X__XX_X", "XX_X__XX", "XX__X_XX", "X_X_X_X"]),
    (6, &["XXX__", "_XXX_", "__XXX"]),
    (5, &["XX_X_", "XX__X", "X_XX_", "X_X_X", "X__XX", "_XX_X", "_X_XX"]),
    (4, &["_XX___", "__XX__", "___XX_"]),
    (3, &["_X_X__", "__X_X_", "_X__X_", "X__X__X", "X_X___X", "X___X_X"]),
    (
        2,
        &["XX___", "X_X__", "X__X_", "X___X", "_XX__", "_X_X_", "_X__X", "__XX_", "__X_X", "___XX"],
    ),
    (1, &["X____", "_X___", "__X__", "___X_", "____X"]),
];

/// The class of a line seen from its new stone.
pub fn classify(line: Line) -> u8 {
    for (class, shapes) in CLASS_SHAPES.iter() {
        if shapes.iter().any(|s| line.matches_anywhere(s)) {
            return *class;
        }
    }
    0
}

/// The start-up tables.
pub struct FeatureTables {
    /// `pattern_class[t]`: for a side whose line has base-3 index `t`
    /// (`pattern::ternary_index`: 0 empty, 1 its stone, 2 the opponent's or a wall), the
    /// line's `pattern::Pattern` in bits 0..3 and its class in bits 3..7, so that the board's
    /// update needs one look-up for both. One table serves both sides, and the 6.5 KB it uses
    /// stay in the first-level cache (the former one by a 16-bit code of both sides' cells was
    /// 128 KB); it has room for any `u16`, so that indexing it needs no bounds check.
    pub pattern_class: Box<[u8; 1 << 16]>,
    /// `feature[fquad]`: the feature of four packed classes (4 bits a line). (A base-12
    /// index, a table of 41 KB, missed the cache less but cost more instructions than it saved.)
    pub feature: Box<[u16; NUM_FQUADS]>,
    /// `classes[feature]`: the four classes of a feature, sorted.
    pub classes: Box<[[u8; 4]]>,
    /// `eval[feature]`: the value when the feature's side is to move, and when it is not.
    pub eval: Box<[[i32; 2]; NUM_FEATURES]>,
    /// `policy[feature]`: the move-ordering value as the mover's own feature, and as the
    /// opponent's.
    pub policy: Box<[[i32; 2]; NUM_FEATURES]>,
    /// `top[feature]`: the feature's strongest class.
    pub top: Box<[u8; NUM_FEATURES]>,
    /// `policy_cross[NUM_CLASSES * mine + theirs]`: the move-ordering value of a point where
    /// the mover's top class is `mine` and the opponent's `theirs`.
    pub policy_cross: Box<[i32; NUM_CROSS]>,
}

impl FeatureTables {
    /// Where the cross term of a point with the mover's feature `own` and the opponent's
    /// `opp` stands in `policy_cross` (and in the trainer's cross weights).
    #[inline]
    pub fn cross_index(&self, own: usize, opp: usize) -> usize {
        self.top[own] as usize * NUM_CLASSES + self.top[opp] as usize
    }

    /// The policy cross term of a point with the mover's feature `own` and the opponent's
    /// `opp`.
    #[inline]
    pub fn cross(&self, own: usize, opp: usize) -> i32 {
        self.policy_cross[self.cross_index(own, opp)]
    }
}

/// The tables, built on first use.
pub fn feature_tables() -> &'static FeatureTables {
    static TABLES: OnceValue<FeatureTables> = OnceValue::new();
    TABLES.get_or_init(build)
}

fn build() -> FeatureTables {
    // Black's view of a line with base-3 index `t` is the line code with the same digits as
    // cells (1 black, 2 white): its pattern is in the pattern tables already.
    let code_of = |t: usize| (0..8).fold(0, |code, k| code | (t / 3usize.pow(k) % 3) << (2 * k));
    let patterns = &crate::core::pattern::tables().line[0];
    let pattern_class = fixed(
        (0..1 << 16)
            .map(|t| match t < NUM_TERNARY {
                true => patterns[code_of(t)] | classify(Line::from_ternary(t)) << 3,
                false => 0,
            })
            .collect(),
    );
    // Number the sorted multisets in lexicographic order.
    let mut classes = Vec::with_capacity(NUM_FEATURES);
    for a in 0..NUM_CLASSES as u8 {
        for b in a..NUM_CLASSES as u8 {
            for c in b..NUM_CLASSES as u8 {
                for d in c..NUM_CLASSES as u8 {
                    classes.push([a, b, c, d]);
                }
            }
        }
    }
    debug_assert_eq!(classes.len(), NUM_FEATURES);
    let mut feature = vec![0u16; NUM_FQUADS].into_boxed_slice();
    for (fquad, slot) in feature.iter_mut().enumerate() {
        let mut four = unpack(fquad as u16);
        if four.iter().any(|&c| c as usize >= NUM_CLASSES) {
            continue;
        }
        four.sort_unstable();
        *slot = classes.binary_search(&four).expect("a sorted multiset") as u16;
    }
    let w = &crate::eval::weights::FEATURE_WEIGHTS;
    let eval = fixed(w.iter().map(|r| [r[0] as i32, r[1] as i32]).collect());
    let policy = fixed(w.iter().map(|r| [r[2] as i32, r[3] as i32]).collect());
    let top = fixed(classes.iter().map(|c| c[3]).collect());
    let policy_cross = fixed(
        crate::eval::weights::POLICY_CROSS
            .iter()
            .flat_map(|r| r.iter().map(|&v| v as i32))
            .collect(),
    );
    FeatureTables {
        pattern_class,
        feature: fixed(feature.into_vec()),
        classes: classes.into_boxed_slice(),
        eval,
        policy,
        top,
        policy_cross,
    }
}

/// A vector of exactly `N` items as a boxed array: indexing it with a `u16` (or by a
/// feature) then needs no bounds check in the board's update loop.
fn fixed<T, const N: usize>(v: Vec<T>) -> Box<[T; N]> {
    match v.into_boxed_slice().try_into() {
        Ok(a) => a,
        Err(_) => panic!("table of the wrong size"),
    }
}

/// The four classes packed in `fquad`, line 0 first.
pub fn unpack(fquad: u16) -> [u8; 4] {
    [0, 1, 2, 3].map(|d| ((fquad >> (4 * d)) & 15) as u8)
}

/// Per-point packed classes of both sides and each side's evaluation sums, kept up to date
/// by the board.
#[derive(Clone)]
pub struct LearnedState {
    fquads: [[u16; GRID_POINTS]; 2],
    /// `features[side][point]`: the feature of the packed classes, cached: the evaluation's
    /// and the ordering's small tables are then one look-up away.
    features: [[u16; GRID_POINTS]; 2],
    /// `sums[side][role]`: the sum over empty points of `eval[feature][role]` for `side`.
    sums: [[i32; 2]; 2],
    tables: &'static FeatureTables,
}

impl Default for LearnedState {
    fn default() -> Self {
        LearnedState::new()
    }
}

impl LearnedState {
    /// All points dead, sums zero.
    pub fn new() -> LearnedState {
        LearnedState {
            fquads: [[0; GRID_POINTS]; 2],
            features: [[0; GRID_POINTS]; 2],
            sums: [[0; 2]; 2],
            tables: feature_tables(),
        }
    }

    /// Zeroes the sums (before a rebuild).
    pub fn clear_sums(&mut self) {
        self.sums = [[0; 2]; 2];
    }

    /// Recomputes point `q`'s classes from each side's base-3 indices of its four lines,
    /// `lines[side][line]` (its sums are not touched).
    pub fn set_point(&mut self, q: usize, lines: [[u16; 4]; 2]) {
        for (s, four) in lines.iter().enumerate() {
            let mut fquad = 0u16;
            for (d, &t) in four.iter().enumerate() {
                fquad |= ((self.tables.pattern_class[t as usize] >> 3) as u16) << (4 * d);
            }
            self.fquads[s][q] = fquad;
            self.features[s][q] = self.tables.feature[fquad as usize];
        }
    }

    /// Point `q`'s packed classes and features, both sides: what a move changes at a point
    /// of its lines, saved so that [`LearnedState::restore_point`] can put it back.
    #[inline]
    pub fn point_state(&self, q: usize) -> [u16; 4] {
        [self.fquads[0][q], self.fquads[1][q], self.features[0][q], self.features[1][q]]
    }

    /// Puts back what [`LearnedState::point_state`] saved at `q` (the sums are restored apart).
    #[inline]
    pub fn restore_point(&mut self, q: usize, saved: [u16; 4]) {
        [self.fquads[0][q], self.fquads[1][q], self.features[0][q], self.features[1][q]] = saved;
    }

    /// The evaluation sums, `[side][role]`, to be put back by [`LearnedState::restore_sums`].
    #[inline]
    pub fn sums_state(&self) -> [[i32; 2]; 2] {
        self.sums
    }

    /// Puts back sums saved by [`LearnedState::sums_state`].
    #[inline]
    pub fn restore_sums(&mut self, sums: [[i32; 2]; 2]) {
        self.sums = sums;
    }

    /// Adds empty point `q`'s values to the sums.
    #[inline]
    pub fn add_point(&mut self, q: usize) {
        for s in 0..2 {
            let e = self.tables.eval[self.features[s][q] as usize];
            self.sums[s][0] += e[0];
            self.sums[s][1] += e[1];
        }
    }

    /// Takes point `q`'s values out of the sums (a stone is placed there).
    #[inline]
    pub fn remove_point(&mut self, q: usize) {
        for s in 0..2 {
            let e = self.tables.eval[self.features[s][q] as usize];
            self.sums[s][0] -= e[0];
            self.sums[s][1] -= e[1];
        }
    }

    /// Adds `delta`, `[side][role]`, to the sums: the changes that [`LearnedState::set_class`]
    /// gathered.
    #[inline]
    pub fn add_to_sums(&mut self, delta: [[i32; 2]; 2]) {
        for (sum, d) in self.sums.iter_mut().zip(delta) {
            sum[0] += d[0];
            sum[1] += d[1];
        }
    }

    /// Empty point `q`'s line `d` has class `class` for side `s` now: updates its classes and
    /// adds the change of side `s`'s sums, `[role]`, to `delta` (for
    /// [`LearnedState::add_to_sums`]). Returns whether the class changed (if not, neither did
    /// the line's pattern, which the class refines).
    #[inline]
    pub fn set_class(
        &mut self,
        q: usize,
        d: usize,
        s: usize,
        class: u8,
        delta: &mut [i32; 2],
    ) -> bool {
        let t = self.tables;
        let old = self.fquads[s][q];
        let new = (old & !(15 << (4 * d))) | ((class as u16) << (4 * d));
        if new == old {
            return false;
        }
        let nf = t.feature[new as usize];
        let o = t.eval[self.features[s][q] as usize];
        let n = t.eval[nf as usize];
        delta[0] += n[0] - o[0];
        delta[1] += n[1] - o[1];
        self.fquads[s][q] = new;
        self.features[s][q] = nf;
        true
    }

    /// The feature of a stone of side `s` (0 black, 1 white) at empty point `q`.
    #[inline]
    pub fn feature(&self, q: usize, s: usize) -> usize {
        self.features[s][q] as usize
    }

    /// The packed classes of side `s` at point `q`.
    pub fn fquad(&self, q: usize, s: usize) -> u16 {
        self.fquads[s][q]
    }

    /// Side `s`'s evaluation sum in `role` (0: `s` is to move, 1: it is not).
    #[inline]
    pub fn sum(&self, s: usize, role: usize) -> i32 {
        self.sums[s][role]
    }

    /// The tables.
    pub fn tables(&self) -> &'static FeatureTables {
        self.tables
    }

    /// Whether both states agree on the empty points `empties` and on the sums.
    pub fn agrees(
        &self,
        other: &LearnedState,
        empties: impl Iterator<Item = usize>,
    ) -> Result<(), String> {
        for q in empties {
            for s in 0..2 {
                if self.fquads[s][q] != other.fquads[s][q] {
                    return Err(format!("feature classes at point {q} differ for side {s}"));
                }
                if self.features[s][q] != other.features[s][q] {
                    return Err(format!("learned features at point {q} differ for side {s}"));
                }
            }
        }
        if self.sums != other.sums {
            return Err(format!("learned sums differ: {:?} vs {:?}", self.sums, other.sums));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_refine_the_patterns_on_every_line() {
        for t in 0..NUM_TERNARY {
            let line = Line::from_ternary(t);
            let class = classify(line) as usize;
            assert_eq!(CLASS_NAMES[class].1, line.classify(), "line {t}: class {class}");
        }
    }

    #[test]
    fn classes_tell_split_and_solid_shapes_apart() {
        // Cells 0..9 with the new stone at 4; `O` is the opponent.
        let line = |s: &str| {
            let mut l = Line { own: 0, empty: 0 };
            for (i, ch) in s.bytes().enumerate() {
                match ch {
                    b'X' => l.own |= 1 << i,
                    b'_' => l.empty |= 1 << i,
                    _ => {}
                }
            }
            l
        };
        let name = |s: &str| CLASS_NAMES[classify(line(s)) as usize].0;
        assert_eq!(name("___XXX___"), "open three");
        assert_eq!(name("__X_XX___"), "open three split");
        assert_eq!(name("O_XXX_O__"), "three");
        assert_eq!(name("___XX____"), "open two");
        assert_eq!(name("__X_X____"), "open two split");
        assert_eq!(name("____X____"), "one");
        assert_eq!(name("OOO_X_OOO"), "dead");
        assert_eq!(name("OXXXX_O__"), "four");
        assert_eq!(name("OXXXXO___"), "dead");
    }

    #[test]
    fn features_number_the_multisets() {
        let t = feature_tables();
        assert_eq!(t.classes.len(), NUM_FEATURES);
        // The same classes in any line order give the same feature.
        let pack = |c: [u16; 4]| c[0] | c[1] << 4 | c[2] << 8 | c[3] << 12;
        let a = t.feature[pack([3, 8, 0, 1]) as usize];
        assert_eq!(a, t.feature[pack([1, 0, 8, 3]) as usize]);
        assert_eq!(t.classes[a as usize], [0, 1, 3, 8]);
        assert_eq!(t.feature[0], 0);
        // The cross term of a point reads the row of the mover's strongest class and the
        // column of the opponent's.
        for (own, opp) in [(a as usize, 0), (0, a as usize), (NUM_FEATURES - 1, a as usize)] {
            let (r, c) = (t.classes[own][3] as usize, t.classes[opp][3] as usize);
            assert_eq!(t.cross(own, opp), crate::eval::weights::POLICY_CROSS[r][c] as i32);
        }
        assert_eq!(t.top[a as usize], 8);
        assert_eq!(t.top[NUM_FEATURES - 1] as usize, NUM_CLASSES - 1);
        // The board reads a side's pattern and class by the line's base-3 index: the same as
        // the pattern table by 16-bit line code, for every code and side.
        for s in 0..2 {
            for code in 0..crate::core::pattern::NUM_CODES {
                let t3 = crate::core::pattern::ternary_index(code as u16, s);
                let both = t.pattern_class[t3];
                assert_eq!(both & 7, crate::core::pattern::tables().line[s][code]);
                assert_eq!(both >> 3, classify(Line::from_code(code as u16, s)));
            }
        }
    }
}
