//! The trainer of the learned evaluation and move ordering (see the README, "Learned
//! evaluation"). Reads self-play games written by `datagen`, replays them, and fits by full-
//! batch Adam:
//!
//! - the evaluation, Texel-style: `sigmoid(eval)` against the game's result from the side to
//!   move's view (1 win, 1/2 draw, 0 loss), log loss, on quiet positions (no five to make for
//!   either side, no open four or double four for the side to move);
//! - the policy: a softmax over the candidates the search would order (`movegen::generate`:
//!   quiet positions and answers to open threes), against the move the search chose there.
//!
//! Each feature's weight is the sum of its four line classes' weights plus a residual of its
//! own; both get an L2 penalty, the residual a stronger one, so rare combinations fall back
//! on their lines. Every tenth game (by number) is held back for validation; both losses are
//! printed as training goes, so over-fitting shows. The result is written as
//! `src/weights.rs`, scaled by `params::EVAL_SCALE` and `params::POLICY_SCALE`.
//!
//! Usage: `tune --data FILE [--data FILE ...] [--epochs N] [--lr X] [--l2 X] [--l2-lines X]
//! [--lambda X] [--rank-weight X] [--rank-children N] [--games N] [--policy-epochs N]
//! [--policy-lr X] [--policy-l2 X] [--out FILE] [--command TEXT] [--handset]`
//! (`--l2` is the evaluation's residual penalty, `--l2-lines` the line classes' for both;
//! `--command` is the text the weights file's header gives as the way to regenerate it).

use std::collections::HashMap;
use std::io::Write;

use wuzi::bench::parse_moves;
use wuzi::board::{Board, Color, StartPos};
use wuzi::features::{feature_tables, NUM_CLASSES, NUM_FEATURES};
use wuzi::movegen::{generate, Threat};
use wuzi::params::{EVAL_SCALE, POLICY_SCALE, WIN_BOUND};
use wuzi::pattern::Combo;

/// Parameters of one model: a residual per (role, feature), a weight per (role, class), and
/// a bias (the tempo of the evaluation; unused by the policy, where it cancels).
#[derive(Clone)]
struct Model {
    resid: Vec<f64>,
    lines: Vec<f64>,
    bias: f64,
}

impl Model {
    fn new() -> Model {
        Model { resid: vec![0.0; 2 * NUM_FEATURES], lines: vec![0.0; 2 * NUM_CLASSES], bias: 0.0 }
    }
    /// The effective weight of every (role, feature).
    fn weights(&self) -> Vec<f64> {
        let classes = &feature_tables().classes;
        (0..2 * NUM_FEATURES)
            .map(|i| {
                let (role, f) = (i / NUM_FEATURES, i % NUM_FEATURES);
                self.resid[i]
                    + classes[f]
                        .iter()
                        .map(|&c| self.lines[role * NUM_CLASSES + c as usize])
                        .sum::<f64>()
            })
            .collect()
    }
    /// Folds a gradient over the effective weights into the parameters' gradient.
    fn backprop(&self, g_w: &[f64], g_bias: f64, l2: f64, l2_lines: f64) -> Model {
        let classes = &feature_tables().classes;
        let mut g = Model::new();
        for (i, &gw) in g_w.iter().enumerate() {
            let (role, f) = (i / NUM_FEATURES, i % NUM_FEATURES);
            g.resid[i] = gw + l2 * self.resid[i];
            for &c in classes[f].iter() {
                g.lines[role * NUM_CLASSES + c as usize] += gw;
            }
        }
        for (gl, l) in g.lines.iter_mut().zip(&self.lines) {
            *gl += l2_lines * l;
        }
        g.bias = g_bias;
        g
    }
}

/// Adam over a [`Model`].
struct Adam {
    m: Model,
    v: Model,
    t: i32,
    lr: f64,
}

impl Adam {
    fn step(&mut self, model: &mut Model, g: &Model) {
        self.t += 1;
        let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
        let (c1, c2) = (1.0 - b1.powi(self.t), 1.0 - b2.powi(self.t));
        let upd = |p: &mut f64, g: f64, m: &mut f64, v: &mut f64| {
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            *p -= self.lr * (*m / c1) / ((*v / c2).sqrt() + eps);
        };
        for i in 0..model.resid.len() {
            upd(&mut model.resid[i], g.resid[i], &mut self.m.resid[i], &mut self.v.resid[i]);
        }
        for i in 0..model.lines.len() {
            upd(&mut model.lines[i], g.lines[i], &mut self.m.lines[i], &mut self.v.lines[i]);
        }
        upd(&mut model.bias, g.bias, &mut self.m.bias, &mut self.v.bias);
    }
}

/// Evaluation samples: sparse (role, feature) counts and a result.
#[derive(Default)]
struct EvalSet {
    start: Vec<usize>,
    index: Vec<u16>,
    count: Vec<f32>,
    /// The training target: the result, or a blend of it and the search's score.
    result: Vec<f64>,
    /// The game's result from the side to move's view.
    outcome: Vec<f64>,
    /// The search's score for the side to move (NaN where none was recorded or it was a
    /// proven win or loss).
    score: Vec<f64>,
    /// The hand-set evaluation this one replaces (a baseline).
    old_eval: Vec<f64>,
}

/// Policy samples: the candidates' features (own, opponent's) and the chosen candidate.
#[derive(Default)]
struct PolicySet {
    start: Vec<usize>,
    cands: Vec<[u16; 2]>,
    chosen: Vec<usize>,
    /// How often the old hand-set ordering put the chosen move first (a baseline; ties share).
    old_top: Vec<f64>,
}

/// Ranking samples: the positions after the chosen move and after its strongest rivals (by
/// the hand-set ordering), each as sparse counts from its own side to move's view. The
/// evaluation should rank the chosen child best for the mover, i.e. lowest for its new side
/// to move (comparison training, as in Bonanza).
#[derive(Default)]
struct RankSet {
    /// Per position: its first child.
    start: Vec<usize>,
    /// Per child: its first count.
    child: Vec<usize>,
    index: Vec<u16>,
    count: Vec<f32>,
}

/// Sparse (role, feature) counts of `board` from its side to move's view.
fn counts_of(board: &Board, counts: &mut HashMap<u16, f32>) -> Vec<(u16, f32)> {
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
fn quiet(board: &Board) -> bool {
    let me = board.side_to_move();
    board.combo_count(me, Combo::Five) == 0
        && board.combo_count(me.opp(), Combo::Five) == 0
        && board.combo_count(me, Combo::FlexFour) == 0
}

fn load(paths: &[String]) -> Result<Vec<(u64, String)>, String> {
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
fn replay(
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

/// The K of `sigmoid(score / K)` (a multiple of 10) that best predicts the outcomes of the
/// positions with a recorded search score.
fn texel_loss(scores: &[f64], outcomes: &[f64], k: f64) -> f64 {
    let mut sum = 0.0;
    for (s, y) in scores.iter().zip(outcomes) {
        let p = sigmoid(s / k).clamp(1e-12, 1.0 - 1e-12);
        sum -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
    }
    sum / scores.len().max(1) as f64
}

fn fit_k_of(scores: &[f64], outcomes: &[f64]) -> f64 {
    (1..=400)
        .map(|i| 10.0 * i as f64)
        .min_by(|&a, &b| {
            texel_loss(scores, outcomes, a).total_cmp(&texel_loss(scores, outcomes, b))
        })
        .unwrap_or(EVAL_SCALE)
}

fn fit_k(set: &EvalSet) -> f64 {
    let loss = |k: f64| {
        let mut sum = 0.0;
        for (s, y) in set.score.iter().zip(&set.outcome).filter(|(s, _)| !s.is_nan()) {
            let p = sigmoid(s / k).clamp(1e-12, 1.0 - 1e-12);
            sum -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
        }
        sum
    };
    (1..=200)
        .map(|i| 10.0 * i as f64)
        .min_by(|&a, &b| loss(a).total_cmp(&loss(b)))
        .unwrap_or(EVAL_SCALE)
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Mean log loss of the evaluation on `set`; with `grad`, adds the gradient over the
/// effective weights and returns the bias gradient too.
fn eval_pass(
    set: &EvalSet,
    targets: &[f64],
    w: &[f64],
    bias: f64,
    grad: Option<&mut Vec<f64>>,
) -> (f64, f64) {
    let n = set.result.len();
    let mut loss = 0.0;
    let mut g_bias = 0.0;
    let mut grad = grad;
    for (s, &y) in targets.iter().enumerate().take(n) {
        let (a, b) = (set.start[s], set.start.get(s + 1).copied().unwrap_or(set.index.len()));
        let z: f64 =
            bias + (a..b).map(|k| w[set.index[k] as usize] * set.count[k] as f64).sum::<f64>();
        let p = sigmoid(z).clamp(1e-12, 1.0 - 1e-12);
        loss -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
        if let Some(g) = grad.as_deref_mut() {
            let d = (p - y) / n as f64;
            g_bias += d;
            for k in a..b {
                g[set.index[k] as usize] += d * set.count[k] as f64;
            }
        }
    }
    (loss / n.max(1) as f64, g_bias)
}

/// Mean ranking loss (softmax over the children of minus their evaluation, the chosen child
/// first) and how often the chosen child ranks best, with the gradient (times `weight`).
fn rank_pass(set: &RankSet, w: &[f64], weight: f64, grad: Option<&mut Vec<f64>>) -> (f64, f64) {
    let n = set.start.len();
    let (mut loss, mut top) = (0.0, 0.0);
    let mut grad = grad;
    let mut logits = Vec::new();
    for s in 0..n {
        let (a, b) = (set.start[s], set.start.get(s + 1).copied().unwrap_or(set.child.len()));
        let span =
            |c: usize| set.child[c]..set.child.get(c + 1).copied().unwrap_or(set.index.len());
        logits.clear();
        logits.extend((a..b).map(|c| {
            -span(c).map(|k| w[set.index[k] as usize] * set.count[k] as f64).sum::<f64>()
        }));
        let max = logits.iter().cloned().fold(f64::MIN, f64::max);
        let z: f64 = logits.iter().map(|l| (l - max).exp()).sum();
        loss -= logits[0] - max - z.ln();
        top += top_share(&logits, 0);
        if let Some(g) = grad.as_deref_mut() {
            for (j, c) in (a..b).enumerate() {
                let d = ((logits[j] - max).exp() / z - f64::from(j == 0)) * weight / n as f64;
                for k in span(c) {
                    g[set.index[k] as usize] -= d * set.count[k] as f64;
                }
            }
        }
    }
    (loss / n.max(1) as f64, top / n.max(1) as f64)
}

/// Mean softmax loss and top-1 accuracy of the policy on `set`, with the gradient if asked.
fn policy_pass(set: &PolicySet, w: &[f64], grad: Option<&mut Vec<f64>>) -> (f64, f64) {
    let n = set.chosen.len();
    let (mut loss, mut top) = (0.0, 0.0);
    let mut grad = grad;
    let mut logits = Vec::new();
    for s in 0..n {
        let (a, b) = (set.start[s], set.start.get(s + 1).copied().unwrap_or(set.cands.len()));
        logits.clear();
        logits.extend(
            set.cands[a..b].iter().map(|c| w[c[0] as usize] + w[NUM_FEATURES + c[1] as usize]),
        );
        let max = logits.iter().cloned().fold(f64::MIN, f64::max);
        let z: f64 = logits.iter().map(|l| (l - max).exp()).sum();
        let chosen = set.chosen[s];
        loss -= logits[chosen] - max - z.ln();
        // A tie for first counts as a draw among the tied moves.
        top += top_share(&logits, chosen);
        if let Some(g) = grad.as_deref_mut() {
            for (j, c) in set.cands[a..b].iter().enumerate() {
                let p = (logits[j] - max).exp() / z - f64::from(j == chosen);
                let d = p / n as f64;
                g[c[0] as usize] += d;
                g[NUM_FEATURES + c[1] as usize] += d;
            }
        }
    }
    (loss / n.max(1) as f64, top / n.max(1) as f64)
}

/// 1/k when `chosen` is one of the k best of `scores`, else 0.
fn top_share<T: PartialOrd + Copy>(scores: &[T], chosen: usize) -> f64 {
    if scores.iter().any(|&s| s > scores[chosen]) {
        return 0.0;
    }
    1.0 / scores.iter().filter(|&&s| s >= scores[chosen]).count() as f64
}

struct Options {
    data: Vec<String>,
    out: String,
    epochs: usize,
    lr: f64,
    l2: f64,
    l2_lines: f64,
    lambda: f64,
    rank_weight: f64,
    rank_children: usize,
    max_games: u64,
    policy_epochs: usize,
    policy_lr: f64,
    policy_l2: f64,
    command: String,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        data: Vec::new(),
        out: "src/weights.rs".into(),
        epochs: 600,
        lr: 0.02,
        l2: 1e-4,
        l2_lines: 1e-6,
        lambda: 1.0,
        rank_weight: 0.0,
        rank_children: 8,
        max_games: u64::MAX,
        policy_epochs: 400,
        policy_lr: 0.02,
        policy_l2: 1e-4,
        command: String::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--data" => o.data.push(val()?),
            "--out" => o.out = val()?,
            "--epochs" => o.epochs = val()?.parse().map_err(|_| "bad --epochs")?,
            "--lr" => o.lr = val()?.parse().map_err(|_| "bad --lr")?,
            "--l2" => o.l2 = val()?.parse().map_err(|_| "bad --l2")?,
            "--l2-lines" => o.l2_lines = val()?.parse().map_err(|_| "bad --l2-lines")?,
            "--rank-weight" => o.rank_weight = val()?.parse().map_err(|_| "bad --rank-weight")?,
            "--rank-children" => {
                o.rank_children = val()?.parse().map_err(|_| "bad --rank-children")?
            }
            "--games" => o.max_games = val()?.parse().map_err(|_| "bad --games")?,
            "--lambda" => o.lambda = val()?.parse().map_err(|_| "bad --lambda")?,
            "--policy-epochs" => {
                o.policy_epochs = val()?.parse().map_err(|_| "bad --policy-epochs")?
            }
            "--policy-lr" => o.policy_lr = val()?.parse().map_err(|_| "bad --policy-lr")?,
            "--policy-l2" => o.policy_l2 = val()?.parse().map_err(|_| "bad --policy-l2")?,
            "--command" => o.command = val()?,
            "--handset" => {}
            _ => return Err(format!("unknown argument {a}")),
        }
    }
    if o.data.is_empty() && !std::env::args().any(|a| a == "--handset") {
        return Err("give --data FILE".into());
    }
    Ok(o)
}

/// The hand-set evaluation and ordering this crate had before, as feature weights (in logits
/// of `EVAL_SCALE` and `POLICY_SCALE`): a control for experiments, `--handset`.
fn handset() -> (Vec<f64>, Vec<f64>) {
    use wuzi::features::CLASS_NAMES;
    use wuzi::pattern::{combo_of, point_value};
    let t = feature_tables();
    let pv = |f: usize| {
        let pats = t.classes[f].map(|c| CLASS_NAMES[c as usize].1);
        f64::from(point_value(pats, combo_of(pats)))
    };
    let mut eval = vec![0.0; 2 * NUM_FEATURES];
    let mut policy = vec![0.0; 2 * NUM_FEATURES];
    for f in 0..NUM_FEATURES {
        eval[f] = pv(f) * 10.0 / 8.0 / EVAL_SCALE;
        eval[NUM_FEATURES + f] = -pv(f) / EVAL_SCALE;
        policy[f] = 2.0 * pv(f) / POLICY_SCALE;
        policy[NUM_FEATURES + f] = pv(f) / POLICY_SCALE;
    }
    (eval, policy)
}

fn main() {
    let o = parse_args().unwrap_or_else(|e| {
        eprintln!("tune: {e}");
        std::process::exit(2);
    });
    if std::env::args().any(|a| a == "--handset") {
        let (eval, policy) = handset();
        if let Err(e) = write_weights(&o, &eval, 0.0, &policy, "the hand-set evaluation") {
            eprintln!("tune: {}: {e}", o.out);
            std::process::exit(1);
        }
        return;
    }
    let mut games = load(&o.data).unwrap_or_else(|e| {
        eprintln!("tune: {e}");
        std::process::exit(1);
    });
    // The first games by number: what `datagen --games N` writes, even from a longer run.
    games.retain(|(n, _)| *n < o.max_games);
    let (mut et, mut ev, mut pt, mut pv) =
        (EvalSet::default(), EvalSet::default(), PolicySet::default(), PolicySet::default());
    let (mut rt, mut rv) = (RankSet::default(), RankSet::default());
    let kids = if o.rank_weight > 0.0 { o.rank_children } else { 0 };
    for (n, line) in &games {
        let r = if n % 10 == 0 {
            replay(line, &mut ev, &mut pv, &mut rv, kids)
        } else {
            replay(line, &mut et, &mut pt, &mut rt, kids)
        };
        if let Err(e) = r {
            eprintln!("tune: game {n}: {e}");
            std::process::exit(1);
        }
    }
    println!(
        "games {} | eval positions train {} validation {} | policy positions train {} validation {}",
        games.len(),
        et.result.len(),
        ev.result.len(),
        pt.chosen.len(),
        pv.chosen.len()
    );
    // Texel's K for the recorded search scores: the scale that best predicts the results.
    let old_k = fit_k_of(&et.old_eval, &et.outcome);
    let old_loss = texel_loss(&ev.old_eval, &ev.outcome, old_k);
    println!("hand-set evaluation: K {old_k}, validation log loss {old_loss:.4}");
    let k = fit_k(&et);
    let with_score: Vec<usize> = (0..ev.score.len()).filter(|&i| !ev.score[i].is_nan()).collect();
    let search_loss = with_score
        .iter()
        .map(|&i| {
            let (p, y) = (sigmoid(ev.score[i] / k).clamp(1e-12, 1.0 - 1e-12), ev.outcome[i]);
            -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
        })
        .sum::<f64>()
        / with_score.len().max(1) as f64;
    println!(
        "search scores: sigmoid(score / {k}) fits the results best (validation log loss \
         {search_loss:.4} on {} positions); blend lambda {}",
        with_score.len(),
        o.lambda
    );
    for set in [&mut et, &mut ev] {
        for i in 0..set.result.len() {
            if !set.score[i].is_nan() {
                set.result[i] =
                    o.lambda * set.outcome[i] + (1.0 - o.lambda) * sigmoid(set.score[i] / k);
            }
        }
    }
    let mean_outcome = ev.outcome.iter().sum::<f64>() / ev.outcome.len().max(1) as f64;
    let base_outcome = ev
        .outcome
        .iter()
        .map(|y| -(y * mean_outcome.ln() + (1.0 - y) * (1.0 - mean_outcome).ln()))
        .sum::<f64>()
        / ev.outcome.len().max(1) as f64;
    let mean = et.result.iter().sum::<f64>() / et.result.len().max(1) as f64;
    let base = -(mean * mean.ln() + (1.0 - mean) * (1.0 - mean).ln());
    println!("eval baseline (constant prediction {mean:.3}): log loss {base:.4}");
    // The evaluation.
    let mut model = Model::new();
    let mut adam = Adam { m: Model::new(), v: Model::new(), t: 0, lr: o.lr };
    for epoch in 0..=o.epochs {
        let w = model.weights();
        let mut g = vec![0.0; 2 * NUM_FEATURES];
        let (train, g_bias) = eval_pass(&et, &et.result, &w, model.bias, Some(&mut g));
        let (rank_train, _) = rank_pass(&rt, &w, o.rank_weight, Some(&mut g));
        if epoch % 50 == 0 || epoch == o.epochs {
            let (val, _) = eval_pass(&ev, &ev.result, &w, model.bias, None);
            let (rank_val, rank_top) = rank_pass(&rv, &w, 0.0, None);
            let ranking = if rv.start.is_empty() {
                String::new()
            } else {
                format!(
                    " | ranking train {rank_train:.4} validation {rank_val:.4}, chosen child \
                     best {:.1}%",
                    100.0 * rank_top
                )
            };
            println!("eval epoch {epoch:4}: train {train:.4} validation {val:.4}{ranking}");
        }
        let grad = model.backprop(&g, g_bias, o.l2, o.l2_lines);
        adam.step(&mut model, &grad);
    }
    let eval_w = model.weights();
    let eval_bias = model.bias;
    let (eval_train, _) = eval_pass(&et, &et.result, &eval_w, eval_bias, None);
    let (rank_train, _) = rank_pass(&rt, &eval_w, 0.0, None);
    let (rank_val, rank_top) = rank_pass(&rv, &eval_w, 0.0, None);
    let (eval_val, _) = eval_pass(&ev, &ev.result, &eval_w, eval_bias, None);
    // The Texel measure proper: the validation loss against the game results alone.
    let (eval_val_outcome, _) = eval_pass(&ev, &ev.outcome, &eval_w, eval_bias, None);
    // The policy.
    let old_top = pv.old_top.iter().sum::<f64>() / pv.old_top.len().max(1) as f64;
    println!(
        "policy baseline: the hand-set ordering puts the chosen move first in {:.1}% (validation)",
        100.0 * old_top
    );
    let mut model = Model::new();
    let mut adam = Adam { m: Model::new(), v: Model::new(), t: 0, lr: o.policy_lr };
    for epoch in 0..=o.policy_epochs {
        let w = model.weights();
        let mut g = vec![0.0; 2 * NUM_FEATURES];
        let (train, _) = policy_pass(&pt, &w, Some(&mut g));
        if epoch % 50 == 0 || epoch == o.policy_epochs {
            let (val, top) = policy_pass(&pv, &w, None);
            println!(
                "policy epoch {epoch:4}: train {train:.4} validation {val:.4} top-1 {:.1}%",
                100.0 * top
            );
        }
        let grad = model.backprop(&g, 0.0, o.policy_l2, o.l2_lines);
        adam.step(&mut model, &grad);
    }
    let pol_w = model.weights();
    let (pol_train, _) = policy_pass(&pt, &pol_w, None);
    let (pol_val, pol_top) = policy_pass(&pv, &pol_w, None);
    let ranking = if o.rank_weight > 0.0 {
        format!(
            "; ranking of the chosen move's position (weight {}): loss {rank_train:.4} / \
             {rank_val:.4}, validation best {:.1}%",
            o.rank_weight,
            100.0 * rank_top
        )
    } else {
        String::new()
    };
    let summary = format!(
        "{} games; eval: {} train / {} validation positions, log loss {eval_train:.4} / \
         {eval_val:.4} (constant: {base:.4}), validation against the results alone \
         {eval_val_outcome:.4} (constant: {base_outcome:.4}){ranking}; policy: {} / {} \
         positions, softmax loss {pol_train:.4} / {pol_val:.4}, validation top-1 {:.1}% \
         (hand-set ordering {:.1}%)",
        games.len(),
        et.result.len(),
        ev.result.len(),
        pt.chosen.len(),
        pv.chosen.len(),
        100.0 * pol_top,
        100.0 * old_top
    );
    println!("{summary}");
    if let Err(e) = write_weights(&o, &eval_w, eval_bias, &pol_w, &summary) {
        eprintln!("tune: {}: {e}", o.out);
        std::process::exit(1);
    }
}

fn write_weights(
    o: &Options,
    eval: &[f64],
    tempo: f64,
    policy: &[f64],
    summary: &str,
) -> std::io::Result<()> {
    let t = feature_tables();
    let q = |x: f64, scale: f64| (x * scale).round().clamp(-32000.0, 32000.0) as i16;
    let mut f = std::io::BufWriter::new(std::fs::File::create(&o.out)?);
    writeln!(f, "//! Learned weights, generated by `src/bin/tune.rs`: data only, do not edit.")?;
    writeln!(f, "//!")?;
    writeln!(f, "//! Regenerate with:")?;
    writeln!(f, "//!")?;
    writeln!(f, "//! ```text")?;
    for line in o.command.split(" && ") {
        writeln!(f, "//! {line}")?;
    }
    writeln!(f, "//! ```")?;
    writeln!(f, "//!")?;
    let mut text = String::new();
    for word in summary.split(' ') {
        if text.len() + word.len() > 90 {
            writeln!(f, "//! {}", text.trim_end())?;
            text.clear();
        }
        text.push_str(word);
        text.push(' ');
    }
    writeln!(f, "//! {}", text.trim_end())?;
    writeln!(f)?;
    writeln!(
        f,
        "/// Per feature (`features::FeatureTables::classes` order; its four line classes in the"
    )?;
    writeln!(
        f,
        "/// comment): evaluation value with its side to move, without; policy value as the"
    )?;
    writeln!(f, "/// mover's own feature, as the opponent's.")?;
    writeln!(f, "#[rustfmt::skip]")?;
    writeln!(f, "pub const FEATURE_WEIGHTS: [[i16; 4]; {NUM_FEATURES}] = [")?;
    for i in 0..NUM_FEATURES {
        let c = t.classes[i];
        writeln!(
            f,
            "    [{}, {}, {}, {}], // {} {} {} {}",
            q(eval[i], EVAL_SCALE),
            q(eval[NUM_FEATURES + i], EVAL_SCALE),
            q(policy[i], POLICY_SCALE),
            q(policy[NUM_FEATURES + i], POLICY_SCALE),
            c[0],
            c[1],
            c[2],
            c[3]
        )?;
    }
    writeln!(f, "];")?;
    writeln!(f)?;
    writeln!(f, "/// Evaluation bonus of the side to move.")?;
    writeln!(f, "pub const TEMPO: i32 = {};", (tempo * EVAL_SCALE).round() as i32)?;
    f.flush()
}
