//! The flags of the GPU machine's memory side that `gfxcache nuca`,
//! `gfxcache compose` and `gfxcache tcor` share, each group over the
//! machine's and `--config`'s values: the bus to the L2, the DRAM's banks
//! behind it, the L2's policy, whether a tile's end waits for every
//! fragment processor, and what time the frame's other L2 traffic takes.

use gfxcache_nuca::BusChannels;

/// The bus to the L2, as flags over the machine's and `--config`'s.
#[derive(clap::Args, Clone, Copy, Default)]
pub struct BusArgs {
    /// Whether the bus to the L2 is held by one transfer at a time, later
    /// ones queueing (default: --config's, else ours, on); `off` gives
    /// every transfer its unloaded time.
    #[arg(long, value_enum)]
    pub bus_occupancy: Option<OnOff>,
    /// Bits the bus to the L2 carries a cycle (default: --config's, else
    /// the machine's; ours on dtm-nuca: 128, 4 beats a 64-byte block).
    #[arg(long)]
    pub bus_width: Option<u32>,
    /// Whether requests and replies share the bus to the L2 or each have a
    /// channel (default: --config's, else ours, shared).
    #[arg(long, value_enum)]
    pub bus_channels: Option<ChannelsArg>,
}

impl BusArgs {
    /// The flags given, over `timing`'s values.
    pub fn apply(&self, timing: &mut gfxcache_nuca::TimingConfig) {
        if let Some(o) = self.bus_occupancy {
            timing.bus_occupancy = o == OnOff::On;
        }
        if let Some(w) = self.bus_width {
            timing.bus_width_bits = w;
        }
        if let Some(c) = self.bus_channels {
            timing.bus_channels = match c {
                ChannelsArg::Shared => BusChannels::Shared,
                ChannelsArg::Split => BusChannels::Split,
            };
        }
    }
}

/// DRAM behind the L2, as flags over the machine's and `--config`'s.
#[derive(clap::Args, Clone, Copy, Default)]
pub struct DramArgs {
    /// Whether an L2 miss waits besides its latency for the DRAM's banks
    /// and channel buses (default: ours, off, every miss taking the
    /// latency alone, unless a --config file says otherwise).
    #[arg(long, value_enum)]
    pub dram_banks: Option<OnOff>,
    /// The DRAM whose banks and buses those are (default: the machine's
    /// memory.dram, unless a --config file says otherwise; lpddr3-1600 on
    /// dtm-nuca, the paper's dual-channel LPDDR3).
    #[arg(long, value_enum)]
    pub dram: Option<super::nbtc::DramArg>,
}

impl DramArgs {
    /// The DRAM an L2 miss waits for, if `--dram-banks on`: `--dram`, or
    /// the machine's `dram`, in cycles of the machine's `clock_mhz`.
    pub fn banks(
        &self,
        dram: gfxcache_mem::DramPreset,
        clock_mhz: u32,
    ) -> Option<gfxcache_gpu::DramTiming> {
        (self.dram_banks == Some(OnOff::On)).then(|| {
            gfxcache_gpu::DramTiming::of(self.dram.map_or(dram, |d| d.preset()), clock_mhz)
        })
    }

    /// The flags given, over `timing`'s values.
    pub fn apply(&self, timing: &mut gfxcache_nuca::TimingConfig) {
        if let Some(b) = self.dram_banks {
            timing.dram_banks = b == OnOff::On;
        }
        if let Some(d) = self.dram {
            timing.dram = d.preset();
        }
    }
}

/// The L2 the texture caches share, as flags over the machine's and
/// `--config`'s.
#[derive(clap::Args, Clone, Default)]
pub struct L2Args {
    /// The L2's replacement policy, a spec of the cache engine's registry
    /// or the GSPC paper's (`gfxcache policies`; e.g. `drrip`,
    /// `srrip:bits=3`, `gspc`; default: --config's, else ours, lru; `opt`
    /// is refused: the machine makes its L2's accesses as it runs, with no
    /// future to read).
    #[arg(long, value_name = "SPEC")]
    pub l2_policy: Option<String>,
}

impl L2Args {
    /// The flags given, over `l2`'s values; and every policy the command
    /// line knows, the GSPC paper's too, for `l2`'s to be one of.
    pub fn apply(&self, l2: &mut gfxcache_nuca::L2Config) {
        l2.registry = gfxcache_gpu::l2::PolicyRegistry::with(gfxcache_llc::POLICIES);
        if let Some(p) = &self.l2_policy {
            l2.policy.clone_from(p);
        }
    }
}

/// Whether the fragment processors wait for each other at a tile's end,
/// as a flag over the machine's and `--config`'s.
#[derive(clap::Args, Clone, Copy, Default)]
pub struct SyncTilesArg {
    /// Whether a tile's end waits for every fragment processor, as a
    /// tile-based GPU finishes a tile before it starts the next (default:
    /// --config's, else ours, on); `off` lets each run ahead, as the
    /// NBTC study's pixel processors do.
    #[arg(long, value_enum)]
    pub sync_tiles: Option<OnOff>,
}

impl SyncTilesArg {
    /// The flag, if given, over `timing`'s value.
    pub fn apply(&self, timing: &mut gfxcache_nuca::TimingConfig) {
        if let Some(sync) = self.sync_tiles {
            timing.sync_tiles = sync == OnOff::On;
        }
    }
}

/// The frame's other L2 traffic (its trace's accesses of every stream but
/// `tex`), as flags over the machine's and `--config`'s.
#[derive(clap::Args, Clone, Copy, Default)]
pub struct OtherTrafficArgs {
    /// What time the frame's other L2 traffic takes (default: --config's,
    /// else ours, untimed).
    #[arg(long, value_enum)]
    pub other_traffic: Option<OtherTrafficArg>,
    /// Cycles the other units' port takes per block with --other-traffic
    /// tiles (default: --config's, else ours, 1).
    #[arg(long)]
    pub other_port_cycles: Option<u32>,
    /// Whether the L2's write-backs of dirty victims take the DRAM's banks
    /// and buses, with --dram-banks on (default: --config's, else ours,
    /// off).
    #[arg(long, value_enum)]
    pub dram_writes: Option<OnOff>,
    /// With --other-traffic tiles, the tile buffers: a tile starts no
    /// earlier than the port has sent the traffic of the tile this many
    /// before it; 0: never waits (default: --config's, else ours, 2).
    #[arg(long)]
    pub tile_buffers: Option<u32>,
}

impl OtherTrafficArgs {
    /// The flags given, over `timing`'s values.
    pub fn apply(&self, timing: &mut gfxcache_nuca::TimingConfig) {
        if let Some(o) = self.other_traffic {
            timing.other_traffic = match o {
                OtherTrafficArg::Untimed => gfxcache_gpu::OtherTraffic::Untimed,
                OtherTrafficArg::Tiles => gfxcache_gpu::OtherTraffic::Tiles,
            };
        }
        if let Some(c) = self.other_port_cycles {
            timing.other_port_cycles = c;
        }
        if let Some(b) = self.tile_buffers {
            timing.tile_buffers = b;
        }
        if let Some(w) = self.dram_writes {
            timing.dram_writes = w == OnOff::On;
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OtherTrafficArg {
    /// It changes the L2's contents only, as the paper's texture-only
    /// model.
    Untimed,
    /// A tile's own traffic (the Tile Fetcher's reads, the tile buffers'
    /// loads and flush) takes its L2 bank's cycle and a read miss's DRAM
    /// bank and bus, sent from a port of its own (DTM-NUCA's replay: no
    /// earlier than the tile's latest texture issue; the composed
    /// machine: from the tile's start, the flush from its end); the
    /// binning pass stays untimed.
    Tiles,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ChannelsArg {
    /// One bus carries requests and replies.
    Shared,
    /// A request channel and a reply channel.
    Split,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OnOff {
    On,
    Off,
}
