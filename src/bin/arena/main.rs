//! arena: a local judge that plays two gomoku brains against each other under the 12x12
//! judge's rules and says which is stronger. See `arena --help` and `docs/arena.md`.
//!
//! It deliberately uses nothing from the `wuzi` library, so that a rules bug in the engine
//! under test cannot hide in a referee that shares its code.

mod cli;
mod engine;
mod game;
mod live;
mod openings;
mod process;
mod record;
mod referee;
mod report;
mod stats;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;

use cli::{Options, Parsed};
use engine::{EngineSpec, FaultKind};
use game::{Color, Move};
use referee::{Ending, GameRecord, GameSetup};
use stats::{Decision, Pairs, Wdl};

/// Why a match could not be played.
enum Failure {
    /// Bad usage: exit status 2.
    Usage(String),
    /// An engine could not start, or records could not be written: exit status 1.
    Fatal(String),
}

fn main() -> ExitCode {
    match cli::parse(std::env::args().skip(1)) {
        Ok(Parsed::Help) => {
            print!("{}", cli::USAGE);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("arena: {e}\nTry `arena --help`.");
            ExitCode::from(2)
        }
        Ok(Parsed::Report(specs)) => print_from_records(&specs, report::report),
        Ok(Parsed::Live(share, specs)) => {
            print_from_records(&specs, |runs| live::live_openings(runs, share))
        }
        Ok(Parsed::Run(o)) => match run_match(&o) {
            Ok(()) => ExitCode::SUCCESS,
            Err(Failure::Usage(e)) => {
                eprintln!("arena: {e}");
                ExitCode::from(2)
            }
            Err(Failure::Fatal(e)) => {
                eprintln!("arena: {e}");
                ExitCode::from(1)
            }
        },
    }
}

/// Whether an executable named `name` is on the `PATH`.
fn on_path(name: &str) -> bool {
    std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).any(|dir| dir.join(name).is_file()))
        .unwrap_or(false)
}

/// Running totals of a match, kept by the main thread.
#[derive(Default)]
struct Tally {
    /// A's results with black and with white.
    by_color: [Wdl; 2],
    /// Faults per engine (A, B) by kind name.
    faults: [BTreeMap<&'static str, u32>; 2],
    /// Whether each engine has ever answered START.
    started: [bool; 2],
    /// A's points in the finished pairs of games (games 2k-1 and 2k share an opening).
    pairs: Pairs,
    /// A's score in each finished game whose partner has not finished yet, by game number.
    unpaired: BTreeMap<usize, f64>,
}

impl Tally {
    fn total(&self) -> Wdl {
        self.by_color[0].plus(&self.by_color[1])
    }
}

fn label_index(label: char) -> usize {
    usize::from(label == 'B')
}

fn run_match(o: &Options) -> Result<(), Failure> {
    let mut specs = Vec::new();
    for (i, command) in o.commands.iter().enumerate() {
        let argv = cli::split_words(command).map_err(Failure::Usage)?;
        let label = ['A', 'B'][i];
        specs.push(EngineSpec { label, command: command.clone(), argv, proto: o.protos[i] });
    }
    let openings: Vec<Vec<Move>> = match &o.openings {
        Some(path) => openings::load(path, o.start).map_err(Failure::Usage)?,
        None => vec![Vec::new()],
    };
    let mut pin = o.pin;
    if pin && !(cfg!(target_os = "linux") && on_path("taskset")) {
        eprintln!("arena: warning: --pin needs `taskset` (Linux); engines are not pinned");
        pin = false;
    }
    let cores = thread::available_parallelism().map_or(1, |n| n.get());
    std::fs::create_dir_all(&o.out)
        .map_err(|e| Failure::Fatal(format!("cannot create {}: {e}", o.out.display())))?;

    let mut header = String::new();
    for s in &specs {
        let _ = writeln!(header, "engine {}: {} ({} protocol)", s.label, s.command, s.proto.name());
    }
    let l = &o.limits;
    let _ = writeln!(
        header,
        "{} games; limits: start {} ms, move {} ms, game {} ms, memory {}; records in {}",
        o.games,
        l.start.as_millis(),
        l.per_move.as_millis(),
        l.per_game.as_millis(),
        l.memory_kb.map_or("none".to_string(), |kb| format!("{} MB", kb / 1024)),
        o.out.display()
    );
    print!("{header}");

    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let mut tally = Tally::default();
    let mut decision: Option<(Decision, usize, f64)> = None;
    let mut failure: Option<Failure> = None;
    let mut played = 0;
    let workers = o.concurrency.min(o.games);
    let (tx, rx) = mpsc::channel::<Result<GameRecord, String>>();

    thread::scope(|scope| {
        for w in 0..workers {
            let tx = tx.clone();
            let (specs, openings, next, stop) = (&specs, &openings, &next, &stop);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= o.games || stop.load(Ordering::SeqCst) {
                    break;
                }
                // Colours alternate; each opening is played twice, once with each colour.
                let a_black = i % 2 == 0;
                let (black, white) =
                    if a_black { (&specs[0], &specs[1]) } else { (&specs[1], &specs[0]) };
                let core = |label: char| (2 * w + label_index(label)) % cores;
                let setup = GameSetup {
                    number: i + 1,
                    black,
                    white,
                    start: o.start,
                    opening: &openings[(i / 2) % openings.len()],
                    limits: o.limits,
                    pins: [black.label, white.label].map(|l| pin.then(|| core(l))),
                };
                if tx.send(referee::play_game(&setup)).is_err() {
                    break;
                }
            });
        }
        drop(tx);

        for result in rx {
            if failure.is_some() {
                // The match is void; games still running only need to end.
                continue;
            }
            let g = match result {
                Ok(g) => g,
                Err(e) => {
                    failure = Some(Failure::Fatal(e));
                    stop.store(true, Ordering::SeqCst);
                    continue;
                }
            };
            played += 1;
            if let Err(e) = record::write_game(&o.out, &g, o.debug_log) {
                failure.get_or_insert(Failure::Fatal(e));
                stop.store(true, Ordering::SeqCst);
            }
            if let Some(e) = cannot_start(&g, &tally) {
                failure.get_or_insert(Failure::Fatal(e));
                stop.store(true, Ordering::SeqCst);
            }
            count(&mut tally, &g);
            let mut line = game_line(&g, o.games);
            if let Some(sprt) = &o.sprt {
                // The decision is taken on pairs; the games' ratio is shown beside it.
                let llr = sprt.llr_pairs(&tally.pairs);
                let (lo, hi) = sprt.bounds();
                let games = sprt.llr(&tally.total());
                let _ = write!(line, " | LLR {llr:.2} ({lo:.2}, {hi:.2}), by games {games:.2}");
                if let (None, Some(d)) = (decision, sprt.decide(llr)) {
                    decision = Some((d, played, llr));
                    let _ = write!(line, " {}", decision_text(d));
                    stop.store(true, Ordering::SeqCst);
                }
            }
            println!("{line}");
        }
    });

    if let Some(f) = failure {
        return Err(f);
    }
    let summary = summary(o, &header, &tally, decision);
    print!("{summary}");
    record::write_match(&o.out, &summary).map_err(Failure::Fatal)
}

/// An engine that exits before answering its very first `START` of the match cannot even
/// start (a wrong command line, most likely): that ends the match instead of losing games.
fn cannot_start(g: &GameRecord, tally: &Tally) -> Option<String> {
    for c in [Color::Black, Color::White] {
        let side = &g.sides[c.index()];
        if side.started || tally.started[label_index(side.label)] {
            continue;
        }
        let fault = match &g.ending {
            Ending::Fault { loser, fault } if *loser == c => fault,
            Ending::BothFailedStart { black, white } => {
                if c == Color::Black {
                    black
                } else {
                    white
                }
            }
            _ => continue,
        };
        if fault.kind == FaultKind::Exited {
            let stderr = side.stderr.last().map_or(String::new(), |l| format!("; stderr: {l}"));
            // The detail ends with the exit status after the last `; `.
            let status = fault.detail.rsplit("; ").next().unwrap_or("");
            return Some(format!(
                "engine {} ({}) cannot start: it exited before answering START ({status}){stderr}",
                side.label, side.command
            ));
        }
    }
    None
}

fn count(tally: &mut Tally, g: &GameRecord) {
    tally.by_color[g.a_color().index()].add(g.a_score());
    let partner = if g.number % 2 == 1 { g.number + 1 } else { g.number - 1 };
    match tally.unpaired.remove(&partner) {
        Some(other) => tally.pairs.add(other + g.a_score()),
        None => {
            tally.unpaired.insert(g.number, g.a_score());
        }
    }
    for side in &g.sides {
        tally.started[label_index(side.label)] |= side.started;
    }
    let mut note = |c: Color, kind: FaultKind| {
        let label = g.sides[c.index()].label;
        *tally.faults[label_index(label)].entry(kind.name()).or_insert(0) += 1;
    };
    match &g.ending {
        Ending::Fault { loser, fault } => note(*loser, fault.kind),
        Ending::BothFailedStart { black, white } => {
            note(Color::Black, black.kind);
            note(Color::White, white.kind);
        }
        _ => {}
    }
}

/// The line printed when a game finishes.
fn game_line(g: &GameRecord, total: usize) -> String {
    let max = |label: char| g.sides.iter().find(|s| s.label == label).map_or(0, |s| s.max_move_ms);
    format!(
        "game {}/{} black={}: {}; {} moves; max move ms A={} B={}",
        g.number,
        total,
        g.sides[0].label,
        g.summary(),
        g.moves.len(),
        max('A'),
        max('B')
    )
}

fn decision_text(d: Decision) -> &'static str {
    match d {
        Decision::H1 => "H1 accepted (A stronger)",
        Decision::H0 => "H0 accepted (A not stronger)",
    }
}

/// Reads the runs of record directories (each: directories joined by commas) and prints what
/// `text` makes of them; a run that cannot be read is an error (exit status 1).
fn print_from_records(specs: &[String], text: impl Fn(&[report::Run]) -> String) -> ExitCode {
    match specs.iter().map(|spec| report::Run::load(spec)).collect::<Result<Vec<_>, _>>() {
        Ok(runs) => {
            print!("{}", text(&runs));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("arena: {e}");
            ExitCode::from(1)
        }
    }
}

/// The end-of-match report (also written to `match.txt`).
fn summary(
    o: &Options,
    header: &str,
    t: &Tally,
    decision: Option<(Decision, usize, f64)>,
) -> String {
    let mut s = String::new();
    let total = t.total();
    let _ = writeln!(s, "\n== match result ({} games played)", total.games());
    s.push_str(header);
    s.push_str(&report::result_table(&t.by_color, &t.pairs));
    for (i, label) in ['A', 'B'].into_iter().enumerate() {
        s.push_str(&report::faults_line(label, &t.faults[i]));
    }
    if let Some(sprt) = &o.sprt {
        let (lo, hi) = sprt.bounds();
        let llr = sprt.llr_pairs(&t.pairs);
        let games = sprt.llr(&total);
        let verdict = match decision {
            // Games still in flight finish after the decision and enter the final LLR, which
            // may then sit back inside the bounds: say where the decision was taken.
            Some((d, n, at)) => {
                format!("{} after {n} games (LLR {at:.2} then)", decision_text(d))
            }
            None => "no decision (bounds not reached)".to_string(),
        };
        let _ = writeln!(
            s,
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} by pairs (by games {games:.2}) \
             bounds ({lo:.2}, {hi:.2}): {verdict}",
            sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
        );
    }
    s
}
