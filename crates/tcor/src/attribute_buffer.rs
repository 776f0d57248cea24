//! The Attribute Buffer of the Attribute Cache (Section III-C2): the
//! attributes themselves, in entries of one 48-byte attribute each.
//!
//! A primitive's attributes are a linked list of entries (each with a
//! valid bit, a lock bit and a pointer to the next entry, null for the
//! last); the Primitive Buffer line holds the Attribute Buffer Pointer
//! (ABP) to the first. Free entries form another linked list from which
//! a new primitive takes as many as it has attributes. Locking the first
//! entry locks the whole list: the rest are not released until it is.
//!
//! Capacity: 48 KiB of attributes = 1024 entries (TCOR's 64 KiB split,
//! whose 10-bit ABP addresses exactly 1024); 112 KiB = 2389 entries.

/// The null pointer that ends a list.
pub const NULL: u32 = u32::MAX;

/// An Attribute Buffer Pointer: the index of a primitive's first entry.
pub type Abp = u32;

#[derive(Clone, Debug)]
pub struct AttributeBuffer {
    next: Vec<u32>,
    valid: Vec<bool>,
    /// A bit in hardware; a count here, so that a primitive queued twice
    /// for the Rasterizer stays locked until both are consumed.
    lock: Vec<u16>,
    free_head: u32,
    free: u32,
}

impl AttributeBuffer {
    /// `entries` attributes, all free.
    pub fn new(entries: u32) -> AttributeBuffer {
        let n = entries as usize;
        let next = (0..entries)
            .map(|i| if i + 1 < entries { i + 1 } else { NULL })
            .collect();
        AttributeBuffer {
            next,
            valid: vec![false; n],
            lock: vec![0; n],
            free_head: if entries > 0 { 0 } else { NULL },
            free: entries,
        }
    }

    pub fn capacity(&self) -> u32 {
        self.next.len() as u32
    }

    /// Entries on the free list.
    pub fn free(&self) -> u32 {
        self.free
    }

    /// Takes `n` (> 0) entries off the free list and links them as one
    /// primitive's list; `None` (and nothing taken) if fewer are free.
    pub fn alloc(&mut self, n: u32) -> Option<Abp> {
        if n == 0 || n > self.free {
            return None;
        }
        let head = self.free_head;
        let mut last = head;
        self.valid[last as usize] = true;
        for _ in 1..n {
            last = self.next[last as usize];
            self.valid[last as usize] = true;
        }
        self.free_head = self.next[last as usize];
        self.next[last as usize] = NULL;
        self.free -= n;
        Some(head)
    }

    /// Returns a primitive's whole list to the free list; the number of
    /// entries freed.
    pub fn release(&mut self, abp: Abp) -> u32 {
        debug_assert_eq!(self.lock[abp as usize], 0, "releasing a locked list");
        let mut n = 1;
        let mut last = abp;
        self.valid[last as usize] = false;
        while self.next[last as usize] != NULL {
            last = self.next[last as usize];
            self.valid[last as usize] = false;
            n += 1;
        }
        self.next[last as usize] = self.free_head;
        self.free_head = abp;
        self.free += n;
        n
    }

    pub fn lock(&mut self, abp: Abp) {
        self.lock[abp as usize] += 1;
    }

    pub fn is_locked(&self, abp: Abp) -> bool {
        self.lock[abp as usize] > 0
    }

    /// What the Rasterizer does with an ABP: reads every attribute of the
    /// list, then unlocks it. Returns the number of attributes read.
    pub fn rasterizer_read(&mut self, abp: Abp) -> u32 {
        debug_assert!(
            self.lock[abp as usize] > 0,
            "Rasterizer read of an unlocked list"
        );
        let mut n = 0;
        let mut e = abp;
        while e != NULL {
            debug_assert!(self.valid[e as usize]);
            n += 1;
            e = self.next[e as usize];
        }
        self.lock[abp as usize] -= 1;
        n
    }

    /// Length of the list at `abp`.
    pub fn len_of(&self, abp: Abp) -> u32 {
        let mut n = 0;
        let mut e = abp;
        while e != NULL {
            n += 1;
            e = self.next[e as usize];
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alloc_and_release_keep_the_free_count() {
        let mut ab = AttributeBuffer::new(5);
        let a = ab.alloc(3).unwrap();
        assert_eq!(ab.free(), 2);
        assert_eq!(ab.len_of(a), 3);
        assert_eq!(ab.alloc(3), None);
        assert_eq!(ab.free(), 2);
        let b = ab.alloc(2).unwrap();
        assert_eq!(ab.free(), 0);
        assert_eq!(ab.release(a), 3);
        assert_eq!(ab.free(), 3);
        // The freed entries are reused, linked afresh.
        let c = ab.alloc(3).unwrap();
        assert_eq!(ab.len_of(c), 3);
        assert_eq!(ab.len_of(b), 2);
        assert_eq!(ab.alloc(1), None);
    }

    #[test]
    fn lock_until_the_rasterizer_reads() {
        let mut ab = AttributeBuffer::new(4);
        let a = ab.alloc(4).unwrap();
        ab.lock(a);
        ab.lock(a);
        assert!(ab.is_locked(a));
        assert_eq!(ab.rasterizer_read(a), 4);
        assert!(ab.is_locked(a));
        ab.rasterizer_read(a);
        assert!(!ab.is_locked(a));
    }
}
