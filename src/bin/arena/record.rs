//! Game records: one plain-text file per game that a person can read and replay.
//!
//! Layout of `game-NNNN.txt`:
//!
//! ```text
//! # wuzi arena record
//! game: 3
//! black: B (judge) target/release/wuzi
//! white: A (piskvork) ./brain
//! start: W 5,5  W 6,6  B 5,6  B 6,5
//! opening: B 4,7  W 7,4
//! result: 1-0 B wins by five
//! moves: 23
//! max-move-ms: black 12 white 3
//! total-ms: black 40 white 20
//! peak-memory-kb: black 70312 white 70280
//!
//! [moves]
//! #  n colour engine row col     ms
//!    1 black  opening  4   7      -
//!    3 black  B        3   8     12
//!
//! [replay]
//! PLACE 4 7
//! PLACE 7 4
//! ```
//!
//! `grep '^PLACE ' game-0003.txt` gives every stone after the start stones in order, as
//! lines a judge-protocol brain reads. Notes, stderr tails and (with `--debug-log`) DEBUG
//! lines follow in their own `[...]` sections.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use crate::game::Color;
use crate::referee::GameRecord;

/// The file name of game `number`.
pub fn file_name(number: usize) -> String {
    format!("game-{number:04}.txt")
}

/// The text of a game's record.
pub fn render(g: &GameRecord, debug_log: bool) -> String {
    let mut s = String::new();
    let colours = [Color::Black, Color::White];
    let _ = writeln!(s, "# wuzi arena record");
    let _ = writeln!(s, "game: {}", g.number);
    for c in colours {
        let side = &g.sides[c.index()];
        let _ =
            writeln!(s, "{}: {} ({}) {}", c.name(), side.label, side.proto.name(), side.command);
    }
    let stones = |list: &[(crate::game::Move, Color)]| {
        if list.is_empty() {
            return "none".to_string();
        }
        let words: Vec<String> = list
            .iter()
            .map(|(mv, c)| format!("{} {mv}", if *c == Color::Black { 'B' } else { 'W' }))
            .collect();
        words.join("  ")
    };
    let _ = writeln!(s, "start: {}", stones(&g.start_stones));
    let _ = writeln!(s, "opening: {}", stones(&g.opening));
    let _ = writeln!(s, "result: {} {}", g.score_text(), g.summary());
    let _ = writeln!(s, "moves: {}", g.moves.len());
    let [b, w] = &g.sides;
    let _ = writeln!(s, "max-move-ms: black {} white {}", b.max_move_ms, w.max_move_ms);
    let _ = writeln!(s, "total-ms: black {} white {}", b.used_ms, w.used_ms);
    let _ = writeln!(s, "peak-memory-kb: black {} white {}", b.peak_kb, w.peak_kb);

    let _ = writeln!(s, "\n[moves]");
    let _ = writeln!(s, "#  n colour engine row col     ms");
    let mut n = 0;
    for &(mv, c) in &g.opening {
        n += 1;
        let _ = writeln!(s, "{n:4} {:6} opening {:3} {:3} {:>6}", c.name(), mv.row, mv.col, "-");
    }
    for m in &g.moves {
        n += 1;
        let label = g.sides[m.color.index()].label;
        let (name, row, col, ms) = (m.color.name(), m.mv.row, m.mv.col, m.ms);
        let _ = writeln!(s, "{n:4} {name:6} {label:7} {row:3} {col:3} {ms:6}");
    }

    let _ = writeln!(s, "\n[replay]");
    let _ = writeln!(s, "# the opening and the played moves, in order, as judge-protocol lines");
    for mv in g.opening.iter().map(|m| m.0).chain(g.moves.iter().map(|m| m.mv)) {
        let _ = writeln!(s, "PLACE {} {}", mv.row, mv.col);
    }

    for c in colours {
        let side = &g.sides[c.index()];
        let mut section = |title: &str, lines: &[String]| {
            if !lines.is_empty() {
                let _ = writeln!(s, "\n[{title} {}]", side.label);
                for l in lines {
                    let _ = writeln!(s, "{l}");
                }
            }
        };
        section("notes", &side.notes);
        section("stderr", &side.stderr);
        if debug_log {
            section("debug", &side.debug);
        }
    }
    s
}

/// Writes a game's record into `dir` (created if needed).
pub fn write_game(dir: &Path, g: &GameRecord, debug_log: bool) -> Result<(), String> {
    fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let path = dir.join(file_name(g.number));
    fs::write(&path, render(g, debug_log))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Writes the match summary (`match.txt`) into `dir`.
pub fn write_match(dir: &Path, text: &str) -> Result<(), String> {
    fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let path = dir.join("match.txt");
    fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}
