//! One run of the study (a policy at an LLC size) fed frame by frame: the
//! cache stays warm from frame to frame, each frame is timed on its own on
//! every machine, and a snapshot of the counters is kept at every frame's
//! end, so that any run of frames (after a warm-up, or one frame) can be
//! read off exactly.

use gfxcache_cache::{BlockEvent, BlockOutcome, CacheSim, PolicySpec, Reuse, Stats};
use gfxcache_mem::{FrameTimer, FrameTiming};
use gfxcache_trace::{Access, Batch};

/// What a run had counted when a frame ended.
pub(super) struct FrameEnd {
    /// Cumulative since the run began.
    pub(super) stats: Stats,
    pub(super) reuse: Reuse,
    /// That frame alone, one per timer, in the timers' order.
    pub(super) timing: Vec<FrameTiming>,
}

pub(super) struct Run {
    pub(super) spec: PolicySpec,
    pub(super) size: u64,
    pub(super) cache: Box<dyn CacheSim>,
    /// One per machine the run is timed on, by machine name.
    pub(super) timers: Vec<(&'static str, FrameTimer)>,
    events: Vec<BlockEvent>,
    pub(super) frames: Vec<FrameEnd>,
}

impl Run {
    pub(super) fn new(
        spec: PolicySpec,
        size: u64,
        cache: Box<dyn CacheSim>,
        timers: Vec<(&'static str, FrameTimer)>,
    ) -> Run {
        Run {
            spec,
            size,
            cache,
            timers,
            events: Vec::new(),
            frames: Vec::new(),
        }
    }

    /// The next batch of the trace; a `FrameEnd` marker ends a frame.
    pub(super) fn batch(&mut self, batch: &Batch) {
        for (accesses, frame_ends) in batch.frame_pieces() {
            self.accesses(accesses);
            if frame_ends {
                self.end_frame();
            }
        }
    }

    /// The trace is over: accesses after its last `FrameEnd` (or in a
    /// trace without frame markers) are one more frame.
    pub(super) fn finish(&mut self) {
        let counted = self.frames.last().map_or(0, |f| f.stats.total().accesses);
        if self.frames.is_empty() || self.cache.stats().total().accesses > counted {
            self.end_frame();
        }
    }

    fn accesses(&mut self, accesses: &[Access]) {
        if accesses.is_empty() {
            return;
        }
        self.cache.access_batch_events(accesses, &mut self.events);
        for (_, t) in &mut self.timers {
            feed(t, &self.events);
        }
    }

    fn end_frame(&mut self) {
        self.frames.push(FrameEnd {
            stats: self.cache.stats().clone(),
            reuse: self.cache.reuse().unwrap_or_default(),
            timing: self.timers.iter_mut().map(|(_, t)| t.end_frame()).collect(),
        });
    }
}

/// Hands the LLC's outcomes to a frame timer: every access with whether it
/// hit, and every dirty eviction as a memory write.
fn feed(timer: &mut FrameTimer, events: &[BlockEvent]) {
    for e in events {
        let hit = e.outcome == BlockOutcome::Hit;
        timer.access(e.block, e.stream, e.write, hit);
        if let BlockOutcome::Fill {
            victim: Some((victim, true)),
        } = e.outcome
        {
            timer.writeback(victim);
        }
    }
}
