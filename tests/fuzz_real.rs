//! The protocol fuzzer's real mode: the brain as the judge runs it, with its real clock
//! (2 s a move, 90 s a game) and pondering on, fed short random streams line by line the way
//! a judge or a broken judge would: good commands, bad lines, `PLACE` on stones and off the
//! board, `TURN` (also twice), `START` again (also during a search or a ponder), `RESTART`
//! (not a judge command), `END`, junk bytes and very long lines, at random pauses. Every
//! printed line is checked by the judge model (`tests/common/judge.rs`) as it comes: nothing
//! but `DEBUG` unless an answer is due, `OK` for each good `START` within 1 s, a legal move
//! for each due `TURN` within 2 s, and the brain exits 0 at the end of input.
//!
//! The `--nodes` mode in `tests/fuzz_protocol.rs` covers far more streams, deterministically;
//! this one covers what only the clock shows: the answers' times, a search or a ponder cut
//! short by `START`/`END`, and lines read while the brain thinks.

mod common;

use std::time::{Duration, Instant};

use common::judge::{self, Due, Referee};
use common::live::{Live, Timed};
use common::{Rng, LONG};

/// Streams, and the due `TURN`s each may have: each one that searches takes up to ~1.6 s.
const STREAMS: u64 = 12;
const TURNS_PER_STREAM: usize = 3;

/// One random line, knowing the judge model's board (so that a `PLACE` can hit a stone).
fn line(rng: &mut Rng, referee: &Referee) -> Vec<u8> {
    let stones: Vec<judge::P> = referee.game.as_ref().map_or(Vec::new(), |g| {
        judge::Board::points().filter(|&p| g.board.get(p) != judge::EMPTY).collect()
    });
    let coord = |rng: &mut Rng| -> String {
        match rng.below(12) {
            0 => "-1".into(),
            1 => "12".into(),
            2 => "99999999999999999999".into(),
            _ => rng.below(12).to_string(),
        }
    };
    let text = match rng.below(100) {
        0..=24 => format!("PLACE {} {}", coord(rng), coord(rng)),
        25..=34 if !stones.is_empty() => {
            let (x, y) = stones[rng.below(stones.len() as u64) as usize];
            format!("PLACE {x} {y}")
        }
        35..=59 => "TURN".into(),
        60..=64 => format!("START {}", 1 + rng.below(2)),
        65..=66 => "RESTART".into(),
        67..=69 => format!("END {}", rng.below(3)),
        70..=79 => ["START 3", "PLACE 1", "TURN 1", "END 7", "HELLO", "", "# note", "DEBUG hi"]
            [rng.below(8) as usize]
            .into(),
        80..=89 => {
            let n = 1 + rng.below(30);
            return (0..n).map(|_| (rng.below(255) as u8).max(1)).filter(|&b| b != b'\n').collect();
        }
        90..=92 => {
            let n = LONG as u64 * (1 + rng.below(4));
            return (0..n).map(|_| b'a' + rng.below(26) as u8).collect();
        }
        _ => format!("  place  {}  {} \r", rng.below(12), rng.below(12)),
    };
    let text = if rng.chance(10) { text.to_ascii_lowercase() } else { text };
    text.into_bytes()
}

/// Runs stream `seed`: how many moves it asked for and the slowest answer, or what broke,
/// with the lines sent.
fn stream(seed: u64) -> Result<(usize, Duration), String> {
    let mut log = Vec::new();
    run_stream(seed, &mut log).map_err(|e| format!("{e}\nsent: {log:?}"))
}

fn run_stream(seed: u64, log: &mut Vec<String>) -> Result<(usize, Duration), String> {
    let mut rng = Rng::seeded(seed);
    let mut brain = Live::start(&["--ponder"]);
    let mut judge = Timed::new();
    let mut turns = 0;
    let n = 6 + rng.below(10);
    for k in 0..n {
        let mut bytes = if k == 0 && rng.chance(80) {
            format!("START {}", 1 + rng.below(2)).into_bytes()
        } else {
            line(&mut rng, &judge.referee)
        };
        let mut trial = judge.referee.clone();
        trial.send(&String::from_utf8_lossy(&bytes));
        let asks_move = trial.waiting().is_some_and(|(_, d)| d == Due::Move)
            && judge.referee.waiting().is_none();
        if asks_move && turns == TURNS_PER_STREAM {
            bytes = b"PLACE 99 99".to_vec();
        }
        // A judge sends TURN only once the last answer came; other lines may come during a
        // search (the brain must read them then, and act on them after answering).
        if asks_move || rng.chance(60) {
            judge.settle(&mut brain)?;
        }
        if rng.chance(30) {
            // A pause: the brain ponders on the opponent's time.
            std::thread::sleep(Duration::from_millis(rng.below(400)));
        }
        while let Some(got) = brain.try_recv() {
            judge.take(got)?;
        }
        log.push(String::from_utf8_lossy(&bytes).chars().take(40).collect());
        let i = judge.send(&mut brain, &bytes);
        if judge.referee.waiting() == Some((i, Due::Move)) {
            turns += 1;
        }
    }
    if rng.chance(50) {
        let end = format!("END {}", rng.below(3));
        log.push(end.clone());
        judge.send(&mut brain, end.as_bytes());
    }
    // The end of input: any answer still due comes at once, then the brain exits.
    for got in brain.finish(Duration::from_secs(5))? {
        judge.take(got)?;
    }
    judge.referee.finish()?;
    Ok((turns, judge.slowest))
}

#[test]
fn streams_at_the_real_clock_with_pondering_never_break_the_rules() {
    let started = Instant::now();
    let (mut turns, mut slowest) = (0, Duration::ZERO);
    for seed in 1..=STREAMS {
        let (t, s) = stream(seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        turns += t;
        slowest = slowest.max(s);
    }
    // The streams must really ask for moves, or the clock's checks check nothing.
    assert!(turns >= STREAMS as usize, "only {turns} moves asked in {STREAMS} streams");
    eprintln!("{STREAMS} streams, {turns} moves (slowest {slowest:?}), {:?}", started.elapsed());
}
