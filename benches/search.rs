//! `cargo bench --bench search [-- OPTIONS]`: the search's speed, depth and tactical strength.
//!
//! 1. The bench (fixed depth, fresh tables): `N nodes M nps`, deterministic N.
//! 2. The depth reached in `--movetime` ms (default 1500) from each bench position.
//! 3. The tactics suite `../shared/tactics/wins.txt` at `--tactics-ms` ms (default 1000) a
//!    position: the solve rate, overall and by VCF length, and the positions missed.
//!
//! `--skip-tactics` leaves out part 3; `--only-tactics` runs only it.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use wuzi::board::StartPos;
use wuzi::clock::budget::Limits;
use wuzi::clock::timeman::WallClock;
use wuzi::engine::Engine;
use wuzi::search::bench::{board_after, parse_tactic, search_all, DEFAULT_DEPTH};

/// Records pseudo-random games on the 12×12 board, then times replaying them: make+unmake
/// pairs a second (move choice is not timed).
fn make_unmake_speed() {
    let mut board = wuzi::board::Board::with_start(12, StartPos::Center4);
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut games = Vec::new();
    for _ in 0..2000 {
        let mut moves = Vec::new();
        while moves.len() < 60 && !board.last_move_won() {
            let empties: Vec<_> = board.candidates().collect();
            if empties.is_empty() {
                break;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let p = empties[(state % empties.len() as u64) as usize];
            board.make(p);
            moves.push(p);
        }
        for _ in 0..moves.len() {
            board.unmake();
        }
        games.push(moves);
    }
    let mut pairs = 0u64;
    let started = Instant::now();
    while started.elapsed().as_millis() < 1000 {
        for moves in &games {
            for &p in moves {
                board.make(p);
            }
            for _ in moves {
                board.unmake();
            }
            pairs += moves.len() as u64;
        }
    }
    let secs = started.elapsed().as_secs_f64();
    println!("make+unmake: {:.0} pairs/s (random games, 12x12)", pairs as f64 / secs);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opt = |name: &str, default: u64| {
        args.windows(2).find(|w| w[0] == name).and_then(|w| w[1].parse().ok()).unwrap_or(default)
    };
    let movetime = opt("--movetime", 1500);
    let tactics_ms = opt("--tactics-ms", 1000);
    let only_tactics = args.iter().any(|a| a == "--only-tactics");
    if !only_tactics {
        make_unmake_speed();
        let started = Instant::now();
        let reports = search_all(Limits::depth(DEFAULT_DEPTH));
        let nodes: u64 = reports.iter().map(|r| r.nodes).sum();
        let secs = started.elapsed().as_secs_f64();
        println!("bench depth {DEFAULT_DEPTH}: {nodes} nodes {:.0} nps", nodes as f64 / secs);
        println!("depth reached in {movetime} ms:");
        for (i, r) in search_all(Limits::movetime(movetime)).iter().enumerate() {
            println!("  position {}: {}", i + 1, r.summary());
        }
    }
    if args.iter().any(|a| a == "--skip-tactics") {
        return;
    }
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/tactics/wins.txt");
    let Ok(text) = std::fs::read_to_string(path) else {
        println!("tactics suite not found at {path}; skipped");
        return;
    };
    let mut by_len: std::collections::BTreeMap<u32, (u32, u32)> = Default::default();
    let (mut solved, mut total) = (0, 0);
    let mut engine = Engine::new(64);
    let clock = WallClock::new();
    let stop = AtomicBool::new(false);
    for (n, line) in text.lines().enumerate() {
        let Some(t) = parse_tactic(line) else { continue };
        let t = t.expect("tactics line");
        let board = board_after(StartPos::Empty, &t.moves).expect("tactics position");
        let stones: Vec<_> = board.moves().collect();
        engine.set_position(12, &stones, board.side_to_move());
        let d = engine.think(
            board.side_to_move(),
            Limits::movetime(tactics_ms),
            &clock,
            &stop,
            &mut |_| {},
        );
        let ok = d.pos.is_some_and(|p| t.solutions.contains(&p));
        total += 1;
        solved += ok as u32;
        let e = by_len.entry(t.length).or_default();
        e.0 += ok as u32;
        e.1 += 1;
        if !ok {
            let how = d.report.map(|r| r.summary()).unwrap_or_default();
            println!(
                "  missed line {} (len {}, {} solutions): played {:?} [{how}]",
                n + 1,
                t.length,
                t.solutions.len(),
                d.pos.map(|p| p.to_string())
            );
        }
    }
    println!(
        "tactics at {tactics_ms} ms: {solved}/{total} solved ({:.1}%)",
        100.0 * solved as f64 / total.max(1) as f64
    );
    for (len, (s, t)) in by_len {
        println!("  VCF length {len:>2}: {s}/{t}");
    }
}
