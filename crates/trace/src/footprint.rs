//! A trace's footprint, estimated as it is written: how many distinct
//! 64-byte blocks its accesses touch, to within a few per cent, in 4 KiB
//! whatever the trace's length.
//!
//! The `.gtr` writer keeps one [`FootprintSketch`] and puts its estimate in
//! the footer, so that a consumer that must remember every block (Belady's
//! OPT numbering next uses) can size its table once instead of doubling
//! it, and rehashing and zeroing it, all the way up. It is a hint: nothing
//! may depend on it for correctness.
//!
//! The sketch is HyperLogLog (Flajolet et al., AofA 2007) with 2^12
//! registers (standard error 1.6 %), linear counting for small counts, and
//! its own fixed hash (SplitMix64's finalizer), so that the same trace
//! always gives the same footer bytes.

use serde::{Deserialize, Serialize};

use crate::record::Access;

/// The block size the footprint counts.
pub const FOOTPRINT_BLOCK: u32 = 64;
const BLOCK_SHIFT: u32 = FOOTPRINT_BLOCK.trailing_zeros();

/// The most blocks of one access the sketch counts (4 KiB): graphics
/// accesses are a block or two, and a size field of up to 4 GiB must not
/// cost a writer millions of steps.
pub const MAX_BLOCKS_PER_ACCESS: u64 = 64;

/// log2 of the register count.
const P: u32 = 12;
const REGISTERS: usize = 1 << P;

/// The footprint a `.gtr` footer announces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Footprint {
    /// Block size in bytes.
    pub block: u32,
    /// Estimated distinct blocks touched.
    pub blocks: u64,
}

/// A HyperLogLog sketch of the distinct blocks of [`FOOTPRINT_BLOCK`]
/// bytes that accesses touch.
#[derive(Clone)]
pub struct FootprintSketch {
    registers: Box<[u8; REGISTERS]>,
}

impl Default for FootprintSketch {
    fn default() -> FootprintSketch {
        FootprintSketch {
            registers: Box::new([0; REGISTERS]),
        }
    }
}

impl FootprintSketch {
    /// The blocks `a` touches (a size of 0 counts as 1 byte), up to
    /// [`MAX_BLOCKS_PER_ACCESS`] of them, so that a writer's cost per
    /// access stays bounded whatever the size field says.
    #[inline]
    pub fn add_access(&mut self, a: &Access) {
        let (first, last) = a.block_range(BLOCK_SHIFT);
        let last = last.min(first + MAX_BLOCKS_PER_ACCESS - 1);
        self.add_block(first);
        let mut b = first;
        while b < last {
            b += 1;
            self.add_block(b);
        }
    }

    #[inline(always)]
    fn add_block(&mut self, block: u64) {
        let h = mix(block);
        let register = (h >> (64 - P)) as usize;
        // The guard bit bounds the rank at 64 - P + 1.
        let rank = ((h << P) | (1 << (P - 1))).leading_zeros() as u8 + 1;
        let r = &mut self.registers[register];
        *r = (*r).max(rank);
    }

    /// The estimated number of distinct blocks added.
    pub fn estimate(&self) -> u64 {
        let m = REGISTERS as f64;
        let (mut sum, mut zeros) = (0.0f64, 0usize);
        for &r in self.registers.iter() {
            sum += f64::powi(2.0, -i32::from(r));
            zeros += usize::from(r == 0);
        }
        let alpha = 0.7213 / (1.0 + 1.079 / m);
        let raw = alpha * m * m / sum;
        let e = if raw <= 2.5 * m && zeros > 0 {
            // Linear counting: exact enough where most registers are empty.
            m * (m / zeros as f64).ln()
        } else {
            raw
        };
        e.round() as u64
    }

    pub fn footprint(&self) -> Footprint {
        Footprint {
            block: FOOTPRINT_BLOCK,
            blocks: self.estimate(),
        }
    }
}

/// SplitMix64's finalizer: every input bit moves every output bit.
#[inline(always)]
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Op, Stream};

    fn access(addr: u64, size: u32) -> Access {
        Access {
            addr,
            size,
            unit: 0,
            stream: Stream::Tex,
            op: Op::Read,
        }
    }

    /// Within 5 % (three standard errors) of the true count, from one
    /// block to millions, with every block seen several times, in blocks
    /// laid out as surfaces are (runs of consecutive blocks) and scattered.
    #[test]
    fn estimates_are_within_five_per_cent() {
        assert_eq!(FootprintSketch::default().estimate(), 0);
        for &n in &[1u64, 7, 100, 1_000, 10_000, 100_000, 1_000_000, 3_000_000] {
            for scattered in [false, true] {
                let mut s = FootprintSketch::default();
                for pass in 0..3u64 {
                    for i in 0..n {
                        let block = if scattered {
                            mix(i ^ 0xABCD)
                        } else {
                            0x0004_0000 + i
                        };
                        s.add_access(&access((block << 6) + pass * 8, 4));
                    }
                }
                let e = s.estimate() as f64;
                let err = (e - n as f64).abs() / n as f64;
                assert!(
                    err < 0.05,
                    "{n} blocks (scattered {scattered}): estimated {e}"
                );
            }
        }
    }

    /// An access that spans blocks counts each, up to the cap; the same
    /// trace gives the same estimate.
    #[test]
    fn spanning_accesses_count_every_block_and_estimates_repeat() {
        let mut a = FootprintSketch::default();
        a.add_access(&access(0x1000 + 60, 200));
        assert_eq!(a.estimate(), 5);
        let mut huge = FootprintSketch::default();
        huge.add_access(&access(u64::MAX - 10, u32::MAX));
        huge.add_access(&access(0, u32::MAX));
        // 65 blocks: the estimate's error, not 67 million.
        assert!((60..=70).contains(&huge.estimate()), "{}", huge.estimate());
        let mut b = FootprintSketch::default();
        for i in 0..50_000u64 {
            b.add_access(&access(i * 320, 128));
        }
        let mut c = FootprintSketch::default();
        for i in 0..50_000u64 {
            c.add_access(&access(i * 320, 128));
        }
        assert_eq!(b.estimate(), c.estimate());
        assert!((b.estimate() as f64 - 100_000.0).abs() < 5_000.0);
    }
}
