//! The defence runner asks brains in either protocol: the same brain, asked the same
//! position through the judge's protocol and through Gomocup's `BOARD`, must see the same
//! position and so, at a fixed node count, play the same move.

use std::process::Command;

const DEFENCE: &str = env!("CARGO_BIN_EXE_defence");
const WUZI: &str = env!("CARGO_BIN_EXE_wuzi");

/// `defence run` over `suite` with `args` before it; its standard output.
fn run(args: &[&str], suite: &std::path::Path) -> String {
    let out = Command::new(DEFENCE).arg("run").args(args).arg(suite).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_gomocup_brain_is_asked_the_same_position_as_a_judge_brain() {
    // The second entry of the Rapfi suite (not a forced reply): five moves after the start
    // stones, white to move.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/defence12-rapfi.txt"
    ))
    .unwrap();
    let entry = text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).nth(1);
    let suite = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("defence-one.txt");
    std::fs::write(&suite, format!("{}\n", entry.unwrap())).unwrap();
    let judge = run(&["--brain", &format!("{WUZI} --no-book --nodes 20000")], &suite);
    let gomocup = run(
        &[
            "--protocol",
            "piskvork",
            "--brain",
            &format!("{WUZI} --protocol piskvork --nodes 20000"),
        ],
        &suite,
    );
    let played = |s: &str| s.lines().find(|l| l.contains("played")).map(str::to_string);
    assert!(played(&judge).is_some(), "{judge}");
    assert_eq!(played(&judge), played(&gomocup));
    // A protocol the runner does not know is refused.
    let bad = Command::new(DEFENCE)
        .args(["run", "--protocol", "gtp", "--brain", WUZI])
        .arg(&suite)
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown protocol"));
}
