//! Making the opening book: `wuzi book build` grows a tree of deeply searched positions from
//! the judge's start, `wuzi book prove` runs the proof search (`crate::proof`), `wuzi book
//! export` turns both files into `src/book_data.rs`, `wuzi book stats` describes the book
//! compiled in.
//!
//! Both files are plain text, one position a line, the moves from the judge's start first,
//! so that they can be read, merged and resumed: a position already in a file is never
//! searched again. `#` lines are comments; the commands that wrote a file are kept there as
//! comments and copied into the generated table's header.

use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::bench::{board_after, parse_moves};
use crate::board::{Board, Color, Pos, StartPos};
use crate::book::{canonical, encode, Entry, PROVEN};
use crate::params::WIN_BOUND;

/// Where `build` keeps its positions unless told otherwise.
pub const TREE_FILE: &str = "book/tree.txt";
/// Where `prove` keeps its proven positions unless told otherwise.
pub const PROOF_FILE: &str = "book/proof.txt";
/// The generated table.
pub const DATA_FILE: &str = "src/book_data.rs";

/// Cost of one more ply in the builder's best-first choice, in score units.
const PLY_COST: i32 = 20;
/// Estimated loss of the k-th candidate move not yet searched, per rank.
const RANK_COST: i32 = 30;

/// One searched position of the builder's tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Searched {
    /// Moves from the judge's start.
    pub moves: Vec<Pos>,
    /// The search's score, for black.
    pub score: i32,
    /// Depth reached.
    pub depth: i32,
    /// The search's move.
    pub best: Pos,
}

fn moves_text(moves: &[Pos]) -> String {
    moves.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(" ")
}

/// The line of `s` in the tree file: `moves | score depth best`.
pub fn tree_line(s: &Searched) -> String {
    format!("{} | {} {} {}", moves_text(&s.moves), s.score, s.depth, s.best)
}

/// Parses a tree-file line (`None` for comments, blanks and damaged lines).
pub fn parse_tree_line(line: &str) -> Option<Searched> {
    let (moves, rest) = line.split_once('|')?;
    let mut f = rest.split_whitespace();
    let score = f.next()?.parse().ok()?;
    let depth = f.next()?.parse().ok()?;
    let best = *parse_moves(f.next()?).ok()?.first()?;
    Some(Searched { moves: parse_moves(moves).ok()?, score, depth, best })
}

/// Parses a proof-file line, `moves | win r,c`: the moves and black's winning move.
pub fn parse_proof_line(line: &str) -> Option<(Vec<Pos>, Pos)> {
    let (moves, rest) = line.split_once('|')?;
    let win = rest.trim().strip_prefix("win")?;
    Some((parse_moves(moves).ok()?, *parse_moves(win).ok()?.first()?))
}

fn read_lines(path: &str) -> Vec<String> {
    std::fs::read_to_string(path).map(|t| t.lines().map(String::from).collect()).unwrap_or_default()
}

fn append(path: &str, lines: &[String]) -> std::io::Result<()> {
    if let Some(dir) = std::path::Path::new(path).parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut f = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
    for l in lines {
        writeln!(f, "{l}")?;
    }
    Ok(())
}

/// The positions of a tree file by canonical key (the first line of a position counts).
pub fn load_tree(path: &str) -> HashMap<u64, Searched> {
    let mut map = HashMap::new();
    for s in read_lines(path).iter().filter_map(|l| parse_tree_line(l)) {
        if let Ok(b) = board_after(StartPos::Center4, &s.moves) {
            map.entry(canonical(&b).0).or_insert(s);
        }
    }
    map
}

/// The positions of a proof file: (moves, win, canonical key, win in the canonical frame).
pub fn load_proof(path: &str) -> Vec<(Vec<Pos>, Pos, u64, Pos)> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for (moves, win) in read_lines(path).iter().filter_map(|l| parse_proof_line(l)) {
        let Ok(b) = board_after(StartPos::Center4, &moves) else { continue };
        let (key, sym) = canonical(&b);
        if b.is_empty(win) && seen.insert(key) {
            out.push((moves, win, key, sym.apply(win, b.size())));
        }
    }
    out
}

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
wuzi book prove  [--proof FILE] [--from MOVES] [--secs S] [--nodes N] [--width K]
                 [--max-ply P] [--vct-nodes N]  proof-number search that black wins
wuzi book export [--tree FILE] [--proof FILE] [--out FILE]   write src/book_data.rs
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
        "export" => export(&o),
        "stats" => {
            print!("{}", stats_text());
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
        let Some(s) = self.tree.get(&key).cloned() else {
            out.push((cost, board.moves().map(|(p, _)| p).collect()));
            return;
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
    let mut board = board_after(StartPos::Center4, moves).ok()?;
    let mut searcher = crate::search::Searcher::new(32);
    let clock = crate::timeman::WallClock::new();
    let stop = AtomicBool::new(false);
    let limits = crate::timeman::Limits::movetime(ms);
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

fn prove(o: &Options) -> Result<(), String> {
    let path = o.text("proof", PROOF_FILE).to_string();
    let from = parse_moves(o.text("from", ""))?;
    let root = board_after(StartPos::Center4, &from)?;
    if root.side_to_move() != Color::Black {
        return Err("--from must leave black to move".into());
    }
    let d = crate::proof::Config::default();
    let config = crate::proof::Config {
        max_nodes: o.num("nodes", d.max_nodes)?,
        max_secs: o.num("secs", d.max_secs)?,
        width: o.num("width", d.width)?,
        max_ply: o.num("max-ply", d.max_ply)?,
        vcf_nodes: d.vcf_nodes,
        vct_nodes: o.num("vct-nodes", d.vct_nodes)?,
    };
    let known: HashMap<u64, Pos> =
        load_proof(&path).into_iter().map(|(_, _, k, w)| (k, w)).collect();
    eprintln!("book prove: {} positions already proven in {path}", known.len());
    let started = Instant::now();
    let mut prover = crate::proof::Prover::new(&root, config.clone(), known.clone());
    prover.run(50, &mut |p| {
        let (pn, dn) = p.root_numbers();
        eprintln!(
            "book prove: {}s tree {} leaf checks {} root pn {pn} dn {dn}",
            started.elapsed().as_secs(),
            p.size(),
            p.leaf_checks
        );
    });
    let lines = prover.proven_lines();
    let mut new_lines = vec![command_comment(&format!(
        "prove --from '{}' --width {} --max-ply {} --vct-nodes {}",
        moves_text(&from),
        config.width,
        config.max_ply,
        config.vct_nodes
    ))];
    let mut fresh = 0;
    let mut all: Vec<Pos> = from.clone();
    for l in &lines {
        all.truncate(from.len());
        all.extend_from_slice(&l.moves);
        let b = board_after(StartPos::Center4, &all)?;
        if !known.contains_key(&canonical(&b).0) {
            fresh += 1;
            new_lines.push(format!("{} | win {}", moves_text(&all), l.win));
        }
    }
    append(&path, &new_lines).map_err(|e| format!("{path}: {e}"))?;
    let (pn, dn) = prover.root_numbers();
    println!(
        "root {}: {} after {}s; tree {} nodes, {} leaf checks; {} proven positions in the solution ({fresh} new, written to {path}); proof depth {} plies",
        if from.is_empty() { "(judge start)".to_string() } else { moves_text(&from) },
        if pn == 0 { "PROVEN won for black" } else if dn == 0 { "not provable within the limits" } else { "open" },
        started.elapsed().as_secs(),
        prover.size(),
        prover.leaf_checks,
        lines.len(),
        prover.proof_depth()
    );
    println!("root pn {pn} dn {dn}; black's moves at the root:\n{}", prover.open_summary());
    Ok(())
}

/// The table of `tree` and `proof`: one entry per position, a proven move before a searched
/// one; sorted by key. Also the proven positions no other proven position leads to.
pub fn entries(
    tree: &HashMap<u64, Searched>,
    proof: &[(Vec<Pos>, Pos, u64, Pos)],
) -> (Vec<Entry>, Vec<Vec<Pos>>) {
    let mut map: HashMap<u64, (u8, u8)> = HashMap::new();
    for (&key, s) in tree {
        if let Ok(b) = board_after(StartPos::Center4, &s.moves) {
            map.insert(key, (encode(canonical(&b).1.apply(s.best, 12)), 0));
        }
    }
    let mut wins: HashMap<u64, Pos> = HashMap::new();
    for (_, _, key, cwin) in proof {
        map.insert(*key, (encode(*cwin), PROVEN));
        wins.insert(*key, *cwin);
    }
    let mut roots = Vec::new();
    for (moves, _, _, _) in proof {
        let n = moves.len();
        let covered = n >= 2
            && board_after(StartPos::Center4, &moves[..n - 2]).ok().is_some_and(|b| {
                let (k, sym) = canonical(&b);
                wins.get(&k).is_some_and(|&w| sym.apply(w, 12) == moves[n - 2])
            });
        if !covered {
            roots.push(moves.clone());
        }
    }
    let mut table: Vec<Entry> = map.into_iter().map(|(k, (m, f))| (k, m, f)).collect();
    table.sort_unstable();
    (table, roots)
}

fn export(o: &Options) -> Result<(), String> {
    let tree_path = o.text("tree", TREE_FILE);
    let proof_path = o.text("proof", PROOF_FILE);
    let out = o.text("out", DATA_FILE);
    let tree = load_tree(tree_path);
    let proof = load_proof(proof_path);
    let (table, roots) = entries(&tree, &proof);
    let mut text =
        String::from("//! The opening book's table, generated: do not edit by hand.\n//!\n");
    text.push_str("//! Regenerate: the commands below (from the files' own records), then\n");
    text.push_str(&format!(
        "//! `cargo run --release -- book export --tree {tree_path} --proof {proof_path}`.\n"
    ));
    let mut cmds: Vec<String> = read_lines(tree_path)
        .into_iter()
        .chain(read_lines(proof_path))
        .filter(|l| l.starts_with("# wuzi book"))
        .collect();
    cmds.dedup();
    for c in cmds {
        text.push_str(&format!(
            "//! `cargo run --release -- {}`\n",
            &c[2..].trim_start_matches("wuzi ")
        ));
    }
    text.push_str(&format!(
        "//! {} positions: {} searched, {} proven won for black.\n\n",
        table.len(),
        tree.len(),
        proof.len()
    ));
    text.push_str("/// (canonical key, move `row * 12 + col` in the canonical frame, flags), sorted by key.\n#[rustfmt::skip]\npub const BOOK: &[(u64, u8, u8)] = &[\n");
    for chunk in table.chunks(4) {
        let row: Vec<String> =
            chunk.iter().map(|(k, m, f)| format!("(0x{k:016x},{m},{f})")).collect();
        text.push_str(&row.join(","));
        text.push_str(",\n");
    }
    text.push_str("];\n\n/// Moves from the judge's start to each proven position that no other proven position\n/// leads to: where the proof's walks start.\n#[rustfmt::skip]\npub const PROOF_ROOTS: &[&str] = &[\n");
    for r in &roots {
        text.push_str(&format!("\"{}\",\n", moves_text(r)));
    }
    text.push_str("];\n");
    std::fs::write(out, text).map_err(|e| format!("{out}: {e}"))?;
    eprintln!(
        "book export: {} entries, {} proof roots, written to {out}",
        table.len(),
        roots.len()
    );
    Ok(())
}

/// What `wuzi book stats` prints.
pub fn stats_text() -> String {
    let s = crate::book::stats_of(crate::book_data::BOOK);
    format!(
        "book: {} positions ({} proven won for black), {} reached from the judge's start, \
         longest line {} plies; the start is {}proven; {} proof roots\n",
        s.entries,
        s.proven,
        s.reached,
        s.depth,
        if s.start_proven { "" } else { "not " },
        crate::book_data::PROOF_ROOTS.len()
    )
}
