//! fakebrain: a tiny gomoku brain that behaves well or badly on purpose, to test the arena.
//!
//! `fakebrain [--proto judge|piskvork] MODE [SEED]`
//!
//! Modes: `good` (legal moves: win, else block, else the empty point nearest the centre, or a
//! seeded random point near the stones when SEED is given), `slow` (sleeps 2.5 s before each
//! move), `slow-ok` (sleeps 1.5 s before answering START), `chatty` (prints a non-DEBUG line
//! in the same write as each move), `crash` (exits with status 3 on its 3rd TURN), `illegal`
//! (answers a point that holds a stone), `offboard` (answers row 12), `malformed` (answers
//! `hello`), `early-exit` (exits after its 2nd move, without waiting for END), `hog`
//! (touches ~400 MB before its first move), `total-time [MS]` (takes MS, default 1900, ms
//! per move: within the move limit, over the game limit in the end), `ignore-end`
//! (keeps running after END). Every mode but the broken ones plays like `good`.

use std::io::{self, BufRead, Write};
use std::thread::sleep;
use std::time::Duration;

const N: usize = 12;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Proto {
    Judge,
    Piskvork,
}

struct Brain {
    mode: String,
    /// Random state when a seed was given (not in `total-time` mode).
    rng: Option<u64>,
    /// The delay per move in `total-time` mode.
    delay_ms: u64,
    /// 0 empty, 1 mine, 2 the opponent's.
    board: [[u8; N]; N],
    turns: u32,
    proto: Proto,
}

impl Brain {
    fn five(&self, r: usize, c: usize, who: u8) -> bool {
        let dirs: [(i64, i64); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
        dirs.iter().any(|&(dr, dc)| {
            let mut count = 1;
            for sign in [1i64, -1] {
                let (mut y, mut x) = (r as i64 + sign * dr, c as i64 + sign * dc);
                while (0..N as i64).contains(&y)
                    && (0..N as i64).contains(&x)
                    && self.board[y as usize][x as usize] == who
                {
                    count += 1;
                    y += sign * dr;
                    x += sign * dc;
                }
            }
            count >= 5
        })
    }

    fn empties(&self) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        for r in 0..N {
            for c in 0..N {
                if self.board[r][c] == 0 {
                    v.push((r, c));
                }
            }
        }
        v
    }

    fn near_stone(&self, r: usize, c: usize) -> bool {
        (r.saturating_sub(2)..(r + 3).min(N))
            .any(|y| (c.saturating_sub(2)..(c + 3).min(N)).any(|x| self.board[y][x] != 0))
    }

    fn choose(&mut self) -> (usize, usize) {
        let empties = self.empties();
        for who in [1, 2] {
            if let Some(&p) = empties.iter().find(|&&(r, c)| self.five(r, c, who)) {
                return p;
            }
        }
        let near: Vec<_> =
            empties.iter().copied().filter(|&(r, c)| self.near_stone(r, c)).collect();
        if let Some(state) = self.rng.as_mut() {
            let pool = if near.is_empty() { &empties } else { &near };
            // A 64-bit LCG is plenty to vary the games.
            *state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            return pool[((*state >> 33) as usize) % pool.len()];
        }
        let dist = |&(r, c): &(usize, usize)| {
            let (dr, dc) = (2 * r as i64 - 11, 2 * c as i64 - 11);
            dr * dr + dc * dc
        };
        *empties.iter().min_by_key(|p| dist(p)).expect("an empty point")
    }

    fn say(&self, line: &str) {
        let mut out = io::stdout().lock();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }

    fn move_text(&self, r: usize, c: usize) -> String {
        match self.proto {
            Proto::Judge => format!("{r} {c}"),
            Proto::Piskvork => format!("{c},{r}"),
        }
    }

    fn say_move(&self, r: usize, c: usize) {
        self.say(&self.move_text(r, c));
    }

    /// Answers one move request according to the mode.
    fn turn(&mut self) {
        self.turns += 1;
        let log = if self.proto == Proto::Judge { "DEBUG" } else { "MESSAGE" };
        self.say(&format!("{log} fakebrain {} turn {}", self.mode, self.turns));
        match self.mode.as_str() {
            "slow" => sleep(Duration::from_millis(2500)),
            "total-time" => sleep(Duration::from_millis(self.delay_ms)),
            "crash" if self.turns == 3 => {
                eprintln!("fakebrain: crashing on purpose");
                std::process::exit(3);
            }
            "illegal" => {
                let taken =
                    (0..N * N).map(|i| (i / N, i % N)).find(|&(r, c)| self.board[r][c] != 0);
                let (r, c) = taken.unwrap_or((5, 5));
                return self.say_move(r, c);
            }
            "offboard" => return self.say_move(N, 0),
            "malformed" => return self.say("hello"),
            "hog" => {
                let mut v = vec![0u8; 400 << 20];
                for i in (0..v.len()).step_by(4096) {
                    v[i] = 1;
                }
                // Kept (leaked) and made opaque so the optimizer cannot drop the pages.
                std::hint::black_box(Box::leak(v.into_boxed_slice()));
            }
            _ => {}
        }
        let (r, c) = self.choose();
        self.board[r][c] = 1;
        if self.mode == "chatty" {
            // One write, so the stray line reaches the judge together with the move.
            self.say(&format!("{}\nhello, I am still here", self.move_text(r, c)));
        } else {
            self.say_move(r, c);
        }
        if self.mode == "early-exit" && self.turns == 2 {
            std::process::exit(0);
        }
    }

    fn put(&mut self, r: &str, c: &str, who: u8) {
        if let (Ok(r), Ok(c)) = (r.trim().parse::<usize>(), c.trim().parse::<usize>()) {
            if r < N && c < N {
                self.board[r][c] = who;
            }
        }
    }

    fn end(&self) {
        if self.mode == "ignore-end" {
            sleep(Duration::from_secs(30));
        }
        std::process::exit(0);
    }

    fn judge_line(&mut self, words: &[&str]) {
        match words {
            ["START", f] => {
                self.board = [[0; N]; N];
                let me: u8 = if *f == "1" { 1 } else { 2 };
                // The judge's four stones: black at 5,6 and 6,5, white at 5,5 and 6,6.
                let (black, white) = if me == 1 { (1, 2) } else { (2, 1) };
                self.board[5][6] = black;
                self.board[6][5] = black;
                self.board[5][5] = white;
                self.board[6][6] = white;
                if self.mode == "slow-ok" {
                    sleep(Duration::from_millis(1500));
                }
                self.say("OK");
            }
            ["PLACE", r, c] => self.put(r, c, 2),
            ["MINE", r, c] => self.put(r, c, 1),
            ["TURN"] => self.turn(),
            ["END", ..] => self.end(),
            _ => {}
        }
    }

    fn piskvork_line(&mut self, line: &str, lines: &mut impl Iterator<Item = String>) {
        let (cmd, rest) = line.split_once(' ').unwrap_or((line, ""));
        match cmd {
            "START" => {
                self.board = [[0; N]; N];
                self.say("OK");
            }
            "BEGIN" => self.turn(),
            "TURN" => {
                if let Some((x, y)) = rest.split_once(',') {
                    self.put(y, x, 2);
                }
                self.turn();
            }
            "BOARD" => {
                self.board = [[0; N]; N];
                for l in lines.by_ref() {
                    let l = l.trim().to_string();
                    if l == "DONE" {
                        break;
                    }
                    let f: Vec<&str> = l.split(',').collect();
                    if let [x, y, who] = f[..] {
                        self.put(y, x, if who.trim() == "1" { 1 } else { 2 });
                    }
                }
                self.turn();
            }
            "END" => self.end(),
            _ => {}
        }
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut proto = Proto::Judge;
    if args.first().map(String::as_str) == Some("--proto") && args.len() > 1 {
        proto = if args[1] == "piskvork" { Proto::Piskvork } else { Proto::Judge };
        args.drain(..2);
    }
    let mode = args.first().cloned().unwrap_or_else(|| "good".to_string());
    // The numeric argument is the seed, except in `total-time` mode where it is the delay.
    let number = args.get(1).and_then(|s| s.parse::<u64>().ok());
    let (rng, delay_ms) =
        if mode == "total-time" { (None, number.unwrap_or(1900)) } else { (number, 1900) };
    let mut brain = Brain { mode, rng, delay_ms, board: [[0; N]; N], turns: 0, proto };
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines().map_while(Result::ok);
    while let Some(line) = lines.next() {
        let line = line.trim().to_string();
        match proto {
            Proto::Judge => {
                let words: Vec<&str> = line.split_whitespace().collect();
                brain.judge_line(&words);
            }
            Proto::Piskvork => brain.piskvork_line(&line, &mut lines),
        }
    }
}
