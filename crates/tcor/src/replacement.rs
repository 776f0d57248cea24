//! Victim choice of the Attribute Cache, per policy: the OPT of TCOR and
//! the policies the paper compares it with in a 4-way L1 (Section V-A,
//! Figure 13: "LRU, MRU, DRRIP and OPT").
//!
//! Every policy ranks the lines of a set, and the victim is the *unlocked*
//! valid line of greatest rank (the lowest line on ties); locked lines
//! (line lock or first-attribute lock set: a primitive still in the Tile
//! Fetcher's output queue) are never victims, whatever the policy. When
//! the Attribute Buffer needs room, further victims are taken by the same
//! rule from every line of the Primitive Buffer.
//!
//! - [`Replacement::Opt`]: rank = OPT Number; writes may bypass.
//! - [`Replacement::Lru`]: rank = age since the last read or write.
//! - [`Replacement::Mru`]: rank = recency: the most recently read or
//!   written unlocked line goes first.
//! - [`Replacement::Drrip`]: rank = the line's 2-bit RRPV ([`Drrip`]).
//!
//! Only OPT bypasses writes; the others always allocate.

use gfxcache_cache::duel::{Psel, SetDuel};
use gfxcache_cache::rrip::Throttle;
use serde::Serialize;

use crate::primitive_buffer::PbLine;

/// Victim choice of the Attribute Cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Replacement {
    /// Greatest OPT Number; writes may bypass (TCOR).
    #[default]
    Opt,
    /// Least recently used; writes always allocate.
    Lru,
    /// Most recently used; writes always allocate.
    Mru,
    /// Dynamic RRIP (2-bit RRPVs, SRRIP/BRRIP set dueling); writes always
    /// allocate.
    Drrip,
}

impl Replacement {
    /// Every policy, in the order of the paper's Figure 13 after OPT.
    pub const ALL: [Replacement; 4] = [
        Replacement::Opt,
        Replacement::Lru,
        Replacement::Mru,
        Replacement::Drrip,
    ];

    /// How much a valid line deserves eviction under this policy: the
    /// greater, the sooner (the victim is the unlocked line of greatest
    /// rank, the lowest line on ties).
    pub fn rank(self, l: &PbLine) -> u64 {
        match self {
            Replacement::Opt => u64::from(l.opt.0),
            Replacement::Lru => u64::MAX - l.stamp,
            Replacement::Mru => l.stamp,
            Replacement::Drrip => u64::from(l.rrpv),
        }
    }

    /// The greatest rank a line can have under this policy, where there is
    /// one below `u64::MAX` that lines reach: a scan for the victim can
    /// stop at the first evictable line holding it.
    pub fn top_rank(self) -> Option<u64> {
        match self {
            Replacement::Drrip => Some(u64::from(RRPV_MAX)),
            Replacement::Opt | Replacement::Lru | Replacement::Mru => None,
        }
    }

    /// The lowercase name (as serialised).
    pub fn name(self) -> &'static str {
        match self {
            Replacement::Opt => "opt",
            Replacement::Lru => "lru",
            Replacement::Mru => "mru",
            Replacement::Drrip => "drrip",
        }
    }
}

impl std::str::FromStr for Replacement {
    type Err = String;
    fn from_str(s: &str) -> Result<Replacement, String> {
        Replacement::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| format!("replacement '{s}': expected opt, lru, mru or drrip"))
    }
}

/// RRPV width of DRRIP's Primitive Buffer lines.
pub const RRPV_BITS: u32 = 2;
/// The largest RRPV: "re-referenced in the distant future".
pub const RRPV_MAX: u8 = (1 << RRPV_BITS) - 1;
/// Leader sets per policy.
pub const LEADERS: u32 = 32;
/// Width of the policy-selection counter.
pub const PSEL_BITS: u32 = 10;
/// BRRIP inserts every this-many-th fill at `RRPV_MAX - 1`.
pub const THROTTLE: u32 = 32;

/// DRRIP (Jaleel et al. ISCA'10) over the Primitive Buffer, exactly as the
/// cache engine's `drrip` with its defaults: a 2-bit RRPV per line, 0 on a
/// hit; fills by set dueling between SRRIP (insert at 2) and BRRIP (insert
/// at 3, every 32nd at 2), 32 leader sets per policy ([`SetDuel`]) and a
/// 10-bit PSEL ([`Psel`]): a fill in an SRRIP leader increments it, a fill
/// in a BRRIP leader decrements it; followers run BRRIP when its MSB is
/// set. One BRRIP [`Throttle`] serves every set. With one set (fully
/// associative) there are no leaders and DRRIP is SRRIP.
///
/// Victim: the lowest unlocked line with RRPV 3; when no unlocked line has
/// it, every unlocked line is aged by the same amount until one does
/// (locked lines neither age nor go). The cache applies the ageing only
/// when it evicts (a stalled read changes nothing).
#[derive(Clone, Debug)]
pub struct Drrip {
    duel: SetDuel,
    psel: Psel,
    throttle: Throttle,
}

impl Drrip {
    pub fn new(sets: u32) -> Drrip {
        Drrip {
            duel: SetDuel::new(sets, LEADERS),
            psel: Psel::new(PSEL_BITS),
            throttle: Throttle::new(THROTTLE),
        }
    }

    /// The RRPV of a fill in `set`, moving the counter for a leader.
    pub fn insertion(&mut self, set: u32) -> u8 {
        let bimodal = self.psel.choose(self.duel.role(set as usize));
        self.throttle.dueling_insertion(bimodal, RRPV_MAX)
    }

    /// The counter's value.
    pub fn psel(&self) -> u32 {
        self.psel.value()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for r in Replacement::ALL {
            assert_eq!(r.name().parse::<Replacement>(), Ok(r));
        }
        assert!("belady".parse::<Replacement>().is_err());
    }

    #[test]
    fn drrip_duels_srrip_against_brrip() {
        // One set: no leaders, SRRIP (PSEL starts below its midpoint).
        let mut d = Drrip::new(1);
        assert!((0..100).all(|_| d.insertion(0) == 2));
        // 64 sets, 32 leaders each: set 0 leads SRRIP, set 1 BRRIP.
        let mut d = Drrip::new(64);
        assert_eq!(d.insertion(0), 2);
        assert_eq!(d.psel(), 512);
        // BRRIP: 3 but every 32nd at 2.
        let v: Vec<u8> = (0..32).map(|_| d.insertion(1)).collect();
        assert!(v[..31].iter().all(|&x| x == 3) && v[31] == 2);
        assert_eq!(d.psel(), 480);
    }
}
