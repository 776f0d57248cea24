//! Every parameter of the functional models in one serde struct, with the
//! paper's values (Table I) as defaults. A field the paper does not give is
//! ours, and its doc says so ("(ours)").

use gfxcache_cache::{Geometry, IndexFn, Ways};
use gfxcache_machine::Machine;
use gfxcache_mem::NucaEnergyModel;
use serde::{Deserialize, Serialize};

use crate::error::NucaError;
use crate::timing::TimingConfig;
use gfxcache_gpu::l2::L2Config;
use gfxcache_gpu::machine::{MachineConfig, MAX_TILE_BUFFERS};
use gfxcache_gpu::mesh::MeshConfig;

/// What the counters of bucket `b` do when an epoch ends, after the owner
/// has been re-decided. (ours): the paper says "a counter reset event takes
/// place" and calls the saturation reset a halving.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EpochReset {
    /// Every counter is halved (a 1-bit right shift), as on saturation.
    #[default]
    Halve,
    /// Every counter is cleared to zero.
    Clear,
}

/// Which texture accesses count in the Affinity Table. (ours): Section
/// III-B says every texture block access increments the requester's
/// counter, while the request flow consults the table only on a local
/// miss.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CountedAccesses {
    /// Every texture access, local hits included (Section III-B's words).
    #[default]
    Every,
    /// Only the accesses that miss in the requester's texture cache.
    LocalMisses,
}

/// Whether the Affinity Table counts a lookup that a non-blocking texture
/// unit merged with a miss already on its way (NBTC's Block Address
/// Buffer, an MSHR's target; `gfxcache compose`), and whether it is one
/// of an epoch's accesses. (ours): DTM-NUCA's texture caches block, so the
/// paper has no such lookup; Section III-B's words count every texture
/// block access, and a merged lookup is one (a miss of the requester's
/// cache: counted under either [`CountedAccesses`]). DTM-NUCA's own
/// replay never merges, so this changes nothing there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MergedLookups {
    /// Counted as the access it is, its update sent to the centralized
    /// table as a local hit's is, and one of the epoch's accesses.
    #[default]
    Counted,
    /// Not seen by the tables or the epoch: only the miss that was sent
    /// counts.
    Unseen,
}

impl MergedLookups {
    pub fn name(self) -> &'static str {
        match self {
            MergedLookups::Counted => "counted",
            MergedLookups::Unseen => "unseen",
        }
    }
}

/// What a distributed Affinity Table keeps of the count a bucket's owner
/// announced at the last epoch broadcast, which a node's own saturated
/// counter must beat by the margin to claim the bucket between
/// broadcasts (Section IV-B, read with our claim rule). (ours): the paper
/// says only that at every epoch "the Affinity Tables get synchronized by
/// broadcasting all the *owned* buckets" and that each node updates "the
/// ownership of each bucket with the most up-to-date owner", ties ("two
/// counters having exactly the same value") to the lowest identifier; it
/// does not say how a node claims a bucket between broadcasts. Our spec's
/// reading: a node claims a bucket "when its own counter saturates and
/// beats the last known owner's broadcast count by the margin", which
/// reads as the count as broadcast.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AnnouncedCount {
    /// The count as the owner broadcast it (the spec's words; the
    /// default).
    #[default]
    AsAnnounced,
    /// The count reset as the epoch's end resets the owner's own counter
    /// (halved under the default [`EpochReset::Halve`], cleared under
    /// [`EpochReset::Clear`]): what the owner's counter holds when the
    /// next epoch starts, so a challenger is held to the owner's current
    /// count rather than to its count of the epoch before.
    Halved,
}

impl AnnouncedCount {
    pub fn name(self) -> &'static str {
        match self {
            AnnouncedCount::AsAnnounced => "as-announced",
            AnnouncedCount::Halved => "halved",
        }
    }

    /// The other reading.
    pub fn other(self) -> AnnouncedCount {
        match self {
            AnnouncedCount::AsAnnounced => AnnouncedCount::Halved,
            AnnouncedCount::Halved => AnnouncedCount::AsAnnounced,
        }
    }
}

/// How a texture cache picks a block's set. (ours): the paper does not
/// say; with its page and bucket sizes a bucket's blocks share three of
/// the six set bits under modulo indexing, so an owner keeps its buckets
/// in 8 of its 64 sets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TcIndex {
    /// The block address modulo the sets (the default).
    #[default]
    Modulo,
    /// The block address cut into set-index-wide pieces, XORed together.
    XorFold,
}

impl TcIndex {
    pub fn name(self) -> &'static str {
        match self {
            TcIndex::Modulo => "modulo",
            TcIndex::XorFold => "xor-fold",
        }
    }
}

/// The machine and the DTM-NUCA mechanism, as the functional models see
/// them. Built with [`Default`] (the paper's machine) and changed field by
/// field; [`NucaConfig::check`] says what is wrong with a changed one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NucaConfig {
    /// Fragment processors, each with its texture cache (P). Paper: 32.
    pub fps: usize,
    /// Capacity of one texture cache in bytes. Paper: 16 KiB.
    pub tc_bytes: u64,
    /// Associativity of one texture cache. Paper: 4.
    pub tc_ways: u32,
    /// Block (line) size in bytes, a power of two. Paper: 64.
    pub block_bytes: u32,
    /// The texture caches' set index. (ours): modulo.
    pub tc_index: TcIndex,
    /// Buckets of the Affinity Table (n). Paper: 32.
    pub buckets: u32,
    /// Blocks per page (m): block a is in page a / m, in bucket
    /// (a / m) mod n. Paper: 8.
    pub page_blocks: u32,
    /// Bits of each saturating access counter (k). Paper: 4.
    pub counter_bits: u32,
    /// Texture accesses (all fragment processors together) per epoch.
    /// Paper: 20,000.
    pub epoch: u64,
    /// How far, in percent, a saturated counter must exceed the current
    /// owner's to take the bucket over: strictly more than owner x (100 +
    /// margin) / 100. (ours): the paper says "plus a percentage" and gives
    /// none. Default 25.
    pub margin_percent: u32,
    /// What an epoch's end does to the counters. (ours): default halve.
    pub epoch_reset: EpochReset,
    /// Which accesses count in the Affinity Table. (ours): default every.
    pub counted: CountedAccesses,
    /// Whether the tables count a non-blocking L1's merged lookups
    /// ([`MergedLookups`]). (ours): default counted.
    pub merged: MergedLookups,
    /// The distributed tables: the owner's announced count a claim between
    /// broadcasts must beat ([`AnnouncedCount`]). (ours): default
    /// as-announced.
    pub announced_count: AnnouncedCount,
    /// The shared L2 (Table I).
    pub l2: L2Config,
    /// The mesh between the texture caches (ours but for 1 cycle per hop).
    pub mesh: MeshConfig,
    /// The timing model (ours but for the paper's latencies).
    pub timing: TimingConfig,
    /// Per-event energies (ours, with sources).
    pub energy: NucaEnergyModel,
}

impl Default for NucaConfig {
    fn default() -> NucaConfig {
        NucaConfig {
            fps: 32,
            tc_bytes: 16 * 1024,
            tc_ways: 4,
            block_bytes: 64,
            tc_index: TcIndex::Modulo,
            buckets: 32,
            page_blocks: 8,
            counter_bits: 4,
            epoch: 20_000,
            margin_percent: 25,
            epoch_reset: EpochReset::Halve,
            counted: CountedAccesses::Every,
            merged: MergedLookups::Counted,
            announced_count: AnnouncedCount::AsAnnounced,
            l2: L2Config::default(),
            mesh: MeshConfig::default(),
            timing: TimingConfig::default(),
            energy: NucaEnergyModel::default(),
        }
    }
}

/// Most fragment processors a configuration may have: owners are kept in
/// 16 bits with one value meaning "none".
pub const MAX_FPS: usize = 4096;

/// Largest takeover margin, so that the margin arithmetic cannot overflow.
pub const MAX_MARGIN_PERCENT: u32 = 100_000;

/// Most flits a packet may have (a link calendar reserves a packet's flits
/// in one window).
pub use gfxcache_gpu::calendar::MAX_PACKET_FLITS;

/// Most buckets an Affinity Table may have: far beyond any table that is
/// small enough to be the point of the design.
pub const MAX_BUCKETS: u32 = 1 << 20;

/// Largest texture cache of a fragment processor: each of up to 256 FPs
/// (and the ideal shared cache, all of theirs together) holds its own
/// tags, so gigabyte caches would take gigabytes a run for a frame that
/// touches megabytes.
pub const MAX_TC_BYTES: u64 = 16 << 20;

impl NucaConfig {
    /// This configuration on `machine`: its fragment processors (count;
    /// `threads` of them over `pixels_per_request`, a quad's 4 or a pixel's
    /// 1, as contexts each with one request in flight), texture caches
    /// (bytes, ways, block, hit time), L2 (bytes, ways, banks, hit time),
    /// memory (the mean of its latencies), mesh hop and bus width; the
    /// DTM-NUCA knobs, the energies and the rest stay as they are. A
    /// machine without an L2, or whose L2 block is not its texture
    /// caches', is refused by name.
    pub fn on_machine(
        &self,
        machine: &Machine,
        pixels_per_request: u32,
    ) -> Result<NucaConfig, String> {
        let name = &machine.name;
        let l2 = machine
            .l2
            .as_ref()
            .ok_or_else(|| format!("machine {name} has no [l2]: the DTM-NUCA study needs one"))?;
        let t = &machine.texture_cache;
        if l2.block.value != t.block.value {
            return Err(format!(
                "machine {name}: l2.block {} is not texture_cache.block {}: expected one block size",
                l2.block.value, t.block.value
            ));
        }
        let latencies = &machine.memory.latency_cycles.value;
        let dram =
            latencies.iter().map(|&l| u64::from(l)).sum::<u64>() / latencies.len().max(1) as u64;
        let mut c = self.clone();
        c.fps = usize::from(machine.fragment.processors.value);
        c.tc_bytes = t.bytes.value.0;
        c.tc_ways = t.ways.value;
        c.block_bytes = t.block.value;
        c.timing.tc_cycles = t.hit_cycles.value;
        c.timing.dram_cycles = dram as u32;
        c.timing.dram = machine.memory.dram.value;
        c.timing.clock_mhz = machine.gpu.clock_mhz.value;
        c.timing.contexts = (machine.fragment.threads.value / pixels_per_request.max(1)).max(1);
        c.l2.bytes = l2.bytes.value.0;
        c.l2.ways = l2.ways.value;
        c.l2.banks = l2.banks.value;
        c.l2.hit_cycles = l2.hit_cycles.value;
        if let Some(p) = &l2.policy {
            c.l2.policy.clone_from(&p.value);
        }
        if let Some(i) = &machine.interconnect {
            c.mesh.hop_cycles = i.hop_cycles.value;
            c.timing.bus_width_bits = i.bus_width_bits.value;
        }
        Ok(c)
    }

    /// `Ok` when every field is usable, else an error naming the first
    /// field that is not, its value and what was expected.
    pub fn check(&self) -> Result<(), NucaError> {
        let bad = |field: &'static str, value: String, expected: &str| {
            Err(NucaError::Config {
                field,
                value,
                expected: expected.to_string(),
            })
        };
        if self.fps == 0 || self.fps > MAX_FPS {
            return bad("fps", self.fps.to_string(), "1 to 4096 fragment processors");
        }
        if self.tc_bytes > MAX_TC_BYTES {
            return bad(
                "tc_bytes",
                format!("{} B", self.tc_bytes),
                "a texture cache of at most 16 MiB (every fragment processor holds its own; \
                 the paper's are 16 KiB)",
            );
        }
        if let Err(e) = self.tc_geometry() {
            return bad(
                "tc_bytes, tc_ways, block_bytes",
                format!(
                    "{} B, {} ways, {} B blocks",
                    self.tc_bytes, self.tc_ways, self.block_bytes
                ),
                &e.to_string(),
            );
        }
        if let Err(e) = self.shared_geometry() {
            return bad(
                "fps x tc_bytes",
                format!("{} x {} B", self.fps, self.tc_bytes),
                &e.to_string(),
            );
        }
        if self.buckets == 0 || self.buckets > MAX_BUCKETS {
            return bad("buckets", self.buckets.to_string(), "1 to 1048576 buckets");
        }
        if self.page_blocks == 0 {
            return bad("page_blocks", "0".into(), "at least 1 block per page");
        }
        if !(1..=8).contains(&self.counter_bits) {
            return bad(
                "counter_bits",
                self.counter_bits.to_string(),
                "1 to 8 bits per counter",
            );
        }
        if self.epoch == 0 {
            return bad("epoch", "0".into(), "at least 1 texture access per epoch");
        }
        if self.margin_percent > MAX_MARGIN_PERCENT {
            return bad(
                "margin_percent",
                self.margin_percent.to_string(),
                "0 to 100000 percent",
            );
        }
        self.check_machine()
    }

    /// The L2, mesh, timing and energy knobs.
    fn check_machine(&self) -> Result<(), NucaError> {
        let bad = |field: &'static str, value: String, expected: &str| {
            Err(NucaError::Config {
                field,
                value,
                expected: expected.to_string(),
            })
        };
        let l2 = &self.l2;
        if let Err(e) = l2.geometry(self.block_bytes) {
            return bad(
                "l2.bytes, l2.ways",
                format!("{} B, {} ways", l2.bytes, l2.ways),
                &e.to_string(),
            );
        }
        if l2.banks == 0 || l2.banks > 1024 {
            return bad("l2.banks", l2.banks.to_string(), "1 to 1024 banks");
        }
        if let Err(e) = l2.check(self.block_bytes) {
            return bad(
                "l2.policy",
                l2.policy.clone(),
                &format!("a policy of the cache engine's registry that builds on the L2 ({e})"),
            );
        }
        let mesh = &self.mesh;
        if mesh.cols as usize > self.fps {
            return bad(
                "mesh.cols",
                mesh.cols.to_string(),
                "0 (the default shape) or 1 to fps columns",
            );
        }
        if mesh.hop_cycles == 0 {
            return bad("mesh.hop_cycles", "0".into(), "at least 1 cycle per hop");
        }
        let entry_bits =
            u64::from(self.buckets.next_power_of_two().trailing_zeros() + self.counter_bits);
        let widest = (u64::from(self.block_bytes) * 8)
            .max(u64::from(mesh.broadcast_header_bits) + entry_bits * u64::from(self.buckets));
        if mesh.flit_bits == 0 || widest.div_ceil(u64::from(mesh.flit_bits)) >= MAX_PACKET_FLITS {
            return bad(
                "mesh.flit_bits",
                mesh.flit_bits.to_string(),
                "flits wide enough that a block and a broadcast of every bucket each take under 4096",
            );
        }
        let timing = &self.timing;
        if timing.tc_cycles == 0 {
            return bad("timing.tc_cycles", "0".into(), "at least 1 cycle");
        }
        let block_bits = u64::from(self.block_bytes) * 8;
        let width = u64::from(timing.bus_width_bits);
        if width == 0 || block_bits.div_ceil(width) >= MAX_PACKET_FLITS {
            return bad(
                "timing.bus_width_bits",
                timing.bus_width_bits.to_string(),
                "a bus wide enough that a block takes under 4096 beats",
            );
        }
        if !(1..=1024).contains(&timing.contexts) {
            return bad(
                "timing.contexts",
                timing.contexts.to_string(),
                "1 to 1024 contexts",
            );
        }
        if !(1..=1_000).contains(&timing.other_port_cycles) {
            return bad(
                "timing.other_port_cycles",
                timing.other_port_cycles.to_string(),
                "1 to 1000 cycles a block on the other units' port",
            );
        }
        if timing.tile_buffers > MAX_TILE_BUFFERS {
            return bad(
                "timing.tile_buffers",
                timing.tile_buffers.to_string(),
                &format!("0 (no wait) to {MAX_TILE_BUFFERS} tile buffers"),
            );
        }
        if !(1..=10_000).contains(&timing.clock_mhz) {
            return bad(
                "timing.clock_mhz",
                timing.clock_mhz.to_string(),
                "a GPU clock of 1 to 10000 MHz",
            );
        }
        if let Some(d) = timing.dram_banks() {
            let service = d.service_cycles(self.block_bytes);
            if u64::from(timing.dram_cycles) < service {
                return bad(
                    "timing.dram_cycles",
                    timing.dram_cycles.to_string(),
                    &format!(
                        "at least {service} cycles with dram_banks, {}'s longest service of a \
                         block (tRP + tRCD + tCAS + its transfer)",
                        d.dram.name()
                    ),
                );
            }
        }
        if let Err(e) = self.energy.check() {
            return bad("energy", e, "finite energies >= 0 (positive for memory)");
        }
        Ok(())
    }

    /// The GPU machine of this configuration: its parts and latencies.
    pub fn machine(&self) -> MachineConfig {
        let t = &self.timing;
        MachineConfig {
            fps: self.fps,
            block_bytes: self.block_bytes,
            mesh: self.mesh.clone(),
            l2: self.l2.clone(),
            bus: t.bus(),
            tc_cycles: t.tc_cycles,
            table_cycles: t.at_cycles,
            directory_cycles: t.directory_cycles,
            dram_cycles: t.dram_cycles,
            dram_banks: t.dram_banks(),
            l2_attach: t.l2_attach,
            contexts: t.contexts,
            context_unit: t.context_unit,
            sync_tiles: t.sync_tiles,
            other_traffic: t.other_traffic,
            other_port_cycles: t.other_port_cycles,
            dram_writes: t.dram_writes,
            tile_buffers: t.tile_buffers,
        }
    }

    /// One texture cache's geometry (checked by the cache engine's rules).
    pub fn tc_geometry(&self) -> Result<Geometry, gfxcache_cache::CacheError> {
        Geometry::from_size(self.tc_bytes, Ways::N(self.tc_ways), self.block_bytes)?
            .with_index(self.index_fn())
    }

    fn index_fn(&self) -> IndexFn {
        match self.tc_index {
            TcIndex::Modulo => IndexFn::Modulo,
            TcIndex::XorFold => IndexFn::XorFold,
        }
    }

    /// The ideal shared cache's geometry: P times the capacity and P times
    /// the ways of one texture cache, so the same sets.
    pub fn shared_geometry(&self) -> Result<Geometry, gfxcache_cache::CacheError> {
        let too_big = || gfxcache_cache::CacheError::Geometry("more than 2^32 blocks".into());
        let fps = u32::try_from(self.fps).map_err(|_| too_big())?;
        let bytes = self
            .tc_bytes
            .checked_mul(u64::from(fps))
            .ok_or_else(too_big)?;
        let ways = self.tc_ways.checked_mul(fps).ok_or_else(too_big)?;
        Geometry::from_size(bytes, Ways::N(ways), self.block_bytes)?.with_index(self.index_fn())
    }

    /// The size of this configuration's Affinity Table in bits
    /// ([`crate::affinity_table_bits`]).
    pub fn affinity_table_bits(&self) -> u64 {
        crate::affinity_table_bits(self.buckets, self.fps, self.counter_bits)
    }
}
