//! Command-line options, the usage text, and shell-like splitting of engine command lines.

use std::path::PathBuf;
use std::time::Duration;

use crate::engine::{Limits, Proto};
use crate::referee::Start;
use crate::stats::Sprt;

/// The text printed by `--help`.
pub const USAGE: &str = "\
arena: plays two gomoku brains against each other under the 12x12 judge's rules.

USAGE:
    arena [OPTIONS] 'COMMAND A' 'COMMAND B'
    arena --report RUN [RUN...]
    arena --live-openings SHARE RUN [RUN...]

Each COMMAND is a command line split into words as a shell would (quotes and backslashes
work; no variables or globs), e.g. 'target/release/wuzi' or './brain --level \"very hard\"'.
Game 1 gives A black, game 2 gives B black, and so on. Every game starts fresh processes.

OPTIONS:
    --games N            games to play (default 2)
    --openings FILE      openings, one a line: `row,col` moves separated by blanks, played
                         black first after the start stones; `#` starts a comment. Each
                         opening is played twice with colours swapped; the list is cycled
    --start judge|empty  start position: the judge's four stones (default: white 5,5 6,6;
                         black 5,6 6,5) or an empty board (piskvork engines only)
    --proto-a P          protocol of engine A: judge (default) or piskvork (Gomocup)
    --proto-b P          protocol of engine B
    --proto P            protocol of both engines
    --move-time-ms N     time to answer one TURN (default 2000)
    --game-time-ms N     thinking time per side per game (default 90000)
    --start-time-ms N    time to answer START with OK (default 1000)
    --memory-mb N        peak resident memory limit in MB, 0 for none (default 350)
    --end-grace-ms N     time to exit after END before being killed (default 500)
    --concurrency K      games played at once (default 1)
    --pin                pin each engine to its own core with `taskset -c` (Linux)
    --sprt E0,E1,A,B     SPRT of H0 \"A is E0 Elo stronger\" against H1 \"A is E1 Elo
                         stronger\" with error rates alpha A and beta B, e.g. 0,10,0.05,0.05;
                         the match stops when the log-likelihood ratio of the game pairs
                         (the two games of an opening) crosses a bound
    --out DIR            where records go (default arena-out/): game-NNNN.txt per game and
                         match.txt; files of the same name are overwritten
    --debug-log          also record each side's DEBUG lines
    --report             play nothing: read the records of matches already played and
                         print their figures. Each RUN is one or more record directories
                         joined by commas (a run played in blocks); for each run and for
                         all of them pooled: the score by games, by opening pairs and by
                         colour, the faults, engine A's slowest move, game totals and
                         memory; with two runs or more, the score per opening that every
                         run played, with the interval for these openings and the one for
                         openings in general, and how many games ended alike
    --live-openings S    play nothing: read the records of matches already played and
                         print, as an openings file, the openings where each colour took
                         more than the share S (e.g. 0.1) of the points over all their
                         games. The others are settled by the colours between engines this
                         close: each of their pairs scores 1 and tells nothing
    -h, --help           print this text

RULES ENFORCED (each breach loses the game at once, the reason is reported):
    OK within the start time; each move within the move time; at most the game time of
    thinking per side (TURN to answer; for the judge protocol START to OK counts too);
    any non-DEBUG line while no answer is due; a malformed answer; a point off the board or
    on a stone; exiting before END; peak memory (VmHWM, Linux only) over the limit.
    Five or more in a row wins; a full board is a draw.

PROTOCOLS:
    judge     START F -> OK; PLACE X Y; TURN -> `X Y` (row col); END F (0 draw, 1 won,
              2 lost); `DEBUG ...` lines are logs. Opening stones are sent after OK as
              `PLACE X Y` (opponent's colour) and `MINE X Y` (the engine's own colour,
              an arena extension), in the order played.
    piskvork  START 12 -> OK; INFO timeout_turn/timeout_match/max_memory/rule/time_left;
              BOARD, `x,y,1|2` lines, DONE -> `x,y`; BEGIN -> `x,y`; TURN x,y -> `x,y`;
              END. x is the column, y the row. MESSAGE/DEBUG/UNKNOWN/ERROR lines are logs.

EXIT STATUS:
    0 the match was played (whoever won); 1 an engine could not start or the records could
    not be written; 2 bad usage.
";

/// Everything the command line says.
#[derive(Clone, Debug)]
pub struct Options {
    /// Number of games.
    pub games: usize,
    /// Openings file.
    pub openings: Option<PathBuf>,
    /// Start position.
    pub start: Start,
    /// Protocols of A and B.
    pub protos: [Proto; 2],
    /// Time and memory limits.
    pub limits: Limits,
    /// Games at once.
    pub concurrency: usize,
    /// Pin engines to cores.
    pub pin: bool,
    /// SPRT parameters.
    pub sprt: Option<Sprt>,
    /// Record directory.
    pub out: PathBuf,
    /// Record DEBUG lines.
    pub debug_log: bool,
    /// Command lines of A and B, as given.
    pub commands: [String; 2],
}

/// What the command line asks for.
#[derive(Debug)]
pub enum Parsed {
    /// Play a match.
    Run(Box<Options>),
    /// Report on the records of these runs (each: directories joined by commas).
    Report(Vec<String>),
    /// Print the openings of these runs that each colour scores in, above this share.
    Live(f64, Vec<String>),
    /// Print the usage.
    Help,
}

fn number(name: &str, value: &str) -> Result<u64, String> {
    value.parse::<u64>().map_err(|_| format!("{name} wants a whole number, got {value:?}"))
}

fn proto(name: &str, value: &str) -> Result<Proto, String> {
    match value {
        "judge" => Ok(Proto::Judge),
        "piskvork" | "gomocup" => Ok(Proto::Piskvork),
        _ => Err(format!("{name} wants judge or piskvork, got {value:?}")),
    }
}

/// Parses the arguments after the program name.
pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Parsed, String> {
    let mut o = Options {
        games: 2,
        openings: None,
        start: Start::Judge,
        protos: [Proto::Judge, Proto::Judge],
        limits: Limits {
            start: Duration::from_millis(1000),
            per_move: Duration::from_millis(2000),
            per_game: Duration::from_millis(90_000),
            memory_kb: Some(350 * 1024),
            end_grace: Duration::from_millis(500),
        },
        concurrency: 1,
        pin: false,
        sprt: None,
        out: PathBuf::from("arena-out"),
        debug_log: false,
        commands: [String::new(), String::new()],
    };
    let mut positional = Vec::new();
    let mut args = args.into_iter();
    let mut only_positional = false;
    let mut report = false;
    let mut live = None;
    while let Some(arg) = args.next() {
        if only_positional || !arg.starts_with('-') || arg == "-" {
            positional.push(arg);
            continue;
        }
        // Both `--opt value` and `--opt=value` are accepted.
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = || {
            inline.clone().or_else(|| args.next()).ok_or_else(|| format!("{name} needs a value"))
        };
        let ms = |v: u64| Duration::from_millis(v);
        match name.as_str() {
            "-h" | "--help" => return Ok(Parsed::Help),
            "--" => only_positional = true,
            "--games" => o.games = number(&name, &value()?)? as usize,
            "--openings" => o.openings = Some(PathBuf::from(value()?)),
            "--start" => {
                o.start = match value()?.as_str() {
                    "judge" => Start::Judge,
                    "empty" => Start::Empty,
                    v => return Err(format!("--start wants judge or empty, got {v:?}")),
                }
            }
            "--proto-a" => o.protos[0] = proto(&name, &value()?)?,
            "--proto-b" => o.protos[1] = proto(&name, &value()?)?,
            "--proto" => {
                let p = proto(&name, &value()?)?;
                o.protos = [p, p];
            }
            "--move-time-ms" => o.limits.per_move = ms(number(&name, &value()?)?),
            "--game-time-ms" => o.limits.per_game = ms(number(&name, &value()?)?),
            "--start-time-ms" => o.limits.start = ms(number(&name, &value()?)?),
            "--end-grace-ms" => o.limits.end_grace = ms(number(&name, &value()?)?),
            "--memory-mb" => {
                let mb = number(&name, &value()?)?;
                o.limits.memory_kb = (mb > 0).then_some(mb * 1024);
            }
            "--concurrency" => o.concurrency = number(&name, &value()?)? as usize,
            "--pin" => o.pin = true,
            "--sprt" => o.sprt = Some(Sprt::parse(&value()?)?),
            "--out" => o.out = PathBuf::from(value()?),
            "--debug-log" => o.debug_log = true,
            "--report" => report = true,
            "--live-openings" => {
                let v = value()?;
                match v.parse::<f64>() {
                    Ok(share) if (0.0..0.5).contains(&share) => live = Some(share),
                    _ => {
                        return Err(format!(
                            "--live-openings wants a share from 0 to 0.5, got {v:?}"
                        ))
                    }
                }
            }
            _ => return Err(format!("unknown option {arg:?}")),
        }
        if inline.is_some()
            && matches!(name.as_str(), "--pin" | "--debug-log" | "--help" | "--report")
        {
            return Err(format!("{name} takes no value"));
        }
    }
    if let Some(share) = live {
        if report || positional.is_empty() {
            return Err("--live-openings wants at least one run and no --report".to_string());
        }
        return Ok(Parsed::Live(share, positional));
    }
    if report {
        if positional.is_empty() {
            return Err("--report wants at least one run: record directories".to_string());
        }
        return Ok(Parsed::Report(positional));
    }
    if positional.len() != 2 {
        return Err(format!(
            "expected two engine command lines, got {}: {positional:?}",
            positional.len()
        ));
    }
    if o.games == 0 {
        return Err("--games must be at least 1".to_string());
    }
    if o.concurrency == 0 {
        return Err("--concurrency must be at least 1".to_string());
    }
    if o.start == Start::Empty && o.protos.contains(&Proto::Judge) {
        return Err("--start empty needs piskvork engines: a judge-protocol brain always \
                    starts from the four stones"
            .to_string());
    }
    for (i, cmd) in positional.iter().enumerate() {
        if split_words(cmd)?.is_empty() {
            return Err(format!("engine {} has an empty command line", ['A', 'B'][i]));
        }
    }
    o.commands = [positional[0].clone(), positional[1].clone()];
    Ok(Parsed::Run(Box::new(o)))
}

/// Splits a command line into words like a POSIX shell: blanks separate words, `'...'` is
/// literal, `"..."` is literal except `\"`, `\\`, `\$` and `` \` ``, and a backslash outside
/// quotes takes the next character literally.
pub fn split_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("unterminated ' in {line:?}")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some('\n') => {}
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(format!("unterminated \" in {line:?}")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(format!("unterminated \" in {line:?}")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err(format!("trailing backslash in {line:?}")),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn splits_like_a_shell() {
        assert_eq!(split_words("a  b\tc").unwrap(), args(&["a", "b", "c"]));
        assert_eq!(
            split_words("./x 'a b' \"c \\\"d\\\"\"").unwrap(),
            args(&["./x", "a b", "c \"d\""])
        );
        assert_eq!(split_words("a\\ b ''").unwrap(), args(&["a b", ""]));
        assert_eq!(split_words("p\"q r\"s").unwrap(), args(&["pq rs"]));
        assert!(split_words("'open").is_err());
        assert!(split_words("\"open").is_err());
        assert!(split_words("   ").unwrap().is_empty());
    }

    #[test]
    fn parses_options() {
        let Parsed::Run(o) = parse(args(&[
            "--games=6",
            "--proto-b",
            "piskvork",
            "--move-time-ms",
            "300",
            "--memory-mb",
            "0",
            "--sprt",
            "0,10,0.05,0.05",
            "a",
            "b c",
        ]))
        .unwrap() else {
            panic!("not a run")
        };
        assert_eq!(o.games, 6);
        assert_eq!(o.protos, [Proto::Judge, Proto::Piskvork]);
        assert_eq!(o.limits.per_move, Duration::from_millis(300));
        assert_eq!(o.limits.memory_kb, None);
        assert!(o.sprt.is_some());
        assert_eq!(o.commands, ["a".to_string(), "b c".to_string()]);
    }

    #[test]
    fn rejects_bad_usage() {
        assert!(parse(args(&["a"])).is_err());
        assert!(parse(args(&["--games", "x", "a", "b"])).is_err());
        assert!(parse(args(&["--bogus", "a", "b"])).is_err());
        assert!(parse(args(&["--start", "empty", "a", "b"])).is_err());
        assert!(parse(args(&["--games"])).is_err());
        assert!(matches!(parse(args(&["--help"])), Ok(Parsed::Help)));
        assert!(parse(args(&["--report"])).is_err(), "a report needs a run");
        assert!(parse(args(&["--report=yes", "d"])).is_err());
    }

    #[test]
    fn live_openings_take_a_share_and_runs() {
        let Parsed::Live(share, runs) =
            parse(args(&["--live-openings", "0.1", "a,b", "c"])).unwrap()
        else {
            panic!("not a choice of openings")
        };
        assert_eq!((share, runs), (0.1, vec!["a,b".to_string(), "c".to_string()]));
        assert!(parse(args(&["--live-openings", "0.1"])).is_err(), "no run");
        assert!(parse(args(&["--live-openings", "0.5", "a"])).is_err(), "nothing can pass");
        assert!(parse(args(&["--live-openings", "x", "a"])).is_err());
        assert!(parse(args(&["--live-openings", "0.1", "--report", "a"])).is_err());
    }

    #[test]
    fn a_report_takes_runs_of_directories() {
        let Parsed::Report(runs) = parse(args(&["--report", "a,b", "c"])).unwrap() else {
            panic!("not a report")
        };
        assert_eq!(runs, ["a,b".to_string(), "c".to_string()]);
    }
}
