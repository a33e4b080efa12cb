//! The transposition table: one slot per index, two 64-bit words a slot (the full key and the
//! packed data), allocated zeroed so that creating even a large table costs no time until it
//! is used. A generation counter ages entries between games instead of clearing them.

use crate::board::Pos;

/// How a stored score bounds the true score.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most this (all moves failed low).
    Upper = 1,
    /// The true score is at least this (a move failed high).
    Lower = 2,
    /// The exact score.
    Exact = 3,
}

/// A probed entry.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The stored score (wins and losses relative to the stored node: see `search`).
    pub score: i32,
    /// The depth it was searched to.
    pub depth: i32,
    /// The best move found, if any.
    pub best: Option<Pos>,
    /// How `score` bounds the true score.
    pub bound: Bound,
    /// Whether the node was on a principal variation when it was stored, or its entry said so
    /// before (the search ORs the probed flag into the one it stores; `store` keeps what it is given).
    pub pv: bool,
}

/// The table.
pub struct Table {
    slots: Vec<[u64; 2]>,
    mask: usize,
    generation: u8,
}

impl Table {
    /// A table of about `mb` megabytes (a power of two number of slots).
    pub fn new(mb: usize) -> Table {
        let want = (mb.max(1) << 20) / 16;
        let slots = want.next_power_of_two() >> usize::from(!want.is_power_of_two());
        Table { slots: vec![[0u64; 2]; slots], mask: slots - 1, generation: 1 }
    }

    /// Number of slots.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the table has no slots (never: at least one).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Starts a new game: older entries become second choice for replacement and are not
    /// trusted for cut-offs across games' different time budgets, but still order moves.
    pub fn new_generation(&mut self) {
        self.generation = self.generation % 63 + 1;
    }

    /// Forgets everything (touches every slot: slow for a large table).
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = [0, 0]);
    }

    /// Asks the processor to bring `key`'s slot into the cache, so that a probe soon after
    /// does not wait on memory (the table is far larger than the caches: its probes were a
    /// tenth of the search's time, nearly all of it that wait). A hint only: it changes no
    /// result, and does nothing off x86-64.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let slot: *const [u64; 2] = &self.slots[key as usize & self.mask];
            // SAFETY: a prefetch never faults and reads nothing the program sees; the address
            // is that of a live slot, and SSE (which has the instruction) is part of every
            // x86-64 processor.
            unsafe { _mm_prefetch(slot as *const i8, _MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slots[key as usize & self.mask];
        if slot[0] != key || slot[1] == 0 {
            return None;
        }
        let data = slot[1];
        let bound = match (data >> 32) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        };
        let best = (data >> 24) as u8;
        Some(Entry {
            score: (data as u16 as i16) as i32,
            depth: ((data >> 16) as u8) as i32,
            best: if (data >> 40) & 1 == 1 { Some(Pos(best)) } else { None },
            bound,
            pv: (data >> 41) & 1 == 1,
        })
    }

    /// Stores an entry for `key`, replacing a shallower or older one.
    #[inline]
    pub fn store(
        &mut self,
        key: u64,
        score: i32,
        depth: i32,
        best: Option<Pos>,
        bound: Bound,
        pv: bool,
    ) {
        let idx = key as usize & self.mask;
        let old = self.slots[idx];
        let old_depth = ((old[1] >> 16) & 0xff) as i32;
        let old_gen = ((old[1] >> 34) & 63) as u8;
        if old[0] == key || old_gen != self.generation || depth >= old_depth - 2 {
            let data = (score.clamp(-32_767, 32_767) as i16 as u16 as u64)
                | ((depth.clamp(0, 255) as u64) << 16)
                | ((best.map_or(0, |p| p.0) as u64) << 24)
                | ((bound as u64) << 32)
                | ((self.generation as u64) << 34)
                | ((best.is_some() as u64) << 40)
                | ((pv as u64) << 41);
            self.slots[idx] = [key, data];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes() {
        let mut t = Table::new(1);
        assert_eq!(t.len(), 65536);
        assert_eq!(t.probe(12345), None);
        t.store(12345, -29_990, 7, Some(Pos(200)), Bound::Lower, true);
        let e = t.probe(12345).unwrap();
        assert_eq!((e.score, e.depth, e.best, e.bound), (-29_990, 7, Some(Pos(200)), Bound::Lower));
        // Another key in the same slot does not match.
        assert_eq!(t.probe(12345 + (1 << 40)), None);
        t.store(99, 5, 0, None, Bound::Exact, false);
        assert_eq!(t.probe(99).unwrap().best, None);
        assert!(t.probe(12345).unwrap().pv && !t.probe(99).unwrap().pv);
        t.clear();
        assert_eq!(t.probe(99), None);
    }
}
