//! Arena records read back: the engine's moves and outcome, and two analyses of its games
//! (`first-scores`: was the game lost from the start; `missed`: did it leave a win by threats
//! on the board; `stepped`: did it step into a win by threats, and would the root's check
//! have seen it).

use wuzi::board::Pos;
use wuzi::core::params::{DEFENCE_VCT_DEPTH, DEFENCE_VCT_NODES, WIN_BOUND};
use wuzi::search::movegen::generate;
use wuzi::search::score_text;
use wuzi::search::threat::Solver;
use wuzi::tools::record::Record;

use crate::{board_after, forced, nodes_arg, pos_text, search, vct, PROOF_DEPTH, PROOF_NODES};

/// A game's moves (opening included) and the indices of one engine's moves among them.
pub type Game = (Vec<Pos>, Vec<usize>);

/// The arena record's moves (opening included) and whether `engine` lost it by five, with
/// the indices of its own moves.
pub fn read_record(path: &str, engine: &str) -> Result<Option<Game>, String> {
    let (moves, ours, outcome) = read_game(path, engine)?;
    Ok((outcome == LOST).then_some((moves, ours)))
}

/// The outcome of a game the engine lost by five (not by a fault).
pub const LOST: &str = "lost";
/// The outcome of a game the engine won (`missed` skips those).
pub const WON: &str = "won";
/// The outcome of a drawn game (or a record without a result).
pub const DRAWN: &str = "drawn";

/// How the game of `record` ended for `engine`.
pub fn outcome(record: &Record, engine: &str) -> &'static str {
    let result = &record.result;
    match () {
        _ if result.contains(&format!(" {engine} wins")) => WON,
        _ if result.contains("wins by five") => LOST,
        _ if result.contains("wins") => "lost by a fault",
        _ => DRAWN,
    }
}

/// The arena record's moves, the indices of `engine`'s own moves, and how it ended for it.
pub fn read_game(path: &str, engine: &str) -> Result<(Vec<Pos>, Vec<usize>, &'static str), String> {
    let record = Record::read(path)?;
    let outcome = outcome(&record, engine);
    let ours = record.moves_of(engine);
    Ok((record.moves, ours, outcome))
}

/// The engine's colour in a game, from the indices of its moves (white's are odd).
fn colour_of(ours: &[usize]) -> &'static str {
    if ours.first().is_some_and(|k| k % 2 == 1) {
        "white"
    } else {
        "black"
    }
}

/// Our long search's score (for us) before our first move that is not forced, game by game,
/// and its median by colour and outcome: whether the games were lost in the opening or later.
pub fn first_scores(args: &[String]) -> Result<(), String> {
    let (engine, files) = match args {
        [flag, e, files @ ..] if flag == "--engine" => (e.as_str(), files),
        files => ("A", files),
    };
    let mut groups: std::collections::BTreeMap<(&str, &str), Vec<i32>> = Default::default();
    for f in files {
        let (moves, ours, outcome) = read_game(f, engine)?;
        let colour = colour_of(&ours);
        for &k in &ours {
            let mut board = board_after(&moves[..k])?;
            if !forced(&board) {
                let score = search(&mut board).score;
                println!("{f}: {colour} {outcome}, move {} scores {}", k + 1, score_text(score));
                groups.entry((colour, outcome)).or_default().push(score);
                break;
            }
        }
    }
    for ((colour, outcome), mut scores) in groups {
        scores.sort_unstable();
        let below = |t: i32| scores.iter().filter(|&&s| s < t).count();
        println!(
            "{colour} {outcome}: {} games, median {}, below 0 {}, below -100 {}, below -200 {}",
            scores.len(),
            score_text(scores[scores.len() / 2]),
            below(0),
            below(-100),
            below(-200)
        );
    }
    Ok(())
}

/// The first position of a game where the engine, to move (its own moves at `ours`), had a win
/// by threats (a VCT of the long solve within `nodes`): the index of that move and the win.
/// `None` when it never had one, as a game it did not win should show.
pub fn first_missed_win(
    solver: &mut Solver,
    moves: &[Pos],
    ours: &[usize],
    nodes: u64,
) -> Result<Option<(usize, Vec<Pos>)>, String> {
    for &k in ours {
        let mut board = board_after(&moves[..k])?;
        if let Some(line) = vct(solver, &mut board, nodes) {
            return Ok(Some((k, line)));
        }
    }
    Ok(None)
}

/// In each game the engine did not win, its first position with a win by threats that it
/// did not convert (the root's solver has far smaller budgets than the long solve here).
pub fn missed(args: &[String]) -> Result<(), String> {
    let mut engine = "A".to_string();
    let mut nodes = PROOF_NODES;
    let mut files = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--engine" => engine = it.next().ok_or("--engine needs A or B")?.clone(),
            "--nodes" => nodes = nodes_arg(it.next())?,
            f => files.push(f.to_string()),
        }
    }
    let mut solver = Solver::new();
    let (mut checked, mut positions, mut found) = (0, 0, 0);
    for f in &files {
        let (moves, ours, outcome) = read_game(f, &engine)?;
        if outcome == WON {
            continue;
        }
        checked += 1;
        positions += ours.len();
        if let Some((k, line)) = first_missed_win(&mut solver, &moves, &ours, nodes)? {
            found += 1;
            let win: Vec<String> = line.iter().map(|&p| pos_text(p)).collect();
            println!(
                "{f}: {outcome}; at move {} it played {} but had a win by threats: {}",
                k + 1,
                pos_text(moves[k]),
                win.join(" ")
            );
        }
    }
    println!(
        "{checked} games not won, {positions} positions with {engine} to move: \
         {found} with a win by threats missed"
    );
    Ok(())
}

/// What the first move of a lost game that left the opponent a win by threats was.
#[derive(Debug, PartialEq)]
pub struct Step {
    /// The index of our move in the game's moves.
    pub index: usize,
    /// The attacking moves of the opponent's win after it (the long solve's).
    pub line_len: usize,
    /// Whether the root's final check (its depth and nodes) finds that win too.
    pub check_sees: bool,
    /// Our candidate moves in the position before it, and how many of the others (not the
    /// move played) leave the opponent no win by threats within `alt_nodes`.
    pub candidates: usize,
    /// See `candidates`.
    pub holding: usize,
    /// Our long search's score before the move (for us): at most `-WIN_BOUND` when the
    /// position was lost already, whatever the move.
    pub score_before: i32,
}

/// The first of our moves (at `ours`, not a forced reply) after which the opponent, to move,
/// has a win by threats within the long solve's `nodes`: whether the root's check would
/// have seen it, and how many of the other candidates leave no such win (`alt_nodes` each).
pub fn first_step_into_threats(
    solver: &mut Solver,
    moves: &[Pos],
    ours: &[usize],
    nodes: u64,
    alt_nodes: u64,
    check_nodes: u64,
) -> Result<Option<Step>, String> {
    let never = || false;
    for &k in ours {
        let mut before = board_after(&moves[..k])?;
        if forced(&before) {
            continue;
        }
        let mut after = board_after(&moves[..=k])?;
        let Some(line) = vct(solver, &mut after, nodes) else { continue };
        let check_sees =
            solver.solve(&mut after, DEFENCE_VCT_DEPTH, check_nodes, true, &never).is_some();
        let mut candidates = Vec::new();
        generate(&before, &mut candidates);
        let mut holding = 0;
        // The other candidates: the move played loses (a smaller solve could miss that).
        for m in candidates.iter().filter(|m| m.pos != moves[k]) {
            let mut alt = board_after(&moves[..k])?;
            alt.make(m.pos);
            let win = solver.solve(&mut alt, PROOF_DEPTH, alt_nodes, true, &never);
            holding += usize::from(win.is_none());
        }
        let (line_len, candidates) = ((line.len() + 1) / 2, candidates.len());
        let score_before = search(&mut before).score;
        return Ok(Some(Step {
            index: k,
            line_len,
            check_sees,
            candidates,
            holding,
            score_before,
        }));
    }
    Ok(None)
}

/// In each game the engine lost, the first move that stepped into a win by threats: would
/// the root's final check (`DEFENCE_VCT_DEPTH` attacking moves, `DEFENCE_VCT_NODES` nodes, or
/// `--check-nodes`) have seen it, and did another candidate hold against every win by threats?
pub fn stepped(args: &[String]) -> Result<(), String> {
    let mut engine = "A".to_string();
    let mut nodes = PROOF_NODES;
    let mut alt_nodes = 200_000;
    let mut check_nodes = DEFENCE_VCT_NODES;
    let mut files = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--engine" => engine = it.next().ok_or("--engine needs A or B")?.clone(),
            "--nodes" => nodes = nodes_arg(it.next())?,
            "--alt-nodes" => alt_nodes = nodes_arg(it.next())?,
            "--check-nodes" => check_nodes = nodes_arg(it.next())?,
            f => files.push(f.to_string()),
        }
    }
    let mut solver = Solver::new();
    let (mut lost, mut found, mut seen, mut avoidable, mut unseen_avoidable) = (0, 0, 0, 0, 0);
    for f in &files {
        let (moves, ours, outcome) = read_game(f, &engine)?;
        if outcome != LOST {
            continue;
        }
        lost += 1;
        let colour = colour_of(&ours);
        match first_step_into_threats(&mut solver, &moves, &ours, nodes, alt_nodes, check_nodes)? {
            None => println!("{f}: {colour}, never stepped into a win by threats"),
            Some(s) if s.score_before <= -WIN_BOUND => println!(
                "{f}: {colour}, move {} at {}: lost already before it ({})",
                s.index + 1,
                pos_text(moves[s.index]),
                score_text(s.score_before)
            ),
            Some(s) => {
                found += 1;
                seen += usize::from(s.check_sees);
                avoidable += usize::from(s.holding > 0);
                unseen_avoidable += usize::from(s.holding > 0 && !s.check_sees);
                println!(
                    "{f}: {colour}, move {} at {}: a win of {} attacking moves after it, the \
                     check {}; {} of {} candidates hold against threats; {} before it",
                    s.index + 1,
                    pos_text(moves[s.index]),
                    s.line_len,
                    if s.check_sees { "sees it" } else { "misses it" },
                    s.holding,
                    s.candidates,
                    score_text(s.score_before)
                );
            }
        }
    }
    println!(
        "{lost} games lost; {found} stepped from a position not lost (our long search) into a \
         win by threats; the check sees {seen} of \
         them; another candidate holds in {avoidable}, {unseen_avoidable} of them unseen by the \
         check"
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_gives_the_engines_moves_and_its_outcome() {
        let record = "result: 1-0 B wins by five\n[moves]\n#  n colour engine row col ms\n\
                      1 black opening 4 6 -\n2 white A 3 7 5\n3 black B 6 4 10\n[replay]\n\
                      PLACE 4 6\n";
        let path = std::env::temp_dir().join(format!("wuzi-defence-{}.txt", std::process::id()));
        std::fs::write(&path, record).unwrap();
        let path = path.to_str().unwrap();
        let (moves, ours, outcome) = read_game(path, "A").unwrap();
        assert_eq!(moves, [Pos::new(4, 6), Pos::new(3, 7), Pos::new(6, 4)]);
        assert_eq!((ours, outcome), (vec![1], LOST));
        assert_eq!(read_game(path, "B").unwrap().2, "won");
        assert!(read_record(path, "B").unwrap().is_none(), "only lost games are extracted");
        std::fs::write(path, record.replace("1-0 B wins by five", "1/2 draw by full-board"))
            .unwrap();
        assert_eq!(read_game(path, "A").unwrap().2, "drawn");
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn the_first_step_into_a_win_by_threats_is_found_and_judged() {
        // White (the engine) plays along the top edge while black builds a two on row 9 and
        // one on column 5 that meet at 9,5: a three-three, a win by threats. Which white move
        // first leaves that win is for the solver to say; what it says must hold.
        let moves: Vec<Pos> =
            [(9, 2), (0, 11), (9, 3), (0, 9), (7, 5), (0, 7), (8, 5), (0, 5), (11, 11)]
                .map(|(r, c)| Pos::new(r, c))
                .to_vec();
        let ours = [1, 3, 5, 7];
        let mut solver = Solver::new();
        let step = first_step_into_threats(&mut solver, &moves, &ours, 200_000, 5_000, 200_000)
            .unwrap()
            .expect("black's three-three is on the board after white's last move");
        assert!(ours.contains(&step.index));
        // Black, to move after it, wins by threats; after none of white's earlier moves.
        assert!(
            vct(&mut solver, &mut board_after(&moves[..=step.index]).unwrap(), 200_000).is_some()
        );
        for &k in ours.iter().filter(|&&k| k < step.index) {
            let mut b = board_after(&moves[..=k]).unwrap();
            assert!(vct(&mut solver, &mut b, 200_000).is_none(), "a win after move {k}");
        }
        assert!(step.line_len >= 1 && step.holding < step.candidates);
        assert!(step.check_sees, "a check as long as the long solve sees its win");
        // A check of one node sees nothing; the candidates counted are the generator's.
        let blind = first_step_into_threats(&mut solver, &moves, &ours, 200_000, 5_000, 1)
            .unwrap()
            .unwrap();
        assert_eq!((blind.index, blind.check_sees), (step.index, false));
        let mut listed = Vec::new();
        generate(&board_after(&moves[..step.index]).unwrap(), &mut listed);
        assert_eq!(step.candidates, listed.len());
    }

    #[test]
    fn a_win_left_on_the_board_is_found_where_it_was_missed() {
        // White (the engine) makes an open three on the diagonal 5,5 6,6 7,7; black answers
        // far away, and white plays away too instead of making the open four.
        let moves: Vec<Pos> =
            [(0, 11), (7, 7), (0, 0), (11, 0), (11, 11)].map(|(r, c)| Pos::new(r, c)).to_vec();
        let ours = [1, 3];
        let mut solver = Solver::new();
        let (k, line) = first_missed_win(&mut solver, &moves, &ours, 100_000).unwrap().unwrap();
        assert_eq!(k, 3, "with two stones on the diagonal there was no win yet");
        assert!(line[0] == Pos::new(4, 4) || line[0] == Pos::new(8, 8), "{line:?}");
        // Before the open three, nothing to miss.
        assert_eq!(first_missed_win(&mut solver, &moves, &ours[..1], 100_000).unwrap(), None);
    }
}
