//! The command line: which front-end to run and with what settings.

use crate::board::StartPos;
use crate::clock::budget::Limits;
use crate::engine::Fault;
use crate::frontend::protocol::Settings;

/// Usage text for `--help`.
pub const USAGE: &str = "\
wuzi: a gomoku (five in a row, freestyle) brain

usage:
  wuzi [OPTIONS]            speak the 12x12 judge protocol on stdin/stdout (the default)
  wuzi --protocol piskvork  speak the Gomocup (piskvork) protocol, boards 5x5 to 15x15
  wuzi --protocol matrix [--size N]
                            the board-matrix judge: print 'init end', then answer each
                            colour + N x N board with 'row col' (N = 11 by default)
  wuzi play [--black|--white] [--empty] [--time MS] [--size N]
                            play a game by hand in the terminal (you are black unless
                            --white; from the judge's four stones unless --empty)
  wuzi book build|prove|refresh|export|stats ...
                            make or describe the opening book (wuzi book help)
  wuzi bench [DEPTH] [--stats]
                            search the bench positions to a fixed depth; print nodes and nps
                            (--stats: and where the nodes went, crate::search::stats)

options:
  --start center4|empty     each game's start: the judge's four stones (default) or empty
  --hash MB                 transposition table size (default 64)
  --depth N                 think to a fixed depth instead of using the clock (deterministic)
  --nodes N                 think for a fixed number of nodes instead (deterministic)
  --movetime MS             think a fixed time per move
  --move-ms MS, --game-ms MS
                            the judge's clock the brain plans on: per move (default 2000)
                            and per game (default 90000); smaller for faster matches
  --board / --no-board      draw the board as DEBUG lines after each move
                            (default: on when stdin is a terminal)
  --quiet                   no search summary after each move
  --ponder / --no-ponder    think on the opponent's time, or not (on by default; never
                            with a fixed --depth/--nodes/--movetime)
  --no-book                 never play the opening book's moves (judge start only)
  --safety-net              answer with the instant safety-net chooser alone (weak; a
                            sparring partner for matches and tests)
  --fault search-panic      make the search panic (to test the safety net)
  -h, --help                this text
  -V, --version             the version
";

/// Which protocol a brain speaks on stdin/stdout.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// The 12×12 judge's (the default).
    Judge,
    /// Gomocup's (piskvork).
    Piskvork,
    /// The 11×11 board-matrix judge's, with the board size.
    Matrix(usize),
}

/// What the command line asks for.
#[derive(Debug)]
pub enum Action {
    /// Play a protocol.
    Judge(Settings, Protocol),
    /// Play a game by hand in the terminal.
    Play(crate::frontend::play::Options),
    /// Run the bench to the given depth (or the default), with the search's instruments
    /// printed after it or not (`--stats`).
    Bench(Option<i32>, bool),
    /// Make or describe the opening book (`wuzi book ...`): the tools' `bookgen`, which the
    /// full binary hands over in [`Host::book_tools`] and the bundle does not.
    Book(Vec<String>),
    /// Print this text and exit 0.
    Print(String),
}

fn value<'a>(args: &mut impl Iterator<Item = &'a String>, name: &str) -> Result<&'a str, String> {
    args.next().map(|s| s.as_str()).ok_or_else(|| format!("{name} needs a value"))
}

fn number<T: std::str::FromStr>(text: &str, name: &str) -> Result<T, String> {
    text.parse().map_err(|_| format!("{name}: '{text}' is not a valid number"))
}

/// Parses the arguments (without the program name). `stdin_is_terminal` picks the board
/// drawing default.
pub fn parse(args: &[String], stdin_is_terminal: bool) -> Result<Action, String> {
    let mut settings = Settings { show_board: stdin_is_terminal, ..Settings::default() };
    let mut it = args.iter();
    let mut bench = None;
    let mut protocol = Protocol::Judge;
    let mut matrix_size = crate::frontend::matrix::DEFAULT_SIZE;
    let mut play: Option<crate::frontend::play::Options> = None;
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "-h" | "--help" => return Ok(Action::Print(USAGE.to_string())),
            "-V" | "--version" => {
                return Ok(Action::Print(format!("wuzi {}\n", env!("CARGO_PKG_VERSION"))))
            }
            "book" => return Ok(Action::Book(it.cloned().collect())),
            "play" => play = Some(crate::frontend::play::Options::default()),
            "--black" | "--white" | "--empty" | "--time" if play.is_none() => {
                return Err(format!("{arg} goes with 'wuzi play'"))
            }
            "--black" => play.as_mut().unwrap().human_black = true,
            "--white" => play.as_mut().unwrap().human_black = false,
            "--empty" => play.as_mut().unwrap().start = StartPos::Empty,
            "--time" => play.as_mut().unwrap().think_ms = number(value(&mut it, arg)?, arg)?,
            "--protocol" => {
                protocol = match value(&mut it, arg)? {
                    "judge" => Protocol::Judge,
                    "piskvork" | "gomocup" => Protocol::Piskvork,
                    "matrix" => Protocol::Matrix(0),
                    other => {
                        return Err(format!(
                            "--protocol: '{other}' is not judge, piskvork or matrix"
                        ))
                    }
                }
            }
            "--size" => {
                let n: usize = number(value(&mut it, arg)?, arg)?;
                if !(crate::board::MIN_SIZE..=crate::board::MAX_SIZE).contains(&n) {
                    return Err("--size: from 5 to 15".into());
                }
                matrix_size = n;
                if let Some(p) = play.as_mut() {
                    p.size = n;
                }
            }
            "bench" => {
                // `bench [DEPTH] [--stats]`, in either order.
                let (mut depth, mut stats) = (None, false);
                while let Some(next) = it.as_slice().first() {
                    if next == "--stats" && !stats {
                        stats = true;
                    } else if depth.is_none() && next.parse::<i32>().is_ok() {
                        depth = Some(number(next, "bench")?);
                    } else {
                        break;
                    }
                    it.next();
                }
                bench = Some((depth, stats));
            }
            "--start" => {
                settings.start = match value(&mut it, arg)? {
                    "center4" => StartPos::Center4,
                    "empty" => StartPos::Empty,
                    other => return Err(format!("--start: '{other}' is not center4 or empty")),
                }
            }
            "--hash" => {
                let mb: usize = number(value(&mut it, arg)?, arg)?;
                if !(1..=256).contains(&mb) {
                    return Err("--hash: from 1 to 256 MB".into());
                }
                settings.hash_mb = mb;
            }
            "--depth" => settings.fixed = Some(Limits::depth(number(value(&mut it, arg)?, arg)?)),
            "--nodes" => settings.fixed = Some(Limits::nodes(number(value(&mut it, arg)?, arg)?)),
            "--move-ms" | "--game-ms" => {
                let ms: u64 = number(value(&mut it, arg)?, arg)?;
                if ms < 100 {
                    return Err(format!("{arg}: at least 100 ms"));
                }
                if arg == "--move-ms" {
                    settings.move_ms = ms;
                } else {
                    settings.game_ms = ms;
                }
            }
            "--movetime" => {
                settings.fixed = Some(Limits::movetime(number(value(&mut it, arg)?, arg)?))
            }
            "--board" => settings.show_board = true,
            "--no-board" => settings.show_board = false,
            "--quiet" => settings.verbose = false,
            "--ponder" => settings.ponder = true,
            "--no-ponder" => settings.ponder = false,
            "--safety-net" => settings.safety_net_only = true,
            "--no-book" => settings.book = false,
            "--fault" => {
                settings.fault = match value(&mut it, arg)? {
                    "search-panic" => Fault::SearchPanic,
                    other => return Err(format!("--fault: unknown fault '{other}'")),
                }
            }
            other => return Err(format!("unknown argument '{other}' (try --help)")),
        }
    }
    if let Protocol::Matrix(_) = protocol {
        protocol = Protocol::Matrix(matrix_size);
    }
    Ok(match (bench, play) {
        (Some((depth, stats)), _) => Action::Bench(depth, stats),
        (None, Some(mut options)) => {
            options.hash_mb = settings.hash_mb;
            Action::Play(options)
        }
        (None, None) => Action::Judge(settings, protocol),
    })
}

/// What the program that runs the brain brings from outside the brain's own modules.
pub struct Host {
    /// Whether standard input is a terminal (the board is then drawn by default). The
    /// cargo-built binary asks std; the bundle cannot (`std::io::IsTerminal` is newer than
    /// the judge's compilers) and says no, so there `--board` draws it.
    pub stdin_is_terminal: bool,
    /// `wuzi book ...`: the opening book's tools, which the bundle leaves out.
    pub book_tools: Option<fn(&[String]) -> i32>,
}

/// Runs the program with `args` (without the program name); returns the exit code.
pub fn main_with_args(args: &[String], host: &Host) -> i32 {
    match parse(args, host.stdin_is_terminal) {
        Ok(Action::Print(text)) => {
            print!("{text}");
            0
        }
        Ok(Action::Book(rest)) => match host.book_tools {
            Some(tools) => tools(&rest),
            None => {
                eprintln!("wuzi: this build has no book tools: run `wuzi book` from the crate");
                2
            }
        },
        Ok(Action::Bench(depth, stats)) => {
            crate::search::bench::run(depth, stats);
            0
        }
        Ok(Action::Judge(settings, protocol)) => {
            let input = Box::new(std::io::stdin());
            match protocol {
                Protocol::Judge => {
                    crate::frontend::protocol::run(&settings, input, std::io::stdout())
                }
                Protocol::Piskvork => {
                    crate::frontend::piskvork::run(&settings, input, std::io::stdout())
                }
                Protocol::Matrix(n) => {
                    crate::frontend::matrix::run(&settings, n, input, std::io::stdout())
                }
            }
            0
        }
        Ok(Action::Play(options)) => {
            let stdin = std::io::stdin();
            crate::frontend::play::run(&options, &mut stdin.lock(), &mut std::io::stdout());
            0
        }
        Err(why) => {
            eprintln!("wuzi: {why}");
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bench(args: &[&str]) -> Result<(Option<i32>, bool), String> {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        match parse(&args, false)? {
            Action::Bench(depth, stats) => Ok((depth, stats)),
            _ => Err("not the bench".into()),
        }
    }

    #[test]
    fn bench_takes_a_depth_and_stats_in_either_order() {
        assert_eq!(bench(&["bench"]), Ok((None, false)));
        assert_eq!(bench(&["bench", "12"]), Ok((Some(12), false)));
        assert_eq!(bench(&["bench", "--stats"]), Ok((None, true)));
        assert_eq!(bench(&["bench", "12", "--stats"]), Ok((Some(12), true)));
        assert_eq!(bench(&["bench", "--stats", "9"]), Ok((Some(9), true)));
        // What follows is an option of its own, not the bench's.
        assert_eq!(bench(&["bench", "--hash", "16"]), Ok((None, false)));
        assert!(bench(&["bench", "12", "--stats", "--stats"]).is_err());
    }
}
