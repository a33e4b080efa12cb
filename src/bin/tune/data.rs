//! The trainer's data: games replayed into evaluation, ranking and policy samples.

use std::collections::HashMap;

use wuzi::board::{Board, Color, StartPos};
use wuzi::core::params::WIN_BOUND;
use wuzi::core::pattern::Combo;
use wuzi::eval::features::NUM_FEATURES;
use wuzi::search::bench::parse_moves;
use wuzi::search::movegen::{generate, Threat};

/// Evaluation samples: sparse (role, feature) counts and a result.
#[derive(Default)]
pub struct EvalSet {
    pub start: Vec<usize>,
    pub index: Vec<u16>,
    pub count: Vec<f32>,
    /// The training target: the result, or a blend of it and the search's score.
    pub result: Vec<f64>,
    /// The game's result from the side to move's view.
    pub outcome: Vec<f64>,
    /// The search's score for the side to move (NaN where none was recorded or it was a
    /// proven win or loss).
    pub score: Vec<f64>,
    /// The hand-set evaluation this one replaces (a baseline).
    pub old_eval: Vec<f64>,
}

/// Policy samples: the candidates' features (own, opponent's) and the chosen candidate.
#[derive(Default)]
pub struct PolicySet {
    pub start: Vec<usize>,
    pub cands: Vec<[u16; 2]>,
    pub chosen: Vec<usize>,
    /// How often the old hand-set ordering put the chosen move first (a baseline; ties share).
    pub old_top: Vec<f64>,
}

/// Ranking samples: the positions after the chosen move and after its strongest rivals (by
/// the hand-set ordering), each as sparse counts from its own side to move's view. The
/// evaluation should rank the chosen child best for the mover, i.e. lowest for its new side
/// to move (comparison training, as in Bonanza).
#[derive(Default)]
pub struct RankSet {
    /// Per position: its first child.
    pub start: Vec<usize>,
    /// Per child: its first count.
    pub child: Vec<usize>,
    pub index: Vec<u16>,
    pub count: Vec<f32>,
}

/// Sparse (role, feature) counts of `board` from its side to move's view.
pub fn counts_of(board: &Board, counts: &mut HashMap<u16, f32>) -> Vec<(u16, f32)> {
    let me = board.side_to_move();
    counts.clear();
    for p in board.points().filter(|&p| board.is_empty(p)) {
        *counts.entry(board.feature(p, me) as u16).or_default() += 1.0;
        *counts.entry((NUM_FEATURES + board.feature(p, me.opp())) as u16).or_default() += 1.0;
    }
    let mut entries: Vec<(u16, f32)> = counts.iter().map(|(&k, &v)| (k, v)).collect();
    entries.sort_unstable_by_key(|e| e.0);
    entries
}

/// Whether the search would evaluate `board` statically: no five to make for either side, no
/// open four or double four for the side to move.
pub fn quiet(board: &Board) -> bool {
    let me = board.side_to_move();
    board.combo_count(me, Combo::Five) == 0
        && board.combo_count(me.opp(), Combo::Five) == 0
        && board.combo_count(me, Combo::FlexFour) == 0
}

pub fn load(paths: &[String]) -> Result<Vec<(u64, String)>, String> {
    let mut games = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let n: u64 =
                line.split_whitespace().next().and_then(|w| w.parse().ok()).ok_or("bad line")?;
            games.push((n, line.to_string()));
        }
    }
    games.sort();
    Ok(games)
}

/// Replays one game line into the sets.
pub fn replay(
    line: &str,
    eval: &mut EvalSet,
    policy: &mut PolicySet,
    rank: &mut RankSet,
    children: usize,
) -> Result<(), String> {
    let (game, scores) = line.split_once('|').unwrap_or((line, ""));
    let mut words = game.split_whitespace().skip(1);
    let result = words.next().ok_or("no result")?;
    let opening: usize = words.next().and_then(|w| w.parse().ok()).ok_or("no opening")?;
    let moves = parse_moves(&words.collect::<Vec<_>>().join(" "))?;
    let scores: Vec<i32> = scores
        .split_whitespace()
        .map(|w| w.parse().map_err(|_| "bad score"))
        .collect::<Result<_, _>>()?;
    let black_score = match result {
        "B" => 1.0,
        "W" => 0.0,
        _ => 0.5,
    };
    let mut board = Board::with_start(12, StartPos::Center4);
    let mut list = Vec::new();
    let mut counts: HashMap<u16, f32> = HashMap::new();
    for (ply, &mv) in moves.iter().enumerate() {
        if ply >= opening {
            let me = board.side_to_move();
            let opp = me.opp();
            let y = if me == Color::Black { black_score } else { 1.0 - black_score };
            if quiet(&board) {
                let entries = counts_of(&board, &mut counts);
                eval.start.push(eval.index.len());
                for (k, v) in entries {
                    eval.index.push(k);
                    eval.count.push(v);
                }
                let sum = |c| {
                    board
                        .points()
                        .filter(|&p| board.is_empty(p))
                        .map(|p| board.point_value(p, c))
                        .sum::<i32>()
                };
                eval.old_eval.push(f64::from(sum(me) * 10 - sum(opp) * 8) / 8.0);
                eval.result.push(y);
                eval.outcome.push(y);
                let score = scores.get(ply - opening).copied().filter(|s| s.abs() < WIN_BOUND);
                eval.score.push(score.map_or(f64::NAN, f64::from));
            }
            // The positions the search orders moves in: it stops earlier where the mover has
            // a five or an open four to make.
            let searched = board.combo_count(me, Combo::Five) == 0
                && board.combo_count(me, Combo::FlexFour) == 0;
            if searched && generate(&board, &mut list) != Threat::BlockFour && list.len() >= 2 {
                if let Some(chosen) = list.iter().position(|m| m.pos == mv) {
                    policy.start.push(policy.cands.len());
                    for m in &list {
                        policy.cands.push([
                            board.feature(m.pos, me) as u16,
                            board.feature(m.pos, opp) as u16,
                        ]);
                    }
                    policy.chosen.push(chosen);
                    let old = |p| 2 * board.point_value(p, me) + board.point_value(p, opp);
                    let scores: Vec<i32> = list.iter().map(|m| old(m.pos)).collect();
                    policy.old_top.push(top_share(&scores, chosen));
                    // The chosen move first, then its strongest rivals.
                    let mut rivals: Vec<usize> = (0..list.len()).filter(|&j| j != chosen).collect();
                    rivals.sort_by_key(|&j| -scores[j]);
                    rivals.truncate(children.saturating_sub(1));
                    let mut kids = Vec::new();
                    for j in std::iter::once(chosen).chain(rivals) {
                        board.make(list[j].pos);
                        if quiet(&board) {
                            kids.push(counts_of(&board, &mut counts));
                        } else if j == chosen {
                            kids.clear();
                            board.unmake();
                            break;
                        }
                        board.unmake();
                    }
                    if kids.len() >= 2 {
                        rank.start.push(rank.child.len());
                        for kid in kids {
                            rank.child.push(rank.index.len());
                            for (k, v) in kid {
                                rank.index.push(k);
                                rank.count.push(v);
                            }
                        }
                    }
                }
            }
        }
        if !board.is_empty(mv) {
            return Err(format!("illegal move {mv}"));
        }
        board.make(mv);
    }
    Ok(())
}

/// 1/k when `chosen` is one of the k best of `scores`, else 0.
pub fn top_share<T: PartialOrd + Copy>(scores: &[T], chosen: usize) -> f64 {
    if scores.iter().any(|&s| s > scores[chosen]) {
        return 0.0;
    }
    1.0 / scores.iter().filter(|&&s| s >= scores[chosen]).count() as f64
}
