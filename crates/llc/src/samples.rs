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

/// Sample sets per bank (`set % banks`) of a cache of `sets` sets: the
/// sets `1024 * i + 65 * k` below `sets`.
pub fn per_bank(sets: u32, banks: u32) -> Vec<u32> {
    let mut per = vec![0u32; banks as usize];
    for base in (0..sets).step_by(1024) {
        for s in (0..16).map(|k| base + 65 * k).take_while(|&s| s < sets) {
            per[(s % banks) as usize] += 1;
        }
    }
    per
}

/// What a table policy (GSPZTC, GSPZTC+TSE, GSPC; its table named by
/// `table`) does on `sets` sets in `banks` banks where its samples cannot
/// do their job:
/// - one set (fully associative): set 0 is a sample, so every set learns
///   and runs two-bit SRRIP and none applies the table: exactly `srrip`;
/// - fewer than 1024 sets: fewer than the paper's 16 samples;
/// - a bank without a sample set (its counters are that bank's alone):
///   its counters never leave 0, so its sets always take the table's
///   RRPVs for unlearned counters ("FILL > t.HIT" is false).
///
/// A cache always has a sample set (set 0); only a bank can have none.
pub fn notes(sets: u32, banks: u32, table: &str) -> Vec<String> {
    if sets == 1 {
        return vec![format!(
            "the only set is a sample set: it learns and runs two-bit SRRIP and no set \
             applies {table}, so this runs exactly as srrip"
        )];
    }
    let per = per_bank(sets, banks);
    let mut notes = Vec::new();
    if sets < 1024 {
        let n: u32 = per.iter().sum();
        notes.push(format!(
            "{n} sample set(s) among {sets} sets, fewer than the paper's 16 (16 per 1024 sets): \
             the counters learn from fewer accesses"
        ));
    }
    let empty: Vec<String> = (0..banks)
        .filter(|&b| per[b as usize] == 0)
        .map(|b| b.to_string())
        .collect();
    if !empty.is_empty() {
        let shown = if empty.len() > 8 {
            format!("{} and {} more", empty[..8].join(", "), empty.len() - 8)
        } else {
            empty.join(", ")
        };
        notes.push(format!(
            "bank(s) {shown} of {banks} have no sample set: their counters never leave 0, so \
             their sets always take {table}'s RRPVs for unlearned counters"
        ));
    }
    notes
}

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

    #[test]
    fn per_bank_counts_the_samples() {
        for (sets, banks) in [(1, 1), (64, 1), (256, 4), (1000, 8), (4096, 4), (2048, 32)] {
            let mut want = vec![0u32; banks as usize];
            for s in (0..sets).filter(|&s| is_sample(s as usize)) {
                want[(s % banks) as usize] += 1;
            }
            assert_eq!(per_bank(sets, banks), want, "{sets} sets, {banks} banks");
        }
        // 16 per 1024 over four banks, four each.
        assert_eq!(per_bank(8192, 4), [32; 4]);
        // 32 banks: 65k % 32 = k, so banks 16..32 never have one.
        assert_eq!(per_bank(4096, 32)[16..], [0; 16]);
    }

    #[test]
    fn notes_say_when_samples_cannot_learn() {
        assert!(notes(8192, 4, "Table 3").is_empty());
        let one = notes(1, 1, "Table 3");
        assert_eq!(one.len(), 1);
        assert!(one[0].contains("exactly as srrip"), "{one:?}");
        // 64 sets: one sample (set 0), in bank 0 of 4.
        let few = notes(64, 4, "Table 5");
        assert_eq!(few.len(), 2, "{few:?}");
        assert!(
            few[0].starts_with("1 sample set(s) among 64 sets"),
            "{few:?}"
        );
        assert!(few[1].starts_with("bank(s) 1, 2, 3 of 4 have no sample set"));
        let many = notes(4096, 32, "Table 4");
        assert_eq!(many.len(), 1, "{many:?}");
        assert!(many[0].contains("16, 17, 18, 19, 20, 21, 22, 23 and 8 more"));
    }
}
