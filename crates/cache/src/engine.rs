//! The cache engine: tags, valid and dirty bits, write policy, bypass and
//! statistics, generic over the replacement policy.

use gfxcache_trace::{Access, Stream};
use rustc_hash::FxHashMap;

use crate::geometry::{Geometry, WritePolicy};
use crate::policy::{Ctx, Policy};
use crate::stats::{Counts, Stats};

/// Tag of an invalid way; no block address reaches it (addresses are shifted
/// by at least one block bit... or are blocks of size 1, where u64::MAX
/// itself is the only address lost).
const INVALID: u64 = u64::MAX;

/// Above this associativity, lookups go through a hash index instead of a
/// scan of the set's tags.
const SCAN_WAYS: u32 = 64;

/// The first and last block an access touches, blocks being `1 << shift`
/// bytes. A size of 0 counts as 1; an access running past the top of the
/// address space stops there.
#[inline(always)]
pub fn block_range(a: &Access, shift: u32) -> (u64, u64) {
    let end = a.addr.saturating_add(u64::from(a.size.max(1)) - 1);
    (a.addr >> shift, end >> shift)
}

/// A set of streams, as a bit mask over [`Stream::id`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StreamMask(pub u16);

impl StreamMask {
    pub fn with(self, s: Stream) -> StreamMask {
        StreamMask(self.0 | 1 << s.id())
    }

    #[inline(always)]
    pub fn contains(self, s: Stream) -> bool {
        self.0 >> s.id() & 1 != 0
    }
}

/// A cache running policy `P`.
pub struct Cache<P> {
    geom: Geometry,
    shift: u32,
    tags: Vec<u64>,
    dirty: Vec<bool>,
    /// Stream of the last access that filled or wrote each line; evictions
    /// and write-backs are counted against it.
    owner: Vec<Stream>,
    /// Valid ways per set. Lines are never invalidated, so the valid ways of
    /// a set are exactly `0..filled[set]` and the lowest invalid way is
    /// `filled[set]`.
    filled: Vec<u32>,
    /// Block -> slot, for caches too associative to scan.
    index: Option<FxHashMap<u64, u32>>,
    unallocated: StreamMask,
    seq: u64,
    stats: Stats,
    policy: P,
}

impl<P: Policy> Cache<P> {
    pub fn new(geom: Geometry, policy: P, unallocated: StreamMask) -> Cache<P> {
        let n = geom.blocks();
        Cache {
            geom,
            shift: geom.block_shift(),
            tags: vec![INVALID; n],
            dirty: vec![false; n],
            owner: vec![Stream::Other; n],
            filled: vec![0; geom.sets as usize],
            index: (geom.ways > SCAN_WAYS)
                .then(|| FxHashMap::with_capacity_and_hasher(n, Default::default())),
            unallocated,
            seq: 0,
            stats: Stats::default(),
            policy,
        }
    }

    pub fn geometry(&self) -> &Geometry {
        &self.geom
    }

    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    pub fn policy(&self) -> &P {
        &self.policy
    }

    /// Block accesses made so far.
    pub fn block_accesses(&self) -> u64 {
        self.seq
    }

    /// Whether `block` is resident.
    pub fn contains(&self, block: u64) -> bool {
        let set = self.geom.set_of(block);
        self.lookup(set, block).is_some()
    }

    pub fn access_all(&mut self, accesses: &[Access]) {
        for a in accesses {
            self.access(a);
        }
    }

    /// One trace access: every block it touches, in address order.
    #[inline]
    pub fn access(&mut self, a: &Access) {
        let (first, last) = block_range(a, self.shift);
        let write = a.op.is_write();
        self.access_block(first, a.stream, write, a.unit);
        let mut b = first;
        while b < last {
            b += 1;
            self.access_block(b, a.stream, write, a.unit);
        }
    }

    #[inline(always)]
    fn lookup(&self, set: usize, block: u64) -> Option<usize> {
        let ways = self.geom.ways as usize;
        match &self.index {
            None => {
                let base = set * ways;
                self.tags[base..base + ways]
                    .iter()
                    .position(|&t| t == block)
            }
            Some(ix) => ix.get(&block).map(|&slot| slot as usize - set * ways),
        }
    }

    /// One block access.
    #[inline(always)]
    pub fn access_block(&mut self, block: u64, stream: Stream, write: bool, unit: u16) {
        let set = self.geom.set_of(block);
        let ctx = Ctx {
            block,
            set,
            bank: self.geom.bank_of(set),
            stream,
            write,
            unit,
            seq: self.seq,
        };
        self.seq += 1;
        let write_back = self.geom.write == WritePolicy::WriteBack;
        let base = set * self.geom.ways as usize;
        let found = self.lookup(set, block);
        let c = &mut self.stats.per_stream[stream.index()];
        c.accesses += 1;

        if let Some(way) = found {
            c.hits += 1;
            if write {
                if write_back {
                    self.dirty[base + way] = true;
                    self.owner[base + way] = stream;
                } else {
                    c.write_throughs += 1;
                }
            }
            self.policy.hit(&ctx, way);
            return;
        }

        c.misses += 1;
        if self.unallocated.contains(stream) || (write && !self.geom.write_allocate) {
            Self::count_bypass(c, write);
            self.policy.bypass(&ctx);
            return;
        }
        if write && !write_back {
            c.write_throughs += 1;
        }
        let valid = self.filled[set];
        let way = if valid < self.geom.ways {
            self.filled[set] = valid + 1;
            valid as usize
        } else {
            match self.policy.victim(&ctx) {
                Some(way) => {
                    self.evict(base + way);
                    self.policy.evict(&ctx, way);
                    way
                }
                None => {
                    let c = &mut self.stats.per_stream[stream.index()];
                    if write && !write_back {
                        c.write_throughs -= 1; // counted once, as a bypass below
                    }
                    Self::count_bypass(c, write);
                    self.policy.bypass(&ctx);
                    return;
                }
            }
        };
        let slot = base + way;
        self.tags[slot] = block;
        self.dirty[slot] = write && write_back;
        self.owner[slot] = stream;
        if let Some(ix) = &mut self.index {
            ix.insert(block, slot as u32);
        }
        self.stats.per_stream[stream.index()].fills += 1;
        self.policy.fill(&ctx, way);
    }

    #[inline(always)]
    fn count_bypass(c: &mut Counts, write: bool) {
        c.bypasses += 1;
        if write {
            c.write_throughs += 1;
        }
    }

    #[inline(always)]
    fn evict(&mut self, slot: usize) {
        let o = &mut self.stats.per_stream[self.owner[slot].index()];
        o.evictions += 1;
        if self.dirty[slot] {
            o.writebacks += 1;
        }
        if let Some(ix) = &mut self.index {
            ix.remove(&self.tags[slot]);
        }
    }
}
