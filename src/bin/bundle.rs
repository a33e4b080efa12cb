//! Merges the brain (the library's layers but `tools`, and a `main`) into one source file for
//! the judge: `cargo run --release --bin bundle [-- --out PATH]` writes `target/wuzi.rs` by
//! default, which `rustc --edition 2021 -O target/wuzi.rs` compiles on its own.
//!
//! The crate is written to make this a plain text merge: every `mod x;` (in `lib.rs` or a
//! folder's `mod.rs`, at the start of a line) becomes `mod x { ... }` with the text of
//! `x.rs` or `x/mod.rs` beside it, recursively; only `crate::...` paths, no `#[path]`,
//! `include!` or build script, crate attributes only in `lib.rs`. Anything else is refused.
//! Each module's `#[cfg(test)] mod tests` (always last in its file) is left out, and so are
//! the modules of [`LEFT_OUT`], which the brain must not use. Module bodies are not indented,
//! so that multi-line string literals keep their text.

use std::fs;
use std::path::{Path, PathBuf};

/// The library's top-level modules that are not the brain: the judge's binary never runs
/// them, and nothing bundled may name them.
const LEFT_OUT: &[&str] = &["tools"];

/// What the bundle cannot hold: the file names another file or the build's environment.
const REFUSED: &[&str] = &["#[path", "include!", "include_bytes!", "include_str!", "wuzi::"];

/// The text without its trailing test modules.
fn strip_tests(source: &str) -> &str {
    match source.find("\n#[cfg(test)]\nmod ") {
        Some(i) => source[..i].trim_end(),
        None => source,
    }
}

/// `Some((visibility, name))` when `line` declares a module in another file (`mod x;`).
fn module_declaration(line: &str) -> Option<(&str, &str)> {
    let body = line.strip_suffix(';')?;
    let (vis, rest) = match body.find("mod ") {
        Some(i) => (&body[..i], &body[i + 4..]),
        None => return None,
    };
    let name_ok = !rest.is_empty() && rest.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let vis_ok = matches!(vis.trim_end(), "" | "pub" | "pub(crate)" | "pub(super)");
    (name_ok && vis_ok).then_some((vis, rest))
}

/// The bundle's `main`: the cargo-built one (`src/main.rs`) also asks std whether standard
/// input is a terminal (`IsTerminal`, Rust 1.70) and brings the book tools; the bundle does
/// neither, so that it compiles with the judge's older compilers and holds no tool.
const BUNDLE_MAIN: &str = "
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let host = crate::frontend::cli::Host { stdin_is_terminal: false, book_tools: None };
    std::process::exit(crate::frontend::cli::main_with_args(&args, &host));
}
";

struct Bundler<'a> {
    src: &'a Path,
    out: String,
}

impl Bundler<'_> {
    fn read(&self, rel: &Path) -> Result<String, String> {
        let p = self.src.join(rel);
        fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))
    }

    /// The file of module `name` declared in the file `parent` (relative to `src/`): beside
    /// `lib.rs` or inside the folder of a `mod.rs`, as `name.rs` or `name/mod.rs`.
    fn module_file(&self, parent: &Path, name: &str) -> Result<PathBuf, String> {
        let dir = parent.parent().unwrap_or(Path::new(""));
        let flat = dir.join(format!("{name}.rs"));
        let folder = dir.join(name).join("mod.rs");
        match (self.src.join(&flat).is_file(), self.src.join(&folder).is_file()) {
            (true, false) => Ok(flat),
            (false, true) => Ok(folder),
            (true, true) => {
                Err(format!("both src/{} and src/{}", flat.display(), folder.display()))
            }
            (false, false) => Err(format!("module `{name}` of src/{}: no file", parent.display())),
        }
    }

    /// Appends the module file `rel`'s items, each `mod x;` merged in place.
    fn merge(&mut self, rel: &Path, text: &str) -> Result<(), String> {
        let shown = format!("src/{}", rel.display());
        for bad in REFUSED {
            if text.contains(bad) {
                return Err(format!("{shown} uses `{bad}`, which cannot be bundled"));
            }
        }
        let code = text.lines().filter(|l| !l.trim_start().starts_with("//"));
        for line in code {
            if let Some(layer) = LEFT_OUT.iter().find(|m| line.contains(&format!("crate::{m}"))) {
                return Err(format!("{shown} uses `crate::{layer}`, which is not bundled"));
            }
        }
        let mut attributes = String::new();
        for line in text.lines() {
            let t = line.trim();
            if let Some((vis, name)) = module_declaration(t) {
                if t.len() != line.len() {
                    return Err(format!("{shown}: `{t}` is not at the start of a line"));
                }
                let attrs = std::mem::take(&mut attributes);
                if attrs.contains("#[cfg(test)]") {
                    continue;
                }
                let file = self.module_file(rel, name)?;
                let source = self.read(&file)?;
                self.out.push_str(&format!("{attrs}{vis}mod {name} {{\n"));
                self.merge(&file, strip_tests(&source))?;
                self.out.push_str("}\n");
            } else if t.starts_with("#[") && t.ends_with(']') && line.len() == t.len() {
                // An outer attribute at the file's top level: it goes with the next item.
                attributes.push_str(line);
                attributes.push('\n');
            } else {
                self.out.push_str(&attributes);
                attributes.clear();
                // Cargo's environment is not there under plain rustc: bake the version in.
                let version = format!("\"{}\"", env!("CARGO_PKG_VERSION"));
                self.out.push_str(&line.replace("env!(\"CARGO_PKG_VERSION\")", &version));
                self.out.push('\n');
            }
        }
        self.out.push_str(&attributes);
        Ok(())
    }
}

/// Builds the bundle text from the crate at `root`.
fn bundle(root: &Path) -> Result<String, String> {
    if root.join("build.rs").exists() {
        return Err("build.rs: a build script cannot be bundled".into());
    }
    let src = root.join("src");
    let mut b = Bundler { src: &src, out: String::new() };
    let lib = b.read(Path::new("lib.rs"))?;
    b.out.push_str("// wuzi: a gomoku brain, bundled into one file for the judge.\n");
    b.out.push_str(&format!(
        "// Generated by `cargo run --bin bundle` from wuzi {}; edit the crate, not this file.\n",
        env!("CARGO_PKG_VERSION")
    ));
    b.out.push_str("// Compile: rustc --edition 2021 -O wuzi.rs\n");
    // Library items a front-end of the full crate, a tool or a test uses but the judge binary
    // does not.
    b.out.push_str("#![allow(dead_code)]\n");
    // The library's root without its doc comment (the bundle has its own header) and without
    // the modules left out, with the attributes written above each.
    let mut root_text = String::new();
    let mut pending = String::new();
    for line in lib.lines().filter(|l| !l.starts_with("//!")) {
        let t = line.trim();
        match module_declaration(t) {
            Some((_, name)) if LEFT_OUT.contains(&name) => pending.clear(),
            _ if t.starts_with("#[") => pending.push_str(&format!("{line}\n")),
            _ => {
                root_text.push_str(&std::mem::take(&mut pending));
                root_text.push_str(&format!("{line}\n"));
            }
        }
    }
    root_text.push_str(&pending);
    b.merge(Path::new("lib.rs"), root_text.trim_start())?;
    b.out.push_str(BUNDLE_MAIN);
    Ok(b.out)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut out_path = root.join("target/wuzi.rs");
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--out" if i + 1 < args.len() => {
                out_path = PathBuf::from(&args[i + 1]);
                i += 1;
            }
            "-h" | "--help" => {
                println!("usage: bundle [--out PATH]   (default target/wuzi.rs)");
                return;
            }
            other => {
                eprintln!("bundle: unknown argument '{other}'");
                std::process::exit(2);
            }
        }
        i += 1;
    }
    match bundle(&root) {
        Ok(text) => {
            if let Some(dir) = out_path.parent() {
                let _ = fs::create_dir_all(dir);
            }
            if let Err(e) = fs::write(&out_path, &text) {
                eprintln!("bundle: cannot write {}: {e}", out_path.display());
                std::process::exit(1);
            }
            println!("wrote {} ({} bytes)", out_path.display(), text.len());
            if text.len() >= 1_000_000 {
                eprintln!("bundle: warning: over the judge's 1 MB limit");
                std::process::exit(1);
            }
        }
        Err(e) => {
            eprintln!("bundle: {e}");
            std::process::exit(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A crate of `files` (path under the crate's root, text) in a fresh folder.
    fn fake_crate(name: &str, files: &[(&str, &str)]) -> PathBuf {
        let root = std::env::temp_dir().join(format!("wuzi-bundler-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        for (path, text) in files {
            let p = root.join(path);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, text).unwrap();
        }
        root
    }

    const LIB: &str = "//! docs\n\n#[clippy::msrv = \"1.63\"]\npub mod a;\npub mod tools;\n";

    #[test]
    fn nested_modules_are_merged_and_tools_and_tests_left_out() {
        let root = fake_crate(
            "nested",
            &[
                ("src/lib.rs", LIB),
                (
                    "src/a/mod.rs",
                    "//! layer a\n\npub mod b;\npub mod c;\n\npub use crate::a::b::B;\n",
                ),
                ("src/a/b.rs", "pub struct B;\n\n#[cfg(test)]\nmod tests {\n    fn t() {}\n}\n"),
                ("src/a/c/mod.rs", "#[cfg(test)]\nmod helpers;\npub mod d;\n"),
                ("src/a/c/d.rs", "pub const V: &str = env!(\"CARGO_PKG_VERSION\");\n"),
                ("src/tools/mod.rs", "pub fn tool() {}\n"),
            ],
        );
        let text = bundle(&root).unwrap();
        let _ = fs::remove_dir_all(&root);
        for want in [
            "#[clippy::msrv = \"1.63\"]\npub mod a {\n//! layer a\n",
            "pub mod b {\npub struct B;\n}\n",
            "pub mod c {\npub mod d {\n",
            &format!("pub const V: &str = \"{}\";", env!("CARGO_PKG_VERSION")),
            "pub use crate::a::b::B;\n}\n",
        ] {
            assert!(text.contains(want), "no {want:?} in:\n{text}");
        }
        for unwanted in ["mod tools", "fn tool", "mod tests", "helpers", "//! docs"] {
            assert!(!text.contains(unwanted), "{unwanted:?} in:\n{text}");
        }
    }

    #[test]
    fn what_cannot_be_merged_is_refused() {
        let refused = [
            ("path", "#[path = \"x.rs\"]\npub mod x;\n", "#[path"),
            ("include", "const T: &str = include_str!(\"t.txt\");\n", "include"),
            ("bytes", "const T: &[u8] = include_bytes!(\"t.bin\");\n", "include"),
            ("macro", "include!(\"t.rs\");\n", "include!"),
            ("extern", "pub fn f() -> usize { wuzi::x() }\n", "wuzi::"),
            ("tools", "pub fn f() { crate::tools::tool() }\n", "crate::tools"),
            ("nested", "pub mod inner {\n    pub mod deeper;\n}\n", "start of a line"),
            ("missing", "pub mod nowhere;\n", "no file"),
        ];
        for (name, a_text, why) in refused {
            let root = fake_crate(name, &[("src/lib.rs", LIB), ("src/a.rs", a_text)]);
            let err = bundle(&root).unwrap_err();
            let _ = fs::remove_dir_all(&root);
            assert!(err.contains(why), "{name}: {err}");
        }
        let both = [("src/lib.rs", LIB), ("src/a.rs", ""), ("src/a/mod.rs", "")];
        let root = fake_crate("both", &both);
        assert!(bundle(&root).unwrap_err().contains("both"));
        let _ = fs::remove_dir_all(&root);
        let root = fake_crate("build", &[("src/lib.rs", LIB), ("src/a.rs", ""), ("build.rs", "")]);
        assert!(bundle(&root).unwrap_err().contains("build.rs"));
        let _ = fs::remove_dir_all(&root);
    }
}
