//! The Attribute Cache of TCOR (Section III-C2 to III-C6): the L1 for
//! PB-Attributes, accessed per primitive, made of a [`PrimitiveBuffer`]
//! (one line per primitive: valid, lock and dirty bits, tag, OPT Number,
//! ABP; XOR-based set index) and an [`AttributeBuffer`] (the attributes,
//! as linked lists of entries with a free list).
//!
//! The rules, as the paper gives them:
//! - **Read hit**: lock the line and its first attribute until the
//!   Rasterizer consumes the primitive, update the line's OPT Number with
//!   the request's, push the ABP to the output queue.
//! - **Read miss**: take an invalid line of the set, else evict the
//!   unlocked line of the set with the greatest OPT Number; make sure the
//!   Attribute Buffer has a free entry per attribute, evicting more
//!   (unlocked) primitives by greatest OPT Number, from any set, if not;
//!   read every attribute from the L2. Reads always allocate: the Rasterizer
//!   reads the attributes from the Attribute Buffer.
//! - **Rasterizer read**: reads the attributes at the ABP and unlocks them
//!   (and, here, the line).
//! - **Write** (Polygon List Builder; OPT Number = first tile that will read
//!   the primitive): take an invalid line of the set, else find the line
//!   with the highest OPT Number; evict it if that number is *greater* than
//!   the request's, else bypass the write to the L2 (*equal also
//!   bypasses*: both belong to the same tile). Written lines are dirty.
//! - **Eviction**: only of unlocked lines (line lock and first-attribute
//!   lock both clear); a dirty primitive writes every attribute to the L2.
//!
//! The same structure with other victims ([`crate::replacement`]), the
//! policies Section V-A compares with OPT ("Figure 13 compares OPT with
//! LRU, MRU and (DRRIP \[22\]) in a 4-way cache for a range of cache
//! sizes"); none of them bypasses a write (writes always allocate):
//! - [`Replacement::Lru`]: the least recently read or written unlocked
//!   line, the LRU side of the LRU-vs-OPT comparisons (Figures 1, 10-13).
//! - [`Replacement::Mru`]: the most recently read or written unlocked line.
//!   The paper: "MRU has the highest Miss Ratio".
//! - [`Replacement::Drrip`]: a 2-bit RRPV per Primitive Buffer line, 0 on
//!   a read hit; fills insert at 2 (SRRIP) or at 3, every 32nd at 2
//!   (BRRIP), chosen by set dueling with 32 leader sets per policy and a
//!   10-bit PSEL, exactly as the engine's `drrip`. The victim is the lowest
//!   unlocked line with RRPV 3, after ageing the unlocked lines of the set
//!   until one has it. The paper: "for our L1 cache, with its unique
//!   workload for the Parameter Buffer, DRRIP shows no benefits over LRU".
//!
//! For every policy the victim is the *unlocked* line the policy ranks
//! first, as for OPT: a locked line is never a victim (MRU takes the most
//! recent unlocked line; DRRIP neither evicts nor ages a locked line), and
//! when the Attribute Buffer needs room further victims come by the same
//! rule from every set (DRRIP ageing every unlocked line). With output
//! queue depth 0 nothing is locked at a replacement and LRU, MRU and DRRIP
//! are exactly the engine's (tests/it/reference.rs).
//!
//! Locks: a primitive stays locked from its read until the Rasterizer
//! reads it from the Tile Fetcher's output queue. [`OutputQueue`] holds up
//! to `depth` primitives; with depth 0 (the default of [`replay`]) the
//! Rasterizer consumes each primitive at once, so locks never block a
//! replacement and the cache behaves as the paper's miss-count studies
//! assume. With a deeper queue a miss may find every candidate locked: the
//! Tile Fetcher then stalls until the Rasterizer consumes the oldest queued
//! primitive ([`ReadOutcome::Stall`], counted in `stalls`).
//!
//! Not in the paper: a primitive with more attributes than the whole
//! Attribute Buffer can never be cached; its reads go to the L2 every time
//! (`streamed_reads`, counted as misses) and its writes bypass.
//!
//! Capacity defaults ([`AttributeCacheConfig::tcor_48k`]): 48 KiB of
//! attributes = 1024 entries, 4 ways (Table I's Tile Cache); the 128 KiB
//! Tile Cache variant has 112 KiB = 2389 entries. The paper does not give
//! the Primitive Buffer's line count; the default is 512 lines (128 sets),
//! more than the 341 primitives of the paper's average 3 attributes, so
//! that the Attribute Buffer and not the Primitive Buffer bounds the
//! capacity, with a power-of-two set count for the XOR index (1024 lines
//! for 112 KiB).

mod config;
mod requests;
mod victim;

use std::collections::BTreeSet;

use crate::attribute_buffer::{Abp, AttributeBuffer};
use crate::binning::Binning;
use crate::error::ConfigError;
use crate::layout::{PbAccess, PbLayout, Section, BLOCK_BYTES};
use crate::primitive_buffer::{PbLine, PrimitiveBuffer, SCAN_WAYS};
pub use crate::replacement::Replacement;
use crate::replacement::{Drrip, RRPV_MAX};

pub use config::AttributeCacheConfig;
pub use requests::{
    AttributeCacheStats, L2Request, OutputQueue, Queued, ReadOutcome, Request, WriteOutcome,
};

pub struct AttributeCache {
    config: AttributeCacheConfig,
    pb: PrimitiveBuffer,
    ab: AttributeBuffer,
    /// Every valid line by eviction rank: `(rank, u32::MAX - line)`, so
    /// that walking it backwards meets the greatest rank first and, among
    /// equal ranks, the lowest line first. Victims and room checks walk it
    /// and stop early instead of scanning every line.
    order: BTreeSet<(u64, u32)>,
    clock: u64,
    /// DRRIP's set dueling, for [`Replacement::Drrip`].
    drrip: Option<Drrip>,
    stats: AttributeCacheStats,
}

impl AttributeCache {
    pub fn new(config: AttributeCacheConfig) -> Result<AttributeCache, ConfigError> {
        if config.entries == 0 {
            return Err(ConfigError::Cache(
                "Attribute Buffer of 0 entries".to_string(),
            ));
        }
        let pb = PrimitiveBuffer::new(config.lines, config.way_count())?;
        Ok(AttributeCache {
            drrip: (config.replacement == Replacement::Drrip).then(|| Drrip::new(pb.sets())),
            pb,
            ab: AttributeBuffer::new(config.entries),
            config,
            order: BTreeSet::new(),
            clock: 0,
            stats: AttributeCacheStats::default(),
        })
    }

    pub fn config(&self) -> &AttributeCacheConfig {
        &self.config
    }

    pub fn stats(&self) -> &AttributeCacheStats {
        &self.stats
    }

    pub fn primitive_buffer(&self) -> &PrimitiveBuffer {
        &self.pb
    }

    /// DRRIP's policy-selection counter (`None` for the other policies).
    pub fn drrip_psel(&self) -> Option<u32> {
        self.drrip.as_ref().map(Drrip::psel)
    }

    pub fn attribute_buffer(&self) -> &AttributeBuffer {
        &self.ab
    }

    /// The line holding primitive `id`, if cached.
    pub fn lookup(&self, id: u64) -> Option<&PbLine> {
        self.pb.find(id).map(|i| self.pb.line(i))
    }

    /// Attributes of dirty primitives still cached: never written to the L2,
    /// since the Parameter Buffer is dead once the frame is done.
    pub fn dirty_attributes(&self) -> u64 {
        self.pb
            .lines()
            .iter()
            .filter(|l| l.valid && l.dirty)
            .map(|l| u64::from(l.attributes))
            .sum()
    }

    /// The line a read (locked, clean) or a write (unlocked, dirty) of
    /// `req` fills, its attributes at `abp`.
    fn new_line(&self, req: &Request, abp: Abp, lock: u16, dirty: bool) -> PbLine {
        PbLine {
            valid: true,
            lock,
            dirty,
            tag: req.id,
            opt: req.opt,
            abp,
            prim: req.prim,
            attributes: req.attributes,
            stamp: self.clock,
            rrpv: 0,
        }
    }

    /// Puts `line` in the invalid line `i` (with DRRIP's insertion RRPV).
    fn fill(&mut self, i: usize, mut line: PbLine) {
        if let Some(d) = &mut self.drrip {
            line.rrpv = d.insertion(i as u32 / self.pb.ways());
        }
        self.pb.fill(i, line);
        self.order.insert(self.key(i));
    }

    fn evict(&mut self, i: usize, l2: &mut impl FnMut(L2Request)) {
        let l = *self.pb.line(i);
        debug_assert!(self.evictable(&l));
        if l.dirty {
            self.stats.dirty_evictions += 1;
            self.stats.l2_writes += u64::from(l.attributes);
            emit(l.tag, l.attributes, true, l.prim, l2);
        }
        self.ab.release(l.abp);
        let removed = self.order.remove(&self.key(i));
        debug_assert!(removed);
        self.pb.invalidate(i);
        self.stats.evictions += 1;
    }

    /// Whether `need` Attribute Buffer entries can be had: those free,
    /// those of `slot`, and those of the evictable lines other than `slot`
    /// whose rank is above `above` (any rank when `None`). Walks the lines
    /// by rank and stops as soon as there is enough or the ranks fall to
    /// `above`.
    fn can_free(&self, slot: usize, need: u32, above: Option<u64>) -> bool {
        let s = self.pb.line(slot);
        let mut have =
            u64::from(self.ab.free()) + if s.valid { u64::from(s.attributes) } else { 0 };
        let need = u64::from(need);
        if have >= need {
            return true;
        }
        for &(rank, k) in self.order.iter().rev() {
            if above.is_some_and(|a| rank <= a) {
                break;
            }
            let i = (u32::MAX - k) as usize;
            let l = self.pb.line(i);
            if i != slot && self.evictable(l) {
                have += u64::from(l.attributes);
                if have >= need {
                    return true;
                }
            }
        }
        false
    }

    /// Evicts `slot` if valid, then more primitives by the policy until
    /// `need` entries are free, and allocates them.
    fn make_room(&mut self, slot: usize, need: u32, l2: &mut impl FnMut(L2Request)) -> Abp {
        if self.pb.line(slot).valid {
            let set = slot as u32 / self.pb.ways();
            self.age(slot, self.pb.set_lines(set));
            self.evict(slot, l2);
        }
        while self.ab.free() < need {
            let v = self.any_victim().expect("room was checked before evicting");
            self.age(v, 0..self.pb.capacity() as usize);
            self.evict(v, l2);
        }
        self.ab.alloc(need).expect("entries were freed")
    }

    /// A Tile Fetcher read of a primitive's attributes.
    pub fn read(&mut self, req: Request, l2: &mut impl FnMut(L2Request)) -> ReadOutcome {
        self.clock += 1;
        let queued = |abp| Queued { id: req.id, abp };
        if let Some(i) = self.pb.find(req.id) {
            let clock = self.clock;
            let removed = self.order.remove(&self.key(i));
            debug_assert!(removed);
            let l = self.pb.line_mut(i);
            l.lock += 1;
            l.opt = req.opt;
            l.stamp = clock;
            l.rrpv = 0;
            let abp = l.abp;
            self.order.insert(self.key(i));
            self.ab.lock(abp);
            self.stats.reads += 1;
            self.stats.read_hits += 1;
            return ReadOutcome::Hit(queued(Some(abp)));
        }
        if req.attributes > self.ab.capacity() {
            self.stats.reads += 1;
            self.stats.read_misses += 1;
            self.stats.streamed_reads += 1;
            self.stats.l2_reads += u64::from(req.attributes);
            emit(req.id, req.attributes, false, req.prim, l2);
            return ReadOutcome::Streamed(queued(None));
        }
        let set = self.pb.set_of(req.id);
        let Some(slot) = self.pb.free_line(set).or_else(|| self.set_victim(set)) else {
            self.stats.stalls += 1;
            return ReadOutcome::Stall;
        };
        if !self.can_free(slot, req.attributes, None) {
            self.stats.stalls += 1;
            return ReadOutcome::Stall;
        }
        let abp = self.make_room(slot, req.attributes, l2);
        self.ab.lock(abp);
        self.fill(slot, self.new_line(&req, abp, 1, false));
        self.stats.reads += 1;
        self.stats.read_misses += 1;
        self.stats.l2_reads += u64::from(req.attributes);
        emit(req.id, req.attributes, false, req.prim, l2);
        ReadOutcome::Miss(queued(Some(abp)))
    }

    /// What the Rasterizer does with an output-queue entry: reads the
    /// attributes and unlocks them and the line. Returns the attributes
    /// read from the Attribute Buffer (0 for a streamed primitive).
    pub fn rasterizer_read(&mut self, q: Queued) -> u32 {
        let Some(abp) = q.abp else {
            return 0;
        };
        let n = self.ab.rasterizer_read(abp);
        let i = self
            .pb
            .find(q.id)
            .expect("a queued primitive stays cached while locked");
        self.pb.line_mut(i).lock -= 1;
        n
    }

    /// A Polygon List Builder write of a primitive's attributes.
    pub fn write(&mut self, req: Request, l2: &mut impl FnMut(L2Request)) -> WriteOutcome {
        self.clock += 1;
        self.stats.writes += 1;
        let allocated = self.try_allocate_write(req, l2);
        if !allocated {
            self.stats.write_bypasses += 1;
            self.stats.l2_writes += u64::from(req.attributes);
            emit(req.id, req.attributes, true, req.prim, l2);
            return WriteOutcome::Bypassed;
        }
        WriteOutcome::Allocated
    }

    fn try_allocate_write(&mut self, req: Request, l2: &mut impl FnMut(L2Request)) -> bool {
        if req.attributes > self.ab.capacity() {
            return false;
        }
        let set = self.pb.set_of(req.id);
        let opt = self.config.replacement == Replacement::Opt;
        let slot = match self.pb.free_line(set) {
            Some(i) => i,
            None => {
                let Some(v) = self.set_victim(set) else {
                    return false;
                };
                // Evict only a line that will be read after this primitive.
                if opt && self.pb.line(v).opt <= req.opt {
                    return false;
                }
                v
            }
        };
        // OPT evicts for room only primitives read after this one.
        let above = opt.then_some(u64::from(req.opt.0));
        if !self.can_free(slot, req.attributes, above) {
            return false;
        }
        let abp = self.make_room(slot, req.attributes, l2);
        self.fill(slot, self.new_line(&req, abp, 0, true));
        true
    }

    /// A Tile Fetcher read through the output queue: stalls (letting the
    /// Rasterizer consume the oldest queued primitive) until the read can
    /// proceed, then queues the primitive and lets the Rasterizer keep the
    /// queue within its depth.
    pub fn fetch(
        &mut self,
        req: Request,
        queue: &mut OutputQueue,
        l2: &mut impl FnMut(L2Request),
    ) -> ReadOutcome {
        loop {
            let out = self.read(req, l2);
            let q = match out {
                ReadOutcome::Hit(q) | ReadOutcome::Miss(q) | ReadOutcome::Streamed(q) => q,
                ReadOutcome::Stall => {
                    // With nothing queued nothing is locked, and a read that
                    // fits the Attribute Buffer never stalls.
                    let oldest = queue
                        .q
                        .pop_front()
                        .expect("a stalled read with an empty output queue");
                    self.rasterizer_read(oldest);
                    continue;
                }
            };
            queue.q.push_back(q);
            while queue.q.len() > queue.depth {
                let oldest = queue.q.pop_front().expect("queue is longer than its depth");
                self.rasterizer_read(oldest);
            }
            return out;
        }
    }

    /// The Rasterizer consumes everything still queued.
    pub fn drain(&mut self, queue: &mut OutputQueue) {
        while let Some(q) = queue.q.pop_front() {
            self.rasterizer_read(q);
        }
    }

    /// One Parameter Buffer access; PB-Lists accesses are not this cache's
    /// and are ignored.
    pub fn access(
        &mut self,
        a: &PbAccess,
        queue: &mut OutputQueue,
        l2: &mut impl FnMut(L2Request),
    ) {
        if a.section != Section::PbAttributes {
            return;
        }
        let req = Request::from_access(a);
        if a.write {
            self.write(req, l2);
        } else {
            self.fetch(req, queue, l2);
        }
    }
}

fn emit(id: u64, attributes: u32, write: bool, prim: u32, l2: &mut impl FnMut(L2Request)) {
    let first = id / BLOCK_BYTES;
    for j in 0..u64::from(attributes) {
        l2(L2Request {
            block: first + j,
            write,
            prim,
        });
    }
}

/// Replays a frame's PB-Attributes accesses through a fresh Attribute
/// Cache, the Rasterizer consuming each primitive at once (output queue
/// depth 0).
pub fn replay(
    b: &Binning,
    layout: &PbLayout,
    config: AttributeCacheConfig,
) -> Result<AttributeCacheStats, ConfigError> {
    replay_with_queue(b, layout, config, 0)
}

/// [`replay`] with an output queue of `depth` primitives.
pub fn replay_with_queue(
    b: &Binning,
    layout: &PbLayout,
    config: AttributeCacheConfig,
    depth: usize,
) -> Result<AttributeCacheStats, ConfigError> {
    layout.check(b)?;
    let mut cache = AttributeCache::new(config)?;
    let mut queue = OutputQueue::new(depth);
    let mut l2 = |_: L2Request| {};
    for a in layout.stream(b) {
        cache.access(&a, &mut queue, &mut l2);
    }
    cache.drain(&mut queue);
    Ok(*cache.stats())
}

#[cfg(test)]
mod tests;
