//! The timing model (ours: the paper ran the cycle-accurate Teapot, which
//! we do not have). Analytic and trace-driven, integer cycles at the GPU
//! clock, deterministic. Each rule:
//!
//! - Each fragment processor has a clock. Its shader core runs one
//!   context's work at a time and issues at most one texture access per
//!   cycle; a context waits for its access's data before its next work.
//!   An access with `work` cycles of shader work before it issues at
//!   max(its context's last data, the core's next free cycle) + `work`
//!   ([`FpClocks`]). With one context (the default) each fragment
//!   processor blocks on every texture access.
//! - Where the access is served gives its latency: the texture cache's
//!   [`TimingConfig::tc_cycles`] (the paper's), the mesh's hops, serialization
//!   and link contention ([`gfxcache_gpu::mesh`]), the Affinity Table's or
//!   directory's lookup, the L2's bank (one access a cycle,
//!   [`crate::L2Config::bank_contention`]) and
//!   [`crate::L2Config::hit_cycles`] (the paper's), DRAM's
//!   [`TimingConfig::dram_cycles`] on an L2 miss, and, where the L2 is
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
//! Not modelled: the Affinity Table's and directory's ports (one lookup per
//! cycle would add queueing at the centre), DRAM banks and bandwidth, the
//! other L2 traffic's bank and bus cycles.

use serde::{Deserialize, Serialize};

use crate::bus::BusChannels;
use crate::schedule::ReplayOrder;

/// Where the L2 is reached from a texture cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum L2Attach {
    /// Over the baseline's bus, in every organization: the mesh carries
    /// only the traffic between texture caches and tables. The default
    /// (ours): Section IV-A adds the mesh "to directly interconnect
    /// Fragment Processors to each other" beside the bus that already
    /// joins each texture cache to the L2, and keeping that bus makes the
    /// L2's cost the same in every organization.
    #[default]
    Bus,
    /// At the centre router of the mesh (where the Affinity Table is): the
    /// NUCA organizations' L2 requests cross the mesh; the private and
    /// ideal shared caches, which have no mesh, still use the bus.
    Centre,
    /// At the corner router (0, 0), as a memory controller at the edge of
    /// a chip would be; otherwise as [`L2Attach::Centre`].
    Corner,
}

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
    /// DRAM's latency for an L2 miss. (ours): 75 cycles, the middle of the
    /// paper's "50-100 cycles" (Table I); bandwidth is not modelled.
    pub dram_cycles: u32,
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
    /// Whether a tile end synchronises the fragment processors. (ours):
    /// true, a tile-based GPU's tile by tile order.
    pub sync_tiles: bool,
    /// In which order each tile's requests are replayed. (ours): by the
    /// simulated clocks, as concurrent fragment processors issue them.
    pub order: ReplayOrder,
}

impl Default for TimingConfig {
    fn default() -> TimingConfig {
        TimingConfig {
            tc_cycles: 2,
            at_cycles: 1,
            directory_cycles: 2,
            dram_cycles: 75,
            l2_attach: L2Attach::Bus,
            bus_occupancy: true,
            bus_arbitration_cycles: 1,
            bus_width_bits: 128,
            bus_channels: BusChannels::Shared,
            contexts: 1,
            sync_tiles: true,
            order: ReplayOrder::Clock,
        }
    }
}

/// What the clocks measured.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimingStats {
    /// The frame: the largest clock at the end (with tile synchronisation,
    /// the sum of the tiles' spans).
    pub cycles: u64,
    /// Tile ends seen.
    pub tiles: u64,
    /// Cycles from issue to data, all texture accesses together.
    pub texture_latency_cycles: u64,
    /// Shader work cycles of the input.
    pub work_cycles: u64,
}

/// The fragment processors' clocks.
///
/// A texture request may touch several blocks (a bilinear footprint across
/// a block boundary, the two levels of a trilinear one): its first block
/// issues after the request's shader work ([`FpClocks::issue`]), the
/// others one a cycle after it without waiting for its data
/// ([`FpClocks::issue_more`]), and the context waits for the last of them.
#[derive(Clone, Debug)]
pub struct FpClocks {
    contexts: usize,
    /// Per fragment processor, `contexts` slots: when each context's last
    /// texture request has all its data.
    ready: Vec<u64>,
    /// Per fragment processor, the context its next request uses.
    next: Vec<u32>,
    /// Per fragment processor, the context of its current request.
    current: Vec<u32>,
    /// Per fragment processor, the first cycle its core is free.
    core_free: Vec<u64>,
    /// The latest data return so far.
    latest: u64,
    stats: TimingStats,
}

impl FpClocks {
    /// `fps` fragment processors of `contexts` contexts (at least 1), all at
    /// cycle 0.
    pub fn new(fps: usize, contexts: u32) -> FpClocks {
        let contexts = contexts.max(1) as usize;
        FpClocks {
            contexts,
            ready: vec![0; fps * contexts],
            next: vec![0; fps],
            current: vec![0; fps],
            core_free: vec![0; fps],
            latest: 0,
            stats: TimingStats::default(),
        }
    }

    /// When fragment processor `fp` would issue a request that follows
    /// `work` cycles of shader work, were it the next to issue.
    #[inline]
    pub fn next_issue(&self, fp: usize, work: u32) -> u64 {
        let slot = fp * self.contexts + self.next[fp] as usize;
        self.ready[slot].max(self.core_free[fp]) + u64::from(work)
    }

    /// When fragment processor `fp` issues the first block of its next
    /// texture request, which follows `work` cycles of shader work.
    #[inline]
    pub fn issue(&mut self, fp: usize, work: u32) -> u64 {
        let t = self.next_issue(fp, work);
        let context = self.next[fp];
        self.current[fp] = context;
        self.next[fp] = ((context as usize + 1) % self.contexts) as u32;
        self.ready[fp * self.contexts + context as usize] = t;
        self.core_free[fp] = t + 1;
        self.stats.work_cycles += u64::from(work);
        t
    }

    /// When fragment processor `fp` issues another block of its current
    /// request: the cycle after the previous one.
    #[inline]
    pub fn issue_more(&mut self, fp: usize) -> u64 {
        let t = self.core_free[fp];
        self.core_free[fp] = t + 1;
        t
    }

    /// A block `fp` issued at `issued` for its current request has its
    /// data at `done`.
    #[inline]
    pub fn complete(&mut self, fp: usize, issued: u64, done: u64) {
        let slot = fp * self.contexts + self.current[fp] as usize;
        self.ready[slot] = self.ready[slot].max(done);
        self.latest = self.latest.max(done);
        self.stats.texture_latency_cycles += done - issued;
    }

    /// `fp` runs `work` cycles of shader work that end no texture request
    /// (a fragment's work after its last request, before the tile ends):
    /// after the data of every context's request, as the fragment's last
    /// instructions use it.
    pub fn work(&mut self, fp: usize, work: u32) {
        let contexts = fp * self.contexts..(fp + 1) * self.contexts;
        let data = self.ready[contexts].iter().copied().max().unwrap_or(0);
        let end = data.max(self.core_free[fp]) + u64::from(work);
        self.core_free[fp] = end;
        self.latest = self.latest.max(end);
        self.stats.work_cycles += u64::from(work);
    }

    /// A tile ends: with `sync`, every fragment processor waits for the
    /// latest.
    pub fn tile_end(&mut self, sync: bool) {
        self.stats.tiles += 1;
        if sync {
            let t = self.now();
            self.ready.fill(t);
            self.core_free.fill(t);
        }
    }

    /// The latest cycle any fragment processor has reached.
    pub fn now(&self) -> u64 {
        let free = self.core_free.iter().map(|&c| c.saturating_sub(1));
        free.fold(self.latest, u64::max)
    }

    /// The clocks' counts, with the frame's cycles so far.
    pub fn stats(&self) -> TimingStats {
        TimingStats {
            cycles: self.now(),
            ..self.stats.clone()
        }
    }
}
