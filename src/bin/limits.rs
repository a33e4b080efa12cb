//! `limits`: whole games on the judge's real clock, with pondering and the other core busy,
//! that fail when the brain breaks one of the judge's limits (with our own margins): every
//! `START` answered below 1 s, every `TURN` below 1.9 s, every game's thinking below 85 s,
//! memory below 200 MB. Any breach, any illegal or missing answer, and any part of the check
//! that cannot run exits non-zero: CI runs it (`.ci/run`) on the Linux build and on the
//! Windows build under Wine.
//!
//! ```text
//! limits [--brain CMD] [--opponent CMD] [--games N] [--fill both|black|white|none]
//!        [--no-load] [--openings FILE]
//! ```
//!
//! 1. An arena match (`arena` beside this program) of `--games` games (default 2, one a
//!    colour) between the brain (A) and the opponent (B, by default the same brain) from the
//!    balanced openings; the arena enforces the limits above as the judge would (a breach
//!    loses the game and is reported), and each of A's move times is read from its records.
//! 2. Board-filling games (`--fill`, default both colours): the brain answers every `TURN`
//!    while a random mover plays the other side, on past any five, until the 12×12 board is
//!    full: about 70 answers under one game's budget, the longest game the judge can give.
//!
//! CMD is a command line split at blanks, e.g. `'/usr/lib/wine/wine64 target/wuzi.exe'`;
//! the default is the `wuzi` beside this program with `--ponder`. The figures printed (each
//! game's slowest move and total, A's move times by quantile, peak memory) are the ones the
//! README's reliability notes quote.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver};
use std::sync::Arc;
use std::time::{Duration, Instant};

const START_MS: u128 = 1000;
const SLOWEST_MS: u128 = 1900;
const TOTAL_MS: u128 = 85_000;
const MEMORY_KB: u64 = 200 * 1024;
/// How long the driver waits for an answer before it calls the brain hung.
const HUNG: Duration = Duration::from_secs(10);

/// One game's figures for the brain under test.
struct Game {
    name: String,
    /// `None` where the arena timed START (it enforces the same limit but records no figure).
    start_ms: Option<u128>,
    move_ms: Vec<u128>,
    total_ms: u128,
    peak_kb: u64,
    /// What went wrong besides the figures (an illegal answer, a fault the arena saw).
    fault: Option<String>,
}

impl Game {
    fn breaches(&self) -> Vec<String> {
        let mut v: Vec<String> = self.fault.iter().cloned().collect();
        let slowest = self.move_ms.iter().copied().max().unwrap_or(0);
        if let Some(ms) = self.start_ms.filter(|&ms| ms >= START_MS) {
            v.push(format!("START answered in {ms} ms (limit {START_MS})"));
        }
        if slowest >= SLOWEST_MS {
            v.push(format!("a TURN answered in {slowest} ms (limit {SLOWEST_MS})"));
        }
        if self.total_ms >= TOTAL_MS {
            v.push(format!("{} ms of thinking (limit {TOTAL_MS})", self.total_ms));
        }
        if self.peak_kb >= MEMORY_KB {
            v.push(format!("{} KB of memory (limit {MEMORY_KB})", self.peak_kb));
        }
        if self.peak_kb == 0 {
            v.push("peak memory could not be read".to_string());
        }
        v
    }
}

fn peak_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// A brain process with its answers read on a thread of their own, so that a hung brain is
/// seen as one instead of hanging the check.
struct Brain {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Brain {
    fn start(cmd: &[String]) -> Result<Brain, String> {
        let mut child = Command::new(&cmd[0])
            .args(&cmd[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", cmd[0]))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Brain { child, stdin, lines })
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("cannot write to the brain: {e}"))
    }

    /// Sends `line` and returns the first answer that is not `DEBUG`, with its time.
    fn ask(&mut self, line: &str) -> Result<(String, u128), String> {
        let t = Instant::now();
        self.send(line)?;
        loop {
            match self.lines.recv_timeout(HUNG) {
                Ok(s) if s.starts_with("DEBUG") => continue,
                Ok(s) => return Ok((s.trim().to_string(), t.elapsed().as_millis())),
                Err(_) => return Err(format!("no answer to {line} within {HUNG:?}")),
            }
        }
    }
}

/// A game in which the brain answers every `TURN` and a random mover plays the other side,
/// on past any five, until the board is full.
fn fill_game(cmd: &[String], we_are_black: bool, seed: u64) -> Game {
    let colour = if we_are_black { "black" } else { "white" };
    let mut game = Game {
        name: format!("fill the board as {colour}"),
        start_ms: None,
        move_ms: Vec::new(),
        total_ms: 0,
        peak_kb: 0,
        fault: None,
    };
    let mut brain = match Brain::start(cmd) {
        Ok(b) => b,
        Err(e) => {
            game.fault = Some(e);
            return game;
        }
    };
    if let Err(e) = play_fill(&mut brain, &mut game, we_are_black, seed) {
        game.fault = Some(e);
    }
    game.peak_kb = peak_kb(brain.child.id());
    let _ = brain.send("END 0");
    let deadline = Instant::now() + Duration::from_secs(2);
    while Instant::now() < deadline {
        if let Ok(Some(_)) = brain.child.try_wait() {
            return game;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = brain.child.kill();
    let _ = brain.child.wait();
    game
}

fn play_fill(brain: &mut Brain, game: &mut Game, black: bool, seed: u64) -> Result<(), String> {
    let mut taken = [[false; 12]; 12];
    for (r, c) in [(5, 5), (6, 6), (5, 6), (6, 5)] {
        taken[r][c] = true;
    }
    let (ok, ms) = brain.ask(if black { "START 1" } else { "START 2" })?;
    if ok != "OK" {
        return Err(format!("START answered '{ok}'"));
    }
    game.start_ms = Some(ms);
    game.total_ms = ms;
    let mut state = seed | 1;
    let mut our_turn = black;
    while taken.iter().flatten().any(|&t| !t) {
        if our_turn {
            let (mv, ms) = brain.ask("TURN")?;
            let v: Vec<usize> = mv.split_whitespace().filter_map(|t| t.parse().ok()).collect();
            if v.len() != 2 || v[0] >= 12 || v[1] >= 12 || taken[v[0]][v[1]] {
                return Err(format!("illegal answer '{mv}'"));
            }
            taken[v[0]][v[1]] = true;
            game.total_ms += ms;
            game.move_ms.push(ms);
        } else {
            let free: Vec<(usize, usize)> =
                (0..144).map(|i| (i / 12, i % 12)).filter(|&(r, c)| !taken[r][c]).collect();
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let (r, c) = free[(state % free.len() as u64) as usize];
            taken[r][c] = true;
            brain.send(&format!("PLACE {r} {c}"))?;
        }
        our_turn = !our_turn;
    }
    Ok(())
}

/// The arena's games between `brain` (A) and `opponent` (B), under the limits, with A's
/// figures read from the records.
fn arena_games(arena: &Path, o: &Options) -> Result<Vec<Game>, String> {
    let out = std::env::temp_dir().join(format!("wuzi-limits-{}", std::process::id()));
    let status = Command::new(arena)
        .args(["--games", &o.games.to_string()])
        .arg("--openings")
        .arg(&o.openings)
        .args(["--start-time-ms", &START_MS.to_string()])
        .args(["--move-time-ms", &SLOWEST_MS.to_string()])
        .args(["--game-time-ms", &TOTAL_MS.to_string()])
        .args(["--memory-mb", &(MEMORY_KB / 1024).to_string()])
        .arg("--out")
        .arg(&out)
        .arg(o.brain.join(" "))
        .arg(o.opponent.join(" "))
        .stdout(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run {}: {e}", arena.display()))?;
    if !status.success() {
        return Err(format!("the arena failed ({status})"));
    }
    let mut games = Vec::new();
    for g in 1..=o.games {
        let path = out.join(format!("game-{g:04}.txt"));
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        games.push(arena_record(g, &text)?);
    }
    let _ = std::fs::remove_dir_all(&out);
    Ok(games)
}

/// A's figures in one arena record (`src/bin/arena/record.rs` describes the format).
fn arena_record(number: usize, text: &str) -> Result<Game, String> {
    let field = |name: &str| text.lines().find_map(|l| l.strip_prefix(name)).unwrap_or("");
    let a_black = field("black:").trim_start().starts_with('A');
    let side = if a_black { "black" } else { "white" };
    // "black 12 white 3": A's number.
    let of_a = |name: &str| -> Result<u128, String> {
        let words: Vec<&str> = field(name).split_whitespace().collect();
        words
            .windows(2)
            .find(|w| w[0] == side)
            .and_then(|w| w[1].parse().ok())
            .ok_or_else(|| format!("game {number}: no {side} figure in '{name}'"))
    };
    let result = field("result:").trim().to_string();
    let move_ms: Vec<u128> = text
        .lines()
        .skip_while(|l| !l.starts_with("[moves]"))
        .take_while(|l| !l.is_empty())
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w.len() == 6 && w[2] == "A").then(|| w[5].parse().ok()).flatten()
        })
        .collect();
    Ok(Game {
        name: format!("arena game {number}, A {side}: {result}"),
        // The arena holds START to the same limit and reports a late OK as a fault.
        start_ms: None,
        total_ms: of_a("total-ms:")?,
        peak_kb: of_a("peak-memory-kb:")? as u64,
        fault: result.contains(" lost by ").then(|| format!("the arena saw a fault: {result}")),
        move_ms,
    })
}

struct Options {
    brain: Vec<String>,
    opponent: Vec<String>,
    games: usize,
    fill: Vec<bool>,
    load: bool,
    openings: PathBuf,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let here = std::env::current_exe().map_err(|e| e.to_string())?;
    let wuzi = here.with_file_name(if cfg!(windows) { "wuzi.exe" } else { "wuzi" });
    let default = vec![wuzi.display().to_string(), "--ponder".to_string()];
    let mut o = Options {
        brain: default.clone(),
        opponent: Vec::new(),
        games: 2,
        fill: vec![true, false],
        load: true,
        openings: PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/openings12-balanced.txt"),
    };
    let words = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--brain" => o.brain = words(value()?),
            "--opponent" => o.opponent = words(value()?),
            "--games" => o.games = value()?.parse().map_err(|_| "--games needs a number")?,
            "--openings" => o.openings = PathBuf::from(value()?),
            "--fill" => {
                o.fill = match value()?.as_str() {
                    "both" => vec![true, false],
                    "black" => vec![true],
                    "white" => vec![false],
                    "none" => vec![],
                    other => return Err(format!("--fill both|black|white|none, not '{other}'")),
                }
            }
            "--no-load" => o.load = false,
            "-h" | "--help" => {
                return Err(String::new());
            }
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    if o.brain.is_empty() {
        return Err("--brain needs a command".to_string());
    }
    if o.opponent.is_empty() {
        o.opponent = default;
    }
    Ok(o)
}

/// The value at quantile `q` of sorted `v`.
fn quantile(v: &[u128], q: f64) -> u128 {
    if v.is_empty() {
        return 0;
    }
    v[((v.len() - 1) as f64 * q).round() as usize]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let o = match parse(&args) {
        Ok(o) => o,
        Err(why) => {
            if !why.is_empty() {
                eprintln!("limits: {why}");
            }
            let usage = "usage: limits [--brain CMD] [--opponent CMD] [--games N] \
                 [--fill both|black|white|none] [--no-load] [--openings FILE]";
            eprintln!("{usage}");
            std::process::exit(2);
        }
    };
    let arena = std::env::current_exe()
        .map(|p| p.with_file_name(if cfg!(windows) { "arena.exe" } else { "arena" }))
        .unwrap_or_default();
    let mut missing: Vec<String> = Vec::new();
    for (what, path) in
        [("the brain", Path::new(&o.brain[0])), ("the opponent", Path::new(&o.opponent[0]))]
    {
        if !path.exists() {
            missing.push(format!("{what} {} is missing", path.display()));
        }
    }
    if o.games > 0 && !arena.exists() {
        missing.push(format!("the arena {} is missing", arena.display()));
    }
    if !missing.is_empty() {
        eprintln!("limits: cannot run: {} (cargo build --release builds them)", missing.join("; "));
        std::process::exit(2);
    }
    let busy = Arc::new(AtomicBool::new(o.load));
    if o.load {
        let flag = Arc::clone(&busy);
        std::thread::spawn(move || {
            let mut x = 0u64;
            while flag.load(Ordering::Relaxed) {
                x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
            }
        });
    }
    println!("brain: {}", o.brain.join(" "));
    println!("load: {}", if o.load { "one busy thread on the other core" } else { "none" });
    let started = Instant::now();
    let mut games = Vec::new();
    let mut failures = Vec::new();
    if o.games > 0 {
        match arena_games(&arena, &o) {
            Ok(g) => games.extend(g),
            Err(e) => failures.push(e),
        }
    }
    for (i, &black) in o.fill.iter().enumerate() {
        games.push(fill_game(&o.brain, black, 0x9E37_79B9 ^ (i as u64 * 0x7F4A_7C15)));
    }
    busy.store(false, Ordering::Relaxed);
    println!(
        "{:<52} {:>5} {:>6} {:>8} {:>8} {:>8}",
        "game", "moves", "start", "slowest", "total", "peak MB"
    );
    let mut all_moves: Vec<u128> = Vec::new();
    for g in &games {
        let breaches = g.breaches();
        println!(
            "{:<52} {:>5} {:>6} {:>8} {:>8} {:>8.1} {}",
            g.name,
            g.move_ms.len(),
            g.start_ms.map_or(format!("<{START_MS}"), |ms| ms.to_string()),
            g.move_ms.iter().max().unwrap_or(&0),
            g.total_ms,
            g.peak_kb as f64 / 1024.0,
            if breaches.is_empty() { "" } else { "FAIL" }
        );
        failures.extend(breaches.into_iter().map(|b| format!("{}: {b}", g.name)));
        all_moves.extend(&g.move_ms);
    }
    all_moves.sort_unstable();
    println!(
        "move times: {} moves, median {} ms, 90% {} ms, 99% {} ms, max {} ms; peak memory {:.1} MB",
        all_moves.len(),
        quantile(&all_moves, 0.5),
        quantile(&all_moves, 0.9),
        quantile(&all_moves, 0.99),
        all_moves.last().unwrap_or(&0),
        games.iter().map(|g| g.peak_kb).max().unwrap_or(0) as f64 / 1024.0
    );
    for f in &failures {
        println!("FAIL {f}");
    }
    println!(
        "{} (limits: START < {START_MS} ms, TURN < {SLOWEST_MS} ms, game < {TOTAL_MS} ms, memory < {} MB) in {} s",
        if failures.is_empty() { "PASS" } else { "FAIL" },
        MEMORY_KB / 1024,
        started.elapsed().as_secs()
    );
    std::process::exit(if failures.is_empty() { 0 } else { 1 });
}

#[cfg(test)]
mod tests {
    use super::*;

    const RECORD: &str = "# wuzi arena record\ngame: 2\nblack: B (judge) x\nwhite: A (judge) y\n\
        result: 1-0 B wins by five\nmoves: 9\nmax-move-ms: black 12 white 1899\n\
        total-ms: black 40 white 2000\npeak-memory-kb: black 70312 white 204800\n\n[moves]\n\
        #  n colour engine row col     ms\n   1 black  opening  4   7      -\n   \
        3 black  B        3   8     12\n   4 white  A        3   9    1899\n   \
        6 white  A        2   9    101\n\n[replay]\nPLACE 4 7\n";

    #[test]
    fn reads_the_brains_figures_from_a_record_and_finds_each_breach() {
        let g = arena_record(2, RECORD).unwrap();
        assert_eq!(g.move_ms, vec![1899, 101]);
        assert_eq!((g.total_ms, g.peak_kb), (2000, 204800));
        assert!(g.fault.is_none());
        let b = g.breaches();
        assert_eq!(b.len(), 1, "{b:?}");
        assert!(b[0].contains("memory"), "{b:?}");
        let slow = Game { move_ms: vec![1900], peak_kb: 1, ..g };
        assert!(slow.breaches()[0].contains("TURN"));
        let fault = RECORD.replace("B wins by five", "B wins: A lost by time (2100 ms)");
        let f = arena_record(2, &fault).unwrap();
        assert!(f.breaches().iter().any(|b| b.contains("lost by time")));
    }

    #[test]
    fn a_late_start_or_a_long_game_fails() {
        let g = Game {
            name: String::new(),
            start_ms: Some(1000),
            move_ms: vec![10],
            total_ms: 85_000,
            peak_kb: 1,
            fault: None,
        };
        let b = g.breaches();
        assert!(b.iter().any(|b| b.contains("START")) && b.iter().any(|b| b.contains("thinking")));
    }
}
