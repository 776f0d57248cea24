//! Per-set LRU stacks truncated to the largest associativity of interest.
//!
//! With a fixed set count, an A-way LRU cache holds exactly the A most
//! recent blocks of each set, so a block's depth in its set's recency stack
//! decides hit or miss for every A at once. Depths at or beyond the deepest
//! way asked for all mean "miss", which is why the stacks can be truncated.

use crate::error::CacheError;
use crate::policy::prefetch;

/// An empty stack entry; dense ids stay below 2^31.
const EMPTY: u32 = u32::MAX;

pub(crate) struct SetStacks {
    sets: u64,
    /// `sets - 1` when the set count is a power of two: a mask instead of a
    /// division, as the engine does.
    mask: Option<u64>,
    ways: usize,
    /// `sets * ways` dense block ids, most recent first in each set.
    ids: Vec<u32>,
}

impl SetStacks {
    /// An error where the stacks do not fit in memory.
    pub(crate) fn new(sets: u32, ways: u32) -> Result<SetStacks, CacheError> {
        Ok(SetStacks {
            sets: u64::from(sets),
            mask: sets.is_power_of_two().then(|| u64::from(sets - 1)),
            ways: ways as usize,
            ids: crate::table::filled(
                sets as usize * ways as usize,
                EMPTY,
                &format!("the recency stacks of {sets} sets x {ways} ways"),
            )?,
        })
    }

    /// A hint: an access to `block` is coming soon.
    #[inline(always)]
    pub(crate) fn prefetch(&self, block: u64) {
        let base = self.set_of(block) * self.ways;
        for i in (0..self.ways).step_by(16) {
            prefetch(&self.ids, base + i);
        }
    }

    #[inline(always)]
    fn set_of(&self, block: u64) -> usize {
        let set = match self.mask {
            Some(m) => block & m,
            None => block % self.sets,
        };
        set as usize
    }

    /// The depth of `id` in the stack of `block`'s set, `ways` when it is
    /// not there; then moves it to the front.
    #[inline(always)]
    pub(crate) fn access(&mut self, block: u64, id: u32) -> usize {
        let set = self.set_of(block);
        let row = &mut self.ids[set * self.ways..(set + 1) * self.ways];
        let depth = find(row, id);
        if depth != 0 {
            row.copy_within(0..depth.min(self.ways - 1), 1);
            row[0] = id;
        }
        depth
    }
}

/// The index of `id` in `row`, or `row.len()`. Asks first whether a run
/// of 16 holds it at all, a question without early exit that the compiler
/// answers with a few vector compares, and only then where: deep stacks
/// (64 ways) cost a handful of instructions per run instead of a compare
/// and branch per way.
#[inline(always)]
fn find(row: &[u32], id: u32) -> usize {
    if row.first() == Some(&id) {
        return 0;
    }
    let mut runs = row.chunks_exact(16);
    let mut base = 0;
    for r in &mut runs {
        if r.iter().fold(false, |hit, &x| hit | (x == id)) {
            return base + r.iter().position(|&x| x == id).unwrap_or(0);
        }
        base += 16;
    }
    runs.remainder()
        .iter()
        .position(|&x| x == id)
        .map_or(row.len(), |i| base + i)
}
