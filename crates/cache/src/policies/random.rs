//! Random: evict a uniformly random way of the full set.
//!
//! Reproducible: one SplitMix64 generator per cache, seeded with `seed`
//! (default 1), advanced once per victim choice; the way is the high half of
//! the 128-bit product of the 64-bit draw and the associativity
//! (`(r * ways) >> 64`, Lemire's multiply-shift; its bias is below
//! `ways / 2^64`). The same seed on the same trace and geometry gives the
//! same evictions.
//!
//! Parameters: `seed` (0 to 2^64-1, default 1).

use crate::error::CacheError;
use crate::geometry::Geometry;
use crate::policy::{Ctx, Env, Policy};
use crate::spec::Params;

/// SplitMix64 (Steele, Lea and Flood, 2014), as in `java.util.SplittableRandom`.
#[derive(Clone, Copy, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A draw in `0..n`, by multiply-shift.
    #[inline(always)]
    pub fn below(&mut self, n: u32) -> u32 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u32
    }
}

pub struct Random {
    ways: u32,
    rng: SplitMix64,
}

impl Policy for Random {
    fn build(p: &mut Params, g: &Geometry, _: &Env) -> Result<Random, CacheError> {
        let seed = p.take_u64("seed", 1, 0, u64::MAX)?;
        Ok(Random {
            ways: g.ways,
            rng: SplitMix64(seed),
        })
    }

    #[inline(always)]
    fn hit(&mut self, _: &Ctx, _: usize) {}

    #[inline(always)]
    fn victim(&mut self, _: &Ctx) -> Option<usize> {
        Some(self.rng.below(self.ways) as usize)
    }

    #[inline(always)]
    fn fill(&mut self, _: &Ctx, _: usize) {}
}

#[cfg(test)]
mod tests {
    use super::SplitMix64;

    #[test]
    fn splitmix64_reference_values() {
        // First outputs of Vigna's splitmix64.c for these seeds.
        assert_eq!(SplitMix64(0).next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(SplitMix64(1_234_567).next_u64(), 6_457_827_717_110_365_317);
    }
}
