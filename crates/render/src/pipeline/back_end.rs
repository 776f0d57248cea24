//! The back end of a draw: per 4x4 stamp of a triangle's quads, HiZ,
//! early or late Z, stencil, the fragment shader and the colour stage
//! (blending, write masks, up to 8 targets), with each surface's 64 B
//! blocks accessed once per stamp (see the order of records in
//! [`super`]'s documentation).

use gfxcache_trace::{Access, Op, Record, RecordSink, Stream};

use crate::buffers::MAX_ATTRS;
use crate::raster::Quad;
use crate::state::{CompareFunc, StencilOp, MAX_TARGETS};
use crate::surface::{Surface, BLOCK_BYTES, HIZ_TILE};

use super::binning::tcor_attributes;
use super::front_end::{FrontBatch, FrontTri};
use super::{unit_of, Draw, FragmentOutput, Fragments, Pipeline, STAMP};

/// Most quads of one triangle in one stamp (a clipped triangle's fan can
/// put more than four there).
const MAX_STAMP_QUADS: usize = 64;

pub(super) fn access(addr: u64, stream: Stream, op: Op, unit: u16) -> Record {
    Record::Access(Access {
        addr,
        size: BLOCK_BYTES as u32,
        unit,
        stream,
        op,
    })
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

fn emit_blocks(
    surface: &Surface,
    quads: &[Quad],
    masks: &[u8],
    stream: Stream,
    op: Op,
    unit: u16,
    sink: &mut impl RecordSink,
) {
    let mut blocks = [0u64; 16];
    let n = stamp_blocks(surface, quads, masks, &mut blocks);
    for &b in &blocks[..n] {
        sink.record(access(b, stream, op, unit));
    }
}

impl Pipeline {
    /// Each triangle of a front-end batch in order: its reads go to
    /// `sink`, and if it survived culling `each` gets it with its quads
    /// (counted in the statistics on the way).
    pub(super) fn each_drawn<S: RecordSink>(
        &mut self,
        batch: &FrontBatch,
        sink: &mut S,
        mut each: impl FnMut(&mut Pipeline, &FrontTri, &[Quad], &mut S),
    ) {
        let (mut a0, mut q0) = (0, 0);
        for t in &batch.tris {
            self.stats.triangles_in += 1;
            for a in &batch.accesses[a0..t.accesses_end] {
                sink.record(Record::Access(*a));
            }
            let quads = &batch.quads[q0..t.quads_end];
            (a0, q0) = (t.accesses_end, t.quads_end);
            if t.culled {
                continue;
            }
            self.stats.triangles_after_cull += 1;
            self.stats.quads += t.quads as u64;
            self.stats.fragments += t.pixels as u64;
            each(self, t, quads, sink);
        }
    }

    /// The back end for one front-end batch: each triangle's reads, then
    /// its stamps.
    pub(super) fn back_end(&mut self, draw: &Draw, batch: &FrontBatch, sink: &mut impl RecordSink) {
        self.each_drawn(batch, sink, |p, t, quads, sink| {
            if let Some(b) = &mut p.binner {
                b.add(quads, tcor_attributes(draw.vertices.attr_count));
            }
            let mut start = 0;
            while start < quads.len() {
                let key = (quads[start].y / STAMP, quads[start].x / STAMP);
                let mut end = start + 1;
                while end < quads.len() && (quads[end].y / STAMP, quads[end].x / STAMP) == key {
                    end += 1;
                }
                let unit = unit_of(quads[start].x, quads[start].y);
                p.stamp(draw, &quads[start..end], &t.attrs, unit, sink);
                start = end;
            }
        });
    }

    /// The back end for the quads of one triangle inside one 4x4 stamp.
    pub(super) fn stamp(
        &mut self,
        draw: &Draw,
        quads: &[Quad],
        attrs: &[[f32; MAX_ATTRS]; 3],
        unit: u16,
        sink: &mut impl RecordSink,
    ) {
        let st = &draw.state;
        let late = draw.shader.writes_depth() || draw.shader.discards();
        let discards = draw.shader.discards();
        let depth_on = draw.depth.is_some() && st.depth.enabled();
        let stencil_on = st.stencil.enabled;
        let use_hiz = depth_on
            && !late
            && matches!(st.depth.func, CompareFunc::Less | CompareFunc::LessEqual)
            && !st.stencil.depth_fail_writes();
        let mut masks = std::mem::take(&mut self.masks);
        masks.clear();
        masks.extend(quads.iter().map(|q| q.mask));
        if use_hiz {
            let dt = &self.depths[draw.depth.expect("depth on").0];
            let (x, y) = (quads[0].x, quads[0].y);
            let hiz_block = dt.hiz.addr_of_pixel(x, y) & !(BLOCK_BYTES - 1);
            sink.record(access(hiz_block, Stream::Hiz, Op::Read, unit));
            for (q, m) in quads.iter().zip(masks.iter_mut()) {
                let nearest = (0..4)
                    .filter(|&i| q.covered(i))
                    .map(|i| dt.convert(q.depth[i]))
                    .fold(f32::INFINITY, f32::min);
                if dt.hiz.rejects(q.x, q.y, st.depth.func, nearest) {
                    self.stats.killed_hiz += m.count_ones() as u64;
                    *m = 0;
                }
            }
        }
        if masks.iter().all(|&m| m == 0) {
            self.masks = masks;
            return;
        }
        let mut outputs = std::mem::take(&mut self.outputs);
        outputs.clear();
        if !late && (depth_on || stencil_on) {
            self.depth_stencil(draw, quads, &mut masks, None, unit, sink);
        }
        for (q, &m) in quads.iter().zip(masks.iter()) {
            let mut out = FragmentOutput {
                color: [[[0.0; 4]; 4]; MAX_TARGETS],
                depth: q.depth,
                kill: 0,
            };
            if m != 0 {
                self.stats.fragments_shaded += m.count_ones() as u64;
                let mut frag = Fragments {
                    quad: q,
                    attrs: std::array::from_fn(|i| q.interpolate(i, attrs)),
                    mask: m,
                    unit,
                    tex: &mut self.tex,
                    texels: &mut self.texels,
                };
                draw.shader.shade(&mut frag, &mut out);
                for a in self.tex.drain(..) {
                    sink.record(Record::Access(a));
                }
            }
            outputs.push(out);
        }
        if discards {
            for (m, o) in masks.iter_mut().zip(&outputs) {
                *m &= !o.kill;
            }
        }
        self.stats.texels += std::mem::take(&mut self.texels);
        if late && (depth_on || stencil_on) {
            self.depth_stencil(draw, quads, &mut masks, Some(&outputs), unit, sink);
        }
        self.colour(draw, quads, &masks, &outputs, unit, sink);
        self.outputs = outputs;
        self.masks = masks;
    }

    /// Stencil and depth tests and updates for the live pixels of a stamp,
    /// with their accesses; kills the pixels that fail. `outputs` carries
    /// shader depths (late Z).
    fn depth_stencil(
        &mut self,
        draw: &Draw,
        quads: &[Quad],
        masks: &mut [u8],
        outputs: Option<&[FragmentOutput]>,
        unit: u16,
        sink: &mut impl RecordSink,
    ) {
        let st = &draw.state;
        let dt = &mut self.depths[draw.depth.expect("depth/stencil target").0];
        let depth_on = st.depth.enabled();
        let stencil_on = st.stencil.enabled;
        if depth_on && st.depth.reads() {
            emit_blocks(&dt.surface, quads, masks, Stream::Z, Op::Read, unit, sink);
        }
        if stencil_on {
            let s = dt.stencil_surface.as_ref().expect("stencil plane");
            emit_blocks(s, quads, masks, Stream::Stc, Op::Read, unit, sink);
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
                    self.stats.killed_stencil += 1;
                } else if depth_on
                    && st.depth.reads()
                    && !st.depth.func.test(dt.convert(d), dt.depth(x, y))
                {
                    op = face.zfail;
                    if outputs.is_some() {
                        self.stats.killed_late_z += 1;
                    } else {
                        self.stats.killed_early_z += 1;
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
            emit_blocks(&dt.surface, quads, zmask, Stream::Z, Op::Write, unit, sink);
        }
        if smask.iter().any(|&b| b != 0) {
            let s = dt.stencil_surface.as_ref().expect("stencil plane");
            emit_blocks(s, quads, smask, Stream::Stc, Op::Write, unit, sink);
        }
        if hiz_changed {
            let a = dt.hiz.addr_of_pixel(quads[0].x, quads[0].y) & !(BLOCK_BYTES - 1);
            debug_assert_eq!(quads[0].x / HIZ_TILE, (quads[0].x | (STAMP - 1)) / HIZ_TILE);
            sink.record(access(a, Stream::Hiz, Op::Write, unit));
        }
    }

    /// Blend and store the colours of the pixels that survived, per target:
    /// `rt` read (when the destination is needed), then `rt` write.
    fn colour(
        &mut self,
        draw: &Draw,
        quads: &[Quad],
        masks: &[u8],
        outputs: &[FragmentOutput],
        unit: u16,
        sink: &mut impl RecordSink,
    ) {
        let live: u32 = masks.iter().map(|m| m.count_ones()).sum();
        self.stats.fragments_written += live as u64;
        if live == 0 {
            return;
        }
        for (slot, id) in draw.color.iter().enumerate() {
            let ts = draw.state.targets[slot];
            if ts.write_mask == 0 {
                continue;
            }
            let t = &mut self.colors[id.0];
            let stream = t.stream();
            if ts.reads_destination() {
                emit_blocks(&t.surface, quads, masks, stream, Op::Read, unit, sink);
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
            emit_blocks(&t.surface, quads, masks, stream, Op::Write, unit, sink);
        }
    }
}
