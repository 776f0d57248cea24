//! What a policy learned while the frame went by: its counters (GSPC's
//! PROD and CONS, summed over the banks; DRRIP's PSEL) and the RRPVs it
//! inserted each stream's fills at, sampled every few thousand LLC
//! accesses and gathered by render pass.
//!
//! The paper explains GSPC's gain by what its counters learn; a reader
//! who wants to know why it wins or loses on a frame needs to see them
//! move against the passes that produce and consume render targets. A
//! [`Recorder`] rides on one run of the study: the run cuts its accesses
//! at every pass start, frame end and `step` accesses, and the recorder
//! takes a [`TimelinePoint`] at each cut. Points never straddle a pass, so
//! a pass's figures ([`PassSpan`]) are the sums of its points.

use serde::Serialize;

use gfxcache_cache::{CacheSim, Reuse, RRPV_BANDS};
use gfxcache_trace::{PassKind, Stream};

/// Which runs keep a timeline, and how finely.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimelineConfig {
    /// Policy specs, at the main size; each must be one of the study's runs.
    pub policies: Vec<String>,
    /// Trace accesses between two points (a point is also taken at every
    /// pass start and frame end).
    pub step: u64,
}

impl Default for TimelineConfig {
    /// GSPC, the DRRIP it is compared with, and GSPZTC+TSE (GSPC without
    /// PROD/CONS), every 32 Ki accesses: about 250 counter halvings per
    /// bank at the paper's ACC(ALL) of 7 bits, so each point sees the
    /// counters after a few learning windows, and a 1080p frame gives a
    /// few hundred points.
    fn default() -> TimelineConfig {
        TimelineConfig {
            policies: ["gspc", "drrip", "gspztc-tse"].map(String::from).to_vec(),
            step: 32 * 1024,
        }
    }
}

/// The policy counters a timeline follows, when the policy has them.
const STATE: &[&str] = &[
    "prod", "cons", "psel", "fill_z", "hit_z", "fill_0", "hit_0", "fill_1", "hit_1", "fill_tex",
    "hit_tex",
];

/// What happened to a run between two moments.
#[derive(Serialize, serde::Deserialize, Clone, Debug, Default, PartialEq, Eq)]
pub struct Interval {
    /// Block accesses, and the misses among them: reads (the LLC must
    /// fetch the block from memory) apart from writes (the render caches
    /// write whole 64 B lines back, so a write miss fetches nothing).
    pub accesses: u64,
    pub read_misses: u64,
    pub write_misses: u64,
    /// Fills of render-target (`rt` and `display`), texture and depth
    /// lines by insertion RRPV counted down from the largest (for two-bit
    /// RRPVs: RRPV 3, 2, 1, 0).
    pub rt_fills_by_rrpv: [u64; RRPV_BANDS],
    pub tex_fills_by_rrpv: [u64; RRPV_BANDS],
    pub z_fills_by_rrpv: [u64; RRPV_BANDS],
    /// Render-target lines the sampler consumed from the LLC (RT -> TEX).
    pub rt_consumed: u64,
}

impl Interval {
    fn add(&mut self, o: &Interval) {
        self.accesses += o.accesses;
        self.read_misses += o.read_misses;
        self.write_misses += o.write_misses;
        for b in 0..RRPV_BANDS {
            self.rt_fills_by_rrpv[b] += o.rt_fills_by_rrpv[b];
            self.tex_fills_by_rrpv[b] += o.tex_fills_by_rrpv[b];
            self.z_fills_by_rrpv[b] += o.z_fills_by_rrpv[b];
        }
        self.rt_consumed += o.rt_consumed;
    }

    /// The share of render-target fills inserted at the largest RRPV.
    pub fn rt_fills_at_max(&self) -> f64 {
        gfxcache_cache::stats::ratio(self.rt_fills_by_rrpv[0], self.rt_fills_by_rrpv.iter().sum())
    }
}

/// One sample of a run.
#[derive(Serialize, serde::Deserialize, Clone, Debug)]
pub struct TimelinePoint {
    /// The frame (from 0, warm-up frames included) and the pass (an index
    /// into [`Timeline::passes`]) the interval belongs to.
    pub frame: u32,
    pub pass: u32,
    /// Block accesses of the run so far, when the point was taken.
    pub at: u64,
    /// The policy's counters then, named by [`Timeline::state`].
    pub state: Vec<f64>,
    /// Since the previous point.
    pub interval: Interval,
}

/// One render pass of one frame, as a run saw it.
#[derive(Serialize, serde::Deserialize, Clone, Debug)]
pub struct PassSpan {
    pub frame: u32,
    pub name: String,
    pub kind: String,
    /// Its points, `first_point..first_point + points`.
    pub first_point: u32,
    pub points: u32,
    /// The pass's accesses, misses, fills and consumption.
    pub totals: Interval,
    /// The policy's counters at the end of the pass, and their mean over
    /// its points, named by [`Timeline::state`].
    pub state_end: Vec<f64>,
    pub state_mean: Vec<f64>,
}

/// The timeline of one run.
#[derive(Serialize, serde::Deserialize, Clone, Debug)]
pub struct Timeline {
    pub policy: String,
    pub size: u64,
    pub step: u64,
    /// The names of the counters in every `state`: those of [`STATE`]
    /// the policy reports (PROD and CONS are summed over the banks).
    pub state: Vec<String>,
    pub passes: Vec<PassSpan>,
    pub points: Vec<TimelinePoint>,
}

/// Read and write misses per stream, counted by the run from its events.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MissKinds {
    pub read: [u64; Stream::COUNT],
    pub write: [u64; Stream::COUNT],
}

impl MissKinds {
    pub fn read_total(&self) -> u64 {
        self.read.iter().sum()
    }

    pub fn write_total(&self) -> u64 {
        self.write.iter().sum()
    }

    pub fn since(&self, earlier: &MissKinds) -> MissKinds {
        MissKinds {
            read: std::array::from_fn(|i| self.read[i] - earlier.read[i]),
            write: std::array::from_fn(|i| self.write[i] - earlier.write[i]),
        }
    }
}

/// Builds a run's [`Timeline`] as the run goes.
pub(super) struct Recorder {
    step: u64,
    /// Trace accesses since the last point.
    pending: u64,
    frame: u32,
    timeline: Timeline,
    last_reuse: Reuse,
    last_misses: MissKinds,
    last_at: u64,
}

impl Recorder {
    pub(super) fn new(policy: String, size: u64, step: u64, cache: &dyn CacheSim) -> Recorder {
        let reported = cache.report();
        let state = STATE
            .iter()
            .filter(|n| reported.iter().any(|(k, _)| k == *n))
            .map(|n| n.to_string())
            .collect();
        Recorder {
            step: step.max(1),
            pending: 0,
            frame: 0,
            timeline: Timeline {
                policy,
                size,
                step,
                state,
                passes: Vec::new(),
                points: Vec::new(),
            },
            last_reuse: Reuse::default(),
            last_misses: MissKinds::default(),
            last_at: 0,
        }
    }

    /// How many more trace accesses fit before the next point.
    pub(super) fn room(&self) -> usize {
        (self.step - self.pending) as usize
    }

    /// `n` trace accesses went through the cache: a point if the step is full.
    pub(super) fn advance(&mut self, n: usize, cache: &dyn CacheSim, misses: &MissKinds) {
        self.pending += n as u64;
        if self.pending >= self.step {
            self.point(cache, misses);
        }
    }

    /// A pass begins: the previous one's last point is taken.
    pub(super) fn begin_pass(
        &mut self,
        name: &str,
        kind: PassKind,
        cache: &dyn CacheSim,
        misses: &MissKinds,
    ) {
        self.point(cache, misses);
        self.open_pass(name.to_string(), kind.name().to_string());
    }

    /// A frame ends: its last point is taken, and accesses before the
    /// next frame's first pass belong to no pass of it.
    pub(super) fn end_frame(&mut self, cache: &dyn CacheSim, misses: &MissKinds) {
        self.point(cache, misses);
        self.frame += 1;
        self.timeline
            .passes
            .push(self.span("(between frames)".into(), String::new()));
    }

    pub(super) fn finish(mut self, cache: &dyn CacheSim, misses: &MissKinds) -> Timeline {
        self.point(cache, misses);
        let t = &mut self.timeline;
        t.passes.retain(|p| p.points > 0);
        // Points name their pass by index: renumber after dropping the
        // empty ones.
        for (k, p) in t.passes.iter().enumerate() {
            for pt in &mut t.points[p.first_point as usize..(p.first_point + p.points) as usize] {
                pt.pass = k as u32;
            }
        }
        for p in &mut t.passes {
            let points = &t.points[p.first_point as usize..(p.first_point + p.points) as usize];
            p.state_mean = (0..t.state.len())
                .map(|i| points.iter().map(|pt| pt.state[i]).sum::<f64>() / points.len() as f64)
                .collect();
        }
        self.timeline
    }

    fn span(&self, name: String, kind: String) -> PassSpan {
        PassSpan {
            frame: self.frame,
            name,
            kind,
            first_point: self.timeline.points.len() as u32,
            points: 0,
            totals: Interval::default(),
            state_end: Vec::new(),
            state_mean: Vec::new(),
        }
    }

    fn open_pass(&mut self, name: String, kind: String) {
        let span = self.span(name, kind);
        self.timeline.passes.push(span);
    }

    /// A point for the accesses since the last one, if there were any.
    fn point(&mut self, cache: &dyn CacheSim, misses: &MissKinds) {
        let at = cache.stats().total().accesses;
        if self.pending == 0 && at == self.last_at {
            return;
        }
        if self.timeline.passes.is_empty() {
            self.open_pass("(before the first pass)".into(), String::new());
        }
        let reuse = cache.reuse().unwrap_or_default();
        let d = reuse.since(&self.last_reuse);
        let m = misses.since(&self.last_misses);
        let band = |s: &[Stream]| -> [u64; RRPV_BANDS] {
            std::array::from_fn(|b| s.iter().map(|s| d.fills_by_rrpv[s.index()][b]).sum())
        };
        let interval = Interval {
            accesses: at - self.last_at,
            read_misses: m.read_total(),
            write_misses: m.write_total(),
            rt_fills_by_rrpv: band(&[Stream::Rt, Stream::Display]),
            tex_fills_by_rrpv: band(&[Stream::Tex]),
            z_fills_by_rrpv: band(&[Stream::Z]),
            rt_consumed: d.rt_consumed,
        };
        let reported = cache.report();
        let state: Vec<f64> = self
            .timeline
            .state
            .iter()
            .map(|n| {
                reported
                    .iter()
                    .find(|(k, _)| k == n)
                    .map_or(0.0, |(_, v)| *v)
            })
            .collect();
        let pass = self.timeline.passes.len() as u32 - 1;
        let span = self.timeline.passes.last_mut().expect("a pass is open");
        span.points += 1;
        span.totals.add(&interval);
        span.state_end = state.clone();
        self.timeline.points.push(TimelinePoint {
            frame: self.frame,
            pass,
            at,
            state,
            interval,
        });
        self.last_reuse = reuse;
        self.last_misses = *misses;
        self.last_at = at;
        self.pending = 0;
    }
}
