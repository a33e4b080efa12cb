//! The wuzi brain: see `wuzi --help`. The bundle (`src/bin/bundle.rs`) writes a `main` of
//! its own, without the book tools.

fn main() {
    use std::io::IsTerminal;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let host = wuzi::frontend::cli::Host {
        stdin_is_terminal: std::io::stdin().is_terminal(),
        book_tools: Some(wuzi::tools::bookgen::main),
    };
    std::process::exit(wuzi::frontend::cli::main_with_args(&args, &host));
}
