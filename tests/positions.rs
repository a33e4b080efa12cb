//! Tactical positions drawn as ASCII boards (`X` black, `O` white; black is to move when the
//! counts are equal): the brain's answer under a fixed node budget, and the threat solver's.

use std::sync::atomic::AtomicBool;

use wuzi::board::{Board, Color, Pos, StartPos};
use wuzi::clock::budget::Limits;
use wuzi::clock::timeman::WallClock;
use wuzi::core::params::WIN_BOUND;
use wuzi::core::pattern::Combo;
use wuzi::engine::Engine;
use wuzi::search::searcher::Searcher;
use wuzi::search::threat::Solver;

fn board(text: &str) -> Board {
    Board::from_ascii(text).expect("board")
}

/// The brain's move in `b` with a deterministic budget.
fn brain_move(b: &Board, nodes: u64) -> Pos {
    let stones: Vec<(Pos, Color)> = b.points().filter_map(|p| b.stone(p).map(|c| (p, c))).collect();
    let mut engine = Engine::new(16);
    engine.set_position(b.size(), &stones, b.side_to_move());
    let clock = WallClock::new();
    let d = engine.think(
        b.side_to_move(),
        Limits::nodes(nodes),
        &clock,
        &AtomicBool::new(false),
        &mut |_| {},
    );
    d.pos.expect("a move")
}

fn at(list: &[(usize, usize)]) -> Vec<Pos> {
    list.iter().map(|&(r, c)| Pos::new(r, c)).collect()
}

const WIN_IN_ONE: &str = "
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . O O O O . . . . .
    . . . . . . . . . . . .
    . . . . X X X X . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .";

#[test]
fn win_in_one_beats_blocking() {
    let b = board(WIN_IN_ONE);
    assert_eq!(b.side_to_move(), Color::Black);
    assert!(at(&[(5, 3), (5, 8)]).contains(&brain_move(&b, 10_000)));
}

#[test]
fn forced_block_of_a_four() {
    let b = board(
        "
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . X X X X O . . . .
        . . . . . . . O . . . .
        . . . . . O . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .",
    );
    assert_eq!(b.side_to_move(), Color::White);
    assert_eq!(brain_move(&b, 10_000), Pos::new(5, 2));
}

#[test]
fn blocks_an_open_three() {
    let b = board(
        "
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . X . . . . . . .
        . . . . X . . . . . . .
        . . . . X . . . O . . .
        . . . . . . . . . . . .
        . . . . . . . . . O . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .
        . . . . . . . . . . . .",
    );
    assert_eq!(b.side_to_move(), Color::White);
    let mv = brain_move(&b, 50_000);
    assert!(at(&[(2, 4), (3, 4), (7, 4), (8, 4)]).contains(&mv), "{mv}");
}

/// From the tactics suite (line 51): the only win is a VCF of 3 fours starting at 3,10.
const VCF3: &str = "
    . . . . . . . . . . . .
    . . O . X . X O O O X O
    . O . X . O X O X . . .
    O X X X X O O X X X . .
    . . O X O X X . X O O .
    . . . O X . . X X . O .
    . O X X O X O O O X O .
    . . X X O O O O X . O .
    . O . X . O X O X . X .
    . . . . X O X O O O O X
    . . . . . O . X . X . .
    . . . . . X . . . . . .";

/// From the tactics suite (line 13): shortest VCF 5 fours.
const VCF5: &str = "
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . O . O X . . O .
    . . . . O . X X O X . .
    . . . . . . O O X . . .
    . . . . . . O X X X . .
    . . . . . . . . . X X .
    . . . . . . . . . O . O
    . . . . . . . . . . . .
    . . . . . . . . . . . .";

/// From the tactics suite (line 29): shortest VCF 9 fours.
const VCF9: &str = "
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . O X X . X . O . X
    . . . X . O X . X . O .
    . . O O X X . X O O . .
    . X X X O X . . O . . .
    X O O O O X O O O O X .
    . . . O O X X . X . . .
    . . . . O O . . . . . .
    . . . . X O X . . . . .
    . . . . . . X . . . . .";

fn check_vcf(text: &str, shortest: usize, solutions: &[(usize, usize)]) {
    let mut b = board(text);
    let line = Solver::new().vcf(&mut b, 30, 2_000_000).expect("a VCF");
    let attacking = (line.len() + 1) / 2;
    assert!(attacking >= shortest, "VCF of {attacking} fours, shorter than the known {shortest}");
    assert!(at(solutions).contains(&line[0]), "VCF starts at {}", line[0]);
    // Every attacking move but the last is a four: the defender's reply is forced.
    for (i, p) in line.iter().enumerate().step_by(2) {
        if i + 1 < line.len() {
            assert!(b.combo(*p, b.side_to_move()) >= Combo::Four, "{p} is no four");
            b.make(*p);
            b.make(line[i + 1]);
        } else {
            let me = b.side_to_move();
            b.make(*p);
            // The last move makes five, or an open four (two five points) the defender,
            // who has no five of its own, cannot stop.
            let open_four =
                b.combo_count(me, Combo::Five) >= 2 && b.combo_count(me.opp(), Combo::Five) == 0;
            assert!(b.last_move_won() || open_four, "the line does not end in a win");
        }
    }
    let b = board(text);
    assert!(at(solutions).contains(&brain_move(&b, 20_000)));
}

#[test]
fn vcf_in_three() {
    check_vcf(VCF3, 3, &[(3, 10)]);
}

#[test]
fn vcf_in_five() {
    check_vcf(VCF5, 5, &[(4, 9), (7, 10), (8, 6), (9, 5)]);
}

#[test]
fn vcf_in_nine() {
    check_vcf(VCF9, 9, &[(2, 1), (2, 4), (2, 8), (3, 2), (3, 8), (8, 9)]);
}

/// Black's 5,6 makes two open threes at once (row 5 and column 6); black has no four, so
/// the win needs threes: a VCT, not a VCF.
const DOUBLE_THREE: &str = "
    . . . . . . . . . . . .
    . . . . . . . . . . . O
    . . . . . . . . . . . .
    . . . . . . X . . . . .
    . . . . . . X . . . . .
    . . . . X X . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . O . . . . . . . . . .
    . . . . . . . . . . . .
    O . . . . . . . . . O .";

#[test]
fn vct_win_by_a_double_three() {
    let mut b = board(DOUBLE_THREE);
    assert_eq!(b.side_to_move(), Color::Black);
    assert_eq!(Solver::new().vcf(&mut b, 30, 1_000_000), None);
    let line = Solver::new().vct(&mut b, 6, 1_000_000).expect("a VCT");
    assert_eq!(line[0], Pos::new(5, 6));
    assert_eq!(brain_move(&b, 20_000), Pos::new(5, 6));
}

/// Black's 2,5 looks like a four-three (row 2 four, column 5 open three), but white's block
/// at 2,6 makes a white four (2,6..5,6), black must answer at 1,6, and white then stops the
/// three: no VCF.
const FALSE_VCF: &str = "
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . O X X X . . . . . . .
    . . . . . X O . . . . .
    . . . . . X O . . . . .
    . . . . . . O . . . . .
    . . . . . . X . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . O .
    . . . . . . . . . . . .
    O . . . . . . . . . . .";

#[test]
fn a_false_vcf_is_not_believed() {
    let mut b = board(FALSE_VCF);
    assert_eq!(b.side_to_move(), Color::Black);
    assert_eq!(b.combo(Pos::new(2, 5), Color::Black), Combo::FourThree, "the bait is there");
    assert_eq!(Solver::new().vcf(&mut b, 30, 1_000_000), None);
}

/// White to move; black threatens a VCF. Whatever the brain plays must leave black without
/// one (a counter-four that gains the tempo, or a block).
const DEFEND_VCF: &str = "
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . X . . . . . . .
    . . . . X . O O O X . .
    . . . . X . . . . . . .
    . . . X . X . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . O . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . O .";

#[test]
fn defends_against_a_vcf() {
    let mut b = board(DEFEND_VCF);
    assert_eq!(b.side_to_move(), Color::White);
    b.set_side_to_move(Color::Black);
    assert!(Solver::new().vcf(&mut b, 30, 1_000_000).is_some(), "black threatens a VCF");
    b.set_side_to_move(Color::White);
    let mv = brain_move(&b, 100_000);
    b.make(mv);
    // Black to move now: after white's fours (if any) and black's forced blocks, black must
    // not have a forced win by fours.
    let black_vcf = Solver::new().vcf(&mut b, 30, 1_000_000);
    assert!(black_vcf.is_none(), "after {mv} black still wins by {black_vcf:?}");
}

/// A position of the defence suite (`tests/data/defence12-rapfi.txt`, entry 25): after
/// the fatal 3,3 white wins by threes and fours in 5 attacking moves. A solve straight to
/// depth 12 spent 60,000 nodes on longer lines of threes and never found it; deepening
/// one attacking move at a time finds it within the same budget, and the line it gives
/// is a win.
#[test]
fn a_deepening_vct_finds_the_short_win_first() {
    let mut b = Board::with_start(12, StartPos::Center4);
    for (r, c) in [(8, 6), (4, 5), (4, 7), (7, 4), (7, 7), (3, 3)] {
        b.make(Pos::new(r, c));
    }
    let attacker = b.side_to_move();
    let mut s = Solver::new();
    let line = s.vct(&mut b, 12, 60_000).expect("a VCT within 60,000 nodes");
    assert!(line.len() <= 11, "the shortest win comes first: {line:?}");
    assert!(s.nodes() <= 60_001);
    for &p in &line {
        b.make(p);
    }
    // The line ends where the attacker's win is certain: here two open threes that
    // no single reply stops. The alpha-beta search confirms it on its own.
    assert_eq!(b.stone(*line.last().unwrap()), Some(attacker));
    let mut searcher = Searcher::new(1);
    let report = searcher.think(
        &mut b,
        Limits::nodes(200_000),
        &WallClock::new(),
        &AtomicBool::new(false),
        &mut |_| {},
    );
    assert!(report.score < -WIN_BOUND, "{line:?}: {}", report.score);
}

/// The judge runs Windows, whose main thread (where the search runs) has a 1 MB stack, an
/// eighth of Linux's: the bench positions, searched on a thread with a quarter of that, come
/// out exactly as on a thread with the default stack (a stack overflow would abort the test).
#[test]
fn the_search_fits_a_quarter_of_a_windows_main_thread_stack() {
    let search = || {
        wuzi::search::bench::search_all(Limits::depth(7))
            .iter()
            .map(|r| (r.best, r.score, r.nodes))
            .collect::<Vec<_>>()
    };
    let small = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(search)
        .expect("a thread")
        .join()
        .expect("no panic on the small stack");
    assert_eq!(small, search());
    assert!(small.iter().all(|(best, _, nodes)| best.is_some() && *nodes > 0));
}
