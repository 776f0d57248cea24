//! Buckets (Section III-A, Figure 3): block a is in page p = a / m, and
//! page p in bucket b = p mod n. Keeping m adjacent blocks in one bucket
//! favours locality; n buckets keep the Affinity Table small.

use serde::Serialize;

/// The grouping of texture blocks into buckets: `m` blocks per page, `n`
/// buckets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Buckets {
    page_blocks: u64,
    buckets: u64,
    /// When m and n are powers of two: log2(m) and n - 1, so a bucket is a
    /// shift and a mask (the paper's b = (addr >> 9) & 31).
    fast: Option<(u32, u64)>,
}

/// A bucket number, `0..n`.
pub type Bucket = usize;

impl Buckets {
    /// `page_blocks` (m) and `buckets` (n) must be positive
    /// ([`crate::NucaConfig::check`]).
    pub fn new(page_blocks: u32, buckets: u32) -> Buckets {
        assert!(
            page_blocks > 0 && buckets > 0,
            "buckets: m and n must be positive"
        );
        let fast = (page_blocks.is_power_of_two() && buckets.is_power_of_two())
            .then(|| (page_blocks.trailing_zeros(), u64::from(buckets) - 1));
        Buckets {
            page_blocks: u64::from(page_blocks),
            buckets: u64::from(buckets),
            fast,
        }
    }

    /// How many buckets there are (n).
    pub fn len(&self) -> usize {
        self.buckets as usize
    }

    /// Never: a grouping has at least one bucket.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The page of block address `block` (a / m).
    #[inline]
    pub fn page_of(&self, block: u64) -> u64 {
        block / self.page_blocks
    }

    /// The bucket of block address `block` ((a / m) mod n).
    #[inline]
    pub fn bucket_of(&self, block: u64) -> Bucket {
        match self.fast {
            Some((shift, mask)) => ((block >> shift) & mask) as Bucket,
            None => (self.page_of(block) % self.buckets) as Bucket,
        }
    }
}
