//! The Block Address Buffer (BAB): the missing blocks, in miss order
//! (a FIFO), each sent to memory once: a later miss on a block already
//! here is a secondary miss that sends nothing. An entry stays until its
//! block is filled, so that a miss during the fetch still finds it.

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    valid: bool,
    block: u64,
    /// Miss order: the oldest unsent block is sent first.
    seq: u64,
    /// The cycle memory returns it; `None` while not sent.
    arrival: Option<u64>,
}

pub struct BlockAddressBuffer {
    entries: Box<[Entry]>,
    len: usize,
    in_flight: usize,
    next_seq: u64,
    /// No sent block returns before this cycle: most cycles skip the scan.
    next_arrival: u64,
}

impl BlockAddressBuffer {
    pub fn new(entries: usize) -> BlockAddressBuffer {
        BlockAddressBuffer {
            entries: vec![Entry::default(); entries].into_boxed_slice(),
            len: 0,
            in_flight: 0,
            next_seq: 0,
            next_arrival: u64::MAX,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn free(&self) -> usize {
        self.entries.len() - self.len
    }

    /// Blocks sent and not yet returned.
    pub fn in_flight(&self) -> usize {
        self.in_flight
    }

    /// Blocks waiting to be sent.
    pub fn unsent(&self) -> usize {
        self.len - self.in_flight
    }

    /// No sent block returns before this cycle (a lower bound).
    pub fn next_arrival(&self) -> u64 {
        self.next_arrival
    }

    pub fn contains(&self, block: u64) -> bool {
        self.entries.iter().any(|e| e.valid && e.block == block)
    }

    /// Adds a missing block. The caller checked there is room and that the
    /// block is not here already.
    pub fn push(&mut self, block: u64) {
        debug_assert!(!self.contains(block), "duplicate block {block} in the BAB");
        let slot = self
            .entries
            .iter()
            .position(|e| !e.valid)
            .expect("push on a full Block Address Buffer");
        self.entries[slot] = Entry {
            valid: true,
            block,
            seq: self.next_seq,
            arrival: None,
        };
        self.next_seq += 1;
        self.len += 1;
    }

    /// Sends the oldest unsent block, returned at `arrival`; `false` if
    /// every block is sent.
    pub fn send_oldest(&mut self, arrival: u64) -> bool {
        let oldest = self
            .entries
            .iter_mut()
            .filter(|e| e.valid && e.arrival.is_none())
            .min_by_key(|e| e.seq);
        match oldest {
            Some(e) => {
                e.arrival = Some(arrival);
                self.in_flight += 1;
                self.next_arrival = self.next_arrival.min(arrival);
                true
            }
            None => false,
        }
    }

    /// Removes a block memory returns at `now` and gives it; call until
    /// `None`.
    pub fn take_arrived(&mut self, now: u64) -> Option<u64> {
        if now < self.next_arrival {
            return None;
        }
        let found = self
            .entries
            .iter_mut()
            .find(|e| e.valid && e.arrival == Some(now));
        let Some(e) = found else {
            self.next_arrival = self
                .entries
                .iter()
                .filter(|e| e.valid)
                .filter_map(|e| e.arrival)
                .min()
                .unwrap_or(u64::MAX);
            debug_assert!(self.next_arrival > now, "a block missed its arrival");
            return None;
        };
        e.valid = false;
        self.len -= 1;
        self.in_flight -= 1;
        Some(e.block)
    }
}
