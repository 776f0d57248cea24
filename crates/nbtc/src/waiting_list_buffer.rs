//! The Waiting List Buffer (WLB): one entry per request with a miss, like
//! an inverted MSHR (Farkas and Jouppi), holding all its texels, hit and
//! missed, with a ready bit each; so no L1 line is locked while a request
//! waits. A fill sets the ready bits of every entry waiting for its block.

use crate::config::MAX_TEXELS;

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    valid: bool,
    /// Input order: the oldest ready entry goes through the MUX first.
    seq: u64,
    /// The request's Retry Buffer entry.
    rb_slot: u32,
    /// The block of each texel.
    blocks: [u64; MAX_TEXELS],
    len: u8,
    /// Bit i: texel i's data is here.
    ready: u8,
}

impl Entry {
    fn all_ready(&self) -> bool {
        self.ready == full_mask(self.len)
    }
}

/// The ready bits of all `len` texels.
pub fn full_mask(len: u8) -> u8 {
    ((1u16 << len) - 1) as u8
}

pub struct WaitingListBuffer {
    entries: Box<[Entry]>,
    len: usize,
    /// Entries whose texels are all ready: most cycles have none.
    ready: usize,
}

impl WaitingListBuffer {
    pub fn new(entries: usize) -> WaitingListBuffer {
        WaitingListBuffer {
            entries: vec![Entry::default(); entries].into_boxed_slice(),
            len: 0,
            ready: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Some entry has all its texels.
    pub fn has_ready(&self) -> bool {
        self.ready > 0
    }

    pub fn is_full(&self) -> bool {
        self.len == self.entries.len()
    }

    /// Takes a free entry for a request whose texels are in `blocks`, with
    /// ready bits `ready` for its hits (not all: a request that hits
    /// everywhere needs no entry). The caller checked it is not full.
    pub fn allocate(
        &mut self,
        seq: u64,
        rb_slot: usize,
        blocks: &[u64; MAX_TEXELS],
        len: u8,
        ready: u8,
    ) {
        debug_assert!(ready != full_mask(len), "an all-hit request in the WLB");
        let slot = self
            .entries
            .iter()
            .position(|e| !e.valid)
            .expect("allocate on a full Waiting List Buffer");
        self.entries[slot] = Entry {
            valid: true,
            seq,
            rb_slot: rb_slot as u32,
            blocks: *blocks,
            len,
            ready,
        };
        self.len += 1;
    }

    /// Memory returned `block`: every waiting texel in it is ready.
    pub fn fill(&mut self, block: u64) {
        for e in self
            .entries
            .iter_mut()
            .filter(|e| e.valid && !e.all_ready())
        {
            for (i, &b) in e.blocks[..e.len as usize].iter().enumerate() {
                if b == block {
                    e.ready |= 1 << i;
                }
            }
            if e.all_ready() {
                self.ready += 1;
            }
        }
    }

    /// Frees the oldest entry whose texels are all ready and returns its
    /// Retry Buffer entry.
    pub fn take_oldest_ready(&mut self) -> Option<usize> {
        if self.ready == 0 {
            return None;
        }
        let slot = self
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.valid && e.all_ready())
            .min_by_key(|(_, e)| e.seq)
            .map(|(i, _)| i)?;
        self.entries[slot].valid = false;
        self.len -= 1;
        self.ready -= 1;
        Some(self.entries[slot].rb_slot as usize)
    }
}
