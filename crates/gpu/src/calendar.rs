//! A resource that serves one unit per cycle (a mesh link passing one flit,
//! an L2 bank taking one access), reserved cycle by cycle. Requests come in
//! trace order, not time order (the fragment processors' clocks differ), so
//! a "next free cycle" counter would make an early request wait behind a
//! later one; a calendar gives each request the first free run of cycles at
//! or after its own time, whatever order the requests come in.
//!
//! The calendar is a ring bitmap of [`WINDOW`] cycles that slides forward
//! with the latest reservation. A request more than a window behind it is
//! held to the window's start and counted as late
//! ([`Calendar::late`]): the report says how often the approximation bit.
//! No allocation after construction.
//!
//! A loaded resource (the bus to the L2 with hundreds of transfers queued)
//! has long stretches of reserved cycles ahead of a request, so the search
//! for a free run skips whole reserved words, and a second bitmap of the
//! full words lets it skip 64 of them (4096 cycles) at a time.

/// Cycles a calendar remembers (a power of two, a multiple of 64).
pub const WINDOW: u64 = 1 << 16;

/// Most cycles one reservation may take (a packet's flits, reserved on a
/// link in one window): a configuration that would send a longer one is
/// refused before anything runs.
pub const MAX_PACKET_FLITS: u64 = 4096;

/// One resource's reserved cycles.
#[derive(Clone, Debug)]
pub struct Calendar {
    /// Bit `c % window` is set when cycle `c` (in the window) is reserved.
    bits: Vec<u64>,
    /// Bit `w` is set when word `w` of `bits` is full (every one of its 64
    /// cycles reserved).
    full: Vec<u64>,
    /// The window's first cycle, a multiple of 64.
    base: u64,
    /// Cycles remembered: [`WINDOW`] unless made otherwise.
    window: u64,
    late: u64,
}

impl Default for Calendar {
    fn default() -> Calendar {
        Calendar::new()
    }
}

impl Calendar {
    /// A calendar with nothing reserved.
    pub fn new() -> Calendar {
        Calendar::with_window(WINDOW)
    }

    /// A calendar that remembers `window` cycles (a power of two, at
    /// least 4,096).
    pub fn with_window(window: u64) -> Calendar {
        assert!(window.is_power_of_two() && window >= 4096);
        let words = (window / 64) as usize;
        Calendar {
            bits: vec![0; words],
            full: vec![0; words.div_ceil(64)],
            base: 0,
            window,
            late: 0,
        }
    }

    /// Reserves the first `len` consecutive free cycles starting at or after
    /// `t` and returns the first of them. `len` is 1 to
    /// [`MAX_PACKET_FLITS`].
    #[inline]
    pub fn reserve(&mut self, t: u64, len: u32) -> u64 {
        debug_assert!(len >= 1 && u64::from(len) <= MAX_PACKET_FLITS);
        let len = u64::from(len);
        let mut c = if t < self.base {
            self.late += 1;
            self.base
        } else {
            t
        };
        loop {
            // A run cannot start on a reserved cycle: skip them a word at
            // a time before testing the run.
            c = self.first_free(c);
            self.cover(c + len);
            match self.last_set(c, len) {
                Some(busy) => c = busy + 1,
                None => {
                    self.set_run(c, len);
                    return c;
                }
            }
        }
    }

    /// Reserves the first `n` free cycles at or after `t`, in a row or not
    /// (a shader core giving its free cycles to one context's work), and
    /// returns the last of them. `n` is at least 1.
    pub fn reserve_free(&mut self, t: u64, n: u64) -> u64 {
        debug_assert!(n >= 1);
        let mut c = if t < self.base {
            self.late += 1;
            self.base
        } else {
            t
        };
        let mut left = n;
        loop {
            self.cover(c + 1);
            let offset = c % 64;
            let word = self.word_of(c);
            let free = !self.bits[word] & (u64::MAX << offset);
            let k = u64::from(free.count_ones());
            let take = if k >= left {
                lowest_bits(free, left)
            } else {
                free
            };
            self.bits[word] |= take;
            if self.bits[word] == u64::MAX {
                self.full[word / 64] |= 1 << (word % 64);
            }
            if k >= left {
                let last = c - offset + u64::from(63 - take.leading_zeros());
                self.cover(last + 1);
                return last;
            }
            left -= k;
            c = self.first_free(c - offset + 64);
        }
    }

    /// Takes every cycle from `from` (at least the window's start) to
    /// `last`, both included, those free and those taken already: with
    /// `last` from [`Calendar::free_nth`], what
    /// [`Calendar::reserve_free`] would take, without counting.
    pub fn take_through(&mut self, from: u64, last: u64) {
        if from < self.base {
            self.late += 1;
        }
        self.cover(last + 1);
        let mut c = from.max(self.base);
        while c <= last {
            let (word, mask, n) = self.word_run(c, last + 1 - c);
            self.bits[word] |= mask;
            if self.bits[word] == u64::MAX {
                self.full[word / 64] |= 1 << (word % 64);
            }
            c += n;
        }
    }

    /// The `n`-th free cycle at or after `t` (at least the window's
    /// start), `n` at least 1: where [`Calendar::reserve_free`] would end,
    /// reserving nothing.
    pub fn free_nth(&self, t: u64, n: u64) -> u64 {
        debug_assert!(n >= 1);
        let end = self.base + self.window;
        let mut c = t.max(self.base);
        let mut left = n;
        while c < end {
            let offset = c % 64;
            let free = !self.bits[self.word_of(c)] & (u64::MAX << offset);
            let k = u64::from(free.count_ones());
            if k >= left {
                let bit = lowest_bits(free, left).leading_zeros();
                return c - offset + u64::from(63 - bit);
            }
            left -= k;
            c = self.first_free(c - offset + 64);
        }
        c + left - 1
    }

    /// Free cycles from `from` (at least the window's start) up to `to`,
    /// not including it.
    pub fn free_between(&self, from: u64, to: u64) -> u64 {
        let end = self.base + self.window;
        let mut c = from.max(self.base);
        let mut free = 0;
        while c < to.min(end) {
            let offset = c % 64;
            let n = (64 - offset).min(to - c);
            let mask = if n == 64 {
                u64::MAX
            } else {
                ((1u64 << n) - 1) << offset
            };
            free += u64::from((!self.bits[self.word_of(c)] & mask).count_ones());
            c += n;
        }
        free + to.saturating_sub(c.max(end))
    }

    /// Forgets the reservations from `from` up to `to`, not including it
    /// (the window stays where it is).
    pub fn clear_between(&mut self, from: u64, to: u64) {
        if to.saturating_sub(from) >= self.window {
            self.bits.fill(0);
            self.full.fill(0);
            return;
        }
        let mut c = from;
        while c < to {
            let (word, mask, n) = self.word_run(c, to - c);
            self.bits[word] &= !mask;
            self.full[word / 64] &= !(1 << (word % 64));
            c += n;
        }
    }

    /// The word of the ring that holds cycle `c`.
    #[inline]
    fn word_of(&self, c: u64) -> usize {
        ((c & (self.window - 1)) / 64) as usize
    }

    /// Requests held to the window's start because they came more than a
    /// window behind the latest reservation.
    pub fn late(&self) -> u64 {
        self.late
    }

    /// Slides the window so that cycles below `end` are in it.
    #[inline]
    fn cover(&mut self, end: u64) {
        if end <= self.base + self.window {
            return;
        }
        let new_base = (end - self.window).div_ceil(64) * 64;
        if new_base - self.base >= self.window {
            self.bits.fill(0);
            self.full.fill(0);
        } else {
            for word in (self.base / 64)..(new_base / 64) {
                let w = word as usize & (self.bits.len() - 1);
                self.bits[w] = 0;
                self.full[w / 64] &= !(1 << (w % 64));
            }
        }
        self.base = new_base;
    }

    /// The first cycle at or after `c` (at least the window's start) that
    /// is free or lies past the window's end, where nothing is reserved
    /// yet: no run of free cycles can start on a reserved one.
    #[inline]
    fn first_free(&self, c: u64) -> u64 {
        let end = self.base + self.window;
        if c >= end {
            return c;
        }
        let offset = c % 64;
        let word = self.word_of(c);
        let free = !self.bits[word] >> offset;
        if free != 0 {
            return c + u64::from(free.trailing_zeros());
        }
        // The words after `c`'s, by the bitmap of full words.
        let mut start = c - offset + 64;
        while start < end {
            let w = self.word_of(start);
            let not_full = !self.full[w / 64] >> (w % 64);
            if not_full == 0 {
                start += (64 - (w % 64) as u64) * 64;
                continue;
            }
            let next = start + u64::from(not_full.trailing_zeros()) * 64;
            if next >= end {
                break;
            }
            let w = self.word_of(next);
            return next + u64::from((!self.bits[w]).trailing_zeros());
        }
        end
    }

    /// The bits of the run of `len` cycles from `c` that lie in one word:
    /// (word index, mask, cycles covered), for the run's first word.
    #[inline]
    fn word_run(&self, c: u64, len: u64) -> (usize, u64, u64) {
        let i = c & (self.window - 1);
        let offset = i % 64;
        let n = len.min(64 - offset);
        let mask = if n == 64 {
            u64::MAX
        } else {
            ((1u64 << n) - 1) << offset
        };
        ((i / 64) as usize, mask, n)
    }

    /// The last busy cycle among the `len` from `c`, if any: the next free
    /// run can start only after it.
    #[inline]
    fn last_set(&self, mut c: u64, mut len: u64) -> Option<u64> {
        let mut last = None;
        while len > 0 {
            let (word, mask, n) = self.word_run(c, len);
            let busy = self.bits[word] & mask;
            if busy != 0 {
                let bit = 63 - u64::from(busy.leading_zeros());
                last = Some(c - c % 64 + bit);
            }
            c += n;
            len -= n;
        }
        last
    }

    /// Marks the `len` cycles from `c` busy.
    #[inline]
    fn set_run(&mut self, mut c: u64, mut len: u64) {
        while len > 0 {
            let (word, mask, n) = self.word_run(c, len);
            self.bits[word] |= mask;
            if self.bits[word] == u64::MAX {
                self.full[word / 64] |= 1 << (word % 64);
            }
            c += n;
            len -= n;
        }
    }
}

/// The lowest `n` set bits of `x` (`n` at most its set bits).
#[inline]
fn lowest_bits(mut x: u64, n: u64) -> u64 {
    let mut taken = 0;
    for _ in 0..n {
        let low = x & x.wrapping_neg();
        taken |= low;
        x ^= low;
    }
    taken
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    #[test]
    fn a_reservation_takes_the_first_free_run_at_or_after_its_time() {
        let mut c = Calendar::new();
        assert_eq!(c.reserve(10, 5), 10); // 10..15
        assert_eq!(c.reserve(12, 1), 15); // 10..15 busy
        assert_eq!(c.reserve(3, 5), 3); // 3..8, before the first: no wait
        assert_eq!(c.reserve(6, 3), 16); // 8, 9 free but too short; 15 taken
        assert_eq!(c.reserve(8, 2), 8);
        assert_eq!(c.late(), 0);
    }

    #[test]
    fn the_window_slides_and_a_far_late_request_is_held_and_counted() {
        let mut c = Calendar::new();
        assert_eq!(c.reserve(5, 1), 5);
        let far = 10 * WINDOW + 7;
        assert_eq!(c.reserve(far, 2), far);
        // Cycle 5's reservation is gone with the old window; a request at
        // 5 is now more than a window behind and is held to the start.
        let start = c.reserve(5, 1);
        assert!(start > 5 && start + WINDOW >= far, "{start}");
        assert_eq!(c.late(), 1);
        // Within the window, order does not matter.
        assert_eq!(c.reserve(far - 100, 1), far - 100);
        assert_eq!(c.reserve(far + 1, 1), far + 2);
    }

    #[test]
    fn a_calendar_remembers_its_window() {
        let (mut small, mut default) = (Calendar::with_window(4096), Calendar::new());
        for c in [&mut small, &mut default] {
            assert_eq!(c.reserve(100, 1), 100);
            assert_eq!(c.reserve(10_000, 1), 10_000);
        }
        // Cycle 100 is more than 4,096 behind: held to the small window's
        // start and counted; the default window still holds it.
        assert!(small.reserve(100, 1) > 100);
        assert_eq!(small.late(), 1);
        assert_eq!(default.reserve(100, 1), 101);
        assert_eq!(default.late(), 0);
    }

    /// The rule written out plainly: the reserved cycles as a set, a
    /// request taking the first `len` free cycles in a row at or after
    /// its time (or the window's start), and the window the `WINDOW`
    /// cycles, from a multiple of 64, that end with the latest
    /// reservation.
    #[derive(Default)]
    struct Reference {
        reserved: BTreeSet<u64>,
        base: u64,
        late: u64,
    }

    impl Reference {
        fn reserve(&mut self, t: u64, len: u64) -> u64 {
            if t < self.base {
                self.late += 1;
            }
            let mut run = 0;
            let mut c = t.max(self.base);
            let start = loop {
                if self.reserved.contains(&c) {
                    run = 0;
                } else {
                    run += 1;
                    if run == len {
                        break c + 1 - len;
                    }
                }
                c += 1;
            };
            self.reserved.extend(start..start + len);
            self.slide(start + len);
            start
        }

        /// The first `n` free cycles at or after `t`, in a row or not.
        fn free_cycles(&self, t: u64, n: u64) -> Vec<u64> {
            (t.max(self.base)..)
                .filter(|c| !self.reserved.contains(c))
                .take(n as usize)
                .collect()
        }

        fn reserve_free(&mut self, t: u64, n: u64) -> u64 {
            if t < self.base {
                self.late += 1;
            }
            let cycles = self.free_cycles(t, n);
            let last = *cycles.last().unwrap();
            self.reserved.extend(cycles);
            self.slide(last + 1);
            last
        }

        fn free_between(&self, from: u64, to: u64) -> u64 {
            (from.max(self.base)..to)
                .filter(|c| !self.reserved.contains(c))
                .count() as u64
        }

        /// The window ends at `end` or later.
        fn slide(&mut self, end: u64) {
            if end > self.base + WINDOW {
                self.base = (end - WINDOW).div_ceil(64) * 64;
                self.reserved = self.reserved.split_off(&self.base);
            }
        }
    }

    #[test]
    fn a_cores_work_takes_the_free_cycles_in_a_row_or_not() {
        let mut c = Calendar::new();
        assert_eq!(c.reserve(10, 5), 10); // 10..15
                                          // 3 cycles from 8: 8, 9, then 15.
        assert_eq!(c.free_nth(8, 3), 15);
        assert_eq!(c.free_between(8, 16), 3);
        assert_eq!(c.reserve_free(8, 3), 15);
        assert_eq!(c.free_between(0, 20), 20 - 8);
        // Across words and past the window's end.
        assert_eq!(c.reserve_free(60, 70), 129);
        assert_eq!(c.free_nth(0, 9), 16); // 0..8, then 16
        let far = WINDOW + 10;
        assert_eq!(c.free_nth(far, 5), far + 4);
        assert_eq!(c.free_between(WINDOW - 2, WINDOW + 3), 5);
        assert_eq!(c.reserve_free(far, 5), far + 4);
        let mut c = Calendar::new();
        assert_eq!(c.reserve(8, 120), 8); // 8..128
                                          // Cleared from 9 to 100: 8 and 100.. stay taken.
        c.clear_between(9, 100);
        assert_eq!(c.free_nth(8, 91), 99);
        assert_eq!(c.free_nth(8, 92), 128);
        assert_eq!(c.free_between(0, 200), 200 - 1 - 28);
    }

    /// A request: how far the clock moves on, how far behind it the
    /// request asks, and its length; mostly short, some long enough to
    /// fill whole words, some jumps and lags past the window.
    fn request() -> impl Strategy<Value = (u64, u64, u64)> {
        let advance = prop_oneof![8 => 0u64..4, 1 => 0u64..3 * WINDOW];
        let behind = prop_oneof![8 => 0u64..300, 1 => 0u64..WINDOW + 5000];
        let len = prop_oneof![6 => 1u64..=4, 3 => 1u64..=130, 1 => 1u64..=MAX_PACKET_FLITS];
        (advance, behind, len)
    }

    proptest! {
        #[test]
        fn reserves_as_the_plain_rule_does(
            requests in proptest::collection::vec(request(), 1..600),
        ) {
            let mut calendar = Calendar::new();
            let mut reference = Reference::default();
            let mut now = 0u64;
            for (advance, behind, len) in requests {
                now += advance;
                let t = now.saturating_sub(behind);
                prop_assert_eq!(calendar.reserve(t, len as u32), reference.reserve(t, len));
                prop_assert_eq!(calendar.late(), reference.late);
            }
        }

        /// Runs in a row and free cycles in any order, with the peeks
        /// before each, as the plain rule gives them.
        #[test]
        fn reserves_free_cycles_as_the_plain_rule_does(
            requests in proptest::collection::vec((request(), any::<bool>()), 1..300),
        ) {
            let mut calendar = Calendar::new();
            let mut reference = Reference::default();
            let mut now = 0u64;
            for ((advance, behind, len), scattered) in requests {
                now += advance;
                let t = now.saturating_sub(behind);
                if scattered {
                    prop_assert_eq!(calendar.free_nth(t, len), *reference.free_cycles(t, len).last().unwrap());
                    prop_assert_eq!(calendar.free_between(t, t + len + 70), reference.free_between(t, t + len + 70));
                    let last = reference.reserve_free(t, len);
                    if len % 2 == 0 {
                        prop_assert_eq!(calendar.reserve_free(t, len), last);
                    } else {
                        prop_assert_eq!(calendar.free_nth(t, len), last);
                        calendar.take_through(t, last);
                    }
                } else {
                    prop_assert_eq!(calendar.reserve(t, len as u32), reference.reserve(t, len));
                }
                prop_assert_eq!(calendar.late(), reference.late);
            }
        }
    }
}
