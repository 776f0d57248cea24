//! Epochs (Section III-B): every `length` texture accesses, all fragment
//! processors together, ownership is re-decided and the counters reset,
//! so an old owner's saturated counts cannot hold a bucket forever.

/// The texture access clock that ends epochs.
#[derive(Clone, Debug)]
pub struct Epoch {
    length: u64,
    elapsed: u64,
    ended: u64,
}

impl Epoch {
    /// Epochs of `length` texture accesses (at least 1).
    pub fn new(length: u64) -> Epoch {
        assert!(length > 0, "an epoch is at least one texture access");
        Epoch {
            length,
            elapsed: 0,
            ended: 0,
        }
    }

    /// Counts one texture access; true when it ends the epoch.
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.elapsed += 1;
        if self.elapsed == self.length {
            self.elapsed = 0;
            self.ended += 1;
            true
        } else {
            false
        }
    }

    /// Epochs ended so far.
    pub fn ended(&self) -> u64 {
        self.ended
    }
}
