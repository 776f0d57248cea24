//! The sample sets of GSPZTC, GSPZTC+TSE and GSPC: "All our policies
//! dedicate sixteen sets in every 1024 LLC sets to learn various reuse
//! probabilities pertaining to the streams. These sets are identified by
//! simple Boolean functions on the LLC index bits."
//!
//! The function: with `s` the low 10 bits of the set index, set `s` is a
//! sample when its bits 9..6 equal its bits 3..0 and its bits 5..4 are
//! zero, i.e. `s = 65 * k` for `k` in `0..16` (sets 0, 65, 130, ..., 975 of
//! every 1024). That is 16 per 1024 sets, spread over the whole index range
//! and over every bank of a 1-, 2-, 4- or 8-bank LLC (`set % banks`): with
//! four banks each bank gets four samples per 1024 sets. With fewer than
//! 1024 sets the same function picks the sets `65 * k` below the set
//! count: one in 64 (only set 0 of 64 sets).
//!
//! Samples always run two-bit SRRIP (fill at 2, hit at 0) for every stream
//! and update the counters ([`crate::counters`]); the other sets apply the
//! policy's table.

/// Whether `set` is a sample set.
#[inline(always)]
pub fn is_sample(set: usize) -> bool {
    let s = set & 1023;
    (s >> 6) & 0xF == s & 0xF && (s >> 4) & 3 == 0
}

/// The SRRIP fill RRPV of the samples.
pub const SAMPLE_FILL: u8 = 2;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixteen_in_every_1024() {
        let first: Vec<usize> = (0..1024).filter(|&s| is_sample(s)).collect();
        assert_eq!(first, (0..16).map(|k| 65 * k).collect::<Vec<_>>());
        for base in [1024, 2048, 7 * 1024] {
            assert_eq!((base..base + 1024).filter(|&s| is_sample(s)).count(), 16);
        }
        // Every bank of a four-bank LLC gets four.
        for bank in 0..4 {
            assert_eq!(first.iter().filter(|&&s| s % 4 == bank).count(), 4);
        }
        // Fewer sets: one in 64.
        assert_eq!((0..256).filter(|&s| is_sample(s)).count(), 4);
        assert!(is_sample(0) && !is_sample(1) && !is_sample(64));
    }
}
