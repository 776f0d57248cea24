//! One run of the study (a policy at an LLC size) fed frame by frame: the
//! cache stays warm from frame to frame, each frame is timed on its own on
//! every machine, and a snapshot of the counters is kept at every frame's
//! end, so that any run of frames (after a warm-up, or one frame) can be
//! read off exactly. A run may also keep a [`super::timeline`].

use gfxcache_cache::{BlockEvent, BlockOutcome, CacheSim, PolicySpec, Reuse, Stats};
use gfxcache_mem::{FrameTimer, FrameTiming};
use gfxcache_trace::{Access, Batch, Marker};

use super::timeline::{MissKinds, Recorder, Timeline};

/// What a run had counted when a frame ended.
pub(super) struct FrameEnd {
    /// Cumulative since the run began.
    pub(super) stats: Stats,
    pub(super) reuse: Reuse,
    pub(super) misses: MissKinds,
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
    /// Cumulative since the run began.
    misses: MissKinds,
    pub(super) frames: Vec<FrameEnd>,
    timeline: Option<Recorder>,
    /// The finished timeline, after [`Run::finish`].
    pub(super) timeline_done: Option<Timeline>,
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
            misses: MissKinds::default(),
            frames: Vec::new(),
            timeline: None,
            timeline_done: None,
        }
    }

    /// Keeps a timeline of this run, a point every `step` accesses.
    pub(super) fn with_timeline(mut self, step: u64) -> Run {
        let policy = self.spec.to_string();
        self.timeline = Some(Recorder::new(policy, self.size, step, &*self.cache));
        self
    }

    /// The next batch of the trace; a `FrameEnd` marker ends a frame and a
    /// `PassBegin` marker starts a pass of the timeline.
    pub(super) fn batch(&mut self, batch: &Batch) {
        let passes = self.timeline.is_some();
        let cut = move |m: &Marker| match m {
            Marker::FrameEnd { .. } => true,
            Marker::PassBegin { .. } => passes,
            _ => false,
        };
        for (accesses, marker) in batch.pieces(cut) {
            self.accesses(accesses);
            match marker {
                Some(Marker::PassBegin { name, kind }) => {
                    if let Some(t) = &mut self.timeline {
                        t.begin_pass(name, *kind, &*self.cache, &self.misses);
                    }
                }
                Some(_) => self.end_frame(),
                None => {}
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
        if let Some(t) = self.timeline.take() {
            self.timeline_done = Some(t.finish(&*self.cache, &self.misses));
        }
    }

    /// Feeds `accesses`, in pieces that end where the timeline takes a point.
    fn accesses(&mut self, mut accesses: &[Access]) {
        while !accesses.is_empty() {
            let n = self
                .timeline
                .as_ref()
                .map_or(accesses.len(), |t| t.room().min(accesses.len()));
            let (now, rest) = accesses.split_at(n);
            self.simulate(now);
            if let Some(t) = &mut self.timeline {
                t.advance(n, &*self.cache, &self.misses);
            }
            accesses = rest;
        }
    }

    fn simulate(&mut self, accesses: &[Access]) {
        self.cache.access_batch_events(accesses, &mut self.events);
        for (_, t) in &mut self.timers {
            feed(t, &self.events);
        }
        count_misses(&mut self.misses, &self.events);
    }

    fn end_frame(&mut self) {
        if let Some(t) = &mut self.timeline {
            t.end_frame(&*self.cache, &self.misses);
        }
        self.frames.push(FrameEnd {
            stats: self.cache.stats().clone(),
            reuse: self.cache.reuse().unwrap_or_default(),
            misses: self.misses,
            timing: self.timers.iter_mut().map(|(_, t)| t.end_frame()).collect(),
        });
    }
}

/// Counts the misses among `events`, reads apart from writes.
fn count_misses(misses: &mut MissKinds, events: &[BlockEvent]) {
    for e in events {
        if e.outcome != BlockOutcome::Hit {
            let kind = if e.write {
                &mut misses.write
            } else {
                &mut misses.read
            };
            kind[e.stream.index()] += 1;
        }
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
