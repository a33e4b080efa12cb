//! Self-play data for the learned evaluation and move ordering (see the README, "Learned
//! evaluation"). Plays wuzi against itself at a fixed node budget from varied openings (lines
//! of an openings file and random ones), both colours, and writes one game a line:
//!
//! ```text
//! <game> <result> <opening plies> <move> <move> ... | <score> <score> ...
//! ```
//!
//! `game` is the game's number (lines come in any order with threads), `result` is `B` (black won), `W` (white won) or `D` (draw), moves are `row,col` from the
//! judge's four start stones, black first; after the `|`, the search's score (for the side
//! that moved) of every move after the opening. The first `opening plies` moves are the opening;
//! every later move is the one the search chose, so each prefix of a game is a training
//! position labelled with the game's result and the searched move. A game ends at a five, a
//! full board, or when the search proves a win (its score says so), which then decides it.
//!
//! Usage: `datagen --games N --nodes N --seed S --threads T --openings FILE --out FILE
//! [--soft-ms MS]`.
//! Each game starts with fresh tables and its own seeded generator, so the set of lines
//! depends only on the arguments, not on the threads.
//!
//! `datagen --relabel FILE --nodes N --threads T --out FILE [--soft-ms MS]` plays no games:
//! it replays every game of FILE (the format above) and searches each position after the
//! opening again with this build at the given budget, writing the same games with the new
//! scores. So one build's positions can carry another build's labels.
//!
//! `datagen ... --tree-every N [--tree-depth D] [--label-nodes M]` also samples the positions
//! inside each move's search tree (about one node in `N` with at least `D` plies left, 2 by
//! default), searches each sampled position afresh at `M` nodes (10,000 by default) and writes
//! it after its game as a line of the same format that ends in the move that search chose,
//! with its score: `<number> D <plies before it> <move> ... <chosen move> | <score>`, numbered
//! `game + 1,000,000 k` for its `k`-th sample (from 1), so that a number's last digit still
//! tells its game. The training data then holds the positions that move ordering and the
//! evaluation meet in a tree, most of them after a poor move, besides those of good play
//! (the `D` is no result: train on the scores, `tune --lambda 0 --k K`).
//!
//! `datagen --records [--plies N] --out FILE RECORD...` searches nothing: it writes arena
//! records (`arena --out DIR`'s `game-*.txt`) as games of the format above, without scores,
//! numbered in the order given, each cut `N` moves after its opening (all moves without
//! `--plies`). So games against other engines give positions for `--relabel`.

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use wuzi::board::{Board, Color, Pos, StartPos};
use wuzi::clock::budget::Limits;
use wuzi::clock::timeman::WallClock;
use wuzi::core::bits::splitmix;
use wuzi::core::params::WIN_BOUND;
use wuzi::core::pattern::Combo;
use wuzi::search::bench::parse_moves;
use wuzi::search::searcher::{NodeSampler, Searcher};
use wuzi::tools::record::Record;

/// A small deterministic generator (SplitMix64): the crate has no dependencies.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let (state, z) = splitmix(self.0);
        self.0 = state;
        z
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

struct Options {
    games: usize,
    nodes: u64,
    seed: u64,
    threads: usize,
    openings: Option<String>,
    out: String,
    soft_ms: u64,
    relabel: Option<String>,
    /// `--records`: the arena records to convert (every argument that is not an option).
    records: Option<Vec<String>>,
    plies: usize,
    tree_every: u64,
    tree_depth: i32,
    label_nodes: u64,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        games: 100,
        nodes: 10_000,
        seed: 1,
        threads: 1,
        openings: None,
        out: "data/games.txt".into(),
        soft_ms: 0,
        relabel: None,
        records: None,
        plies: usize::MAX,
        tree_every: 0,
        tree_depth: 2,
        label_nodes: 10_000,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--games" => o.games = val()?.parse().map_err(|_| "bad --games")?,
            "--nodes" => o.nodes = val()?.parse().map_err(|_| "bad --nodes")?,
            "--seed" => o.seed = val()?.parse().map_err(|_| "bad --seed")?,
            "--threads" => o.threads = val()?.parse().map_err(|_| "bad --threads")?,
            "--openings" => o.openings = Some(val()?),
            "--out" => o.out = val()?,
            "--soft-ms" => o.soft_ms = val()?.parse().map_err(|_| "bad --soft-ms")?,
            "--relabel" => o.relabel = Some(val()?),
            "--records" => o.records = Some(Vec::new()),
            "--plies" => o.plies = val()?.parse().map_err(|_| "bad --plies")?,
            "--tree-every" => o.tree_every = val()?.parse().map_err(|_| "bad --tree-every")?,
            "--tree-depth" => o.tree_depth = val()?.parse().map_err(|_| "bad --tree-depth")?,
            "--label-nodes" => o.label_nodes = val()?.parse().map_err(|_| "bad --label-nodes")?,
            _ if !a.starts_with("--") && o.records.is_some() => {
                o.records.as_mut().expect("checked").push(a)
            }
            _ => return Err(format!("unknown argument {a}")),
        }
    }
    Ok(o)
}

fn read_openings(path: &str) -> Result<Vec<Vec<Pos>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(parse_moves)
        .collect()
}

/// A random opening of 1 to 5 stones in rows and columns 3..=8 that leaves neither side a
/// four to make, so that the game is not decided before the search starts.
fn random_opening(rng: &mut Rng) -> Vec<Pos> {
    loop {
        let mut b = Board::with_start(12, StartPos::Center4);
        let n = 1 + rng.below(5);
        let mut moves = Vec::new();
        while moves.len() < n {
            let p = Pos::new(3 + rng.below(6), 3 + rng.below(6));
            if b.is_empty(p) {
                b.make(p);
                moves.push(p);
            }
        }
        let calm = [Color::Black, Color::White]
            .iter()
            .all(|&c| b.combo_count_at_least(c, Combo::Four) == 0);
        if calm {
            return moves;
        }
    }
}

/// Plays one game from `opening`; returns the result letter, every move, and the search's
/// score of every move after the opening.
fn play(searcher: &mut Searcher, opening: &[Pos], limits: Limits) -> (char, Vec<Pos>, Vec<i32>) {
    let mut board = Board::with_start(12, StartPos::Center4);
    for &p in opening {
        board.make(p);
    }
    let mut moves = opening.to_vec();
    let mut scores = Vec::new();
    let stop = AtomicBool::new(false);
    let clock = WallClock::new();
    searcher.reset();
    let winner = |c: Color| if c == Color::Black { 'B' } else { 'W' };
    loop {
        if board.is_full() {
            return ('D', moves, scores);
        }
        let me = board.side_to_move();
        let report = searcher.think(&mut board, limits, &clock, &stop, &mut |_| {});
        let Some(p) = report.best else { return ('D', moves, scores) };
        board.make(p);
        moves.push(p);
        scores.push(report.score);
        if board.last_move_won() || report.score > WIN_BOUND {
            return (winner(me), moves, scores);
        }
        if report.score < -WIN_BOUND {
            return (winner(me.opp()), moves, scores);
        }
    }
}

/// The move a fresh search (its own small table, no sampler) chooses at the position of
/// `path` (moves from the start stones), with its score; `None` where it has none or the side
/// to move has already won or must only complete a five (nothing for the ordering to learn).
fn label(path: &[Pos], limits: Limits) -> Option<(Pos, i32)> {
    let mut board = Board::with_start(12, StartPos::Center4);
    for &p in path {
        board.make(p);
    }
    let me = board.side_to_move();
    if board.last_move_won() || board.combo_count(me, Combo::Five) > 0 {
        return None;
    }
    let mut searcher = Searcher::new(2);
    let (stop, clock) = (AtomicBool::new(false), WallClock::new());
    let report = searcher.think(&mut board, limits, &clock, &stop, &mut |_| {});
    report.best.map(|p| (p, report.score))
}

/// Searches every position of a recorded game after its opening again; returns the game's
/// line with the new scores (the moves and the result stay the recorded ones).
fn relabel(searcher: &mut Searcher, line: &str, limits: Limits) -> Result<String, String> {
    let (game, _) = line.split_once('|').unwrap_or((line, ""));
    let words: Vec<&str> = game.split_whitespace().collect();
    if words.len() < 3 {
        return Err(format!("bad line '{line}'"));
    }
    let opening: usize = words[2].parse().map_err(|_| format!("bad opening in '{line}'"))?;
    let moves = parse_moves(&words[3..].join(" "))?;
    let mut board = Board::with_start(12, StartPos::Center4);
    let stop = AtomicBool::new(false);
    let clock = WallClock::new();
    searcher.reset();
    let mut scores = Vec::new();
    for (ply, &p) in moves.iter().enumerate() {
        if ply >= opening {
            let report = searcher.think(&mut board, limits, &clock, &stop, &mut |_| {});
            scores.push(report.score.to_string());
        }
        if !board.is_empty(p) {
            return Err(format!("illegal move {p} in '{line}'"));
        }
        board.make(p);
    }
    Ok(format!("{} | {}", game.trim_end(), scores.join(" ")))
}

/// The `--relabel` mode: every line of `input` searched again.
fn relabel_file(o: &Options, input: &str, out: Output) {
    let text = std::fs::read_to_string(input).unwrap_or_else(|e| {
        eprintln!("datagen: {input}: {e}");
        std::process::exit(2);
    });
    let lines: Vec<String> =
        text.lines().filter(|l| !l.trim().is_empty()).map(String::from).collect();
    let limits = limits_of(o);
    let jobs = lines.len();
    run_pool(o.threads, jobs, out, move |searcher, i| {
        relabel(searcher, &lines[i], limits).map_err(|e| eprintln!("datagen: {e}")).ok()
    });
}

/// A game line (without scores) from an arena record: its result, opening and moves, cut
/// `plies` moves after the opening.
fn record_line(number: usize, path: &str, plies: usize) -> Result<String, String> {
    let record = Record::read(path)?;
    let result = match record.winner() {
        Some(Color::Black) => 'B',
        Some(Color::White) => 'W',
        None => 'D',
    };
    let opening = record.opening_len();
    let end = record.moves.len().min(opening.saturating_add(plies));
    let moves: Vec<String> = record.moves[..end].iter().map(|p| p.to_string()).collect();
    Ok(format!("{number} {result} {opening} {}", moves.join(" ")))
}

/// Where the lines go, shared by the threads.
type Output = Arc<Mutex<std::io::BufWriter<std::fs::File>>>;

/// Runs `job` for every index below `jobs` on `threads` threads, each with its own searcher,
/// and writes each line it returns as soon as it is done (so lines come in any order).
fn run_pool<F>(threads: usize, jobs: usize, out: Output, job: F)
where
    F: Fn(&mut Searcher, usize) -> Option<String> + Send + Sync + 'static,
{
    let job = Arc::new(job);
    let next = Arc::new(AtomicUsize::new(0));
    let workers: Vec<_> = (0..threads.max(1))
        .map(|_| {
            let (out, next, job) = (out.clone(), next.clone(), job.clone());
            std::thread::spawn(move || {
                let mut searcher = Searcher::new(16);
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= jobs {
                        break;
                    }
                    if let Some(line) = job(&mut searcher, i) {
                        let mut w = out.lock().expect("output lock");
                        let _ = writeln!(w, "{line}");
                        let _ = w.flush();
                    }
                }
            })
        })
        .collect();
    for w in workers {
        let _ = w.join();
    }
}

/// The search's limits: the node budget, and the soft limit when one is given.
fn limits_of(o: &Options) -> Limits {
    let mut limits = Limits::nodes(o.nodes);
    if o.soft_ms > 0 {
        // The root's threat solvers are bounded by their own node budgets, far above a
        // small search's, and by a share of the soft limit: a soft limit keeps them
        // from dominating the time (at the price of exact repeatability).
        limits.soft = Some(std::time::Duration::from_millis(o.soft_ms));
    }
    limits
}

fn main() {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("datagen: {e}");
            std::process::exit(2);
        }
    };
    let book = match &o.openings {
        Some(path) => read_openings(path).unwrap_or_else(|e| {
            eprintln!("datagen: {e}");
            std::process::exit(2);
        }),
        None => Vec::new(),
    };
    if let Some(dir) = std::path::Path::new(&o.out).parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let file = std::fs::File::create(&o.out).unwrap_or_else(|e| {
        eprintln!("datagen: {}: {e}", o.out);
        std::process::exit(1);
    });
    let mut out = std::io::BufWriter::new(file);
    if let Some(records) = &o.records {
        for (number, path) in records.iter().enumerate() {
            match record_line(number, path, o.plies) {
                Ok(line) => {
                    let _ = writeln!(out, "{line}");
                }
                Err(e) => eprintln!("datagen: {e}"),
            }
        }
        let _ = out.flush();
        return;
    }
    let out = Arc::new(Mutex::new(out));
    if let Some(input) = &o.relabel {
        relabel_file(&o, input, out);
        return;
    }
    let (seed, limits) = (o.seed, limits_of(&o));
    let (tree_every, tree_depth) = (o.tree_every, o.tree_depth);
    let label_limits = Limits { max_nodes: o.label_nodes, ..limits };
    run_pool(o.threads, o.games, out, move |searcher, g| {
        searcher.sampler = (tree_every > 0)
            .then(|| NodeSampler::new(tree_depth, tree_every, seed ^ ((g as u64) << 20)));
        // Each game has its own generator, so a game does not depend on threads.
        let mut rng = Rng(seed.wrapping_mul(1_000_003).wrapping_add(g as u64));
        // Every opening of the book in turn (both colours come from the game itself), the
        // other half random.
        let opening = if !book.is_empty() && g % 2 == 0 {
            book[(g / 2) % book.len()].clone()
        } else {
            random_opening(&mut rng)
        };
        let (result, moves, scores) = play(searcher, &opening, limits);
        let line: Vec<String> = moves.iter().map(|p| p.to_string()).collect();
        let scores: Vec<String> = scores.iter().map(|s| s.to_string()).collect();
        let mut text =
            format!("{g} {result} {} {} | {}", opening.len(), line.join(" "), scores.join(" "));
        if let Some(sampler) = searcher.sampler.as_mut() {
            for (k, path) in sampler.take().into_iter().enumerate() {
                if let Some((chosen, score)) = label(&path, label_limits) {
                    let n = g + 1_000_000 * (k + 1);
                    let line: Vec<String> = path.iter().map(|p| p.to_string()).collect();
                    let len = path.len();
                    text += &format!("\n{n} D {len} {} {chosen} | {score}", line.join(" "));
                }
            }
        }
        Some(text)
    });
}
