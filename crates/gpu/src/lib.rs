//! The GPU machine every study is to run on (issue 34): the parts of a
//! graphics GPU's fragment back end that the designs share and compose
//! on, each described by its parameters, below the design crates
//! (`gfxcache-nuca`, `gfxcache-nbtc`) that plug their mechanisms into it.
//!
//! It begins with what DTM-NUCA's machine and the NBTC both had, moved
//! out of `gfxcache-nuca` (the NBTC's L1 was the same cache):
//!
//! - [`texture_cache`]: a texture unit's read-only LRU cache, with the
//!   hit that leaves the LRU order alone, the probe that changes nothing
//!   and the fill when memory returns ([`TextureCache`]).
//! - [`calendar`]: a resource that serves one unit a cycle (a mesh link
//!   passing a flit, an L2 bank taking an access), reserved cycle by cycle
//!   by requests that come in trace order ([`Calendar`]).
//! - [`mesh`]: the 2D mesh between the fragment processors' texture caches
//!   ([`Mesh`]): shapes, X-Y routes, flits, link contention, broadcast
//!   trees.
//! - [`bus`]: the bus between the texture caches and the L2 ([`Bus`]),
//!   a resource with arbitration, beats and queueing ([`BusConfig`]).
//! - [`l2`]: the banked L2 the texture caches share ([`SharedL2`]), on
//!   the cache engine, one access a bank a cycle, and the frame's other
//!   L2 traffic.
//! - [`clocks`]: the fragment processors' clocks ([`FpClocks`]): when each
//!   issues a texture request and when its data is back, with thread
//!   contexts, each holding a fragment or a request ([`ContextUnit`]), and
//!   tile synchronisation.
//! - [`placement`]: where a texture access is served ([`Outcome`]), how
//!   its messages travel ([`Flow`]), and the [`Placement`] trait a texture
//!   cache organization implements (DTM-NUCA's study's six, one line
//!   each).
//! - [`dram`]: DRAM behind the L2 ([`DramBanks`]): the waits of an L2
//!   miss for `gfxcache-mem`'s banks and channel buses, on calendars.
//! - [`machine`]: a placement on the machine ([`Machine`]): the clocks,
//!   the mesh, the bus, the banked L2 and DRAM around it, the
//!   messages each flow sends and their times ([`MachineConfig`]).
//!
//! Depends on `gfxcache-cache` (a cache's geometry and set index, the
//! engine under the L2), `gfxcache-mem` (DRAM's timings and mapping) and
//! `gfxcache-trace` (stream names) only: the
//! designs depend on it, never the other way.

pub mod bus;
pub mod calendar;
pub mod clocks;
pub mod dram;
pub mod l2;
pub mod machine;
pub mod mesh;
pub mod placement;
pub mod texture_cache;

pub use bus::{Bus, BusChannels, BusConfig, BusStats};
pub use calendar::Calendar;
pub use clocks::{ContextUnit, FpClocks, RequestWork, TimingStats};
pub use dram::{DramBanks, DramStats, DramTiming, DramUse};
pub use l2::{L2Access, L2Config, L2Stats, PolicyRegistry, SharedL2};
pub use machine::{
    L2Attach, Machine, MachineConfig, MachineCounts, MachineReport, OtherAccess, OtherPhase,
    OtherTraffic, TileTraffic, MAX_TILE_BUFFERS,
};
pub use mesh::{default_shape, Contention, Mesh, MeshConfig, MeshStats, Message};
pub use placement::{Flow, Outcome, Placement, Served, SideEvents};
pub use texture_cache::{Lookup, TextureCache};
