//! The frame timer: feeds a frame's LLC outcomes through the GPU front, the
//! LLC banks and the DRAM, and says how long the frame took.
//!
//! Call [`FrameTimer::access`] for every LLC access of the frame in trace
//! order with the cache engine's hit or miss, and [`FrameTimer::writeback`]
//! for every dirty line the LLC evicts, right after the access whose fill
//! evicted it; then [`FrameTimer::finish`]. The frame ends when its last
//! access (or write-back) completes; it starts at 0 with every context idle
//! and the DRAM's rows closed. A sequence of frames is timed frame by frame
//! with [`FrameTimer::end_frame`], which returns one frame's timing and
//! starts the next as the first started: each frame is timed on its own,
//! as the GSPC paper simulates its frames, whatever came before it (the
//! caches, not the timer, carry state from frame to frame).
//!
//! A write is a whole 64-byte line written back by a render cache, so a
//! write miss allocates in the LLC without reading DRAM; its data reaches
//! DRAM only when the LLC evicts it dirty ([`FrameTimer::writeback`]). A
//! write-back goes to DRAM when the miss that evicted it does (right behind
//! it in call order); nobody waits for it, but it takes its bank
//! and bus time, which is how dirty evictions slow a frame.
//!
//! Time is integer picoseconds throughout, so the same inputs give the same
//! [`FrameTiming`] on every machine. Nothing is allocated per access: the
//! contexts' ready times are one ring allocated by [`FrameTimer::new`].

use gfxcache_trace::Stream;
use serde::{Deserialize, Serialize};

use crate::dram::{Dram, DramConfig};
use crate::error::MemError;
use crate::gpu::GpuConfig;
use crate::llc::{Llc, LlcTiming};
use crate::LINE_BYTES;

/// How long one frame took and what its memory system did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FrameTiming {
    pub accesses: u64,
    pub reads: u64,
    pub writes: u64,
    pub llc_hits: u64,
    pub llc_misses: u64,
    pub dram_reads: u64,
    pub dram_writes: u64,
    pub row_hits: u64,
    /// Accesses to a bank with no open row.
    pub row_misses: u64,
    pub row_conflicts: u64,
    /// When the last access completed, in ps: the exact value behind `frame_ns`.
    pub frame_ps: u64,
    pub frame_ns: f64,
    /// Frames per second, 1e9 / `frame_ns`; 0 for an empty frame.
    pub fps: f64,
    /// From issue to data at the requester, LLC queueing included; 0 with no reads.
    pub mean_read_latency_ns: f64,
    /// The sum of those latencies, in ps: the exact value behind
    /// `mean_read_latency_ns`, so that frames can be averaged exactly.
    pub read_latency_ps: u64,
    /// DRAM bytes moved (reads and write-backs) per frame time, GB/s.
    pub dram_bandwidth_gbps: f64,
    /// Share of the frame the DRAM channels' data buses were busy, averaged
    /// over channels; 0 for the fixed-latency DRAM, which has no bus.
    pub dram_busy_fraction: f64,
}

/// Times one frame. See the module documentation for the protocol.
#[derive(Clone, Debug)]
pub struct FrameTimer {
    /// The LLC and DRAM as a frame finds them: idle, every row closed.
    idle: (Llc, Dram),
    /// Per context, when it may issue its next access.
    ready_ps: Box<[u64]>,
    next_context: usize,
    work_ps: u64,
    issue_gap_ps: u64,
    texture_gap_ps: u64,
    next_issue_ps: u64,
    next_texture_ps: u64,
    llc: Llc,
    dram: Dram,
    /// When the latest miss left the LLC for DRAM; write-backs follow it.
    miss_at_ps: u64,
    end_ps: u64,
    accesses: u64,
    reads: u64,
    llc_hits: u64,
    read_latency_ps: u64,
}

impl FrameTimer {
    /// A timer for one frame on this GPU, LLC and DRAM; fails on a
    /// configuration the model cannot run (see each config's `validate`).
    pub fn new(
        gpu: &GpuConfig,
        llc: &LlcTiming,
        dram: &DramConfig,
    ) -> Result<FrameTimer, MemError> {
        gpu.validate()?;
        let idle = (Llc::new(llc)?, Dram::new(dram)?);
        Ok(FrameTimer::starting(
            idle,
            gpu.contexts(),
            [
                gpu.cycles_ps(f64::from(gpu.work_cycles)),
                gpu.cycles_ps(1.0 / f64::from(gpu.issues_per_cycle)),
                gpu.cycles_ps(1.0 / f64::from(gpu.samplers)),
            ],
        ))
    }

    /// A timer at the start of a frame: `gaps` are the work, issue and
    /// texture gaps in ps.
    fn starting(idle: (Llc, Dram), contexts: usize, gaps: [u64; 3]) -> FrameTimer {
        let [work_ps, issue_gap_ps, texture_gap_ps] = gaps;
        FrameTimer {
            llc: idle.0.clone(),
            dram: idle.1.clone(),
            idle,
            ready_ps: vec![0; contexts].into_boxed_slice(),
            next_context: 0,
            work_ps,
            issue_gap_ps,
            texture_gap_ps,
            next_issue_ps: 0,
            next_texture_ps: 0,
            miss_at_ps: 0,
            end_ps: 0,
            accesses: 0,
            reads: 0,
            llc_hits: 0,
            read_latency_ps: 0,
        }
    }

    /// One LLC access of the frame, in trace order: `line` is the byte
    /// address / 64, `hit` the cache engine's outcome.
    #[inline]
    pub fn access(&mut self, line: u64, stream: Stream, write: bool, hit: bool) {
        let context = self.next_context;
        self.next_context += 1;
        if self.next_context == self.ready_ps.len() {
            self.next_context = 0;
        }
        let mut issue = self.ready_ps[context].max(self.next_issue_ps);
        if stream == Stream::Tex {
            issue = issue.max(self.next_texture_ps);
            self.next_texture_ps = issue + self.texture_gap_ps;
        }
        self.next_issue_ps = issue + self.issue_gap_ps;
        let start = self.llc.lookup(issue, line);
        self.accesses += 1;
        self.llc_hits += u64::from(hit);
        if !hit {
            self.miss_at_ps = start + self.llc.tag_ps();
        }
        if write {
            // Posted: the context moves on; the frame still waits for the
            // LLC to have written the line.
            self.ready_ps[context] = issue + self.work_ps;
            self.end_ps = self.end_ps.max(start + self.llc.load_to_use_ps());
            return;
        }
        let done = if hit {
            start + self.llc.load_to_use_ps()
        } else {
            self.dram.access(self.miss_at_ps, line, false) + self.llc.return_ps()
        };
        self.reads += 1;
        self.read_latency_ps += done - issue;
        self.ready_ps[context] = done + self.work_ps;
        self.end_ps = self.end_ps.max(done);
    }

    /// The LLC evicted dirty `line`: a DRAM write nobody waits for.
    #[inline]
    pub fn writeback(&mut self, line: u64) {
        let done = self.dram.access(self.miss_at_ps, line, true);
        self.end_ps = self.end_ps.max(done);
    }

    /// Thread contexts, the most accesses in flight.
    pub fn contexts(&self) -> usize {
        self.ready_ps.len()
    }

    /// The timing of the frame timed so far; the timer then starts the
    /// next frame as it started the first (every context idle, the LLC
    /// banks free, the DRAM's rows closed, time 0).
    pub fn end_frame(&mut self) -> FrameTiming {
        let next = FrameTimer::starting(
            self.idle.clone(),
            self.ready_ps.len(),
            [self.work_ps, self.issue_gap_ps, self.texture_gap_ps],
        );
        std::mem::replace(self, next).finish()
    }

    pub fn finish(self) -> FrameTiming {
        let channels = self.dram.channels() as u64;
        let stats = self.dram.into_stats();
        let frame_ps = self.end_ps;
        let frame_ns = frame_ps as f64 / 1000.0;
        let per_frame = |x: f64| if frame_ps == 0 { 0.0 } else { x / frame_ns };
        let busy: u64 = stats.busy_ps.iter().sum();
        FrameTiming {
            accesses: self.accesses,
            reads: self.reads,
            writes: self.accesses - self.reads,
            llc_hits: self.llc_hits,
            llc_misses: self.accesses - self.llc_hits,
            dram_reads: stats.reads,
            dram_writes: stats.writes,
            row_hits: stats.row_hits,
            row_misses: stats.row_misses,
            row_conflicts: stats.row_conflicts,
            frame_ps,
            frame_ns,
            fps: per_frame(1e9),
            mean_read_latency_ns: if self.reads == 0 {
                0.0
            } else {
                self.read_latency_ps as f64 / 1000.0 / self.reads as f64
            },
            read_latency_ps: self.read_latency_ps,
            dram_bandwidth_gbps: per_frame(((stats.reads + stats.writes) * LINE_BYTES) as f64),
            dram_busy_fraction: if frame_ps == 0 || channels == 0 {
                0.0
            } else {
                busy as f64 / (channels * frame_ps) as f64
            },
        }
    }
}
