//! TCOR, the Tile Cache with Optimal Replacement (Joseph, Aragón, Parcerisa
//! and González): the Tiling Engine's caches of a tile-based GPU, where the
//! Polygon List Builder writes the Parameter Buffer and the Tile Fetcher
//! reads it back tile by tile in a fixed order, so the future is known and
//! OPT (Belady/Mattson) replacement is practical.
//!
//! - [`binned_file`]: reading the binned passes `render --binned` writes,
//!   each binned.
//! - [`binning`]: what the Polygon List Builder derives from a binned frame
//!   (OPT Numbers, last tiles). The binned frame itself ([`BinnedFrame`],
//!   [`BinnedPass`]), the tile orders ([`TileOrder`]) and the file format
//!   are `gfxcache-trace`'s (`gfxcache_trace::binned`), re-exported here.
//! - [`layout`]: the Parameter Buffer in memory (baseline and interleaved
//!   PB-Lists, PB-Attributes) and its access stream in time order;
//!   [`overflow`]: where the baseline's lists go past their room of 1024.
//! - [`attribute_cache`]: the Attribute Cache ([`primitive_buffer`] +
//!   [`attribute_buffer`]) with OPT, LRU, MRU or DRRIP replacement
//!   ([`replacement`]).
//! - [`bound`]: the lower bound LB of Section V-A.
//! - [`tile_cache`]: the conventional LRU caches (the baseline Tile Cache,
//!   TCOR's Primitive List Cache) on `gfxcache-cache`'s engine.
//! - [`frame`]: a frame's Parameter Buffer traffic through the baseline
//!   and through TCOR, and what reaches the L2 ([`L2Port`]).
//! - [`l2`]: the L2 with TCOR's dead-line-aware replacement, and the
//!   baseline LRU L2.
//! - [`frame_l2`]: a tile-based frame's trace with its Parameter Buffer
//!   traffic replaced by a chosen Tiling Engine's, through the shared L2
//!   to main memory (Figures 14-19), and the Tile Fetcher's reads timed by
//!   [`fetcher`] (blocking, or non-blocking with MSHRs: Figures 23-24);
//!   [`sweep`]: Attribute Cache miss ratios over sizes (Figures 1,
//!   11-13).
//! - [`pb_stage`]: a stream stage that puts a Tiling Engine's Parameter
//!   Buffer traffic (by default the baseline's, which `render --mode tbr`
//!   traces carry) into a tile-based frame's record stream as it is
//!   rendered.
//! - [`study`]: the paper's whole study on a frame's trace and binned
//!   passes: config in, a serde report out, progress by callback.
//!
//! Depends on `gfxcache-trace` (streams, binned frames), `gfxcache-cache`
//! (the conventional LRU caches), `gfxcache-mem` (energy, and the Tile
//! Fetcher's MSHRs: `MissQueue`), `gfxcache-gpu` (the machine's DRAM banks
//! for the Tile Fetcher's misses) and `gfxcache-machine` only; never on rendering or the command
//! line: the renderer fills a [`BinnedFrame`] (a `gfxcache-trace` type both
//! sides speak) and the `gfxcache tcor` command reads the statistics.

#![forbid(unsafe_code)]

pub mod attribute_buffer;
pub mod attribute_cache;
pub mod binned_file;
pub mod binning;
pub mod bound;
pub mod characteristics;
pub mod error;
pub mod fetcher;
pub mod frame;
pub mod frame_l2;
pub mod l2;
pub mod layout;
pub mod overflow;
pub mod pb_stage;
pub mod primitive_buffer;
pub mod replacement;
pub mod study;
pub mod sweep;
pub mod tile_cache;

pub use attribute_buffer::{Abp, AttributeBuffer};
pub use attribute_cache::{
    replay, replay_with_queue, AttributeCache, AttributeCacheConfig, AttributeCacheStats,
    L2Request, OutputQueue, Queued, ReadOutcome, Replacement, Request, WriteOutcome,
};
pub use binning::{Binning, LastTileId, ListEntry, OptNumber, TilePos};
pub use characteristics::{characteristics, Characteristics};
pub use error::{BinningError, ConfigError};
pub use fetcher::{
    FetchRead, FetchTrace, FetcherModel, FetcherStats, FetcherTiming, DEFAULT_FETCHER_FIFO,
    DEFAULT_FETCHER_MSHRS, DEFAULT_FETCHER_TARGETS,
};
pub use frame::{
    simulate_baseline, simulate_tcor, BaselineConfig, BaselineStats, L2Port, NoL2, TcorConfig,
    TcorStats, DEFAULT_OUTPUT_QUEUE_DEPTH,
};
pub use frame_l2::{
    EngineCounts, FrameL2, FrameL2Stats, FrameMismatch, PassTraffic, TileBuffers, TilingEngine,
};
pub use gfxcache_trace::binned::{
    is_tile_buffer, BinnedFrame, BinnedPass, BinnedPrimitive, TileId, TileOrder,
};
pub use l2::{last_tile, L2Cache, L2Config, L2Policy, L2Stats, LineKind, PbL2Port};
pub use layout::{ListsLayout, ParameterBufferStream, PbAccess, PbLayout, Phase, Pmd, Section};
pub use overflow::{ListOverflow, OverflowCounts, OverflowUsage, DEFAULT_OVERFLOW_CHUNK_SLOTS};
pub use pb_stage::{PbTrafficStage, PbTrafficStats};
pub use primitive_buffer::{PbLine, PrimitiveBuffer};
pub use sweep::{config_of_size, reaches_bound, SweepPoint};
pub use tile_cache::{ConventionalCache, ConventionalStats, L2Block, SectionStats, Serves};
