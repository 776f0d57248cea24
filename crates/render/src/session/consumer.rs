//! The consumer side of a session: stage, pipeline tally, caches, output
//! tally, sink (see the module documentation of [`super`]).

use gfxcache_trace::binned::BinnedPass;
use gfxcache_trace::{Access, Marker, Record, RecordSink, RecordStage};

use crate::frame::StreamCounts;
use crate::render_caches::{RenderCacheStats, RenderCaches};
use crate::tbr_caches::{TbrCacheConfig, TbrCaches};

use super::{Mode, RenderRequest};

/// The name under which accesses outside every pass are counted (the
/// render caches' write-backs at a frame's end).
pub(super) const OUTSIDE: &str = "(flush)";

/// Accesses per pass name (in order of first appearance) and stream; those
/// outside passes under [`OUTSIDE`].
pub(super) struct PassTally {
    pub(super) per_pass: Vec<(String, StreamCounts)>,
    current: usize,
}

impl PassTally {
    fn new() -> PassTally {
        PassTally {
            per_pass: vec![(OUTSIDE.to_string(), StreamCounts::default())],
            current: 0,
        }
    }

    #[inline]
    fn take(&mut self, r: &Record) {
        match r {
            Record::Access(a) => self.per_pass[self.current].1.add(a),
            Record::Marker(Marker::PassBegin { name, .. }) => {
                self.current = match self.per_pass.iter().position(|p| &p.0 == name) {
                    Some(i) => i,
                    None => {
                        self.per_pass.push((name.clone(), StreamCounts::default()));
                        self.per_pass.len() - 1
                    }
                };
            }
            Record::Marker(Marker::PassEnd) => self.current = 0,
            _ => {}
        }
    }

    /// [`PassTally::take`] of a run of accesses: one pass counts them all.
    #[inline]
    fn take_accesses(&mut self, accesses: &[Access]) {
        self.per_pass[self.current].1.add_all(accesses);
    }

    /// The counts of the pass named `name` (zero if it never ran).
    pub(super) fn of(&self, name: &str) -> StreamCounts {
        self.per_pass
            .iter()
            .find(|p| p.0 == name)
            .map(|p| p.1)
            .unwrap_or_default()
    }

    /// Every pass together.
    pub(super) fn total(&self) -> StreamCounts {
        let mut t = StreamCounts::default();
        for (_, c) in &self.per_pass {
            t.merge(c);
        }
        t
    }
}

/// The output tally in front of the caller's sink.
struct Tallied<S> {
    tally: PassTally,
    sink: S,
}

impl<S: RecordSink> RecordSink for Tallied<S> {
    #[inline]
    fn record(&mut self, r: Record) {
        self.tally.take(&r);
        self.sink.record(r);
    }

    #[inline]
    fn accesses(&mut self, accesses: &[Access]) {
        self.tally.take_accesses(accesses);
        self.sink.accesses(accesses);
    }

    fn binned(&mut self, pass: &BinnedPass) {
        self.sink.binned(pass);
    }
}

/// The caches of the mode, in front of the output tally.
enum Caches<S> {
    Raw(Tallied<S>),
    Imr(Box<RenderCaches<Tallied<S>>>),
    Tbr(Box<TbrCaches<Tallied<S>>>),
}

impl<S: RecordSink> Caches<S> {
    /// Each cache's name and counters, in the order of the summary.
    fn stats(&self) -> Vec<(String, RenderCacheStats)> {
        match self {
            Caches::Raw(_) => Vec::new(),
            Caches::Imr(c) => c
                .stats()
                .into_iter()
                .map(|(n, s)| (n.to_string(), s))
                .collect(),
            Caches::Tbr(c) => {
                let mut stats = vec![("vertex".to_string(), c.vertex_stats())];
                stats.extend(
                    c.texture_stats()
                        .iter()
                        .enumerate()
                        .map(|(i, s)| (format!("tex-fp{i}"), *s)),
                );
                stats
            }
        }
    }
}

/// Everything behind the stage.
struct Behind<S> {
    pipeline: PassTally,
    caches: Caches<S>,
    /// Each cache's accesses at every `FrameEnd` so far (after the caches
    /// took it: the render caches' frame-end flush is the frame's).
    frame_ends: Vec<Vec<u64>>,
}

impl<S: RecordSink> RecordSink for Behind<S> {
    #[inline]
    fn record(&mut self, r: Record) {
        self.pipeline.take(&r);
        let frame_ends = matches!(r, Record::Marker(Marker::FrameEnd { .. }));
        match &mut self.caches {
            Caches::Raw(t) => t.record(r),
            Caches::Imr(c) => c.record(r),
            Caches::Tbr(c) => c.record(r),
        }
        if frame_ends {
            let accesses = self
                .caches
                .stats()
                .iter()
                .map(|(_, s)| s.accesses)
                .collect();
            self.frame_ends.push(accesses);
        }
    }

    #[inline]
    fn accesses(&mut self, accesses: &[Access]) {
        self.pipeline.take_accesses(accesses);
        match &mut self.caches {
            Caches::Raw(t) => t.accesses(accesses),
            Caches::Imr(c) => c.accesses(accesses),
            Caches::Tbr(c) => c.accesses(accesses),
        }
    }

    fn binned(&mut self, pass: &BinnedPass) {
        match &mut self.caches {
            Caches::Raw(t) => t.binned(pass),
            Caches::Imr(c) => c.binned(pass),
            Caches::Tbr(c) => c.binned(pass),
        }
    }
}

/// The consumer side of a session.
pub(super) struct Consumer<T, S> {
    stage: T,
    behind: Behind<S>,
}

/// What the consumer side counted.
pub(super) struct Consumed {
    /// What the pipeline (and the stage) sent, per pass.
    pub(super) pipeline: PassTally,
    /// What left the caches, per pass.
    pub(super) output: PassTally,
    /// Each cache's name and counters, in the order of the summary.
    pub(super) caches: Vec<(String, RenderCacheStats)>,
    /// Tile by tile: each fragment processor's texture cache.
    pub(super) tex_per_fp: Vec<RenderCacheStats>,
    /// Each cache's accesses in each frame, in the order of `caches`.
    pub(super) per_frame: Vec<Vec<u64>>,
}

impl<T: RecordStage, S: RecordSink> Consumer<T, S> {
    pub(super) fn new(request: &RenderRequest, stage: T, sink: S) -> Consumer<T, S> {
        let out = Tallied {
            tally: PassTally::new(),
            sink,
        };
        let caches = match (request.raw, request.mode) {
            (true, _) => Caches::Raw(out),
            (false, Mode::Imr) => Caches::Imr(Box::new(RenderCaches::with_config(
                &request.imr_caches.unwrap_or_default(),
                out,
            ))),
            (false, Mode::Tbr(t)) => {
                let l1 = request.tbr_caches.unwrap_or(TbrCacheConfig::table_i(t.fps));
                let l1 = TbrCacheConfig { fps: t.fps, ..l1 };
                Caches::Tbr(Box::new(TbrCaches::new(&l1, out)))
            }
        };
        Consumer {
            stage,
            behind: Behind {
                pipeline: PassTally::new(),
                caches,
                frame_ends: Vec::new(),
            },
        }
    }

    /// The counters, and the stage and the sink back.
    pub(super) fn finish(self) -> (Consumed, T, S) {
        let Behind {
            pipeline,
            caches,
            frame_ends,
        } = self.behind;
        let stats = caches.stats();
        let per_frame = (0..stats.len())
            .map(|i| {
                let mut before = 0;
                frame_ends
                    .iter()
                    .map(|end| {
                        let n = end[i] - before;
                        before = end[i];
                        n
                    })
                    .collect()
            })
            .collect();
        let (tex_per_fp, out) = match caches {
            Caches::Raw(out) => (Vec::new(), out),
            Caches::Imr(c) => (Vec::new(), c.into_inner()),
            Caches::Tbr(c) => (c.texture_stats(), c.into_inner()),
        };
        let consumed = Consumed {
            pipeline,
            output: out.tally,
            caches: stats,
            tex_per_fp,
            per_frame,
        };
        (consumed, self.stage, out.sink)
    }
}

impl<T: RecordStage, S: RecordSink> RecordSink for Consumer<T, S> {
    #[inline]
    fn record(&mut self, r: Record) {
        self.stage.record(r, &mut self.behind);
    }

    #[inline]
    fn accesses(&mut self, accesses: &[Access]) {
        self.stage.accesses(accesses, &mut self.behind);
    }

    fn binned(&mut self, pass: &BinnedPass) {
        self.stage.binned(pass, &mut self.behind);
    }
}
