//! The defence suite: positions from our own lost games where one move of ours turned a
//! playable position into a forced loss, and a runner that shows how many of those fatal moves
//! the brain now avoids.
//!
//! ```sh
//! # find the fatal moves of engine A in arena records (its games lost by five)
//! cargo run --release --bin defence -- extract --engine A --out tests/data/defence12.txt \
//!     arena-out/game-*.txt
//! # how many a brain avoids (any judge-protocol brain that knows MINE; its own clock)
//! cargo run --release --bin defence -- run --brain 'target/release/wuzi' tests/data/defence12-rapfi.txt
//! # the same for a Gomocup brain, told the judge's clock (2 s a move, 90 s a game)
//! cargo run --release --bin defence -- run --protocol piskvork \
//!     --brain 'python3 ../shared/sparring/rapfi.py --turn-ms 200' tests/data/defence12-rapfi.txt
//! # time to solution: at which thinking time does each position's answer hold for good?
//! cargo run --release --bin defence -- tts --out wuzi-tts.tsv \
//!     --brain 'target/release/wuzi --no-ponder --no-book --movetime {ms}' \
//!     tests/data/defence12-rapfi.txt
//! cargo run --release --bin defence -- tts --protocol piskvork --out rapfi-tts.tsv \
//!     --brain 'python3 ../shared/sparring/rapfi.py --turn-ms {ms}' tests/data/defence12-rapfi.txt
//! # were the games lost from the start? our search's score before each game's first real move
//! cargo run --release --bin defence -- first-scores --engine A arena-out/game-*.txt
//! # did it leave a win by threats on the board? a long VCT solve at each of its moves
//! cargo run --release --bin defence -- missed --engine A arena-out/game-*.txt
//! # where did our lost games leave a reference engine's games that held from the same
//! # opening (Rapfi against itself), and what does our long search play there?
//! cargo run --release --bin defence -- diverge --engine A arena-out/game-*.txt \
//!     --against rapfi-self/game-*.txt
//! ```
//!
//! A move is *fatal* when our own long search (2 M nodes, fixed, so repeatable) sees a forced
//! win for the opponent after it but no forced loss for us before it: the first such move of a
//! lost game turned a playable position into a lost one. The runner asks a brain for its move
//! in each position and checks that move with the same search and a long VCT solve.

use std::sync::atomic::AtomicBool;

mod ask;
mod diverge;
mod records;
mod tts;

use ask::{ask_brain, Proto};
use records::{first_scores, missed, read_record, stepped};
use wuzi::board::{Board, Pos, StartPos};
use wuzi::clock::budget::Limits;
use wuzi::clock::timeman::WallClock;
use wuzi::core::params::WIN_BOUND;
use wuzi::core::pattern::Combo;
use wuzi::search::movegen::generate;
use wuzi::search::score_text;
use wuzi::search::searcher::Searcher;
use wuzi::search::threat::Solver;

/// Attacking moves and nodes of the long solve that decides whether a position is lost.
const PROOF_DEPTH: i32 = 20;
const PROOF_NODES: u64 = 1_000_000;
/// Nodes of the long search that judges whether a position is lost.
const SEARCH_NODES: u64 = 2_000_000;

const USAGE: &str = "\
usage:
  defence extract [--engine A|B] [--out FILE] RECORD...
      fatal moves of the engine's lost games (arena records) as suite lines
  defence run --brain 'COMMAND ARGS' [--protocol judge|piskvork] FILE
      how many fatal moves a brain avoids (a new process a position); the judge's
      protocol with MINE by default, or Gomocup's (BOARD, told the judge's clock)
  defence tts --brain 'COMMAND ... {ms} ...' [--protocol judge|piskvork]
              [--times 250,500,1000,2000,4000,8000] [--first N] [--out FILE] FILE
      time to solution: each position asked at each time ({ms} in the command becomes
      it, {game_ms} 45 times it, the judge's 2 s : 90 s), a new process an ask; its
      moves, whether each holds, and the switch time (the shortest from which on every
      answer holds: always, a time, or never); then the counts per time; --out: the
      answers as TSV (position, ms, move, holds, ask_ms); --first N: the first N positions.
      wuzi: 'target/release/wuzi --no-ponder --no-book --movetime {ms}' (a fixed time,
      not capped by the judge's 2 s: the clock's --move-ms/--game-ms apply only without
      it; it starts no iteration after half of it), or its own clock at the time with
      '--move-ms {ms} --game-ms {game_ms}'; Rapfi: --protocol piskvork
      'python3 ../shared/sparring/rapfi.py --turn-ms {ms}' (the judge's clock it is
      told becomes {ms} a move and the game's scaled alike)
  defence first-scores [--engine A|B] RECORD...
      our long search's score before the engine's first unforced move of each game
  defence missed [--engine A|B] [--nodes N] RECORD...
      in the games the engine did not win, its first position with a win by threats
  defence stepped [--engine A|B] [--nodes N] [--alt-nodes N] [--check-nodes N] RECORD...
      in the games the engine lost, its first move (not a forced reply) after which the
      opponent had a win by threats (the long solve), from a position our long search
      does not see lost: whether the root's check (its depth, its nodes or --check-nodes)
      sees that win, and how many other candidates leave none (a solve of --alt-nodes each)
  defence diverge [--engine A|B] [--nodes N] [--reverse] RECORD... --against RECORD...
      where the engine's lost games first left reference games (another engine's) that
      held from the same opening, which move our long search plays there and how the two
      moves score; --reverse: its games that held against the reference's that lost (the
      control)";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match args.first().map(String::as_str) {
        Some("extract") => extract(&args[1..]),
        Some("run") => run(&args[1..]),
        Some("first-scores") => first_scores(&args[1..]),
        Some("missed") => missed(&args[1..]),
        Some("stepped") => stepped(&args[1..]),
        Some("diverge") => diverge::diverge(&args[1..]),
        Some("tts") => tts::tts(&args[1..]),
        _ => Err(USAGE.to_string()),
    };
    if let Err(why) = code {
        eprintln!("defence: {why}");
        std::process::exit(2);
    }
}

/// One suite entry: the moves after the start (black first), the fatal move, the opponent's
/// winning line after it.
struct Entry {
    moves: Vec<Pos>,
    fatal: Pos,
    line: Vec<Pos>,
}

fn pos_text(p: Pos) -> String {
    format!("{},{}", p.row(), p.col())
}

fn parse_pos(t: &str) -> Result<Pos, String> {
    let (r, c) = t.split_once(',').ok_or_else(|| format!("'{t}' is not row,col"))?;
    let (r, c): (usize, usize) = (r.parse().map_err(|_| t)?, c.parse().map_err(|_| t)?);
    if r >= 12 || c >= 12 {
        return Err(format!("'{t}' is off the board"));
    }
    Ok(Pos::new(r, c))
}

/// The count after a `--nodes` flag.
fn nodes_arg(arg: Option<&String>) -> Result<u64, String> {
    let n = arg.ok_or("--nodes needs a count")?;
    n.parse().map_err(|_| format!("--nodes: bad count {n}"))
}

fn parse_list(t: &str) -> Result<Vec<Pos>, String> {
    t.split_whitespace().map(parse_pos).collect()
}

fn board_after(moves: &[Pos]) -> Result<Board, String> {
    let mut b = Board::with_start(12, StartPos::Center4);
    for &p in moves {
        if !b.is_empty(p) {
            return Err(format!("{} is taken", pos_text(p)));
        }
        b.make(p);
    }
    Ok(b)
}

/// Whether the side to move has a single reply (a four to block, or a five to make): such a
/// move cannot be the mistake, whatever the search sees after it; the mistake came earlier.
fn forced(board: &Board) -> bool {
    let mut moves = Vec::new();
    generate(board, &mut moves);
    moves.len() == 1
}

/// The brain's own long search of `board` (fixed nodes, fresh tables: repeatable).
fn search(board: &mut Board) -> wuzi::search::SearchReport {
    search_nodes(board, SEARCH_NODES)
}

/// [`search`] with another node count.
fn search_nodes(board: &mut Board, nodes: u64) -> wuzi::search::SearchReport {
    let mut searcher = Searcher::new(64);
    let stop = AtomicBool::new(false);
    searcher.think(board, Limits::nodes(nodes), &WallClock::new(), &stop, &mut |_| {})
}

/// The side to move's VCT on `board`, if the long solve finds one.
fn vct(solver: &mut Solver, board: &mut Board, nodes: u64) -> Option<Vec<Pos>> {
    solver.solve(board, PROOF_DEPTH, nodes, true, &|| false)
}

fn extract(args: &[String]) -> Result<(), String> {
    let mut engine = "A".to_string();
    let mut out: Option<String> = None;
    let mut files = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--engine" => engine = it.next().ok_or("--engine needs A or B")?.clone(),
            "--out" => out = Some(it.next().ok_or("--out needs a file")?.clone()),
            f => files.push(f.to_string()),
        }
    }
    let mut lines = Vec::new();
    for f in &files {
        let Some((moves, ours)) = read_record(f, &engine)? else { continue };
        let mut found = None;
        for &k in &ours {
            // Our move k loses when the opponent, to move after it, has a forced win that
            // our long search sees; it is fatal when the position before it was not lost.
            let after = search(&mut board_after(&moves[..=k])?);
            if after.score <= WIN_BOUND {
                continue;
            }
            let mut before_board = board_after(&moves[..k])?;
            if forced(&before_board) {
                eprintln!("{f}: move {} was forced: lost already", k + 1);
                break;
            }
            let before = search(&mut before_board);
            if before.score < -WIN_BOUND {
                eprintln!("{f}: move {} lost already ({})", k + 1, score_text(before.score));
            } else {
                found = Some((k, after.pv));
            }
            break;
        }
        let Some((k, line)) = found else {
            eprintln!("{f}: no playable position turned into a loss by one move");
            continue;
        };
        let text: Vec<String> = moves[..k].iter().map(|&p| pos_text(p)).collect();
        let win: Vec<String> = line.iter().map(|&p| pos_text(p)).collect();
        eprintln!("{f}: fatal move {} at {}", k + 1, pos_text(moves[k]));
        lines.push(format!(
            "# {f}\n{} | {} | {}",
            text.join(" "),
            pos_text(moves[k]),
            win.join(" ")
        ));
    }
    let body = format!(
        "# wuzi defence suite: moves after the four start stones (black first) | our fatal \
         move | the opponent's win after it\n# regenerate: cargo run --release --bin defence \
         -- extract --engine {engine} RECORD...\n{}\n",
        lines.join("\n")
    );
    match out {
        Some(path) => std::fs::write(&path, body).map_err(|e| format!("{path}: {e}"))?,
        None => print!("{body}"),
    }
    eprintln!("{} fatal moves from {} records", lines.len(), files.len());
    Ok(())
}

fn read_suite(path: &str) -> Result<Vec<Entry>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = line.split('|').collect();
        if parts.len() != 3 {
            return Err(format!("{path}:{}: expected 'moves | fatal | line'", n + 1));
        }
        out.push(Entry {
            moves: parse_list(parts[0])?,
            fatal: parse_pos(parts[1].trim())?,
            line: parse_list(parts[2])?,
        });
    }
    Ok(out)
}

fn run(args: &[String]) -> Result<(), String> {
    let mut brain: Vec<String> = Vec::new();
    let mut proto = Proto::Judge;
    let mut file = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--brain" => {
                let cmd = it.next().ok_or("--brain needs a command line")?;
                brain = cmd.split_whitespace().map(String::from).collect();
            }
            "--protocol" => proto = Proto::parse(it.next().ok_or("--protocol needs a name")?)?,
            f => file = Some(f.to_string()),
        }
    }
    if brain.is_empty() {
        return Err(USAGE.into());
    }
    let suite = read_suite(&file.ok_or(USAGE)?)?;
    let mut solver = Solver::new();
    let (mut avoided, mut repeated, mut unavoidable, mut threats) = (0, 0, 0, 0);
    for (i, e) in suite.iter().enumerate() {
        let board = board_after(&e.moves)?;
        if forced(&board) {
            // A suite built before the extractor knew forced replies may hold some.
            unavoidable += 1;
            println!(
                "{:>3}: a forced reply ({}): unavoidable, not asked",
                i + 1,
                pos_text(e.fatal)
            );
            continue;
        }
        let kind = fatal_kind(board.combo(e.fatal, board.side_to_move()));
        threats += usize::from(kind != QUIET);
        let p = ask_move(&brain, proto, e, &board, i)?;
        let lost = move_loses(&mut solver, &board, e.fatal, p);
        let verdict = verdict(lost, p == e.fatal);
        match verdict {
            AVOIDED => avoided += 1,
            FATAL_AGAIN => repeated += 1,
            _ => {}
        }
        println!(
            "{:>3}: played {} (fatal {}, {kind}, win {} plies) {verdict}",
            i + 1,
            pos_text(p),
            pos_text(e.fatal),
            e.line.len()
        );
    }
    let asked = suite.len() - unavoidable;
    println!(
        "avoided {avoided} of {asked} fatal moves ({unavoidable} more are forced replies); the \
         same fatal move {repeated} times"
    );
    println!(
        "{threats} of the {asked} fatal moves make a threat of ours (an open three or a four)"
    );
    Ok(())
}

/// Asks the brain started by `brain` for its move in entry `index`'s position `board` (after
/// `e.moves`): a move on a stone is the brain's error, not a verdict, so it ends the run.
fn ask_move(
    brain: &[String],
    proto: Proto,
    e: &Entry,
    board: &Board,
    index: usize,
) -> Result<Pos, String> {
    let p = ask_brain(brain, proto, &e.moves)?;
    if !board.is_empty(p) {
        return Err(format!("entry {}: the brain played {} on a stone", index + 1, pos_text(p)));
    }
    Ok(p)
}

/// Whether move `p` loses in the suite position `board`, whose fatal move is `fatal`: the
/// runners' one check (`run`, `tts`). The suite's verdict on its fatal move stands (found by
/// a search that saw the win); only another move is judged afresh, since today's search may
/// not see the same win again: lost when a long VCT solve finds a win for the opponent, or the
/// long search scores the position after it as a win for the opponent.
fn move_loses(solver: &mut Solver, board: &Board, fatal: Pos, p: Pos) -> bool {
    p == fatal || {
        let mut after = board.clone();
        after.make(p);
        vct(solver, &mut after, PROOF_NODES).is_some() || search(&mut after).score > WIN_BOUND
    }
}

const QUIET: &str = "quiet";

/// What the fatal move makes for its side, by the combination at its point: a lone threat
/// there is often where the opponent's win starts (its block builds).
fn fatal_kind(combo: Combo) -> &'static str {
    if combo >= Combo::Four {
        "a four"
    } else if combo >= Combo::OpenThree {
        "an open three"
    } else {
        QUIET
    }
}

const AVOIDED: &str = "avoided";
const FATAL_AGAIN: &str = "fatal again";

/// The runner's verdict on a brain's move: whether it `lost` (the suite's fatal move always
/// does) and whether it `is_fatal`, the suite's own fatal move.
fn verdict(lost: bool, is_fatal: bool) -> &'static str {
    match (lost, is_fatal) {
        (false, _) => AVOIDED,
        (true, true) => FATAL_AGAIN,
        (true, false) => "another losing move",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fatal_move_is_named_by_the_threat_it_makes() {
        assert_eq!(fatal_kind(Combo::TwoTwo), QUIET);
        assert_eq!(fatal_kind(Combo::Three), QUIET, "a closed three forces nothing");
        assert_eq!(fatal_kind(Combo::OpenThree), "an open three");
        assert_eq!(fatal_kind(Combo::ThreeThree), "an open three");
        assert_eq!(fatal_kind(Combo::Four), "a four");
        assert_eq!(fatal_kind(Combo::FourThree), "a four");
    }

    #[test]
    fn verdicts_name_the_fatal_move_and_other_losses() {
        assert_eq!(verdict(false, false), AVOIDED);
        assert_eq!(verdict(true, true), FATAL_AGAIN);
        assert_eq!(verdict(true, false), "another losing move");
    }

    #[test]
    fn the_suite_files_hold_legal_positions_and_lines() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");
        for (name, entries) in [("defence12.txt", 22), ("defence12-rapfi.txt", 38)] {
            let suite = read_suite(&format!("{dir}{name}")).unwrap();
            assert_eq!(suite.len(), entries, "{name}");
            check_entries(&suite);
        }
    }

    #[test]
    fn a_four_to_block_is_a_forced_reply() {
        // Black's 7,4 7,5 7,6 and 7,8 (with the start stones): white must take 7,7.
        let moves: Vec<Pos> = [(7, 4), (0, 0), (7, 5), (0, 11), (7, 6), (11, 0), (7, 8)]
            .map(|(r, c)| Pos::new(r, c))
            .to_vec();
        let b = board_after(&moves).unwrap();
        assert!(forced(&b));
        assert!(!forced(&board_after(&moves[..6]).unwrap()));
        // The suite's known forced entries (its first) are found.
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");
        let suite = read_suite(&format!("{dir}defence12-rapfi.txt")).unwrap();
        assert!(forced(&board_after(&suite[0].moves).unwrap()));
        assert!(!forced(&board_after(&suite[1].moves).unwrap()));
    }

    fn check_entries(suite: &[Entry]) {
        for e in suite {
            let mut b = board_after(&e.moves).unwrap();
            assert!(!b.last_move_won() && b.is_empty(e.fatal));
            // The fatal move, then the opponent's winning line (the search's principal
            // variation, which may stop short of the five), are legal in order.
            assert!(!e.line.is_empty());
            b.make(e.fatal);
            for &p in &e.line {
                assert!(b.is_empty(p) && !b.last_move_won(), "{} taken", pos_text(p));
                b.make(p);
            }
        }
    }
}
