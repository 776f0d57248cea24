//! The Retry Buffer (RB): every request the unit has accepted and not yet
//! returned to the shader, in input order, with its ready bit (here the
//! cycle its filtered result is ready). Completion is out of order except
//! between requests of the same screen coordinate (x, y), which complete
//! in input order (slides: "conditional IO completion").
//!
//! The slides also look the RB up before the tag check so that a retried
//! request finds its ready result; our pixel processors never retry a
//! request, so that lookup never hits and is not modelled.

/// Which results must wait for older ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Completion {
    /// Older requests of the same screen coordinate (the NBTC).
    SamePixel,
    /// Every older request (an in-order fragment FIFO).
    InOrder,
    /// None (results return as they are ready).
    AnyOrder,
}

/// `ready_at` of an entry whose result is not filtered yet.
const NOT_READY: u64 = u64::MAX;

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    valid: bool,
    x: u16,
    y: u16,
    /// Input order.
    seq: u64,
    /// The fragment (its slot in the pixel processor) waiting for it.
    fragment: u32,
    ready_at: u64,
}

pub struct RetryBuffer {
    entries: Box<[Entry]>,
    completion: Completion,
    len: usize,
    /// No entry is ready before this cycle: most cycles skip the scan.
    earliest_ready: u64,
}

impl RetryBuffer {
    pub fn new(entries: usize, completion: Completion) -> RetryBuffer {
        RetryBuffer {
            entries: vec![Entry::default(); entries].into_boxed_slice(),
            completion,
            len: 0,
            earliest_ready: NOT_READY,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn is_full(&self) -> bool {
        self.len == self.entries.len()
    }

    /// Takes a free entry for a request; `None` when full.
    pub fn allocate(&mut self, x: u16, y: u16, seq: u64, fragment: u32) -> Option<usize> {
        let slot = self.entries.iter().position(|e| !e.valid)?;
        self.entries[slot] = Entry {
            valid: true,
            x,
            y,
            seq,
            fragment,
            ready_at: NOT_READY,
        };
        self.len += 1;
        Some(slot)
    }

    /// No entry's result is ready before this cycle (a lower bound).
    pub fn earliest_ready(&self) -> u64 {
        self.earliest_ready
    }

    /// The filter delivers `slot`'s result at cycle `at`.
    pub fn set_ready(&mut self, slot: usize, at: u64) {
        debug_assert!(self.entries[slot].valid);
        self.entries[slot].ready_at = at;
        self.earliest_ready = self.earliest_ready.min(at);
    }

    /// Completes the oldest entry whose result is ready by cycle `now` and
    /// that no older entry holds back (see [`Completion`]); frees it and
    /// returns the fragment waiting for it.
    pub fn complete(&mut self, now: u64) -> Option<u32> {
        if now < self.earliest_ready {
            return None;
        }
        let mut best: Option<usize> = None;
        for (i, e) in self.entries.iter().enumerate() {
            if !e.valid || e.ready_at > now {
                continue;
            }
            if best.is_some_and(|b| self.entries[b].seq < e.seq) {
                continue;
            }
            let blocked = match self.completion {
                Completion::SamePixel => self
                    .entries
                    .iter()
                    .any(|o| o.valid && o.seq < e.seq && o.x == e.x && o.y == e.y),
                Completion::InOrder => self.entries.iter().any(|o| o.valid && o.seq < e.seq),
                Completion::AnyOrder => false,
            };
            if !blocked {
                best = Some(i);
            }
        }
        let slot = best?;
        self.entries[slot].valid = false;
        self.len -= 1;
        self.earliest_ready = self
            .entries
            .iter()
            .filter(|e| e.valid)
            .map(|e| e.ready_at)
            .min()
            .unwrap_or(NOT_READY);
        Some(self.entries[slot].fragment)
    }
}
