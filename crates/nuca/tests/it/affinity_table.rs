//! The centralized Affinity Table: hand-worked sequences for the first
//! owner, saturation, halving, takeover by a margin and epochs; and a
//! naive reference model on random request streams.

use std::collections::HashMap;

use gfxcache_nuca::{AffinityTable, EpochReset};
use proptest::prelude::*;

fn table(fps: usize, bits: u32, margin: u32) -> AffinityTable {
    AffinityTable::new(4, fps, bits, margin, EpochReset::Halve)
}

#[test]
fn first_accessor_owns() {
    let mut t = table(3, 4, 25);
    assert_eq!(t.owner(2), None);
    assert_eq!(t.request(2, 1), 1);
    assert_eq!(t.owner(2), Some(1));
    assert_eq!(t.request(2, 0), 1);
    assert_eq!(t.owner(2), Some(1));
    assert_eq!(t.counters(2), [1, 1, 0]);
    assert_eq!(t.owner(0), None, "other buckets untouched");
    assert_eq!(t.ownership_changes(), 0, "a first owner is not a change");
}

/// 2-bit counters saturate at 3; the owner saturating halves everyone and
/// keeps the bucket.
#[test]
fn owner_saturating_halves_every_counter() {
    let mut t = table(2, 2, 25);
    t.request(0, 0);
    t.request(0, 1);
    t.request(0, 0);
    assert_eq!(t.counters(0), [2, 1]);
    t.request(0, 0); // 3: saturated
    assert_eq!(t.counters(0), [1, 0]);
    assert_eq!(t.owner(0), Some(0));
}

/// A challenger reaching saturation takes the bucket when it beats the
/// owner by the margin; the request that saturates still sees the old
/// owner, the next one the new.
#[test]
fn takeover() {
    let mut t = table(2, 2, 25);
    t.request(0, 0); // owner 0, [1, 0]
    assert_eq!(t.request(0, 1), 0); // [1, 1]
    assert_eq!(t.request(0, 1), 0); // [1, 2]
    assert_eq!(
        t.request(0, 1),
        0,
        "the saturating request retrieved the old owner"
    );
    // 3 x 100 > 1 x 125: taken; then halved to [0, 1].
    assert_eq!(t.owner(0), Some(1));
    assert_eq!(t.counters(0), [0, 1]);
    assert_eq!(t.ownership_changes(), 1);
    assert_eq!(t.request(0, 0), 1);
}

/// The margin is strict and on the counts before halving: with 3-bit
/// counters (7) and a 40 % margin, an owner at 5 keeps the bucket
/// (700 = 5 x 140), an owner at 4 loses it.
#[test]
fn margin_is_strict_and_before_halving() {
    for (owner_count, taken) in [(6u8, false), (5, false), (4, true)] {
        let mut t = table(2, 3, 40);
        for _ in 0..owner_count {
            t.request(1, 0);
        }
        for _ in 0..7 {
            t.request(1, 1);
        }
        assert_eq!(
            t.owner(1),
            Some(if taken { 1 } else { 0 }),
            "owner at {owner_count}"
        );
        assert_eq!(
            t.counters(1),
            [owner_count >> 1, 3],
            "halved after the decision"
        );
    }
    // A 25 % margin: 7 beats 5 (625) but not 6 (750).
    let mut t = table(2, 3, 25);
    for _ in 0..5 {
        t.request(3, 0);
    }
    for _ in 0..7 {
        t.request(3, 1);
    }
    assert_eq!(t.owner(3), Some(1));
}

/// An epoch's end: owner = largest count, ties to the lowest id, then the
/// counters halve; an untouched bucket stays unowned; a bucket whose counts
/// are all zero keeps its owner.
#[test]
fn epoch_redecides_then_halves() {
    let mut t = table(3, 4, 25);
    t.request(0, 0);
    t.request(0, 0);
    for _ in 0..5 {
        t.request(0, 1);
        t.request(0, 2);
    }
    t.request(2, 2);
    assert_eq!(t.counters(0), [2, 5, 5]);
    assert_eq!(t.owner(0), Some(0));
    t.end_epoch();
    assert_eq!(t.owner(0), Some(1), "5 ties 5: the lowest id");
    assert_eq!(t.counters(0), [1, 2, 2]);
    assert_eq!(t.owner(1), None);
    assert_eq!(t.owner(2), Some(2));
    assert_eq!(t.counters(2), [0, 0, 0]);
    t.end_epoch();
    assert_eq!(t.owner(2), Some(2), "nothing to decide from");
    assert_eq!(t.owner(0), Some(1));
    assert_eq!(t.ownership_changes(), 1);
}

#[test]
fn epoch_clear_resets_to_zero() {
    let mut t = AffinityTable::new(2, 2, 4, 25, EpochReset::Clear);
    for _ in 0..3 {
        t.request(1, 1);
    }
    t.end_epoch();
    assert_eq!(t.counters(1), [0, 0]);
    assert_eq!(t.owner(1), Some(1));
}

/// The reference: the rules written out again over hash maps, with the
/// margin as a difference.
struct Reference {
    fps: usize,
    max: u32,
    margin: u32,
    reset: EpochReset,
    owners: HashMap<usize, usize>,
    counts: HashMap<(usize, usize), u32>,
    changes: u64,
}

impl Reference {
    fn count(&self, b: usize, fp: usize) -> u32 {
        self.counts.get(&(b, fp)).copied().unwrap_or(0)
    }

    fn request(&mut self, b: usize, fp: usize) -> usize {
        let seen = *self.owners.entry(b).or_insert(fp);
        let c = self.count(b, fp) + 1;
        self.counts.insert((b, fp), c);
        if c == self.max {
            let o = self.count(b, seen);
            if seen != fp && (c - o) * 100 > o * self.margin && c > o {
                self.owners.insert(b, fp);
                self.changes += 1;
            }
            for p in 0..self.fps {
                let v = self.count(b, p) / 2;
                self.counts.insert((b, p), v);
            }
        }
        seen
    }

    fn end_epoch(&mut self, buckets: usize) {
        for b in 0..buckets {
            let best = (0..self.fps).map(|p| self.count(b, p)).max().unwrap();
            if best > 0 {
                let winner = (0..self.fps).find(|&p| self.count(b, p) == best).unwrap();
                if let Some(&o) = self.owners.get(&b) {
                    if o != winner {
                        self.changes += 1;
                    }
                }
                self.owners.insert(b, winner);
            }
            for p in 0..self.fps {
                let v = match self.reset {
                    EpochReset::Halve => self.count(b, p) / 2,
                    EpochReset::Clear => 0,
                };
                self.counts.insert((b, p), v);
            }
        }
    }
}

/// A request (bucket, fp), or an epoch's end.
#[derive(Clone, Debug)]
enum Step {
    Request(usize, usize),
    EndEpoch,
}

fn steps(buckets: usize, fps: usize) -> impl Strategy<Value = Vec<Step>> {
    prop::collection::vec(
        prop_oneof![
            20 => (0..buckets, 0..fps).prop_map(|(b, p)| Step::Request(b, p)),
            1 => Just(Step::EndEpoch),
        ],
        0..600,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn equals_the_reference(
        (buckets, fps, bits, margin, clear, steps) in (1usize..6, 1usize..5, 1u32..=5, 0u32..80, any::<bool>())
            .prop_flat_map(|(n, p, k, m, c)| (Just(n), Just(p), Just(k), Just(m), Just(c), steps(n, p)))
    ) {
        let reset = if clear { EpochReset::Clear } else { EpochReset::Halve };
        let mut t = AffinityTable::new(buckets, fps, bits, margin, reset);
        let mut r = Reference {
            fps,
            max: (1 << bits) - 1,
            margin,
            reset,
            owners: HashMap::new(),
            counts: HashMap::new(),
            changes: 0,
        };
        for (i, s) in steps.iter().enumerate() {
            match *s {
                Step::Request(b, p) => prop_assert_eq!(t.request(b, p), r.request(b, p), "step {}", i),
                Step::EndEpoch => {
                    t.end_epoch();
                    r.end_epoch(buckets);
                }
            }
            for b in 0..buckets {
                prop_assert_eq!(t.owner(b), r.owners.get(&b).copied(), "owner of {} after step {}", b, i);
                for p in 0..fps {
                    prop_assert_eq!(u32::from(t.counter(b, p)), r.count(b, p), "counter {} {} after step {}", b, p, i);
                }
            }
            prop_assert_eq!(t.ownership_changes(), r.changes);
        }
    }
}
