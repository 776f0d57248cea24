//! The Affinity Table's k-bit saturating access counters (Section III-B)
//! and the takeover rule that compares them.

/// The largest value of a `bits`-bit counter (1 to 8 bits).
pub fn counter_max(bits: u32) -> u8 {
    debug_assert!((1..=8).contains(&bits));
    (u16::MAX >> (16 - bits)) as u8
}

/// Adds one to counter `c` (below `max`, since a saturated counter is
/// halved at once) and says whether it saturated: reached `max`.
#[inline]
pub fn bump(c: &mut u8, max: u8) -> bool {
    debug_assert!(*c < max, "a counter is halved as soon as it saturates");
    *c += 1;
    *c == max
}

/// Whether a `challenger` count takes a bucket from an owner with count
/// `owner`: strictly more than `owner` plus `margin_percent` percent of it
/// ("greater than the one from the current owner plus a percentage").
#[inline]
pub fn beats(challenger: u8, owner: u8, margin_percent: u32) -> bool {
    u64::from(challenger) * 100 > u64::from(owner) * (100 + u64::from(margin_percent))
}

/// The owner an epoch's end re-decides from a bucket's counters, one per
/// fragment processor: the largest count, ties to the lowest id; `None`
/// when every count is zero (nothing to decide from).
pub fn argmax(counters: &[u8]) -> Option<usize> {
    let mut best: Option<(usize, u8)> = None;
    for (fp, &c) in counters.iter().enumerate() {
        if c > 0 && best.is_none_or(|(_, b)| c > b) {
            best = Some((fp, c));
        }
    }
    best.map(|(fp, _)| fp)
}

/// What an epoch's end does to one counter.
#[inline]
pub fn reset(c: u8, how: crate::EpochReset) -> u8 {
    match how {
        crate::EpochReset::Halve => c >> 1,
        crate::EpochReset::Clear => 0,
    }
}
