//! The figures of a match: the table the arena prints when a match ends, and `arena --report`,
//! which reads them back from records already written.
//!
//! A ladder rung is played block by block into several record directories, and a build is
//! often run more than once on the same openings. `--report RUN...` takes each run as its
//! directories joined by commas and prints, for each run and for all of them pooled, the
//! score by games, by opening pairs and by colour, the faults, and engine A's slowest move,
//! game totals and memory. With two runs or more it also scores the openings that every run
//! played as whole pairs, one opening at a time, with two intervals: the run-to-run noise
//! alone ("these openings fixed": the right one for a figure defined on this opening file)
//! and the openings' own spread as well ("openings as a sample": the right one for openings
//! in general). Runs on the same openings share that spread, so pooling their games as if
//! independent gives an interval that is too narrow for the second question.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use crate::stats::{self, Pairs, Wdl};

/// The one-sided 95% quantile of the normal distribution.
const Z95_ONE_SIDED: f64 = 1.644_854;
/// The two-sided one.
const Z95: f64 = 1.959_964;

/// What one record says about engine A's game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// The `game:` number (games 2k-1 and 2k share an opening).
    pub number: usize,
    /// Whether A had black.
    pub a_black: bool,
    /// The `opening:` line's text.
    pub opening: String,
    /// A's score: 1, 0.5 or 0.
    pub a_score: f64,
    /// A's slowest move, in ms.
    pub a_max_move_ms: u64,
    /// A's thinking time in the game, in ms.
    pub a_total_ms: u64,
    /// A's peak resident memory, in kB.
    pub a_peak_kb: u64,
    /// The engine (`A` or `B`) and rule of each side that lost by breaking a rule.
    pub faults: Vec<(char, String)>,
}

/// Reads one record's text; `None` for a record without a result (a game still running).
pub fn parse_game(text: &str) -> Result<Option<GameResult>, String> {
    let field = |name: &str| {
        text.lines().find_map(|l| l.strip_prefix(name).map(str::trim)).map(str::to_string)
    };
    let Some(result) = field("result:") else { return Ok(None) };
    let number =
        field("game:").and_then(|n| n.parse().ok()).ok_or_else(|| "no game number".to_string())?;
    let a_black = field("black:").ok_or_else(|| "no black: line".to_string())?.starts_with('A');
    let opening = field("opening:").unwrap_or_default();
    let black_score = match result.split_whitespace().next() {
        Some("1-0") => 1.0,
        Some("0-1") => 0.0,
        Some("1/2") => 0.5,
        _ => return Err(format!("bad result {result:?}")),
    };
    // `max-move-ms: black 1568 white 515` and the like: A's number is its colour's.
    let of_a = |name: &str| -> Result<u64, String> {
        let line = field(name).ok_or_else(|| format!("no {name} line"))?;
        let w: Vec<&str> = line.split_whitespace().collect();
        let at = if a_black { 1 } else { 3 };
        w.get(at).and_then(|v| v.parse().ok()).ok_or_else(|| format!("bad {name} {line:?}"))
    };
    Ok(Some(GameResult {
        number,
        a_black,
        opening,
        a_score: if a_black { black_score } else { 1.0 - black_score },
        a_max_move_ms: of_a("max-move-ms:")?,
        a_total_ms: of_a("total-ms:")?,
        a_peak_kb: of_a("peak-memory-kb:")?,
        faults: faults_in(&result),
    }))
}

/// The faults a `result:` line names: `A wins: B lost by move-timeout (...)`, or both sides
/// of `draw: both failed START (A exited: ...; B start-timeout: ...)`.
fn faults_in(result: &str) -> Vec<(char, String)> {
    let word = |s: &str| s.split([' ', ':', '(']).next().unwrap_or("").to_string();
    let label = |s: &str| s.trim_end().chars().last().filter(|c| matches!(c, 'A' | 'B'));
    if let Some((before, after)) = result.split_once(" lost by ") {
        return label(before).map(|l| vec![(l, word(after))]).unwrap_or_default();
    }
    let Some((_, inside)) = result.split_once("both failed START (") else { return Vec::new() };
    let mut out = Vec::new();
    if let Some(first) = inside.chars().next().filter(|c| matches!(c, 'A' | 'B')) {
        out.push((first, word(&inside[2..])));
        let other = if first == 'A' { 'B' } else { 'A' };
        // The details may hold "; " themselves: the other side's part is the last one.
        if let Some(at) = inside.rfind(&format!("; {other} ")) {
            out.push((other, word(&inside[at + 4..])));
        }
    }
    out
}

/// The games of one run, and its whole pairs.
#[derive(Clone, Debug, Default)]
pub struct Run {
    /// The directories as given.
    pub name: String,
    /// Every game with a result.
    pub games: Vec<GameResult>,
    /// The pairs whose two games both have a result: the opening and A's points (0 to 2).
    pub pairs: Vec<(String, f64)>,
}

impl Run {
    /// A run from the games of its directories, in order (game numbers restart in each).
    pub fn from_dirs(name: &str, dirs: Vec<Vec<GameResult>>) -> Run {
        let mut run = Run { name: name.to_string(), ..Run::default() };
        for games in dirs {
            let mut by_pair: BTreeMap<usize, Vec<&GameResult>> = BTreeMap::new();
            for g in &games {
                by_pair.entry((g.number + 1) / 2).or_default().push(g);
            }
            for two in by_pair.values().filter(|v| v.len() == 2) {
                run.pairs.push((two[0].opening.clone(), two[0].a_score + two[1].a_score));
            }
            run.games.extend(games);
        }
        run
    }

    /// Reads a run given as record directories joined by commas.
    pub fn load(spec: &str) -> Result<Run, String> {
        let mut dirs = Vec::new();
        for dir in spec.split(',').filter(|d| !d.is_empty()) {
            let entries = fs::read_dir(dir).map_err(|e| format!("{dir}: {e}"))?;
            let mut names: Vec<String> = entries
                .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
                .filter(|n| n.starts_with("game-") && n.ends_with(".txt"))
                .collect();
            names.sort();
            let mut games = Vec::new();
            for n in names {
                let path = Path::new(dir).join(&n);
                let text = fs::read_to_string(&path).map_err(|e| format!("{n}: {e}"))?;
                let game = parse_game(&text).map_err(|e| format!("{}: {e}", path.display()))?;
                games.extend(game);
            }
            dirs.push(games);
        }
        if dirs.iter().all(|g| g.is_empty()) {
            return Err(format!("{spec}: no finished game records (game-NNNN.txt)"));
        }
        Ok(Run::from_dirs(spec, dirs))
    }
}

fn signed(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{x:+.1}")
    }
}

/// The result table by colour, the score and Elo with their 95% intervals, and the score by
/// opening pairs: the lines a match's summary and a report share.
pub fn result_table(by_color: &[Wdl; 2], pairs: &Pairs) -> String {
    let mut s = String::new();
    let total = by_color[0].plus(&by_color[1]);
    let _ =
        writeln!(s, "{:<14}{:>6}{:>7}{:>8}{:>10}", "engine A", "wins", "draws", "losses", "points");
    let rows = [("as black", by_color[0]), ("as white", by_color[1]), ("total", total)];
    for (name, w) in rows {
        let points = format!("{}/{}", w.points(), w.games());
        let _ = writeln!(s, "{name:<14}{:>6}{:>7}{:>8}{points:>10}", w.wins, w.draws, w.losses);
    }
    if let Some(e) = stats::estimate(&total) {
        let _ =
            writeln!(s, "score of A: {:.3} (95% interval {:.3} .. {:.3})", e.score, e.low, e.high);
        let err =
            if e.elo_error.is_finite() { format!("{:.1}", e.elo_error) } else { "inf".into() };
        let _ = writeln!(s, "Elo A-B: {} +/- {err} (95%)", signed(e.elo));
    }
    if let Some(e) = stats::estimate_pairs(pairs) {
        let [p0, p1, p2, p3, p4] = pairs.0;
        let _ = writeln!(
            s,
            "by opening pairs ({} pairs scoring 0/0.5/1/1.5/2: {p0}/{p1}/{p2}/{p3}/{p4}): \
             {:.3} (95% interval {:.3} .. {:.3}), Elo {}",
            pairs.count(),
            e.score,
            e.low,
            e.high,
            signed(e.elo)
        );
    }
    s
}

/// `faults of A: move-timeout 1, exited 2` (or `none`), a line of the summary and the report.
pub fn faults_line(label: char, kinds: &BTreeMap<&str, u32>) -> String {
    let list: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
    let text = if list.is_empty() { "none".to_string() } else { list.join(", ") };
    format!("faults of {label}: {text}\n")
}

/// A run's (or several runs') figures.
fn run_figures(games: &[&GameResult], pairs: &[(String, f64)]) -> String {
    let mut by_color = [Wdl::default(); 2];
    for g in games {
        by_color[usize::from(!g.a_black)].add(g.a_score);
    }
    let mut p = Pairs::default();
    for (_, points) in pairs {
        p.add(*points);
    }
    let mut s = result_table(&by_color, &p);
    for label in ['A', 'B'] {
        let mut kinds: BTreeMap<&str, u32> = BTreeMap::new();
        for (_, kind) in games.iter().flat_map(|g| &g.faults).filter(|(l, _)| *l == label) {
            *kinds.entry(kind).or_insert(0) += 1;
        }
        s.push_str(&faults_line(label, &kinds));
    }
    let mut totals: Vec<u64> = games.iter().map(|g| g.a_total_ms).collect();
    totals.sort_unstable();
    if let (Some(slowest), Some(peak)) =
        (games.iter().map(|g| g.a_max_move_ms).max(), games.iter().map(|g| g.a_peak_kb).max())
    {
        let _ = writeln!(
            s,
            "engine A: slowest move {slowest} ms; game totals median {:.1} s, at most {:.1} s; \
             peak memory {:.1} MB",
            totals[totals.len() / 2] as f64 / 1000.0,
            totals[totals.len() - 1] as f64 / 1000.0,
            peak as f64 / 1024.0
        );
    }
    s
}

/// The per-opening figures of runs on the same openings (see the module's comment).
fn per_opening(runs: &[Run]) -> String {
    // Each run's score per opening, per game (an opening listed twice is averaged).
    let tables: Vec<BTreeMap<&str, f64>> = runs
        .iter()
        .map(|r| {
            let mut sums: BTreeMap<&str, (f64, f64)> = BTreeMap::new();
            for (opening, points) in &r.pairs {
                let e = sums.entry(opening.as_str()).or_insert((0.0, 0.0));
                *e = (e.0 + points / 2.0, e.1 + 1.0);
            }
            sums.into_iter().map(|(o, (sum, n))| (o, sum / n)).collect()
        })
        .collect();
    let openings: Vec<&str> =
        tables[0].keys().copied().filter(|o| tables.iter().all(|t| t.contains_key(o))).collect();
    let (n, k) = (openings.len() as f64, runs.len() as f64);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "\n== per opening: {} openings played as whole pairs in all {} runs",
        openings.len(),
        runs.len()
    );
    if openings.len() < 2 {
        let _ = writeln!(s, "(too few openings for an interval)");
        return s;
    }
    let means: Vec<f64> =
        openings.iter().map(|o| tables.iter().map(|t| t[o]).sum::<f64>() / k).collect();
    let mean = means.iter().sum::<f64>() / n;
    let within: f64 = openings
        .iter()
        .zip(&means)
        .map(|(o, m)| tables.iter().map(|t| (t[o] - m).powi(2)).sum::<f64>())
        .sum::<f64>()
        / (n * (k - 1.0));
    let spread = means.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let line = |name: &str, se: f64| {
        format!(
            "{name}: {mean:.3} (95% interval {:.3} .. {:.3}; one-sided 95% lower bound {:.3})\n",
            (mean - Z95 * se).max(0.0),
            (mean + Z95 * se).min(1.0),
            mean - Z95_ONE_SIDED * se
        )
    };
    s.push_str(&line("these openings fixed (run-to-run noise)", (within / (n * k)).sqrt()));
    s.push_str(&line("openings as a sample (by opening)", (spread / n).sqrt()));
    let between = (spread - within / k).max(0.0);
    let _ = writeln!(
        s,
        "variance of a pair's score per game: between openings {between:.4}, run to run {within:.4}"
    );
    // How alike repeated runs play: the same opening, colour and result.
    for (i, w) in runs.windows(2).enumerate() {
        let key = |g: &GameResult| (g.opening.clone(), g.a_black);
        let mut counts: BTreeMap<(String, bool), (u32, Option<f64>)> = BTreeMap::new();
        for g in &w[0].games {
            let e = counts.entry(key(g)).or_insert((0, None));
            *e = (e.0 + 1, Some(g.a_score));
        }
        let (mut same, mut both) = (0, 0);
        for g in &w[1].games {
            if let Some((1, Some(score))) = counts.get(&key(g)) {
                both += 1;
                same += u32::from(*score == g.a_score);
            }
        }
        let _ = writeln!(s, "runs {} and {}: {same} of {both} games ended alike", i + 1, i + 2);
    }
    s
}

/// The whole report on `runs`.
pub fn report(runs: &[Run]) -> String {
    let mut s = String::new();
    for (i, r) in runs.iter().enumerate() {
        let _ = writeln!(
            s,
            "== run {}: {} ({} games, {} whole pairs)",
            i + 1,
            r.name,
            r.games.len(),
            r.pairs.len()
        );
        s.push_str(&run_figures(&r.games.iter().collect::<Vec<_>>(), &r.pairs));
        s.push('\n');
    }
    if runs.len() > 1 {
        let games: Vec<&GameResult> = runs.iter().flat_map(|r| &r.games).collect();
        let pairs: Vec<(String, f64)> = runs.iter().flat_map(|r| r.pairs.clone()).collect();
        let _ = writeln!(
            s,
            "== all {} runs ({} games, {} whole pairs; the runs' games pooled as if independent)",
            runs.len(),
            games.len(),
            pairs.len()
        );
        s.push_str(&run_figures(&games, &pairs));
        s.push_str(&per_opening(runs));
    }
    s
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn record(number: usize, a_black: bool, opening: &str, result: &str) -> String {
        let (black, white) = if a_black { ("A", "B") } else { ("B", "A") };
        format!(
            "# wuzi arena record\ngame: {number}\nblack: {black} (judge) x\nwhite: {white} \
             (piskvork) y\nstart: W 5,5\nopening: {opening}\nresult: {result}\nmoves: 9\n\
             max-move-ms: black 1500 white 200\ntotal-ms: black 30000 white 4000\n\
             peak-memory-kb: black 70000 white 14000\n\n[moves]\n"
        )
    }

    /// A game's result as its record would give it (shared with the other modules' tests).
    pub(crate) fn game(number: usize, a_black: bool, opening: &str, result: &str) -> GameResult {
        parse_game(&record(number, a_black, opening, result)).unwrap().unwrap()
    }

    #[test]
    fn a_record_gives_the_score_times_and_faults_of_a() {
        let g = game(3, false, "B 4,3  W 7,4", "0-1 A wins by five");
        assert_eq!((g.number, g.a_black, g.a_score), (3, false, 1.0));
        assert_eq!(g.opening, "B 4,3  W 7,4");
        assert_eq!((g.a_max_move_ms, g.a_total_ms, g.a_peak_kb), (200, 4000, 14000));
        assert!(g.faults.is_empty());
        let black = game(1, true, "o", "1/2 draw by full-board");
        assert_eq!((black.a_score, black.a_max_move_ms, black.a_peak_kb), (0.5, 1500, 70000));
        let fault = game(2, false, "o", "1-0 B wins: A lost by move-timeout (no answer; 2 s)");
        assert_eq!(
            (fault.a_score, fault.faults.clone()),
            (0.0, vec![('A', "move-timeout".into())])
        );
        let both = "1/2 draw: both failed START (B exited: gone; status 1; A start-timeout: slow)";
        let faults = game(4, false, "o", both).faults;
        assert_eq!(faults, [('B', "exited".to_string()), ('A', "start-timeout".to_string())]);
        assert_eq!(parse_game("# wuzi arena record\ngame: 5\n").unwrap(), None, "no result yet");
        assert!(parse_game(&record(6, true, "o", "2-0 nonsense")).is_err());
    }

    /// Two runs on three openings, alike but for z; z's second game is missing in run 2.
    fn two_runs() -> Vec<Run> {
        let pair = |n: usize, o: &str, first: &str, second: &str| {
            vec![game(2 * n - 1, true, o, first), game(2 * n, false, o, second)]
        };
        let run1 =
            [pair(1, "x", "1-0", "0-1"), pair(2, "y", "1-0", "1-0"), pair(3, "z", "1/2", "1-0")];
        let run2 =
            [pair(1, "x", "1-0", "0-1"), pair(2, "y", "1-0", "1-0"), pair(3, "z", "0-1", "0-1")];
        let mut second: Vec<GameResult> = run2.concat();
        second.pop();
        // The first run in two directories, as a ladder's blocks are.
        vec![
            Run::from_dirs("a,b", vec![run1[..2].concat(), run1[2].clone()]),
            Run::from_dirs("c", vec![second]),
        ]
    }

    #[test]
    fn runs_pair_their_games_per_directory() {
        let runs = two_runs();
        // Run 1: x won twice by A (2), y won by black each time (1), z 0.5 + 0 (0.5).
        assert_eq!(runs[0].games.len(), 6);
        let pairs: Vec<(&str, f64)> = runs[0].pairs.iter().map(|(o, p)| (o.as_str(), *p)).collect();
        assert_eq!(pairs, [("x", 2.0), ("y", 1.0), ("z", 0.5)]);
        assert_eq!(runs[1].pairs.len(), 2, "z's pair is not whole in run 2");
    }

    #[test]
    fn the_report_gives_each_run_the_pool_and_the_openings() {
        let text = report(&two_runs());
        assert!(text.contains("== run 1: a,b (6 games, 3 whole pairs)"), "{text}");
        assert!(text.contains("== run 2: c (5 games, 2 whole pairs)"), "{text}");
        assert!(text.contains("== all 2 runs (11 games, 5 whole pairs"), "{text}");
        // Run 1: A won x twice, y once, and drew z once: 3.5/6.
        let total = text.lines().find(|l| l.starts_with("total")).unwrap();
        assert!(total.trim_end().ends_with("3.5/6"), "{total}");
        assert!(text.contains("engine A: slowest move 1500 ms"), "{text}");
        assert!(text.contains("faults of A: none"), "{text}");
        // Openings x and y in both runs, per game 1.0 and 0.5 each time: no run-to-run noise,
        // so the fixed interval is a point, while the openings' spread leaves the other wide.
        assert!(text.contains("2 openings played as whole pairs in all 2 runs"), "{text}");
        let fixed = text.lines().find(|l| l.starts_with("these openings fixed")).unwrap();
        assert!(fixed.contains("0.750 (95% interval 0.750 .. 0.750"), "{fixed}");
        let sample = text.lines().find(|l| l.starts_with("openings as a sample")).unwrap();
        assert!(sample.contains("0.750 (95% interval 0.260 .. 1.000"), "{sample}");
        // z with black: a draw, then a loss; the other four games of both runs alike.
        assert!(text.contains("runs 1 and 2: 4 of 5 games ended alike"), "{text}");
    }

    #[test]
    fn one_run_has_no_pool() {
        let text = report(&two_runs()[..1]);
        assert!(!text.contains("== all") && !text.contains("per opening"), "{text}");
    }
}
