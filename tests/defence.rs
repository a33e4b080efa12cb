//! The defence runner asks brains in either protocol: the same brain, asked the same
//! position through the judge's protocol and through Gomocup's `BOARD`, must see the same
//! position and so, at a fixed node count, play the same move.

use std::process::Command;

const DEFENCE: &str = env!("CARGO_BIN_EXE_defence");
const WUZI: &str = env!("CARGO_BIN_EXE_wuzi");

/// `defence run` over `suite` with `args` before it; its standard output.
fn run(args: &[&str], suite: &std::path::Path) -> String {
    let out = Command::new(DEFENCE).arg("run").args(args).arg(suite).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_gomocup_brain_is_asked_the_same_position_as_a_judge_brain() {
    // The second entry of the Rapfi suite (not a forced reply): five moves after the start
    // stones, white to move.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/defence12-rapfi.txt"
    ))
    .unwrap();
    let entry = text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).nth(1);
    let suite = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("defence-one.txt");
    std::fs::write(&suite, format!("{}\n", entry.unwrap())).unwrap();
    let judge = run(&["--brain", &format!("{WUZI} --no-book --nodes 20000")], &suite);
    let gomocup = run(
        &[
            "--protocol",
            "piskvork",
            "--brain",
            &format!("{WUZI} --protocol piskvork --nodes 20000"),
        ],
        &suite,
    );
    let played = |s: &str| s.lines().find(|l| l.contains("played")).map(str::to_string);
    assert!(played(&judge).is_some(), "{judge}");
    assert_eq!(played(&judge), played(&gomocup));
    // A protocol the runner does not know is refused.
    let bad = Command::new(DEFENCE)
        .args(["run", "--protocol", "gtp", "--brain", WUZI])
        .arg(&suite)
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown protocol"));
}

/// An arena record with `result` and the moves `(mover, row, col)` after the start stones.
fn record(name: &str, result: &str, moves: &[(&str, usize, usize)]) -> String {
    let mut text = format!("# wuzi arena record\nresult: {result}\n\n[moves]\n");
    text.push_str("#  n colour engine row col     ms\n");
    for (i, (who, r, c)) in moves.iter().enumerate() {
        let colour = if i % 2 == 0 { "black" } else { "white" };
        let ms = if *who == "opening" { "-" } else { "10" };
        text.push_str(&format!("{:4} {colour} {who} {r} {c} {ms}\n", i + 1));
    }
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn diverge_finds_where_a_lost_game_left_a_reference_game_that_held() {
    // Our engine (A) is white after a one-stone opening and loses; the reference games start
    // from the same stone (one a different opening).
    let ours = [("opening", 3, 3), ("A", 8, 8), ("B", 4, 4), ("A", 0, 0), ("B", 2, 2)];
    let lost = record("dv-ours.txt", "1-0 B wins by five", &ours);
    // The same game once more: the same position is reported once.
    let again = record("dv-ours2.txt", "1-0 B wins by five", &ours);
    let held_ours_differs = record(
        "dv-ref1.txt",
        "1/2 draw by full-board",
        &[("opening", 3, 3), ("B", 8, 8), ("A", 4, 4), ("B", 9, 9), ("A", 2, 2)],
    );
    let held_theirs_differs = record(
        "dv-ref2.txt",
        "0-1 B wins by five",
        &[("opening", 3, 3), ("A", 8, 8), ("B", 4, 5), ("A", 0, 0)],
    );
    let white_lost = record(
        "dv-ref3.txt",
        "1-0 A wins by five",
        &[("opening", 3, 3), ("B", 8, 8), ("A", 4, 4), ("B", 1, 1)],
    );
    let other_opening = record(
        "dv-ref4.txt",
        "1/2 draw by full-board",
        &[("opening", 3, 4), ("A", 8, 8), ("B", 4, 4), ("A", 1, 1)],
    );
    let out = Command::new(DEFENCE)
        .args(["diverge", "--engine", "A", "--nodes", "2000", &lost, &again, "--against"])
        .args([&held_ours_differs, &held_theirs_differs, &white_lost, &other_opening])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text.lines().find(|l| l.contains("move 4: ours 0,0 (")).unwrap_or_default();
    assert!(
        line.contains("the reference's 9,9 (") && line.contains("our long search plays"),
        "{text}"
    );
    assert!(text.contains("dv-ours.txt / ") && text.contains("dv-ref1.txt"), "{text}");
    let summary = text.lines().last().unwrap();
    assert!(
        summary.starts_with(
            "2 games lost by A; 4 pairs of one of them and a reference game that held from the \
             same opening; 1 positions where our move was the first difference (move 4: 1), 2 \
             pairs where the opponent's was"
        ),
        "{summary}"
    );
    // The one position is counted once among the moves' score comparisons.
    let count = |key: &str| -> usize {
        let tail = summary.split(key).nth(1).unwrap_or_else(|| panic!("{summary}"));
        tail.split(|c: char| !c.is_ascii_digit()).next().unwrap().parse().unwrap()
    };
    let counts = [count("better by more than 30 in "), count(", ours in "), count("within 30 in ")];
    assert_eq!(counts.iter().sum::<usize>(), 1, "{summary}");
    // Without the reference games there is nothing to compare.
    let bare = Command::new(DEFENCE).args(["diverge", &lost]).output().unwrap();
    assert!(!bare.status.success());
}

#[test]
fn diverge_reversed_compares_the_games_that_held_with_the_references_that_lost() {
    // The control: our white game that held, against a reference game on the same opening
    // whose white lost after another white move; a reference whose white held is left out.
    let held = record(
        "dvr-ours.txt",
        "1/2 draw by full-board",
        &[("opening", 3, 3), ("A", 8, 8), ("B", 4, 4), ("A", 0, 0), ("B", 2, 2)],
    );
    let lost = record(
        "dvr-ref1.txt",
        "1-0 A wins by five",
        &[("opening", 3, 3), ("B", 8, 8), ("A", 4, 4), ("B", 1, 1), ("A", 2, 2)],
    );
    let also_held = record(
        "dvr-ref2.txt",
        "1/2 draw by full-board",
        &[("opening", 3, 3), ("B", 8, 8), ("A", 4, 4), ("B", 9, 9)],
    );
    let out = Command::new(DEFENCE)
        .args(["diverge", "--reverse", "--nodes", "2000", &held, "--against", &lost, &also_held])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("move 4: ours 0,0 (") && text.contains("the reference's 1,1 ("),
        "{text}"
    );
    assert!(
        text.lines().last().unwrap().starts_with(
            "1 games held by A; 1 pairs of one of them and a reference game that lost from the \
             same opening; 1 positions where our move was the first difference (move 4: 1)"
        ),
        "{text}"
    );
}
