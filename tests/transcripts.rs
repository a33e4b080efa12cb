//! Replays every `tests/transcripts/*.txt` against the real brain through pipes (the format
//! is described in `tests/common/mod.rs`).

mod common;

use std::path::PathBuf;

#[test]
fn every_transcript_replays() {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_wuzi"));
    let files = common::transcripts();
    if std::env::var_os("WUZI_BLESS").is_some() {
        bless(&bin, &files);
    }
    assert!(files.len() >= 9, "only {} transcripts", files.len());
    let failures: Vec<String> =
        files.iter().filter_map(|f| common::replay(&bin, f).err()).collect();
    assert!(failures.is_empty(), "{} failed:\n{}", failures.len(), failures.join("\n"));
}

/// `WUZI_BLESS=1 cargo test --test transcripts` re-records the self-play games (files with a
/// `#selfplay:` line) after a change of the search: their exact moves depend on it.
fn bless(bin: &std::path::Path, files: &[PathBuf]) {
    for f in files {
        let text = std::fs::read_to_string(f).unwrap();
        let arg_line = |prefix: &str| -> Option<Vec<String>> {
            text.lines()
                .find_map(|l| l.strip_prefix(prefix))
                .map(|a| a.split_whitespace().map(String::from).collect())
        };
        let Some(theirs) = arg_line("#selfplay:") else { continue };
        let ours = arg_line("#args:").unwrap_or_default();
        let black = text.lines().any(|l| l.trim() == "START 1");
        let comments: String =
            text.lines().take_while(|l| l.starts_with("# ")).map(|l| format!("{l}\n")).collect();
        let game = common::record_selfplay(bin, &ours, &theirs, black);
        std::fs::write(f, comments + &game).unwrap();
    }
}
