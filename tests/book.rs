//! The opening book compiled into the brain: every proven line is walked as the brain would
//! play it (the book's move for black, every reply the search considers for white), and
//! where the book ends the brain's own root solver must find black's win by fours (a VCF,
//! which it plays out to the end) within the node budget it has when playing
//! (`ROOT_VCF_NODES`); wins by threes are in the book move by move.

use std::collections::HashSet;

use wuzi::board::{Board, Color, StartPos};
use wuzi::book::{canonical, lookup};
use wuzi::core::params::{ROOT_VCF_NODES, ROOT_VCT_NODES};
use wuzi::search::bench::{board_after, parse_moves};
use wuzi::search::threat::Solver;
use wuzi::tools::proof::{leaf_win, node_moves, LeafWin};

/// The moves from the start, as `wuzi book prove --from` takes them.
fn line(board: &Board) -> String {
    board.moves().map(|(p, _)| p.to_string()).collect::<Vec<_>>().join(" ")
}

/// Counts of one walk.
#[derive(Default, Debug)]
struct Walk {
    book_moves: usize,
    solver_leaves: usize,
    forced_blocks: usize,
    max_ply: usize,
}

/// Black to move in `board`, proven: the book's proven move, or (out of the book) a win the
/// root solver finds. Returns an error naming the position where neither holds.
fn verify(
    board: &mut Board,
    ply: usize,
    solver: &mut Solver,
    seen: &mut HashSet<u64>,
    walk: &mut Walk,
) -> Result<(), String> {
    assert_eq!(board.side_to_move(), Color::Black);
    if !seen.insert(canonical(board).0) {
        return Ok(());
    }
    walk.max_ply = walk.max_ply.max(ply);
    // Black's move here, as the brain plays it: the book's; out of the book a win the root
    // solver finds by itself, or the one block of a white four (the root plays a single
    // legal reply at once, without a search).
    let white_fives: Vec<_> = board.five_points(Color::White).take(2).collect();
    let mv = match lookup(board) {
        Some(hit) if hit.proven => {
            walk.book_moves += 1;
            hit.pos
        }
        Some(_) => {
            let why = "a book move not proven inside a proof";
            return Err(format!("{why} after {}:\n{}", line(board), board.to_ascii(None)));
        }
        None => match leaf_win(board, solver, ROOT_VCF_NODES, ROOT_VCT_NODES) {
            // A five or a VCF, which the root plays out to the end by itself.
            Some(LeafWin::Fours(_)) => {
                walk.solver_leaves += 1;
                return Ok(());
            }
            _ if white_fives.len() == 1 => {
                walk.forced_blocks += 1;
                white_fives[0]
            }
            _ => {
                let why = "no book move, no VCF, no single forced block";
                return Err(format!("{why} after {}:\n{}", line(board), board.to_ascii(None)));
            }
        },
    };
    assert!(board.is_empty(mv));
    board.make(mv);
    let result = if board.last_move_won() {
        Ok(())
    } else {
        let replies = node_moves(board, usize::MAX);
        let mut r = Ok(());
        for w in replies {
            board.make(w);
            r = if board.last_move_won() {
                Err(format!("white wins by {w}:\n{}", board.to_ascii(None)))
            } else {
                verify(board, ply + 2, solver, seen, walk)
            };
            board.unmake();
            if r.is_err() {
                break;
            }
        }
        r
    };
    board.unmake();
    result
}

#[test]
fn every_proven_line_ends_in_a_win_the_root_solver_finds() {
    // The proof file the table was made from: every proven position, and where walks start.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/book/proof.txt");
    let proof = wuzi::tools::bookfile::load_proof(path);
    let book = wuzi::book::data::BOOK;
    let proven = book.iter().filter(|&&e| wuzi::book::unpack(e).2 & wuzi::book::PROVEN != 0);
    let proven = proven.count();
    let mut solver = Solver::new();
    let mut seen = HashSet::new();
    let mut walk = Walk::default();
    // Every proven position of the file that the table kept (those a book line reaches).
    let mut roots = 0;
    for (moves, _, _, _) in &proof {
        let mut board = board_after(StartPos::Center4, moves).expect("legal position");
        if !lookup(&board).is_some_and(|h| h.proven) {
            continue;
        }
        roots += 1;
        if let Err(why) = verify(&mut board, moves.len(), &mut solver, &mut seen, &mut walk) {
            panic!("proof from {} fails: {why}", line(&board));
        }
    }
    eprintln!("proof walk: {roots} proven positions of {path} in the book, {walk:?}");
    // Every proven entry is a position of the file, and was walked.
    assert_eq!(roots, proven, "the table is not made from {path}: export again");
    assert_eq!(walk.book_moves, proven);
}

#[test]
fn the_engine_plays_book_moves_only_when_asked_and_only_legal_ones() {
    use std::sync::atomic::AtomicBool;
    use wuzi::clock::budget::Limits;
    use wuzi::clock::timeman::WallClock;
    use wuzi::engine::Engine;
    let clock = WallClock::new();
    let stop = AtomicBool::new(false);
    let start = Board::with_start(12, StartPos::Center4);
    let Some(hit) = lookup(&start) else {
        return eprintln!("the start is not in the book: nothing to play");
    };
    let mut engine = Engine::new(1);
    let d = engine.think(Color::Black, Limits::depth(1), &clock, &stop, &mut |_| {});
    assert_eq!(d.pos, Some(hit.pos));
    assert!(d.report.unwrap().source.starts_with("book"));
    // Off: the search decides.
    engine.set_book(false);
    let d = engine.think(Color::Black, Limits::depth(1), &clock, &stop, &mut |_| {});
    assert!(!d.report.unwrap().source.starts_with("book"));
    // The book's point already taken by an odd stone: the book stays out, the move is legal.
    let mut engine = Engine::new(1);
    engine.play(hit.pos, Color::White);
    let d = engine.think(Color::Black, Limits::depth(1), &clock, &stop, &mut |_| {});
    let p = d.pos.expect("a move");
    assert!(engine.board().is_empty(p));
    assert!(!d.report.unwrap().source.starts_with("book"));
    // The same stones without the judge's start (set up by hand): no book.
    let mut engine = Engine::new(1);
    let stones: Vec<_> = StartPos::Center4.stones(12);
    engine.set_position(12, &stones, Color::Black);
    let d = engine.think(Color::Black, Limits::depth(1), &clock, &stop, &mut |_| {});
    assert!(!d.report.unwrap().source.starts_with("book"));
}

#[test]
fn book_lines_from_the_start_are_legal_games() {
    // Follow the book for both sides from the start, for as long as it goes: every move is
    // an empty point, until a five ends the game.
    let mut board = Board::with_start(12, StartPos::Center4);
    let mut plies = 0;
    while let Some(hit) = lookup(&board) {
        board.make(hit.pos);
        plies += 1;
        if board.last_move_won() {
            break;
        }
        assert!(plies < 144);
    }
    eprintln!("the book's own line from the start: {plies} plies");
}

#[test]
fn book_files_round_trip_and_proven_moves_win_over_searched_ones() {
    use std::collections::HashMap;
    use wuzi::tools::bookfile::{entries, parse_proof_line, parse_tree_line, tree_line, Searched};
    let s = Searched {
        moves: parse_moves("4,7 7,4").unwrap(),
        score: -35,
        depth: 11,
        best: parse_moves("3,8").unwrap()[0],
    };
    assert_eq!(parse_tree_line(&tree_line(&s)), Some(s.clone()));
    assert_eq!(parse_tree_line("# a comment"), None);
    assert_eq!(parse_tree_line("4,7 | 12 x 3,8"), None);
    let (moves, win) = parse_proof_line("4,7 7,4 | win 3,8").unwrap();
    assert_eq!((moves.len(), win), (2, s.best));
    // The same position searched (best 3,8) and proven (win 8,3, in a mirror image).
    let board = board_after(StartPos::Center4, &s.moves).unwrap();
    let (key, sym) = canonical(&board);
    let mut tree = HashMap::new();
    tree.insert(key, s.clone());
    let proven_win = parse_moves("8,3").unwrap()[0];
    let proof = vec![(s.moves.clone(), proven_win, key, sym.apply(proven_win, 12))];
    let (table, roots) = entries(&tree, &proof);
    assert_eq!(table.len(), 1);
    assert_eq!(wuzi::book::unpack(table[0]).2, wuzi::book::PROVEN);
    assert_eq!(roots, vec![s.moves.clone()]);
    let hit = wuzi::book::lookup_in(&table, &board).unwrap();
    assert_eq!((hit.pos, hit.proven), (proven_win, true));
}

#[test]
fn refresh_searches_again_only_what_the_book_still_plays_and_resumes() {
    use std::sync::atomic::AtomicBool;
    use wuzi::tools::bookfile::load_tree;
    let dir = std::env::temp_dir().join(format!("wuzi-refresh-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tree = dir.join("tree.txt").to_string_lossy().into_owned();
    let proof = dir.join("none.txt").to_string_lossy().into_owned();
    // A stale move at the start (the corner); the position after it, which the book reaches
    // only through that move; and one no book line reaches (black's far 0,0).
    std::fs::write(&tree, " | 0 5 0,11\n0,11 | 0 5 0,10\n0,0 | 0 5 1,1\n").unwrap();
    let run = || {
        let args: Vec<String> = ["refresh", "--tree", &tree, "--proof", &proof, "--nodes", "3000"]
            .map(String::from)
            .into();
        wuzi::tools::bookgen::main(&args)
    };
    assert_eq!(run(), 0);
    // What the same search plays from the start.
    let mut board = Board::with_start(12, StartPos::Center4);
    let mut searcher = wuzi::search::searcher::Searcher::new(32);
    let clock = wuzi::clock::timeman::WallClock::new();
    let r = searcher.think(
        &mut board,
        wuzi::clock::budget::Limits::nodes(3000),
        &clock,
        &AtomicBool::new(false),
        &mut |_| {},
    );
    let expected = r.best.unwrap();
    let key = |moves: &str| {
        canonical(&board_after(StartPos::Center4, &parse_moves(moves).unwrap()).unwrap()).0
    };
    let after = load_tree(&tree);
    assert_ne!(expected.to_string(), "0,11");
    assert_eq!(after[&key("")].best, expected, "the start's stale move replaced");
    // The book no longer goes to 0,11, so that position was left as it was; nor was the
    // unreached one searched.
    assert_eq!(after[&key("0,11")].best.to_string(), "0,10");
    assert_eq!(after[&key("0,0")].best.to_string(), "1,1");
    // Resumed: nothing left to search, nothing appended.
    let before = std::fs::read_to_string(&tree).unwrap();
    assert_eq!(run(), 0);
    assert_eq!(std::fs::read_to_string(&tree).unwrap(), before);
    assert!(before.contains("# wuzi book refresh --nodes 3000"));
    std::fs::remove_dir_all(&dir).ok();
}
