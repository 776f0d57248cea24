//! The render caches of the GSPC paper (section 4): the small per-stream
//! caches between the pipeline and the LLC. Their misses and dirty
//! write-backs are the LLC's access stream.
//!
//! [`RenderCaches`] is a record sink: give it the records of
//! [`crate::Pipeline`] (it is a [`RecordSink`]) and it hands the LLC
//! stream to the sink it wraps. Markers and binned passes pass through
//! unchanged, in place.
//!
//! Caches (all 64 B blocks, LRU, write-back, write-allocate, the engine of
//! `gfxcache-cache`):
//!
//! | stream | cache                                          |
//! |--------|------------------------------------------------|
//! | `vidx` | 1 KB 16-way (paper)                            |
//! | `vtx`  | 16 KB 128-way (paper)                          |
//! | `hiz`  | 12 KB 24-way (paper)                           |
//! | `z`    | 32 KB 32-way (paper)                           |
//! | `stc`  | 16 KB 16-way (paper)                           |
//! | `rt`   | 24 KB 24-way (paper)                           |
//! | `tex`  | L1 16 KB 4-way per unit, 12 units (our choice) |
//! |        | L2 128 KB 16-way shared (our choice)           |
//! |        | L3 384 KB 48-way shared (paper)                |
//!
//! **Texture L1/L2 sizes.** The paper gives only the L3. A contemporary
//! GPU's per-sampler texture L1 is in the tens of KB, and 16 KB is the usual
//! figure for one shader cluster's read-only texture/L1 cache in that
//! generation; low associativity (4) keeps its lookup cheap, as a level
//! that must answer several quads every cycle would. The shared L2 sits
//! between twelve L1s (192 KB together) and the 384 KB L3: 128 KB, 16-way
//! makes each level several times the reach of the one above without the
//! L2 approaching the L3. Both are easy to change in [`TexConfig`].
//!
//! **What goes to the LLC.**
//! - A read miss is an LLC read of the 64 B block, tagged with the
//!   access's stream and unit. The texture levels are looked up in turn
//!   (the unit's L1, then L2, then L3); only an L3 miss reaches the LLC.
//!   Texture caches are read-only, so they never write back.
//! - A write miss allocates its line dirty without reading the block from
//!   the LLC: the pipeline's `z`, `stc`, `hiz` and `rt` writes are whole
//!   64 B blocks, and a back-end cache tracks written bytes rather than
//!   fetching what it will overwrite.
//! - Evicting a dirty line is an LLC write of that block tagged with the
//!   cache's stream (`rt` write-backs stay `rt`), with the unit of the
//!   access that evicted it, issued after that access's own miss read.
//! - Streams without a render cache pass through unchanged: `display`
//!   (written once per frame, never read back by the GPU; the pipeline
//!   already writes whole 64 B blocks, so a write-combining buffer would
//!   forward them unchanged), `shader`, `other`, `pb-list`, `pb-attr`. Texture
//!   writes, if any, pass through too (render-to-texture writes are `rt`).
//! - Accesses are split into the 64 B blocks they touch (`vtx` reads are
//!   `stride` bytes at any address), so everything a cache sends out is
//!   block-aligned.
//!
//! **Flush.** At a `FrameEnd` marker (before forwarding it), or when
//! [`RenderCaches::flush`] is called, every dirty line is written back
//! (once; lines stay valid and clean): the frame's render targets, depth
//! and stencil must be in memory by the end of the frame, for display and
//! for the next frame's reads as textures, and the LLC must see those
//! writes inside the frame that made them.
//!
//! Everything is deterministic: the same records in give the same records out.

use gfxcache_cache::policies::lru::Lru;
use gfxcache_cache::{
    BlockOutcome, Cache, Env, Geometry, IndexFn, Params, Policy, PolicySpec, StreamMask, Ways,
};
use gfxcache_trace::binned::BinnedPass;
use gfxcache_trace::{Access, Marker, Op, Record, RecordSink, Stream};

use crate::pipeline::FRAGMENT_UNITS;

/// Block size of every render cache.
pub const BLOCK: u32 = 64;
pub(crate) const SHIFT: u32 = BLOCK.trailing_zeros();

/// Size and associativity of one cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheShape {
    pub bytes: u64,
    pub ways: u32,
}

/// The texture hierarchy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TexConfig {
    /// L1s, one per unit; a unit `u` uses L1 `u % units`.
    pub units: u16,
    pub l1: CacheShape,
    pub l2: CacheShape,
    pub l3: CacheShape,
}

/// The shapes of every render cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenderCacheConfig {
    pub vidx: CacheShape,
    pub vtx: CacheShape,
    pub hiz: CacheShape,
    pub z: CacheShape,
    pub stc: CacheShape,
    pub rt: CacheShape,
    pub tex: TexConfig,
}

pub(crate) const fn kb(k: u64, ways: u32) -> CacheShape {
    CacheShape {
        bytes: k * 1024,
        ways,
    }
}

impl Default for RenderCacheConfig {
    /// The GSPC paper's caches, with our texture L1 and L2 (see the module
    /// documentation).
    fn default() -> Self {
        RenderCacheConfig {
            vidx: kb(1, 16),
            vtx: kb(16, 128),
            hiz: kb(12, 24),
            z: kb(32, 32),
            stc: kb(16, 16),
            rt: kb(24, 24),
            tex: TexConfig {
                units: FRAGMENT_UNITS,
                l1: kb(16, 4),
                l2: kb(128, 16),
                l3: kb(384, 48),
            },
        }
    }
}

impl RenderCacheConfig {
    /// Each cache by name, the texture L1 once for all its units.
    pub fn shapes(&self) -> [(&'static str, CacheShape); 9] {
        [
            ("vertex index", self.vidx),
            ("vertex", self.vtx),
            ("HiZ", self.hiz),
            ("depth", self.z),
            ("stencil", self.stc),
            ("render target", self.rt),
            ("texture L1", self.tex.l1),
            ("texture L2", self.tex.l2),
            ("texture L3", self.tex.l3),
        ]
    }

    /// Why these caches cannot be built: a shape that is not a whole
    /// power-of-two number of sets of 64-byte blocks, or no texture unit.
    pub fn check(&self) -> Result<(), String> {
        if self.tex.units == 0 {
            return Err("the texture L1s: no texture unit".into());
        }
        for (name, shape) in self.shapes() {
            Geometry::from_size(shape.bytes, Ways::N(shape.ways), BLOCK)
                .map_err(|e| format!("the {name} cache: {e}"))?;
        }
        Ok(())
    }
}

/// Counters of one render cache (block accesses).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RenderCacheStats {
    pub accesses: u64,
    pub hits: u64,
    pub misses: u64,
    /// Dirty lines written to the LLC, on eviction or flush.
    pub writebacks: u64,
}

impl RenderCacheStats {
    fn add(&mut self, o: &RenderCacheStats) {
        self.accesses += o.accesses;
        self.hits += o.hits;
        self.misses += o.misses;
        self.writebacks += o.writebacks;
    }
}

/// One cache and its counters.
pub(crate) struct Level {
    cache: Cache<Lru>,
    /// Per set, the block accessed last in it, so its most recent line
    /// (`u64::MAX`: none yet). LRU changes nothing when a set's most
    /// recent line is read again, so such a read is counted as a hit
    /// without the engine: most texture reads are (the pixels of a quad,
    /// and a pixel's next sample, read the blocks just read).
    recent: Vec<u64>,
    /// `block & mask` is the set, for the common modulo indexing of a
    /// power-of-two set count (else the geometry says).
    set_mask: Option<u64>,
    pub(crate) stats: RenderCacheStats,
}

impl Level {
    pub(crate) fn new(s: CacheShape) -> Level {
        let geom = Geometry::from_size(s.bytes, Ways::N(s.ways), BLOCK)
            .unwrap_or_else(|e| panic!("render cache {s:?}: {e}"));
        let spec: PolicySpec = "lru".parse().expect("lru is a policy");
        let lru = Lru::build(&mut Params::new(&spec), &geom, &Env::default())
            .expect("lru builds for any geometry");
        let modulo = geom.index == IndexFn::Modulo && geom.sets.is_power_of_two();
        Level {
            recent: vec![u64::MAX; geom.sets as usize],
            set_mask: modulo.then(|| u64::from(geom.sets - 1)),
            cache: Cache::new(geom, lru, StreamMask::default()),
            stats: RenderCacheStats::default(),
        }
    }

    #[inline(always)]
    fn set_of(&self, block: u64) -> usize {
        match self.set_mask {
            Some(mask) => (block & mask) as usize,
            None => self.cache.geometry().set_of(block),
        }
    }

    /// One block access; whether it hit, and the dirty block it evicted.
    #[inline(always)]
    pub(crate) fn access(
        &mut self,
        block: u64,
        stream: Stream,
        write: bool,
        unit: u16,
    ) -> (bool, Option<u64>) {
        self.stats.accesses += 1;
        let set = self.set_of(block);
        // Every access that does not bypass leaves its block the most
        // recent line of its set (a flush only cleans lines), so this
        // block is resident and most recent: a read hit that changes no
        // state. A write may dirty the line, so it takes the engine.
        if !write && self.recent[set] == block {
            self.stats.hits += 1;
            return (true, None);
        }
        self.recent[set] = block;
        self.engine_access(block, stream, write, unit)
    }

    /// [`Level::access`] through the engine (kept out of line, so that the
    /// check above inlines where it is called).
    #[inline(never)]
    fn engine_access(
        &mut self,
        block: u64,
        stream: Stream,
        write: bool,
        unit: u16,
    ) -> (bool, Option<u64>) {
        match self.cache.access_block(block, stream, write, unit) {
            BlockOutcome::Hit => {
                self.stats.hits += 1;
                (true, None)
            }
            BlockOutcome::Fill { victim } => {
                self.stats.misses += 1;
                let dirty = victim.filter(|&(_, dirty)| dirty).map(|(b, _)| b);
                self.stats.writebacks += u64::from(dirty.is_some());
                (false, dirty)
            }
            BlockOutcome::Bypass => {
                // Not resident (LRU does not bypass, but should it).
                let set = self.set_of(block);
                self.recent[set] = u64::MAX;
                self.stats.misses += 1;
                (false, None)
            }
        }
    }
}

/// Streams with a cache of their own (texture apart), in report order.
const CACHED: [Stream; 6] = [
    Stream::Vidx,
    Stream::Vtx,
    Stream::Hiz,
    Stream::Z,
    Stream::Stc,
    Stream::Rt,
];

/// The render caches in front of a record sink `F` (the LLC stream).
pub struct RenderCaches<F> {
    out: F,
    /// Per stream of `CACHED`, indexed by [`Stream::index`] (`None` for
    /// the others).
    caches: [Option<Level>; Stream::COUNT],
    tex_l1: Vec<Level>,
    tex_l2: Level,
    tex_l3: Level,
}

impl<F: RecordSink> RenderCaches<F> {
    /// The default caches ([`RenderCacheConfig::default`]) in front of `out`.
    pub fn new(out: F) -> Self {
        Self::with_config(&RenderCacheConfig::default(), out)
    }

    /// Panics if a shape is not a whole number of 64 B sets
    /// ([`RenderCacheConfig::check`] says so first).
    pub fn with_config(cfg: &RenderCacheConfig, out: F) -> Self {
        let mut caches: [Option<Level>; Stream::COUNT] = Default::default();
        for (s, shape) in CACHED
            .into_iter()
            .zip([cfg.vidx, cfg.vtx, cfg.hiz, cfg.z, cfg.stc, cfg.rt])
        {
            caches[s.index()] = Some(Level::new(shape));
        }
        assert!(cfg.tex.units > 0, "no texture units");
        RenderCaches {
            out,
            caches,
            tex_l1: (0..cfg.tex.units).map(|_| Level::new(cfg.tex.l1)).collect(),
            tex_l2: Level::new(cfg.tex.l2),
            tex_l3: Level::new(cfg.tex.l3),
        }
    }

    /// One access: through its cache, or passed through.
    pub fn access(&mut self, a: &Access) {
        let write = a.op.is_write();
        let tex = a.stream == Stream::Tex && !write;
        if !tex && self.caches[a.stream.index()].is_none() {
            self.out.record(Record::Access(*a));
            return;
        }
        let (first, last) = gfxcache_cache::block_range(a, SHIFT);
        for block in first..=last {
            if tex {
                self.tex_block(block, a.unit);
            } else {
                self.block(block, a.stream, write, a.unit);
            }
        }
    }

    fn block(&mut self, block: u64, stream: Stream, write: bool, unit: u16) {
        let level = self.caches[stream.index()]
            .as_mut()
            .expect("a cached stream");
        let (hit, dirty) = level.access(block, stream, write, unit);
        if !hit && !write {
            emit(&mut self.out, block, stream, Op::Read, unit);
        }
        if let Some(v) = dirty {
            emit(&mut self.out, v, stream, Op::Write, unit);
        }
    }

    fn tex_block(&mut self, block: u64, unit: u16) {
        let l1 = usize::from(unit) % self.tex_l1.len();
        let hit = self.tex_l1[l1].access(block, Stream::Tex, false, unit).0
            || self.tex_l2.access(block, Stream::Tex, false, unit).0
            || self.tex_l3.access(block, Stream::Tex, false, unit).0;
        if !hit {
            emit(&mut self.out, block, Stream::Tex, Op::Read, unit);
        }
    }

    /// Writes back every dirty line (an LLC write each, unit 0), cache by
    /// cache (`vidx`, `vtx`, `hiz`, `z`, `stc`, `rt`), blocks in address
    /// order; the lines stay valid and clean. Called at every `FrameEnd`;
    /// see the module documentation.
    pub fn flush(&mut self) {
        for s in CACHED {
            if let Some(level) = &mut self.caches[s.index()] {
                for b in level.cache.clean_dirty() {
                    level.stats.writebacks += 1;
                    emit(&mut self.out, b, s, Op::Write, 0);
                }
            }
        }
    }

    /// Counters of the cache of `stream` (`tex`: the L1s together); `None`
    /// for a stream without a cache.
    pub fn stats_of(&self, stream: Stream) -> Option<RenderCacheStats> {
        if stream == Stream::Tex {
            let mut t = RenderCacheStats::default();
            self.tex_l1.iter().for_each(|l| t.add(&l.stats));
            return Some(t);
        }
        self.caches[stream.index()].as_ref().map(|l| l.stats)
    }

    /// Counters of texture L1 `unit`.
    pub fn tex_l1_stats(&self, unit: u16) -> RenderCacheStats {
        self.tex_l1[usize::from(unit) % self.tex_l1.len()].stats
    }

    /// Counters of every cache by name, in report order: `vidx`, `vtx`,
    /// `hiz`, `z`, `stc`, `rt`, `tex-l1` (all units), `tex-l2`, `tex-l3`.
    pub fn stats(&self) -> Vec<(&'static str, RenderCacheStats)> {
        let mut v: Vec<_> = CACHED
            .iter()
            .map(|&s| (s.name(), self.stats_of(s).expect("cached")))
            .collect();
        v.push(("tex-l1", self.stats_of(Stream::Tex).expect("tex")));
        v.push(("tex-l2", self.tex_l2.stats));
        v.push(("tex-l3", self.tex_l3.stats));
        v
    }

    /// The wrapped sink.
    pub fn inner(&self) -> &F {
        &self.out
    }

    /// The wrapped sink, back (flushes nothing: call [`RenderCaches::flush`]
    /// first if the stream does not end with a `FrameEnd`).
    pub fn into_inner(self) -> F {
        self.out
    }
}

/// Records from the pipeline; binned passes go through in place.
impl<F: RecordSink> RecordSink for RenderCaches<F> {
    fn record(&mut self, r: Record) {
        match r {
            Record::Access(a) => self.access(&a),
            Record::Marker(m) => {
                if matches!(m, Marker::FrameEnd { .. }) {
                    self.flush();
                }
                self.out.record(Record::Marker(m));
            }
        }
    }

    #[inline]
    fn accesses(&mut self, accesses: &[Access]) {
        for a in accesses {
            self.access(a);
        }
    }

    fn binned(&mut self, pass: &BinnedPass) {
        self.out.binned(pass);
    }
}

pub(crate) fn emit(out: &mut impl RecordSink, block: u64, stream: Stream, op: Op, unit: u16) {
    out.record(Record::Access(Access {
        addr: block << SHIFT,
        size: BLOCK,
        unit,
        stream,
        op,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A level answers every access as the engine alone does (hit, dirty
    /// victim, counters), on seeded reads and writes that come back to
    /// the blocks just used, with a flush now and then, on shapes with
    /// one set, several and many ways.
    #[test]
    fn a_level_answers_as_its_cache_alone() {
        for shape in [kb(1, 16), kb(16, 4), kb(24, 24), kb(16, 128)] {
            let mut level = Level::new(shape);
            let mut plain = Level::new(shape);
            let mut seed = 0x2545_f491_4f6c_dd1du64;
            let mut last = [0u64; 4];
            for i in 0..200_000u32 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let r = seed >> 32;
                let block = if r.is_multiple_of(3) {
                    r % 1024
                } else {
                    last[(r % 4) as usize]
                };
                last[(r % 4) as usize] = block;
                let write = (r >> 8).is_multiple_of(5);
                let unit = (r >> 12) as u16 % 12;
                let want = plain.engine_access(block, Stream::Rt, write, unit);
                plain.stats.accesses += 1;
                let got = level.access(block, Stream::Rt, write, unit);
                assert_eq!(got, want, "{shape:?}, access {i}");
                if i % 50_000 == 49_999 {
                    assert_eq!(level.cache.clean_dirty(), plain.cache.clean_dirty());
                }
            }
            assert_eq!(level.stats, plain.stats, "{shape:?}");
            assert!(level.stats.hits > level.stats.accesses / 2);
        }
    }
}
