//! The Tile Fetcher's time (Section V-B "Throughput", Figures 23-24): how
//! many cycles it takes to output a render pass's primitives, in order, to
//! an unbounded output queue (the paper's experiment: "we resize its
//! output queue to have unlimited primitives, so that the Tiling Engine
//! never has to stall because of the slower Raster Pipeline").
//!
//! Its input is a [`FetchTrace`]: the primitives the Tile Fetcher outputs,
//! tile after tile, each with the blocks its L1s (the baseline's Tile
//! Cache, or TCOR's Primitive List Cache and Attribute Cache) read from the
//! L2 for it, and whether the L2 hit, as the frame's L2 simulation found
//! them in the same order ([`crate::FrameL2`]). The caches decide which
//! reads go to the L2; the timing only says how long they take, so it can
//! be re-run with other latencies or MSHR counts without simulating the
//! L2 again. Writes to the L2 (write-backs, bypassed writes) are posted
//! and cost the fetcher nothing.
//!
//! Two models ([`FetcherModel`]):
//! - **blocking**: one cycle per primitive plus, for every block read from
//!   the L2, a wait of `l2_cycles` and `memory_cycles` more when the L2
//!   missed: `cycles = primitives + l2_reads × l2_cycles +
//!   l2_read_misses × memory_cycles` (what the study measured before the
//!   non-blocking model, kept to compare).
//! - **non-blocking** (the default; `non_blocking.rs`): the paper's Tile
//!   Fetcher with outstanding requests. "Although memory requests may be
//!   completed out of order, the Tile Fetcher has to pass the primitives
//!   to the Rasterizer in the original order ... primitive requests are
//!   tracked in a temporary FIFO queue and a primitive is not put in the
//!   output queue until it is completed and is the oldest one in this
//!   temporary queue" (Section II-C); TCOR's Attribute Cache "generates
//!   separate requests for all the attributes of the current miss and puts
//!   them in the MSHRs. When the misses for all the said attributes are
//!   serviced, the Tile Fetcher pushes the Attribute Buffer Pointer (ABP)
//!   to the output queue" (Section III-C3). Both engines time the same
//!   way; only their caches (so their reads) differ.
//!
//! The non-blocking fetcher, cycle by cycle (each step sees what the
//! earlier steps of the same cycle did):
//! 1. blocks due this cycle return from the L2 and free their MSHR entry;
//! 2. the oldest primitive of the temporary FIFO goes to the output queue
//!    if all its reads are back, one cycle after the last (the L1's
//!    1-cycle access of Table I), and at least one cycle after its issue:
//!    at most one primitive a cycle;
//! 3. the front end, in order, either issues the next primitive (its L1
//!    lookups take this cycle; it needs a free FIFO entry) and registers
//!    its L2 reads in the MSHRs, or goes on registering the reads of the
//!    primitive it issued before: a read of a block already outstanding is
//!    a secondary miss, one more target of that block's entry; a read that
//!    finds no free entry (or its block's entry without a free target)
//!    stops the front end until a block returns. A primitive is issued only
//!    once the one before has all its reads registered, in a later cycle;
//! 4. the oldest registered block not yet sent goes to the L2 (one request
//!    a cycle), and returns `l2_cycles` later, `l2_cycles + memory_cycles`
//!    when that read missed in the L2; with [`FetcherTiming::dram_banks`]
//!    a miss returns later still by the cycles it waits for its DRAM bank
//!    and channel bus, from `l2_cycles` after it was sent
//!    ([`gfxcache_gpu::dram`]: the DRAM is called in time order here, the
//!    fetcher's one request a cycle).
//!
//! The fetcher's time is the cycle its last primitive is output. With one
//! MSHR of one target and a FIFO of one primitive it is exactly the
//! blocking sum (`tests/it/fetcher.rs` holds the model to that, to a plain
//! cycle-by-cycle reference, and to hand-worked sequences).
//!
//! **On the machine.** The waits are the machine's (`gfxcache tcor
//! --machine`: `l2.hit_cycles` and the mean of `memory.latency_cycles`),
//! but the fetcher does not go through `gfxcache_gpu`'s banked L2 and bus,
//! because there they would be the same thing: it sends at most one read
//! a cycle and an L2 bank takes one a cycle, so no read ever finds its
//! bank busy, and the paper times the fetcher alone (its throughput
//! experiment has no texture traffic beside it, and the texture caches'
//! bus of `gfxcache_gpu` is not the fetcher's port). DRAM is not the same
//! thing: up to an MSHR's count of misses are in flight, and two to one
//! DRAM bank wait for each other. With `--dram-banks on` the misses go
//! through the machine's DRAM banks and channel buses
//! (`gfxcache_gpu::dram::DramBanks`, the texture units' on the composed
//! machine); off (ours, the default) every miss takes `memory_cycles`
//! alone. The blocking fetcher has one read in flight, which never waits
//! for a bank: its sum stays exact with the banks. Composing the fetcher
//! with the texture units on one L2 and one DRAM is not built.
//!
//! The MSHRs are `gfxcache_mem::MissQueue`, the NBTC's Block Address Buffer
//! too. TCOR's Attribute Cache keeps a primitive's line locked while it
//! waits in the output queue of `--queue-depth` primitives
//! ([`crate::AttributeCacheStats::stalls`]): that is the functional side
//! (which lines can be evicted), which decides the reads; it costs no
//! cycles here, where the output queue is unbounded as in the paper's
//! throughput experiment, so nothing is counted twice.

mod non_blocking;

use gfxcache_cache::stats::ratio;
use gfxcache_gpu::DramTiming;
use serde::Serialize;

use crate::frame::DEFAULT_OUTPUT_QUEUE_DEPTH;

/// MSHRs of the Tile Fetcher by default (ours; the paper gives none): the
/// L1 data cache of gem5's standard library
/// (`src/python/gem5/components/cachehierarchies/classic/caches/l1dcache.py`,
/// `mshrs = 16`).
pub const DEFAULT_FETCHER_MSHRS: u32 = 16;

/// Targets per MSHR by default (ours): the same gem5 L1 data cache,
/// `tgts_per_mshr = 20`.
pub const DEFAULT_FETCHER_TARGETS: u32 = 20;

/// Primitives the temporary FIFO tracks by default (ours; the paper gives
/// no size): as many as the output queue holds,
/// [`DEFAULT_OUTPUT_QUEUE_DEPTH`] (ATTILA's Triangle Setup FIFO, 12).
pub const DEFAULT_FETCHER_FIFO: u32 = DEFAULT_OUTPUT_QUEUE_DEPTH as u32;

/// The most MSHRs a configuration may have: the entries are scanned every
/// cycle, as hardware small enough to be built would compare them all.
pub const MAX_FETCHER_MSHRS: u32 = 4096;

/// The deepest temporary FIFO a configuration may have.
pub const MAX_FETCHER_FIFO: u32 = 1 << 20;

/// How the Tile Fetcher waits for its L2 reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FetcherModel {
    /// A serial wait on every block read from the L2.
    Blocking,
    /// Outstanding reads in MSHRs, primitives output in order.
    #[default]
    NonBlocking,
}

impl FetcherModel {
    pub fn name(self) -> &'static str {
        match self {
            FetcherModel::Blocking => "blocking",
            FetcherModel::NonBlocking => "non-blocking",
        }
    }
}

/// How the Tile Fetcher is timed, in GPU cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct FetcherTiming {
    pub model: FetcherModel,
    /// Table I: 12 cycles.
    pub l2_cycles: u32,
    /// Added when the L2 misses. Table I gives 50-100 cycles; 75 is the
    /// middle of that range.
    pub memory_cycles: u32,
    /// Non-blocking: blocks outstanding at once ([`DEFAULT_FETCHER_MSHRS`]).
    pub mshrs: u32,
    /// Non-blocking: reads one outstanding block serves, the first
    /// included ([`DEFAULT_FETCHER_TARGETS`]).
    pub targets_per_mshr: u32,
    /// Non-blocking: primitives in flight in the temporary FIFO
    /// ([`DEFAULT_FETCHER_FIFO`]).
    pub fifo_entries: u32,
    /// The DRAM whose banks and channel buses an L2 miss waits for besides
    /// `memory_cycles` ([`gfxcache_gpu::dram`]); `None` (ours, the
    /// default): every miss takes `memory_cycles` alone.
    #[serde(default)]
    pub dram_banks: Option<DramTiming>,
}

impl Default for FetcherTiming {
    fn default() -> FetcherTiming {
        FetcherTiming {
            model: FetcherModel::NonBlocking,
            l2_cycles: 12,
            memory_cycles: 75,
            mshrs: DEFAULT_FETCHER_MSHRS,
            targets_per_mshr: DEFAULT_FETCHER_TARGETS,
            fifo_entries: DEFAULT_FETCHER_FIFO,
            dram_banks: None,
        }
    }
}

impl FetcherTiming {
    /// The blocking fetcher with these latencies.
    pub fn blocking(self) -> FetcherTiming {
        FetcherTiming {
            model: FetcherModel::Blocking,
            ..self
        }
    }

    /// Cycles from sending a read to its block's return.
    pub fn read_cycles(&self, l2_hit: bool) -> u64 {
        u64::from(self.l2_cycles)
            + if l2_hit {
                0
            } else {
                u64::from(self.memory_cycles)
            }
    }

    /// What is wrong with this timing, if anything: the field and why.
    pub fn check(&self) -> Result<(), (&'static str, String)> {
        if self.model == FetcherModel::Blocking {
            return Ok(());
        }
        // A block sent in a cycle returns in a later one.
        if self.l2_cycles == 0 {
            return Err((
                "l2_cycles",
                "0: the non-blocking fetcher needs at least 1".into(),
            ));
        }
        if !(1..=MAX_FETCHER_MSHRS).contains(&self.mshrs) {
            let what = format!("{}: expected 1 to {MAX_FETCHER_MSHRS} MSHRs", self.mshrs);
            return Err(("mshrs", what));
        }
        if let Some(d) = &self.dram_banks {
            let service = d.service_cycles(crate::layout::BLOCK_BYTES as u32);
            if u64::from(self.memory_cycles) < service {
                let what = format!(
                    "{}: with DRAM banks, expected at least {}'s longest service of a block, \
                     {service} cycles (tRP + tRCD + tCAS + its transfer)",
                    self.memory_cycles,
                    d.dram.name()
                );
                return Err(("memory_cycles", what));
            }
        }
        if self.targets_per_mshr == 0 {
            return Err(("targets_per_mshr", "0: expected at least 1".into()));
        }
        if !(1..=MAX_FETCHER_FIFO).contains(&self.fifo_entries) {
            let what = format!(
                "{}: expected 1 to {MAX_FETCHER_FIFO} primitives",
                self.fifo_entries
            );
            return Err(("fifo_entries", what));
        }
        Ok(())
    }
}

/// One block the Tile Fetcher read from the L2, and whether the L2 hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FetchRead {
    pub block: u64,
    pub l2_hit: bool,
}

/// The primitives the Tile Fetcher outputs, in order, each with the blocks
/// it read from the L2, in order.
#[derive(Clone, Debug, Default)]
pub struct FetchTrace {
    reads: Vec<FetchRead>,
    /// Where each primitive's reads begin in `reads`.
    starts: Vec<usize>,
}

impl FetchTrace {
    pub fn new() -> FetchTrace {
        FetchTrace::default()
    }

    /// The next primitive: the reads that follow are its own.
    pub fn begin_primitive(&mut self) {
        self.starts.push(self.reads.len());
    }

    /// A block the current primitive reads from the L2.
    pub fn read(&mut self, block: u64, l2_hit: bool) {
        debug_assert!(!self.starts.is_empty(), "a read before any primitive");
        self.reads.push(FetchRead { block, l2_hit });
    }

    /// A primitive with these reads.
    pub fn push(&mut self, reads: &[FetchRead]) {
        self.begin_primitive();
        self.reads.extend_from_slice(reads);
    }

    pub fn primitives(&self) -> usize {
        self.starts.len()
    }

    /// The reads of primitive `i`.
    pub fn primitive(&self, i: usize) -> &[FetchRead] {
        let end = self.starts.get(i + 1).copied().unwrap_or(self.reads.len());
        &self.reads[self.starts[i]..end]
    }

    /// Every read, primitive after primitive.
    pub fn reads(&self) -> &[FetchRead] {
        &self.reads
    }

    /// Empties the trace, keeping its room.
    pub fn clear(&mut self) {
        self.reads.clear();
        self.starts.clear();
    }
}

/// The Tile Fetcher's time and what it did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, serde::Deserialize)]
pub struct FetcherStats {
    pub primitives: u64,
    /// Blocks it read from the L2, and how many of those missed there.
    pub l2_reads: u64,
    pub l2_read_misses: u64,
    /// Requests it sent to the L2: its reads less the secondary misses,
    /// reads of a block already outstanding, served by that block's
    /// request (`merged_reads`).
    pub l2_requests: u64,
    pub merged_reads: u64,
    pub cycles: u64,
    /// Primitives output per cycle (at most 1).
    pub primitives_per_cycle: f64,
    /// Cycles the front end waited for a free entry of the temporary FIFO,
    /// for a free MSHR, and for a free target of an outstanding block's
    /// MSHR (0 for the blocking fetcher, which waits on every read).
    pub fifo_stall_cycles: u64,
    pub mshr_stall_cycles: u64,
    pub target_stall_cycles: u64,
    /// Requests in flight, summed over the cycles (each request's
    /// latency), and the cycles with at least one in flight.
    pub request_cycles: u64,
    pub busy_cycles: u64,
    /// Memory-level parallelism: requests in flight on average over the
    /// cycles with any in flight (1 for the blocking fetcher).
    pub mlp: f64,
    /// Cycles the L2 misses waited for their DRAM banks and buses (0
    /// without [`FetcherTiming::dram_banks`], and for the blocking
    /// fetcher, whose one read in flight never waits).
    #[serde(default)]
    pub dram_wait_cycles: u64,
}

impl FetcherStats {
    /// Computes the ratios from the counts.
    fn with_ratios(mut self) -> FetcherStats {
        self.primitives_per_cycle = ratio(self.primitives, self.cycles);
        self.mlp = ratio(self.request_cycles, self.busy_cycles);
        self
    }

    /// Both runs' work, as one after the other.
    pub fn add(&mut self, o: &FetcherStats) {
        *self = self.zip(o, |a, b| a + b);
    }

    /// The work since `earlier`, a snapshot of the same fetcher.
    pub fn since(&self, earlier: &FetcherStats) -> FetcherStats {
        self.zip(earlier, |a, b| a - b)
    }

    fn zip(&self, o: &FetcherStats, f: impl Fn(u64, u64) -> u64) -> FetcherStats {
        FetcherStats {
            primitives: f(self.primitives, o.primitives),
            l2_reads: f(self.l2_reads, o.l2_reads),
            l2_read_misses: f(self.l2_read_misses, o.l2_read_misses),
            l2_requests: f(self.l2_requests, o.l2_requests),
            merged_reads: f(self.merged_reads, o.merged_reads),
            cycles: f(self.cycles, o.cycles),
            fifo_stall_cycles: f(self.fifo_stall_cycles, o.fifo_stall_cycles),
            mshr_stall_cycles: f(self.mshr_stall_cycles, o.mshr_stall_cycles),
            target_stall_cycles: f(self.target_stall_cycles, o.target_stall_cycles),
            request_cycles: f(self.request_cycles, o.request_cycles),
            busy_cycles: f(self.busy_cycles, o.busy_cycles),
            dram_wait_cycles: f(self.dram_wait_cycles, o.dram_wait_cycles),
            primitives_per_cycle: 0.0,
            mlp: 0.0,
        }
        .with_ratios()
    }

    /// L2 reads per primitive.
    pub fn reads_per_primitive(&self) -> f64 {
        ratio(self.l2_reads, self.primitives)
    }

    /// Requests in flight on average over all the fetcher's cycles.
    pub fn mean_outstanding(&self) -> f64 {
        ratio(self.request_cycles, self.cycles)
    }
}

/// The Tile Fetcher's time over `trace` (one render pass: it starts with
/// nothing in flight and ends with everything output).
pub fn time(trace: &FetchTrace, timing: &FetcherTiming) -> FetcherStats {
    time_with(trace, timing, |_, _| {})
}

/// [`time`], telling `output` each primitive as it goes to the output
/// queue: its index in `trace` and the cycle.
pub fn time_with(
    trace: &FetchTrace,
    timing: &FetcherTiming,
    output: impl FnMut(usize, u64),
) -> FetcherStats {
    match timing.model {
        FetcherModel::Blocking => blocking(trace, timing, output),
        FetcherModel::NonBlocking => non_blocking::time(trace, timing, output),
    }
}

/// The counts both models share: primitives and reads.
fn counts(trace: &FetchTrace) -> FetcherStats {
    let reads = trace.reads();
    FetcherStats {
        primitives: trace.primitives() as u64,
        l2_reads: reads.len() as u64,
        l2_read_misses: reads.iter().filter(|r| !r.l2_hit).count() as u64,
        ..FetcherStats::default()
    }
}

/// One cycle per primitive and a serial wait on every read.
fn blocking(
    trace: &FetchTrace,
    t: &FetcherTiming,
    mut output: impl FnMut(usize, u64),
) -> FetcherStats {
    let mut at = 0;
    for p in 0..trace.primitives() {
        at += 1 + trace
            .primitive(p)
            .iter()
            .map(|r| t.read_cycles(r.l2_hit))
            .sum::<u64>();
        output(p, at);
    }
    let s = counts(trace);
    let wait = at - s.primitives;
    FetcherStats {
        l2_requests: s.l2_reads,
        cycles: at,
        request_cycles: wait,
        busy_cycles: wait,
        ..s
    }
    .with_ratios()
}
