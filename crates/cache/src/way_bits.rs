//! A set of a cache set's ways as a hierarchical bitset ([`WayBits`]):
//! insert, remove and the lowest or highest member in a few word
//! operations whatever the associativity, for victim rules that pick "the
//! way of lowest id with some property" in sets too large to scan (fully
//! associative caches: the RRIP family's [`crate::rrip::Rrpv`]), and for
//! sets of a trace's positions (fully associative OPT's next uses,
//! [`crate::full::opt`]).
//!
//! Level 0 has a bit a way; each level above has a bit a word of the
//! level below, set when that word is not zero; the top level is one
//! word. A way count of up to 64 is one level, up to 4,096 two, up to
//! 262,144 three.

use crate::error::CacheError;
use crate::table::filled;

/// A set of ways `0..ways`, by a bit a way and summary words above.
#[derive(Clone, Debug)]
pub struct WayBits {
    /// `levels[0]` a bit a way, `levels[k + 1]` a bit a word of
    /// `levels[k]`; the last is one word.
    levels: Vec<Vec<u64>>,
}

impl WayBits {
    /// The empty set over `ways` ways.
    pub fn new(ways: usize) -> WayBits {
        WayBits::try_new(ways, "a set of ways").unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`WayBits::new`], or [`CacheError::OutOfMemory`] naming `what`
    /// where its words do not fit in memory: for sets over positions of a
    /// trace rather than ways.
    pub fn try_new(bits: usize, what: &str) -> Result<WayBits, CacheError> {
        let mut levels = Vec::new();
        let mut bits = bits.max(1);
        loop {
            let words = bits.div_ceil(64);
            levels.push(filled(words, 0, what)?);
            if words == 1 {
                break;
            }
            bits = words;
        }
        Ok(WayBits { levels })
    }

    /// Every way `0..ways` in the set.
    pub fn full(ways: usize) -> WayBits {
        let mut b = WayBits::new(ways);
        for way in 0..ways {
            b.insert(way);
        }
        b
    }

    /// Whether no way is in the set.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.top() == 0
    }

    #[inline(always)]
    fn top(&self) -> u64 {
        // The last level is one word (`new`).
        self.levels[self.levels.len() - 1][0]
    }

    #[inline(always)]
    pub fn contains(&self, way: usize) -> bool {
        self.levels[0][way / 64] >> (way % 64) & 1 != 0
    }

    /// Adds `way`; the levels above learn of its word only if it was empty.
    #[inline(always)]
    pub fn insert(&mut self, way: usize) {
        let mut i = way;
        for level in &mut self.levels {
            let word = &mut level[i / 64];
            let was = *word;
            *word = was | 1 << (i % 64);
            if was != 0 {
                return;
            }
            i /= 64;
        }
    }

    /// Removes `way`; the levels above learn of its word only if it empties.
    #[inline(always)]
    pub fn remove(&mut self, way: usize) {
        let mut i = way;
        for level in &mut self.levels {
            let word = &mut level[i / 64];
            *word &= !(1 << (i % 64));
            if *word != 0 {
                return;
            }
            i /= 64;
        }
    }

    /// The lowest way in the set, if any: down from the top word, the
    /// lowest set bit of each level names the word of the next.
    #[inline(always)]
    pub fn first(&self) -> Option<usize> {
        if self.is_empty() {
            return None;
        }
        let mut i = 0;
        for level in self.levels.iter().rev() {
            let word = level[i];
            i = i * 64 + word.trailing_zeros() as usize;
        }
        Some(i)
    }

    /// The highest way in the set, if any: down from the top word, the
    /// highest set bit of each level names the word of the next.
    #[inline(always)]
    pub fn last(&self) -> Option<usize> {
        if self.is_empty() {
            return None;
        }
        let mut i = 0;
        for level in self.levels.iter().rev() {
            let word = level[i];
            i = i * 64 + 63 - word.leading_zeros() as usize;
        }
        Some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    #[test]
    fn the_levels_are_the_ways_then_their_words() {
        assert_eq!(WayBits::new(64).levels.len(), 1);
        assert_eq!(WayBits::new(65).levels.len(), 2);
        assert_eq!(WayBits::new(4096).levels.len(), 2);
        assert_eq!(WayBits::new(4097).levels.len(), 3);
        assert_eq!(WayBits::new(1 << 20).levels.len(), 4);
        let mut b = WayBits::full(5000);
        assert_eq!(b.first(), Some(0));
        assert_eq!(b.last(), Some(4999));
        for way in 0..4999 {
            b.remove(way);
        }
        assert_eq!(b.first(), Some(4999));
        b.remove(4999);
        assert_eq!(b.first(), None);
    }

    proptest! {
        /// Against a sorted set of the same ways.
        #[test]
        fn it_is_the_set_of_its_ways(
            ways in 1usize..20_000,
            ops in prop::collection::vec((any::<bool>(), any::<usize>()), 0..400),
        ) {
            let mut b = WayBits::new(ways);
            let mut reference = BTreeSet::new();
            for (add, way) in ops {
                let way = way % ways;
                if add {
                    b.insert(way);
                    reference.insert(way);
                } else {
                    b.remove(way);
                    reference.remove(&way);
                }
                prop_assert_eq!(b.first(), reference.first().copied());
                prop_assert_eq!(b.last(), reference.last().copied());
                prop_assert_eq!(b.is_empty(), reference.is_empty());
                prop_assert!(b.contains(way) == reference.contains(&way));
            }
        }
    }
}
