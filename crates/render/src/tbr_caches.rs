//! The L1 caches of a tile-based GPU (TCOR Table I) in front of a record
//! sink: what leaves them is the L2 request stream.
//!
//! [`TbrCaches`] takes the records of a tile-based frame
//! ([`crate::pipeline::Pipeline::draw_tiled`]) and forwards:
//! - `vidx` and `vtx` reads through the **Vertex Cache** (64 KiB, 4-way,
//!   64 B lines, LRU); a miss is an L2 read of the block;
//! - `tex` reads through the **texture cache of their fragment processor**
//!   (`unit`; 64 KiB, 4-way, 64 B lines, LRU each); a miss is an L2 read
//!   tagged with the processor;
//! - everything else unchanged: the tile buffers' loads and stores
//!   (`rt`, `display`, `z`, `stc`), a Tiling Engine's Parameter Buffer
//!   traffic if a stage in front added it (`pb-list`, `pb-attr`: already
//!   the Tile Cache's L2 requests), shader fetches (no instruction cache is
//!   modelled), markers and binned passes.
//!
//! Both caches are read-only, so nothing is ever written back; no L2 is
//! simulated here (the trace is its input).

use gfxcache_trace::binned::BinnedPass;
use gfxcache_trace::{Access, Op, Record, RecordSink, Stream};

use crate::render_caches::{emit, kb, CacheShape, Level, RenderCacheStats, SHIFT};

/// Shapes of a tile-based GPU's L1s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TbrCacheConfig {
    pub vertex: CacheShape,
    /// One per fragment processor.
    pub texture: CacheShape,
    pub fps: u16,
}

impl TbrCacheConfig {
    /// TCOR Table I: 64 KiB 4-way Vertex Cache, `fps` 64 KiB 4-way texture
    /// caches.
    pub fn table_i(fps: u16) -> TbrCacheConfig {
        TbrCacheConfig {
            vertex: kb(64, 4),
            texture: kb(64, 4),
            fps,
        }
    }
}

/// The Vertex Cache and the fragment processors' texture caches in front
/// of a sink `F` (the L2 request stream).
pub struct TbrCaches<F> {
    out: F,
    vertex: Level,
    texture: Vec<Level>,
}

impl<F: RecordSink> TbrCaches<F> {
    /// Panics if a shape is not a whole number of 64 B sets or `fps` is 0.
    pub fn new(cfg: &TbrCacheConfig, out: F) -> Self {
        assert!(cfg.fps > 0, "no fragment processors");
        TbrCaches {
            out,
            vertex: Level::new(cfg.vertex),
            texture: (0..cfg.fps).map(|_| Level::new(cfg.texture)).collect(),
        }
    }

    /// One access: through its cache, or passed through.
    pub fn access(&mut self, a: &Access) {
        let level = match (a.stream, a.op) {
            (Stream::Vidx | Stream::Vtx, Op::Read) => &mut self.vertex,
            (Stream::Tex, Op::Read) => {
                let n = self.texture.len();
                &mut self.texture[usize::from(a.unit) % n]
            }
            _ => {
                self.out.record(Record::Access(*a));
                return;
            }
        };
        let (first, last) = gfxcache_cache::block_range(a, SHIFT);
        for block in first..=last {
            if !level.access(block, a.stream, false, a.unit).0 {
                emit(&mut self.out, block, a.stream, Op::Read, a.unit);
            }
        }
    }

    /// Counters of the Vertex Cache.
    pub fn vertex_stats(&self) -> RenderCacheStats {
        self.vertex.stats
    }

    /// Counters of each fragment processor's texture cache.
    pub fn texture_stats(&self) -> Vec<RenderCacheStats> {
        self.texture.iter().map(|l| l.stats).collect()
    }

    /// The wrapped sink, back.
    pub fn into_inner(self) -> F {
        self.out
    }
}

/// Records of the renderer; binned passes go through in place.
impl<F: RecordSink> RecordSink for TbrCaches<F> {
    fn record(&mut self, r: Record) {
        match r {
            Record::Access(a) => self.access(&a),
            m => self.out.record(m),
        }
    }

    fn binned(&mut self, pass: &BinnedPass) {
        self.out.binned(pass);
    }
}
