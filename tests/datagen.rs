//! End-to-end tests of the self-play data generator: its games, and `--relabel`, which
//! searches recorded games again (see the README, "Learned evaluation").

use std::fs;
use std::path::PathBuf;
use std::process::Command;

const DATAGEN: &str = env!("CARGO_BIN_EXE_datagen");

/// A fresh scratch directory for one test (per process, so parallel runs do not collide).
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("datagen-{}", std::process::id()))
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// Runs datagen with `args`; returns its standard error, failing the test on a bad exit.
fn datagen(args: &[&str]) -> String {
    let out = Command::new(DATAGEN).args(args).output().expect("datagen runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "datagen {args:?} failed: {stderr}");
    stderr
}

/// The game part of a line (before the `|`) and its scores.
fn split(line: &str) -> (&str, Vec<i32>) {
    let (game, scores) = line.split_once('|').expect("a line has a '|'");
    let scores = scores.split_whitespace().map(|s| s.parse().expect("a score")).collect();
    (game.trim(), scores)
}

/// Plays `games` games at 300 nodes a move from random openings (a fixed budget and no soft
/// limit: every search is repeatable), then relabels them at `nodes` on `threads` threads;
/// returns both files' text.
fn play_then_relabel(
    name: &str,
    games: &str,
    seed: &str,
    nodes: &str,
    threads: &str,
) -> (String, String) {
    let dir = scratch(name);
    let (played, relabelled) = (dir.join("games.txt"), dir.join("relabelled.txt"));
    let (played, relabelled) = (played.to_str().unwrap(), relabelled.to_str().unwrap());
    datagen(&[
        "--games",
        games,
        "--nodes",
        "300",
        "--seed",
        seed,
        "--threads",
        "1",
        "--out",
        played,
    ]);
    datagen(&["--relabel", played, "--nodes", nodes, "--threads", threads, "--out", relabelled]);
    (fs::read_to_string(played).unwrap(), fs::read_to_string(relabelled).unwrap())
}

#[test]
fn relabel_with_the_players_budget_gives_back_the_recorded_scores() {
    let (played, relabelled) = play_then_relabel("same", "2", "5", "300", "1");
    assert_eq!(played.lines().count(), 2, "two games: {played}");
    for line in played.lines() {
        let (game, scores) = split(line);
        let words: Vec<&str> = game.split_whitespace().collect();
        let opening: usize = words[2].parse().unwrap();
        assert_eq!(scores.len(), words.len() - 3 - opening, "a score a searched move: {line}");
    }
    // The same build at the same budget searches the same positions in the same order.
    assert_eq!(relabelled, played);
}

#[test]
fn relabel_keeps_the_games_and_writes_new_scores() {
    let (played, relabelled) = play_then_relabel("deeper", "3", "8", "3000", "2");
    let mut played: Vec<&str> = played.lines().collect();
    let mut relabelled: Vec<&str> = relabelled.lines().collect();
    // Two threads write the lines in any order; each keeps its game number first.
    let number = |l: &&str| l.split_whitespace().next().unwrap().parse::<u32>().unwrap();
    played.sort_by_key(number);
    relabelled.sort_by_key(number);
    assert_eq!(relabelled.len(), played.len());
    let mut changed = 0;
    for (old, new) in played.iter().zip(&relabelled) {
        let ((old_game, old_scores), (new_game, new_scores)) = (split(old), split(new));
        assert_eq!(new_game, old_game, "the moves and the result stay");
        assert_eq!(new_scores.len(), old_scores.len(), "a new score for every old one");
        assert!(new_scores.iter().all(|s| s.abs() <= 30_000), "scores in range: {new}");
        changed += old_scores.iter().zip(&new_scores).filter(|(a, b)| a != b).count();
    }
    assert!(changed > 0, "ten times the nodes changes some score");
}

#[test]
fn relabel_reports_a_bad_line_and_goes_on() {
    let dir = scratch("bad");
    let (games, input, out) = (dir.join("games.txt"), dir.join("input.txt"), dir.join("out.txt"));
    let games = games.to_str().unwrap();
    datagen(&["--games", "1", "--nodes", "300", "--seed", "2", "--threads", "1", "--out", games]);
    let good = fs::read_to_string(games).unwrap();
    // A line with a move off the board, one with a stone on a stone, then the good game.
    let text = format!("7 B 0 3,3 40,40 | 1\n8 W 0 3,3 3,3 | 1 2\n{good}");
    fs::write(&input, text).unwrap();
    let stderr = datagen(&[
        "--relabel",
        input.to_str().unwrap(),
        "--nodes",
        "300",
        "--threads",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(stderr.contains("off the board"), "{stderr}");
    assert!(stderr.contains("illegal move"), "{stderr}");
    assert_eq!(fs::read_to_string(&out).unwrap(), good, "only the good game, unchanged");
}

#[test]
fn arena_records_become_games_that_relabel_reads() {
    let dir = scratch("records");
    let record = |result: &str, rows: &str| {
        format!(
            "# wuzi arena record\nresult: {result}\n\n[moves]\n#  n colour engine row col ms\n\
             {rows}\n[replay]\n"
        )
    };
    let won = record(
        "1-0 A wins by five",
        "1 black opening 3 3 -\n2 white opening 8 8 -\n3 black A 4 4 90\n4 white B 9 9 50\n\
         5 black A 2 2 80",
    );
    let drawn = record("1/2 draw by full-board", "1 black A 4 7 10\n2 white B 7 4 12");
    let (a, b, c) = (dir.join("game-1.txt"), dir.join("game-2.txt"), dir.join("game-3.txt"));
    fs::write(&a, won).unwrap();
    fs::write(&b, drawn).unwrap();
    fs::write(&c, record("0-1 B wins by five", "1 black A 12 0 10")).unwrap();
    let games = dir.join("games.txt");
    let stderr = datagen(&[
        "--records",
        "--plies",
        "2",
        "--out",
        games.to_str().unwrap(),
        a.to_str().unwrap(),
        c.to_str().unwrap(),
        b.to_str().unwrap(),
    ]);
    assert!(stderr.contains("game-3.txt") && stderr.contains("bad move row"), "{stderr}");
    let text = fs::read_to_string(&games).unwrap();
    // Numbered in the order given (the bad record keeps its number); two moves after the
    // opening, the result as the record says.
    assert_eq!(text, "0 B 2 3,3 8,8 4,4 9,9\n2 D 0 4,7 7,4\n");
    let out = dir.join("relabelled.txt");
    let (games, out) = (games.to_str().unwrap(), out.to_str().unwrap());
    datagen(&["--relabel", games, "--nodes", "300", "--threads", "1", "--out", out]);
    let mut lines: Vec<String> =
        fs::read_to_string(out).unwrap().lines().map(String::from).collect();
    lines.sort();
    let parsed: Vec<(&str, Vec<i32>)> = lines.iter().map(|l| split(l)).collect();
    assert_eq!(parsed[0].0, "0 B 2 3,3 8,8 4,4 9,9");
    assert_eq!(parsed[1].0, "2 D 0 4,7 7,4");
    assert_eq!((parsed[0].1.len(), parsed[1].1.len()), (2, 2), "a score for every move searched");
}

#[test]
fn tree_samples_follow_their_game_and_end_in_a_searched_move() {
    let dir = scratch("tree");
    let out = dir.join("tree.txt");
    let out = out.to_str().unwrap();
    let args = ["--games", "2", "--nodes", "2000", "--seed", "3", "--threads", "1"];
    let tree = ["--tree-every", "20", "--label-nodes", "300", "--out", out];
    datagen(&[&args[..], &tree[..]].concat());
    let text = fs::read_to_string(out).unwrap();
    let number = |l: &str| l.split_whitespace().next().unwrap().parse::<usize>().unwrap();
    let games: Vec<&str> = text.lines().filter(|l| number(l) < 1_000_000).collect();
    let samples: Vec<&str> = text.lines().filter(|l| number(l) >= 1_000_000).collect();
    assert_eq!(games.len(), 2, "{text}");
    assert!(samples.len() >= 10, "one node in 20 of two games' trees: {}", samples.len());
    for sample in &samples {
        let (sample, scores) = split(sample);
        assert_eq!(scores.len(), 1, "the search's score of the sampled position: {sample}");
        assert!(scores[0].abs() <= 30_000, "{sample}");
        let words: Vec<&str> = sample.split_whitespace().collect();
        assert_eq!(words[1], "D", "{sample}");
        let before: usize = words[2].parse().unwrap();
        let moves = &words[3..];
        assert_eq!(moves.len(), before + 1, "the position's moves, then the chosen one: {sample}");
        // Its game: the number's last six digits; the tree's root is a position of that game,
        // so the sample starts with the game's opening.
        let game = games.iter().find(|g| number(g) == number(sample) % 1_000_000).unwrap();
        let game_words: Vec<&str> = split(game).0.split_whitespace().collect();
        let opening: usize = game_words[2].parse().unwrap();
        assert_eq!(&moves[..opening], &game_words[3..3 + opening], "{sample}");
        // Every move, the chosen one too, goes on an empty point.
        let mut seen = std::collections::HashSet::new();
        assert!(moves.iter().all(|m| seen.insert(*m)), "a stone on a stone: {sample}");
    }
    // The same arguments give the same file (the sampler is seeded by the game).
    let again = dir.join("again.txt");
    let again = again.to_str().unwrap();
    let tree = ["--tree-every", "20", "--label-nodes", "300", "--out", again];
    datagen(&[&args[..], &tree[..]].concat());
    assert_eq!(fs::read_to_string(again).unwrap(), text);
}
