//! The opening book's files: the builder's tree and the proof's proven positions (plain
//! text, one position a line, the moves from the judge's start first, so that they can be
//! read, merged and resumed), and the generated table `src/book/data.rs` made from both.
//! `#` lines are comments; the commands that wrote a file are kept there as comments and
//! copied into the generated table's header.

use std::collections::{HashMap, HashSet};
use std::io::Write;

use crate::board::{Pos, StartPos};
use crate::book::{canonical, encode, pack, Entry, KEY_MASK, PROVEN};
use crate::search::bench::{board_after, parse_moves};

/// Where `build` keeps its positions unless told otherwise.
pub const TREE_FILE: &str = "book/tree.txt";
/// Where `prove` keeps its proven positions unless told otherwise.
pub const PROOF_FILE: &str = "book/proof.txt";
/// The generated table.
pub const DATA_FILE: &str = "src/book/data.rs";

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

/// Moves as `r,c r,c ...`.
pub fn moves_text(moves: &[Pos]) -> String {
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

/// The lines of a file (none when it cannot be read).
pub fn read_lines(path: &str) -> Vec<String> {
    std::fs::read_to_string(path).map(|t| t.lines().map(String::from).collect()).unwrap_or_default()
}

/// Appends `lines` to a file, making it (and its folder) when missing.
pub fn append(path: &str, lines: &[String]) -> std::io::Result<()> {
    if let Some(dir) = std::path::Path::new(path).parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut f = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
    for l in lines {
        writeln!(f, "{l}")?;
    }
    Ok(())
}

/// The positions of a tree file by canonical key (the last line of a position counts: `book
/// refresh` appends its new lines).
pub fn load_tree(path: &str) -> HashMap<u64, Searched> {
    let mut map = HashMap::new();
    for s in read_lines(path).iter().filter_map(|l| parse_tree_line(l)) {
        if let Ok(b) = board_after(StartPos::Center4, &s.moves) {
            map.insert(canonical(&b).0, s);
        }
    }
    map
}

/// The positions of a proof file: (moves, win, canonical key, win in the canonical frame).
pub fn load_proof(path: &str) -> Vec<(Vec<Pos>, Pos, u64, Pos)> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for (moves, win) in read_lines(path).iter().filter_map(|l| parse_proof_line(l)) {
        let b = match board_after(StartPos::Center4, &moves) {
            Ok(b) => b,
            Err(_) => continue,
        };
        let (key, sym) = canonical(&b);
        if b.is_empty(win) && seen.insert(key) {
            out.push((moves, win, key, sym.apply(win, b.size())));
        }
    }
    out
}

/// The table of `tree` and `proof`: one entry per position, a proven move before a searched
/// one; sorted by key. Also the proven positions no other proven position leads to (where
/// a walk over the proof starts).
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
        // A position whose parent's proven win is this very move is covered by the parent.
        let parent =
            if n >= 2 { board_after(StartPos::Center4, &moves[..n - 2]).ok() } else { None };
        let covered = match parent {
            Some(b) => {
                let (k, sym) = canonical(&b);
                wins.get(&k).map(|&w| sym.apply(w, 12)) == Some(moves[n - 2])
            }
            None => false,
        };
        if !covered {
            roots.push(moves.clone());
        }
    }
    let mut table: Vec<Entry> = map.into_iter().map(|(k, (m, f))| pack(k, m, f)).collect();
    table.sort_unstable();
    table.dedup_by_key(|e| *e & KEY_MASK);
    (table, roots)
}

/// Writes the table of the tree and proof files to `out`.
pub fn export(tree_path: &str, proof_path: &str, out: &str) -> Result<(), String> {
    let tree = load_tree(tree_path);
    let proof = load_proof(proof_path);
    let (mut table, roots) = entries(&tree, &proof);
    // Only what a book line can reach from the start: the rest would be dead weight.
    let all = table.len();
    let reached = crate::book::reached_keys(&table);
    table.retain(|e| reached.contains(&(e & KEY_MASK)));
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
    // A refresh runs after the proofs it leaves alone (it skips the proven positions), so it
    // is listed last, in the order the commands are to be run again.
    cmds.sort_by_key(|c| c.starts_with("# wuzi book refresh"));
    for c in cmds {
        text.push_str(&format!(
            "//! `cargo run --release -- {}`\n",
            &c[2..].trim_start_matches("wuzi ")
        ));
    }
    let proven = table.iter().filter(|&&e| crate::book::unpack(e).2 & PROVEN != 0).count();
    text.push_str(&format!(
        "//! {} positions ({proven} proven won for black): those reached from the start of the\n\
         //! {all} made of {} searched and {} proven positions.\n\n",
        table.len(),
        tree.len(),
        proof.len()
    ));
    text.push_str("/// Entries packed by `crate::book::pack`, sorted by key.\n#[rustfmt::skip]\n");
    text.push_str("pub const BOOK: &[u64] = &[\n");
    for chunk in table.chunks(8) {
        let row: Vec<String> = chunk.iter().map(|e| format!("0x{e:x},")).collect();
        text.push_str(&row.concat());
        text.push('\n');
    }
    text.push_str("];\n");
    std::fs::write(out, text).map_err(|e| format!("{out}: {e}"))?;
    eprintln!(
        "book export: {} entries reached from the start (of {all}; {} proof roots), written to {out}",
        table.len(),
        roots.len()
    );
    Ok(())
}

/// What `wuzi book stats` prints.
pub fn stats_text() -> String {
    let s = crate::book::stats_of(crate::book::data::BOOK);
    format!(
        "book: {} positions ({} proven won for black), {} reached from the judge's start, \
         longest line {} plies; the start is {}proven\n",
        s.entries,
        s.proven,
        s.reached,
        s.depth,
        if s.start_proven { "" } else { "not " },
    )
}
