//! Outstanding block requests to a memory level that answers each after
//! its own latency, one request sent a cycle: the miss-status holding
//! registers (MSHRs) of a non-blocking cache. Each missing block has one
//! entry, in miss order, from the miss until its fill: a later miss on a
//! block already here is a secondary miss that sends nothing new, and
//! counts as one more target of the entry (Kroft's MSHRs, gem5's
//! `mshrs x tgts_per_mshr`).
//!
//! The NBTC's Block Address Buffer is this queue with no target limit (its
//! Waiting List Buffer holds the targets); TCOR's Tile Fetcher sends its
//! L2 reads through one with a limit. A queue small enough to scan each
//! cycle is what the hardware has, so the entries are scanned.

/// A limit on the targets of one entry: none (the NBTC's BAB) or `n`.
pub const UNLIMITED_TARGETS: u32 = u32::MAX;

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    valid: bool,
    block: u64,
    /// Miss order: the oldest unsent block is sent first.
    seq: u64,
    /// The cycle the block returns; `None` while not sent.
    arrival: Option<u64>,
    /// Misses on the block since its entry was made (the first included).
    targets: u32,
}

/// Why a miss found no room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MissRefused {
    /// The block is not here and every entry is taken.
    NoEntry,
    /// The block's entry has all its targets.
    NoTarget,
}

#[derive(Clone, Debug)]
pub struct MissQueue {
    entries: Box<[Entry]>,
    targets_per_entry: u32,
    len: usize,
    in_flight: usize,
    next_seq: u64,
    /// No sent block returns before this cycle: most cycles skip the scan.
    next_arrival: u64,
}

impl MissQueue {
    /// `entries` outstanding blocks of at most `targets_per_entry` misses
    /// each ([`UNLIMITED_TARGETS`] for no limit); both at least 1.
    pub fn new(entries: usize, targets_per_entry: u32) -> MissQueue {
        assert!(entries > 0 && targets_per_entry > 0, "an empty miss queue");
        MissQueue {
            entries: vec![Entry::default(); entries].into_boxed_slice(),
            targets_per_entry,
            len: 0,
            in_flight: 0,
            next_seq: 0,
            next_arrival: u64::MAX,
        }
    }

    pub fn capacity(&self) -> usize {
        self.entries.len()
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

    fn find(&self, block: u64) -> Option<usize> {
        self.entries
            .iter()
            .position(|e| e.valid && e.block == block)
    }

    pub fn contains(&self, block: u64) -> bool {
        self.find(block).is_some()
    }

    /// Whether `block` waits here to be sent (an entry already sent does
    /// not count).
    pub fn contains_unsent(&self, block: u64) -> bool {
        self.entries
            .iter()
            .any(|e| e.valid && e.block == block && e.arrival.is_none())
    }

    /// Whether a miss on `block` would be taken now: as a new entry or as
    /// one more target of its entry. Changes nothing.
    pub fn can_take(&self, block: u64) -> Result<(), MissRefused> {
        match self.find(block) {
            Some(i) if self.entries[i].targets >= self.targets_per_entry => {
                Err(MissRefused::NoTarget)
            }
            Some(_) => Ok(()),
            None if self.len == self.entries.len() => Err(MissRefused::NoEntry),
            None => Ok(()),
        }
    }

    /// Records a miss on `block`: a new entry (`true`, a primary miss) or
    /// one more target of its entry (`false`, a secondary miss). The
    /// caller checked [`MissQueue::can_take`].
    pub fn miss(&mut self, block: u64) -> bool {
        if let Some(i) = self.find(block) {
            let e = &mut self.entries[i];
            debug_assert!(e.targets < self.targets_per_entry, "targets over the limit");
            e.targets += 1;
            return false;
        }
        self.push(block);
        true
    }

    /// [`MissQueue::can_take`] then [`MissQueue::miss`] in one look-up:
    /// whether the miss was primary, or why it was refused (then nothing
    /// changed).
    pub fn try_miss(&mut self, block: u64) -> Result<bool, MissRefused> {
        match self.find(block) {
            Some(i) => {
                let e = &mut self.entries[i];
                if e.targets >= self.targets_per_entry {
                    return Err(MissRefused::NoTarget);
                }
                e.targets += 1;
                Ok(false)
            }
            None if self.len == self.entries.len() => Err(MissRefused::NoEntry),
            None => {
                self.push(block);
                Ok(true)
            }
        }
    }

    /// Adds a missing block that is not here. The caller checked there is
    /// room and that the block is not here already.
    pub fn push(&mut self, block: u64) {
        debug_assert!(
            !self.contains(block),
            "duplicate block {block} in a miss queue"
        );
        self.insert(block);
    }

    /// Adds a missing block that may be on its way already (a queue that
    /// forgets a block once it is sent fetches it again); never one that
    /// waits to be sent. The caller checked there is room.
    pub fn push_again(&mut self, block: u64) {
        debug_assert!(
            !self.contains_unsent(block),
            "duplicate unsent block {block} in a miss queue"
        );
        self.insert(block);
    }

    fn insert(&mut self, block: u64) {
        let slot = self
            .entries
            .iter()
            .position(|e| !e.valid)
            .expect("push on a full miss queue");
        self.entries[slot] = Entry {
            valid: true,
            block,
            seq: self.next_seq,
            arrival: None,
            targets: 1,
        };
        self.next_seq += 1;
        self.len += 1;
    }

    /// Sends the oldest unsent block, which returns `latency(block)`
    /// cycles after `now`; gives the block, or `None` if every block is
    /// sent.
    pub fn send_oldest(&mut self, now: u64, latency: impl FnOnce(u64) -> u64) -> Option<u64> {
        if self.unsent() == 0 {
            return None;
        }
        let e = self
            .entries
            .iter_mut()
            .filter(|e| e.valid && e.arrival.is_none())
            .min_by_key(|e| e.seq)?;
        let arrival = now + latency(e.block);
        e.arrival = Some(arrival);
        self.in_flight += 1;
        self.next_arrival = self.next_arrival.min(arrival);
        Some(e.block)
    }

    /// Delays by `by` cycles the sent `block` due at `due` (a memory
    /// shared with others answers later than the latency alone says);
    /// `false` if no such block is on its way.
    pub fn delay(&mut self, block: u64, due: u64, by: u64) -> bool {
        let Some(e) = self
            .entries
            .iter_mut()
            .find(|e| e.valid && e.block == block && e.arrival == Some(due))
        else {
            return false;
        };
        e.arrival = Some(due + by);
        self.next_arrival = self
            .entries
            .iter()
            .filter(|e| e.valid)
            .filter_map(|e| e.arrival)
            .min()
            .unwrap_or(u64::MAX);
        true
    }

    /// Removes a block that returns at `now` (or earlier: a caller that
    /// skipped cycles with nothing due never skips an arrival) and gives
    /// it, the earliest first (then in miss order); call until `None`.
    pub fn take_arrived(&mut self, now: u64) -> Option<u64> {
        if now < self.next_arrival {
            return None;
        }
        // One scan finds the block to give and when the next one is due.
        let mut due: Option<(u64, u64, usize)> = None;
        let mut next = u64::MAX;
        for (i, e) in self.entries.iter().enumerate() {
            let Some(at) = e.arrival.filter(|_| e.valid) else {
                continue;
            };
            let key = (at, e.seq, i);
            match due {
                Some(d) if at <= now && key < d => {
                    next = next.min(d.0);
                    due = Some(key);
                }
                None if at <= now => due = Some(key),
                _ => next = next.min(at),
            }
        }
        self.next_arrival = next;
        let (_, _, i) = due?;
        let e = &mut self.entries[i];
        e.valid = false;
        self.len -= 1;
        self.in_flight -= 1;
        Some(e.block)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_is_sent_once_and_returns_after_its_latency() {
        let mut q = MissQueue::new(2, UNLIMITED_TARGETS);
        assert!(q.miss(7));
        assert!(!q.miss(7), "a second miss on a block is secondary");
        assert_eq!(q.can_take(9), Ok(()));
        assert!(q.miss(9));
        assert_eq!(q.can_take(11), Err(MissRefused::NoEntry));
        assert_eq!(q.send_oldest(10, |b| b), Some(7));
        assert_eq!(q.send_oldest(11, |_| 3), Some(9));
        assert_eq!(q.send_oldest(12, |_| 1), None);
        assert_eq!((q.in_flight(), q.unsent(), q.next_arrival()), (2, 0, 14));
        assert_eq!(q.take_arrived(13), None);
        assert_eq!(q.take_arrived(14), Some(9));
        assert_eq!(q.take_arrived(16), None);
        assert_eq!(q.take_arrived(17), Some(7));
        assert!(q.is_empty());
    }

    #[test]
    fn blocks_return_earliest_first_then_in_miss_order() {
        let mut q = MissQueue::new(4, UNLIMITED_TARGETS);
        for (block, latency) in [(1, 9), (2, 5), (3, 9), (4, 20)] {
            q.miss(block);
            assert_eq!(q.send_oldest(0, |_| latency), Some(block));
        }
        assert_eq!(q.send_oldest(1, |_| 1), None, "nothing left to send");
        assert_eq!(q.take_arrived(4), None);
        // Skipped to 12: three blocks due, the earliest first, then those
        // due together in miss order; then none before 20.
        let got: Vec<u64> = std::iter::from_fn(|| q.take_arrived(12)).collect();
        assert_eq!(got, [2, 1, 3]);
        assert_eq!(q.next_arrival(), 20);
        assert_eq!(q.take_arrived(19), None);
        assert_eq!(q.take_arrived(20), Some(4));
        assert_eq!((q.next_arrival(), q.len()), (u64::MAX, 0));
    }

    #[test]
    fn a_delayed_block_returns_later_and_the_others_in_time() {
        let mut q = MissQueue::new(4, UNLIMITED_TARGETS);
        q.push(7);
        q.push(9);
        q.send_oldest(0, |_| 10);
        q.send_oldest(1, |_| 10);
        assert!(!q.delay(7, 11, 5), "not due then");
        assert!(q.delay(7, 10, 5));
        assert_eq!(q.next_arrival(), 11);
        assert_eq!(q.take_arrived(14), Some(9));
        assert_eq!((q.take_arrived(14), q.next_arrival()), (None, 15));
        assert_eq!(q.take_arrived(15), Some(7));
        assert!(q.is_empty());
    }

    #[test]
    fn try_miss_is_can_take_then_miss() {
        let mut q = MissQueue::new(2, 2);
        assert_eq!(q.try_miss(1), Ok(true));
        assert_eq!(q.try_miss(1), Ok(false));
        assert_eq!(q.try_miss(1), Err(MissRefused::NoTarget));
        assert_eq!(q.try_miss(2), Ok(true));
        assert_eq!(q.try_miss(3), Err(MissRefused::NoEntry));
        assert_eq!((q.len(), q.unsent()), (2, 2), "a refusal changes nothing");
    }

    #[test]
    fn an_entry_takes_at_most_its_targets() {
        let mut q = MissQueue::new(4, 2);
        q.miss(1);
        q.miss(1);
        assert_eq!(q.can_take(1), Err(MissRefused::NoTarget));
        assert_eq!(q.can_take(2), Ok(()));
    }
}
