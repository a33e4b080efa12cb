//! The search's instruments: where a tree's nodes go, counted as the search runs, so that a
//! change to how the search scales can be judged by more than its depth or its speed.
//!
//! Counted always (a few array increments a node, no branch): the nodes entered by each kind
//! of move, the rank of the move that cuts off by the depth left, and at the root each
//! iteration's nodes by the root move's rank and the rank a new best move came from, and the
//! late-move reductions by depth: how many reduced moves failed high and were searched again at
//! the full depth, how many of those held, and the nodes the re-searches cost.
//! `wuzi bench --stats [DEPTH]` prints them for the bench positions (`report`). Counting
//! changes nothing the search decides: the bench's node count stays the same.

use std::fmt::Write as _;

/// The kind of move that entered a node of the alpha-beta search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A root move (the node is a child of the root).
    Root = 0,
    /// A quiet move searched first with a late-move reduction.
    ReducedQuiet = 1,
    /// A quiet move searched at the full depth (early in the order, or not reducible).
    Quiet = 2,
    /// A move that makes a four (or a five).
    Four = 3,
    /// A double threat that is not a four (two open threes and the like).
    DoubleThreat = 4,
    /// An answer to the opponent's open three (or a four of ours made against it).
    AnswerToThree = 5,
    /// An answer to the opponent's four.
    AnswerToFour = 6,
}

/// How many kinds of [`Entry`].
pub const ENTRIES: usize = 7;
/// The kinds' names, in [`Entry`]'s order.
pub const ENTRY_NAMES: [&str; ENTRIES] = [
    "root move",
    "reduced quiet",
    "unreduced quiet",
    "four",
    "double threat",
    "answer to a three",
    "answer to a four",
];
/// Rank buckets: 1, 2, 3, 4, 5-8, 9-16, 17-32, 33 and later (ranks from 1).
pub const RANKS: usize = 8;
/// The buckets' names.
pub const RANK_NAMES: [&str; RANKS] = ["1", "2", "3", "4", "5-8", "9-16", "17-32", "33+"];
/// Depths counted one by one; deeper ones share the last row.
pub const DEPTHS: usize = 32;

/// The bucket of the move at `i` in its node's order (from 0).
pub fn rank_bucket(i: usize) -> usize {
    match i {
        0..=3 => i,
        4..=7 => 4,
        8..=15 => 5,
        16..=31 => 6,
        _ => 7,
    }
}

/// The counts, summed over every search of one searcher (or added up with [`Stats::add`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stats {
    /// Alpha-beta nodes by the kind of move that entered them.
    pub entered: [u64; ENTRIES],
    /// Beta cut-offs below the root by the depth left and the cutting move's rank.
    pub cut_rank: [[u64; RANKS]; DEPTHS],
    /// Root searches' nodes by depth and the root move's rank in that iteration's order.
    pub root_nodes: [[u64; RANKS]; DEPTHS],
    /// Root searches (an iteration and its re-searches) by depth, and by the rank the final
    /// best move came from (rank 1: the previous best held).
    pub root_best: [[u64; RANKS]; DEPTHS],
    /// Late-move reductions by the depth left at the node: `[reduced, re-searched, held]`, a
    /// reduced null-window search, those of them that beat alpha and were searched again at
    /// the full depth, and those whose re-search beat alpha too (the reduction was wrong).
    pub reductions: [[u64; 3]; DEPTHS],
    /// Nodes of those full-depth re-searches, by the same depth (a re-search's subtree holds
    /// deeper ones: the rows overlap).
    pub research_nodes: [u64; DEPTHS],
}

impl Default for Stats {
    fn default() -> Stats {
        Stats {
            entered: [0; ENTRIES],
            cut_rank: [[0; RANKS]; DEPTHS],
            root_nodes: [[0; RANKS]; DEPTHS],
            root_best: [[0; RANKS]; DEPTHS],
            reductions: [[0; 3]; DEPTHS],
            research_nodes: [0; DEPTHS],
        }
    }
}

/// The row of a depth.
pub fn depth_row(depth: i32) -> usize {
    (depth.max(0) as usize).min(DEPTHS - 1)
}

/// Adds each count of `theirs` to the matching one of `mine`.
fn add_counts<'a>(mine: impl Iterator<Item = &'a mut u64>, theirs: impl Iterator<Item = &'a u64>) {
    for (a, b) in mine.zip(theirs) {
        *a += b;
    }
}

impl Stats {
    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &Stats) {
        add_counts(self.entered.iter_mut(), other.entered.iter());
        for (mine, theirs) in [
            (&mut self.cut_rank, &other.cut_rank),
            (&mut self.root_nodes, &other.root_nodes),
            (&mut self.root_best, &other.root_best),
        ] {
            add_counts(mine.iter_mut().flatten(), theirs.iter().flatten());
        }
        add_counts(self.reductions.iter_mut().flatten(), other.reductions.iter().flatten());
        add_counts(self.research_nodes.iter_mut(), other.research_nodes.iter());
    }

    /// The tables as text: nodes by kind; per depth the root's nodes, the growth over the
    /// depth before, their share by root rank and how often the best came from each rank;
    /// the cut-offs' ranks by depth; the reductions' re-searches by depth.
    pub fn report(&self) -> String {
        let mut out = String::new();
        let all: u64 = self.entered.iter().sum();
        let _ = writeln!(
            out,
            "alpha-beta nodes by the move that entered them ({all}; quiescence not counted):"
        );
        for (name, n) in ENTRY_NAMES.iter().zip(self.entered.iter()) {
            let _ = writeln!(out, "  {name:<18} {n:>12} {:>5.1}%", percent(*n, all));
        }
        let ranks: String = RANK_NAMES.iter().map(|r| format!(" {r:>6}")).collect();
        let _ = writeln!(out, "root: nodes by depth (quiescence and solver included), growth,");
        let _ = writeln!(out, "  share (%) by the root move's rank{ranks}");
        let mut last = 0;
        for (d, row) in self.root_nodes.iter().enumerate() {
            let n: u64 = row.iter().sum();
            if n == 0 {
                continue;
            }
            let growth =
                if last > 0 { format!("{:.2}", n as f64 / last as f64) } else { "-".into() };
            let shares: String = row.iter().map(|&k| format!(" {:>6.1}", percent(k, n))).collect();
            let _ = writeln!(out, "  depth {d:>2} {n:>12} {growth:>6}{shares}");
            last = n;
        }
        let _ = writeln!(out, "root: searches by depth, and by the rank the best came from{ranks}");
        for (d, row) in self.root_best.iter().enumerate() {
            let n: u64 = row.iter().sum();
            if n > 0 {
                let cells: String = row.iter().map(|k| format!(" {k:>6}")).collect();
                let _ = writeln!(out, "  depth {d:>2} {n:>12}       {cells}");
            }
        }
        let _ =
            writeln!(out, "cut-offs by depth left, share (%) by the cutting move's rank{ranks}");
        for (d, row) in self.cut_rank.iter().enumerate() {
            let n: u64 = row.iter().sum();
            if n > 0 {
                let shares: String =
                    row.iter().map(|&k| format!(" {:>6.1}", percent(k, n))).collect();
                let _ = writeln!(out, "  depth {d:>2} {n:>12}       {shares}");
            }
        }
        let _ = writeln!(
            out,
            "late-move reductions by depth left: reduced, re-searched at full depth (%), held (% of \
             re-searched), re-search nodes (% of all nodes)"
        );
        // The nodes of every root search, quiescence and solver included, as the re-searches'.
        let searched: u64 = self.root_nodes.iter().flatten().sum();
        for (d, &[reduced, again, held]) in self.reductions.iter().enumerate() {
            if reduced > 0 {
                let nodes = self.research_nodes[d];
                let _ = writeln!(
                    out,
                    "  depth {d:>2} {reduced:>12} {again:>10} {:>5.1} {held:>10} {:>5.1} {nodes:>12} {:>5.1}",
                    percent(again, reduced),
                    percent(held, again),
                    percent(nodes, searched)
                );
            }
        }
        out
    }
}

fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_fall_in_their_buckets() {
        let buckets: Vec<usize> =
            [0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 200].iter().map(|&i| rank_bucket(i)).collect();
        assert_eq!(buckets, [0, 1, 2, 3, 4, 4, 5, 5, 6, 6, 7, 7]);
        assert_eq!((depth_row(-3), depth_row(5), depth_row(99)), (0, 5, DEPTHS - 1));
    }

    #[test]
    fn counts_add_up_and_the_report_shows_them() {
        let mut a = Stats::default();
        a.entered[Entry::Four as usize] = 3;
        a.root_nodes[4][0] = 30;
        a.root_nodes[5][0] = 45;
        a.root_nodes[5][2] = 15;
        a.cut_rank[2][1] = 7;
        a.root_best[5][2] = 1;
        a.reductions[6] = [40, 10, 4];
        a.research_nodes[6] = 9;
        let mut b = a.clone();
        b.add(&a);
        assert_eq!((b.entered[3], b.root_nodes[5][2], b.cut_rank[2][1]), (6, 30, 14));
        assert_eq!((b.reductions[6], b.research_nodes[6]), ([80, 20, 8], 18));
        let text = a.report();
        // Depth 5 has 60 nodes, twice depth 4's 30; rank 1 holds 75% of them.
        assert!(text.contains("depth  5           60   2.00   75.0    0.0   25.0"), "{text}");
        assert!(text.contains("four"), "{text}");
        // A quarter of the reduced moves searched again, 40% of those held; the re-searches'
        // 9 nodes are a tenth of the 90 the root searches counted.
        assert!(
            text.contains(
                "depth  6           40         10  25.0          4  40.0            9  10.0"
            ),
            "{text}"
        );
    }

    #[test]
    fn a_search_counts_every_iteration_and_counts_alike_twice() {
        use crate::clock::budget::Limits;
        let (reports, stats) = crate::search::bench::search_all_counted(Limits::depth(5));
        for d in 1..=5 {
            assert!(stats.root_nodes[d].iter().sum::<u64>() > 0, "depth {d}: {stats:?}");
            assert!(stats.root_best[d].iter().sum::<u64>() > 0, "depth {d}: {stats:?}");
        }
        // Every alpha-beta node is counted once, and none beyond the search's own count.
        let entered: u64 = stats.entered.iter().sum();
        let nodes: u64 = reports.iter().map(|r| r.nodes).sum();
        assert!(entered > 0 && entered <= nodes, "{entered} of {nodes}");
        assert!(stats.entered[Entry::Root as usize] > 0);
        assert!(stats.cut_rank.iter().flatten().sum::<u64>() > 0);
        // Re-searches are a subset of the reduced moves, and the held ones of those.
        assert!(stats.reductions.iter().any(|r| r[1] > 0), "{stats:?}");
        for [reduced, again, held] in stats.reductions {
            assert!(held <= again && again <= reduced, "{stats:?}");
        }
        assert_eq!(crate::search::bench::search_all_counted(Limits::depth(5)).1, stats);
    }
}
