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
//! `src/eval/weights.rs`, scaled by `params::EVAL_SCALE` and `params::POLICY_SCALE`.
//!
//! Usage: `tune --data FILE [--data FILE ...] [--epochs N] [--lr X] [--l2 X] [--l2-lines X]
//! [--lambda X] [--rank-weight X] [--rank-children N] [--games N] [--policy-epochs N]
//! [--policy-lr X] [--policy-l2 X] [--prior S] [--k K] [--out FILE] [--command TEXT]
//! [--handset] [--handset-eval] [--keep-eval] [--keep-policy] [--fine-tune]
//! [--fine-tune-policy]`
//! (`--handset`: write the former hand-set evaluation and ordering as weights, no training;
//! `--handset-eval`: train, but write the hand-set evaluation values with the learned policy;
//! `--keep-eval`: train the policy only, and write this build's evaluation values back
//! unchanged, with their losses on these games; `--keep-policy`, its mirror: train the
//! evaluation only, and write this build's policy values back unchanged)
//! (`--l2` is the evaluation's residual penalty, `--l2-lines` the line classes' for both;
//! `--prior S` starts the evaluation at S times the hand-set one and makes the residuals'
//! penalty pull towards it; `--fine-tune` starts the evaluation at this build's own values
//! and pulls the residuals towards them instead, so that new positions adjust the shipped
//! evaluation rather than replace it (`--fine-tune-policy`: the same for the policy); `--k K`
//! fixes the scale that turns the recorded search scores into targets instead of fitting it
//! to these games' results; `--command` is the text the weights file's header gives as the
//! way to regenerate it).

mod data;
mod model;

use std::io::Write;

use wuzi::core::params::{EVAL_SCALE, POLICY_SCALE};
use wuzi::eval::features::{feature_tables, NUM_CLASSES, NUM_FEATURES};

use data::{load, replay, EvalSet, PolicySet, RankSet};
use model::{
    eval_pass, fit_k, fit_k_of, handset, policy_pass, rank_pass, sigmoid, texel_loss, Adam, Model,
    NUM_WEIGHTS,
};

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
    prior: f64,
    k: Option<f64>,
    command: String,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        data: Vec::new(),
        out: "src/eval/weights.rs".into(),
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
        prior: 0.0,
        k: None,
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
            "--prior" => o.prior = val()?.parse().map_err(|_| "bad --prior")?,
            "--k" => o.k = Some(val()?.parse().map_err(|_| "bad --k")?),
            "--command" => o.command = val()?,
            "--handset" | "--handset-eval" | "--keep-eval" | "--keep-policy" | "--fine-tune"
            | "--fine-tune-policy" => {}
            _ => return Err(format!("unknown argument {a}")),
        }
    }
    if o.prior > 0.0 && std::env::args().any(|a| a == "--fine-tune") {
        return Err(
            "--prior and --fine-tune each choose where the evaluation starts: give one".into()
        );
    }
    if o.data.is_empty() && !std::env::args().any(|a| a == "--handset") {
        return Err("give --data FILE".into());
    }
    Ok(o)
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
    // A fixed K (`--k`) keeps the targets' scale where the shipped evaluation learned it: on
    // positions where the search's scores predict the results less well (the games against
    // Rapfi: K 230 where the shipped data gave 170), the fitted K grows and flattens the
    // targets towards one half.
    let k = o.k.unwrap_or_else(|| fit_k(&et));
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
    // `--keep-eval`: no evaluation training; the build's own values are measured instead.
    // `--prior S`: start from S times the hand-set evaluation and pull the residuals back
    // towards it rather than towards zero; `--fine-tune`: the same from the build's own.
    let keep_eval = std::env::args().any(|a| a == "--keep-eval");
    let fine_tune = std::env::args().any(|a| a == "--fine-tune");
    let epochs = if keep_eval { 0 } else { o.epochs };
    let mut model = if keep_eval || fine_tune {
        kept_model()
    } else if o.prior > 0.0 {
        Model::with_prior(handset().0.iter().map(|w| w * o.prior).collect())
    } else {
        Model::new()
    };
    let mut adam = Adam { m: Model::new(), v: Model::new(), t: 0, lr: o.lr };
    for epoch in 0..=epochs {
        let w = model.weights();
        let mut g = vec![0.0; NUM_WEIGHTS];
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
        if epoch == epochs && keep_eval {
            break;
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
    // `--keep-policy`: no policy training; the build's own values are measured instead.
    let keep_policy = std::env::args().any(|a| a == "--keep-policy");
    let policy_epochs = if keep_policy { 0 } else { o.policy_epochs };
    // `--fine-tune-policy`: start at the build's own policy and pull towards it (new kinds
    // of positions adjust the shipped ordering rather than replace it).
    let fine_tune_policy = std::env::args().any(|a| a == "--fine-tune-policy");
    let mut model = if keep_policy || fine_tune_policy { kept_policy() } else { Model::new() };
    let mut adam = Adam { m: Model::new(), v: Model::new(), t: 0, lr: o.policy_lr };
    for epoch in 0..=policy_epochs {
        let w = model.weights();
        let mut g = vec![0.0; NUM_WEIGHTS];
        let (train, _) = policy_pass(&pt, &w, Some(&mut g));
        if epoch % 50 == 0 || epoch == policy_epochs {
            let (val, top) = policy_pass(&pv, &w, None);
            println!(
                "policy epoch {epoch:4}: train {train:.4} validation {val:.4} top-1 {:.1}%",
                100.0 * top
            );
        }
        if epoch == policy_epochs && keep_policy {
            break;
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
    let summary = if fine_tune {
        summary
            + &format!(
                "; the evaluation fine-tuned from the build's own values (--fine-tune, K {k})"
            )
    } else {
        summary
    };
    println!("{summary}");
    // `--handset-eval`: the trained policy with the hand-set evaluation, which has played
    // better so far (see the README).
    let (eval_w, eval_bias, summary) = if std::env::args().any(|a| a == "--handset-eval") {
        let note = "; written with the hand-set evaluation values (--handset-eval)";
        (handset().0, 0.0, summary + note)
    } else if keep_eval {
        let note = "; the evaluation values (and their losses above) are the build's own, kept \
                    (--keep-eval)";
        (eval_w, eval_bias, summary + note)
    } else if keep_policy {
        let note = "; the policy values (and their losses above) are the build's own, kept \
                    (--keep-policy)";
        (eval_w, eval_bias, summary + note)
    } else {
        (eval_w, eval_bias, summary)
    };
    if let Err(e) = write_weights(&o, &eval_w, eval_bias, &pol_w, &summary) {
        eprintln!("tune: {}: {e}", o.out);
        std::process::exit(1);
    }
}

/// The evaluation of the build's own weights file as a model, in the trainer's units (the
/// cross terms, which only the policy has, zero): what `--keep-eval` writes back, and where
/// `--fine-tune` starts and is pulled back to.
fn kept_model() -> Model {
    let mut w = vec![0.0; NUM_WEIGHTS];
    for (f, row) in wuzi::eval::weights::FEATURE_WEIGHTS.iter().enumerate() {
        w[f] = f64::from(row[0]) / EVAL_SCALE;
        w[NUM_FEATURES + f] = f64::from(row[1]) / EVAL_SCALE;
    }
    let mut model = Model::with_prior(w);
    model.bias = f64::from(wuzi::eval::weights::TEMPO) / EVAL_SCALE;
    model
}

/// The policy of the build's own weights file as a model, in the trainer's units (the
/// mover's own values, the opponent's, then the cross terms): what `--keep-policy` writes back.
fn kept_policy() -> Model {
    let mut w = vec![0.0; NUM_WEIGHTS];
    for (f, row) in wuzi::eval::weights::FEATURE_WEIGHTS.iter().enumerate() {
        w[f] = f64::from(row[2]) / POLICY_SCALE;
        w[NUM_FEATURES + f] = f64::from(row[3]) / POLICY_SCALE;
    }
    for (i, &x) in wuzi::eval::weights::POLICY_CROSS.iter().flatten().enumerate() {
        w[2 * NUM_FEATURES + i] = f64::from(x) / POLICY_SCALE;
    }
    Model::with_prior(w)
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
    writeln!(f, "//! Learned weights, generated by `src/bin/tune/`: data only, do not edit.")?;
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
        "/// Per feature, in `features::FeatureTables::classes` order (sorted multisets of"
    )?;
    writeln!(f, "/// four line classes, lexicographic): evaluation value with its side to move,")?;
    writeln!(f, "/// without; policy value as the mover's own feature, as the opponent's.")?;
    writeln!(f, "#[rustfmt::skip]")?;
    writeln!(f, "pub const FEATURE_WEIGHTS: [[i16; 4]; {NUM_FEATURES}] = [")?;
    // Four features a line, to keep the file short; a comment names the first one's classes
    // every 16 lines.
    for i in (0..NUM_FEATURES).step_by(4) {
        if i % 64 == 0 {
            let c = t.classes[i];
            writeln!(f, "    // feature {i}: classes {} {} {} {}", c[0], c[1], c[2], c[3])?;
        }
        let row: Vec<String> = (i..(i + 4).min(NUM_FEATURES))
            .map(|j| {
                format!(
                    "[{}, {}, {}, {}]",
                    q(eval[j], EVAL_SCALE),
                    q(eval[NUM_FEATURES + j], EVAL_SCALE),
                    q(policy[j], POLICY_SCALE),
                    q(policy[NUM_FEATURES + j], POLICY_SCALE)
                )
            })
            .collect();
        writeln!(f, "    {},", row.join(", "))?;
    }
    writeln!(f, "];")?;
    writeln!(f)?;
    writeln!(
        f,
        "/// Policy value of a point by the mover's top class there (row) and the opponent's"
    )?;
    writeln!(f, "/// (column): `features::FeatureTables::policy_cross`.")?;
    writeln!(f, "#[rustfmt::skip]")?;
    writeln!(f, "pub const POLICY_CROSS: [[i16; {NUM_CLASSES}]; {NUM_CLASSES}] = [")?;
    for row in policy[2 * NUM_FEATURES..].chunks(NUM_CLASSES) {
        let row: Vec<String> = row.iter().map(|&x| q(x, POLICY_SCALE).to_string()).collect();
        writeln!(f, "    [{}],", row.join(", "))?;
    }
    writeln!(f, "];")?;
    writeln!(f)?;
    writeln!(f, "/// Evaluation bonus of the side to move.")?;
    writeln!(f, "pub const TEMPO: i32 = {};", (tempo * EVAL_SCALE).round() as i32)?;
    f.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_evaluation_is_written_back_unchanged() {
        // `--keep-eval` starts the model at the build's values and writes them with the same
        // rounding as trained ones: every value must come back exactly.
        let model = kept_model();
        let w = model.weights();
        for (f, row) in wuzi::eval::weights::FEATURE_WEIGHTS.iter().enumerate() {
            assert_eq!((w[f] * EVAL_SCALE).round() as i16, row[0], "feature {f}, to move");
            let not_to_move = (w[NUM_FEATURES + f] * EVAL_SCALE).round() as i16;
            assert_eq!(not_to_move, row[1], "feature {f}, not to move");
        }
        assert_eq!((model.bias * EVAL_SCALE).round() as i32, wuzi::eval::weights::TEMPO);
        assert!(
            w[2 * NUM_FEATURES..].iter().all(|&x| x == 0.0),
            "no cross terms in the evaluation"
        );
    }

    #[test]
    fn fine_tuning_starts_at_the_build_and_is_pulled_back_to_it() {
        // `--fine-tune` trains from `kept_model()`: its penalty's prior is the build's own
        // evaluation, so without data nothing moves, and a residual moved away feels a pull
        // back towards the build's value, not towards zero.
        let mut model = kept_model();
        assert_eq!(model.prior, model.weights());
        let no_data = vec![0.0; NUM_WEIGHTS];
        let g = model.backprop(&no_data, 0.0, 1e-3, 1e-5);
        assert!(g.resid.iter().chain(&g.lines).all(|&x| x == 0.0));
        let f = (0..NUM_FEATURES).find(|&f| model.prior[f] > 0.0).expect("a positive value");
        model.resid[f] += 1.0;
        let g = model.backprop(&no_data, 0.0, 1e-3, 1e-5);
        assert!(g.resid[f] > 0.0 && (g.resid[f] - 1e-3).abs() < 1e-12, "pulled back by l2 x 1");
    }

    #[test]
    fn kept_policy_is_written_back_unchanged() {
        // `--keep-policy` starts the policy at the build's values and writes them with the
        // same rounding as trained ones: every value, cross terms too, must come back exactly.
        let w = kept_policy().weights();
        for (f, row) in wuzi::eval::weights::FEATURE_WEIGHTS.iter().enumerate() {
            assert_eq!((w[f] * POLICY_SCALE).round() as i16, row[2], "feature {f}, own");
            let opp = (w[NUM_FEATURES + f] * POLICY_SCALE).round() as i16;
            assert_eq!(opp, row[3], "feature {f}, opponent's");
        }
        let cross: Vec<i16> = wuzi::eval::weights::POLICY_CROSS.iter().flatten().copied().collect();
        assert_eq!(cross.len(), w.len() - 2 * NUM_FEATURES);
        for (i, &x) in cross.iter().enumerate() {
            assert_eq!((w[2 * NUM_FEATURES + i] * POLICY_SCALE).round() as i16, x, "cross {i}");
        }
    }
}
