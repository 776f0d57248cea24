//! The timing model (ours: the paper ran the cycle-accurate Teapot, which
//! we do not have). Analytic and trace-driven, integer cycles at the GPU
//! clock, deterministic. Each rule:
//!
//! - Each fragment processor has a clock. Its shader core runs one
//!   context's work at a time and issues at most one texture access per
//!   cycle; a context waits for its access's data before its next work.
//!   An access with `work` cycles of shader work before it issues at
//!   max(its context's last data, the core's next free cycle) + `work`
//!   ([`gfxcache_gpu::FpClocks`]). With one context (the default) each fragment
//!   processor blocks on every texture access. A context holds a fragment
//!   ([`TimingConfig::context_unit`], the default): the fragment's
//!   requests one after another, its work after its last request (its
//!   tail) after that request's data, and a new fragment on the context
//!   free first; or a request, each on the next context in turn.
//! - Where the access is served gives its latency: the texture cache's
//!   [`TimingConfig::tc_cycles`] (the paper's), the mesh's hops, serialization
//!   and link contention ([`gfxcache_gpu::mesh`]), the Affinity Table's or
//!   directory's lookup, the L2's bank (one access a cycle,
//!   [`crate::L2Config::bank_contention`]) and
//!   [`crate::L2Config::hit_cycles`] (the paper's), DRAM's
//!   [`TimingConfig::dram_cycles`] on an L2 miss, with
//!   [`TimingConfig::dram_banks`] the waits of the miss for the DRAM's
//!   banks and channel buses besides ([`gfxcache_gpu::dram`]: the
//!   [`TimingConfig::dram`]'s timings in cycles of
//!   [`TimingConfig::clock_mhz`]), and, where the L2 is
//!   reached over the bus ([`L2Attach::Bus`]), the bus's arbitration, beats
//!   and queueing ([`crate::bus`]): a request holds the bus one beat, a
//!   block's reply block bytes x 8 / [`TimingConfig::bus_width_bits`]
//!   beats, each after [`TimingConfig::bus_arbitration_cycles`], and with
//!   [`TimingConfig::bus_occupancy`] a transfer waits for the transfers
//!   already holding the cycles it wants.
//! - Resources that serve one unit a cycle (mesh links, L2 banks, the
//!   bus) are reserved on calendars ([`gfxcache_gpu::calendar`]), so that accesses
//!   replayed out of time order wait only for the reservations that hold
//!   the cycles they want.
//! - The frame's cycles are the largest clock at the end. A tile end in
//!   the input synchronises every fragment processor at the latest of
//!   their clocks, as a tile-based GPU finishes a tile before it starts
//!   the next ([`TimingConfig::sync_tiles`]), so the frame is the sum of
//!   the tiles' spans.
//!
//! - The frame's other L2 accesses (`--trace`) change the L2's contents
//!   in input order. What time they take is
//!   [`TimingConfig::other_traffic`] ([`OtherTraffic`]): none (the
//!   default, as the paper's texture-only model), or, for a tile's own
//!   traffic (the Tile Fetcher's reads, the tile buffers' loads and
//!   flush), its L2 bank's cycle and a read miss's DRAM bank and bus,
//!   sent from the other units' own port a block every
//!   [`TimingConfig::other_port_cycles`], no earlier than the tile's
//!   latest texture issue so far (its start before the first). The
//!   binning pass runs before its tiles and stays untimed. No fragment
//!   processor waits for other traffic, its texture requests wait for
//!   the banks and buses it holds, and with synchronised tiles a tile
//!   starts no earlier than the port has sent the traffic of the tile
//!   [`TimingConfig::tile_buffers`] before it, whose buffer it takes.
//!
//! - With [`TimingConfig::dram_writes`] (and the DRAM's banks) the L2's
//!   write-back of a dirty victim takes its DRAM bank and bus when the
//!   miss whose fill evicted it reaches DRAM, after that miss's read.
//!
//! Not modelled: the Affinity Table's and directory's ports (one lookup per
//! cycle would add queueing at the centre), a port the other L2 traffic
//! shares with the texture caches (the bus or the mesh), a tile's wait for
//! its loads, and what [`gfxcache_gpu::dram`] leaves out.

use gfxcache_mem::DramPreset;
use serde::{Deserialize, Serialize};

use crate::schedule::ReplayOrder;
use gfxcache_gpu::bus::{BusChannels, BusConfig};
use gfxcache_gpu::clocks::ContextUnit;
use gfxcache_gpu::machine::{L2Attach, OtherTraffic};

/// The timing knobs; ours unless marked as the paper's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TimingConfig {
    /// Texture cache access (local probe or remote read). Paper: 2 cycles.
    pub tc_cycles: u32,
    /// Centralized Affinity Table lookup at the centre router. (ours): 1
    /// cycle, a 532-byte table. A node's own table is read beside its
    /// texture cache probe and adds nothing.
    pub at_cycles: u32,
    /// D-NUCA's directory lookup at the centre router. (ours): 2 cycles.
    pub directory_cycles: u32,
    /// DRAM's latency for an L2 miss, unloaded. (ours): 75 cycles, the
    /// middle of the paper's "50-100 cycles" (Table I).
    pub dram_cycles: u32,
    /// Whether an L2 miss waits besides for the DRAM's banks and channel
    /// buses ([`gfxcache_gpu::dram`]). (ours): false, every miss takes
    /// `dram_cycles` whatever the others do.
    pub dram_banks: bool,
    /// The DRAM whose banks and buses those are. Paper: dual-channel
    /// LPDDR3 (Table I), `lpddr3-1600`.
    pub dram: DramPreset,
    /// The GPU's clock, in which the DRAM's timings are counted. Paper:
    /// 600 MHz (Table I).
    pub clock_mhz: u32,
    /// Where the L2 attaches. (ours): the bus.
    pub l2_attach: L2Attach,
    /// Whether the bus between the texture caches and the L2 is a resource
    /// that one transfer holds at a time, later ones queueing ([`crate::bus`]).
    /// (ours): true. False: every transfer takes its unloaded time
    /// (arbitration and beats, 2 cycles a request and 5 a 64-byte reply by
    /// default) and none waits, the fixed-latency bus of earlier versions.
    pub bus_occupancy: bool,
    /// Cycles from a transfer asking for the bus to its grant (pipelined:
    /// they hold nothing). (ours): 1.
    pub bus_arbitration_cycles: u32,
    /// Bits the bus carries a cycle (one beat): a request is one beat, a
    /// block's reply block bytes x 8 / width beats. (ours): 128, the
    /// mesh's flit width, so a 64-byte block is 4 beats.
    pub bus_width_bits: u32,
    /// One bus for requests and replies, or a channel each. (ours): one
    /// shared bus, as "a common bus" (Section IV-A) reads.
    pub bus_channels: BusChannels,
    /// Thread contexts per fragment processor, each with one texture access
    /// in flight. (ours): 1, every access blocks its fragment processor;
    /// the paper does not give Teapot's, and one context exposes every
    /// latency, the case where the organizations differ most.
    pub contexts: u32,
    /// What a context holds ([`ContextUnit`]). (ours): a fragment, whose
    /// requests run one after another on it, each after the previous
    /// one's data, as a GPU's thread runs a fragment's shader and the NBTC
    /// units' pixel processor does; a new fragment takes the context free
    /// first. `request`: each request takes the next context in turn, so
    /// a fragment's requests overlap (earlier versions' rule).
    pub context_unit: ContextUnit,
    /// Whether a tile end synchronises the fragment processors. (ours):
    /// true, a tile-based GPU's tile by tile order.
    pub sync_tiles: bool,
    /// In which order each tile's requests are replayed. (ours): by the
    /// simulated clocks, as concurrent fragment processors issue them.
    pub order: ReplayOrder,
    /// What time the frame's other L2 accesses (`--trace`) take
    /// ([`OtherTraffic`]). (ours): untimed, they change the L2's contents
    /// only; the paper's model has the texture caches' traffic alone.
    pub other_traffic: OtherTraffic,
    /// Cycles the other units' port takes per block under
    /// [`OtherTraffic::Tiles`]. (ours): 1, a block a cycle, as TCOR's Tile
    /// Fetcher sends one request a cycle; the paper gives none.
    pub other_port_cycles: u32,
    /// Whether the L2's write-backs of dirty victims take the DRAM's banks
    /// and buses (with [`TimingConfig::dram_banks`]), each when the miss
    /// that evicted it reaches DRAM, after its read, served as a read is.
    /// (ours): false, they take no time, as in the earlier versions; the
    /// paper says nothing of them. Those of untimed other traffic (the
    /// binning pass's, or all of it under `untimed`) stay untimed.
    pub dram_writes: bool,
    /// The tile buffers under [`OtherTraffic::Tiles`] with synchronised
    /// tiles: a tile starts no earlier than the other units' port has sent
    /// the traffic of the tile this many before it (its flush); 0, never
    /// waits. (ours): 2, a double-buffered tile memory, whose write-back
    /// overlaps the next tile's shading; the paper gives none.
    pub tile_buffers: u32,
}

impl Default for TimingConfig {
    fn default() -> TimingConfig {
        TimingConfig {
            tc_cycles: 2,
            at_cycles: 1,
            directory_cycles: 2,
            dram_cycles: 75,
            dram_banks: false,
            dram: DramPreset::Lpddr3_1600,
            clock_mhz: 600,
            l2_attach: L2Attach::Bus,
            bus_occupancy: true,
            bus_arbitration_cycles: 1,
            bus_width_bits: 128,
            bus_channels: BusChannels::Shared,
            contexts: 1,
            context_unit: ContextUnit::Fragment,
            sync_tiles: true,
            order: ReplayOrder::Clock,
            other_traffic: OtherTraffic::Untimed,
            other_port_cycles: 1,
            dram_writes: false,
            tile_buffers: 2,
        }
    }
}

impl TimingConfig {
    /// The DRAM an L2 miss waits for, if it waits for one.
    pub fn dram_banks(&self) -> Option<gfxcache_gpu::DramTiming> {
        self.dram_banks
            .then(|| gfxcache_gpu::DramTiming::of(self.dram, self.clock_mhz))
    }

    /// The bus's knobs.
    pub fn bus(&self) -> BusConfig {
        BusConfig {
            occupancy: self.bus_occupancy,
            arbitration_cycles: self.bus_arbitration_cycles,
            width_bits: self.bus_width_bits,
            channels: self.bus_channels,
        }
    }
}
