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
//! 3. **One quiet move, then threats**: where the check finds no win, is the opponent's win
//!    a quiet move followed by a VCT against every defence? For the opponent's move in the
//!    game and for its six best moves by the move generator's order: after the move, a VCT
//!    if we passed (the move threatens one), and then a VCT after each of our defences (our
//!    fours and threes, and the points of the winning lines found, at most 12). A quiet move
//!    that beats every defence proves the loss. Also counted: how often the proof flags our
//!    other moves before each fatal move (the check's own verdict aside).
//! 4. **The search instead of the solver**: after each fatal move, our own alpha-beta search
//!    (fresh tables, fixed nodes) from the opponent's side: how many of the wins it sees; and
//!    at 500,000 nodes, after our four best other moves before each fatal move, how many it
//!    sees lose too.
//!
//! `--suite FILE` takes another suite of the same format.

use std::time::Instant;

use wuzi::board::{Board, Pos, StartPos};
use wuzi::clock::budget::Limits;
use wuzi::clock::timeman::WallClock;
use wuzi::core::params::{
    DEFENCE_MAX_MOVES, DEFENCE_VCT_DEPTH, DEFENCE_VCT_NODES, VCF_MAX_DEPTH, WIN_BOUND,
};
use wuzi::core::pattern::Combo;
use wuzi::search::bench::{board_after, parse_moves};
use wuzi::search::movegen::generate;
use wuzi::search::searcher::Searcher;
use wuzi::search::threat::Solver;

/// One suite line: the moves before our fatal move, the fatal move, and the opponent's
/// winning line in the game.
struct Entry {
    moves: Vec<Pos>,
    fatal: Pos,
    win: Vec<Pos>,
}

fn read_suite(path: &str) -> Vec<Entry> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let moves = |t: &str| parse_moves(t).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let parts: Vec<&str> = l.split('|').collect();
            Entry { moves: moves(parts[0]), fatal: moves(parts[1])[0], win: moves(parts[2]) }
        })
        .collect()
}

/// The position after `moves` from the judge's start.
fn position(moves: &[Pos]) -> Board {
    board_after(StartPos::Center4, moves).expect("a legal suite line")
}

/// The side to move's moves on `board`, best first by the move generator's order.
fn ordered_moves(board: &Board) -> Vec<Pos> {
    let mut moves = Vec::new();
    generate(board, &mut moves);
    moves.sort_by(|a, c| c.score.cmp(&a.score).then(a.pos.cmp(&c.pos)));
    moves.into_iter().map(|m| m.pos).collect()
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

/// The solve of section 3: attacking moves and nodes of each VCT, and defences at most.
const QUIET_VCT_DEPTH: i32 = 12;
const QUIET_VCT_NODES: u64 = 20_000;
const QUIET_DEFENCES: usize = 12;
const QUIET_MOVES: usize = 6;

/// What the attacker's quiet move `q` does (attacker to move on `board`): `None` when it
/// threatens no VCT even if the defender passes (or the defender then wins by fours),
/// `Some(true)` when every defence tried loses to a VCT, `Some(false)` when one holds.
fn quiet_then_threats(solver: &mut Solver, board: &mut Board, q: Pos) -> Option<bool> {
    let att = board.side_to_move();
    let def = att.opp();
    board.make(q);
    let threat = if board.combo_count(def, Combo::Five) > 0
        || solver.vcf(board, VCF_MAX_DEPTH, QUIET_VCT_NODES).is_some()
    {
        None
    } else {
        board.set_side_to_move(att);
        let line = solver.vct(board, QUIET_VCT_DEPTH, QUIET_VCT_NODES);
        board.set_side_to_move(def);
        line
    };
    let verdict = threat.map(|line| {
        // Our counter-threats first, then the points of every winning line found.
        let mut defences: Vec<Pos> =
            board.candidates().filter(|&p| board.combo(p, def) >= Combo::OpenThree).collect();
        let mut queue = line;
        let mut tried = 0;
        loop {
            for p in queue.drain(..) {
                if board.is_empty(p) && !defences.contains(&p) {
                    defences.push(p);
                }
            }
            let Some(&d) = defences.get(tried) else { return true };
            if tried == QUIET_DEFENCES {
                return true;
            }
            tried += 1;
            board.make(d);
            let win = solver.vct(board, QUIET_VCT_DEPTH, QUIET_VCT_NODES);
            board.unmake();
            match win {
                None => return false,
                Some(line) => queue = line,
            }
        }
    });
    board.unmake();
    verdict
}

/// The positions after our [`DEFENCE_MAX_MOVES`] best moves other than the fatal one, by the
/// move generator's order, before each fatal move.
fn others_before(entries: &[Entry]) -> Vec<Board> {
    let mut out = Vec::new();
    for e in entries {
        let b = position(&e.moves);
        for m in ordered_moves(&b).into_iter().filter(|&m| m != e.fatal).take(DEFENCE_MAX_MOVES) {
            let mut after = b.clone();
            after.make(m);
            out.push(after);
        }
    }
    out
}

/// Whether our own search of `board` (fresh tables, `nodes` nodes) sees a win for its side
/// to move: the opponent, after one of our moves.
fn seen_lost(board: &mut Board, nodes: u64) -> bool {
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut searcher = Searcher::new(16);
    let r = searcher.think(board, Limits::nodes(nodes), &WallClock::new(), &stop, &mut |_| {});
    r.score > WIN_BOUND
}

/// Whether one of the attacker's [`QUIET_MOVES`] best moves beats every defence.
fn quiet_win(solver: &mut Solver, board: &mut Board) -> bool {
    let moves = ordered_moves(board);
    moves.into_iter().take(QUIET_MOVES).any(|m| quiet_then_threats(solver, board, m) == Some(true))
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
        for m in ordered_moves(&b).into_iter().take(DEFENCE_MAX_MOVES) {
            let mut after_ours = b.clone();
            after_ours.make(m);
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

    println!(
        "one quiet move, then threats (VCTs of depth {QUIET_VCT_DEPTH}, {QUIET_VCT_NODES} nodes; \
         at most {QUIET_DEFENCES} defences):"
    );
    let started = Instant::now();
    let mut solver = Solver::new();
    let (mut open, mut top2, mut threatens, mut beats, mut proved) = (0, 0, 0, 0, 0);
    for e in &entries {
        let mut b = position(&e.moves);
        b.make(e.fatal);
        if solver.vct(&mut b, DEFENCE_VCT_DEPTH, DEFENCE_VCT_NODES).is_some() {
            continue;
        }
        open += 1;
        if ordered_moves(&b).iter().take(2).any(|&m| m == e.win[0]) {
            top2 += 1;
        }
        let verdict = quiet_then_threats(&mut solver, &mut b, e.win[0]);
        threatens += usize::from(verdict.is_some());
        beats += usize::from(verdict == Some(true));
        if quiet_win(&mut solver, &mut b) {
            proved += 1;
        }
    }
    println!(
        "  the check finds no win after {open} fatal moves; the game's next move is among the \
         opponent's 2 best in {top2}"
    );
    println!("  after the game's move: a VCT if we passed in {threatens}, against every defence in {beats}");
    println!(
        "  a quiet move of the {QUIET_MOVES} best that beats every defence: {proved} of {open} \
         ({:.0} ms)",
        started.elapsed().as_secs_f64() * 1000.0
    );
    let (mut others, mut flagged) = (0, 0);
    for mut b in others_before(&entries) {
        if solver.vct(&mut b, DEFENCE_VCT_DEPTH, DEFENCE_VCT_NODES).is_none() {
            others += 1;
            if quiet_win(&mut solver, &mut b) {
                flagged += 1;
            }
        }
    }
    println!("  our other moves that pass the check: {others}, flagged by the proof: {flagged}");

    println!("the search after the fatal move, from the opponent's side (fresh tables):");
    for nodes in [200_000, 500_000, 1_000_000] {
        let started = Instant::now();
        let seen = after.iter_mut().map(|b| seen_lost(b, nodes)).filter(|&lost| lost).count();
        println!(
            "  {nodes} nodes: the opponent's win seen after {seen}/{n} ({:.0} ms)",
            started.elapsed().as_secs_f64() * 1000.0,
            n = after.len()
        );
    }
    let mut others = others_before(&entries);
    let lost = others.iter_mut().map(|b| seen_lost(b, 500_000)).filter(|&lost| lost).count();
    println!(
        "  our {} other best moves before the fatal ones: {lost} seen to lose too",
        others.len()
    );
}
