//! The pipeline against analytic expectations: depth/HiZ/stencil results
//! and kill counts, exact access counts per stream for full-screen draws,
//! blending's read-before-write, the vertex cache, MRT addresses, texture
//! accesses equal to the sampler's own report, and determinism.

use gfxcache_render::pipeline::tcor_attributes;
use std::collections::BTreeSet;

use gfxcache_render::pipeline::STAMP;
use gfxcache_render::state::mask;
use gfxcache_render::{
    unit_of, Allocator, Blend, ColorFormat, ColorId, ColorTarget, CompareFunc, DepthFormat,
    DepthId, DepthState, DepthTarget, Derivs, Draw, Filter, FragmentOutput, FragmentShader,
    Fragments, IndexBuffer, IndexFormat, Mat4, Pipeline, Quad, Rasterizer, Sampler, State,
    StencilFace, StencilOp, StencilState, Surface, TexFormat, Texture, Vec3, Vertex, VertexBuffer,
    Viewport, WritesDepth,
};
use gfxcache_trace::{Access, Marker, Op, PassKind, Record, Stream};

/// Geometry of screen rectangles: mvp = identity, positions in NDC.
struct Geo {
    ib: IndexBuffer,
    vb: VertexBuffer,
}

fn ndc(w: u32, h: u32, sx: f32, sy: f32) -> (f32, f32) {
    (sx / w as f32 * 2.0 - 1.0, 1.0 - sy / h as f32 * 2.0)
}

/// Pixels `[x0, x1) x [y0, y1)` of a `w` x `h` screen at depth `z`, every
/// vertex carrying `attrs`; `ccw = false` makes it back-facing.
fn rect(
    alloc: &mut Allocator,
    (w, h): (u32, u32),
    [x0, y0, x1, y1]: [f32; 4],
    z: f32,
    attrs: &[f32],
    ccw: bool,
) -> Geo {
    let corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)];
    let verts = corners
        .iter()
        .enumerate()
        .map(|(k, &(x, y))| {
            let (nx, ny) = ndc(w, h, x, y);
            // uv from the corner, then the caller's attributes.
            let uv = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0f32]][k];
            let mut a = attrs.to_vec();
            if a.is_empty() {
                a = uv.to_vec();
            }
            Vertex::new(Vec3::new(nx, ny, z), &a)
        })
        .collect();
    let idx = if ccw {
        vec![0, 3, 2, 0, 2, 1]
    } else {
        vec![0, 1, 2, 0, 2, 3]
    };
    Geo {
        ib: IndexBuffer::new(idx, IndexFormat::U16, alloc),
        vb: VertexBuffer::new(verts, attrs.len().max(2) as u32, alloc),
    }
}

/// One triangle covering the whole screen.
fn full_screen(alloc: &mut Allocator, z: f32, attrs: &[f32]) -> Geo {
    let pts = [(-1.0, -1.0), (3.0, -1.0), (-1.0, 3.0)];
    let verts = pts
        .iter()
        .map(|&(x, y)| Vertex::new(Vec3::new(x, y, z), attrs))
        .collect();
    Geo {
        ib: IndexBuffer::new(vec![0, 1, 2], IndexFormat::U16, alloc),
        vb: VertexBuffer::new(verts, attrs.len() as u32, alloc),
    }
}

/// Colour = the first four attributes.
fn flat(f: &mut Fragments<'_>, o: &mut FragmentOutput) {
    for i in 0..4 {
        let a = f.attrs[i];
        o.color[0][i] = [a[0], a[1], a[2], a[3]];
    }
}

fn draw<'a>(
    g: &'a Geo,
    state: State,
    color: &'a [ColorId],
    depth: Option<DepthId>,
    shader: &'a dyn FragmentShader,
) -> Draw<'a> {
    Draw {
        indices: &g.ib,
        vertices: &g.vb,
        mvp: Mat4::IDENTITY,
        state,
        color,
        depth,
        shader,
        attributes: tcor_attributes(g.vb.attr_count),
        work: gfxcache_render::pipeline::ShaderWork::NONE,
    }
}

fn accesses(recs: &[Record], stream: Stream, op: Op) -> Vec<Access> {
    recs.iter()
        .filter_map(|r| match r {
            Record::Access(a) if a.stream == stream && a.op == op => Some(*a),
            _ => None,
        })
        .collect()
}

/// Every block of the visible `w` x `h` part of `s`.
fn blocks(s: &Surface) -> BTreeSet<u64> {
    let mut set = BTreeSet::new();
    for y in 0..s.height {
        for x in 0..s.width {
            set.insert(s.block_of(x, y));
        }
    }
    set
}

struct Setup {
    alloc: Allocator,
    p: Pipeline,
    rt: ColorId,
    ds: DepthId,
}

fn setup(w: u32, h: u32, depth: DepthFormat) -> Setup {
    let mut alloc = Allocator::default();
    let mut p = Pipeline::new();
    let rt = p.add_color(ColorTarget::new(w, h, ColorFormat::Rgba8, &mut alloc));
    let ds = p.add_depth(DepthTarget::new(w, h, depth, &mut alloc));
    Setup { alloc, p, rt, ds }
}

const RED: [f32; 4] = [1.0, 0.0, 0.0, 1.0];
const GREEN: [f32; 4] = [0.0, 1.0, 0.0, 1.0];

/// (a) Two overlapping rectangles under LESS, in both orders: the same
/// picture and depth, and front-to-back shades 256 fewer fragments, all of
/// them rejected by HiZ (the overlap is four whole 8x8 tiles).
#[test]
fn overlap_back_to_front_and_front_to_back() {
    let mut results = vec![];
    for front_first in [false, true] {
        let mut s = setup(64, 64, DepthFormat::D32F);
        let near = rect(
            &mut s.alloc,
            (64, 64),
            [8.0, 8.0, 40.0, 40.0],
            0.25,
            &RED,
            true,
        );
        let far = rect(
            &mut s.alloc,
            (64, 64),
            [24.0, 24.0, 56.0, 56.0],
            0.5,
            &GREEN,
            true,
        );
        let mut recs = vec![];
        let mut sink = |r| recs.push(r);
        s.p.clear_depth(s.ds, 1.0, 0, &mut sink);
        let order = if front_first {
            [&near, &far]
        } else {
            [&far, &near]
        };
        for g in order {
            s.p.draw(
                &draw(g, State::default(), &[s.rt], Some(s.ds), &flat),
                &mut sink,
            );
        }
        let c = s.p.color(s.rt);
        let d = s.p.depth(s.ds);
        for y in 0..64 {
            for x in 0..64 {
                let in_near = (8..40).contains(&x) && (8..40).contains(&y);
                let in_far = (24..56).contains(&x) && (24..56).contains(&y);
                let (col, z) = if in_near {
                    (RED, 0.25)
                } else if in_far {
                    (GREEN, 0.5)
                } else {
                    ([0.0; 4], 1.0)
                };
                assert_eq!((c.read(x, y), d.depth(x, y)), (col, z), "({x}, {y})");
            }
        }
        let st = s.p.stats().clone();
        assert_eq!(st.triangles_in, 4);
        assert_eq!(st.fragments, 2048);
        if front_first {
            assert_eq!(st.fragments_shaded, 1792);
            assert_eq!(st.killed_hiz, 256);
            assert_eq!(st.killed_early_z, 0);
        } else {
            assert_eq!(st.fragments_shaded, 2048);
            assert_eq!(st.killed_hiz + st.killed_early_z, 0);
        }
        assert_eq!(st.overdraw(64 * 64), st.fragments_shaded as f64 / 4096.0);
        // Each rectangle visits its 64 stamps plus the 8 its diagonal splits
        // between its triangles. HiZ-rejected stamps never touch Z: in
        // front-to-back the far one's 16 overlap stamps and the 4 diagonal
        // ones among them are rejected.
        let z_reads = accesses(&recs, Stream::Z, Op::Read).len();
        assert_eq!(z_reads, if front_first { 144 - 20 } else { 144 });
        let hiz_reads = accesses(&recs, Stream::Hiz, Op::Read).len();
        assert_eq!(hiz_reads, 144);
        results.push((c.to_rgba8(), st));
    }
    assert_eq!(results[0].0, results[1].0, "same picture in both orders");
}

/// (b) A full-screen triangle reads and writes each Z block and writes each
/// RT block exactly once, reads HiZ once per stamp, and tags every access
/// with its stamp's unit; a full-screen quad adds the stamps its diagonal
/// splits.
#[test]
fn full_screen_accesses_equal_block_counts() {
    let (w, h) = (64u32, 48u32);
    let mut s = setup(w, h, DepthFormat::D32F);
    let g = full_screen(&mut s.alloc, 0.5, &RED);
    let mut recs = vec![];
    let st = s.p.draw(
        &draw(&g, State::default(), &[s.rt], Some(s.ds), &flat),
        &mut |r| recs.push(r),
    );
    assert_eq!(recs[0], Record::Marker(Marker::DrawBegin { draw: 0 }));
    let zb = blocks(&s.p.depth(s.ds).surface);
    let rb = blocks(&s.p.color(s.rt).surface);
    assert_eq!(zb.len(), (w / 4 * h / 4) as usize);
    for (stream, op, want) in [
        (Stream::Z, Op::Read, &zb),
        (Stream::Z, Op::Write, &zb),
        (Stream::Rt, Op::Write, &rb),
    ] {
        let got = accesses(&recs, stream, op);
        assert_eq!(got.len(), want.len(), "{stream} {op:?}");
        let set: BTreeSet<u64> = got.iter().map(|a| a.addr).collect();
        assert_eq!(&set, want, "{stream} {op:?}");
        assert!(got.iter().all(|a| a.size == 64 && a.addr % 64 == 0));
    }
    assert!(accesses(&recs, Stream::Rt, Op::Read).is_empty());
    assert_eq!(accesses(&recs, Stream::Hiz, Op::Read).len(), zb.len());
    assert_eq!(st.quads, (w * h / 4) as u64);
    assert_eq!(st.fragments_shaded, (w * h) as u64);
    // Units: the Z read of the block holding (x, y) comes from unit_of(x, y).
    let dsurf = s.p.depth(s.ds).surface.clone();
    for a in accesses(&recs, Stream::Z, Op::Read) {
        let (x, y) = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .find(|&(x, y)| dsurf.block_of(x, y) == a.addr)
            .expect("block of the surface");
        assert_eq!(a.unit, unit_of(x, y));
    }
    let units: BTreeSet<u16> = recs
        .iter()
        .filter_map(|r| match r {
            Record::Access(a) if a.stream == Stream::Rt => Some(a.unit),
            _ => None,
        })
        .collect();
    assert_eq!(
        units,
        (0..6).collect(),
        "64x48: x / 16 + y / 16 spans 0..=5"
    );

    // Two triangles meeting on the diagonal x = y of a square screen: the
    // 16 stamps on it are visited by both.
    let mut s = setup(64, 64, DepthFormat::D32F);
    let g = rect(
        &mut s.alloc,
        (64, 64),
        [0.0, 0.0, 64.0, 64.0],
        0.5,
        &RED,
        false,
    );
    let mut recs = vec![];
    s.p.draw(
        &draw(&g, State::default(), &[s.rt], Some(s.ds), &flat),
        &mut |r| recs.push(r),
    );
    let zb = blocks(&s.p.depth(s.ds).surface);
    for op in [Op::Read, Op::Write] {
        let got = accesses(&recs, Stream::Z, op);
        assert_eq!(got.len(), zb.len() + 16);
        assert_eq!(got.iter().map(|a| a.addr).collect::<BTreeSet<_>>(), zb);
    }
}

/// (c) Blending reads each RT block right before writing it and gives the
/// blended colour; without blending there is no RT read.
#[test]
fn blending_reads_before_writing() {
    for blend in [Blend::Alpha, Blend::Additive, Blend::Off] {
        let mut s = setup(32, 32, DepthFormat::D32F);
        let g = full_screen(&mut s.alloc, 0.5, &[1.0, 0.0, 0.0, 0.5]);
        let mut recs = vec![];
        let mut sink = |r| recs.push(r);
        s.p.clear_color(s.rt, [0.0, 0.0, 1.0, 1.0], &mut sink);
        let state = State::default().with_blend(blend);
        s.p.draw(&draw(&g, state, &[s.rt], Some(s.ds), &flat), &mut sink);
        let start = recs
            .iter()
            .position(|r| matches!(r, Record::Marker(Marker::DrawBegin { .. })))
            .expect("draw marker");
        let rt: Vec<Access> = accesses(&recs[start..], Stream::Rt, Op::Read)
            .into_iter()
            .chain(accesses(&recs[start..], Stream::Rt, Op::Write))
            .collect();
        let writes = rt.iter().filter(|a| a.op == Op::Write).count();
        assert_eq!(writes, 64);
        let seq: Vec<Access> = recs[start..]
            .iter()
            .filter_map(|r| match r {
                Record::Access(a) if a.stream == Stream::Rt => Some(*a),
                _ => None,
            })
            .collect();
        if blend == Blend::Off {
            assert!(seq.iter().all(|a| a.op == Op::Write));
        } else {
            assert_eq!(seq.len(), 128);
            for pair in seq.chunks(2) {
                assert_eq!((pair[0].op, pair[1].op), (Op::Read, Op::Write));
                assert_eq!(pair[0].addr, pair[1].addr);
            }
        }
        let want = match blend {
            Blend::Alpha => [128, 0, 128, 255],
            Blend::Additive => [255, 0, 255, 255],
            Blend::Off => [255, 0, 0, 128],
        };
        assert!(
            s.p.color(s.rt).to_rgba8().iter().all(|&p| p == want),
            "{blend:?}"
        );
    }
}

/// (d) Pass 1 marks a region in the stencil with a back-facing rectangle
/// (two-sided ops: only the back face replaces) and writes no colour;
/// pass 2 draws full screen with stencil EQUAL: only the region is coloured.
#[test]
fn stencil_masks_a_region() {
    let mut s = setup(64, 64, DepthFormat::D24S8);
    let region = rect(
        &mut s.alloc,
        (64, 64),
        [16.0, 8.0, 48.0, 40.0],
        0.5,
        &RED,
        false,
    );
    let decoy = rect(
        &mut s.alloc,
        (64, 64),
        [0.0, 48.0, 16.0, 64.0],
        0.5,
        &RED,
        true,
    );
    let full = full_screen(&mut s.alloc, 0.5, &GREEN);
    let mut recs = vec![];
    s.p.clear_depth(s.ds, 1.0, 0, &mut |r| recs.push(r));
    s.p.begin_pass("mask", PassKind::Other, &mut |r| recs.push(r));
    let mut mark = State {
        depth: DepthState::DISABLED,
        stencil: StencilState {
            enabled: true,
            reference: 1,
            front: StencilFace::KEEP,
            back: StencilFace::new(CompareFunc::Always, StencilOp::Replace),
            ..StencilState::default()
        },
        ..State::default()
    };
    mark.targets[0].write_mask = 0;
    for g in [&region, &decoy] {
        s.p.draw(&draw(g, mark, &[s.rt], Some(s.ds), &flat), &mut |r| {
            recs.push(r)
        });
    }
    s.p.end_pass(&mut |r| recs.push(r));
    let mark_end = recs.len();
    s.p.reset_stats();
    s.p.begin_pass("colour", PassKind::Forward, &mut |r| recs.push(r));
    let test = State {
        depth: DepthState::DISABLED,
        stencil: StencilState::both(1, StencilFace::new(CompareFunc::Equal, StencilOp::Keep)),
        ..State::default()
    };
    s.p.draw(&draw(&full, test, &[s.rt], Some(s.ds), &flat), &mut |r| {
        recs.push(r)
    });
    s.p.end_pass(&mut |r| recs.push(r));
    let c = s.p.color(s.rt);
    for y in 0..64 {
        for x in 0..64 {
            let inside = (16..48).contains(&x) && (8..40).contains(&y);
            assert_eq!(
                c.read(x, y),
                if inside { GREEN } else { [0.0; 4] },
                "({x}, {y})"
            );
            assert_eq!(s.p.depth(s.ds).stencil(x, y), inside as u8);
        }
    }
    assert_eq!(s.p.stats().killed_stencil, 64 * 64 - 32 * 32);
    assert_eq!(s.p.stats().fragments_shaded, 32 * 32);
    // Pass 1: no colour traffic, stencil written on the region's 16 S8
    // blocks (8x8 pixels each) and read wherever either rectangle went.
    let (p1, p2) = recs.split_at(mark_end);
    let pass1 = p1
        .iter()
        .position(|r| matches!(r, Record::Marker(Marker::PassBegin { .. })))
        .expect("pass 1");
    let p1 = &p1[pass1..];
    let stc = s.p.depth(s.ds).stencil_surface.clone().expect("stencil");
    let stc_w: BTreeSet<u64> = accesses(p1, Stream::Stc, Op::Write)
        .iter()
        .map(|a| a.addr)
        .collect();
    let region_blocks: BTreeSet<u64> = (8..40)
        .flat_map(|y| (16..48).map(move |x| (x, y)))
        .map(|(x, y)| stc.block_of(x, y))
        .collect();
    assert_eq!(stc_w.len(), 16);
    assert_eq!(stc_w, region_blocks);
    assert!(accesses(p1, Stream::Rt, Op::Write).is_empty());
    assert!(accesses(p1, Stream::Z, Op::Read).is_empty());
    // Pass 2 reads stencil and never writes it.
    assert!(accesses(p2, Stream::Stc, Op::Write).is_empty());
    assert!(!accesses(p2, Stream::Stc, Op::Read).is_empty());
    assert_eq!(
        p2[0],
        Record::Marker(Marker::PassBegin {
            name: "colour".into(),
            kind: PassKind::Forward
        })
    );
    assert_eq!(p2.last(), Some(&Record::Marker(Marker::PassEnd)));
}

/// (e) A strip of N quads as indexed triangles fetches each of its 2N + 2
/// vertices once, in first-use order, and reads each index block once.
#[test]
fn vertex_cache_fetches_each_vertex_once() {
    const N: u32 = 20;
    for format in [IndexFormat::U16, IndexFormat::U32] {
        let mut s = setup(64, 16, DepthFormat::D32F);
        let verts = (0..=N)
            .flat_map(|i| {
                let x = -1.0 + 2.0 * i as f32 / N as f32;
                [Vec3::new(x, 1.0, 0.5), Vec3::new(x, -1.0, 0.5)]
            })
            .map(|p| Vertex::new(p, &[1.0, 1.0, 1.0, 1.0]))
            .collect();
        let idx = (0..N)
            .flat_map(|i| {
                let a = 2 * i;
                [a, a + 1, a + 2, a + 1, a + 3, a + 2]
            })
            .collect::<Vec<_>>();
        let g = Geo {
            ib: IndexBuffer::new(idx, format, &mut s.alloc),
            vb: VertexBuffer::with_stride(verts, 4, 32, &mut s.alloc),
        };
        let mut recs = vec![];
        let st = s.p.draw(
            &draw(&g, State::default(), &[s.rt], Some(s.ds), &flat),
            &mut |r| recs.push(r),
        );
        let vtx = accesses(&recs, Stream::Vtx, Op::Read);
        let want: Vec<u64> = (0..2 * N + 2).map(|i| g.vb.addr_of(i)).collect();
        assert_eq!(vtx.iter().map(|a| a.addr).collect::<Vec<_>>(), want);
        assert!(vtx.iter().all(|a| a.size == 32));
        assert_eq!(st.vertex_fetches, (2 * N + 2) as u64);
        assert_eq!(st.vertex_cache_hits, (6 * N - (2 * N + 2)) as u64);
        let bytes = 6 * N as u64 * format.bytes();
        let vidx = accesses(&recs, Stream::Vidx, Op::Read);
        assert_eq!(vidx.len() as u64, bytes.div_ceil(64));
        let want: Vec<u64> = (0..bytes.div_ceil(64))
            .map(|b| g.ib.base + 64 * b)
            .collect();
        assert_eq!(vidx.iter().map(|a| a.addr).collect::<Vec<_>>(), want);
        // The strip covers the screen exactly once.
        assert_eq!(st.fragments_shaded, 64 * 16);
    }
}

/// (f) Two render targets (RGBA8 and RGBA16F) get their own colours and
/// their own RT writes, each exactly the blocks of its own surface.
#[test]
fn mrt_targets_get_their_own_colours_and_writes() {
    let mut s = setup(32, 16, DepthFormat::D32F);
    let hdr =
        s.p.add_color(ColorTarget::new(32, 16, ColorFormat::Rgba16F, &mut s.alloc));
    let g = full_screen(&mut s.alloc, 0.5, &[]);
    let shader = |_: &mut Fragments<'_>, o: &mut FragmentOutput| {
        o.color[0] = [RED; 4];
        o.color[1] = [[0.25, 0.5, 2.0, 1.0]; 4];
    };
    let mut recs = vec![];
    let targets = [s.rt, hdr];
    s.p.draw(
        &draw(&g, State::default(), &targets, Some(s.ds), &shader),
        &mut |r| recs.push(r),
    );
    assert!(s
        .p
        .color(s.rt)
        .to_rgba8()
        .iter()
        .all(|&p| p == [255, 0, 0, 255]));
    for y in 0..16 {
        for x in 0..32 {
            assert_eq!(s.p.color(hdr).read(x, y), [0.25, 0.5, 2.0, 1.0]);
        }
    }
    let writes: BTreeSet<u64> = accesses(&recs, Stream::Rt, Op::Write)
        .iter()
        .map(|a| a.addr)
        .collect();
    let b0 = blocks(&s.p.color(s.rt).surface);
    let b1 = blocks(&s.p.color(hdr).surface);
    assert_eq!((b0.len(), b1.len()), (32, 64));
    assert!(b0.is_disjoint(&b1));
    assert_eq!(writes, b0.union(&b1).copied().collect());
    assert_eq!(accesses(&recs, Stream::Rt, Op::Write).len(), 96);
}

/// (g) A textured full-screen rectangle: the Tex accesses are exactly what
/// the sampler reports for the quads' derivatives, in the pipeline's order
/// (triangles in order, quads grouped by 4x4 stamp), with the stamp units.
#[test]
fn texture_accesses_equal_the_samplers_report() {
    let size = 32u32;
    for filter in [
        Filter::Point,
        Filter::Bilinear,
        Filter::Trilinear,
        Filter::Anisotropic,
    ] {
        let mut s = setup(size, size, DepthFormat::D32F);
        let tex = Texture::from_fn(64, 128, TexFormat::Rgba8, &mut s.alloc, |x, y| {
            [(x * 7 + y) as u8, (y * 5 + x * 3) as u8, (x ^ y) as u8, 255]
        });
        let sampler = Sampler::new(filter);
        let g = rect(
            &mut s.alloc,
            (size, size),
            [0.0, 0.0, size as f32, size as f32],
            0.5,
            &[],
            true,
        );
        let shader = |f: &mut Fragments<'_>, o: &mut FragmentOutput| {
            let uv = f.uv(0);
            o.color[0] = f.sample(&tex, &sampler, &uv);
        };
        let mut recs = vec![];
        s.p.draw(
            &draw(&g, State::default(), &[s.rt], Some(s.ds), &shader),
            &mut |r| recs.push(r),
        );
        let got = accesses(&recs, Stream::Tex, Op::Read);

        // The same work done by hand with the rasterizer and the sampler.
        let r = Rasterizer::new(Viewport::new(size, size));
        let clip: Vec<_> = (0..4).map(|i| g.vb.vertex(i).pos.extend(1.0)).collect();
        let uvs: Vec<[f32; 2]> = (0..4)
            .map(|i| {
                let a = g.vb.vertex(i).attrs;
                [a[0], a[1]]
            })
            .collect();
        let mut want = vec![];
        let mut colours = vec![];
        for t in g.ib.indices().chunks(3) {
            let mut quads: Vec<Quad> = vec![];
            r.draw([0, 1, 2].map(|k| clip[t[k] as usize]), |q| quads.push(*q));
            quads.sort_by_key(|q| (q.y / STAMP, q.x / STAMP));
            let attrs = [0, 1, 2].map(|k| uvs[t[k] as usize]);
            for q in &quads {
                let quv: [[f32; 2]; 4] = std::array::from_fn(|i| q.interpolate(i, &attrs));
                let d = Derivs::from_quad(&quv);
                for (i, [u, v]) in quv.iter().enumerate() {
                    if q.covered(i) {
                        let smp =
                            sampler.sample(&tex, *u, *v, &d, unit_of(q.x, q.y), |a| want.push(a));
                        colours.push((q.pixel(i), smp.color));
                    }
                }
            }
        }
        assert_eq!(got, want, "{filter:?}");
        assert!(!got.is_empty());
        let c = s.p.color(s.rt);
        for ((x, y), col) in colours {
            let stored = c.read(x, y);
            for k in 0..4 {
                assert_eq!(stored[k], (col[k].clamp(0.0, 1.0) * 255.0).round() / 255.0);
            }
        }
    }
}

/// A shader that writes depth runs before the depth test (late Z): no HiZ,
/// its texture-free output depth decides, and kills count as late.
#[test]
fn shader_depth_forces_late_z() {
    let mut s = setup(16, 16, DepthFormat::D32F);
    let back = full_screen(&mut s.alloc, 0.9, &GREEN);
    let front = full_screen(&mut s.alloc, 0.2, &RED);
    let mut recs = vec![];
    let writes = WritesDepth(|f: &mut Fragments<'_>, o: &mut FragmentOutput| {
        flat(f, o);
        o.depth = [0.1; 4];
    });
    s.p.draw(
        &draw(&back, State::default(), &[s.rt], Some(s.ds), &writes),
        &mut |r| recs.push(r),
    );
    let first = recs.len();
    s.p.draw(
        &draw(&front, State::default(), &[s.rt], Some(s.ds), &flat),
        &mut |r| recs.push(r),
    );
    assert!(accesses(&recs[..first], Stream::Hiz, Op::Read).is_empty());
    assert_eq!(s.p.depth(s.ds).depth(3, 3), 0.1);
    assert_eq!(s.p.color(s.rt).read(3, 3), GREEN);
    let st = s.p.stats();
    assert_eq!(st.killed_late_z, 0);
    // The second draw at 0.2 is behind 0.1 everywhere: HiZ (tightened by
    // the full rewrite) rejects all of it.
    assert_eq!(st.killed_hiz, 256);
    assert_eq!(st.fragments_shaded, 256);
    // Late Z kills after shading.
    let again = full_screen(&mut s.alloc, 0.2, &RED);
    let late_far = WritesDepth(|f: &mut Fragments<'_>, o: &mut FragmentOutput| {
        flat(f, o);
        o.depth = [0.5; 4];
    });
    let before = recs.len();
    let ds = s.p.draw(
        &draw(&again, State::default(), &[s.rt], Some(s.ds), &late_far),
        &mut |r| recs.push(r),
    );
    assert_eq!(
        (ds.killed_late_z, ds.fragments_shaded, ds.fragments_written),
        (256, 256, 0)
    );
    assert!(accesses(&recs[before..], Stream::Z, Op::Write).is_empty());
    assert!(accesses(&recs[before..], Stream::Rt, Op::Write).is_empty());
}

/// Colour write masks keep the channels they leave out.
#[test]
fn write_mask_keeps_other_channels() {
    let mut s = setup(8, 8, DepthFormat::D32F);
    let g = full_screen(&mut s.alloc, 0.5, &[1.0, 1.0, 1.0, 1.0]);
    let mut state = State::default().with_depth(CompareFunc::Always, false);
    state.targets[0].write_mask = mask::G | mask::A;
    let mut recs = vec![];
    let mut sink = |r| recs.push(r);
    s.p.clear_color(s.rt, [0.0, 0.0, 1.0, 0.0], &mut sink);
    s.p.draw(&draw(&g, state, &[s.rt], Some(s.ds), &flat), &mut sink);
    assert!(s
        .p
        .color(s.rt)
        .to_rgba8()
        .iter()
        .all(|&p| p == [0, 255, 255, 255]));
    assert!(accesses(&recs, Stream::Z, Op::Read).is_empty());
    assert_eq!(accesses(&recs, Stream::Rt, Op::Read).len(), 4);
}

/// The Polygon List Builder: a rectangle of pixels [20, 70) x [10, 40) on a
/// 100 x 64 screen, with 32-pixel tiles (4 x 2 of them, the last column and
/// row partial), covers tiles x 0..=2 and y 0..=1; its two triangles split
/// it along the diagonal from (20, 10) to (70, 40), so each lists only the
/// tiles it covers a pixel centre of. Binning changes no record.
#[test]
fn binning_lists_the_tiles_each_triangle_covers() {
    use gfxcache_render::pipeline::{BinningConfig, BinningMode};
    use gfxcache_trace::binned::TileOrder;
    let (w, h) = (100u32, 64u32);
    let mut runs = Vec::new();
    for bin in [false, true] {
        let mut s = setup(w, h, DepthFormat::D32F);
        s.p.set_binning(bin.then_some(BinningConfig {
            tile_size: 32,
            order: TileOrder::Scanline,
            mode: BinningMode::Exact,
        }));
        // Five scalar attributes: TCOR counts the position plus two vec4s.
        let g = rect(
            &mut s.alloc,
            (w, h),
            [20.0, 10.0, 70.0, 40.0],
            0.5,
            &[1.0, 0.0, 0.0, 1.0, 0.5],
            false,
        );
        let mut recs = vec![];
        s.p.begin_pass("main", PassKind::Forward, &mut |r| recs.push(r));
        s.p.draw(
            &draw(&g, State::default(), &[s.rt], Some(s.ds), &flat),
            &mut |r| recs.push(r),
        );
        s.p.end_pass(&mut |r| recs.push(r));
        runs.push((recs, s.p.take_binned()));
    }
    assert_eq!(runs[0].0, runs[1].0, "binning changes no record");
    assert!(runs[0].1.is_empty(), "nothing binned unless asked");
    let binned = &runs[1].1;
    assert_eq!(binned.len(), 1);
    assert_eq!(binned[0].pass, "main");
    let f = &binned[0].frame;
    assert_eq!((f.tiles_x, f.tiles_y, f.tile_size), (4, 2, 32));
    assert_eq!(f.primitives.len(), 2);
    // Tile id = ty * 4 + tx. Triangle 0 (corners 0, 1, 2: top-right half)
    // covers (0,0) (1,0) (2,0) and, below y = 32, (1,1) (2,1); triangle 1
    // (corners 0, 2, 3: bottom-left half) covers (0,0) (1,0) and (0,1)
    // (1,1) (2,1). Each in the order its quads came, compared as sets.
    let sets: Vec<BTreeSet<u32>> = f
        .primitives
        .iter()
        .map(|p| p.tiles.iter().copied().collect())
        .collect();
    assert_eq!(sets[0], BTreeSet::from([0, 1, 2, 5, 6]));
    assert_eq!(sets[1], BTreeSet::from([0, 1, 4, 5, 6]));
    for (p, set) in f.primitives.iter().zip(&sets) {
        assert_eq!(p.attributes, 3);
        assert_eq!(p.tiles.len(), set.len(), "each tile listed once");
    }
    f.check().expect("a binned pass is a valid TCOR frame");
}
