//! The wuzi brain: see `wuzi --help`.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(wuzi::cli::main_with_args(&args));
}
