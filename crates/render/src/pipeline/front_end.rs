//! The front end of a draw: index fetch, the post-transform vertex cache,
//! clipping, rasterization and the sort of each triangle's quads into
//! stamp order. It only reads the draw's buffers, so with threads it runs
//! ahead of the back end ([`super::Pipeline`]) in bounded batches of
//! consecutive triangles, handed over in triangle order.

use gfxcache_trace::Access;

use crate::buffers::{
    IndexBuffer, IndexFetch, Transformed, Vertex, VertexBuffer, VertexCache, MAX_ATTRS,
};
use crate::math::Mat4;
use crate::raster::{Quad, Rasterizer};

use crate::raster::Viewport;

use super::{Draw, Pipeline, STAMP};

/// Triangles per front-end batch.
pub(super) const FRONT_BATCH_TRIS: usize = 256;
/// Front-end batches in flight per threaded draw: bounds the memory the
/// front end may run ahead by.
pub(super) const FRONT_BATCHES: usize = 4;
/// Triangles from which a draw's front end runs on a thread of its own.
/// Below, starting the thread and handing batches over cost more than the
/// overlap saves (on this project's 2-core VM: shadow passes of many
/// small draws took twice as long), and the back end's rounds already
/// use every thread.
pub(super) const FRONT_THREAD_TRIS: usize = 16 * FRONT_BATCH_TRIS;

/// What the front end (index fetch, post-transform cache, rasterizer,
/// stamp sort) produced for a run of consecutive triangles of a draw.
#[derive(Default)]
pub(super) struct FrontBatch {
    /// The `vidx`/`vtx` reads of the triangles, in order.
    pub(super) accesses: Vec<Access>,
    /// Each triangle's quads, already in stamp order.
    pub(super) quads: Vec<Quad>,
    pub(super) tris: Vec<FrontTri>,
}

impl FrontBatch {
    pub(super) fn clear(&mut self) {
        self.accesses.clear();
        self.quads.clear();
        self.tris.clear();
    }

    /// The `vidx`/`vtx` reads of triangle `t` of the batch.
    pub(super) fn reads(&self, t: usize) -> &[Access] {
        let start = if t == 0 {
            0
        } else {
            self.tris[t - 1].accesses_end
        };
        &self.accesses[start..self.tris[t].accesses_end]
    }
}

/// One triangle of a [`FrontBatch`]: its reads and quads end at these
/// indices (they start where the previous triangle's end).
#[derive(Clone, Copy)]
pub(super) struct FrontTri {
    pub(super) accesses_end: usize,
    pub(super) quads_end: usize,
    pub(super) attrs: [[f32; MAX_ATTRS]; 3],
    pub(super) culled: bool,
    pub(super) quads: u32,
    pub(super) pixels: u32,
    /// The rasterizer's [`crate::raster::TriangleStats::bounds`].
    pub(super) bounds: Option<[u32; 4]>,
}

/// The front end of one draw: walks the triangles in index order. It only
/// reads the draw's buffers and owns its stateful parts (index fetch and
/// vertex cache), so it can run ahead on another thread.
pub(super) struct FrontEnd<'a> {
    pub(super) indices: &'a IndexBuffer,
    pub(super) vertices: &'a VertexBuffer,
    pub(super) mvp: Mat4,
    pub(super) raster: Rasterizer,
    pub(super) ifetch: IndexFetch,
    pub(super) vcache: VertexCache,
    pub(super) next: usize,
    /// Room for [`stamp_order`]'s merges.
    pub(super) scratch: Vec<Quad>,
}

impl FrontEnd<'_> {
    /// Fill `batch` (cleared) with the next triangles; false once every
    /// triangle is done (the batch may then be empty).
    pub(super) fn fill(&mut self, batch: &mut FrontBatch) -> bool {
        batch.clear();
        let total = self.indices.len() / 3;
        let end = (self.next + FRONT_BATCH_TRIS).min(total);
        let mvp = self.mvp;
        let transform = |v: &Vertex| Transformed {
            clip: mvp.transform_point(v.pos),
            attrs: v.attrs,
        };
        for tri in self.next..end {
            let mut v = [Transformed::default(); 3];
            for (k, vk) in v.iter_mut().enumerate() {
                let acc = &mut batch.accesses;
                let index = self
                    .ifetch
                    .fetch(self.indices, 3 * tri + k, |a| acc.push(a));
                *vk = self
                    .vcache
                    .get(self.vertices, index, transform, |a| acc.push(a));
            }
            let start = batch.quads.len();
            let quads = &mut batch.quads;
            let ts = self
                .raster
                .draw([v[0].clip, v[1].clip, v[2].clip], |q| quads.push(*q));
            if ts.culled {
                batch.quads.truncate(start);
            } else {
                stamp_order(&mut batch.quads[start..], &mut self.scratch);
            }
            batch.tris.push(FrontTri {
                accesses_end: batch.accesses.len(),
                quads_end: batch.quads.len(),
                attrs: [v[0].attrs, v[1].attrs, v[2].attrs],
                culled: ts.culled,
                quads: ts.quads,
                pixels: ts.pixels,
                bounds: ts.bounds,
            });
        }
        self.next = end;
        end < total
    }
}

/// A triangle's quads sorted stably by stamp (stamp rows top to bottom,
/// stamps left to right), so that quads keep the rasterizer's order
/// inside a stamp. The rasterizer walks one screen triangle row of quads
/// by row (even rows), left to right: then a stamp row is two runs of
/// quads sorted by column, and their stable merge by stamp column (the
/// upper row's first on a tie) is the stable sort, in one pass. A clipped
/// triangle fanned into several comes in several such walks, and is
/// sorted.
fn stamp_order(quads: &mut [Quad], scratch: &mut Vec<Quad>) {
    let walked = quads
        .windows(2)
        .all(|w| (w[0].y, w[0].x) < (w[1].y, w[1].x))
        && quads.iter().all(|q| q.y % 2 == 0);
    if !walked {
        quads.sort_by_key(|q| (q.y / STAMP, q.x / STAMP));
        return;
    }
    let mut start = 0;
    while start < quads.len() {
        let row = quads[start].y / STAMP;
        let upper = quads[start].y;
        let split = start + quads[start..].partition_point(|q| q.y == upper);
        let end = split + quads[split..].partition_point(|q| q.y / STAMP == row);
        if split < end {
            merge_by_stamp(&mut quads[start..end], split - start, scratch);
        }
        start = end;
    }
}

/// `quads[..split]` and `quads[split..]`, each sorted by column, merged
/// stably by stamp column.
fn merge_by_stamp(quads: &mut [Quad], split: usize, scratch: &mut Vec<Quad>) {
    scratch.clear();
    let (upper, lower) = quads.split_at(split);
    let (mut i, mut j) = (0, 0);
    while i < upper.len() && j < lower.len() {
        if upper[i].x / STAMP <= lower[j].x / STAMP {
            scratch.push(upper[i]);
            i += 1;
        } else {
            scratch.push(lower[j]);
            j += 1;
        }
    }
    scratch.extend_from_slice(&upper[i..]);
    scratch.extend_from_slice(&lower[j..]);
    quads.copy_from_slice(scratch);
}

impl Pipeline {
    /// Runs the front end of `draw` on a `w` x `h` viewport and hands each
    /// batch, in triangle order, to `consume`; none after the pipeline has
    /// seen a stop asked for ([`Pipeline::stopped`]).
    pub(super) fn front_end_batches(
        &mut self,
        draw: &Draw,
        w: u32,
        h: u32,
        mut consume: impl FnMut(&mut Pipeline, &FrontBatch),
    ) {
        let ib = draw.indices;
        let vb = draw.vertices;
        assert_eq!(ib.len() % 3, 0, "index count is not a multiple of 3");
        let raster =
            Rasterizer::new(Viewport::new(w, h)).with_cull(draw.state.cull, draw.state.front_face);
        self.vcache.invalidate();
        let (hits0, misses0) = (self.vcache.hits, self.vcache.misses);
        let mut front = FrontEnd {
            indices: ib,
            vertices: vb,
            mvp: draw.mvp,
            raster,
            ifetch: IndexFetch::default(),
            vcache: std::mem::take(&mut self.vcache),
            next: 0,
            scratch: Vec::new(),
        };
        let triangles = ib.len() / 3;
        if self.threads >= 2 && triangles > FRONT_THREAD_TRIS {
            // The front end runs ahead on a scoped thread, filling batches
            // from a fixed set that the back end hands back once consumed;
            // batches arrive in triangle order.
            let vcache = std::thread::scope(|sc| {
                // Both channels live inside the scope, so a panic on this
                // side drops them and the worker stops instead of waiting.
                let (full_tx, full_rx) = std::sync::mpsc::channel::<FrontBatch>();
                let (empty_tx, empty_rx) = std::sync::mpsc::channel::<FrontBatch>();
                for _ in 0..FRONT_BATCHES {
                    let b = self.pool.pop().unwrap_or_default();
                    empty_tx.send(b).expect("receiver alive");
                }
                let worker = sc.spawn(move || {
                    while let Ok(mut b) = empty_rx.recv() {
                        let more = front.fill(&mut b);
                        if full_tx.send(b).is_err() || !more {
                            break;
                        }
                    }
                    front.vcache
                });
                for b in full_rx.iter() {
                    if self.stopping() {
                        break;
                    }
                    consume(self, &b);
                    if let Err(e) = empty_tx.send(b) {
                        self.pool.push(e.0);
                    }
                }
                // Stopped early: the worker ends once it finds no batch to
                // fill (or nobody to send one to).
                drop(empty_tx);
                drop(full_rx);
                worker.join().expect("front-end thread panicked")
            });
            self.vcache = vcache;
        } else {
            let mut b = self.pool.pop().unwrap_or_default();
            loop {
                let more = front.fill(&mut b);
                if self.stopping() {
                    break;
                }
                consume(self, &b);
                if !more {
                    break;
                }
            }
            self.pool.push(b);
            self.vcache = front.vcache;
        }
        self.stats.vertex_cache_hits += self.vcache.hits - hits0;
        self.stats.vertex_fetches += self.vcache.misses - misses0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quad(x: u32, y: u32, tag: u8) -> Quad {
        Quad {
            x,
            y,
            mask: tag,
            depth: [0.0; 4],
            bary: [[0.0; 3]; 4],
            front_facing: true,
        }
    }

    /// Seeded rows of quads as a walk gives them (and, every third case,
    /// two walks one after the other, as a clipped triangle gives them):
    /// the merge is the stable sort, quad for quad.
    #[test]
    fn stamp_order_is_the_stable_sort_by_stamp() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % u64::from(n)) as u32
        };
        let mut scratch = Vec::new();
        for case in 0..500 {
            let mut quads = Vec::new();
            let walks = if case % 3 == 0 { 2 } else { 1 };
            for _ in 0..walks {
                let y0 = 2 * next(6);
                for y in (y0..y0 + 2 * next(9)).step_by(2) {
                    let x0 = 2 * next(10);
                    for x in (x0..x0 + 2 * next(12)).step_by(2) {
                        quads.push(quad(x, y, quads.len() as u8));
                    }
                }
            }
            let mut sorted = quads.clone();
            sorted.sort_by_key(|q| (q.y / STAMP, q.x / STAMP));
            stamp_order(&mut quads, &mut scratch);
            let key = |q: &Quad| (q.x, q.y, q.mask);
            let got: Vec<_> = quads.iter().map(key).collect();
            let want: Vec<_> = sorted.iter().map(key).collect();
            assert_eq!(got, want, "case {case}");
        }
    }
}
