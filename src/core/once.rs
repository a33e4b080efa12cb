//! A value built on first use and kept for the life of the process, for the tables the
//! patterns and the learned features build at start. `std::sync::OnceLock` does this since
//! Rust 1.70, but the submitted file must compile with the judge's older compilers (down to
//! 1.63), so it is made here from `std::sync::Once` and an atomic pointer.

use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::Once;

/// A `static` slot for one value of `T`, built by the first [`OnceValue::get_or_init`] and
/// never dropped (it lives as long as the process, like the tables it holds).
pub struct OnceValue<T> {
    once: Once,
    value: AtomicPtr<T>,
}

impl<T: Send + Sync> OnceValue<T> {
    /// An empty slot, for a `static`.
    pub const fn new() -> OnceValue<T> {
        OnceValue { once: Once::new(), value: AtomicPtr::new(ptr::null_mut()) }
    }

    /// The value, built by `init` on the first call; other threads that call meanwhile wait
    /// for it.
    #[inline]
    pub fn get_or_init(&self, init: impl FnOnce() -> T) -> &T {
        self.once.call_once(|| {
            self.value.store(Box::into_raw(Box::new(init())), Ordering::Release);
        });
        // SAFETY: `call_once` has returned, so the pointer was stored, from a leaked `Box`,
        // exactly once; it is never written again nor freed, so the reference stays valid
        // for as long as `self` (a `static`) does, and `T: Sync` makes sharing it sound.
        unsafe { &*self.value.load(Ordering::Acquire) }
    }
}

impl<T: Send + Sync> Default for OnceValue<T> {
    fn default() -> OnceValue<T> {
        OnceValue::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn builds_once_for_all_threads() {
        static SLOT: OnceValue<Vec<u32>> = OnceValue::new();
        static BUILDS: AtomicUsize = AtomicUsize::new(0);
        let build = || {
            BUILDS.fetch_add(1, Ordering::SeqCst);
            (0..1000).collect::<Vec<u32>>()
        };
        let sums: Vec<u64> = (0..8)
            .map(|_| {
                std::thread::spawn(move || SLOT.get_or_init(build).iter().map(|&v| v as u64).sum())
            })
            .collect::<Vec<_>>()
            .into_iter()
            .map(|h| h.join().unwrap())
            .collect();
        assert!(sums.iter().all(|&s| s == 499_500), "{sums:?}");
        assert_eq!(BUILDS.load(Ordering::SeqCst), 1);
        assert!(ptr::eq(SLOT.get_or_init(build), SLOT.get_or_init(build)));
    }
}
