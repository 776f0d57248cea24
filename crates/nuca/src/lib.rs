//! DTM-NUCA (Corbalán-Navarro, Aragón, Parcerisa and González, Euromicro
//! PDP 2022): the private texture caches of a tile-based GPU's fragment
//! processors organized as one non-uniform cache, where a block missing
//! locally may come from another fragment processor's cache over the
//! on-chip mesh instead of from the L2, and a small Affinity Table maps
//! buckets of texture blocks to their owners.
//!
//! This crate holds the functional models (where each texture access is
//! served) and the machine around them (the shared L2, the mesh, an
//! analytic timing model of ours, energy from counts). One concept per
//! file, in the paper's words:
//!
//! - [`config`]: every parameter ([`NucaConfig`], the paper's values as
//!   defaults, ours marked) and its [`NucaConfig::check`].
//! - [`texture_cache`]: one fragment processor's LRU texture cache, with
//!   the hit that leaves the LRU order alone (the GPU machine's,
//!   `gfxcache-gpu`, re-exported).
//! - [`bucket`]: blocks to pages to buckets (Figure 3).
//! - [`counter`]: the saturating counters and the takeover margin.
//! - [`affinity_table`]: the centralized Affinity Table and its size
//!   ([`affinity_table_bits`]); [`node_table`]: the distributed one;
//!   [`epoch`]: the epoch clock; [`directory`]: D-NUCA's directory.
//! - [`organization`]: the [`Organization`] trait and the organizations:
//!   [`Private`], [`DNuca`], [`Dtm`] (centralized), [`DtmDistributed`],
//!   [`SNuca`] and [`IdealShared`].
//! - [`stats`]: [`NucaStats`] and [`Outcome`].
//! - the GPU machine's parts, `gfxcache-gpu`, re-exported here: the
//!   shared L2 ([`SharedL2`], Table I, on the cache engine) with its banks
//!   and the frame's other L2 traffic; the 2D mesh ([`Mesh`]: shapes, X-Y
//!   routes, flits, link contention, broadcast trees); the bus between
//!   the texture caches and the L2 ([`Bus`]); the fragment processors'
//!   clocks ([`FpClocks`]); per-cycle reservations ([`Calendar`]).
//! - [`timing`]: every timing knob ([`TimingConfig`], ours but for the
//!   paper's latencies) and the timing model's rules.
//! - [`machine`]: an organization on the GPU machine ([`Machine`], the
//!   machine's, `gfxcache-gpu`): the messages each flow sends, their
//!   latency; [`replay::energy_counts`]: the counts energy needs.
//! - [`mod@replay`]: organizations on their configurations over one
//!   sequence of events (texture accesses with shader work, other L2
//!   accesses, tile ends), in parallel ([`replay()`], [`Replay`]), with
//!   energy by part ([`NucaEnergy`], from `gfxcache-mem`); [`schedule`]:
//!   each tile in the order of the simulated clocks.
//! - [`input`]: a rendered frame's texture requests (`.gtq`) and L2 trace
//!   (`.gtr`) as replay events ([`FrameInput`], [`RequestUnit`]);
//!   [`tile_trace`]: the trace read a tile at a time ([`TileTrace`]), for
//!   that input and for the composed machine.
//! - [`study`]: the paper's Section V on rendered frames (config in,
//!   [`study::NucaReport`] out, progress by callback) and its suite mean.
//! - [`block_hash`]: the hasher of maps keyed by block.
//!
//! Depends on `gfxcache-cache` (the geometry rules, the cache engine, the
//! parallel fan-out), `gfxcache-gpu` (the machine's shared resources),
//! `gfxcache-trace` (stream names) and `gfxcache-mem` (the energy model)
//! only; never on rendering (`gfxcache-render`) or the command line
//! (`gfxcache-cli`): the texture access streams come in as data, and the
//! command that writes reports composes this crate with the renderer.

pub mod affinity_table;
pub mod block_hash;
pub mod bucket;
pub mod config;
pub mod counter;
pub mod directory;
pub mod epoch;
pub mod error;
pub mod input;
pub mod node_table;
pub mod organization;
pub mod replay;
pub mod schedule;
pub mod stats;
pub mod study;
pub mod tile_trace;
pub mod timing;

pub use affinity_table::{affinity_table_bits, AffinityTable};
pub use bucket::{Bucket, Buckets};
pub use config::{AnnouncedCount, CountedAccesses, EpochReset, MergedLookups, NucaConfig, TcIndex};
pub use directory::Directory;
pub use epoch::Epoch;
pub use error::NucaError;
pub use gfxcache_cache::run::Threads;
pub use gfxcache_gpu::bus::{self, Bus, BusChannels, BusConfig, BusStats};
pub use gfxcache_gpu::calendar::{self, Calendar};
pub use gfxcache_gpu::clocks::{ContextUnit, FpClocks, RequestWork, TimingStats};
pub use gfxcache_gpu::l2::{self, L2Config, L2Stats, SharedL2};
pub use gfxcache_gpu::machine::{
    self, L2Attach, Machine, MachineConfig, MachineCounts, OtherPhase, OtherTraffic,
};
pub use gfxcache_gpu::mesh::{
    self, default_shape, Contention, Mesh, MeshConfig, MeshStats, Message,
};
pub use gfxcache_gpu::placement::{Flow, Outcome, Placement, SideEvents};
pub use gfxcache_gpu::texture_cache::{self, Lookup, TextureCache};
pub use gfxcache_mem::{NucaEnergy, NucaEnergyCounts, NucaEnergyModel};
pub use input::{FrameInput, InputError, RequestUnit};
pub use node_table::NodeTable;
pub use organization::{
    DNuca, Dtm, DtmDistributed, IdealShared, Organization, Private, SNuca, TextureCaches,
};
pub use replay::{
    replay, AnyOrganization, OrgKind, OrgResult, Replay, ReplayEvent, ReplayReport, TextureAccess,
};
pub use schedule::{ReplayOrder, Scheduler, TilePlan};
pub use stats::NucaStats;
pub use tile_trace::TileTrace;
pub use timing::TimingConfig;
