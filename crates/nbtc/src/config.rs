//! Every parameter of the texture unit: the slides' values as defaults,
//! ours marked "(ours)".

use gfxcache_cache::{Geometry, Ways};
use serde::{Deserialize, Serialize};

use gfxcache_machine::{IssueModel, Machine};
use gfxcache_mem::{DramPreset, MissQueue};

use crate::error::NbtcError;
use crate::miss_handling::dispatch;
use crate::retry_buffer::Completion;
use crate::storage::FieldBits;

/// Most texels one request (and one Waiting List Buffer entry) holds: a
/// trilinear footprint, 2 x 4, the slides.
pub const MAX_TEXELS: usize = 8;

/// How the texture cache handles a miss: each variant a scheme of
/// [`crate::miss_handling`], with its parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// The baseline blocking texture cache (BTC): on a miss it accepts no
    /// lookup until the request's missing blocks are filled. `serial`:
    /// the missing blocks are fetched one after another (the spec's
    /// default, ours), else all at once, one memory request a cycle.
    Blocking { serial: bool },
    /// The non-blocking texture cache: misses wait in the Waiting List
    /// Buffer, their blocks in the Block Address Buffer, and the unit
    /// takes the next request; results return out of order except
    /// between requests of the same pixel.
    #[default]
    Nbtc,
    /// For context: a conventional non-blocking cache (gem5's classic
    /// cache, as Emerald uses it): `mshrs` missing blocks in flight, each
    /// with at most `targets` requests waiting for it (a request missing
    /// a block is one target); the unit stalls when a miss finds neither.
    /// Waiting requests hold no other buffer and results return as they
    /// are ready, in any order.
    Mshr { mshrs: u32, targets: u32 },
    /// For context: Igehy, Eldridge and Proudfoot's prefetching texture
    /// cache (HWWS'98) as GPGPU-Sim's `tex_cache` implements it: a miss
    /// takes its line's tag at once (so a later lookup of the block
    /// finds it and waits for the same fill), its block waits in a
    /// request FIFO of `request_fifo` entries to be sent and in a reorder
    /// buffer of `rob` entries until it returns, and requests complete in
    /// input order through a fragment FIFO of `fragment_fifo` requests.
    /// A lookup that misses the tags of a block still on its way waits for
    /// that fill (GPGPU-Sim sends the block again; ours). GPGPU-Sim looks up one block a cycle; our unit looks up a request
    /// (up to 8 texels) at once, so a request whose new blocks do not fit
    /// in the request FIFO enters it whole when it is empty (ours).
    Prefetching {
        fragment_fifo: u32,
        request_fifo: u32,
        rob: u32,
    },
}

impl Mode {
    /// The blocking cache with serial fetches.
    pub const BTC: Mode = Mode::Blocking { serial: true };

    /// [`Mode::Mshr`] with as many blocks in flight as the NBTC's Block
    /// Address Buffer (32, so that the two differ only in where waiting
    /// requests are held and in what order they return; ours) and gem5's
    /// 20 targets per MSHR (its L1 default, `tgts_per_mshr`). gem5's 4
    /// MSHRs cannot be modelled: our unit looks a request's 8 texels up at
    /// once, so it needs room for 8 missing blocks.
    pub const fn mshr() -> Mode {
        Mode::Mshr {
            mshrs: 32,
            targets: 20,
        }
    }

    /// [`Mode::Prefetching`] with GPGPU-Sim's Fermi texture cache
    /// (`-gpgpu_tex_cache:l1 ...,F:128:4,128:2`: fragment FIFO 128,
    /// request FIFO 4, reorder buffer 128).
    pub const fn prefetching() -> Mode {
        Mode::Prefetching {
            fragment_fifo: 128,
            request_fifo: 4,
            rob: 128,
        }
    }

    /// A short name for reports: `btc`, `btc-parallel`, `nbtc`, `mshr`,
    /// `prefetching`.
    pub fn name(&self) -> &'static str {
        dispatch!(*self, h => h.name())
    }
}

/// Where a unit's blocks come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MemoryPath {
    /// Each unit has its own path: a block returns `memory_latency`
    /// cycles after it is sent (the slides').
    #[default]
    Private,
    /// The units of a frame share one DRAM (`dram`, by default `mem`'s
    /// LPDDR3-1600, the project's mobile memory; ours): a block returns
    /// `memory_latency` cycles after it is sent plus what it waited for
    /// its bank and its channel's bus behind the requests of every unit.
    /// Each 32 B block moves the DRAM's 64 B line. `clock_mhz` is the
    /// units' clock (ours: 500, a 2013 mobile GPU's), which turns DRAM
    /// time into cycles.
    SharedDram {
        clock_mhz: u32,
        #[serde(default)]
        dram: DramPreset,
    },
}

impl MemoryPath {
    /// [`MemoryPath::SharedDram`]: LPDDR3-1600 at 500 MHz.
    pub const fn shared() -> MemoryPath {
        MemoryPath::SharedDram {
            clock_mhz: 500,
            dram: DramPreset::Lpddr3_1600,
        }
    }
}

/// One pixel processor's texture unit and its memory path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NbtcConfig {
    /// L1 texture cache bytes (32 KiB, the slides).
    pub l1_bytes: u64,
    /// L1 ways (4, the slides); LRU (ours).
    pub l1_ways: u32,
    /// Block bytes (eight 32-bit words, 32 B, the slides).
    pub block_bytes: u32,
    /// Cycles from sending a block request to its fill (the slides sweep
    /// 50, 100, 200, 300; 100 by default). 0 is an ideal memory: a
    /// missing block is filled at its lookup, with no send limit (the
    /// zero-latency reference of Igehy et al.; every design is then
    /// the same).
    pub memory_latency: u64,
    /// Retry Buffer entries (32, the slides): requests sent and not yet
    /// returned to the shader.
    pub rb_entries: u32,
    /// Waiting List Buffer entries (32, the slides).
    pub wlb_entries: u32,
    /// Block Address Buffer entries (32, the slides): blocks missing, sent or
    /// waiting to be sent.
    pub bab_entries: u32,
    /// A miss on a block whose request is already sent finds its BAB entry
    /// and is a secondary miss that sends nothing (true, ours). False (the
    /// NBTC and the BTC only): the lookup no longer sees an entry once its
    /// request is sent, so such a miss takes a new entry and sends the
    /// block again; the sent entry still holds its room in the BAB until
    /// its block returns, and the first return fills the L1 and wakes every
    /// waiting request. Either way an entry is freed at its fill. The
    /// slides ("when data are loaded, all the removed DRAM requests are
    /// found") fit either; the MSHR and prefetching caches always merge.
    pub bab_merges_sent: bool,
    /// Texels per Waiting List Buffer entry (8, the slides).
    pub texels_per_entry: u32,
    /// Cycles of a lookup that hits, H (1, ours).
    pub hit_latency: u64,
    /// Cycles of the texture filter, F (4, ours).
    pub filter_latency: u64,
    /// How a pixel processor issues shader operations: a step's
    /// operations take [`IssueModel::cycles`]. `None`: shading takes no
    /// time (the reference where only the texture unit counts). Without
    /// a machine, one scalar operation a cycle ([`IssueModel::SCALAR`],
    /// ours); the slides' SRP is a VLIW whose width they do not give, and
    /// `gfxcache nbtc` takes the `nbtc` machine's (`gfxcache_machine`).
    pub issue: Option<IssueModel>,
    /// Fragments a pixel processor keeps in flight, switching to another
    /// when one waits for a texture result (8 without a machine, ours;
    /// with 1 the shader blocks on every request and only a request's own
    /// blocks overlap).
    pub fragments_in_flight: u32,
    pub mode: Mode,
    /// Private or shared memory (private, the slides').
    pub memory: MemoryPath,
    /// The widths of the buffers' fields, for their storage cost only
    /// ([`crate::storage`]; ours); they change no cycle.
    pub field_bits: FieldBits,
}

impl Default for NbtcConfig {
    fn default() -> NbtcConfig {
        NbtcConfig {
            l1_bytes: 32 * 1024,
            l1_ways: 4,
            block_bytes: 32,
            memory_latency: 100,
            rb_entries: 32,
            wlb_entries: 32,
            bab_entries: 32,
            bab_merges_sent: true,
            texels_per_entry: MAX_TEXELS as u32,
            hit_latency: 1,
            filter_latency: 4,
            issue: Some(IssueModel::SCALAR),
            fragments_in_flight: 8,
            mode: Mode::Nbtc,
            memory: MemoryPath::Private,
            field_bits: FieldBits::default(),
        }
    }
}

/// Most entries of any buffer: far beyond a buffer small enough to scan
/// each cycle, which is what the hardware does.
pub const MAX_ENTRIES: u32 = 4096;

/// Largest L1 a unit takes: every unit of every configuration in a study
/// holds its own tags, so an L1 of gigabytes would take tens of gigabytes
/// for a frame that touches a few megabytes of texels.
pub const MAX_L1_BYTES: u64 = 16 << 20;

impl NbtcConfig {
    /// Shares one DRAM between the units (at this unit's clock if it
    /// shares one already, else [`MemoryPath::shared`]'s) or gives each
    /// its own path.
    pub fn share_memory(&mut self, shared: bool) {
        self.memory = match (shared, self.memory) {
            (false, _) => MemoryPath::Private,
            (true, MemoryPath::Private) => MemoryPath::shared(),
            (true, dram) => dram,
        };
    }

    /// This unit on `machine`: its texture cache (bytes, ways, block, hit
    /// time H), its texture unit's filter time F, its fragment
    /// processors' threads (fragments in flight) and issue model, and, on
    /// a shared memory, its clock and DRAM; the buffers, the mode and the
    /// memory latency stay as they are (a study runs the machine's
    /// latencies).
    pub fn on_machine(self, machine: &Machine) -> NbtcConfig {
        let t = &machine.texture_cache;
        let memory = match self.memory {
            MemoryPath::Private => MemoryPath::Private,
            MemoryPath::SharedDram { .. } => MemoryPath::SharedDram {
                clock_mhz: machine.gpu.clock_mhz.value,
                dram: machine.memory.dram.value,
            },
        };
        NbtcConfig {
            l1_bytes: t.bytes.value.0,
            l1_ways: t.ways.value,
            block_bytes: t.block.value,
            hit_latency: u64::from(t.hit_cycles.value),
            filter_latency: u64::from(machine.fragment.filter_cycles.value),
            fragments_in_flight: machine.fragment.threads.value,
            issue: Some(machine.issue_model()),
            memory,
            ..self
        }
    }

    /// The default configuration in the blocking mode (serial fetches).
    pub fn blocking() -> NbtcConfig {
        NbtcConfig {
            mode: Mode::Blocking { serial: true },
            ..NbtcConfig::default()
        }
    }

    /// Requests accepted and not yet returned, at most: the Retry Buffer,
    /// or the prefetching cache's fragment FIFO.
    pub fn rb_capacity(&self) -> usize {
        dispatch!(self.mode, h => h.requests_in_flight(self))
    }

    /// Which results wait for older ones.
    pub fn completion(&self) -> Completion {
        dispatch!(self.mode, h => h.completion())
    }

    /// Requests waiting for a block, at most: the Waiting List Buffer; in
    /// the MSHR and prefetching caches nothing but the requests in flight
    /// bounds them.
    pub fn wlb_capacity(&self) -> usize {
        dispatch!(self.mode, h => h.waiting_requests(self))
    }

    /// The missing blocks in flight: the Block Address Buffer, the MSHRs,
    /// or the prefetching cache's reorder buffer.
    pub fn miss_queue(&self) -> MissQueue {
        dispatch!(self.mode, h => h.miss_queue(self))
    }

    /// The L1's geometry.
    pub fn l1_geometry(&self) -> Result<Geometry, gfxcache_cache::CacheError> {
        Geometry::from_size(self.l1_bytes, Ways::N(self.l1_ways), self.block_bytes)
    }

    /// `Ok` when every field is usable, else an error naming the first
    /// field that is not, its value and what was expected.
    pub fn check(&self) -> Result<(), NbtcError> {
        let bad = |field: &'static str, value: String, expected: &str| {
            Err(NbtcError::Config {
                field,
                value,
                expected: expected.to_string(),
            })
        };
        if self.l1_bytes > MAX_L1_BYTES {
            return bad(
                "l1_bytes",
                format!("{} B", self.l1_bytes),
                "a texture L1 of at most 16 MiB (each unit of every configuration holds its own; \
                 GPUs' texture L1s are 16 to 128 KiB)",
            );
        }
        if let Err(e) = self.l1_geometry() {
            return bad(
                "l1_bytes, l1_ways, block_bytes",
                format!(
                    "{} B, {} ways, {} B blocks",
                    self.l1_bytes, self.l1_ways, self.block_bytes
                ),
                &e.to_string(),
            );
        }
        let entries = [
            ("rb_entries", self.rb_entries),
            ("wlb_entries", self.wlb_entries),
            ("fragments_in_flight", self.fragments_in_flight),
        ];
        for (field, n) in entries {
            if n == 0 || n > MAX_ENTRIES {
                return bad(field, n.to_string(), "1 to 4096 entries");
            }
        }
        // A request with all its texels in distinct missing blocks must
        // fit, or it could never be accepted.
        if self.bab_entries < MAX_TEXELS as u32 || self.bab_entries > MAX_ENTRIES {
            return bad(
                "bab_entries",
                self.bab_entries.to_string(),
                "8 to 4096 entries (one request's 8 texels may miss 8 blocks)",
            );
        }
        if self.texels_per_entry != MAX_TEXELS as u32 {
            return bad(
                "texels_per_entry",
                self.texels_per_entry.to_string(),
                "8 (a trilinear request's texels; other widths are not modelled)",
            );
        }
        for (field, n) in dispatch!(self.mode, h => h.sizes()) {
            if n == 0 || n > MAX_ENTRIES {
                return bad(field, n.to_string(), "1 to 4096 entries");
            }
        }
        if let Some((field, n)) = dispatch!(self.mode, h => h.blocks_in_flight()) {
            if n < MAX_TEXELS as u32 {
                return bad(
                    field,
                    n.to_string(),
                    "8 to 4096 entries (one request's 8 texels may miss 8 blocks)",
                );
            }
        }
        if self.hit_latency == 0 || self.filter_latency == 0 {
            return bad(
                "hit_latency, filter_latency",
                format!("{}, {}", self.hit_latency, self.filter_latency),
                "at least 1 cycle each",
            );
        }
        if self.memory_latency > 1 << 20 {
            return bad(
                "memory_latency",
                self.memory_latency.to_string(),
                "0 (an ideal memory) to 1048576 cycles",
            );
        }
        if let Some(Err(e)) = self.issue.map(|m| m.check()) {
            return bad("issue", e, "rates a pixel processor can issue at");
        }
        if let MemoryPath::SharedDram { clock_mhz, .. } = self.memory {
            if clock_mhz == 0 || clock_mhz > 10_000 {
                return bad(
                    "memory.shared-dram.clock_mhz",
                    clock_mhz.to_string(),
                    "1 to 10000 MHz",
                );
            }
        }
        if let Err((field, bits, expected)) = self.field_bits.check() {
            return bad(field, bits.to_string(), expected);
        }
        Ok(())
    }
}
