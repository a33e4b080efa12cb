//! Making the opening book: `wuzi book build` grows a tree of deeply searched positions from
//! the judge's start, `wuzi book prove` runs the proof search (`crate::tools::proof`), `wuzi book
//! export` turns both files into `src/book/data.rs`, `wuzi book stats` describes the book
//! compiled in.
//!
//! Both commands resume from their files (`crate::tools::bookfile`): a position already searched
//! is never searched again, a position already proven is a known win.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::board::{Board, Color, Pos, StartPos};
use crate::book::{canonical, KEY_MASK};
use crate::core::params::WIN_BOUND;
use crate::search::bench::{board_after, parse_moves};
use crate::tools::bookfile::{
    append, load_proof, load_tree, moves_text, read_lines, tree_line, Searched, DATA_FILE,
    PROOF_FILE, TREE_FILE,
};

/// Cost of one more ply in the builder's best-first choice, in score units.
const PLY_COST: i32 = 20;
/// Estimated loss of the k-th candidate move not yet searched, per rank.
const RANK_COST: i32 = 30;

/// Options of the `book` subcommands, `--name value` each.
#[derive(Clone, Debug)]
pub struct Options {
    values: HashMap<String, String>,
}

impl Options {
    /// Parses `--name value` pairs.
    pub fn parse(args: &[String]) -> Result<Options, String> {
        let mut values = HashMap::new();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let name = a.strip_prefix("--").ok_or_else(|| format!("unexpected '{a}'"))?;
            let v = it.next().ok_or_else(|| format!("{a} needs a value"))?;
            values.insert(name.to_string(), v.clone());
        }
        Ok(Options { values })
    }
    fn text<'a>(&'a self, name: &str, default: &'a str) -> &'a str {
        self.values.get(name).map(|s| s.as_str()).unwrap_or(default)
    }
    fn num<T: std::str::FromStr>(&self, name: &str, default: T) -> Result<T, String> {
        match self.values.get(name) {
            Some(v) => v.parse().map_err(|_| format!("--{name}: '{v}' is not a number")),
            None => Ok(default),
        }
    }
}

/// Usage of `wuzi book`.
pub const USAGE: &str = "\
wuzi book build  [--tree FILE] [--ms MS] [--workers N] [--positions N] [--minutes M]
                 [--width K] [--max-ply P]      grow the searched tree (resumable)
                 [--seed 'MOVES;MOVES']         search these lines' positions first
wuzi book refresh [--tree FILE] [--proof FILE] [--ms MS | --nodes N] [--workers N]
                 search again every position the book plays a searched move from
                 (resumable; the new line of a position wins over the old)
wuzi book prove  [--proof FILE] [--from MOVES] [--secs S] [--nodes N] [--width K]
                 [--max-ply P] [--vct-nodes N]  proof-number search that black wins
wuzi book prove  --from-tree FILE [--secs-each S] ...   prove each position the
                 builder's search scored as won for black, deepest first
wuzi book export [--tree FILE] [--proof FILE] [--out FILE]   write src/book/data.rs
wuzi book stats                                 the compiled book's size, depth, proof
";

/// Runs `wuzi book ARGS`; returns the exit code.
pub fn main(args: &[String]) -> i32 {
    let (cmd, rest) = match args.split_first() {
        Some((c, r)) => (c.as_str(), r),
        None => ("", args),
    };
    let result = Options::parse(rest).and_then(|o| match cmd {
        "build" => build(&o),
        "prove" => prove(&o),
        "refresh" => refresh(&o),
        "export" => crate::tools::bookfile::export(
            o.text("tree", TREE_FILE),
            o.text("proof", PROOF_FILE),
            o.text("out", DATA_FILE),
        ),
        "stats" => {
            print!("{}", crate::tools::bookfile::stats_text());
            Ok(())
        }
        _ => Err(format!("unknown book command '{cmd}'\n{USAGE}")),
    });
    match result {
        Ok(()) => 0,
        Err(why) => {
            eprintln!("wuzi book: {why}");
            2
        }
    }
}

fn command_comment(args: &str) -> String {
    format!("# wuzi book {args}")
}

/// The candidate moves of a searched position: the search's move, then the generator's
/// best, `width` in all.
fn candidates(board: &Board, s: &Searched, width: usize) -> Vec<Pos> {
    let mut out = vec![s.best];
    out.extend(crate::book::replies(board).into_iter().filter(|&p| p != s.best));
    out.truncate(width.max(1));
    out
}

/// The builder's view of its tree: minimax values (for black) by canonical key.
struct TreeView<'a> {
    tree: &'a HashMap<u64, Searched>,
    width: usize,
    max_ply: usize,
    values: HashMap<u64, i32>,
}

impl TreeView<'_> {
    /// The minimax value of a searched position, for black; `None` when not searched.
    fn value(&mut self, board: &mut Board, ply: usize) -> Option<i32> {
        let key = canonical(board).0;
        if let Some(&v) = self.values.get(&key) {
            return Some(v);
        }
        let s = self.tree.get(&key)?.clone();
        let mut v = s.score;
        if s.score.abs() <= WIN_BOUND && ply < self.max_ply {
            let black = board.side_to_move() == Color::Black;
            let mut best: Option<i32> = None;
            for (rank, p) in candidates(board, &s, self.width).into_iter().enumerate() {
                board.make(p);
                let child = if board.last_move_won() { None } else { self.value(board, ply + 1) };
                board.unmake();
                // The search's own move stands for itself until it is searched.
                let cv = child.or((rank == 0).then_some(s.score));
                if let Some(cv) = cv {
                    best = Some(match best {
                        None => cv,
                        Some(b) if black => b.max(cv),
                        Some(b) => b.min(cv),
                    });
                }
            }
            v = best.unwrap_or(s.score);
        }
        self.values.insert(key, v);
        Some(v)
    }

    /// Unsearched positions in the tree with their best-first cost (lowest first).
    fn frontier(
        &mut self,
        board: &mut Board,
        ply: usize,
        cost: i32,
        out: &mut Vec<(i32, Vec<Pos>)>,
        seen: &mut HashSet<u64>,
    ) {
        let key = canonical(board).0;
        if !seen.insert(key) {
            return;
        }
        let s = match self.tree.get(&key).cloned() {
            Some(s) => s,
            None => {
                out.push((cost, board.moves().map(|(p, _)| p).collect()));
                return;
            }
        };
        if s.score.abs() > WIN_BOUND || ply >= self.max_ply {
            return;
        }
        let me = self.value(board, ply).unwrap_or(s.score);
        let sign = if board.side_to_move() == Color::Black { 1 } else { -1 };
        for (rank, p) in candidates(board, &s, self.width).into_iter().enumerate() {
            board.make(p);
            if !board.last_move_won() && !board.is_full() {
                let cv =
                    self.value(board, ply + 1).unwrap_or(s.score - sign * RANK_COST * rank as i32);
                let loss = (sign * (me - cv)).max(0);
                self.frontier(board, ply + 1, cost + loss + PLY_COST, out, seen);
            }
            board.unmake();
        }
    }
}

fn search_one(moves: &[Pos], ms: u64) -> Option<Searched> {
    search_with(moves, crate::clock::budget::Limits::movetime(ms))
}

fn search_with(moves: &[Pos], limits: crate::clock::budget::Limits) -> Option<Searched> {
    let mut board = board_after(StartPos::Center4, moves).ok()?;
    let mut searcher = crate::search::searcher::Searcher::new(32);
    let clock = crate::clock::timeman::WallClock::new();
    let stop = AtomicBool::new(false);
    let black = board.side_to_move() == Color::Black;
    let r = searcher.think(&mut board, limits, &clock, &stop, &mut |_| {});
    let best = r.best?;
    let score = if black { r.score } else { -r.score };
    Some(Searched { moves: moves.to_vec(), score, depth: r.depth, best })
}

fn build(o: &Options) -> Result<(), String> {
    let path = o.text("tree", TREE_FILE).to_string();
    let ms: u64 = o.num("ms", 5000)?;
    let workers: usize = o.num("workers", 1)?;
    let positions: usize = o.num("positions", 100)?;
    let minutes: u64 = o.num("minutes", 15)?;
    let width: usize = o.num("width", 3)?;
    let max_ply: usize = o.num("max-ply", 14)?;
    let args = format!("build --ms {ms} --width {width} --max-ply {max_ply}");
    if !read_lines(&path).iter().any(|l| l == &command_comment(&args)) {
        append(&path, &[command_comment(&args)]).map_err(|e| format!("{path}: {e}"))?;
    }
    // Lines seen in games (`--seed 'MOVES;MOVES'`): each line's positions are searched first,
    // so that the book reaches them.
    let tree = load_tree(&path);
    for seed in o.text("seed", "").split(';').filter(|t| !t.trim().is_empty()) {
        let moves = parse_moves(seed)?;
        for n in 0..=moves.len() {
            let b = board_after(StartPos::Center4, &moves[..n])?;
            if tree.contains_key(&canonical(&b).0) || b.last_move_won() {
                continue;
            }
            let s = search_one(&moves[..n], ms).ok_or("no move to search")?;
            eprintln!("book build: seed {} -> {} score {}", moves_text(&s.moves), s.best, s.score);
            append(
                &path,
                &[command_comment(&format!("build --ms {ms} --seed '{seed}'")), tree_line(&s)],
            )
            .map_err(|e| format!("{path}: {e}"))?;
        }
    }
    let started = Instant::now();
    let mut done = 0;
    while done < positions && started.elapsed().as_secs() < minutes * 60 {
        let tree = load_tree(&path);
        let mut view = TreeView { tree: &tree, width, max_ply, values: HashMap::new() };
        let mut board = Board::with_start(12, StartPos::Center4);
        let root = view.value(&mut board, 0);
        let mut frontier = Vec::new();
        view.frontier(&mut board, 0, 0, &mut frontier, &mut HashSet::new());
        if frontier.is_empty() {
            eprintln!("book build: nothing left to search within {max_ply} plies");
            break;
        }
        frontier.sort();
        let batch: Vec<Vec<Pos>> =
            frontier.into_iter().take(workers.max(1)).map(|(_, m)| m).collect();
        let results: Vec<Option<Searched>> = std::thread::scope(|scope| {
            let handles: Vec<_> =
                batch.iter().map(|m| scope.spawn(move || search_one(m, ms))).collect();
            handles.into_iter().map(|h| h.join().ok().flatten()).collect()
        });
        let lines: Vec<String> = results.iter().flatten().map(tree_line).collect();
        append(&path, &lines).map_err(|e| format!("{path}: {e}"))?;
        done += batch.len();
        for s in results.iter().flatten() {
            eprintln!(
                "book build: [{done}/{positions}, {} in tree, {}s] {} -> {} score {} depth {} (root {})",
                tree.len() + lines.len(),
                started.elapsed().as_secs(),
                moves_text(&s.moves),
                s.best,
                s.score,
                s.depth,
                root.map_or("-".into(), |v| v.to_string())
            );
        }
    }
    Ok(())
}

/// Searches again, with today's search, every position of the tree from which the book that
/// `export` would write plays a searched move (not a proven one), and appends the new lines
/// to the tree, where they replace the old. The book's searched moves were made by the
/// search and evaluation of their day; a move changed may take the book into positions
/// that were never searched (the book ends there) or into others that are searched in
/// turn, so the reach is worked out again after every batch.
fn refresh(o: &Options) -> Result<(), String> {
    let path = o.text("tree", TREE_FILE).to_string();
    let proof_path = o.text("proof", PROOF_FILE).to_string();
    let ms: u64 = o.num("ms", 4000)?;
    let nodes: u64 = o.num("nodes", 0)?;
    let workers: usize = o.num("workers", 1)?.max(1);
    let (args, limits) = if nodes > 0 {
        (format!("refresh --nodes {nodes}"), crate::clock::budget::Limits::nodes(nodes))
    } else {
        (format!("refresh --ms {ms}"), crate::clock::budget::Limits::movetime(ms))
    };
    let comment = command_comment(&args);
    // Resuming: what this command wrote after its comment is done.
    let lines = read_lines(&path);
    let mut done: HashSet<u64> = match lines.iter().position(|l| *l == comment) {
        Some(i) => lines[i + 1..]
            .iter()
            .filter_map(|l| crate::tools::bookfile::parse_tree_line(l))
            .filter_map(|s| board_after(StartPos::Center4, &s.moves).ok())
            .map(|b| canonical(&b).0)
            .collect(),
        None => {
            append(&path, &[comment]).map_err(|e| format!("{path}: {e}"))?;
            HashSet::new()
        }
    };
    let proof = load_proof(&proof_path);
    // A proven position's entry is the proven move (see `entries`): never searched again.
    let proven: HashSet<u64> = proof.iter().map(|p| p.2).collect();
    let (mut searched, mut changed) = (0, 0);
    loop {
        let tree = load_tree(&path);
        let (table, _) = crate::tools::bookfile::entries(&tree, &proof);
        let reached = crate::book::reached_keys(&table);
        let mut todo: Vec<(u64, &Searched)> = tree
            .iter()
            .filter(|(k, _)| !done.contains(*k) && !proven.contains(*k))
            .filter(|(k, _)| reached.contains(&(*k & KEY_MASK)))
            .map(|(&k, s)| (k, s))
            .collect();
        if todo.is_empty() {
            break;
        }
        // Nearest the start first: those are the moves every book game plays.
        todo.sort_by(|(_, a), (_, b)| {
            a.moves.len().cmp(&b.moves.len()).then(a.moves.cmp(&b.moves))
        });
        todo.truncate(workers);
        let results: Vec<Option<Searched>> = std::thread::scope(|scope| {
            let handles: Vec<_> = todo
                .iter()
                .map(|(_, s)| scope.spawn(move || search_with(&s.moves, limits)))
                .collect();
            handles.into_iter().map(|h| h.join().ok().flatten()).collect()
        });
        let mut new_lines = Vec::new();
        for ((key, old), new) in todo.iter().zip(&results) {
            done.insert(*key);
            let new = match new {
                Some(new) => new,
                None => continue,
            };
            searched += 1;
            changed += usize::from(new.best != old.best);
            eprintln!(
                "book refresh: [{searched}, {changed} changed] {} -> {} (was {}) score {} (was {}) depth {}",
                moves_text(&new.moves),
                new.best,
                old.best,
                new.score,
                old.score,
                new.depth
            );
            new_lines.push(tree_line(new));
        }
        append(&path, &new_lines).map_err(|e| format!("{path}: {e}"))?;
    }
    println!("book refresh: {searched} positions searched again, {changed} moves changed");
    Ok(())
}

fn prove(o: &Options) -> Result<(), String> {
    let path = o.text("proof", PROOF_FILE).to_string();
    let d = crate::tools::proof::Config::default();
    let mut config = crate::tools::proof::Config {
        max_nodes: o.num("nodes", d.max_nodes)?,
        max_secs: o.num("secs", d.max_secs)?,
        width: o.num("width", d.width)?,
        max_ply: o.num("max-ply", d.max_ply)?,
        vcf_nodes: d.vcf_nodes,
        vct_nodes: o.num("vct-nodes", d.vct_nodes)?,
    };
    let mut known: HashMap<u64, Pos> =
        load_proof(&path).into_iter().map(|(_, _, k, w)| (k, w)).collect();
    eprintln!("book prove: {} positions already proven in {path}", known.len());
    let tree_path = match o.values.get("from-tree") {
        Some(tree_path) => tree_path,
        None => {
            let from = parse_moves(o.text("from", ""))?;
            return prove_one(&from, &config, &mut known, &path, true).map(|_| ());
        }
    };
    // Every black-to-move position the builder's search thinks black wins, deepest first
    // (a shallower proof may then use the deeper ones as known wins).
    let mut wins: Vec<Searched> = load_tree(tree_path)
        .into_values()
        .filter(|s| s.score > WIN_BOUND && s.moves.len() % 2 == 0)
        .collect();
    wins.sort_by(|a, b| b.moves.len().cmp(&a.moves.len()).then(a.moves.cmp(&b.moves)));
    config.max_secs = o.num("secs-each", 20)?;
    let comment = command_comment(&format!(
        "prove --from-tree {tree_path} --secs-each {} --width {} --max-ply {} --vct-nodes {}",
        config.max_secs, config.width, config.max_ply, config.vct_nodes
    ));
    append(&path, &[comment]).map_err(|e| format!("{path}: {e}"))?;
    let (total, mut proven) = (wins.len(), 0);
    for (i, s) in wins.iter().enumerate() {
        let b = board_after(StartPos::Center4, &s.moves)?;
        if known.contains_key(&canonical(&b).0) {
            proven += 1;
            continue;
        }
        proven += usize::from(prove_one(&s.moves, &config, &mut known, &path, false)?);
        eprintln!("book prove: [{}/{total}] {} proven so far", i + 1, proven);
    }
    println!("{proven} of the {total} won positions of {tree_path} proven");
    Ok(())
}

/// Proves `from` (black to move), appends what it proved to `path` and to `known`; says
/// whether `from` is proven.
fn prove_one(
    from: &[Pos],
    config: &crate::tools::proof::Config,
    known: &mut HashMap<u64, Pos>,
    path: &str,
    verbose: bool,
) -> Result<bool, String> {
    let root = board_after(StartPos::Center4, from)?;
    if root.side_to_move() != Color::Black {
        return Err("--from must leave black to move".into());
    }
    let started = Instant::now();
    let mut prover = crate::tools::proof::Prover::new(&root, config.clone(), known.clone());
    prover.run(50, &mut |p| {
        let (pn, dn) = p.root_numbers();
        if verbose {
            eprintln!(
                "book prove: {}s tree {} leaf checks {} root pn {pn} dn {dn}",
                started.elapsed().as_secs(),
                p.size(),
                p.leaf_checks
            );
        }
    });
    let lines = prover.proven_lines();
    // A run over a tree is recorded once, by the caller.
    let mut new_lines = vec![if verbose {
        command_comment(&format!(
            "prove --from '{}' --secs {} --width {} --max-ply {} --vct-nodes {}",
            moves_text(from),
            config.max_secs,
            config.width,
            config.max_ply,
            config.vct_nodes
        ))
    } else {
        String::from("#")
    }];
    let mut all: Vec<Pos> = from.to_vec();
    for l in &lines {
        all.truncate(from.len());
        all.extend_from_slice(&l.moves);
        let b = board_after(StartPos::Center4, &all)?;
        let (key, sym) = canonical(&b);
        if let std::collections::hash_map::Entry::Vacant(e) = known.entry(key) {
            e.insert(sym.apply(l.win, b.size()));
            new_lines.push(format!("{} | win {}", moves_text(&all), l.win));
        }
    }
    let fresh = new_lines.len() - 1;
    if fresh > 0 {
        append(path, &new_lines).map_err(|e| format!("{path}: {e}"))?;
    }
    let (pn, dn) = prover.root_numbers();
    println!(
        "root {}: {} after {}s; tree {} nodes, {} leaf checks; {} proven positions ({fresh} new, written to {path}); proof depth {} plies",
        if from.is_empty() { "(judge start)".to_string() } else { moves_text(from) },
        if pn == 0 { "PROVEN won for black" } else if dn == 0 { "not provable within the limits" } else { "open" },
        started.elapsed().as_secs(),
        prover.size(),
        prover.leaf_checks,
        lines.len(),
        prover.proof_depth()
    );
    if verbose {
        println!("root pn {pn} dn {dn}; black's moves at the root:\n{}", prover.open_summary());
    }
    Ok(pn == 0)
}
