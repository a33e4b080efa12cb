//! Protocol fuzzing against the real binary: random and mutated command streams (garbage
//! bytes, invalid UTF-8, very long lines, `\r\n`, blanks, lower case, huge or negative
//! numbers, `PLACE` on stones, `TURN` twice, `START` twice, `END` and the end of input
//! anywhere). Whatever comes in, the brain never panics, exits 0 at the end of input, prints
//! nothing but `DEBUG` when no answer is due, answers every due `TURN` with a legal move, and
//! keeps its `DEBUG` output within the judge's limits.
//!
//! A protocol is an entry in [`PROTOCOLS`]: how to start the brain and a model of which
//! answers each input line makes due; the judge protocol's is the judge model of
//! `tests/common/judge.rs`, written apart from the brain's parser. `tests/fuzz_real.rs` runs
//! the judge protocol at the real clock with pondering.

mod common;

use std::collections::HashSet;
use std::io::{Read, Write};
use std::time::{Duration, Instant};

use common::{Rng, LONG};

/// One protocol under test.
struct Protocol {
    name: &'static str,
    args: &'static [&'static str],
    stream: fn(&mut Rng) -> Vec<u8>,
    check: fn(&[u8], &[String]) -> Result<(), String>,
}

/// Every protocol the brain speaks.
const PROTOCOLS: &[Protocol] = &[
    Protocol {
        name: "judge",
        args: &["--nodes", "3000", "--quiet"],
        stream: judge_stream,
        check: judge_check,
    },
    Protocol {
        name: "piskvork",
        args: &["--protocol", "piskvork", "--nodes", "3000"],
        stream: piskvork_stream,
        check: piskvork_check,
    },
    Protocol {
        name: "matrix",
        args: &["--protocol", "matrix", "--size", "7", "--nodes", "3000"],
        stream: matrix_stream,
        check: matrix_check,
    },
];

/// Garbage: random bytes (often not UTF-8), or a line far over the length limit.
fn garbage(rng: &mut Rng) -> Vec<u8> {
    if rng.chance(80) {
        let n = 1 + rng.below(40);
        (0..n).map(|_| (rng.below(255) as u8).max(1)).filter(|&b| b != b'\n').collect()
    } else {
        let n = LONG as u64 * (1 + rng.below(30));
        (0..n).map(|_| b'A' + rng.below(26) as u8).collect()
    }
}

fn lines_to_stream(rng: &mut Rng, lines: Vec<Vec<u8>>) -> Vec<u8> {
    let mut out = Vec::new();
    let n = lines.len();
    for (i, mut line) in lines.into_iter().enumerate() {
        if rng.chance(3) && !line.is_empty() {
            let at = rng.below(line.len() as u64) as usize;
            line[at] = (rng.below(255) as u8).max(1);
            if line[at] == b'\n' {
                line[at] = b'?';
            }
        }
        if rng.chance(15) {
            line.push(b'\r');
        }
        out.extend_from_slice(&line);
        if i + 1 < n || rng.chance(70) {
            out.push(b'\n');
        }
    }
    out
}

fn piskvork_stream(rng: &mut Rng) -> Vec<u8> {
    let mut lines: Vec<Vec<u8>> =
        vec![format!("START {}", [12, 15, 5, 20][rng.below(4) as usize]).into_bytes()];
    let xy = |rng: &mut Rng| format!("{},{}", rng.below(17) as i64 - 1, rng.below(17) as i64 - 1);
    for _ in 0..5 + rng.below(40) {
        let line = match rng.below(100) {
            0..=4 => format!("START {}", rng.below(20)),
            5..=7 => "RESTART".into(),
            8..=14 => "BEGIN".into(),
            15..=44 => format!("TURN {}", xy(rng)),
            45..=54 => {
                lines.push(b"BOARD".to_vec());
                for _ in 0..rng.below(8) {
                    lines.push(format!("{},{}", xy(rng), 1 + rng.below(3)).into_bytes());
                }
                "DONE".into()
            }
            55..=59 => format!("TAKEBACK {}", xy(rng)),
            60..=74 => {
                let key =
                    ["timeout_turn", "timeout_match", "time_left", "max_memory", "rule", "colour"];
                format!("INFO {} {}", key[rng.below(6) as usize], rng.below(3000))
            }
            75..=77 => "ABOUT".into(),
            78..=80 => "# comment".into(),
            81..=84 => String::new(),
            85..=86 => "END".into(),
            _ => {
                lines.push(garbage(rng));
                continue;
            }
        };
        lines.push(if rng.chance(10) { line.to_ascii_lowercase() } else { line }.into_bytes());
    }
    lines_to_stream(rng, lines)
}

/// Every output line is a known kind; moves are on the board of the last good START.
fn piskvork_check(input: &[u8], output: &[String]) -> Result<(), String> {
    let sizes: Vec<i64> = commands_text(input)
        .iter()
        .filter_map(|l| l.trim().to_ascii_uppercase().strip_prefix("START ").map(String::from))
        .filter_map(|n| n.trim().parse().ok())
        .filter(|n| (5..=15).contains(n))
        .collect();
    let largest = sizes.iter().copied().max().unwrap_or(0);
    for line in output {
        let known = ["OK", "ERROR ", "UNKNOWN ", "MESSAGE ", "name=\"wuzi\""];
        if known.iter().any(|k| line == k.trim() || line.starts_with(k)) {
            continue;
        }
        let v: Vec<i64> = line.split(',').filter_map(|t| t.parse().ok()).collect();
        if v.len() != 2 || line.split(',').count() != 2 {
            return Err(format!("unknown output line '{line}'"));
        }
        if v.iter().any(|&c| c < 0 || c >= largest) {
            return Err(format!("move '{line}' off every board started"));
        }
    }
    Ok(())
}

/// The input as the brain's reader splits it into text lines (without `\r`).
fn commands_text(input: &[u8]) -> Vec<String> {
    common::judge::split_stream(input)
        .into_iter()
        .map(|l| l.strip_suffix('\r').map(String::from).unwrap_or(l))
        .collect()
}

const MATRIX: usize = 7;

fn matrix_stream(rng: &mut Rng) -> Vec<u8> {
    let mut lines: Vec<Vec<u8>> = Vec::new();
    for _ in 0..1 + rng.below(6) {
        lines.push(
            ["1", "2", "3", "x"][rng.below(4).min(rng.below(4)) as usize].as_bytes().to_vec(),
        );
        for _ in 0..MATRIX {
            let cells = if rng.chance(5) { MATRIX + 1 } else { MATRIX };
            let row: Vec<String> = (0..cells)
                .map(|_| match rng.below(100) {
                    0..=59 => "0".into(),
                    60..=78 => "1".into(),
                    79..=97 => "2".into(),
                    _ => "9".into(),
                })
                .collect();
            lines.push(row.join(" ").into_bytes());
        }
        if rng.chance(10) {
            lines.push(garbage(rng));
        }
    }
    lines_to_stream(rng, lines)
}

/// `init end`, then exactly one legal answer for each well-formed board that has room.
fn matrix_check(input: &[u8], output: &[String]) -> Result<(), String> {
    if output.first().map(String::as_str) != Some("init end") {
        return Err("no 'init end' first".into());
    }
    let lines: Vec<String> = commands_text(input)
        .into_iter()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .collect();
    let mut boards: Vec<HashSet<(usize, usize)>> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let colour = lines[i].trim();
        i += 1;
        if colour != "1" && colour != "2" {
            continue;
        }
        let mut taken = HashSet::new();
        let mut good = true;
        for row in 0..MATRIX {
            let Some(text) = lines.get(i) else {
                good = false;
                break;
            };
            i += 1;
            match wuzi::frontend::matrix::parse_row(text, MATRIX, row) {
                Ok(stones) => taken.extend(stones.iter().map(|(p, _)| (p.row(), p.col()))),
                Err(_) => {
                    good = false;
                    break;
                }
            }
        }
        if good && taken.len() < MATRIX * MATRIX {
            boards.push(taken);
        }
    }
    let answers = &output[1..];
    if answers.len() != boards.len() {
        return Err(format!("{} answers for {} good boards", answers.len(), boards.len()));
    }
    for (a, taken) in answers.iter().zip(&boards) {
        let v: Vec<usize> = a.split(' ').filter_map(|t| t.parse().ok()).collect();
        if v.len() != 2 || v[0] >= MATRIX || v[1] >= MATRIX || taken.contains(&(v[0], v[1])) {
            return Err(format!("illegal answer '{a}'"));
        }
    }
    Ok(())
}

fn judge_line(rng: &mut Rng) -> Vec<u8> {
    let coord = |rng: &mut Rng| -> String {
        match rng.below(20) {
            0 => "-1".into(),
            1 => "12".into(),
            2 => "99999999999999999999999".into(),
            3 => "-9223372036854775808".into(),
            _ => rng.below(12).to_string(),
        }
    };
    let mut line = match rng.below(100) {
        0..=7 => format!("START {}", 1 + rng.below(2)),
        8..=9 => format!("START {}", rng.below(5)),
        10..=34 => format!("PLACE {} {}", coord(rng), coord(rng)),
        // A stone on one of the judge's four start stones, as a junk line would put it.
        35..=44 => {
            let (x, y) = [(5, 5), (6, 6), (5, 6), (6, 5)][rng.below(4) as usize];
            format!("{} {x} {y}", if rng.chance(80) { "PLACE" } else { "MINE" })
        }
        45..=69 => "TURN".to_string(),
        70..=74 => format!("END {}", rng.below(3)),
        75..=77 => String::new(),
        78..=79 => "# a comment".into(),
        80..=84 => format!("DEBUG {}", rng.below(1000)),
        85..=89 => ["PLACE", "PLACE 1", "TURN 2", "START", "END", "HELLO", "PLACE 1 2 3"]
            [rng.below(7) as usize]
            .to_string(),
        90..=94 => {
            // Garbage bytes, often not UTF-8.
            let n = 1 + rng.below(40);
            return (0..n).map(|_| (rng.below(255) as u8).max(1)).filter(|&b| b != b'\n').collect();
        }
        _ => {
            // A very long line.
            let n = LONG as u64 * (1 + rng.below(30));
            return (0..n).map(|_| b'A' + rng.below(26) as u8).collect();
        }
    };
    if rng.chance(15) {
        line = line.to_ascii_lowercase();
    }
    if rng.chance(15) {
        line = format!("  {}  ", line.replace(' ', "   "));
    }
    if rng.chance(20) {
        line.push('\r');
    }
    line.into_bytes()
}

fn judge_stream(rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::new();
    let n = 5 + rng.below(60);
    for i in 0..n {
        let mut line = if i == 0 && rng.chance(70) { b"START 1".to_vec() } else { judge_line(rng) };
        if rng.chance(5) && !line.is_empty() {
            // A mutation: one byte changed.
            let at = rng.below(line.len() as u64) as usize;
            line[at] = (rng.below(255) as u8).max(1);
            if line[at] == b'\n' {
                line[at] = b'?';
            }
        }
        out.extend_from_slice(&line);
        if i + 1 < n || rng.chance(70) {
            out.push(b'\n');
        }
    }
    out
}

/// Checks the brain's output lines against the judge model: an `OK` for each good `START`,
/// a legal move for each due `TURN` (even one right before `END`, `START` or the end of
/// input: the search stops at once then), nothing else but `DEBUG`.
fn judge_check(input: &[u8], output: &[String]) -> Result<(), String> {
    common::judge::check_session(input, output)
}

/// Runs the brain on `input`; returns its output lines, or what went wrong.
fn run(args: &[&str], input: Vec<u8>) -> Result<Vec<String>, String> {
    let mut child = common::live::spawn_wuzi(args).map_err(|e| e.to_string())?;
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        // The brain may exit early only by a bug; a broken pipe shows up in the checks.
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = stdout.read_to_end(&mut s);
        s
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            return Err("the brain hung (no exit within 60 s)".into());
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let _ = writer.join();
    let out = reader.join().unwrap();
    let mut err = String::new();
    let _ = stderr.read_to_string(&mut err);
    if !status.success() || err.contains("panicked") {
        return Err(format!("exit {status}, stderr: {err}"));
    }
    let text = String::from_utf8(out).map_err(|_| "output is not UTF-8".to_string())?;
    Ok(text.lines().map(String::from).collect())
}

#[test]
fn random_and_mutated_streams_never_break_the_rules() {
    for proto in PROTOCOLS {
        for seed in 1..=100u64 {
            let mut rng = Rng::seeded(seed);
            let input = (proto.stream)(&mut rng);
            let output = run(proto.args, input.clone())
                .unwrap_or_else(|e| panic!("{} seed {seed}: {e}", proto.name));
            for l in &output {
                assert!(
                    l.len() <= 16 * 1024,
                    "{} seed {seed}: a line of {} bytes",
                    proto.name,
                    l.len()
                );
            }
            let debug: usize =
                output.iter().filter(|l| l.starts_with("DEBUG")).map(|l| l.len() + 1).sum();
            assert!(debug <= 32 * 1024, "{} seed {seed}: {debug} bytes of DEBUG", proto.name);
            if let Err(why) = (proto.check)(&input, &output) {
                panic!("{} seed {seed}: {why}\noutput: {output:?}", proto.name);
            }
        }
    }
}

/// A game that fills the whole board with a stream of bad lines between the moves: the
/// DEBUG text of the game stays under the judge's 32 KB, no line over 16 KB.
#[test]
fn a_long_game_keeps_debug_within_the_judges_budget() {
    let mut input = String::from("START 2\n");
    let mut rng = Rng(77);
    for i in 0..200 {
        input.push_str(&format!("PLACE {} {}\n", rng.below(12), rng.below(12)));
        input.push_str(&format!("BAD LINE {i} {}\n", "x".repeat(300)));
        input.push_str("TURN\n");
    }
    input.push_str("END 0\n");
    let output = run(&["--nodes", "500", "--board"], input.clone().into_bytes()).unwrap();
    // Every answer legal on the judge model's board, none unasked.
    common::judge::check_session(input.as_bytes(), &output).unwrap();
    let debug: Vec<&String> = output.iter().filter(|l| l.starts_with("DEBUG")).collect();
    let bytes: usize = debug.iter().map(|l| l.len() + 1).sum();
    assert!(bytes <= 32 * 1024, "{bytes} bytes of DEBUG in one game");
    assert!(bytes > 20 * 1024, "the test should reach the budget, got {bytes} bytes");
    assert!(output.iter().all(|l| l.len() <= 16 * 1024));
    let moves = output.iter().filter(|l| !l.starts_with("DEBUG")).count();
    assert!(moves > 60, "only {moves} answers");
}
