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
    /// The fragment (its slot in the pixel processor) waiting for it.
    fragment: u32,
    ready_at: u64,
}

pub struct RetryBuffer {
    entries: Box<[Entry]>,
    /// The valid entries' slots, oldest first (requests are accepted in
    /// input order), so that completion walks them once.
    order: Vec<u32>,
    completion: Completion,
    len: usize,
    /// No entry is ready before this cycle: most cycles skip the scan.
    earliest_ready: u64,
    /// Nothing can complete before this cycle: the last scan found every
    /// ready entry held back, and only an older entry's result (at a
    /// cycle it knows, or one set since) can free one.
    idle_until: u64,
}

impl RetryBuffer {
    pub fn new(entries: usize, completion: Completion) -> RetryBuffer {
        RetryBuffer {
            entries: vec![Entry::default(); entries].into_boxed_slice(),
            order: Vec::with_capacity(entries),
            completion,
            len: 0,
            earliest_ready: NOT_READY,
            idle_until: 0,
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

    /// Takes a free entry for a request (requests come in input order);
    /// `None` when full.
    pub fn allocate(&mut self, x: u16, y: u16, fragment: u32) -> Option<usize> {
        let slot = self.entries.iter().position(|e| !e.valid)?;
        self.entries[slot] = Entry {
            valid: true,
            x,
            y,
            fragment,
            ready_at: NOT_READY,
        };
        self.order.push(slot as u32);
        self.len += 1;
        Some(slot)
    }

    /// No entry's result is ready before this cycle (a lower bound).
    pub fn earliest_ready(&self) -> u64 {
        self.earliest_ready
    }

    /// The first cycle at which [`RetryBuffer::complete`] may free an
    /// entry: not before the earliest result, nor, once an older entry
    /// held a ready one back, before another result is due. A unit that
    /// skips to it skips the cycles in which a ready result waits behind
    /// an older one (with a long hit latency, millions of them).
    pub fn next_completion(&self) -> u64 {
        self.earliest_ready.max(self.idle_until)
    }

    /// The filter delivers `slot`'s result at cycle `at`.
    pub fn set_ready(&mut self, slot: usize, at: u64) {
        debug_assert!(self.entries[slot].valid);
        self.entries[slot].ready_at = at;
        self.earliest_ready = self.earliest_ready.min(at);
        self.idle_until = self.idle_until.min(at);
    }

    /// Completes the oldest entry whose result is ready by cycle `now` and
    /// that no older entry holds back (see [`Completion`]); frees it and
    /// returns the fragment waiting for it.
    pub fn complete(&mut self, now: u64) -> Option<u32> {
        if now < self.earliest_ready || now < self.idle_until {
            return None;
        }
        // Oldest first: the first ready entry no older one holds back.
        // The first 64 entries' coordinates are kept at hand; past them a
        // buffer that large looks its older entries up.
        let mut held: [(u16, u16); 64] = [(0, 0); 64];
        let mut best: Option<(usize, usize)> = None;
        for (k, &slot) in self.order.iter().enumerate() {
            let e = &self.entries[slot as usize];
            let blocked = match self.completion {
                Completion::SamePixel if k <= held.len() => held[..k].contains(&(e.x, e.y)),
                Completion::SamePixel => self.order[..k].iter().any(|&o| {
                    let o = &self.entries[o as usize];
                    (o.x, o.y) == (e.x, e.y)
                }),
                Completion::InOrder => k > 0,
                Completion::AnyOrder => false,
            };
            if e.ready_at <= now && !blocked {
                best = Some((k, slot as usize));
                break;
            }
            if self.completion == Completion::InOrder {
                break;
            }
            if k < held.len() {
                held[k] = (e.x, e.y);
            }
        }
        let Some((k, slot)) = best else {
            // Held back until a result not yet filtered is: the earliest
            // of those known, or one set later (`set_ready`).
            self.idle_until = self
                .order
                .iter()
                .map(|&o| self.entries[o as usize].ready_at)
                .filter(|&r| r > now)
                .min()
                .unwrap_or(NOT_READY);
            return None;
        };
        self.idle_until = 0;
        self.order.remove(k);
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The rule written out plainly: among the valid entries ready by
    /// `now`, those no older valid entry holds back, the oldest.
    #[derive(Default)]
    struct Reference {
        /// (seq, x, y, fragment, ready_at), valid ones.
        entries: Vec<(u64, u16, u16, u32, u64)>,
        seq: u64,
    }

    impl Reference {
        fn complete(&mut self, now: u64, c: Completion) -> Option<u32> {
            let held = |e: &(u64, u16, u16, u32, u64)| {
                self.entries.iter().any(|o| {
                    o.0 < e.0
                        && match c {
                            Completion::SamePixel => (o.1, o.2) == (e.1, e.2),
                            Completion::InOrder => true,
                            Completion::AnyOrder => false,
                        }
                })
            };
            let best = self
                .entries
                .iter()
                .filter(|e| e.4 <= now && !held(e))
                .min_by_key(|e| e.0)
                .copied()?;
            self.entries.retain(|e| e.0 != best.0);
            Some(best.3)
        }
    }

    #[derive(Clone, Debug)]
    enum Step {
        Allocate(u16, u16),
        Ready(usize, u64),
        Complete,
    }

    fn steps() -> impl Strategy<Value = Vec<Step>> {
        prop::collection::vec(
            prop_oneof![
                (0u16..3, 0u16..2).prop_map(|(x, y)| Step::Allocate(x, y)),
                (0usize..8, 0u64..6).prop_map(|(k, d)| Step::Ready(k, d)),
                Just(Step::Complete),
            ],
            0..200,
        )
    }

    proptest! {
        #[test]
        fn completes_as_the_plain_rule_does(steps in steps(), mode in 0usize..3) {
            let c = [Completion::SamePixel, Completion::InOrder, Completion::AnyOrder][mode];
            let mut rb = RetryBuffer::new(8, c);
            let mut reference = Reference::default();
            // Slot -> reference sequence number of its request.
            let mut seq_of = [0u64; 8];
            let mut now = 0u64;
            for (i, step) in steps.into_iter().enumerate() {
                match step {
                    Step::Allocate(x, y) => {
                        let fragment = i as u32;
                        match rb.allocate(x, y, fragment) {
                            Some(slot) => {
                                let seq = reference.seq;
                                reference.seq += 1;
                                seq_of[slot] = seq;
                                reference.entries.push((seq, x, y, fragment, NOT_READY));
                            }
                            None => prop_assert_eq!(reference.entries.len(), 8),
                        }
                    }
                    Step::Ready(k, d) => {
                        if rb.entries[k].valid && rb.entries[k].ready_at == NOT_READY {
                            rb.set_ready(k, now + d);
                            let e = reference
                                .entries
                                .iter_mut()
                                .find(|e| e.0 == seq_of[k])
                                .expect("a valid slot is in the reference");
                            e.4 = now + d;
                        }
                    }
                    Step::Complete => {
                        now += 1;
                        prop_assert_eq!(rb.complete(now), reference.complete(now, c));
                    }
                }
                prop_assert_eq!(rb.len(), reference.entries.len());
            }
        }
    }
}
