//! Property tests of the incremental board over random legal games on every size: after
//! every make and every unmake the incremental state equals a rebuild from the stones, five
//! detection agrees with a brute-force scan, and unmake restores the exact previous state.
//! Lite moves (the threat solver's, which leave the learned features alone) keep every other
//! part equal to a rebuild, and their unmakes restore the exact state too.

use proptest::prelude::*;
use wuzi::board::{Board, Color, Pos, StartPos};
use wuzi::core::pattern::Combo;

/// Everything observable about a board, to compare before a make and after its unmake.
#[derive(Debug, PartialEq)]
struct Snapshot {
    key: u64,
    side: Color,
    sums: [[i32; 2]; 2],
    counts: Vec<u16>,
    stones: Vec<Option<Color>>,
    points: Vec<(Combo, Combo, [u8; 8], [usize; 2])>,
}

fn snapshot(b: &Board) -> Snapshot {
    let colors = [Color::Black, Color::White];
    Snapshot {
        key: b.key(),
        side: b.side_to_move(),
        sums: [0, 1].map(|s| [0, 1].map(|r| b.learned().sum(s, r))),
        counts: colors
            .iter()
            .flat_map(|&c| Combo::ALL.iter().map(move |&k| b.combo_count(c, k)))
            .collect(),
        stones: b.points().map(|p| b.stone(p)).collect(),
        points: b
            .points()
            .filter(|&p| b.is_empty(p))
            .map(|p| {
                let mut pats = [0u8; 8];
                for d in 0..4 {
                    pats[d] = b.pattern(p, Color::Black, d) as u8;
                    pats[4 + d] = b.pattern(p, Color::White, d) as u8;
                }
                let features = [b.feature(p, Color::Black), b.feature(p, Color::White)];
                (b.combo(p, Color::Black), b.combo(p, Color::White), pats, features)
            })
            .collect(),
    }
}

/// Whether `color` has five or more in a row anywhere, by scanning every line.
fn brute_five(b: &Board, color: Color) -> bool {
    let n = b.size() as i32;
    let at = |r: i32, c: i32| {
        r >= 0
            && c >= 0
            && r < n
            && c < n
            && b.stone(Pos::new(r as usize, c as usize)) == Some(color)
    };
    (0..n).any(|r| {
        (0..n).any(|c| {
            [(0, 1), (1, 0), (1, 1), (1, -1)]
                .iter()
                .any(|&(dr, dc)| (0..5).all(|k| at(r + k * dr, c + k * dc)))
        })
    })
}

/// One step of a random game: a move (as an index into the empty points), an unmake, or a
/// few lite moves made and then unmade, as the threat solver plays them.
#[derive(Clone, Debug)]
enum Step {
    Make(usize),
    Unmake,
    Lite(Vec<usize>),
}

fn steps() -> impl Strategy<Value = Vec<Step>> {
    prop::collection::vec(
        prop_oneof![
            4 => any::<usize>().prop_map(Step::Make),
            1 => Just(Step::Unmake),
            1 => prop::collection::vec(any::<usize>(), 1..8).prop_map(Step::Lite),
        ],
        1..80,
    )
}

/// The empty point that index `i` picks, if any.
fn pick(b: &Board, i: usize) -> Option<Pos> {
    let empties: Vec<Pos> = b.points().filter(|&p| b.is_empty(p)).collect();
    (!empties.is_empty()).then(|| empties[i % empties.len()])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn incremental_state_matches_a_rebuild(size in 5usize..=15, game in steps()) {
        let mut b = Board::new(size);
        let mut before: Vec<Snapshot> = Vec::new();
        for step in game {
            match step {
                Step::Make(i) => {
                    let Some(p) = pick(&b, i) else { continue };
                    let me = b.side_to_move();
                    // Five detection: the pattern tables against a brute-force scan.
                    let had_five = brute_five(&b, me);
                    let predicted = b.makes_five(p, me);
                    before.push(snapshot(&b));
                    b.make(p);
                    prop_assert_eq!(predicted || had_five, brute_five(&b, me));
                    prop_assert_eq!(b.five_at(p), predicted);
                }
                Step::Unmake => {
                    if let Some(snap) = before.pop() {
                        b.unmake();
                        prop_assert_eq!(snapshot(&b), snap);
                    }
                }
                Step::Lite(picks) => {
                    let snap = snapshot(&b);
                    let mut made = 0;
                    for i in picks {
                        let Some(p) = pick(&b, i) else { break };
                        let me = b.side_to_move();
                        let predicted = b.makes_five(p, me);
                        b.make_lite(p);
                        made += 1;
                        prop_assert_eq!(b.five_at(p), predicted);
                        for c in [Color::Black, Color::White] {
                            let mut found: Vec<Pos> = b.five_points(c).collect();
                            found.sort();
                            let all = b.points().filter(|&q| b.is_empty(q) && b.makes_five(q, c));
                            prop_assert_eq!(found, all.collect::<Vec<Pos>>());
                        }
                        if let Err(why) = b.verify() {
                            prop_assert!(false, "a lite move's state differs from a rebuild: {}", why);
                        }
                    }
                    for _ in 0..made {
                        b.unmake_lite();
                    }
                    prop_assert_eq!(snapshot(&b), snap);
                }
            }
            if let Err(why) = b.verify() {
                prop_assert!(false, "incremental state differs from a rebuild: {}", why);
            }
        }
    }
}

// Examples: the start position, a short game made and unmade, five detection, candidates.

#[test]
fn start_position_has_the_judge_stones() {
    let b = Board::with_start(12, StartPos::Center4);
    assert_eq!(b.stone(Pos::new(5, 5)), Some(Color::White));
    assert_eq!(b.stone(Pos::new(6, 6)), Some(Color::White));
    assert_eq!(b.stone(Pos::new(5, 6)), Some(Color::Black));
    assert_eq!(b.stone(Pos::new(6, 5)), Some(Color::Black));
    assert_eq!(b.side_to_move(), Color::Black);
    assert_eq!(b.stone_count(), 4);
    b.verify().unwrap();
}

#[test]
fn make_and_unmake_restore_everything() {
    let mut b = Board::with_start(12, StartPos::Center4);
    let sums = |b: &Board| [0, 1].map(|s| [0, 1].map(|r| b.learned().sum(s, r)));
    let before = (b.key(), sums(&b));
    for (r, c) in [(4, 7), (7, 4), (3, 8), (0, 0), (11, 11)] {
        b.make(Pos::new(r, c));
        b.verify().unwrap();
    }
    for _ in 0..5 {
        b.unmake();
        b.verify().unwrap();
    }
    assert_eq!(before, (b.key(), sums(&b)));
}

#[test]
fn five_points_and_five_detection() {
    let mut b = Board::new(12);
    for c in 0..4 {
        b.put(Pos::new(0, c), Color::Black);
    }
    assert!(b.makes_five(Pos::new(0, 4), Color::Black));
    assert!(!b.makes_five(Pos::new(0, 4), Color::White));
    assert_eq!(b.five_points(Color::Black).collect::<Vec<_>>(), vec![Pos::new(0, 4)]);
    assert_eq!(b.combo_count(Color::Black, Combo::Five), 1);
    b.put(Pos::new(0, 4), Color::Black);
    assert!(b.last_move_won());
    b.verify().unwrap();
}

#[test]
fn candidates_are_the_empty_points_near_stones() {
    let mut b = Board::new(15);
    for (r, c) in [(0, 0), (7, 14), (14, 3), (3, 7), (4, 13), (8, 1)] {
        b.put(Pos::new(r, c), Color::Black);
    }
    let got: Vec<Pos> = b.candidates().collect();
    let want: Vec<Pos> = b
        .points()
        .filter(|&p| b.is_empty(p))
        .filter(|&p| {
            b.points().any(|q| {
                b.stone(q).is_some()
                    && p.row().abs_diff(q.row()) <= 2
                    && p.col().abs_diff(q.col()) <= 2
            })
        })
        .collect();
    assert_eq!(got, want);
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "on top of a lite")]
fn a_full_move_on_top_of_a_lite_one_is_refused() {
    // The learned features are stale under a lite move: a full move there would build on them.
    let mut b = Board::with_start(12, StartPos::Center4);
    b.make_lite(Pos::new(4, 7));
    b.make(Pos::new(7, 4));
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "on top of a lite")]
fn the_learned_features_are_not_read_on_top_of_a_lite_move() {
    let mut b = Board::with_start(12, StartPos::Center4);
    b.make_lite(Pos::new(4, 7));
    let _ = wuzi::search::eval::evaluate(&b);
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "a full unmake of a lite move")]
fn a_lite_move_is_not_taken_back_by_a_full_unmake() {
    let mut b = Board::with_start(12, StartPos::Center4);
    b.make_lite(Pos::new(4, 7));
    b.unmake();
}
