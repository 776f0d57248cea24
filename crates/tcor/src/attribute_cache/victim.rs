//! Which line an Attribute Cache evicts: the unlocked line its policy
//! ranks first, in a set or (when the Attribute Buffer needs room) in the
//! whole cache, and DRRIP's ageing on the way.

use super::*;

impl AttributeCache {
    pub(super) fn evictable(&self, l: &PbLine) -> bool {
        l.valid && l.lock == 0 && !self.ab.is_locked(l.abp)
    }

    pub(super) fn rank(&self, l: &PbLine) -> u64 {
        self.config.replacement.rank(l)
    }

    /// Whether victims are found by scanning, never through `order`:
    /// DRRIP's ranks change for a whole set at once when it ages.
    pub(super) fn scans(&self) -> bool {
        self.config.replacement == Replacement::Drrip
    }

    /// The key of line `i` in `order` (rank 0 for DRRIP, whose victims
    /// are scanned for, so that ageing leaves `order` alone).
    pub(super) fn key(&self, i: usize) -> (u64, u32) {
        let rank = if self.scans() {
            0
        } else {
            self.rank(self.pb.line(i))
        };
        (rank, u32::MAX - i as u32)
    }

    /// Valid lines, greatest rank first (lowest line first on ties).
    pub(super) fn by_rank(&self) -> impl Iterator<Item = usize> + '_ {
        self.order
            .iter()
            .rev()
            .map(|&(_, k)| (u32::MAX - k) as usize)
    }

    /// The evictable line of `lines` with the greatest rank (the first on
    /// ties), by scanning them; the first at the policy's top rank ends the
    /// scan, since no later line can beat it.
    pub(super) fn victim_scan(&self, lines: impl Iterator<Item = usize>) -> Option<usize> {
        let top = self.config.replacement.top_rank();
        let mut best: Option<(usize, u64)> = None;
        for i in lines {
            let l = self.pb.line(i);
            if !l.valid {
                continue;
            }
            let r = self.rank(l);
            // The rank first: the lock test reads the Attribute Buffer,
            // and only a line that would beat the best so far needs it.
            if best.is_some_and(|(_, b)| r <= b) || !self.evictable(l) {
                continue;
            }
            if Some(r) == top {
                return Some(i);
            }
            best = Some((i, r));
        }
        best.map(|(i, _)| i)
    }

    /// The victim of a set: the evictable line with the greatest rank.
    pub(super) fn set_victim(&self, set: u32) -> Option<usize> {
        if self.pb.ways() <= SCAN_WAYS || self.scans() {
            return self.victim_scan(self.pb.set_lines(set));
        }
        let lines = self.pb.set_lines(set);
        let v = self
            .by_rank()
            .find(|&i| lines.contains(&i) && self.evictable(self.pb.line(i)));
        debug_assert_eq!(v, self.victim_scan(self.pb.set_lines(set)));
        v
    }

    /// The victim among all lines, for Attribute Buffer room.
    pub(super) fn any_victim(&self) -> Option<usize> {
        if self.scans() {
            return self.victim_scan(0..self.pb.capacity() as usize);
        }
        let v = self.by_rank().find(|&i| self.evictable(self.pb.line(i)));
        debug_assert_eq!(v, self.victim_scan(0..self.pb.capacity() as usize));
        v
    }

    /// DRRIP's ageing before evicting `victim`, chosen among `lines`: every
    /// unlocked line of them gains what `victim` lacks of the maximum RRPV
    /// (so that the victim is the lowest unlocked line at the maximum).
    /// Nothing for the other policies.
    pub(super) fn age(&mut self, victim: usize, lines: std::ops::Range<usize>) {
        if self.drrip.is_none() {
            return;
        }
        let by = RRPV_MAX - self.pb.line(victim).rrpv;
        if by == 0 {
            return;
        }
        for i in lines {
            if self.evictable(self.pb.line(i)) {
                self.pb.line_mut(i).rrpv += by;
            }
        }
    }
}
