//! One organization with everything around it: the fragment processors'
//! clocks, the mesh, the shared L2. The organization decides where an
//! access is served ([`Outcome`]); the machine sends the messages that
//! service takes, in the order the organization's [`Flow`] gives, times
//! them, and counts the events the energy needs.
//!
//! The flows (the paper's, with our reading marked in
//! [`crate::organization`]): a local probe first, except S-NUCA's requests
//! for a block homed elsewhere, which go straight to the home; a local
//! miss asks D-NUCA's directory or the centralized Affinity Table at the
//! centre router (one control message there, one on to the holder or
//! owner, or back to the requester), or the node's own table (no
//! message); a holder or owner serves the block in a data message, or,
//! missing too, reads the L2 for the requester and forwards the block.
//! Off the critical path: D-NUCA's eviction notices to the directory, the
//! centralized table's count updates for local hits, and the distributed
//! tables' epoch broadcasts.

use gfxcache_mem::NucaEnergyCounts;

use crate::bus::{Bus, BusStats};
use crate::l2::{L2Stats, SharedL2};
use crate::organization::{Flow, Organization};
use crate::stats::{NucaStats, Outcome};
use crate::timing::{FpClocks, L2Attach, TimingConfig, TimingStats};
use crate::{NucaConfig, NucaError};
use gfxcache_gpu::mesh::{Mesh, MeshStats, Message};

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

/// An organization on the machine.
pub struct Machine<O> {
    org: O,
    l2: SharedL2,
    mesh: Mesh,
    /// The bus to the L2, where it is reached over one.
    bus: Bus,
    clocks: FpClocks,
    timing: TimingConfig,
    /// The router of the Affinity Table and the directory.
    table_router: usize,
    /// The L2's router, when the L2 is on this organization's mesh.
    l2_router: Option<usize>,
    l2_hit: u64,
    sync_tiles: bool,
    counts: MachineCounts,
}

impl<O: Organization> Machine<O> {
    /// `org` on a machine of `config` (checked).
    pub fn new(org: O, config: &NucaConfig) -> Result<Machine<O>, NucaError> {
        config.check()?;
        let mesh = Mesh::new(&config.mesh, config.fps, config.block_bytes);
        let has_mesh = !matches!(O::FLOW, Flow::Private);
        let l2_router = match config.timing.l2_attach {
            L2Attach::Bus => None,
            _ if !has_mesh => None,
            L2Attach::Centre => Some(mesh.centre()),
            L2Attach::Corner => Some(0),
        };
        Ok(Machine {
            table_router: mesh.centre(),
            l2_router,
            bus: Bus::new(&config.timing, config.block_bytes),
            l2: SharedL2::new(&config.l2, config.block_bytes)?,
            clocks: FpClocks::new(config.fps, config.timing.contexts),
            l2_hit: u64::from(config.l2.hit_cycles),
            sync_tiles: config.timing.sync_tiles,
            timing: config.timing.clone(),
            mesh,
            org,
            counts: MachineCounts::default(),
        })
    }

    /// One texture access of `fp` to `block`, the first block of a request
    /// after `work` cycles of shader work: served, timed and counted.
    #[inline]
    pub fn texture(&mut self, fp: usize, block: u64, work: u32) -> Outcome {
        let t = self.clocks.issue(fp, work);
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

    /// When `fp` would issue a request after `work` cycles of work
    /// ([`FpClocks::next_issue`]).
    #[inline]
    pub fn next_issue(&self, fp: usize, work: u32) -> u64 {
        self.clocks.next_issue(fp, work)
    }

    /// The access of `fp` to `block` issued at `t`.
    #[inline]
    fn access(&mut self, fp: usize, block: u64, t: u64) -> Outcome {
        let before = Before::of(self.org.stats());
        let outcome = self.org.access(fp, block);
        let done = self.serve(fp, block, outcome, t);
        self.clocks.complete(fp, t, done);
        self.aside(fp, outcome, before, t);
        outcome
    }

    /// One block of the frame's other L2 traffic, in trace order.
    #[inline]
    pub fn l2_other(&mut self, block: u64, write: bool) {
        self.l2.other(block, write);
    }

    /// A tile ends.
    pub fn tile_end(&mut self) {
        self.clocks.tile_end(self.sync_tiles);
    }

    /// When the data of an access issued at `t` and served as `outcome`
    /// reaches `fp`.
    #[inline]
    fn serve(&mut self, fp: usize, block: u64, outcome: Outcome, t: u64) -> u64 {
        let tc = u64::from(self.timing.tc_cycles);
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
            Flow::Directory => self.timing.directory_cycles,
            Flow::Central => self.timing.at_cycles,
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
        let hit = self.l2.texture_read(block);
        let arrive = match self.l2_router {
            Some(r) => self.mesh.send(node, r, Message::Control, t),
            None => self.bus.request(t),
        };
        let start = self.l2.bank_start(block, arrive);
        let memory = if hit { 0 } else { self.timing.dram_cycles };
        let ready = start + self.l2_hit + u64::from(memory);
        match self.l2_router {
            Some(r) => self.mesh.send(r, node, Message::Data, ready),
            None => self.bus.reply(ready),
        }
    }

    /// The messages off the critical path that the access issued at `t`
    /// caused.
    #[inline]
    fn aside(&mut self, fp: usize, outcome: Outcome, before: Before, t: u64) {
        let now = Before::of(self.org.stats());
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
                if outcome == Outcome::LocalHit && now.at_updates > before.at_updates {
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

    /// The organization's counts, with the L2's hits and misses.
    pub fn stats(&self) -> NucaStats {
        let mut s = self.org.stats().clone();
        s.l2_hits = self.l2.stats().texture_hits;
        s.l2_misses = self.l2.stats().texture_misses;
        s
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

    pub fn timing_stats(&self) -> TimingStats {
        self.clocks.stats()
    }

    pub fn counts(&self) -> &MachineCounts {
        &self.counts
    }

    /// The events the energy model prices, for a machine of `config`.
    pub fn energy_counts(&self, config: &NucaConfig) -> NucaEnergyCounts {
        let s = self.org.stats();
        let l2 = self.l2.stats();
        // The ideal shared cache is one cache of every texture cache's
        // capacity.
        let tc_bytes = match self.org.caches().len() {
            1 => config.tc_bytes * config.fps as u64,
            _ => config.tc_bytes,
        };
        NucaEnergyCounts {
            tc_bytes,
            tc_reads: self.counts.tc_reads,
            tc_fills: self.counts.tc_fills,
            at_lookups: s.at_lookups,
            at_updates: s.at_updates,
            directory_lookups: s.directory_lookups,
            directory_updates: self.counts.directory_updates,
            flit_hops: self.mesh.stats().flit_hops,
            bus_beats: self.bus.stats().busy_cycles,
            l2_bytes: config.l2.bytes,
            l2_accesses: l2.texture_requests + l2.other_accesses,
            dram_reads: l2.dram_reads,
            dram_writes: l2.dram_writes,
            cycles: self.clocks.stats().cycles,
        }
    }

    /// The organization. For checks.
    pub fn organization(&self) -> &O {
        &self.org
    }

    /// The organization, leaving the machine.
    pub fn into_organization(self) -> O {
        self.org
    }
}

/// The organization's counts that tell the machine what an access did
/// beside its outcome.
#[derive(Clone, Copy)]
struct Before {
    evictions: u64,
    at_updates: u64,
    epochs: u64,
}

impl Before {
    #[inline]
    fn of(s: &NucaStats) -> Before {
        Before {
            evictions: s.evictions,
            at_updates: s.at_updates,
            epochs: s.epochs,
        }
    }
}
