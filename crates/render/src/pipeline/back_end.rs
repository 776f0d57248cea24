//! The back end of a draw: per 4x4 stamp of a triangle's quads, HiZ,
//! early or late Z, stencil, the fragment shader and the colour stage
//! (blending, write masks, up to 8 targets), with each surface's 64 B
//! blocks accessed once per stamp (see the order of records in
//! [`super`]'s documentation).
//!
//! [`stamp`] works on the rows of the targets it is given
//! ([`TargetRows`]) and appends its accesses to a buffer, so that the
//! stamps of different bands of the screen can run on different threads
//! ([`super::bands`]); in immediate mode [`Pipeline::back_end`] runs a
//! front-end batch's stamps in rounds, on the calling thread or shared
//! out, and sends the records in triangle and stamp order either way.

use gfxcache_trace::binned::is_tile_buffer;
use gfxcache_trace::texreq::TexReqRecord;
use gfxcache_trace::{Access, Op, Record, RecordSink, Stream};

use crate::buffers::MAX_ATTRS;
use crate::raster::Quad;
use crate::state::{CompareFunc, State, StencilOp, MAX_TARGETS};
use crate::surface::{HizSurface, Surface, BLOCK_BYTES, HIZ_TILE};
use crate::target::{ColorTarget, DepthTarget};

use super::bands::{Rounds, TargetRows, BAND_ROWS, PARALLEL_QUADS, ROUND_QUADS};
use super::front_end::FrontBatch;
use super::hsr::Hsr;
use super::path::QuadPath;
use super::work::Options;
use super::{
    unit_of, ColorId, Draw, FragmentOutput, FragmentShader, Fragments, Pipeline, ShaderWork, Stats,
    STAMP,
};

/// Most quads of one triangle in one stamp (a clipped triangle's fan can
/// put more than four there).
const MAX_STAMP_QUADS: usize = 64;

pub(super) fn access(addr: u64, stream: Stream, op: Op, unit: u16) -> Record {
    Record::Access(block(addr, stream, op, unit))
}

fn block(addr: u64, stream: Stream, op: Op, unit: u16) -> Access {
    Access {
        addr,
        size: BLOCK_BYTES as u32,
        unit,
        stream,
        op,
    }
}

/// Distinct blocks of `surface` the live pixels of `quads` touch, in order
/// of first touch (a 4x4 stamp touches at most 4).
fn stamp_blocks(surface: &Surface, quads: &[Quad], masks: &[u8], out: &mut [u64; 16]) -> usize {
    // Every tile shape has even sides and quads sit at even pixels, so a
    // quad's four pixels share one block: one address computation per quad
    // (any live pixel gives it).
    let (tw, th) = surface.format.tile_shape();
    debug_assert!(tw % 2 == 0 && th % 2 == 0, "odd tile shape {tw}x{th}");
    let mut n = 0;
    for (q, &m) in quads.iter().zip(masks) {
        if m != 0 {
            let (x, y) = q.pixel(m.trailing_zeros() as usize);
            let b = surface.block_of(x, y);
            if !out[..n].contains(&b) {
                out[n] = b;
                n += 1;
            }
        }
    }
    n
}

/// Where a depth target's blocks are.
struct DepthBlocks {
    surface: Surface,
    stencil: Option<Surface>,
    hiz: HizSurface,
}

/// What the back end needs of one draw besides its targets' pixels: its
/// state and shader, what they switch on, and where its targets' blocks
/// are. Read-only, shared by the threads running the draw's stamps.
pub(super) struct StampSetup<'d> {
    state: State,
    shader: &'d dyn FragmentShader,
    late: bool,
    discards: bool,
    depth_on: bool,
    stencil_on: bool,
    use_hiz: bool,
    /// Tile by tile: depth, stencil, HiZ and colour are in tile buffers on
    /// chip, so their accesses are not made.
    on_chip: bool,
    /// Per colour slot: the target's surface and stream.
    colors: [Option<(Surface, Stream)>; MAX_TARGETS],
    depth: Option<DepthBlocks>,
    /// The draw's program and the variant its shader runs.
    work: ShaderWork,
    options: Options,
    /// Whether its texture requests are recorded.
    record: bool,
}

impl<'d> StampSetup<'d> {
    pub(super) fn new(
        draw: &Draw<'d>,
        colors: &[ColorTarget],
        depths: &[DepthTarget],
        on_chip: bool,
        record: bool,
    ) -> StampSetup<'d> {
        let st = draw.state;
        let late = draw.shader.writes_depth() || draw.shader.discards();
        let depth_on = draw.depth.is_some() && st.depth.enabled();
        StampSetup {
            state: st,
            shader: draw.shader,
            late,
            discards: draw.shader.discards(),
            depth_on,
            stencil_on: st.stencil.enabled,
            use_hiz: depth_on
                && !late
                && matches!(st.depth.func, CompareFunc::Less | CompareFunc::LessEqual)
                && !st.stencil.depth_fail_writes(),
            on_chip,
            colors: std::array::from_fn(|slot| {
                let id: &ColorId = draw.color.get(slot)?;
                let t = &colors[id.0];
                Some((t.surface.clone(), t.stream()))
            }),
            depth: draw.depth.map(|d| {
                let t = &depths[d.0];
                DepthBlocks {
                    surface: t.surface.clone(),
                    stencil: t.stencil_surface.clone(),
                    hiz: t.hiz.surface.clone(),
                }
            }),
            work: draw.work,
            options: draw.shader.options(),
            record,
        }
    }

    /// Append the accesses of the blocks of `surface` the live pixels of
    /// `quads` touch, unless the stream is on chip.
    #[allow(clippy::too_many_arguments)]
    fn blocks(
        &self,
        surface: &Surface,
        quads: &[Quad],
        masks: &[u8],
        stream: Stream,
        op: Op,
        unit: u16,
        out: &mut Vec<Access>,
    ) {
        if self.on_chip && is_tile_buffer(stream) {
            return;
        }
        let mut blocks = [0u64; 16];
        let n = stamp_blocks(surface, quads, masks, &mut blocks);
        out.extend(blocks[..n].iter().map(|&b| block(b, stream, op, unit)));
    }

    /// The HiZ entry's block of the stamp at `q`, unless HiZ is on chip.
    fn hiz_block(&self, q: &Quad, op: Op, unit: u16, out: &mut Vec<Access>) {
        if !self.on_chip {
            let hiz = &self.depth.as_ref().expect("depth target").hiz;
            let a = hiz.addr_of_pixel(q.x, q.y) & !(BLOCK_BYTES - 1);
            out.push(block(a, Stream::Hiz, op, unit));
        }
    }
}

/// What one thread running stamps keeps between them: buffers, counters,
/// and tile by tile its fragment processors' counts and HSR resolve.
#[derive(Default)]
pub(super) struct Scratch {
    masks: Vec<u8>,
    outputs: Vec<FragmentOutput>,
    pub(super) stats: Stats,
    pub(super) quads_per_fp: Vec<u64>,
    pub(super) hsr_hidden: u64,
    pub(super) hsr: Option<Hsr>,
    /// The texture request record of the stamps run since it was last
    /// emptied (with [`StampSetup::work`]).
    pub(super) requests: Vec<TexReqRecord>,
}

/// The back end for the quads of one triangle inside one 4x4 stamp, on
/// the rows `px` of the draw's targets (which hold the stamp), its
/// accesses appended to `out`.
pub(super) fn stamp(
    s: &StampSetup,
    px: &mut TargetRows,
    scr: &mut Scratch,
    quads: &[Quad],
    attrs: &[[f32; MAX_ATTRS]; 3],
    unit: u16,
    out: &mut Vec<Access>,
) {
    let Scratch {
        masks,
        outputs,
        stats,
        requests,
        ..
    } = scr;
    masks.clear();
    masks.extend(quads.iter().map(|q| q.mask));
    if s.use_hiz {
        let dt = px.depth.as_ref().expect("depth on");
        s.hiz_block(&quads[0], Op::Read, unit, out);
        for (q, m) in quads.iter().zip(masks.iter_mut()) {
            let nearest = (0..4)
                .filter(|&i| q.covered(i))
                .map(|i| dt.convert(q.depth[i]))
                .fold(f32::INFINITY, f32::min);
            if dt.hiz.rejects(q.x, q.y, s.state.depth.func, nearest) {
                stats.killed_hiz += m.count_ones() as u64;
                *m = 0;
            }
        }
    }
    if masks.iter().all(|&m| m == 0) {
        return;
    }
    outputs.clear();
    if !s.late && (s.depth_on || s.stencil_on) {
        depth_stencil(s, px, stats, quads, masks, None, unit, out);
    }
    for (q, &m) in quads.iter().zip(masks.iter()) {
        let mut o = FragmentOutput {
            color: [[[0.0; 4]; 4]; MAX_TARGETS],
            depth: q.depth,
            kill: 0,
        };
        if m != 0 {
            stats.fragments_shaded += m.count_ones() as u64;
            let mut frag = Fragments {
                quad: q,
                attrs: std::array::from_fn(|i| q.interpolate(i, attrs)),
                mask: m,
                unit,
                tex: out,
                texels: &mut stats.texels,
                path: QuadPath::new(
                    s.work,
                    s.options,
                    s.record.then_some(&mut *requests),
                    unit,
                    q,
                ),
            };
            s.shader.shade(&mut frag, &mut o);
            frag.path.end(m, &mut stats.programs);
        }
        outputs.push(o);
    }
    if s.discards {
        for (m, o) in masks.iter_mut().zip(outputs.iter()) {
            *m &= !o.kill;
        }
    }
    if s.late && (s.depth_on || s.stencil_on) {
        depth_stencil(s, px, stats, quads, masks, Some(outputs), unit, out);
    }
    colour(s, px, stats, quads, masks, outputs, unit, out);
}

/// Stencil and depth tests and updates for the live pixels of a stamp,
/// with their accesses; kills the pixels that fail. `outputs` carries
/// shader depths (late Z).
#[allow(clippy::too_many_arguments)]
fn depth_stencil(
    s: &StampSetup,
    px: &mut TargetRows,
    stats: &mut Stats,
    quads: &[Quad],
    masks: &mut [u8],
    outputs: Option<&[FragmentOutput]>,
    unit: u16,
    out: &mut Vec<Access>,
) {
    let st = &s.state;
    let blocks = s.depth.as_ref().expect("depth/stencil target");
    let dt = px.depth.as_mut().expect("depth/stencil target");
    let depth_on = st.depth.enabled();
    let stencil_on = st.stencil.enabled;
    if depth_on && st.depth.reads() {
        s.blocks(
            &blocks.surface,
            quads,
            masks,
            Stream::Z,
            Op::Read,
            unit,
            out,
        );
    }
    if stencil_on {
        let sp = blocks.stencil.as_ref().expect("stencil plane");
        s.blocks(sp, quads, masks, Stream::Stc, Op::Read, unit, out);
    }
    assert!(
        masks.len() <= MAX_STAMP_QUADS,
        "{} quads in one stamp",
        masks.len()
    );
    let mut zbuf = [0u8; MAX_STAMP_QUADS];
    let mut sbuf = [0u8; MAX_STAMP_QUADS];
    let zmask = &mut zbuf[..masks.len()];
    let smask = &mut sbuf[..masks.len()];
    let mut hiz_changed = false;
    for (k, (q, m)) in quads.iter().zip(masks.iter_mut()).enumerate() {
        let face = *st.stencil.face(q.front_facing);
        for i in 0..4 {
            if *m & (1 << i) == 0 {
                continue;
            }
            let (x, y) = q.pixel(i);
            let d = outputs.map_or(q.depth[i], |o| o[k].depth[i]);
            let s_old = dt.stencil(x, y);
            let op;
            let mut pass = false;
            if stencil_on && !st.stencil.test(&face, s_old) {
                op = face.fail;
                stats.killed_stencil += 1;
            } else if depth_on
                && st.depth.reads()
                && !st.depth.func.test(dt.convert(d), dt.depth(x, y))
            {
                op = face.zfail;
                if outputs.is_some() {
                    stats.killed_late_z += 1;
                } else {
                    stats.killed_early_z += 1;
                }
            } else {
                op = face.pass;
                pass = true;
                if depth_on && st.depth.write {
                    hiz_changed |= dt.set_depth(x, y, d);
                    zmask[k] |= 1 << i;
                }
            }
            if stencil_on && op != StencilOp::Keep && st.stencil.write_mask != 0 {
                dt.set_stencil(x, y, st.stencil.update(op, s_old));
                smask[k] |= 1 << i;
            }
            if !pass {
                *m &= !(1 << i);
            }
        }
    }
    if zmask.iter().any(|&b| b != 0) {
        s.blocks(
            &blocks.surface,
            quads,
            zmask,
            Stream::Z,
            Op::Write,
            unit,
            out,
        );
    }
    if smask.iter().any(|&b| b != 0) {
        let sp = blocks.stencil.as_ref().expect("stencil plane");
        s.blocks(sp, quads, smask, Stream::Stc, Op::Write, unit, out);
    }
    if hiz_changed {
        debug_assert_eq!(quads[0].x / HIZ_TILE, (quads[0].x | (STAMP - 1)) / HIZ_TILE);
        s.hiz_block(&quads[0], Op::Write, unit, out);
    }
}

/// Blend and store the colours of the pixels that survived, per target:
/// `rt` read (when the destination is needed), then `rt` write.
#[allow(clippy::too_many_arguments)]
fn colour(
    s: &StampSetup,
    px: &mut TargetRows,
    stats: &mut Stats,
    quads: &[Quad],
    masks: &[u8],
    outputs: &[FragmentOutput],
    unit: u16,
    out: &mut Vec<Access>,
) {
    let live: u32 = masks.iter().map(|m| m.count_ones()).sum();
    stats.fragments_written += live as u64;
    if live == 0 {
        return;
    }
    for (slot, target) in s.colors.iter().enumerate() {
        let Some((surface, stream)) = target else {
            break;
        };
        let ts = s.state.targets[slot];
        if ts.write_mask == 0 {
            continue;
        }
        let t = px.colors[slot].as_mut().expect("rows of every slot");
        if ts.reads_destination() {
            s.blocks(surface, quads, masks, *stream, Op::Read, unit, out);
        }
        for ((q, &m), o) in quads.iter().zip(masks).zip(outputs) {
            for i in 0..4 {
                if m & (1 << i) != 0 {
                    let (x, y) = q.pixel(i);
                    let dst = t.read(x, y);
                    t.write(x, y, ts.combine(o.color[slot][i], dst));
                }
            }
        }
        s.blocks(surface, quads, masks, *stream, Op::Write, unit, out);
    }
}

/// One stamp of a front-end batch in immediate mode: quads `q0..q1` of
/// triangle `tri`, shaded by `unit`.
#[derive(Clone, Copy)]
pub(super) struct StampJob {
    tri: u32,
    q0: u32,
    q1: u32,
    unit: u16,
}

impl Pipeline {
    /// Each triangle of a front-end batch in order, counted in the
    /// statistics: `each` gets its index and, if it survived culling, the
    /// range of its quads in the batch.
    pub(super) fn each_triangle(
        &mut self,
        batch: &FrontBatch,
        mut each: impl FnMut(&mut Pipeline, usize, Option<std::ops::Range<usize>>),
    ) {
        let mut q0 = 0;
        for (k, t) in batch.tris.iter().enumerate() {
            self.stats.triangles_in += 1;
            let quads = q0..t.quads_end;
            q0 = t.quads_end;
            if t.culled {
                each(self, k, None);
                continue;
            }
            self.stats.triangles_after_cull += 1;
            self.stats.quads += t.quads as u64;
            self.stats.fragments += t.pixels as u64;
            each(self, k, Some(quads));
        }
    }

    /// The back end for one front-end batch of a draw into `height`-row
    /// targets: each triangle's reads, then its stamps, in rounds of at
    /// most [`ROUND_QUADS`] quads (shared out by bands of rows when the
    /// pipeline has threads and the round is large).
    pub(super) fn back_end(
        &mut self,
        draw: &Draw,
        height: u32,
        batch: &FrontBatch,
        sink: &mut impl RecordSink,
    ) {
        let mut jobs = std::mem::take(&mut self.jobs);
        self.stamp_jobs(draw, batch, &mut jobs);
        let run = BatchRun {
            draw,
            setup: StampSetup::new(draw, &self.colors, &self.depths, false, false),
            height,
            batch,
        };
        let mut reads = DueReads { batch, next: 0 };
        let mut j0 = 0;
        while j0 < jobs.len() && !self.stopping() {
            let (mut j1, mut quads) = (j0, 0);
            while j1 < jobs.len() && (j1 == j0 || quads < ROUND_QUADS) {
                quads += (jobs[j1].q1 - jobs[j1].q0) as usize;
                j1 += 1;
            }
            if self.workers.is_some() && quads >= PARALLEL_QUADS {
                self.shared_round(&run, &jobs[j0..j1], &mut reads, sink);
            } else {
                self.direct_round(&run, &jobs[j0..j1], &mut reads, sink);
            }
            j0 = j1;
        }
        reads.until(batch.tris.len(), sink);
        for g in &mut self.rounds.groups {
            self.stats.add(&std::mem::take(&mut g.scratch.stats));
        }
        self.jobs = jobs;
    }

    /// Each triangle of `batch` counted and binned, and its quads cut into
    /// stamps: `jobs` (cleared first), in triangle and stamp order.
    fn stamp_jobs(&mut self, draw: &Draw, batch: &FrontBatch, jobs: &mut Vec<StampJob>) {
        jobs.clear();
        let attributes = draw.attributes;
        self.each_triangle(batch, |p, tri, quads| {
            let Some(quads) = quads else {
                return;
            };
            let qs = &batch.quads[quads.clone()];
            if let Some(b) = &mut p.binner {
                b.add(qs, batch.tris[tri].bounds, attributes);
            }
            let mut start = 0;
            while start < qs.len() {
                let key = (qs[start].y / STAMP, qs[start].x / STAMP);
                let mut end = start + 1;
                while end < qs.len() && (qs[end].y / STAMP, qs[end].x / STAMP) == key {
                    end += 1;
                }
                jobs.push(StampJob {
                    tri: tri as u32,
                    q0: (quads.start + start) as u32,
                    q1: (quads.start + end) as u32,
                    unit: unit_of(qs[start].x, qs[start].y),
                });
                start = end;
            }
        });
    }

    /// A round's stamps shared out to the threads by bands of rows, then
    /// their records in order.
    fn shared_round(
        &mut self,
        run: &BatchRun,
        round: &[StampJob],
        reads: &mut DueReads,
        sink: &mut impl RecordSink,
    ) {
        let Some(pool) = &self.workers else {
            return self.direct_round(run, round, reads, sink);
        };
        self.shared_rounds += 1;
        let quads = &run.batch.quads;
        let rounds = &mut self.rounds;
        rounds.plan(
            round.len(),
            (run.height, BAND_ROWS),
            pool.current_num_threads(),
            |j| quads[round[j].q0 as usize].y / BAND_ROWS,
            |j| u64::from(round[j].q1 - round[j].q0),
        );
        let groups = rounds.cuts.len() - 1;
        let (draw, cuts) = (run.draw, &rounds.cuts);
        let rows = TargetRows::split(
            &mut self.colors,
            &mut self.depths,
            draw.color,
            draw.depth,
            cuts,
        );
        Rounds::run(
            &mut rounds.groups[..groups],
            rows,
            pool,
            |j, px, out, scr| run_job(&run.setup, px, scr, run.batch, &round[j], out),
        );
        for (k, job) in round.iter().enumerate() {
            reads.until(job.tri as usize + 1, sink);
            sink.accesses(rounds.accesses(k));
        }
    }

    /// A round's stamps on this thread, each one's records sent at once.
    fn direct_round(
        &mut self,
        run: &BatchRun,
        round: &[StampJob],
        reads: &mut DueReads,
        sink: &mut impl RecordSink,
    ) {
        let (draw, cuts) = (run.draw, [0, run.height]);
        let mut px = TargetRows::split(
            &mut self.colors,
            &mut self.depths,
            draw.color,
            draw.depth,
            &cuts,
        );
        if self.rounds.groups.is_empty() {
            self.rounds.groups.push(Default::default());
        }
        let scr = &mut self.rounds.groups[0].scratch;
        let out = &mut self.direct;
        for job in round {
            reads.until(job.tri as usize + 1, sink);
            out.clear();
            run_job(&run.setup, &mut px[0], scr, run.batch, job, out);
            sink.accesses(out);
        }
    }
}

/// What the rounds of one front-end batch share: the draw, its back-end
/// setup, the targets' height and the batch.
struct BatchRun<'a, 'd> {
    draw: &'a Draw<'d>,
    setup: StampSetup<'d>,
    height: u32,
    batch: &'a FrontBatch,
}

fn run_job(
    setup: &StampSetup,
    px: &mut TargetRows,
    scr: &mut Scratch,
    batch: &FrontBatch,
    job: &StampJob,
    out: &mut Vec<Access>,
) {
    let quads = &batch.quads[job.q0 as usize..job.q1 as usize];
    let attrs = &batch.tris[job.tri as usize].attrs;
    stamp(setup, px, scr, quads, attrs, job.unit, out);
}

/// The `vidx`/`vtx` reads of a batch's triangles, each triangle's sent
/// before the records of its stamps.
struct DueReads<'b> {
    batch: &'b FrontBatch,
    /// The next triangle whose reads have not gone out.
    next: usize,
}

impl DueReads<'_> {
    /// Send the reads of triangles `..end` that have not gone out: before
    /// a triangle's first stamp, its reads and those of the triangles
    /// before it that have no stamps (culled or covering no pixel centre).
    fn until(&mut self, end: usize, sink: &mut impl RecordSink) {
        while self.next < end {
            sink.accesses(self.batch.reads(self.next));
            self.next += 1;
        }
    }
}
