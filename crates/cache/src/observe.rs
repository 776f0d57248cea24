//! The reuse analyses of the GSPC paper's Section 2 (Gaur et al. MICRO'13),
//! for any policy: [`Observed`] wraps a policy, forwards every call to it
//! unchanged and watches what happens to each line.
//!
//! Kinds of line, after the paper:
//! - a *render-target* line carries the paper's RT bit: set when a `rt` or
//!   `display` access fills or hits it (displayable colour is a render
//!   target), cleared when the texture sampler consumes it from the cache
//!   (an *inter-stream* hit, RT -> TEX) or when it is evicted;
//! - a *texture* line is one the sampler filled, or consumed from a render
//!   target; it enters epoch E0 then, and each further texture hit moves it
//!   to the next epoch (E_k lies between its k-th and (k+1)-th hit); a
//!   texture hit on a line of any other kind (a depth buffer sampled as a
//!   shadow map, say) is an intra-stream hit, as the paper counts it, and
//!   the line becomes a texture line in E0;
//! - a *depth* line is one a `z` access filled; its `z` hits move it through
//!   epochs the same way.
//!
//! The death ratio of E_k is `(|E_k| - |E_{k+1}|) / |E_k|`, where `|E_k|` is
//! how many lines ever entered E_k: the paper's definition. Lines still
//! resident when the run ends count as dying in their epoch; [`Reuse`] also
//! reports how many there were, so that a reader can tell.
//!
//! Epochs E0, E1, E2 are kept apart and E3 stands for every later epoch.
//!
//! The wrapper also counts, per stream, the RRPVs a policy of the RRIP
//! family inserted its fills at (the paper's Figure 8 is the share at the
//! largest RRPV).

use crate::stats::ratio;
use gfxcache_trace::Stream;
use serde::Serialize;

use crate::error::CacheError;
use crate::geometry::Geometry;
use crate::policy::{Ctx, Env, Policy};
use crate::spec::Params;

/// Epochs kept apart; the last one gathers every later epoch.
pub const EPOCHS: usize = 4;

/// Insertion RRPVs kept apart, counted down from the largest: the largest,
/// one below, two below, and every lower one together (for two-bit RRPVs:
/// 3, 2, 1, 0).
pub const RRPV_BANDS: usize = 4;

/// What the wrapper found, for one run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Reuse {
    /// Texture hits on render-target lines (RT -> TEX consumption).
    pub tex_hits_inter: u64,
    /// Every other texture hit.
    pub tex_hits_intra: u64,
    /// Times a line took the RT bit (a render-target fill, or a
    /// render-target access to a line without it).
    pub rt_produced: u64,
    /// Render-target lines the texture sampler consumed from the cache.
    pub rt_consumed: u64,
    /// Texture hits on texture lines, by the epoch the line was in.
    pub tex_hits_by_epoch: [u64; EPOCHS],
    /// Texture lines that entered each epoch (`|E_k|`).
    pub tex_epoch_entries: [u64; EPOCHS],
    /// Texture lines in each epoch when the run ended.
    pub tex_epoch_resident: [u64; EPOCHS],
    /// Depth hits on depth lines, by epoch.
    pub z_hits_by_epoch: [u64; EPOCHS],
    pub z_epoch_entries: [u64; EPOCHS],
    pub z_epoch_resident: [u64; EPOCHS],
    /// Fills per stream (by [`Stream::index`]).
    pub fills: [u64; Stream::COUNT],
    /// Fills per stream by insertion RRPV, `[stream][max - rrpv]` with the
    /// last band gathering every lower RRPV ([`RRPV_BANDS`]); all zero for
    /// policies without RRPVs.
    pub fills_by_rrpv: [[u64; RRPV_BANDS]; Stream::COUNT],
    /// Whether the policy has RRPVs ([`Policy::rrpv`] answered).
    pub has_rrpv: bool,
}

impl Reuse {
    /// The fraction of render-target lines the sampler consumed from the
    /// cache (the paper's Figure 6, lower panel).
    pub fn rt_consumed_fraction(&self) -> f64 {
        ratio(self.rt_consumed, self.rt_produced)
    }

    /// Death ratio of each epoch but the last, texture lines (Figure 7).
    pub fn tex_death_ratios(&self) -> [f64; EPOCHS - 1] {
        death_ratios(&self.tex_epoch_entries)
    }

    /// Death ratio of each epoch but the last, depth lines (Figure 9).
    pub fn z_death_ratios(&self) -> [f64; EPOCHS - 1] {
        death_ratios(&self.z_epoch_entries)
    }

    /// What happened since `earlier`, a snapshot of the same run taken
    /// before (the end of a warm-up, say): every count is the difference;
    /// the lines resident in each epoch are those at the end, as they are
    /// for a whole run. A line that entered E0 before `earlier` and E1
    /// after it counts in E1's entries but not in E0's, so a window's
    /// death ratios are those of the lines that moved within it (and
    /// [`Reuse::tex_death_ratios`] never goes below 0).
    pub fn since(&self, earlier: &Reuse) -> Reuse {
        let minus = |a: [u64; EPOCHS], b: [u64; EPOCHS]| std::array::from_fn(|k| a[k] - b[k]);
        Reuse {
            tex_hits_inter: self.tex_hits_inter - earlier.tex_hits_inter,
            tex_hits_intra: self.tex_hits_intra - earlier.tex_hits_intra,
            rt_produced: self.rt_produced - earlier.rt_produced,
            rt_consumed: self.rt_consumed - earlier.rt_consumed,
            tex_hits_by_epoch: minus(self.tex_hits_by_epoch, earlier.tex_hits_by_epoch),
            tex_epoch_entries: minus(self.tex_epoch_entries, earlier.tex_epoch_entries),
            tex_epoch_resident: self.tex_epoch_resident,
            z_hits_by_epoch: minus(self.z_hits_by_epoch, earlier.z_hits_by_epoch),
            z_epoch_entries: minus(self.z_epoch_entries, earlier.z_epoch_entries),
            z_epoch_resident: self.z_epoch_resident,
            fills: std::array::from_fn(|i| self.fills[i] - earlier.fills[i]),
            fills_by_rrpv: std::array::from_fn(|i| {
                std::array::from_fn(|b| self.fills_by_rrpv[i][b] - earlier.fills_by_rrpv[i][b])
            }),
            has_rrpv: self.has_rrpv,
        }
    }

    /// Fills of `stream` inserted at the largest RRPV (the first band).
    pub fn fills_at_max_rrpv(&self, stream: Stream) -> u64 {
        self.fills_by_rrpv[stream.index()][0]
    }

    /// Fraction of the fills of `stream` inserted at the largest RRPV (Figure 8).
    pub fn fills_at_max_fraction(&self, stream: Stream) -> f64 {
        ratio(self.fills_at_max_rrpv(stream), self.fills[stream.index()])
    }
}

fn death_ratios(entries: &[u64; EPOCHS]) -> [f64; EPOCHS - 1] {
    std::array::from_fn(|k| ratio(entries[k].saturating_sub(entries[k + 1]), entries[k]))
}

/// What the wrapper knows of a line: its kind in the high bits, its epoch
/// in the low two.
#[derive(Clone, Copy)]
struct Line(u8);

const NONE: u8 = 0;
const RT: u8 = 1 << 2;
const TEX: u8 = 2 << 2;
const Z: u8 = 3 << 2;
const KIND: u8 = 3 << 2;

impl Line {
    fn kind(self) -> u8 {
        self.0 & KIND
    }
    fn epoch(self) -> usize {
        usize::from(self.0 & 3)
    }
}

/// Policy `P` with the reuse analyses beside it. Behaves exactly as `P`.
pub struct Observed<P> {
    inner: P,
    ways: usize,
    lines: Vec<Line>,
    tally: Reuse,
}

fn is_rt(s: Stream) -> bool {
    matches!(s, Stream::Rt | Stream::Display)
}

impl<P: Policy> Observed<P> {
    fn line(&mut self, ctx: &Ctx, way: usize) -> &mut Line {
        &mut self.lines[ctx.set * self.ways + way]
    }

    /// The line of `way` enters epoch `epoch` as a line of `kind`.
    fn enter(&mut self, ctx: &Ctx, way: usize, kind: u8, epoch: usize) {
        let entries = match kind {
            TEX => &mut self.tally.tex_epoch_entries,
            _ => &mut self.tally.z_epoch_entries,
        };
        entries[epoch] += 1;
        *self.line(ctx, way) = Line(kind | epoch as u8);
    }

    /// A hit moves a line of epoch `epoch` to the next one; the last
    /// epoch gathers all later ones, so a line stays there.
    fn promote(&mut self, ctx: &Ctx, way: usize, kind: u8, epoch: usize) {
        if epoch + 1 < EPOCHS {
            self.enter(ctx, way, kind, epoch + 1);
        }
    }

    fn make_rt(&mut self, ctx: &Ctx, way: usize) {
        self.tally.rt_produced += 1;
        *self.line(ctx, way) = Line(RT);
    }
}

impl<P: Policy> Policy for Observed<P> {
    const NEEDS_NEXT_USE: bool = P::NEEDS_NEXT_USE;

    fn build(params: &mut Params, geom: &Geometry, env: &Env) -> Result<Self, CacheError> {
        Ok(Observed {
            inner: P::build(params, geom, env)?,
            ways: geom.ways as usize,
            lines: crate::table::filled(geom.blocks(), Line(NONE), "the reuse analyses' lines")?,
            tally: Reuse::default(),
        })
    }

    fn notes(params: &mut Params, geom: &Geometry) -> Result<Vec<String>, CacheError> {
        P::notes(params, geom)
    }

    fn hit(&mut self, ctx: &Ctx, way: usize) {
        let line = *self.line(ctx, way);
        match ctx.stream {
            Stream::Tex => match line.kind() {
                RT => {
                    self.tally.tex_hits_inter += 1;
                    self.tally.rt_consumed += 1;
                    self.enter(ctx, way, TEX, 0);
                }
                TEX => {
                    let e = line.epoch();
                    self.tally.tex_hits_intra += 1;
                    self.tally.tex_hits_by_epoch[e] += 1;
                    self.promote(ctx, way, TEX, e);
                }
                _ => {
                    self.tally.tex_hits_intra += 1;
                    self.enter(ctx, way, TEX, 0);
                }
            },
            s if is_rt(s) && line.kind() != RT => self.make_rt(ctx, way),
            Stream::Z if line.kind() == Z => {
                let e = line.epoch();
                self.tally.z_hits_by_epoch[e] += 1;
                self.promote(ctx, way, Z, e);
            }
            _ => {}
        }
        self.inner.hit(ctx, way);
    }

    fn victim(&mut self, ctx: &Ctx) -> Option<usize> {
        self.inner.victim(ctx)
    }

    fn fill(&mut self, ctx: &Ctx, way: usize) {
        self.inner.fill(ctx, way);
        match ctx.stream {
            Stream::Tex => self.enter(ctx, way, TEX, 0),
            Stream::Z => self.enter(ctx, way, Z, 0),
            s if is_rt(s) => self.make_rt(ctx, way),
            _ => *self.line(ctx, way) = Line(NONE),
        }
        let s = ctx.stream.index();
        self.tally.fills[s] += 1;
        if let Some((v, max)) = self.inner.rrpv(ctx.set, way) {
            self.tally.has_rrpv = true;
            let band = usize::from(max.saturating_sub(v)).min(RRPV_BANDS - 1);
            self.tally.fills_by_rrpv[s][band] += 1;
        }
    }

    fn evict(&mut self, ctx: &Ctx, way: usize) {
        *self.line(ctx, way) = Line(NONE);
        self.inner.evict(ctx, way);
    }

    fn bypass(&mut self, ctx: &Ctx) {
        self.inner.bypass(ctx);
    }

    fn report(&self) -> Vec<(&'static str, f64)> {
        self.inner.report()
    }

    fn rrpv(&self, set: usize, way: usize) -> Option<(u8, u8)> {
        self.inner.rrpv(set, way)
    }

    fn reuse(&self) -> Option<Reuse> {
        let mut r = self.tally.clone();
        for line in &self.lines {
            match line.kind() {
                TEX => r.tex_epoch_resident[line.epoch()] += 1,
                Z => r.z_epoch_resident[line.epoch()] += 1,
                _ => {}
            }
        }
        Some(r)
    }
}
