//! The banked L2 the texture caches share (DTM-NUCA's Table I as
//! defaults: 1 MiB, 8-way, 8 banks, 64-byte blocks, 18 cycles), on the
//! cache engine (write-back, write-allocate), as `gfxcache-tcor` builds
//! its L2, under any policy of the engine's registry and of those a
//! caller adds ([`L2Config::policy`], [`PolicyRegistry`]: the command
//! line adds the GSPC paper's, from `gfxcache-llc`, which lies above the
//! machine; ours: LRU, the paper names none). LRU runs
//! inline; any other policy behind the hierarchy's level trait
//! (`LevelCache`), one dynamic call per L2 access, which only the texture
//! caches' L2 requests and the frame's other traffic make. OPT is refused:
//! it needs the future of the trace, and the machine makes its L2's trace
//! as it runs.
//!
//! Every organization's L2 requests (the blocks the texture caches fill)
//! read it, so an organization's L2 hits and misses are its own; the
//! frame's other L2 traffic (vertex, tile, colour streams) goes through
//! [`SharedL2::other`] in trace order, each access with its stream (which
//! stream-aware policies such as GSPC's tell apart, and a `+ucd` policy
//! leaves uncached for the display). A read miss reads one line from
//! DRAM; a dirty victim writes one back; a write miss allocates without
//! reading (whole-line writes, as in `gfxcache-mem` and `gfxcache-tcor`).
//!
//! Timing (ours): block b is in bank b mod banks; a bank takes one access
//! per cycle ([`L2Config::bank_contention`]), reserved on a
//! [`Calendar`] so that requests coming out of time order wait only for
//! accesses that really are earlier. Only texture requests are timed: the
//! other traffic changes contents and counts but takes no bank cycles
//! until its stream carries times.

use gfxcache_cache::hierarchy::LevelCache;
use gfxcache_cache::policies::lru::Lru;
use gfxcache_cache::registry::lookup;
use gfxcache_cache::{
    BlockOutcome, Cache, CacheError, Env, Geometry, Params, Placed, Policy, PolicyInfo, PolicySpec,
    StreamMask, Ways, POLICIES,
};
use gfxcache_trace::Stream;
use serde::{Deserialize, Serialize};

use crate::calendar::Calendar;

/// The policies an L2 may name: the cache engine's, and the `extra` ones a
/// caller adds (the GSPC family of `gfxcache-llc`, above the machine).
/// Not data: a configuration read from a file has the engine's, and the
/// command line adds the rest; two registries are equal when they list
/// the same names.
#[derive(Clone, Copy, Default)]
pub struct PolicyRegistry {
    extra: &'static [PolicyInfo],
}

impl PolicyRegistry {
    /// The engine's policies and `extra`.
    pub fn with(extra: &'static [PolicyInfo]) -> PolicyRegistry {
        PolicyRegistry { extra }
    }

    /// Every policy, the engine's first.
    pub fn iter(&self) -> impl Iterator<Item = &'static PolicyInfo> + Clone {
        POLICIES.iter().chain(self.extra.iter())
    }
}

impl PartialEq for PolicyRegistry {
    fn eq(&self, o: &PolicyRegistry) -> bool {
        self.iter().map(|p| p.name).eq(o.iter().map(|p| p.name))
    }
}

impl Eq for PolicyRegistry {}

impl std::fmt::Debug for PolicyRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter().map(|p| p.name)).finish()
    }
}

/// The L2's knobs; Table I's values as defaults except where marked ours.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct L2Config {
    /// Capacity in bytes. Paper: 1 MiB.
    pub bytes: u64,
    /// Associativity. Paper: 8.
    pub ways: u32,
    /// Banks. Paper: 8.
    pub banks: u32,
    /// Cycles from the bank taking a request to its data leaving. Paper: 18.
    pub hit_cycles: u32,
    /// Whether a bank takes one access per cycle (true) or any number.
    /// (ours): true; the paper gives banks but no bank timing.
    pub bank_contention: bool,
    /// The replacement policy, a spec of the cache engine's registry
    /// (`gfxcache policies`: `lru`, `fifo`, `mru`, `random`, `nru`,
    /// `srrip`, `brrip`, `drrip`, `ship-mem`, with parameters, e.g.
    /// `drrip:bits=3`). (ours): `lru`; the paper names none. `opt` is
    /// refused (the machine's L2 trace has no future to read). With
    /// [`L2Config::registry`]'s extra policies, theirs too (`gspc`, ...).
    pub policy: String,
    /// Where [`L2Config::policy`] is looked up.
    #[serde(skip)]
    pub registry: PolicyRegistry,
}

impl Default for L2Config {
    fn default() -> L2Config {
        L2Config {
            bytes: 1 << 20,
            ways: 8,
            banks: 8,
            hit_cycles: 18,
            bank_contention: true,
            policy: "lru".into(),
            registry: PolicyRegistry::default(),
        }
    }
}

impl L2Config {
    /// The L2's geometry for `block_bytes` blocks (the engine's rules).
    pub fn geometry(&self, block_bytes: u32) -> Result<Geometry, CacheError> {
        Geometry::from_size(self.bytes, Ways::N(self.ways), block_bytes)
    }

    /// [`L2Config::policy`] parsed, and its registry entry; an error names
    /// the spec and what is wrong with it (an unknown name lists the known
    /// ones).
    pub fn policy_spec(&self) -> Result<(PolicySpec, &'static PolicyInfo), CacheError> {
        let spec: PolicySpec = self.policy.parse()?;
        let info = lookup(self.registry.iter(), &spec)?;
        if info.needs_next_use {
            return Err(CacheError::Policy {
                spec: spec.to_string(),
                what: "needs the future of the trace, which a machine making its L2's \
                       accesses as it runs does not have: expected a policy of the \
                       present (lru, drrip, ...)"
                    .into(),
            });
        }
        Ok((spec, info))
    }

    /// Whether the L2 builds for `block_bytes` blocks: its geometry, and
    /// its policy's spec on it (every parameter known and in range), as
    /// [`SharedL2::new`] would say, without building the cache.
    pub fn check(&self, block_bytes: u32) -> Result<(), CacheError> {
        let geom = self.geometry(block_bytes)?;
        let (spec, info) = self.policy_spec()?;
        info.check(&spec, &geom)
    }
}

/// What the L2 did, in blocks.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct L2Stats {
    /// Texture requests (the texture caches' fills) and their hits and
    /// misses.
    pub texture_requests: u64,
    pub texture_hits: u64,
    pub texture_misses: u64,
    /// The frame's other L2 traffic, reads and writes.
    pub other_accesses: u64,
    pub other_hits: u64,
    pub other_misses: u64,
    /// Lines read from DRAM (read misses) and written to it (dirty
    /// victims).
    pub dram_reads: u64,
    pub dram_writes: u64,
    /// Cycles texture requests waited for a busy bank.
    pub bank_wait_cycles: u64,
    /// The frame's other accesses that took the machine's time
    /// (`OtherTraffic::Tiles`), the cycles they waited for the other
    /// units' port, and then for a busy bank.
    #[serde(default)]
    pub other_timed: u64,
    #[serde(default)]
    pub other_port_wait_cycles: u64,
    #[serde(default)]
    pub other_bank_wait_cycles: u64,
    /// Cycles tiles waited to start, their processors done, for their
    /// tile buffer's traffic to leave the port (`MachineConfig::tile_buffers`).
    #[serde(default)]
    pub tile_buffer_wait_cycles: u64,
    /// Bank reservations held to a calendar's window start.
    pub late_reservations: u64,
}

/// What the L2 did with one access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct L2Access {
    pub hit: bool,
    /// The dirty block a miss's fill evicted, which DRAM is written.
    pub write_back: Option<u64>,
}

impl L2Access {
    const HIT: L2Access = L2Access {
        hit: true,
        write_back: None,
    };
}

/// The L2's lines under its policy: the engine's LRU inline (the
/// default), any other registered policy as a hierarchy level.
enum Lines {
    Lru(Box<Cache<Lru>>),
    Any(Box<dyn LevelCache>),
}

/// The shared L2 of one organization.
pub struct SharedL2 {
    lines: Lines,
    /// One calendar per bank; empty without bank contention.
    banks: Vec<Calendar>,
    bank_count: u64,
    stats: L2Stats,
}

impl SharedL2 {
    /// An empty L2 of `config` with `block_bytes` blocks, or the engine's
    /// error for a geometry it cannot build.
    pub fn new(config: &L2Config, block_bytes: u32) -> Result<SharedL2, CacheError> {
        let geom = config.geometry(block_bytes)?;
        let (spec, info) = config.policy_spec()?;
        let lines = if spec.to_string() == "lru" {
            let lru = Lru::build(&mut Params::new(&spec), &geom, &Env::default())?;
            Lines::Lru(Box::new(Cache::try_new(geom, lru, StreamMask::default())?))
        } else {
            Lines::Any(info.build_level(&spec, &geom, &Env::default())?)
        };
        let banks = if config.bank_contention {
            vec![Calendar::new(); config.banks as usize]
        } else {
            Vec::new()
        };
        Ok(SharedL2 {
            lines,
            banks,
            bank_count: u64::from(config.banks.max(1)),
            stats: L2Stats::default(),
        })
    }

    /// One block access. Counts DRAM reads and write-backs.
    #[inline]
    fn access(&mut self, block: u64, stream: Stream, write: bool) -> L2Access {
        let write_back = match &mut self.lines {
            Lines::Lru(cache) => match cache.access_block(block, stream, write, 0) {
                BlockOutcome::Hit => return L2Access::HIT,
                BlockOutcome::Fill { victim } => victim.and_then(|(b, dirty)| dirty.then_some(b)),
                BlockOutcome::Bypass => None,
            },
            Lines::Any(cache) => {
                if cache.probe(block, stream, write, 0) {
                    return L2Access::HIT;
                }
                match cache.fill(block, stream, write, 0) {
                    Placed::Filled { victim } => victim.filter(|l| l.dirty).map(|l| l.block),
                    Placed::Present | Placed::Bypassed => None,
                }
            }
        };
        self.stats.dram_reads += u64::from(!write);
        self.stats.dram_writes += u64::from(write_back.is_some());
        L2Access {
            hit: false,
            write_back,
        }
    }

    /// A texture cache's request for `block` (a read).
    #[inline]
    pub fn texture_read(&mut self, block: u64) -> L2Access {
        let a = self.access(block, Stream::Tex, false);
        self.stats.texture_requests += 1;
        self.stats.texture_hits += u64::from(a.hit);
        self.stats.texture_misses += u64::from(!a.hit);
        a
    }

    /// One block of the frame's other L2 traffic of `stream`, in trace
    /// order.
    #[inline]
    pub fn other(&mut self, block: u64, stream: Stream, write: bool) -> L2Access {
        let a = self.access(block, stream, write);
        self.stats.other_accesses += 1;
        self.stats.other_hits += u64::from(a.hit);
        self.stats.other_misses += u64::from(!a.hit);
        a
    }

    /// When `block`'s bank takes a texture request arriving at cycle `t`.
    #[inline]
    pub fn bank_start(&mut self, block: u64, t: u64) -> u64 {
        let start = self.reserve_bank(block, t);
        self.stats.bank_wait_cycles += start - t;
        start
    }

    /// When `block`'s bank takes one of the frame's other accesses
    /// arriving at cycle `t`, after waiting `port_wait` cycles for its
    /// port.
    #[inline]
    pub fn other_bank_start(&mut self, block: u64, t: u64, port_wait: u64) -> u64 {
        let start = self.reserve_bank(block, t);
        self.stats.other_timed += 1;
        self.stats.other_port_wait_cycles += port_wait;
        self.stats.other_bank_wait_cycles += start - t;
        start
    }

    /// A tile waited `cycles` for its tile buffer.
    pub fn tile_waited(&mut self, cycles: u64) {
        self.stats.tile_buffer_wait_cycles += cycles;
    }

    #[inline]
    fn reserve_bank(&mut self, block: u64, t: u64) -> u64 {
        if self.banks.is_empty() {
            return t;
        }
        let bank = &mut self.banks[(block % self.bank_count) as usize];
        let late = bank.late();
        let start = bank.reserve(t, 1);
        self.stats.late_reservations += bank.late() - late;
        start
    }

    pub fn stats(&self) -> &L2Stats {
        &self.stats
    }
}
