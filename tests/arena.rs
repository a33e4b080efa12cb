//! End-to-end tests of the arena: real processes (the `fakebrain` binary in its well- and
//! badly-behaved modes) played under the judge's rules, checked through the arena's output
//! and its record files.

use std::fs;
use std::path::PathBuf;
use std::process::Command;

const ARENA: &str = env!("CARGO_BIN_EXE_arena");
const FAKE: &str = env!("CARGO_BIN_EXE_fakebrain");

/// A fakebrain command line; the path is quoted so the arena's word splitting is exercised.
fn fake(args: &str) -> String {
    format!("'{FAKE}' {args}")
}

/// A fresh record directory for one test (per process, so parallel runs do not collide).
fn out_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("arena-{}", std::process::id()))
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    dir
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
    out: PathBuf,
}

impl Run {
    fn record(&self, game: usize) -> String {
        let path = self.out.join(format!("game-{game:04}.txt"));
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}\n{}", path.display(), self))
    }

    fn game_lines(&self) -> Vec<&str> {
        self.stdout.lines().filter(|l| l.starts_with("game ")).collect()
    }
}

impl std::fmt::Display for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "exit {}\n--- stdout\n{}--- stderr\n{}", self.code, self.stdout, self.stderr)
    }
}

fn arena(name: &str, args: &[&str]) -> Run {
    let out = out_dir(name);
    let output =
        Command::new(ARENA).arg("--out").arg(&out).args(args).output().expect("arena runs");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        out,
    }
}

/// Plays one game, `bad` against a good brain, and checks that `bad` lost for `reason`.
fn loses(name: &str, bad: &str, bad_is_a: bool, reason: &str, extra: &[&str]) -> Run {
    let (a, b) = if bad_is_a { (fake(bad), fake("good")) } else { (fake("good"), fake(bad)) };
    let mut args = vec!["--games", "1"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&[&a, &b]);
    let run = arena(name, &args);
    assert_eq!(run.code, 0, "{run}");
    let (winner, loser) = if bad_is_a { ('B', 'A') } else { ('A', 'B') };
    let verdict = format!("{winner} wins: {loser} lost by {reason} (");
    assert!(run.game_lines().len() == 1 && run.game_lines()[0].contains(&verdict), "{run}");
    let record = run.record(1);
    // Game 1 gives A black, so a win for B is 0-1.
    let score = if bad_is_a { "0-1" } else { "1-0" };
    assert!(record.contains(&format!("result: {score} {verdict}")), "{record}");
    assert!(run.stdout.contains(&format!("faults of {loser}: {reason} 1")), "{run}");
    run
}

#[test]
fn slow_move_loses_on_time() {
    let run = loses("slow", "slow", true, "move-timeout", &[]);
    assert!(run.stdout.contains("no answer within 2000 ms"), "{run}");
}

#[test]
fn slow_start_loses() {
    loses("slow-ok", "slow-ok", false, "start-timeout", &[]);
}

#[test]
fn output_while_no_answer_is_due_loses() {
    loses("chatty", "chatty", true, "stray-output", &[]);
}

#[test]
fn crash_loses_with_its_status() {
    let run = loses("crash", "crash", false, "exited", &[]);
    assert!(run.stdout.contains("exit status: 3"), "{run}");
    // The crash happens on the brain's third TURN: two of its moves were played.
    let record = run.record(1);
    let played_by_b = record.lines().filter(|l| l.contains(" white  B ")).count();
    assert_eq!(played_by_b, 2, "{record}");
    assert!(record.contains("[stderr B]") && record.contains("crashing on purpose"), "{record}");
}

#[test]
fn move_on_a_stone_loses() {
    loses("illegal", "illegal", true, "occupied", &[]);
}

#[test]
fn move_off_the_board_loses() {
    loses("offboard", "offboard", false, "off-board", &[]);
}

#[test]
fn malformed_answer_loses() {
    let run = loses("malformed", "malformed", true, "malformed", &[]);
    assert!(run.stdout.contains("answered \"hello\""), "{run}");
}

#[test]
fn exit_before_end_loses() {
    loses("early-exit", "early-exit", true, "exited", &[]);
}

#[cfg(target_os = "linux")]
#[test]
fn memory_hog_loses() {
    loses("hog", "hog", false, "memory", &[]);
}

#[test]
fn game_time_is_counted_per_side() {
    // 1.5 s a move is well within the 2 s move limit, but the third move overruns 4 s in
    // total, while the opponent's (instant) time is not counted against it.
    let extra = ["--game-time-ms", "4000"];
    let run = loses("total-time", "total-time 1500", false, "game-time", &extra);
    let record = run.record(1);
    assert_eq!(record.lines().filter(|l| l.contains(" white  B ")).count(), 2, "{record}");
}

#[test]
fn engine_ignoring_end_is_killed() {
    let a = fake("ignore-end");
    let b = fake("good");
    let run = arena("ignore-end", &["--games", "1", "--end-grace-ms", "200", &a, &b]);
    assert_eq!(run.code, 0, "{run}");
    assert!(run.record(1).contains("did not exit after END; killed"), "{run}");
}

#[test]
fn good_pair_plays_a_match_with_openings() {
    let openings = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/openings12.txt");
    let (a, b) = (fake("good 11"), fake("good 12"));
    let args =
        ["--games", "6", "--concurrency", "2", "--debug-log", "--openings", openings, &a, &b];
    let run = arena("match", &args);
    assert_eq!(run.code, 0, "{run}");
    let lines = run.game_lines();
    assert_eq!(lines.len(), 6, "{run}");
    for n in 1..=6 {
        let black = if n % 2 == 1 { 'A' } else { 'B' };
        let line = lines.iter().find(|l| l.starts_with(&format!("game {n}/6 "))).expect("line");
        assert!(line.contains(&format!("black={black}:")), "{line}");
        assert!(line.contains("by five") || line.contains("by full-board"), "{line}");
        let record = run.record(n);
        assert!(record.contains(&format!("black: {black} (judge)")), "{record}");
        assert!(record.contains("[debug A]") && record.contains("DEBUG fakebrain"), "{record}");
        // Replay lines: the opening and every move, each `PLACE row col`.
        let moves: usize = record
            .lines()
            .find_map(|l| l.strip_prefix("moves: "))
            .and_then(|m| m.parse().ok())
            .expect("moves line");
        let opening = record.lines().find(|l| l.starts_with("opening: ")).expect("opening");
        let opening_len = opening.matches(',').count();
        assert!((2..=4).contains(&opening_len), "{opening}");
        let replay = record.lines().filter(|l| l.starts_with("PLACE ")).count();
        assert_eq!(replay, moves + opening_len, "{record}");
    }
    // Games 1 and 2 share an opening with colours swapped.
    let opening = |n| {
        let r = run.record(n);
        r.lines().find(|l| l.starts_with("opening: ")).unwrap().to_string()
    };
    assert_eq!(opening(1), opening(2));
    assert_ne!(opening(1), opening(3));
    for needle in ["as black", "as white", "total", "score of A:", "95% interval", "Elo A-B:"] {
        assert!(run.stdout.contains(needle), "{needle} missing\n{run}");
    }
    assert!(run.stdout.contains("faults of A: none") && run.stdout.contains("faults of B: none"));
    let total = run.stdout.lines().find(|l| l.starts_with("total")).expect("total row");
    assert!(total.trim_end().ends_with("/6"), "{total}");
    assert!(run.out.join("match.txt").is_file());
}

#[test]
fn opening_stones_reach_judge_engines_as_place_and_mine() {
    // The deterministic brain plays the empty point nearest the centre, which is 4,5 and
    // then 4,6: unless PLACE and MINE delivered the opening, it would play on a stone.
    let dir = out_dir("mine-openings");
    fs::create_dir_all(&dir).unwrap();
    let file = dir.join("openings.txt");
    fs::write(&file, "# two stones\n4,5 4,6\n").unwrap();
    let (a, b) = (fake("good"), fake("good"));
    let run = arena("mine", &["--games", "2", "--openings", file.to_str().unwrap(), &a, &b]);
    assert_eq!(run.code, 0, "{run}");
    assert!(run.stdout.contains("faults of A: none") && run.stdout.contains("faults of B: none"));
    assert!(run.record(2).contains("opening: B 4,5  W 4,6"), "{}", run.record(2));
}

#[test]
fn piskvork_engine_plays_a_judge_engine() {
    let openings = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/openings12.txt");
    let (a, b) = (fake("good 3"), fake("--proto piskvork good 4"));
    let args = ["--games", "4", "--proto-b", "piskvork", "--openings", openings, &a, &b];
    let run = arena("piskvork", &args);
    assert_eq!(run.code, 0, "{run}");
    assert_eq!(run.game_lines().len(), 4, "{run}");
    assert!(run.stdout.contains("faults of A: none") && run.stdout.contains("faults of B: none"));
    assert!(run.record(1).contains("white: B (piskvork)"), "{}", run.record(1));
}

#[test]
fn piskvork_pair_from_an_empty_board() {
    let (a, b) = (fake("--proto piskvork good 5"), fake("--proto piskvork good 6"));
    let run = arena("empty", &["--games", "2", "--proto", "piskvork", "--start", "empty", &a, &b]);
    assert_eq!(run.code, 0, "{run}");
    assert!(run.record(1).contains("start: none"), "{}", run.record(1));
    assert!(run.stdout.contains("faults of A: none") && run.stdout.contains("faults of B: none"));
}

#[test]
fn sprt_stops_when_one_engine_is_clearly_stronger() {
    // The nearest-the-centre brain beats this seeded random one with either colour, so
    // every game is a win for A and H1 is accepted after about a hundred pairs of games (a
    // pair won twice is worth about what one win is worth to a model of single games).
    let (a, b) = (fake("good"), fake("good 7"));
    let args = ["--games", "400", "--concurrency", "2", "--sprt", "0,10,0.05,0.05", &a, &b];
    let run = arena("sprt", &args);
    assert_eq!(run.code, 0, "{run}");
    let n = run.game_lines().len();
    assert!((180..300).contains(&n), "{n} games\n{run}");
    assert!(run.game_lines().iter().all(|l| l.contains(" | LLR ")));
    assert!(run.stdout.contains("H1 accepted (A stronger)"), "{run}");
    assert!(run.stdout.contains("bounds (-2.94, 2.94)"), "{run}");
    // The summary gives the LLR at which the decision was taken (games still in flight
    // finish afterwards and may pull the final one back inside the bounds).
    let at: f64 = run
        .stdout
        .split("(LLR ")
        .nth(1)
        .and_then(|rest| rest.split(" then)").next())
        .and_then(|x| x.parse().ok())
        .unwrap_or_else(|| panic!("no decision LLR\n{run}"));
    assert!(at >= 2.94, "decided at LLR {at}\n{run}");
}

#[test]
fn report_reads_the_records_back() {
    let openings = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/openings12.txt");
    let (a, b) = (fake("good 21"), fake("good 22"));
    let run = arena("report-src", &["--games", "4", "--openings", openings, &a, &b]);
    assert_eq!(run.code, 0, "{run}");
    let dir = run.out.to_str().expect("utf-8 path").to_string();
    let report = |args: &[&str]| {
        let out = Command::new(ARENA).arg("--report").args(args).output().expect("arena runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        (out.status.code(), text, String::from_utf8_lossy(&out.stderr).into_owned())
    };
    // The same records as two runs: the match's own table, twice, then pooled.
    let (code, text, _) = report(&[&dir, &dir]);
    assert_eq!(code, Some(0), "{text}");
    let total = |t: &str| t.lines().find(|l| l.starts_with("total")).map(str::to_string);
    assert_eq!(total(&text), total(&run.stdout), "{text}\n{run}");
    assert!(text.contains("(4 games, 2 whole pairs)"), "{text}");
    assert!(text.contains("== all 2 runs (8 games, 4 whole pairs"), "{text}");
    assert!(text.contains("runs 1 and 2: 4 of 4 games ended alike"), "{text}");
    assert!(text.contains("2 openings played as whole pairs in all 2 runs"), "{text}");
    let (code, _, stderr) = report(&["/nonexistent/records"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("arena: /nonexistent/records"), "{stderr}");
}

#[test]
fn bad_usage_exits_2() {
    for args in [&["only-one"][..], &["--games", "x", "a", "b"], &["--frobnicate", "a", "b"]] {
        let run = arena("usage", args);
        assert_eq!(run.code, 2, "{args:?}\n{run}");
        assert!(run.stderr.contains("arena: "), "{run}");
    }
    let run = arena("help", &["--help"]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("USAGE") && run.stdout.contains("MINE X Y"), "{run}");
}

#[test]
fn engine_that_cannot_start_exits_1() {
    let good = fake("good");
    let run = arena("nostart", &["/nonexistent/brain", &good]);
    assert_eq!(run.code, 1, "{run}");
    assert!(run.stderr.contains("engine A") && run.stderr.contains("cannot start"), "{run}");
    let run = arena("nostart3", &[&good, "true"]);
    assert_eq!(run.code, 1, "{run}");
    assert!(run.stderr.contains("engine B (true) cannot start"), "{run}");
}
