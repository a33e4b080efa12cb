//! Replays every `tests/transcripts/*.txt` against the real brain through pipes (the format
//! is described in `tests/common/mod.rs`).
//!
//! Then the checks themselves can fail: deliberately false transcripts and sessions, run
//! against fake answer streams (no brain), must each be rejected, while the same transcript
//! with a right answer passes (so each rejection is for the fault planted, not for something
//! else). Also the judge model's own rules: symmetries, five or more, the unstoppable four.

mod common;

use std::path::PathBuf;

use common::judge::{self, Board, BLACK, WHITE};
use common::{replay_text, Fake, Peer};

#[test]
fn every_transcript_replays() {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_wuzi"));
    let files = common::transcripts();
    assert!(files.len() >= 16, "only {} transcripts", files.len());
    let failures: Vec<String> =
        files.iter().filter_map(|f| common::replay(&bin, f).err()).collect();
    assert!(failures.is_empty(), "{} failed:\n{}", failures.len(), failures.join("\n"));
}

/// Replays `text` against a fake that prints `ours`; `#game:` gets a fake printing `theirs`.
fn run(text: &str, ours: &[&str], theirs: &[&str]) -> Result<(), String> {
    let theirs: Vec<String> = theirs.iter().map(|s| s.to_string()).collect();
    let mut opponent =
        move |_: &[String]| -> Box<dyn Peer> { Box::new(Fake(theirs.iter().cloned().collect())) };
    replay_text("meta", text, &mut Fake::new(ours), &mut opponent)
}

/// `text` passes with `good` and is rejected with `bad`, with `why` in the message.
fn rejects(text: &str, good: &[&str], bad: &[&str], why: &str) {
    if let Err(e) = run(text, good, &[]) {
        panic!("the right answers {good:?} fail:\n{text}\n{e}");
    }
    match run(text, bad, &[]) {
        Ok(()) => panic!("the false answers {bad:?} pass:\n{text}"),
        Err(e) => assert!(e.contains(why), "{bad:?} rejected for '{e}', not '{why}'"),
    }
}

const WIN: &str = "START 2\n#=> OK\nPLACE 0 0\nMINE 4 4\nPLACE 0 1\nMINE 3 3\nPLACE 0 2\n\
                   MINE 11 0\nPLACE 0 3\nTURN\n#=> wins\n";
const BLOCK5: &str = "START 2\n#=> OK\nPLACE 0 0\nMINE 11 11\nPLACE 0 1\nMINE 11 8\n\
                      PLACE 0 2\nMINE 11 5\nPLACE 0 3\nTURN\n#=> blocks 5\n";
const BLOCK4: &str = "START 2\n#=> OK\nPLACE 3 3\nMINE 10 10\nPLACE 3 4\nMINE 10 7\n\
                      PLACE 3 5\nTURN\n#=> blocks 4\n";

#[test]
fn a_move_that_does_not_win_is_no_win() {
    rejects(WIN, &["OK", "2 2"], &["OK", "0 4"], "no five");
    rejects(WIN, &["OK", "7 7"], &["OK", "8 8"], "no five");
}

#[test]
fn a_move_beside_the_five_point_is_no_block() {
    rejects(BLOCK5, &["OK", "0 4"], &["OK", "1 4"], "still make five");
    // Nothing to block: a `blocks 5` there is a false expectation.
    let calm = "START 2\n#=> OK\nPLACE 0 0\nTURN\n#=> blocks 5\n";
    assert!(run(calm, &["OK", "7 7"], &[]).unwrap_err().contains("nothing to block"));
}

#[test]
fn a_far_point_does_not_stop_an_open_three() {
    rejects(BLOCK4, &["OK", "3 2"], &["OK", "3 7"], "unstoppable four");
    rejects(BLOCK4, &["OK", "3 6"], &["OK", "3 1"], "unstoppable four");
}

#[test]
fn sym_accepts_only_the_images_that_keep_the_position() {
    let start = "START 2\n#=> OK\nPLACE 4 4\nTURN\n#=> sym 4 7\n";
    // After black's 4 4 the main diagonal's mirror still keeps the position: 7 4 is 4 7.
    rejects(start, &["OK", "7 4"], &["OK", "7 7"], "not among");
    // After 0 1 no symmetry keeps it: only 4 7 itself.
    let lopsided = "START 2\n#=> OK\nPLACE 0 1\nTURN\n#=> sym 4 7\n";
    rejects(lopsided, &["OK", "4 7"], &["OK", "7 4"], "not among");
}

#[test]
fn illegal_or_malformed_answers_are_rejected() {
    let t = "START 2\n#=> OK\nPLACE 4 7\nTURN\n#=> any\n";
    rejects(t, &["OK", "0 0"], &["OK", "5 5"], "on a stone");
    rejects(t, &["OK", "0 0"], &["OK", "4 7"], "on a stone");
    rejects(t, &["OK", "11 11"], &["OK", "12 3"], "off the 12x12 board");
    rejects(t, &["OK", "0 0"], &["OK", "-1 0"], "off the 12x12 board");
    for bad in ["4,8", "4 8 ", "4  8", " 4 8", "4", "ok"] {
        rejects(t, &["OK", "4 8"], &["OK", bad], "expected a move");
    }
    rejects(t, &["OK", "4 8"], &["4 8", "4 9"], "expected OK");
}

#[test]
fn unasked_lines_are_rejected() {
    let t = "START 1\n#=> OK\nTURN\n#=> any\nPLACE 0 0\n";
    rejects(t, &["OK", "7 7", "DEBUG fine"], &["OK", "7 7", "7 8"], "after the last answer");
    // A second TURN with no stone since is not answered: expecting an answer there is false.
    let twice = "START 1\n#=> OK\nTURN\n#=> any\nTURN\n#=> any\n";
    assert!(run(twice, &["OK", "7 7", "7 8"], &[]).unwrap_err().contains("none due"));
    // The answer to a TURN after END is not due either.
    let after_end = "START 1\n#=> OK\nEND 0\nTURN\n#=> any\n";
    assert!(run(after_end, &["OK", "7 7"], &[]).unwrap_err().contains("none due"));
}

#[test]
fn a_whole_game_must_take_its_five() {
    let t = "START 1\n#=> OK\n#game: x\n";
    let theirs = ["OK", "11 0", "10 0", "9 0", "8 0", "7 0"];
    let good = ["OK", "0 0", "0 1", "0 2", "0 3", "0 4"];
    run(t, &good, &theirs).unwrap();
    let bad = ["OK", "0 0", "0 1", "0 2", "0 3", "7 0"];
    assert!(run(t, &bad, &theirs).unwrap_err().contains("'wins' but '7 0'"));
    // Their four in column 0 must be blocked when we have no five: 7 0 is the only point.
    let theirs = ["OK", "11 0", "10 0", "9 0", "8 0", "3 3"];
    let good = ["OK", "0 0", "0 1", "0 5", "0 7", "7 0"];
    let bad = ["OK", "0 0", "0 1", "0 5", "0 7", "0 2"];
    assert!(run(t, &good, &theirs).unwrap_err().contains("no answer"), "the fake ran out");
    assert!(run(t, &bad, &theirs).unwrap_err().contains("'blocks 5' but '0 2'"));
}

#[test]
fn sessions_break_the_rules_in_every_way_the_fuzzer_checks() {
    let s = b"START 1\nTURN\nPLACE 0 0\nTURN\nTURN\nEND 0\nTURN\n";
    let ok = |out: &[&str]| {
        let out: Vec<String> = out.iter().map(|l| l.to_string()).collect();
        judge::check_session(s, &out)
    };
    ok(&["OK", "7 7", "DEBUG x", "7 8"]).unwrap();
    assert!(ok(&["OK", "7 7"]).unwrap_err().contains("no answer"));
    assert!(ok(&["OK", "7 7", "0 0"]).unwrap_err().contains("on a stone"));
    assert!(ok(&["OK", "7 7", "7 8", "7 9"]).unwrap_err().contains("no answer was due"));
    assert!(ok(&["7 7", "7 8"]).unwrap_err().contains("expected OK"));
    let long = format!("DEBUG {}", "x".repeat(17 * 1024));
    assert!(ok(&["OK", "7 7", &long, "7 8"]).unwrap_err().contains("DEBUG line"));
}

#[test]
fn the_model_knows_the_square_and_five_or_more() {
    let all: Vec<_> = (0..8).map(|k| judge::sym(k, (1, 3))).collect();
    let mut distinct = all.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 8, "{all:?}");
    for k in 0..8 {
        let b = Board::points().map(|p| judge::sym(k, p)).collect::<std::collections::HashSet<_>>();
        assert_eq!(b.len(), 144, "symmetry {k} is no bijection");
    }
    // The start keeps both diagonals' mirrors and the half turn, not the quarter turns.
    assert_eq!(Board::start().symmetries(), vec![0, 2, 6, 7]);
    assert_eq!(Board::start().equivalents((7, 7)), vec![(4, 4), (7, 7)]);
    let mut b = Board::empty();
    for c in [0, 1, 2, 4, 5] {
        b.put((0, c), BLACK);
    }
    // Freestyle: the sixth stone between makes six in a row, which wins.
    assert!(!b.has_five(BLACK));
    assert_eq!(b.five_points(BLACK), vec![(0, 3)]);
    b.put((0, 3), BLACK);
    assert!(b.has_five(BLACK) && !b.has_five(WHITE));
    let mut three = Board::empty();
    for c in 3..6 {
        three.put((3, c), WHITE);
    }
    assert_eq!(three.four_threats(WHITE), vec![(3, 2), (3, 6)]);
}
