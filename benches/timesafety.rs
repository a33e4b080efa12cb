//! `cargo bench --bench timesafety [-- --games N] [-- --no-load]`: whole games on the judge's
//! clock with the other core saturated, timed around the real pipes.
//!
//! 1. An arena match, the release brain against itself from the balanced openings, both
//!    with `--ponder` (so with the busy thread there are three runners for two cores).
//! 2. Two board-filling games: the brain answers every `TURN` of a game whose other side is a
//!    random mover, and the driver plays on past any five until the 12×12 board is full, so
//!    the brain answers about 70 `TURN`s under one game's 90 s budget.
//!
//! It reports each game's slowest move, thinking total and peak resident memory, and checks
//! them against the targets: slowest under 1.9 s, totals under 85 s, memory under 200 MB.
//! Needs `cargo build --release` first (the bench says so if the binaries are missing).

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const SLOWEST_MS: u128 = 1900;
const TOTAL_MS: u128 = 85_000;
const MEMORY_KB: u64 = 200 * 1024;

struct GameFigures {
    name: String,
    moves: usize,
    slowest_ms: u128,
    total_ms: u128,
    peak_kb: u64,
}

fn peak_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// One game in which `bin` answers every TURN and a random mover plays the other side, on
/// past any five, until the board is full.
fn fill_game(bin: &Path, we_are_black: bool, seed: u64) -> GameFigures {
    let mut child = Command::new(bin)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the brain");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut answer = |stdin: &mut std::process::ChildStdin, line: &str| -> (String, u128) {
        let t = Instant::now();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        loop {
            let mut s = String::new();
            if stdout.read_line(&mut s).unwrap() == 0 {
                panic!("the brain exited");
            }
            if !s.starts_with("DEBUG") {
                return (s.trim().to_string(), t.elapsed().as_millis());
            }
        }
    };
    let mut taken = [[false; 12]; 12];
    for (r, c) in [(5, 5), (6, 6), (5, 6), (6, 5)] {
        taken[r][c] = true;
    }
    let (ok, start_ms) = answer(&mut stdin, if we_are_black { "START 1" } else { "START 2" });
    assert_eq!(ok, "OK");
    let mut total = start_ms;
    let mut slowest = 0;
    let mut moves = 0;
    let mut state = seed | 1;
    let mut our_turn = we_are_black;
    while taken.iter().flatten().any(|&t| !t) {
        if our_turn {
            let (mv, ms) = answer(&mut stdin, "TURN");
            let v: Vec<usize> = mv.split_whitespace().filter_map(|t| t.parse().ok()).collect();
            assert!(v.len() == 2 && !taken[v[0]][v[1]], "bad move '{mv}'");
            taken[v[0]][v[1]] = true;
            total += ms;
            slowest = slowest.max(ms);
            moves += 1;
        } else {
            let free: Vec<(usize, usize)> =
                (0..144).map(|i| (i / 12, i % 12)).filter(|&(r, c)| !taken[r][c]).collect();
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let (r, c) = free[(state % free.len() as u64) as usize];
            taken[r][c] = true;
            writeln!(stdin, "PLACE {r} {c}").unwrap();
        }
        our_turn = !our_turn;
    }
    let peak = peak_kb(child.id());
    writeln!(stdin, "END 0").unwrap();
    drop(stdin);
    let _ = child.wait();
    let name = format!("fill as {}", if we_are_black { "black" } else { "white" });
    GameFigures { name, moves, slowest_ms: slowest, total_ms: total, peak_kb: peak }
}

/// The figures of every brain in an arena match's records.
fn arena_games(arena: &Path, bin: &Path, games: usize, root: &Path) -> Vec<GameFigures> {
    let out = std::env::temp_dir().join(format!("wuzi-timesafety-{}", std::process::id()));
    let status = Command::new(arena)
        .arg("--games")
        .arg(games.to_string())
        .arg("--openings")
        .arg(root.join("tests/data/openings12-balanced.txt"))
        .arg("--out")
        .arg(&out)
        // Both sides ponder: the hardest case for the clock, three runners on two cores with
        // the busy thread.
        .arg(format!("{} --ponder", bin.display()))
        .arg(format!("{} --ponder", bin.display()))
        .stdout(Stdio::null())
        .status()
        .expect("run the arena");
    assert!(status.success(), "the arena failed");
    let mut figures = Vec::new();
    for g in 1..=games {
        let text = std::fs::read_to_string(out.join(format!("game-{g:04}.txt"))).unwrap();
        let field = |name: &str| -> Vec<u128> {
            text.lines()
                .find_map(|l| l.strip_prefix(name))
                .map(|rest| rest.split_whitespace().filter_map(|t| t.parse().ok()).collect())
                .unwrap_or_default()
        };
        let (max, total, peak) =
            (field("max-move-ms:"), field("total-ms:"), field("peak-memory-kb:"));
        let moves = field("moves:").first().copied().unwrap_or(0) as usize;
        let result = text.lines().find(|l| l.starts_with("result:")).unwrap_or("").to_string();
        for side in 0..2 {
            figures.push(GameFigures {
                name: format!("arena game {g} {} ({result})", ["black", "white"][side]),
                moves,
                slowest_ms: max.get(side).copied().unwrap_or(0),
                total_ms: total.get(side).copied().unwrap_or(0),
                peak_kb: peak.get(side).copied().unwrap_or(0) as u64,
            });
        }
    }
    let _ = std::fs::remove_dir_all(&out);
    figures
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games =
        args.windows(2).find(|w| w[0] == "--games").and_then(|w| w[1].parse().ok()).unwrap_or(4);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let bin = root.join("target/release/wuzi");
    let arena = root.join("target/release/arena");
    if !bin.exists() || !arena.exists() {
        println!("build the release binaries first: cargo build --release");
        return;
    }
    let busy = Arc::new(AtomicBool::new(true));
    if !args.iter().any(|a| a == "--no-load") {
        let flag = Arc::clone(&busy);
        std::thread::spawn(move || {
            let mut x = 0u64;
            while flag.load(Ordering::Relaxed) {
                x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
            }
        });
        println!("load: one busy thread on the other core");
    }
    let started = Instant::now();
    let mut all = arena_games(&arena, &bin, games, &root);
    all.push(fill_game(&bin, true, 0x9E37_79B9));
    all.push(fill_game(&bin, false, 0x7F4A_7C15));
    busy.store(false, Ordering::Relaxed);
    let mut pass = true;
    println!(
        "{:<44} {:>6} {:>10} {:>10} {:>9}",
        "game", "moves", "slowest ms", "total ms", "peak MB"
    );
    for g in &all {
        let ok = g.slowest_ms < SLOWEST_MS && g.total_ms < TOTAL_MS && g.peak_kb < MEMORY_KB;
        pass &= ok;
        println!(
            "{:<44} {:>6} {:>10} {:>10} {:>9.1} {}",
            g.name,
            g.moves,
            g.slowest_ms,
            g.total_ms,
            g.peak_kb as f64 / 1024.0,
            if ok { "" } else { "FAIL" }
        );
    }
    let mut slowest: Vec<u128> = all.iter().map(|g| g.slowest_ms).collect();
    slowest.sort_unstable();
    let mut totals: Vec<u128> = all.iter().map(|g| g.total_ms).collect();
    totals.sort_unstable();
    let peak = all.iter().map(|g| g.peak_kb).max().unwrap_or(0);
    println!(
        "slowest move: max {} ms, median {} ms; game total: max {} ms, median {} ms; peak memory {:.1} MB",
        slowest.last().unwrap_or(&0),
        slowest[slowest.len() / 2],
        totals.last().unwrap_or(&0),
        totals[totals.len() / 2],
        peak as f64 / 1024.0
    );
    println!(
        "{} (targets: slowest < {SLOWEST_MS} ms, totals < {TOTAL_MS} ms, memory < {} MB) in {:?}",
        if pass { "PASS" } else { "FAIL" },
        MEMORY_KB / 1024,
        Duration::from_secs(started.elapsed().as_secs())
    );
}
