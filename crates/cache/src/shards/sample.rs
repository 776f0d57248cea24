//! SHARDS' spatial sampling: a block is in the sample iff its hash modulo
//! P is below T, so that every access to a sampled block is sampled and
//! the sample is a fixed fraction R = T / P of the blocks, whatever their
//! access pattern.

use gfxcache_trace::{Access, Stream};
use serde::Serialize;

use super::ShardsError;
use crate::engine::block_range;
use crate::policies::random::SplitMix64;

/// The hash of a block: the first output of SplitMix64 seeded with the
/// block address, the generator the random policy and the test traces
/// use. Its finalizer (Stafford's Mix13) spreads every input bit over
/// every output bit, so the low bits that decide sampling are independent
/// of the low address bits that choose a set.
#[inline(always)]
pub fn hash(block: u64) -> u64 {
    SplitMix64(block).next_u64()
}

/// `hash(block) mod P < T`, the paper's filter with its modulus P and
/// threshold T.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SpatialSampler {
    /// P.
    pub modulus: u64,
    /// T, at least 1 and at most P.
    pub threshold: u64,
}

impl SpatialSampler {
    /// The sampler of rate `rate` (0 < R <= 1) at modulus `modulus`:
    /// T = round(R * P), refused when that is 0 (a rate finer than 1 / P).
    pub fn new(rate: f64, modulus: u64) -> Result<SpatialSampler, ShardsError> {
        if modulus == 0 {
            return Err(ShardsError::Config(
                "modulus 0: expected a positive modulus P".into(),
            ));
        }
        if !(rate > 0.0 && rate <= 1.0) {
            return Err(ShardsError::Config(format!(
                "sampling rate {rate}: expected a rate above 0 and at most 1"
            )));
        }
        let threshold = (rate * modulus as f64).round() as u64;
        if threshold == 0 {
            return Err(ShardsError::Config(format!(
                "sampling rate {rate}: below 1/P = 1/{modulus}, so no block would be sampled"
            )));
        }
        Ok(SpatialSampler {
            modulus,
            threshold: threshold.min(modulus),
        })
    }

    /// R = T / P, the rate the sample has: what the caches are scaled by.
    pub fn rate(&self) -> f64 {
        self.threshold as f64 / self.modulus as f64
    }

    #[inline(always)]
    pub fn keeps(&self, block: u64) -> bool {
        self.threshold == self.modulus || hash(block) % self.modulus < self.threshold
    }

    /// Appends the sampled block accesses of `accesses` to `out`, one
    /// single-block access each (a trace access spanning blocks is split as
    /// the engine splits it, `shift` bits a block), and counts every block
    /// access, sampled or not, in `totals` by stream.
    pub fn filter(
        &self,
        accesses: &[Access],
        shift: u32,
        out: &mut Vec<Access>,
        totals: &mut [u64; Stream::COUNT],
    ) {
        for a in accesses {
            let (first, last) = block_range(a, shift);
            totals[a.stream.index()] += last - first + 1;
            for block in first..=last {
                if self.keeps(block) {
                    out.push(Access {
                        addr: block << shift,
                        size: 1,
                        ..*a
                    });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_is_the_rate_of_the_blocks() {
        let s = SpatialSampler::new(0.01, 1 << 24).unwrap();
        assert_eq!(s.threshold, 167_772);
        let kept = (0..1_000_000u64).filter(|&b| s.keeps(b)).count();
        // Binomial(10^6, 0.01): sd about 99.
        assert!((9_500..10_500).contains(&kept), "{kept}");
        // Consecutive blocks (one set each, in a cache) are sampled alike.
        let kept = (0..1_000_000u64).filter(|&b| s.keeps(b * 4096)).count();
        assert!((9_500..10_500).contains(&kept), "{kept}");
        assert!((0..1000).all(|b| SpatialSampler::new(1.0, 1 << 24).unwrap().keeps(b)));
    }

    #[test]
    fn bad_rates_are_refused() {
        for (rate, want) in [
            (0.0, "expected a rate above 0 and at most 1"),
            (1.5, "expected a rate above 0 and at most 1"),
            (f64::NAN, "expected a rate above 0 and at most 1"),
            (1e-9, "below 1/P"),
        ] {
            let e = SpatialSampler::new(rate, 1 << 24).unwrap_err().to_string();
            assert!(e.contains(want), "{rate}: {e}");
        }
    }

    #[test]
    fn filtering_splits_accesses_into_blocks() {
        let s = SpatialSampler::new(1.0, 16).unwrap();
        let a = Access {
            addr: 60,
            size: 8,
            unit: 3,
            stream: Stream::Tex,
            op: gfxcache_trace::Op::Write,
        };
        let mut out = Vec::new();
        let mut totals = [0; Stream::COUNT];
        s.filter(&[a], 6, &mut out, &mut totals);
        assert_eq!(out.len(), 2);
        assert_eq!((out[0].addr, out[1].addr, out[1].unit), (0, 64, 3));
        assert_eq!(totals[Stream::Tex.index()], 2);
    }
}
