//! Clears: in immediate mode every visible block of the target written,
//! in address order; in tile-based mode nothing at once (the next render
//! pass's tile buffers start at the clear value).

use gfxcache_trace::{Op, RecordSink, Stream};

use crate::surface::{Surface, HIZ_BLOCK_SHAPE};

use super::tbr::LoadOp;
use super::{access, ColorId, DepthId, Pipeline};

/// Every block of the visible part of `surface`, in address order.
pub(super) fn surface_blocks(surface: &Surface) -> Vec<u64> {
    let (tw, th) = surface.format.tile_shape();
    let mut v: Vec<u64> = (0..surface.height.div_ceil(th))
        .flat_map(|ty| (0..surface.width.div_ceil(tw)).map(move |tx| (tx * tw, ty * th)))
        .map(|(x, y)| surface.block_of(x, y))
        .collect();
    v.sort_unstable();
    v
}

impl Pipeline {
    /// Clear a colour target: every visible block written, in address order.
    /// In tile-based mode nothing is written: the next render pass's tile
    /// buffers start at the clear value instead of loading.
    pub fn clear_color(&mut self, id: ColorId, c: [f32; 4], sink: &mut impl RecordSink) {
        let t = &mut self.colors[id.0];
        t.clear(c);
        if self.tbr.is_some() {
            self.color_load[id.0] = LoadOp::Clear;
            return;
        }
        for b in surface_blocks(&t.surface) {
            sink.record(access(b, t.stream(), Op::Write, 0));
        }
    }

    /// Clear depth, stencil and HiZ: every visible block of each written
    /// (`z`, then `stc`, then `hiz`), in address order; in tile-based mode
    /// nothing (see [`Pipeline::clear_color`]).
    pub fn clear_depth(
        &mut self,
        id: DepthId,
        depth: f32,
        stencil: u8,
        sink: &mut impl RecordSink,
    ) {
        let t = &mut self.depths[id.0];
        t.clear(depth, stencil);
        if self.tbr.is_some() {
            self.depth_load[id.0] = LoadOp::Clear;
            return;
        }
        for b in surface_blocks(&t.surface) {
            sink.record(access(b, Stream::Z, Op::Write, 0));
        }
        if let Some(s) = &t.stencil_surface {
            for b in surface_blocks(s) {
                sink.record(access(b, Stream::Stc, Op::Write, 0));
            }
        }
        let h = &t.hiz.surface;
        let (bw, bh) = HIZ_BLOCK_SHAPE;
        for by in 0..h.tiles_y.div_ceil(bh) {
            for bx in 0..h.tiles_x.div_ceil(bw) {
                let a = h.addr_of_tile(bx * bw, by * bh);
                sink.record(access(a, Stream::Hiz, Op::Write, 0));
            }
        }
    }
}
