//! Match statistics: the score with its 95% interval, the logistic Elo difference, and the
//! generalized SPRT (GSPRT), on games (wins/draws/losses) and on game pairs (the two games of
//! one opening, one with each colour: 0, ½, 1, 1½ or 2 points, as fishtest counts them).

/// 1.96: the two-sided 95% quantile of the normal distribution.
const Z95: f64 = 1.959_964;

/// Elo difference for an expected score `s` (logistic model); infinite at 0 and 1.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// Expected score for an Elo difference (logistic model).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Wins, draws and losses of engine A.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// A won.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// A lost.
    pub losses: u32,
}

impl Wdl {
    /// Counts one game with A's score (1, 0.5 or 0).
    pub fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score > 0.25 {
            self.draws += 1;
        } else {
            self.losses += 1;
        }
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// A's points (a draw is half a point).
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Sum of two tallies.
    pub fn plus(&self, other: &Wdl) -> Wdl {
        Wdl {
            wins: self.wins + other.wins,
            draws: self.draws + other.draws,
            losses: self.losses + other.losses,
        }
    }
}

/// A's points in the two games of each opening, one played with each colour: how many pairs
/// scored 0, ½, 1, 1½ and 2. The colour and the opening weigh on both games of a pair alike,
/// so pairs vary less than single games and an SPRT on them decides sooner.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pairs(pub [u32; 5]);

/// A pair's possible scores per game: 0, ¼, ½, ¾, 1.
const PAIR_VALUES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];
/// A game's possible scores, in the order (loss, draw, win).
const GAME_VALUES: [f64; 3] = [0.0, 0.5, 1.0];

impl Pairs {
    /// Counts one pair in which A scored `points` (0 to 2, in halves).
    pub fn add(&mut self, points: f64) {
        let k = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[k] += 1;
    }
    /// Pairs counted.
    pub fn count(&self) -> u32 {
        self.0.iter().sum()
    }
    fn counts(&self) -> Vec<f64> {
        self.0.iter().map(|&c| c as f64).collect()
    }
}

/// A's score with a 95% interval, and the matching Elo difference.
#[derive(Clone, Copy, Debug)]
pub struct Estimate {
    /// Mean score per game.
    pub score: f64,
    /// Lower end of the 95% interval of the score.
    pub low: f64,
    /// Upper end of the 95% interval of the score.
    pub high: f64,
    /// Elo difference A minus B.
    pub elo: f64,
    /// Half-width of the 95% Elo interval (infinite when an end is at 0 or 1).
    pub elo_error: f64,
}

/// The normal-approximation estimate; `None` before any game.
pub fn estimate(t: &Wdl) -> Option<Estimate> {
    estimate_of(&wdl_counts(t), &GAME_VALUES)
}

/// The same from game pairs (score per game, the interval from the pairs' spread).
pub fn estimate_pairs(p: &Pairs) -> Option<Estimate> {
    estimate_of(&p.counts(), &PAIR_VALUES)
}

fn wdl_counts(t: &Wdl) -> Vec<f64> {
    vec![t.losses as f64, t.draws as f64, t.wins as f64]
}

/// Mean and 95% interval of outcomes that took `values[i]` `counts[i]` times.
fn estimate_of(counts: &[f64], values: &[f64]) -> Option<Estimate> {
    let n: f64 = counts.iter().sum();
    if n == 0.0 {
        return None;
    }
    let score = counts.iter().zip(values).map(|(c, v)| c * v).sum::<f64>() / n;
    let var = counts.iter().zip(values).map(|(c, v)| c * (v - score).powi(2)).sum::<f64>() / n;
    let half = Z95 * (var / n).sqrt();
    let (low, high) = ((score - half).max(0.0), (score + half).min(1.0));
    Some(Estimate {
        score,
        low,
        high,
        elo: elo_from_score(score),
        elo_error: (elo_from_score(high) - elo_from_score(low)) / 2.0,
    })
}

/// An SPRT: H0 "A is `elo0` stronger" against H1 "A is `elo1` stronger".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo of H0.
    pub elo0: f64,
    /// Elo of H1.
    pub elo1: f64,
    /// False-positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// False-negative rate (accepting H0 when H1 holds).
    pub beta: f64,
}

/// What an SPRT concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// H0 accepted: A is not `elo1` stronger.
    H0,
    /// H1 accepted: A is stronger.
    H1,
}

impl Sprt {
    /// Parses `elo0,elo1,alpha,beta`.
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let bad =
            || format!("--sprt wants elo0,elo1,alpha,beta (e.g. 0,10,0.05,0.05), got {text:?}");
        let v: Vec<f64> = text
            .split(',')
            .map(|p| p.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| bad())?;
        let [elo0, elo1, alpha, beta] = v[..] else { return Err(bad()) };
        let prob = |p: f64| p > 0.0 && p < 0.5;
        if elo0 >= elo1 || !prob(alpha) || !prob(beta) || !elo0.is_finite() || !elo1.is_finite() {
            return Err(format!("{}: need elo0 < elo1 and 0 < alpha, beta < 0.5", bad()));
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }

    /// Lower (accept H0) and upper (accept H1) bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The GSPRT log-likelihood ratio: the trinomial (loss, draw, win) distribution with the
    /// highest likelihood among those whose mean score is that of `elo1`, against the same
    /// for `elo0`. Zero counts are replaced by 1e-3 when fitting, as fishtest does, so that
    /// a one-sided record still gives a finite, sensible ratio.
    pub fn llr(&self, t: &Wdl) -> f64 {
        self.llr_of(&wdl_counts(t), &GAME_VALUES)
    }

    /// The same GSPRT on game pairs (the pentanomial distribution of a pair's points), the
    /// match's decision: it does not count the colour's and the opening's weight as noise.
    pub fn llr_pairs(&self, p: &Pairs) -> f64 {
        self.llr_of(&p.counts(), &PAIR_VALUES)
    }

    fn llr_of(&self, counts: &[f64], values: &[f64]) -> f64 {
        if counts.iter().sum::<f64>() == 0.0 {
            return 0.0;
        }
        let reg: Vec<f64> = counts.iter().map(|&c| c.max(1e-3)).collect();
        let total: f64 = reg.iter().sum();
        let freq: Vec<f64> = reg.iter().map(|c| c / total).collect();
        let p0 = fit(&freq, values, score_from_elo(self.elo0));
        let p1 = fit(&freq, values, score_from_elo(self.elo1));
        (0..counts.len())
            .filter(|&i| counts[i] > 0.0)
            .map(|i| counts[i] * (p1[i] / p0[i]).ln())
            .sum()
    }

    /// The decision for a log-likelihood ratio, if a bound is crossed.
    pub fn decide(&self, llr: f64) -> Option<Decision> {
        let (low, high) = self.bounds();
        if llr >= high {
            Some(Decision::H1)
        } else if llr <= low {
            Some(Decision::H0)
        } else {
            None
        }
    }
}

/// Maximum-likelihood probabilities of the outcomes worth `a` (from 0 to 1) for observed
/// frequencies `freq` under the constraint that the mean score is `s`. The Lagrange condition
/// gives `p_i = freq_i / (1 + x (a_i - s))`; `x` solves `sum p_i (a_i - s) = 0`, a decreasing
/// function of `x` on the interval where every denominator is positive, so bisection finds it.
fn fit(freq: &[f64], a: &[f64], s: f64) -> Vec<f64> {
    let d: Vec<f64> = a.iter().map(|v| v - s).collect();
    let g = |x: f64| (0..d.len()).map(|i| freq[i] * d[i] / (1.0 + x * d[i])).sum::<f64>();
    let (mut lo, mut hi) = (-1.0 / (1.0 - s), 1.0 / s);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if g(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = 0.5 * (lo + hi);
    let p: Vec<f64> = (0..d.len()).map(|i| freq[i] / (1.0 + x * d[i])).collect();
    let sum: f64 = p.iter().sum();
    p.iter().map(|v| v / sum).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wdl(wins: u32, draws: u32, losses: u32) -> Wdl {
        Wdl { wins, draws, losses }
    }

    #[test]
    fn elo_round_trip() {
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!((elo_from_score(0.75) - 190.848).abs() < 0.01);
        assert!((score_from_elo(elo_from_score(0.3)) - 0.3).abs() < 1e-12);
        assert!(elo_from_score(1.0).is_infinite());
    }

    #[test]
    fn estimate_interval_contains_score() {
        let e = estimate(&wdl(60, 20, 20)).unwrap();
        assert!((e.score - 0.7).abs() < 1e-12);
        assert!(e.low < 0.7 && e.high > 0.7 && e.high - e.low < 0.2);
        assert!(e.elo > 100.0 && e.elo_error > 20.0 && e.elo_error < 100.0);
        assert!(estimate(&Wdl::default()).is_none());
    }

    #[test]
    fn sprt_parse_and_bounds() {
        let s = Sprt::parse("0,10,0.05,0.05").unwrap();
        let (lo, hi) = s.bounds();
        assert!((hi - 19f64.ln()).abs() < 1e-12 && (lo + 19f64.ln()).abs() < 1e-12);
        assert!(Sprt::parse("10,0,0.05,0.05").is_err());
        assert!(Sprt::parse("0,10,0.05").is_err());
        assert!(Sprt::parse("0,x,0.05,0.05").is_err());
    }

    #[test]
    fn sprt_llr_directions() {
        let s = Sprt::parse("0,10,0.05,0.05").unwrap();
        // Only wins: each is worth about ln(s1/s0), so ~104 wins accept H1.
        let per_win = (score_from_elo(10.0) / 0.5).ln();
        let l = s.llr(&wdl(50, 0, 0));
        assert!((l - 50.0 * per_win).abs() < 0.05, "{l}");
        assert_eq!(s.decide(s.llr(&wdl(110, 0, 0))), Some(Decision::H1));
        assert_eq!(s.decide(s.llr(&wdl(90, 0, 0))), None);
        // An even record leans to H0 and eventually accepts it.
        assert!(s.llr(&wdl(50, 10, 50)) < 0.0);
        assert_eq!(s.decide(s.llr(&wdl(5000, 200, 5000))), Some(Decision::H0));
        assert_eq!(s.decide(s.llr(&wdl(0, 0, 110))), Some(Decision::H0));
        assert_eq!(s.llr(&Wdl::default()), 0.0);
    }

    #[test]
    fn pairs_count_points_and_estimate_per_game() {
        let mut p = Pairs::default();
        for points in [0.0, 0.5, 1.0, 1.0, 1.5, 2.0, 2.0] {
            p.add(points);
        }
        assert_eq!(p, Pairs([1, 1, 2, 1, 2]));
        assert_eq!(p.count(), 7);
        let e = estimate_pairs(&p).unwrap();
        assert!((e.score - 8.0 / 14.0).abs() < 1e-12, "the score is per game: 8 of 14 points");
        assert!(e.low < e.score && e.high > e.score);
        assert!(estimate_pairs(&Pairs::default()).is_none());
    }

    #[test]
    fn pairs_see_through_the_colour() {
        // 100 pairs, each engine winning as black in most: as single games 110 wins and 90
        // losses, a noisy +35 Elo; as pairs the same games are 70 splits and 20 pairs that
        // A won twice against 10 it lost twice, far less noise around the same mean.
        let s = Sprt::parse("0,20,0.05,0.05").unwrap();
        let games = wdl(110, 0, 90);
        let pairs = Pairs([10, 0, 70, 0, 20]);
        assert_eq!(games.points() / 200.0, estimate_pairs(&pairs).unwrap().score);
        let (by_games, by_pairs) = (s.llr(&games), s.llr_pairs(&pairs));
        assert!(by_pairs > by_games && by_games > 0.0, "{by_pairs} {by_games}");
        let (g, p) = (estimate(&games).unwrap(), estimate_pairs(&pairs).unwrap());
        assert!(p.high - p.low < g.high - g.low);
        // The directions are those of the games' test.
        assert_eq!(s.decide(s.llr_pairs(&Pairs([0, 0, 0, 0, 60]))), Some(Decision::H1));
        assert_eq!(s.decide(s.llr_pairs(&Pairs([0, 0, 5000, 0, 0]))), Some(Decision::H0));
        assert!(s.llr_pairs(&Pairs([3, 5, 25, 13, 3])) > 0.0);
        assert_eq!(s.llr_pairs(&Pairs::default()), 0.0);
    }
}
