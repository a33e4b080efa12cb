//! Time to solution: at which thinking time a brain stops playing a losing move in each suite
//! position. `run` gives one count at one clock; `tts` asks every position at a ladder of
//! times, so that two brains (ours, Rapfi) can be compared by the curve of positions held
//! against time, and each position by the time from which on its answer holds.
//!
//! The time reaches the brain through its command line: `{ms}` in `--brain` becomes each time
//! in turn (`--movetime {ms}` for wuzi, `--turn-ms {ms}` for `rapfi.py`), and `{game_ms}`, if
//! present, the judge's game clock in proportion (45 times it: 90 s a game for 2 s a move).

use std::collections::HashMap;
use std::io::Write;
use std::time::{Duration, Instant};

use wuzi::board::Pos;
use wuzi::search::threat::Solver;

use super::ask::Proto;
use super::{ask_move, board_after, forced, move_loses, pos_text, read_suite, USAGE};

/// The times asked when `--times` is not given, in ms: from an eighth of the judge's 2 s
/// move to four times it.
const DEFAULT_TIMES: &str = "250,500,1000,2000,4000,8000";

/// The placeholder in the brain's command that each time replaces.
const MS: &str = "{ms}";
/// The placeholder for the game clock that goes with each time.
const GAME_MS: &str = "{game_ms}";
/// The judge's game clock per move's: 90 000 ms a game for 2000 ms a move.
const GAME_PER_MOVE: u64 = 45;

/// The command line of `defence tts`.
#[derive(Debug)]
struct Options {
    /// The brain's command, with `{ms}` (and perhaps `{game_ms}`) still in it.
    brain: String,
    proto: Proto,
    /// The times to ask at, ascending, in ms.
    times: Vec<u64>,
    /// Only the suite's first so many positions (smoke runs).
    first: Option<usize>,
    /// Where the answers go as TSV, if anywhere: a line an ask (position, time, move, 1 if it
    /// holds, and the ask's wall time, to see whether the brain used the time it had).
    out: Option<String>,
    suite: String,
}

fn options(args: &[String]) -> Result<Options, String> {
    let mut brain = None;
    let mut proto = Proto::Judge;
    let mut times = parse_times(DEFAULT_TIMES)?;
    let (mut first, mut out, mut suite) = (None, None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |what: &str| it.next().ok_or(format!("{a} needs {what}"));
        match a.as_str() {
            "--brain" => brain = Some(value("a command line")?.clone()),
            "--protocol" => proto = Proto::parse(value("a name")?)?,
            "--times" => times = parse_times(value("a list of ms")?)?,
            "--first" => {
                let n = value("a count")?;
                match n.parse::<usize>() {
                    Ok(n) if n > 0 => first = Some(n),
                    _ => return Err(format!("--first: bad count '{n}'")),
                }
            }
            "--out" => out = Some(value("a file")?.clone()),
            f if f.starts_with("--") => return Err(format!("tts: unknown option {f}\n{USAGE}")),
            f => suite = Some(f.to_string()),
        }
    }
    let brain = brain.ok_or(USAGE)?;
    // A command without the time would ask the same thing at every time: refuse it now
    // rather than after the first position's asks.
    command_at(&brain, times[0])?;
    Ok(Options { brain, proto, times, first, out, suite: suite.ok_or(USAGE)? })
}

/// The times of `--times`: comma-separated ms, each positive and longer than the one before
/// (the switch time reads them in order).
fn parse_times(text: &str) -> Result<Vec<u64>, String> {
    let mut times: Vec<u64> = Vec::new();
    for w in text.split(',').map(str::trim) {
        let ms: u64 = w.parse().map_err(|_| format!("--times: '{w}' is not a number of ms"))?;
        if ms == 0 {
            return Err("--times: a time must be positive".into());
        }
        if let Some(&last) = times.last() {
            if ms <= last {
                return Err(format!("--times: {ms} after {last}: the times must ascend"));
            }
        }
        times.push(ms);
    }
    Ok(times)
}

/// The brain's command line at `ms`: its words, with `{ms}` replaced by `ms` and `{game_ms}`
/// by the game clock in the judge's proportion. Without `{ms}` it is an error.
fn command_at(command: &str, ms: u64) -> Result<Vec<String>, String> {
    if !command.contains(MS) {
        return Err(format!("--brain: '{command}' has no {MS} to put the time in"));
    }
    let (move_text, game_text) = (ms.to_string(), (ms * GAME_PER_MOVE).to_string());
    Ok(command
        .split_whitespace()
        .map(|w| w.replace(GAME_MS, &game_text).replace(MS, &move_text))
        .collect())
}

/// Where a position's answers, one a time in ascending order (`true`: the move holds), settle
/// for good: the index of the smallest time from which on every answer holds (0: always),
/// or `None` when the longest time's answer loses (never). A hold followed by a loss does not
/// count: the switch is after the last loss.
fn switch(holds: &[bool]) -> Option<usize> {
    match holds.iter().rposition(|&h| !h) {
        None => Some(0),
        Some(last) if last + 1 == holds.len() => None,
        Some(last) => Some(last + 1),
    }
}

/// A switch as the per-position line says it.
fn switch_text(switch: Option<usize>, times: &[u64]) -> String {
    match switch {
        Some(0) => "always".into(),
        Some(k) => times[k].to_string(),
        None => "never".into(),
    }
}

/// The counts over the positions asked.
#[derive(Debug, PartialEq, Eq)]
struct Summary {
    /// Positions asked (the forced replies are not).
    asked: usize,
    /// How many of them hold, at each time.
    holds: Vec<usize>,
    /// How many switch at each time (the first: always).
    switches: Vec<usize>,
    /// How many lose at the longest time.
    never: usize,
}

/// The [`Summary`] of the answers `rows` (a position a row, a time a column) at `times`
/// times.
fn summarize(rows: &[Vec<bool>], times: usize) -> Summary {
    let mut s =
        Summary { asked: rows.len(), holds: vec![0; times], switches: vec![0; times], never: 0 };
    for row in rows {
        for (k, _) in row.iter().enumerate().filter(|(_, &h)| h) {
            s.holds[k] += 1;
        }
        match switch(row) {
            Some(k) => s.switches[k] += 1,
            None => s.never += 1,
        }
    }
    s
}

/// `defence tts`: asks each unforced suite position at each time, a new brain process an
/// ask, and prints a line a position, then the counts.
pub fn tts(args: &[String]) -> Result<(), String> {
    let o = options(args)?;
    let suite = read_suite(&o.suite)?;
    let n = o.first.unwrap_or(suite.len()).min(suite.len());
    let mut tsv = match &o.out {
        Some(path) => {
            let mut f = std::fs::File::create(path).map_err(|e| format!("{path}: {e}"))?;
            writeln!(f, "position\tms\tmove\tholds\task_ms").map_err(|e| format!("{path}: {e}"))?;
            Some((path, f))
        }
        None => None,
    };
    let mut solver = Solver::new();
    // The check (a 2 M-node search and a VCT solve) costs far more than an ask, and a brain
    // often plays one move at several times: judge each (position, move) once.
    let mut judged: HashMap<(usize, Pos), bool> = HashMap::new();
    let mut rows: Vec<Vec<bool>> = Vec::new();
    let mut spent = vec![Duration::ZERO; o.times.len()];
    for (i, e) in suite[..n].iter().enumerate() {
        let board = board_after(&e.moves)?;
        if forced(&board) {
            // As in `run`: a forced reply is no choice, so no time can change it.
            println!("{:>3}: a forced reply ({}): not asked", i + 1, pos_text(e.fatal));
            continue;
        }
        let mut cells = Vec::new();
        let mut holds = Vec::new();
        for (k, &ms) in o.times.iter().enumerate() {
            // The ask's wall time, process start included, shows whether the brain used
            // the time it was given; the check runs after it, never beside a thinking brain.
            let started = Instant::now();
            let p = ask_move(&command_at(&o.brain, ms)?, o.proto, e, &board, i)?;
            let took = started.elapsed();
            spent[k] += took;
            let lost = *judged
                .entry((i, p))
                .or_insert_with(|| move_loses(&mut solver, &board, e.fatal, p));
            cells.push(format!("{ms} {} {}", pos_text(p), if lost { "X" } else { "ok" }));
            holds.push(!lost);
            if let Some((path, f)) = &mut tsv {
                let (at, held, ask_ms) = (pos_text(p), u8::from(!lost), took.as_millis());
                writeln!(f, "{}\t{ms}\t{at}\t{held}\t{ask_ms}", i + 1)
                    .and_then(|()| f.flush())
                    .map_err(|e| format!("{path}: {e}"))?;
            }
        }
        println!(
            "{:>3}: {} | switch {}",
            i + 1,
            cells.join(" | "),
            switch_text(switch(&holds), &o.times)
        );
        rows.push(holds);
    }
    let s = summarize(&rows, o.times.len());
    println!(
        "held at each time (positions asked: {}; forced replies, not asked: {}):",
        s.asked,
        n - s.asked
    );
    for (k, &ms) in o.times.iter().enumerate() {
        let mean = spent[k].as_millis() / (s.asked.max(1) as u128);
        println!(
            "  {ms:>6} ms: {:>3} of {} (an ask took {mean} ms on average)",
            s.holds[k], s.asked
        );
    }
    let mut dist: Vec<String> = o
        .times
        .iter()
        .zip(&s.switches)
        .enumerate()
        .map(
            |(k, (&ms, &c))| {
                if k == 0 {
                    format!("always ({ms}) {c}")
                } else {
                    format!("{ms} {c}")
                }
            },
        )
        .collect();
    dist.push(format!("never {}", s.never));
    println!("switch times: {}", dist.join(", "));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(v: &[&str]) -> Vec<String> {
        v.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn the_time_goes_where_the_command_says() {
        assert_eq!(
            command_at("target/release/wuzi --no-ponder --movetime {ms}", 4000).unwrap(),
            words(&["target/release/wuzi", "--no-ponder", "--movetime", "4000"])
        );
        // Inside a word, and the game clock in the judge's proportion (2 s : 90 s).
        assert_eq!(
            command_at("brain --move-ms={ms} --game-ms {game_ms}", 2000).unwrap(),
            words(&["brain", "--move-ms=2000", "--game-ms", "90000"])
        );
        let err = command_at("target/release/wuzi --movetime 500", 500).unwrap_err();
        assert!(err.contains("{ms}"), "{err}");
        assert!(command_at("brain --game-ms {game_ms}", 500).is_err(), "{{game_ms}} alone");
    }

    #[test]
    fn times_are_positive_and_ascending() {
        assert_eq!(parse_times("250,500, 1000").unwrap(), [250, 500, 1000]);
        assert_eq!(parse_times(DEFAULT_TIMES).unwrap(), [250, 500, 1000, 2000, 4000, 8000]);
        assert_eq!(parse_times("700").unwrap(), [700]);
        for bad in ["", "500,250", "250,250", "0,250", "250,,500", "250,1s", "-5"] {
            assert!(parse_times(bad).is_err(), "'{bad}'");
        }
    }

    #[test]
    fn options_need_the_time_in_the_command() {
        let args = |v: &[&str]| words(v);
        let o = options(&args(&["--brain", "b {ms}", "--times", "1,2", "--first", "3", "s.txt"]))
            .unwrap();
        assert_eq!((o.times, o.first, o.suite.as_str()), (vec![1, 2], Some(3), "s.txt"));
        assert_eq!(o.proto, Proto::Judge);
        assert!(options(&args(&["--brain", "b 500", "s.txt"])).is_err());
        assert!(options(&args(&["--brain", "b {ms}", "--first", "0", "s.txt"])).is_err());
        assert!(options(&args(&["--brain", "b {ms}"])).is_err(), "no suite");
    }

    #[test]
    fn the_switch_is_after_the_last_loss() {
        assert_eq!(switch(&[true, true, true]), Some(0), "always");
        assert_eq!(switch(&[false, false, true, true]), Some(2));
        assert_eq!(switch(&[false, true, true, false]), None, "the longest time loses");
        assert_eq!(switch(&[false, false, false]), None);
        // A hold, then a loss, then holds: only the holds after the loss count.
        assert_eq!(switch(&[true, false, true, true]), Some(2));
        let times = [250, 500, 1000, 2000];
        assert_eq!(switch_text(Some(0), &times), "always");
        assert_eq!(switch_text(Some(2), &times), "1000");
        assert_eq!(switch_text(None, &times), "never");
    }

    #[test]
    fn the_summary_counts_holds_and_switches() {
        let rows = vec![
            vec![true, true, true],    // always
            vec![false, true, true],   // at the second time
            vec![true, false, true],   // at the third
            vec![false, false, false], // never
            vec![false, true, false],  // never
        ];
        let s = summarize(&rows, 3);
        assert_eq!(
            s,
            Summary { asked: 5, holds: vec![2, 3, 3], switches: vec![1, 1, 1], never: 2 }
        );
        assert_eq!(
            summarize(&[], 2),
            Summary { asked: 0, holds: vec![0, 0], switches: vec![0, 0], never: 0 }
        );
    }
}
