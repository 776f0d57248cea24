//! The back end on several threads, by bands of screen rows, with the
//! records of every stamp in the order one thread gives them.
//!
//! A **round** is a run of consecutive back-end jobs (immediate mode: the
//! 4x4 stamps of a front-end batch's triangles; tile by tile: whole tiles),
//! at most [`ROUND_QUADS`] quads. Its jobs are dealt to **groups** of
//! whole bands of rows: a job goes to the group holding its first row.
//! A band is a multiple of the 8x8 HiZ tile high (and tile by tile a
//! multiple of the tile side), so a job's pixels, HiZ entries and tile lie
//! in one band and no two groups share a pixel or a HiZ entry. Each group
//! gets the rows of the draw's targets it covers ([`TargetRows`], disjoint
//! slices of the pixels) and runs its jobs in their order, buffering
//! each job's accesses; then the calling thread sends every job's
//! accesses to the sink in job order.
//!
//! Why the records and pixels do not change: what a job reads and writes
//! (depth, stencil, HiZ, colour of its own pixels) lies in its band, the
//! jobs of one band run in their original order, and everything else a
//! job touches (textures, the draw's buffers and state) is read-only for
//! the draw; its statistics are sums. So each job computes what it
//! computes on one thread, whichever thread runs it, and the records
//! leave in the one-thread order. The cuts between groups (balanced by
//! quads, and depending on the thread count) change nothing but which
//! thread runs a job.

use rayon::prelude::*;

use gfxcache_trace::texreq::TexReqRecord;
use gfxcache_trace::Access;

use crate::state::MAX_TARGETS;
use crate::surface::HIZ_TILE;
use crate::target::{ColorRows, ColorTarget, DepthRows, DepthTarget};

use super::back_end::Scratch;
use super::{ColorId, DepthId};

/// Rows per band in immediate mode: one row of HiZ tiles.
pub(super) const BAND_ROWS: u32 = HIZ_TILE;
/// Most quads in a round: bounds the accesses buffered before they go out.
pub(super) const ROUND_QUADS: usize = 1 << 16;
/// A round of fewer quads runs on the calling thread, straight to the sink
/// (sharing it out would cost more than it saves).
pub(super) const PARALLEL_QUADS: usize = 256;
/// Groups per thread: a thread done early takes another group.
const GROUPS_PER_THREAD: usize = 4;

/// The pixels of one group of bands of a draw's targets: per colour slot,
/// and the depth target's.
#[derive(Default)]
pub(super) struct TargetRows<'a> {
    pub(super) colors: [Option<ColorRows<'a>>; MAX_TARGETS],
    pub(super) depth: Option<DepthRows<'a>>,
}

impl<'a> TargetRows<'a> {
    /// The rows `cuts[k]..cuts[k + 1]` of the targets `color` (by slot) and
    /// `depth` name, one [`TargetRows`] per range.
    pub(super) fn split(
        colors: &'a mut [ColorTarget],
        depths: &'a mut [DepthTarget],
        color: &[ColorId],
        depth: Option<DepthId>,
        cuts: &'a [u32],
    ) -> Vec<TargetRows<'a>> {
        let mut out: Vec<TargetRows> = cuts.windows(2).map(|_| TargetRows::default()).collect();
        for (i, t) in colors.iter_mut().enumerate() {
            let mut slots = color.iter().enumerate().filter(|(_, c)| c.0 == i);
            if let Some((slot, _)) = slots.next() {
                assert!(slots.next().is_none(), "colour target {i} bound twice");
                for (rows, band) in out.iter_mut().zip(t.rows_mut(cuts)) {
                    rows.colors[slot] = Some(band);
                }
            }
        }
        if let Some(d) = depth {
            for (rows, band) in out.iter_mut().zip(depths[d.0].rows_mut(cuts)) {
                rows.depth = Some(band);
            }
        }
        out
    }
}

/// One group's share of a round: its jobs, their accesses, its scratch.
#[derive(Default)]
pub(super) struct Group {
    /// The round's jobs this group runs, in order.
    jobs: Vec<u32>,
    /// Where each job's accesses end in `accesses`, and its texture
    /// requests in the scratch's.
    ends: Vec<u32>,
    request_ends: Vec<u32>,
    accesses: Vec<Access>,
    pub(super) scratch: Scratch,
}

/// The groups of a round and where each job's accesses are. Kept between
/// rounds and draws, so a round allocates nothing once warm.
#[derive(Default)]
pub(super) struct Rounds {
    pub(super) groups: Vec<Group>,
    /// Per job of the round: its group and its place in the group's list.
    place: Vec<(u32, u32)>,
    /// Per band: quads, then its group.
    weight: Vec<u64>,
    group_of: Vec<u32>,
    /// The rows where groups begin, and the height.
    pub(super) cuts: Vec<u32>,
}

impl Rounds {
    /// Deals jobs `0..n` (job `j` in band `band_of(j)` of `band_rows` rows
    /// of a screen `height` rows high, weighing `weight(j)` quads) to at
    /// most `threads * GROUPS_PER_THREAD` groups of whole bands of about
    /// equal weight; the groups' first rows are then [`Rounds::cuts`].
    pub(super) fn plan(
        &mut self,
        n: usize,
        (height, band_rows): (u32, u32),
        threads: usize,
        band_of: impl Fn(usize) -> u32,
        weight: impl Fn(usize) -> u64,
    ) {
        let bands = height.div_ceil(band_rows) as usize;
        self.weight.clear();
        self.weight.resize(bands, 0);
        for j in 0..n {
            self.weight[band_of(j) as usize] += weight(j);
        }
        let total: u64 = self.weight.iter().sum();
        let wanted = (threads * GROUPS_PER_THREAD) as u64;
        self.cuts.clear();
        self.cuts.push(0);
        self.group_of.clear();
        let (mut sum, mut next) = (0u64, 1u64);
        for (b, &w) in self.weight.iter().enumerate() {
            self.group_of.push(self.cuts.len() as u32 - 1);
            sum += w;
            let end = ((b as u32 + 1) * band_rows).min(height);
            if next < wanted && sum * wanted >= total * next && end < height && w > 0 {
                self.cuts.push(end);
                while next < wanted && sum * wanted >= total * next {
                    next += 1;
                }
            }
        }
        self.cuts.push(height);
        let groups = self.cuts.len() - 1;
        if self.groups.len() < groups {
            self.groups.resize_with(groups, Group::default);
        }
        for g in &mut self.groups[..groups] {
            g.jobs.clear();
        }
        self.place.clear();
        for j in 0..n {
            let g = self.group_of[band_of(j) as usize];
            let jobs = &mut self.groups[g as usize].jobs;
            self.place.push((g, jobs.len() as u32));
            jobs.push(j as u32);
        }
    }

    /// Runs every group's jobs in order, `work(job, rows, accesses,
    /// scratch)` with `rows[g]` (the pixels of group `g`'s bands), the
    /// groups in parallel on `pool`.
    pub(super) fn run<V: Send>(
        groups: &mut [Group],
        rows: Vec<V>,
        pool: &rayon::ThreadPool,
        work: impl Fn(usize, &mut V, &mut Vec<Access>, &mut Scratch) + Sync,
    ) {
        pool.install(|| {
            groups
                .par_iter_mut()
                .zip(rows)
                .with_max_len(1)
                .for_each(|(g, mut rows)| {
                    g.accesses.clear();
                    g.ends.clear();
                    g.request_ends.clear();
                    g.scratch.requests.clear();
                    for &j in &g.jobs {
                        work(j as usize, &mut rows, &mut g.accesses, &mut g.scratch);
                        g.ends.push(g.accesses.len() as u32);
                        g.request_ends.push(g.scratch.requests.len() as u32);
                    }
                })
        });
    }

    /// The accesses job `j` of the last round run made.
    pub(super) fn accesses(&self, j: usize) -> &[Access] {
        let (g, k) = self.place[j];
        let g = &self.groups[g as usize];
        let start = if k == 0 { 0 } else { g.ends[k as usize - 1] };
        &g.accesses[start as usize..g.ends[k as usize] as usize]
    }

    /// The texture requests job `j` of the last round run recorded.
    pub(super) fn requests(&self, j: usize) -> &[TexReqRecord] {
        let (g, k) = self.place[j];
        let g = &self.groups[g as usize];
        let start = if k == 0 {
            0
        } else {
            g.request_ends[k as usize - 1]
        };
        &g.scratch.requests[start as usize..g.request_ends[k as usize] as usize]
    }
}
