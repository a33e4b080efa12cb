//! `cargo bench --bench solver [-- OPTIONS]`: how well the threat solver sees the opponent's
//! wins that lost us games, and what the root's defence check costs.
//!
//! The positions are the defence suite `tests/data/defence12-rapfi.txt` (our fatal moves
//! against Rapfi, each followed in the game by the opponent's forced win).
//!
//! 1. **Wins found**: after each fatal move, the opponent's VCT at the root check's budget
//!    (`DEFENCE_VCT_DEPTH`, `DEFENCE_VCT_NODES`) and larger ones: how many of the known wins
//!    the solver proves, its nodes and its speed.
//! 2. **The check's workload**: before each fatal move, the opponent's VCT after each of our
//!    four best moves by the move generator's order, at the check's budget, as the root's
//!    defence check runs it: how many lose, and the time it takes.
//!
//! `--suite FILE` takes another suite of the same format.

use std::time::Instant;

use wuzi::bench::{board_after, parse_moves};
use wuzi::board::{Board, Pos, StartPos};
use wuzi::movegen::generate;
use wuzi::params::{DEFENCE_MAX_MOVES, DEFENCE_VCT_DEPTH, DEFENCE_VCT_NODES};
use wuzi::threat::Solver;

/// One suite line: the moves before our fatal move, and the fatal move.
struct Entry {
    moves: Vec<Pos>,
    fatal: Pos,
}

fn read_suite(path: &str) -> Vec<Entry> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let moves = |t: &str| parse_moves(t).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let parts: Vec<&str> = l.split('|').collect();
            Entry { moves: moves(parts[0]), fatal: moves(parts[1])[0] }
        })
        .collect()
}

/// The position after `moves` from the judge's start.
fn position(moves: &[Pos]) -> Board {
    board_after(StartPos::Center4, moves).expect("a legal suite line")
}

/// Solves every board for its side to move at `depth` and `nodes`: (wins, nodes, seconds).
fn solve_all(boards: &mut [Board], depth: i32, nodes: u64) -> (usize, u64, f64) {
    let mut solver = Solver::new();
    let (mut wins, mut spent) = (0, 0);
    let started = Instant::now();
    for b in boards.iter_mut() {
        if solver.solve(b, depth, nodes, true, &|| false).is_some() {
            wins += 1;
        }
        spent += solver.nodes();
    }
    (wins, spent, started.elapsed().as_secs_f64())
}

fn report(what: &str, count: usize, (wins, nodes, secs): (usize, u64, f64)) {
    println!(
        "  {what}: {wins}/{count} wins, {nodes} nodes, {:.0} ms ({:.0} nodes/s)",
        secs * 1000.0,
        nodes as f64 / secs.max(1e-9)
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let suite = args
        .windows(2)
        .find(|w| w[0] == "--suite")
        .map_or("tests/data/defence12-rapfi.txt", |w| w[1].as_str());
    let entries = read_suite(suite);
    println!("{suite}: {} fatal moves", entries.len());

    let mut after: Vec<Board> = entries
        .iter()
        .map(|e| {
            let mut b = position(&e.moves);
            b.make(e.fatal);
            b
        })
        .collect();
    println!("the opponent's win after the fatal move:");
    let n = after.len();
    report(
        &format!("depth {DEFENCE_VCT_DEPTH}, {DEFENCE_VCT_NODES} nodes (the check)"),
        n,
        solve_all(&mut after, DEFENCE_VCT_DEPTH, DEFENCE_VCT_NODES),
    );
    report("depth 12, 200000 nodes", n, solve_all(&mut after, 12, 200_000));
    report("depth 20, 1000000 nodes", n, solve_all(&mut after, 20, 1_000_000));

    let mut checked: Vec<Board> = Vec::new();
    for e in &entries {
        let b = position(&e.moves);
        let mut moves = Vec::new();
        generate(&b, &mut moves);
        moves.sort_by(|a, c| c.score.cmp(&a.score).then(a.pos.cmp(&c.pos)));
        for m in moves.iter().take(DEFENCE_MAX_MOVES) {
            let mut after_ours = b.clone();
            after_ours.make(m.pos);
            checked.push(after_ours);
        }
    }
    println!("the check's workload (our {DEFENCE_MAX_MOVES} best moves before each fatal move):");
    let n = checked.len();
    report(
        &format!("depth {DEFENCE_VCT_DEPTH}, {DEFENCE_VCT_NODES} nodes"),
        n,
        solve_all(&mut checked, DEFENCE_VCT_DEPTH, DEFENCE_VCT_NODES),
    );
}
