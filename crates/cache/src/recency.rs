//! Per-set recency lists (a doubly linked list over the ways of each set),
//! shared by LRU, MRU and FIFO. Every operation is O(1) whatever the
//! associativity, so fully associative caches cost no more per access.

const NIL: u32 = u32::MAX;

pub struct RecencyList {
    ways: usize,
    /// Per slot: the next more recent / less recent way in its set.
    newer: Vec<u32>,
    older: Vec<u32>,
    /// Per set: most and least recent way.
    head: Vec<u32>,
    tail: Vec<u32>,
}

impl RecencyList {
    pub fn new(sets: usize, ways: usize) -> RecencyList {
        RecencyList {
            ways,
            newer: vec![NIL; sets * ways],
            older: vec![NIL; sets * ways],
            head: vec![NIL; sets],
            tail: vec![NIL; sets],
        }
    }

    /// The most recently touched way of `set`.
    #[inline(always)]
    pub fn most_recent(&self, set: usize) -> Option<usize> {
        let h = self.head[set];
        (h != NIL).then_some(h as usize)
    }

    /// The least recently touched way of `set`.
    #[inline(always)]
    pub fn least_recent(&self, set: usize) -> Option<usize> {
        let t = self.tail[set];
        (t != NIL).then_some(t as usize)
    }

    /// Makes `way` the most recent of `set`, linking it in if it was not yet.
    #[inline(always)]
    pub fn touch(&mut self, set: usize, way: usize) {
        let base = set * self.ways;
        let slot = base + way;
        if self.head[set] == way as u32 {
            return;
        }
        // An unlinked way has no neighbours and is not the head.
        if self.newer[slot] != NIL || self.older[slot] != NIL {
            self.unlink(set, way);
        }
        let old_head = self.head[set];
        self.older[slot] = old_head;
        self.newer[slot] = NIL;
        if old_head != NIL {
            self.newer[base + old_head as usize] = way as u32;
        } else {
            self.tail[set] = way as u32;
        }
        self.head[set] = way as u32;
    }

    #[inline(always)]
    fn unlink(&mut self, set: usize, way: usize) {
        let base = set * self.ways;
        let slot = base + way;
        let (n, o) = (self.newer[slot], self.older[slot]);
        if n != NIL {
            self.older[base + n as usize] = o;
        } else {
            self.head[set] = o;
        }
        if o != NIL {
            self.newer[base + o as usize] = n;
        } else {
            self.tail[set] = n;
        }
    }
}
