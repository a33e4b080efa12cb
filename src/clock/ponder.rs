//! Pondering's hand-over: the reply a ponder expects, shared by the protocol loop that
//! arms it, the input reader that sees the reply come, and the pondering search, whose time
//! manager (`crate::clock::timeman`) switches to the move's own limits when it does.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The expected reply of a ponder, shared by the protocol loop (which arms it), the input
/// reader (which sees the reply come) and the pondering search (whose limits change then):
/// 0 when disarmed, a position's code plus one while armed, [`PonderHit::HIT`] once the
/// reply came. The search then goes on as the move's own, with the move's limits.
#[derive(Clone, Debug, Default)]
pub struct PonderHit(Arc<AtomicU64>);

impl PonderHit {
    /// The state once the expected reply came.
    const HIT: u64 = u64::MAX;

    /// Waits for the reply at the point whose index is `code` (`Pos`'s).
    pub fn arm(&self, code: u8) {
        self.0.store(u64::from(code) + 1, Ordering::SeqCst);
    }
    /// Stops waiting. Whether the reply came first: then the search that was waiting for it
    /// is the move's search, and nothing else may start.
    pub fn disarm(&self) -> bool {
        self.0.swap(0, Ordering::SeqCst) == Self::HIT
    }
    /// The reader's side: a stone at `code` came. Whether it is the expected reply (and
    /// armed): then the pondering search goes on instead of stopping.
    pub fn take(&self, code: u8) -> bool {
        let armed = u64::from(code) + 1;
        self.0.compare_exchange(armed, Self::HIT, Ordering::SeqCst, Ordering::SeqCst).is_ok()
    }
    /// Whether the expected reply came.
    pub fn is_hit(&self) -> bool {
        self.0.load(Ordering::Relaxed) == Self::HIT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ponder_hit_is_taken_once_and_only_while_armed() {
        let hit = PonderHit::default();
        assert!(!hit.take(7), "not armed");
        hit.arm(7);
        assert!(!hit.take(8), "another stone");
        assert!(!hit.is_hit());
        assert!(hit.take(7));
        assert!(hit.is_hit());
        assert!(!hit.take(7), "taken already");
        assert!(hit.disarm(), "the reply came before the disarm");
        assert!(!hit.is_hit() && !hit.take(7));
        hit.arm(7);
        assert!(!hit.disarm(), "disarmed before the reply");
        assert!(!hit.take(7), "a reply after the disarm stops the ponder");
    }
}
