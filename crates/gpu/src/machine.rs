//! One placement of the texture caches with everything around it: the
//! fragment processors' clocks, the mesh, the bus, the banked L2 and
//! DRAM: its latency, and with [`MachineConfig::dram_banks`] the waits
//! for its banks and buses ([`crate::dram`]). The placement decides where an access is served
//! ([`Outcome`]); the machine sends the messages that service takes, in
//! the order the placement's [`Flow`] gives, times them, and counts the
//! events the energy needs.
//!
//! The flows (DTM-NUCA's paper's, with our reading marked in
//! `gfxcache-nuca`'s organizations): a local probe first, except S-NUCA's requests
//! for a block homed elsewhere, which go straight to the home; a local
//! miss asks D-NUCA's directory or the centralized Affinity Table at the
//! centre router (one control message there, one on to the holder or
//! owner, or back to the requester), or the node's own table (no
//! message); a holder or owner serves the block in a data message, or,
//! missing too, reads the L2 for the requester and forwards the block.
//! Off the critical path: D-NUCA's eviction notices to the directory, the
//! centralized table's count updates for local hits, and the distributed
//! tables' epoch broadcasts.

use gfxcache_cache::CacheError;
use gfxcache_trace::Stream;
use serde::{Deserialize, Serialize};

use crate::bus::{Bus, BusConfig, BusStats};
use crate::clocks::{ContextUnit, FpClocks, RequestWork, TimingStats};
use crate::dram::{DramBanks, DramStats, DramTiming, DramUse};
use crate::l2::{L2Config, L2Stats, SharedL2};
use crate::mesh::{Mesh, MeshConfig, MeshStats, Message};
use crate::placement::{Flow, Outcome, Placement, Served, SideEvents};

/// Where the L2 is reached from a texture cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum L2Attach {
    /// Over the baseline's bus, in every placement: the mesh carries
    /// only the traffic between texture caches and tables. The default
    /// (ours): DTM-NUCA's Section IV-A adds the mesh "to directly
    /// interconnect Fragment Processors to each other" beside the bus that
    /// already joins each texture cache to the L2, and keeping that bus
    /// makes the L2's cost the same in every placement.
    #[default]
    Bus,
    /// At the centre router of the mesh (where the Affinity Table is): the
    /// NUCA placements' L2 requests cross the mesh; the private and ideal
    /// shared caches, which have no mesh, still use the bus.
    Centre,
    /// At the corner router (0, 0), as a memory controller at the edge of
    /// a chip would be; otherwise as [`L2Attach::Centre`].
    Corner,
}

/// The machine's parts and latencies (DTM-NUCA's study sets them from its
/// configuration, where each is documented with its source).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MachineConfig {
    /// Fragment processors, each with a texture cache.
    pub fps: usize,
    /// The block every cache and message moves.
    pub block_bytes: u32,
    pub mesh: MeshConfig,
    pub l2: L2Config,
    pub bus: BusConfig,
    /// A texture cache access (local probe or remote read).
    pub tc_cycles: u32,
    /// The centralized Affinity Table's lookup at the centre router.
    pub table_cycles: u32,
    /// D-NUCA's directory lookup at the centre router.
    pub directory_cycles: u32,
    /// DRAM's latency for an L2 miss, unloaded.
    pub dram_cycles: u32,
    /// The DRAM whose banks and channel buses an L2 miss waits for
    /// besides ([`crate::dram`]); `None`: none, every miss takes
    /// `dram_cycles`.
    pub dram_banks: Option<DramTiming>,
    pub l2_attach: L2Attach,
    /// Thread contexts per fragment processor ([`FpClocks`]).
    pub contexts: u32,
    /// What a context holds ([`ContextUnit`]).
    pub context_unit: ContextUnit,
    /// A tile end synchronises the fragment processors.
    pub sync_tiles: bool,
    /// Whether the frame's other L2 accesses ([`Machine::l2_other`]) take
    /// the machine's time.
    pub other_traffic: OtherTraffic,
    /// Cycles the other units' port to the L2 takes per block it sends
    /// (timed other traffic only): 1 sends a block a cycle.
    pub other_port_cycles: u32,
    /// Whether the L2's write-backs of dirty victims take the DRAM's banks
    /// and buses (with `dram_banks`), each when the miss whose fill
    /// evicted it reaches DRAM, after that miss's read; else they take no
    /// time. Those of untimed other traffic (the binning pass's, or all
    /// of it under [`OtherTraffic::Untimed`]) stay untimed.
    pub dram_writes: bool,
    /// The tile buffers a tile's traffic holds until the port has sent it
    /// (timed other traffic and synchronised tiles only): a tile starts
    /// no earlier than the port's send of the last access of the tile
    /// this many before it. 0: unbounded, a tile never waits.
    pub tile_buffers: u32,
}

/// The most tile buffers [`MachineConfig::tile_buffers`] may give.
pub const MAX_TILE_BUFFERS: u32 = 8;

/// How the frame's other L2 traffic (every stream but the texture
/// caches': vertex fetch, binning, the Tile Fetcher, the tile buffers)
/// takes the machine's time. It never crosses the texture caches' bus or
/// mesh, and no fragment processor waits for it; it changes the L2's
/// contents in input order in every variant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OtherTraffic {
    /// It takes no time: no bank, no DRAM bank or bus. DTM-NUCA's paper
    /// models the texture caches' traffic only.
    #[default]
    Untimed,
    /// A tile's own traffic ([`OtherPhase::Tile`]) takes its L2 bank's
    /// cycle, and a read miss its DRAM bank and channel bus, from a port
    /// of the other units' own that sends a block every
    /// [`MachineConfig::other_port_cycles`]: a block leaves at the latest
    /// of the port being free and the latest texture issue of the tile
    /// so far (the tile's start before its first), so a tile's loads go
    /// at its start, its stores after its last texture access and on
    /// into the next tile. The binning pass ([`OtherPhase::Binning`])
    /// runs before its pass's tiles, outside the fragment phase the
    /// machine times, and stays untimed.
    Tiles,
}

/// Which phase of a tile-based frame one of its other L2 accesses comes
/// from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OtherPhase {
    /// The binning pass (geometry: vertex fetch, the Parameter Buffer's
    /// writes), between tiles.
    Binning,
    /// A tile's fragment phase: the Tile Fetcher's reads, the tile
    /// buffers' loads and flush.
    Tile,
}

/// One block of the frame's other L2 traffic ([`Machine::l2_other`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OtherAccess {
    /// The block's number (its byte address over the block size).
    pub block: u64,
    pub stream: Stream,
    pub write: bool,
}

/// A tile's other L2 traffic, for a replay whose texture units keep their
/// own time and meet at tile ends (the composed machine's): the binning
/// pass's accesses before the tile, the tile's accesses up to its last
/// texture access in the trace (the tile buffers' loads, the Tile
/// Fetcher's reads), sent from the tile's start, and those after it (the
/// tile buffers' flush), sent from its end ([`Machine::tile_begins`],
/// [`Machine::tile_ends`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TileTraffic {
    pub binning: Vec<OtherAccess>,
    pub start: Vec<OtherAccess>,
    pub end: Vec<OtherAccess>,
}

/// Events of the machine beyond the organization's own counts.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MachineCounts {
    /// Texture cache lookups: local probes and remote reads.
    pub tc_reads: u64,
    /// Texture cache fills (one per L2 request).
    pub tc_fills: u64,
    /// D-NUCA directory updates: a holder recorded, an eviction cleared.
    pub directory_updates: u64,
}

/// What a placement's machine did: where it served the accesses, and
/// what its L2, mesh and bus carried.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MachineReport {
    pub served: Served,
    pub l2: L2Stats,
    pub mesh: MeshStats,
    pub bus: BusStats,
    /// The DRAM's banks and buses (all 0 without [`MachineConfig::dram_banks`]).
    #[serde(default)]
    pub dram: DramStats,
    pub counts: MachineCounts,
    /// What the placement did beside serving: evictions, accesses its
    /// tables counted, epochs ended.
    #[serde(default)]
    pub side: SideEvents,
}

/// A placement on the machine.
pub struct Machine<O> {
    org: O,
    fps: usize,
    block_bytes: u32,
    l2: SharedL2,
    mesh: Mesh,
    /// The bus to the L2, where it is reached over one.
    bus: Bus,
    clocks: FpClocks,
    tc_cycles: u64,
    table_cycles: u32,
    directory_cycles: u32,
    dram_cycles: u32,
    dram: Option<DramBanks>,
    /// The router of the Affinity Table and the directory.
    table_router: usize,
    /// The L2's router, when the L2 is on this organization's mesh.
    l2_router: Option<usize>,
    l2_hit: u64,
    sync_tiles: bool,
    other_traffic: OtherTraffic,
    other_port_cycles: u64,
    /// The latest issue cycle of a texture access played in the tile so
    /// far, or the tile's start: the earliest a timed other access leaves.
    other_anchor: u64,
    /// When the other units' port sends its next block.
    other_port_free: u64,
    dram_writes: bool,
    tile_buffers: usize,
    /// When the port is done with each of the last `tile_buffers` tiles'
    /// traffic, by tile number modulo `tile_buffers`; the current tile's.
    tile_sent: [u64; MAX_TILE_BUFFERS as usize],
    tile_port_done: u64,
    tiles_ended: usize,
    counts: MachineCounts,
}

impl<O: Placement> Machine<O> {
    /// `org` on a machine of `config`; the L2's error if the cache engine
    /// cannot build its geometry. The caller has checked the rest.
    pub fn new(org: O, config: &MachineConfig) -> Result<Machine<O>, CacheError> {
        let mesh = Mesh::new(&config.mesh, config.fps, config.block_bytes);
        let has_mesh = !matches!(O::FLOW, Flow::Private);
        let l2_router = match config.l2_attach {
            L2Attach::Bus => None,
            _ if !has_mesh => None,
            L2Attach::Centre => Some(mesh.centre()),
            L2Attach::Corner => Some(0),
        };
        Ok(Machine {
            fps: config.fps,
            block_bytes: config.block_bytes,
            table_router: mesh.centre(),
            l2_router,
            bus: Bus::new(&config.bus, config.block_bytes),
            l2: SharedL2::new(&config.l2, config.block_bytes)?,
            clocks: FpClocks::new(config.fps, config.contexts, config.context_unit),
            l2_hit: u64::from(config.l2.hit_cycles),
            sync_tiles: config.sync_tiles,
            other_traffic: config.other_traffic,
            other_port_cycles: u64::from(config.other_port_cycles),
            other_anchor: 0,
            other_port_free: 0,
            dram_writes: config.dram_writes,
            tile_buffers: config.tile_buffers.min(MAX_TILE_BUFFERS) as usize,
            tile_sent: [0; MAX_TILE_BUFFERS as usize],
            tile_port_done: 0,
            tiles_ended: 0,
            tc_cycles: u64::from(config.tc_cycles),
            table_cycles: config.table_cycles,
            directory_cycles: config.directory_cycles,
            dram_cycles: config.dram_cycles,
            dram: config.dram_banks.as_ref().map(DramBanks::new),
            mesh,
            org,
            counts: MachineCounts::default(),
        })
    }

    /// One texture access of `fp` to `block`, the first block of a request
    /// after the shader work `w`: served, timed and counted.
    #[inline]
    pub fn texture(&mut self, fp: usize, block: u64, w: RequestWork) -> Outcome {
        let t = self.clocks.issue(fp, w);
        self.access(fp, block, t)
    }

    /// Another block of `fp`'s current request ([`FpClocks::issue_more`]).
    #[inline]
    pub fn texture_more(&mut self, fp: usize, block: u64) -> Outcome {
        let t = self.clocks.issue_more(fp);
        self.access(fp, block, t)
    }

    /// `work` cycles of `fp`'s shader work that end no request
    /// ([`FpClocks::work`]).
    pub fn work(&mut self, fp: usize, work: u32) {
        self.clocks.work(fp, work);
    }

    /// When `fp` would issue a request after the shader work `w`
    /// ([`FpClocks::next_issue`]).
    #[inline]
    pub fn next_issue(&self, fp: usize, w: RequestWork) -> u64 {
        self.clocks.next_issue(fp, w)
    }

    /// The access of `fp` to `block` issued at `t`.
    #[inline]
    fn access(&mut self, fp: usize, block: u64, t: u64) -> Outcome {
        self.other_anchor = self.other_anchor.max(t);
        let (outcome, done) = self.access_at(fp, block, t);
        self.clocks.complete(fp, t, done);
        outcome
    }

    /// An access of `fp` to `block` that a texture unit of its own issues
    /// at cycle `t`, outside the machine's clocks (the unit keeps its
    /// processor's time): served, its messages sent and timed, the
    /// messages it causes off the critical path sent, and counted.
    /// Returns where it was served and when its data reaches `fp`.
    #[inline]
    pub fn access_at(&mut self, fp: usize, block: u64, t: u64) -> (Outcome, u64) {
        let before = self.org.side_events();
        let outcome = self.org.access(fp, block);
        self.timed(fp, block, outcome, before, t)
    }

    /// [`Machine::access_at`] for a texture unit that fills its own cache
    /// when the block returns ([`Placement::access_deferred`]); the unit
    /// tells the machine at [`Machine::returned`].
    #[inline]
    pub fn send_at(&mut self, fp: usize, block: u64, t: u64) -> (Outcome, u64) {
        let before = self.org.side_events();
        let outcome = self.org.access_deferred(fp, block);
        self.timed(fp, block, outcome, before, t)
    }

    #[inline]
    fn timed(
        &mut self,
        fp: usize,
        block: u64,
        outcome: Outcome,
        before: SideEvents,
        t: u64,
    ) -> (Outcome, u64) {
        let done = self.serve(fp, block, outcome, t);
        self.aside(fp, outcome, before, t);
        (outcome, done)
    }

    /// The block of `fp`'s [`Machine::send_at`] is back at cycle `t`: the
    /// placement fills `fp`'s own cache if it is to hold it, and an
    /// eviction that fill makes is noticed off the critical path (D-NUCA's
    /// directory).
    #[inline]
    pub fn returned(&mut self, fp: usize, block: u64, t: u64) {
        let before = self.org.side_events();
        self.org.returned(fp, block);
        if O::FLOW == Flow::Directory && self.org.side_events().evictions > before.evictions {
            self.counts.directory_updates += 1;
            self.mesh.send(fp, self.table_router, Message::Control, t);
        }
    }

    /// A lookup of `fp` at cycle `t` merged with its miss on `block`
    /// already sent ([`Placement::merged`]): it waits for that block and
    /// takes no time of the machine's, but a table that counts it is
    /// told as it is of a local hit (the centralized Affinity Table's
    /// update message), and an epoch it ends is broadcast.
    #[inline]
    pub fn merged_at(&mut self, fp: usize, block: u64, t: u64) {
        let before = self.org.side_events();
        self.org.merged(fp, block);
        self.aside(fp, Outcome::LocalHit, before, t);
    }

    /// One block of the frame's other L2 traffic of `stream`, from
    /// `phase`, in trace order: it changes the L2's contents, and under
    /// [`OtherTraffic::Tiles`] a tile's takes the L2 bank's cycle, and a
    /// read miss the DRAM's bank and bus after the L2's hit time, when
    /// the other units' port sends it, so that texture requests after it
    /// wait for them.
    #[inline]
    pub fn l2_other(&mut self, block: u64, stream: Stream, write: bool, phase: OtherPhase) {
        let a = self.l2.other(block, stream, write);
        if self.other_traffic == OtherTraffic::Untimed || phase == OtherPhase::Binning {
            return;
        }
        let sent = self.other_anchor.max(self.other_port_free);
        self.other_port_free = sent + self.other_port_cycles;
        self.tile_port_done = self.other_port_free;
        let start = self
            .l2
            .other_bank_start(block, sent, sent - self.other_anchor);
        let looked_up = start + self.l2_hit;
        if let (false, false, Some(dram)) = (a.hit, write, &mut self.dram) {
            dram.access(DramUse::OtherRead, block, self.block_bytes, looked_up);
        }
        self.write_back(a.write_back, looked_up);
    }

    /// A tile ends: with [`MachineConfig::sync_tiles`] the next starts
    /// when its last processor is done and, with timed other traffic,
    /// its tile buffer is free ([`MachineConfig::tile_buffers`]).
    pub fn tile_end(&mut self) {
        let buffer_free = self.next_tile_buffer();
        if self.sync_tiles {
            let done = self.clocks.now();
            self.l2.tile_waited(buffer_free.saturating_sub(done));
        }
        self.clocks
            .tile_end_not_before(self.sync_tiles, buffer_free);
        if self.sync_tiles {
            self.other_anchor = self.clocks.now();
        }
    }

    /// The ending tile's traffic noted; when the port is done with the
    /// traffic of the tile whose buffer the next one takes (0: no wait).
    fn next_tile_buffer(&mut self) -> u64 {
        let n = self.tile_buffers;
        if n == 0 || self.other_traffic == OtherTraffic::Untimed {
            return 0;
        }
        self.tile_sent[self.tiles_ended % n] = self.tile_port_done;
        self.tile_port_done = 0;
        self.tiles_ended += 1;
        self.tile_sent[self.tiles_ended % n]
    }

    /// A tile begins at cycle `at` for texture units that keep their own
    /// time: `tile`'s binning pass changes the L2's contents (untimed, as
    /// under [`Machine::l2_other`]), then its start traffic leaves the
    /// other units' port from `at`.
    pub fn tile_begins(&mut self, at: u64, tile: &TileTraffic) {
        for a in &tile.binning {
            self.l2_other(a.block, a.stream, a.write, OtherPhase::Binning);
        }
        self.other_from(at, &tile.start);
    }

    /// The tile `tile` ends at cycle `done`, its every processor finished,
    /// for texture units that keep their own time: its end traffic leaves
    /// the port from `done`. Returns when the next tile starts: at `done`,
    /// or later with synchronised tiles when its tile buffer is not yet
    /// free ([`MachineConfig::tile_buffers`]).
    pub fn tile_ends(&mut self, done: u64, tile: &TileTraffic) -> u64 {
        self.other_from(done, &tile.end);
        let buffer_free = self.next_tile_buffer();
        if !self.sync_tiles {
            return done;
        }
        self.l2.tile_waited(buffer_free.saturating_sub(done));
        done.max(buffer_free)
    }

    /// `accesses` of a tile, none leaving the port before `t`.
    fn other_from(&mut self, t: u64, accesses: &[OtherAccess]) {
        self.other_anchor = t;
        for a in accesses {
            self.l2_other(a.block, a.stream, a.write, OtherPhase::Tile);
        }
    }

    /// When the data of an access issued at `t` and served as `outcome`
    /// reaches `fp`.
    #[inline]
    fn serve(&mut self, fp: usize, block: u64, outcome: Outcome, t: u64) -> u64 {
        let tc = self.tc_cycles;
        // S-NUCA probes its own cache only for the blocks homed there.
        let probes_locally = O::FLOW != Flow::Static
            || matches!(outcome, Outcome::LocalHit | Outcome::L2 { owner: None });
        self.counts.tc_reads += u64::from(probes_locally);
        let probed = if probes_locally { t + tc } else { t };
        match outcome {
            Outcome::LocalHit => probed,
            Outcome::RemoteHit { owner } => {
                self.counts.tc_reads += 1;
                let at_owner = self.ask(fp, owner, probed) + tc;
                self.mesh.send(owner, fp, Message::Data, at_owner)
            }
            Outcome::L2 { owner: None } => {
                self.counts.tc_fills += 1;
                let granted = match O::FLOW {
                    Flow::Directory | Flow::Central => self.ask(fp, fp, probed),
                    _ => probed,
                };
                self.l2_round_trip(fp, block, granted)
            }
            Outcome::L2 { owner: Some(owner) } => {
                self.counts.tc_reads += 1;
                self.counts.tc_fills += 1;
                let missed = self.ask(fp, owner, probed) + tc;
                let back = self.l2_round_trip(owner, block, missed);
                self.mesh.send(owner, fp, Message::Data, back)
            }
        }
    }

    /// A request of `fp` leaving at `t` that must reach `to` (the holder,
    /// the owner, or `fp` itself for a grant to read the L2): through the
    /// table at the centre for the directory and the centralized table,
    /// straight for the others. Returns when it arrives.
    #[inline]
    fn ask(&mut self, fp: usize, to: usize, t: u64) -> u64 {
        let lookup = match O::FLOW {
            Flow::Directory => self.directory_cycles,
            Flow::Central => self.table_cycles,
            _ => return self.mesh.send(fp, to, Message::Control, t),
        };
        let table = self.table_router;
        let looked = self.mesh.send(fp, table, Message::Control, t) + u64::from(lookup);
        self.mesh.send(table, to, Message::Control, looked)
    }

    /// Node `node` reads `block` from the L2 from cycle `t`; returns when
    /// the block is back at `node`.
    #[inline]
    fn l2_round_trip(&mut self, node: usize, block: u64, t: u64) -> u64 {
        let a = self.l2.texture_read(block);
        let arrive = match self.l2_router {
            Some(r) => self.mesh.send(node, r, Message::Control, t),
            None => self.bus.request(t),
        };
        let start = self.l2.bank_start(block, arrive);
        let looked_up = start + self.l2_hit;
        let ready = match (a.hit, &mut self.dram) {
            (true, _) => looked_up,
            (false, None) => looked_up + u64::from(self.dram_cycles),
            (false, Some(dram)) => {
                let waited = dram.read(block, self.block_bytes, looked_up);
                looked_up + u64::from(self.dram_cycles) + waited
            }
        };
        self.write_back(a.write_back, looked_up);
        match self.l2_router {
            Some(r) => self.mesh.send(r, node, Message::Data, ready),
            None => self.bus.reply(ready),
        }
    }

    /// The L2's write-back of `block`, if any, reaching DRAM at `t` after
    /// the read of the miss that evicted it ([`MachineConfig::dram_writes`]).
    #[inline]
    fn write_back(&mut self, block: Option<u64>, t: u64) {
        if let (Some(block), true, Some(dram)) = (block, self.dram_writes, &mut self.dram) {
            dram.access(DramUse::WriteBack, block, self.block_bytes, t);
        }
    }

    /// The messages off the critical path that the access issued at `t`
    /// caused.
    #[inline]
    fn aside(&mut self, fp: usize, outcome: Outcome, before: SideEvents, t: u64) {
        let now = self.org.side_events();
        match O::FLOW {
            Flow::Directory => {
                if outcome == (Outcome::L2 { owner: None }) {
                    self.counts.directory_updates += 1;
                }
                if now.evictions > before.evictions {
                    self.counts.directory_updates += 1;
                    self.mesh.send(fp, self.table_router, Message::Control, t);
                }
            }
            Flow::Central => {
                if outcome == Outcome::LocalHit && now.table_updates > before.table_updates {
                    self.mesh.send(fp, self.table_router, Message::Control, t);
                }
            }
            Flow::Distributed => {
                if now.epochs > before.epochs {
                    self.broadcast(t);
                }
            }
            Flow::Private | Flow::Static => {}
        }
    }

    /// Every node that owned buckets at the epoch's end broadcasts them.
    fn broadcast(&mut self, t: u64) {
        let entry_bits = self.org.broadcast_entry_bits();
        for node in 0..self.org.caches().len() {
            let owned = self.org.announced(node);
            if owned > 0 {
                let flits = self.mesh.broadcast_flits(owned, entry_bits);
                self.mesh.broadcast(node, flits, t);
            }
        }
    }

    /// Its fragment processors.
    pub fn fps(&self) -> usize {
        self.fps
    }

    /// The block its caches and messages move.
    pub fn block_bytes(&self) -> u32 {
        self.block_bytes
    }

    /// What it did so far.
    pub fn report(&self) -> MachineReport {
        MachineReport {
            served: self.org.served(),
            l2: self.l2.stats().clone(),
            mesh: self.mesh.stats().clone(),
            bus: self.bus.stats().clone(),
            dram: self.dram_stats(),
            counts: self.counts.clone(),
            side: self.org.side_events(),
        }
    }

    pub fn l2_stats(&self) -> &L2Stats {
        self.l2.stats()
    }

    pub fn mesh_stats(&self) -> &MeshStats {
        self.mesh.stats()
    }

    pub fn bus_stats(&self) -> &BusStats {
        self.bus.stats()
    }

    /// The DRAM's banks and buses (all 0 without them).
    pub fn dram_stats(&self) -> DramStats {
        self.dram
            .as_ref()
            .map_or_else(DramStats::default, |d| d.stats().clone())
    }

    pub fn timing_stats(&self) -> TimingStats {
        self.clocks.stats()
    }

    pub fn counts(&self) -> &MachineCounts {
        &self.counts
    }

    /// The placement.
    pub fn organization(&self) -> &O {
        &self.org
    }

    /// The placement, leaving the machine.
    pub fn into_organization(self) -> O {
        self.org
    }
}
