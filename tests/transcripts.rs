//! Replays every `tests/transcripts/*.txt` against the real brain through pipes (the format
//! is described in `tests/common/mod.rs`).

mod common;

use std::path::PathBuf;

#[test]
fn every_transcript_replays() {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_wuzi"));
    let files = common::transcripts();
    assert!(files.len() >= 16, "only {} transcripts", files.len());
    let failures: Vec<String> =
        files.iter().filter_map(|f| common::replay(&bin, f).err()).collect();
    assert!(failures.is_empty(), "{} failed:\n{}", failures.len(), failures.join("\n"));
}
