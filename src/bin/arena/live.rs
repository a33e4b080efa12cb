//! `arena --live-openings SHARE RUN...`: the openings of past matches that still decide
//! something, written as an openings file.
//!
//! Between engines of about the same strength many openings are settled by the colours alone:
//! black (or white) wins every game of them, whichever engine has it. Such an opening's pair
//! scores 1 for any pair of engines that are close, so it adds games to a match and nothing
//! to its verdict; a match on the openings where either colour scores is as fair (each is
//! still played both ways) and resolves the same difference in fewer games. The choice reads
//! only the colours' results, never which engine won, so it favours neither engine.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::report::Run;

/// An opening's results over every game of the runs read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games played from it.
    pub games: u32,
    /// Black's points in them.
    pub black_points: f64,
}

/// Every opening of `runs` with its tally, in the order first played.
pub fn tallies(runs: &[Run]) -> Vec<(String, Tally)> {
    let mut order = Vec::new();
    let mut by_opening: BTreeMap<&str, Tally> = BTreeMap::new();
    for g in runs.iter().flat_map(|r| &r.games).filter(|g| !g.opening.trim().is_empty()) {
        let t = by_opening.entry(g.opening.as_str()).or_insert_with(|| {
            order.push(g.opening.as_str());
            Tally::default()
        });
        t.games += 1;
        t.black_points += if g.a_black { g.a_score } else { 1.0 - g.a_score };
    }
    order.into_iter().map(|o| (o.to_string(), by_opening[o].clone())).collect()
}

/// An opening in the openings file's form: the record's `B 7,5  W 7,8` as `7,5 7,8`.
pub fn moves_of(opening: &str) -> String {
    opening.split_whitespace().filter(|w| w.contains(',')).collect::<Vec<_>>().join(" ")
}

/// The openings file: a header saying how it was chosen, then each opening where both colours
/// took more than `share` of the points (black's share strictly between `share` and
/// `1 - share`), in the order first played.
pub fn live_openings(runs: &[Run], share: f64) -> String {
    let all = tallies(runs);
    let live: Vec<&(String, Tally)> = all
        .iter()
        .filter(|(_, t)| {
            let black = t.black_points / f64::from(t.games);
            black > share && black < 1.0 - share
        })
        .collect();
    let mut s = String::new();
    let names: Vec<&str> = runs.iter().map(|r| r.name.as_str()).collect();
    let _ = writeln!(
        s,
        "# Openings where each colour took more than {share} of the points: {} of the {} \
         openings\n# played in {} games of {} run{}. Made by\n#   arena --live-openings {share} {}",
        live.len(),
        all.len(),
        all.iter().map(|(_, t)| t.games).sum::<u32>(),
        runs.len(),
        if runs.len() == 1 { "" } else { "s" },
        names.join(" ")
    );
    for (opening, _) in live {
        let _ = writeln!(s, "{}", moves_of(opening));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::game;

    /// Two runs: `B 7,5  W 7,8` won by black in all four games, `B 8,7` by black in three of
    /// four (whichever engine had it), `B 6,4  W 7,6` drawn and lost by black.
    fn runs() -> Vec<Run> {
        let a = "B 7,5  W 7,8";
        let b = "B 8,7";
        let c = "B 6,4  W 7,6";
        let one = vec![
            game(1, true, a, "1-0 A wins by five"),
            game(2, false, a, "1-0 B wins by five"),
            game(3, true, b, "1-0 A wins by five"),
            game(4, false, b, "0-1 A wins by five"),
            game(5, true, c, "1/2 draw by full-board"),
            game(6, false, c, "0-1 A wins by five"),
        ];
        let two = vec![
            game(1, true, b, "1-0 A wins by five"),
            game(2, false, b, "1-0 B wins by five"),
            game(3, true, a, "1-0 A wins by five"),
            game(4, false, a, "1-0 B wins by five"),
        ];
        vec![Run::from_dirs("r1", vec![one]), Run::from_dirs("r2", vec![two])]
    }

    #[test]
    fn the_tally_counts_black_points_whichever_engine_had_black() {
        let t = tallies(&runs());
        let got: Vec<(&str, u32, f64)> =
            t.iter().map(|(o, t)| (o.as_str(), t.games, t.black_points)).collect();
        assert_eq!(
            got,
            [("B 7,5  W 7,8", 4, 4.0), ("B 8,7", 4, 3.0), ("B 6,4  W 7,6", 2, 0.5)],
            "in the order first played"
        );
    }

    #[test]
    fn only_openings_both_colours_score_in_are_kept() {
        let text = live_openings(&runs(), 0.1);
        let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(lines, ["8,7", "6,4 7,6"], "{text}");
        assert!(text.contains("2 of the 3 openings\n# played in 10 games of 2 runs"), "{text}");
        assert!(text.contains("arena --live-openings 0.1 r1 r2"), "{text}");
        // Black's 0.75 in `8,7` is a quarter from the edge: a stricter share drops it, and
        // `6,4 7,6` (black 0.25) with it.
        let strict = live_openings(&runs(), 0.25);
        assert_eq!(strict.lines().filter(|l| !l.starts_with('#')).count(), 0, "{strict}");
    }

    #[test]
    fn an_opening_is_written_as_the_file_reads_it() {
        assert_eq!(moves_of("B 7,5  W 7,8  B 6,7"), "7,5 7,8 6,7");
        assert_eq!(moves_of(""), "");
    }
}
