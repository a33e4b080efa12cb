//! The public tactics suite (`../shared/tactics/wins.txt`) under a fixed node budget: the
//! brain must find a winning move in at least 95% of the positions (the timed run at 1 s a
//! position is `cargo bench --bench search -- --only-tactics`).

use std::sync::atomic::AtomicBool;

use wuzi::board::StartPos;
use wuzi::clock::budget::Limits;
use wuzi::clock::timeman::WallClock;
use wuzi::engine::Engine;
use wuzi::search::bench::{board_after, parse_tactic};

#[test]
fn tactics_suite_solve_rate_at_a_fixed_budget() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/tactics/wins.txt");
    let text = std::fs::read_to_string(path).expect("the tactics suite in ../shared/tactics");
    let mut engine = Engine::new(16);
    let clock = WallClock::new();
    let stop = AtomicBool::new(false);
    let (mut solved, mut total, mut missed) = (0, 0, Vec::new());
    for (n, line) in text.lines().enumerate() {
        let Some(t) = parse_tactic(line) else { continue };
        let t = t.unwrap_or_else(|e| panic!("line {}: {e}", n + 1));
        let board = board_after(StartPos::Empty, &t.moves).expect("legal moves");
        let stones: Vec<_> = board.moves().collect();
        engine.set_position(12, &stones, board.side_to_move());
        let d =
            engine.think(board.side_to_move(), Limits::nodes(20_000), &clock, &stop, &mut |_| {});
        total += 1;
        if d.pos.is_some_and(|p| t.solutions.contains(&p)) {
            solved += 1;
        } else {
            missed.push(n + 1);
        }
    }
    assert!(total >= 100, "only {total} positions read");
    assert!(solved * 100 >= total * 95, "solved {solved}/{total}; missed lines {missed:?}");
}
