//! `diverge`: where our lost games left a reference engine's games that held from the same
//! opening. The reference games are another engine's (Rapfi against itself, say); for each game
//! the engine lost, every reference game on the same opening whose side of our colour did not
//! lose is walked beside ours to the first stone where they differ. When that stone is ours,
//! the position before it is one where the reference chose otherwise and held; our own long
//! search then says which move it would play there (the reference's, ours again, or another)
//! and how each of the two moves scores when searched on its own: whether more of our search
//! would have told them apart.
//!
//! One game that held is weak evidence that a move is better (the reference engine's games
//! vary from run to run): the counts over many openings are what the report is for, beside
//! their control, `--reverse`: our games that held against the reference's games that lost
//! (how often our long search plays the reference's move where that move did worse).

use std::collections::BTreeMap;

use wuzi::board::{Color, Pos};
use wuzi::core::params::WIN;
use wuzi::core::pattern::Combo;
use wuzi::search::score_text;
use wuzi::tools::record::Record;

use crate::records::{outcome, DRAWN, LOST, WON};
use crate::{board_after, nodes_arg, pos_text, search_nodes, SEARCH_NODES};

/// Where two games from the same opening first differ.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Split {
    /// At our move of this index (0: black's first stone after the start).
    Ours(usize),
    /// At the opponent's move of this index: the two games met different positions, and the
    /// comparison says nothing about our moves.
    Theirs(usize),
    /// One game is the other's beginning (or they are the same game).
    None,
}

/// The first difference between our game and a reference game, both after the same opening
/// of `opening` stones; `ours_black` says which colour was ours.
pub fn first_split(ours: &[Pos], reference: &[Pos], opening: usize, ours_black: bool) -> Split {
    let common = ours.iter().zip(reference).take_while(|(a, b)| a == b).count();
    if common == ours.len().min(reference.len()) || common < opening {
        return Split::None;
    }
    // Moves alternate from black's at index 0.
    if (common % 2 == 0) == ours_black {
        Split::Ours(common)
    } else {
        Split::Theirs(common)
    }
}

/// Two moves' scores closer than this (evaluation units: `params::EVAL_SCALE` a logit) are a
/// tie for the report.
const CLOSE: i32 = 30;

/// The score of `mv` after `moves` for the side that plays it: a five wins at once, else our
/// long search of the position after it, from the other side's view, negated.
fn score_after(moves: &[Pos], mv: Pos, nodes: u64) -> Result<i32, String> {
    let mut board = board_after(moves)?;
    if board.combo(mv, board.side_to_move()) == Combo::Five {
        return Ok(WIN - 1);
    }
    board.make(mv);
    Ok(-search_nodes(&mut board, nodes).score)
}

/// A game of the reference set: its moves, opening length and winner.
struct Reference {
    path: String,
    moves: Vec<Pos>,
    opening: usize,
    winner: Option<Color>,
}

/// `defence diverge [--engine A|B] [--nodes N] [--reverse] RECORD... --against RECORD...`
pub fn diverge(args: &[String]) -> Result<(), String> {
    let mut engine = "A".to_string();
    let mut nodes = SEARCH_NODES;
    let (mut ours, mut refs) = (Vec::new(), Vec::new());
    let (mut against, mut reverse) = (false, false);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--engine" => engine = it.next().ok_or("--engine needs A or B")?.clone(),
            "--nodes" => nodes = nodes_arg(it.next())?,
            "--against" => against = true,
            "--reverse" => reverse = true,
            f if against => refs.push(f.to_string()),
            f => ours.push(f.to_string()),
        }
    }
    if ours.is_empty() || refs.is_empty() {
        return Err("diverge needs our records, then --against and the reference's".into());
    }
    let refs: Vec<Reference> = refs
        .into_iter()
        .map(|path| {
            let r = Record::read(&path)?;
            Ok(Reference { opening: r.opening_len(), winner: r.winner(), moves: r.moves, path })
        })
        .collect::<Result<_, String>>()?;
    // Each position once (the same split recurs when both sides repeat their games).
    let mut splits: BTreeMap<(Vec<Pos>, Pos, Pos), String> = BTreeMap::new();
    let (mut games, mut compared, mut theirs) = (0, 0, 0);
    for f in &ours {
        let record = Record::read(f)?;
        let mine = record.moves_of(&engine);
        let Some(&first) = mine.first() else { continue };
        let colour = if first % 2 == 0 { Color::Black } else { Color::White };
        // The games compared: those our side lost by five (not by a fault); with `--reverse`,
        // those it held (drew or won).
        let wanted = match outcome(&record, &engine) {
            LOST => !reverse,
            WON | DRAWN => reverse,
            _ => false,
        };
        if !wanted {
            continue;
        }
        games += 1;
        let opening = record.opening_len();
        let same = |r: &&Reference| {
            r.opening == opening && r.moves.get(..opening) == record.moves.get(..opening)
        };
        let held = |r: &&Reference| (r.winner != Some(colour.opp())) != reverse;
        for r in refs.iter().filter(same).filter(held) {
            compared += 1;
            match first_split(&record.moves, &r.moves, opening, colour == Color::Black) {
                Split::Ours(k) => {
                    let key = (record.moves[..k].to_vec(), record.moves[k], r.moves[k]);
                    splits.entry(key).or_insert_with(|| format!("{f} / {}", r.path));
                }
                Split::Theirs(_) => theirs += 1,
                Split::None => {}
            }
        }
    }
    let (mut picks, mut at) = ([0usize; 3], BTreeMap::<usize, usize>::new());
    // How the two moves score after them: the reference's better, ours better, or close.
    let mut scored = [0usize; 3];
    for ((before, mine, other), pair) in &splits {
        let report = search_nodes(&mut board_after(before)?, nodes);
        let best = report.best;
        let (kind, which) = match best {
            Some(b) if b == *other => (0, "the reference's"),
            Some(b) if b == *mine => (1, "ours again"),
            _ => (2, "another"),
        };
        picks[kind] += 1;
        *at.entry(before.len() + 1).or_default() += 1;
        let (s_mine, s_other) =
            (score_after(before, *mine, nodes)?, score_after(before, *other, nodes)?);
        scored[match s_other - s_mine {
            d if d > CLOSE => 0,
            d if d < -CLOSE => 1,
            _ => 2,
        }] += 1;
        println!(
            "{pair}: move {}: ours {} ({}), the reference's {} ({}); our long search plays {} \
             ({which}, {})",
            before.len() + 1,
            pos_text(*mine),
            score_text(s_mine),
            pos_text(*other),
            score_text(s_other),
            best.map_or("nothing".to_string(), pos_text),
            score_text(report.score)
        );
    }
    let by_move: Vec<String> = at.iter().map(|(m, n)| format!("move {m}: {n}")).collect();
    let (ours_verb, theirs_verb) = if reverse { ("held", "lost") } else { ("lost", "held") };
    println!(
        "{games} games {ours_verb} by {engine}; {compared} pairs of one of them and a reference \
         game that {theirs_verb} from the same opening; {} positions where our move was the \
         first difference ({}), {theirs} pairs where the opponent's was; our long search \
         ({nodes} nodes) plays the reference's move in {}, ours again in {}, another in {}; \
         after the two moves it scores the reference's better by more than {CLOSE} in {}, ours \
         in {}, within {CLOSE} in {}",
        splits.len(),
        by_move.join(", "),
        picks[0],
        picks[1],
        picks[2],
        scored[0],
        scored[1],
        scored[2]
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(list: &[(usize, usize)]) -> Vec<Pos> {
        list.iter().map(|&(r, c)| Pos::new(r, c)).collect()
    }

    #[test]
    fn the_first_difference_is_named_by_whose_move_it_was() {
        // A two-stone opening (black 3,3, white 8,8), then black 4,4 in both games.
        let ours = moves(&[(3, 3), (8, 8), (4, 4), (7, 7), (2, 2)]);
        let held = moves(&[(3, 3), (8, 8), (4, 4), (5, 5), (2, 2)]);
        // Index 3 is white's move: ours when we were white, the opponent's when black.
        assert_eq!(first_split(&ours, &held, 2, false), Split::Ours(3));
        assert_eq!(first_split(&ours, &held, 2, true), Split::Theirs(3));
        let black_differs = moves(&[(3, 3), (8, 8), (4, 5), (7, 7)]);
        assert_eq!(first_split(&ours, &black_differs, 2, true), Split::Ours(2));
        assert_eq!(first_split(&ours, &black_differs, 2, false), Split::Theirs(2));
    }

    #[test]
    fn the_same_game_or_another_opening_has_no_split() {
        let ours = moves(&[(3, 3), (8, 8), (4, 4), (7, 7)]);
        assert_eq!(first_split(&ours, &ours, 2, false), Split::None);
        assert_eq!(first_split(&ours, &ours[..3], 2, false), Split::None, "a game cut short");
        // Different openings differ inside the opening: nobody's move.
        let other = moves(&[(3, 3), (9, 9), (4, 4), (7, 7)]);
        assert_eq!(first_split(&ours, &other, 2, false), Split::None);
    }
}
