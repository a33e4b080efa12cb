//! The trainer's models and losses: feature weights as line-class weights plus residuals,
//! Adam, the Texel, ranking and policy losses with their gradients.

use wuzi::core::params::{EVAL_SCALE, POLICY_SCALE};
use wuzi::eval::features::{feature_tables, NUM_CLASSES, NUM_CROSS, NUM_FEATURES};

use crate::data::{top_share, EvalSet, PolicySet, RankSet};

/// Number of a model's effective weights: one per (role, feature), then the policy's cross
/// terms (`features::NUM_CROSS`; the evaluation has none: they stay zero there).
pub const NUM_WEIGHTS: usize = 2 * NUM_FEATURES + NUM_CROSS;

/// Parameters of one model: a residual per (role, feature), a weight per (role, class), a
/// weight per cross term, and a bias (the tempo of the evaluation; unused by the policy,
/// where it cancels).
#[derive(Clone)]
pub struct Model {
    pub resid: Vec<f64>,
    pub lines: Vec<f64>,
    pub bias: f64,
    /// What the residuals' L2 penalty pulls them towards: zero, or a prior (the hand-set
    /// evaluation, `--prior`), so that the data must earn every departure from it.
    pub prior: Vec<f64>,
}

impl Model {
    pub fn new() -> Model {
        Model {
            resid: vec![0.0; NUM_WEIGHTS],
            lines: vec![0.0; 2 * NUM_CLASSES],
            bias: 0.0,
            prior: vec![0.0; NUM_WEIGHTS],
        }
    }
    /// A model that starts at `prior` (effective weights) and is pulled back towards it.
    pub fn with_prior(mut prior: Vec<f64>) -> Model {
        prior.resize(NUM_WEIGHTS, 0.0);
        Model { resid: prior.clone(), prior, ..Model::new() }
    }
    /// The effective weight of every (role, feature), then the cross terms.
    pub fn weights(&self) -> Vec<f64> {
        let classes = &feature_tables().classes;
        (0..NUM_WEIGHTS)
            .map(|i| {
                if i >= 2 * NUM_FEATURES {
                    return self.resid[i];
                }
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
    pub fn backprop(&self, g_w: &[f64], g_bias: f64, l2: f64, l2_lines: f64) -> Model {
        let classes = &feature_tables().classes;
        let mut g = Model::new();
        for (i, &gw) in g_w.iter().enumerate() {
            let (role, f) = (i / NUM_FEATURES, i % NUM_FEATURES);
            g.resid[i] = gw + l2 * (self.resid[i] - self.prior[i]);
            if i >= 2 * NUM_FEATURES {
                continue;
            }
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
pub struct Adam {
    pub m: Model,
    pub v: Model,
    pub t: i32,
    pub lr: f64,
}

impl Adam {
    pub fn step(&mut self, model: &mut Model, g: &Model) {
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

/// The K of `sigmoid(score / K)` (a multiple of 10) that best predicts the outcomes of the
/// positions with a recorded search score.
pub fn texel_loss(scores: &[f64], outcomes: &[f64], k: f64) -> f64 {
    let mut sum = 0.0;
    for (s, y) in scores.iter().zip(outcomes) {
        let p = sigmoid(s / k).clamp(1e-12, 1.0 - 1e-12);
        sum -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
    }
    sum / scores.len().max(1) as f64
}

pub fn fit_k_of(scores: &[f64], outcomes: &[f64]) -> f64 {
    (1..=400)
        .map(|i| 10.0 * i as f64)
        .min_by(|&a, &b| {
            texel_loss(scores, outcomes, a).total_cmp(&texel_loss(scores, outcomes, b))
        })
        .unwrap_or(EVAL_SCALE)
}

pub fn fit_k(set: &EvalSet) -> f64 {
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

pub fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Mean log loss of the evaluation on `set`; with `grad`, adds the gradient over the
/// effective weights and returns the bias gradient too.
pub fn eval_pass(
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
pub fn rank_pass(set: &RankSet, w: &[f64], weight: f64, grad: Option<&mut Vec<f64>>) -> (f64, f64) {
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

/// Where a candidate's cross term (its own and the opponent's top classes) stands among the
/// weights.
fn cross_index(c: &[u16; 2]) -> usize {
    2 * NUM_FEATURES + feature_tables().cross_index(c[0] as usize, c[1] as usize)
}

/// Mean softmax loss and top-1 accuracy of the policy on `set`, with the gradient if asked.
pub fn policy_pass(set: &PolicySet, w: &[f64], grad: Option<&mut Vec<f64>>) -> (f64, f64) {
    let n = set.chosen.len();
    let (mut loss, mut top) = (0.0, 0.0);
    let mut grad = grad;
    let mut logits = Vec::new();
    for s in 0..n {
        let (a, b) = (set.start[s], set.start.get(s + 1).copied().unwrap_or(set.cands.len()));
        logits.clear();
        logits.extend(
            set.cands[a..b]
                .iter()
                .map(|c| w[c[0] as usize] + w[NUM_FEATURES + c[1] as usize] + w[cross_index(c)]),
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
                g[cross_index(c)] += d;
            }
        }
    }
    (loss / n.max(1) as f64, top / n.max(1) as f64)
}

/// The hand-set evaluation and ordering this crate had before, as feature weights (in logits
/// of `EVAL_SCALE` and `POLICY_SCALE`): a control for experiments, `--handset`.
pub fn handset() -> (Vec<f64>, Vec<f64>) {
    use wuzi::core::pattern::{combo_of, point_value};
    use wuzi::eval::features::CLASS_NAMES;
    let t = feature_tables();
    let pv = |f: usize| {
        let pats = t.classes[f].map(|c| CLASS_NAMES[c as usize].1);
        f64::from(point_value(pats, combo_of(pats)))
    };
    let mut eval = vec![0.0; NUM_WEIGHTS];
    let mut policy = vec![0.0; NUM_WEIGHTS];
    for f in 0..NUM_FEATURES {
        eval[f] = pv(f) * 10.0 / 8.0 / EVAL_SCALE;
        eval[NUM_FEATURES + f] = -pv(f) / EVAL_SCALE;
        policy[f] = 2.0 * pv(f) / POLICY_SCALE;
        policy[NUM_FEATURES + f] = pv(f) / POLICY_SCALE;
    }
    (eval, policy)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A model with a prior starts at it, and without data its penalty holds it there; away
    /// from it, the penalty's gradient points back.
    #[test]
    fn a_prior_is_where_the_penalty_pulls() {
        let prior: Vec<f64> = (0..NUM_WEIGHTS).map(|i| (i % 7) as f64 - 3.0).collect();
        let mut model = Model::with_prior(prior.clone());
        assert_eq!(model.weights(), prior);
        let none = vec![0.0; NUM_WEIGHTS];
        let g = model.backprop(&none, 0.0, 0.1, 0.1);
        assert!(g.resid.iter().chain(&g.lines).all(|&x| x == 0.0));
        model.resid[5] += 1.0;
        let g = model.backprop(&none, 0.0, 0.1, 0.1);
        assert!((g.resid[5] - 0.1).abs() < 1e-12, "{}", g.resid[5]);
        // Without a prior the same penalty pulls towards zero.
        let mut plain = Model::new();
        plain.resid[5] = 1.0;
        assert!((plain.backprop(&none, 0.0, 0.1, 0.1).resid[5] - 0.1).abs() < 1e-12);
        plain.resid[5] = 0.0;
        assert_eq!(plain.backprop(&none, 0.0, 0.1, 0.1).resid[5], 0.0);
    }
}
