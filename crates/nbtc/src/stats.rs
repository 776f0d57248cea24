//! What one texture unit's run counts.

use serde::{Deserialize, Serialize};

/// A buffer's occupancy over a run, sampled at the end of every cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Occupancy {
    pub max: u64,
    /// Sum of the per-cycle samples; [`Occupancy::mean`] divides it.
    pub sum: u64,
    /// Entries still held when the run ended (0 unless a model is wrong).
    pub end: u64,
}

impl Occupancy {
    #[inline]
    pub(crate) fn sample(&mut self, n: usize, cycles: u64) {
        let n = n as u64;
        self.max = self.max.max(n);
        self.sum += n * cycles;
        self.end = n;
    }

    /// Adds another unit's occupancy (maxima take the larger).
    pub fn add(&mut self, o: &Occupancy) {
        self.max = self.max.max(o.max);
        self.sum += o.sum;
        self.end += o.end;
    }

    pub fn mean(&self, cycles: u64) -> f64 {
        if cycles == 0 {
            0.0
        } else {
            self.sum as f64 / cycles as f64
        }
    }
}

/// One pixel processor and its texture unit over one input. Every cycle
/// is exactly one of `run_cycles`, `issue_cycles`, `ps_stall_cycles`,
/// `nbtc_stall_cycles`, `miss_queue_full_cycles`, `rb_full_cycles`,
/// `mux_conflict_cycles`, `blocked_cycles`, `drain_cycles` or
/// `tile_wait_cycles`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct UnitStats {
    pub cycles: u64,
    /// The shader ran an instruction.
    pub run_cycles: u64,
    /// The unit accepted a request.
    pub issue_cycles: u64,
    /// PS stall: every fragment in flight waits for a texture result.
    pub ps_stall_cycles: u64,
    /// NBTC stall: a request with a miss found the WLB full.
    pub nbtc_stall_cycles: u64,
    /// A request's missing blocks found no room: the BAB (NBTC and BTC),
    /// an MSHR or a target (MSHR cache), the reorder buffer or the request
    /// FIFO (prefetching cache).
    pub miss_queue_full_cycles: u64,
    /// A request found the RB full.
    pub rb_full_cycles: u64,
    /// An all-hit request lost the MUX to a ready WLB entry.
    pub mux_conflict_cycles: u64,
    /// The blocking cache refused a request while it handled a miss.
    pub blocked_cycles: u64,
    /// The processor had no fragment left: the cycle in which the last
    /// result returned to a fragment with no work after it (0 or 1 cycle a
    /// unit), and, with a BAB that forgets sent blocks
    /// ([`crate::NbtcConfig::bab_merges_sent`] false), the cycles after it
    /// until a second fetch nobody waits for returns (the run ends when
    /// every BAB entry is freed). The cycles the last fragments wait for
    /// their results are PS stall.
    pub drain_cycles: u64,
    /// On a machine whose tiles synchronise its fragment processors: the
    /// processor had finished its part of a tile and waited for the others
    /// to finish theirs (0 elsewhere).
    #[serde(default)]
    pub tile_wait_cycles: u64,
    /// Requests accepted.
    pub requests: u64,
    /// Texel tag checks of accepted requests (a request's taps, not
    /// de-duplicated).
    pub texel_lookups: u64,
    pub hits: u64,
    /// Missing texels whose block this lookup put in the BAB.
    pub primary_misses: u64,
    /// Missing texels whose block was already in the BAB (sent or not).
    pub secondary_misses: u64,
    /// Block requests sent to memory.
    pub memory_requests: u64,
    /// `memory_requests` x block bytes.
    pub traffic_bytes: u64,
    /// Requests whose texels all hit (straight to the filter).
    pub all_hit_requests: u64,
    /// Cycles the blocks sent waited, summed, at a shared DRAM for the
    /// requests of other units (and of this one) ahead of them; 0 on a
    /// private path.
    #[serde(default)]
    pub memory_wait_cycles: u64,
    /// Shader operations the fragments ran, each once whatever its width
    /// ([`gfxcache_trace::ShaderOps::instructions`]): over `cycles`, the
    /// processor's issue rate.
    #[serde(default)]
    pub instructions: u64,
    pub rb: Occupancy,
    pub wlb: Occupancy,
    pub bab: Occupancy,
}

impl UnitStats {
    /// The cycles the shader neither ran nor had a request accepted:
    /// every stall category, the drain and the tile wait.
    pub fn stalled_cycles(&self) -> u64 {
        self.cycles - self.run_cycles - self.issue_cycles
    }

    /// [`UnitStats::stalled_cycles`] over all cycles (0 to 1).
    pub fn stall_share(&self) -> f64 {
        gfxcache_cache::stats::ratio(self.stalled_cycles(), self.cycles)
    }

    /// Adds another unit's counts to these.
    pub fn add(&mut self, o: &UnitStats) {
        self.cycles += o.cycles;
        self.run_cycles += o.run_cycles;
        self.issue_cycles += o.issue_cycles;
        self.ps_stall_cycles += o.ps_stall_cycles;
        self.nbtc_stall_cycles += o.nbtc_stall_cycles;
        self.miss_queue_full_cycles += o.miss_queue_full_cycles;
        self.rb_full_cycles += o.rb_full_cycles;
        self.mux_conflict_cycles += o.mux_conflict_cycles;
        self.blocked_cycles += o.blocked_cycles;
        self.drain_cycles += o.drain_cycles;
        self.tile_wait_cycles += o.tile_wait_cycles;
        self.requests += o.requests;
        self.texel_lookups += o.texel_lookups;
        self.hits += o.hits;
        self.primary_misses += o.primary_misses;
        self.secondary_misses += o.secondary_misses;
        self.memory_requests += o.memory_requests;
        self.traffic_bytes += o.traffic_bytes;
        self.all_hit_requests += o.all_hit_requests;
        self.memory_wait_cycles += o.memory_wait_cycles;
        self.instructions += o.instructions;
        self.rb.add(&o.rb);
        self.wlb.add(&o.wlb);
        self.bab.add(&o.bab);
    }

    pub fn misses(&self) -> u64 {
        self.primary_misses + self.secondary_misses
    }

    /// The sum of the cycle categories (equals `cycles`).
    pub fn accounted_cycles(&self) -> u64 {
        self.run_cycles
            + self.issue_cycles
            + self.ps_stall_cycles
            + self.nbtc_stall_cycles
            + self.miss_queue_full_cycles
            + self.rb_full_cycles
            + self.mux_conflict_cycles
            + self.blocked_cycles
            + self.drain_cycles
            + self.tile_wait_cycles
    }
}
