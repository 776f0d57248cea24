//! (h) Determinism of the pipeline: a small frame with a perspective,
//! near-clipped textured floor, a stencil pass, a blended pass and MRT gives
//! the identical record sequence and identical pixels on every run, on
//! this thread or another; and for any thread count, with the front end
//! on a thread of its own and the back end shared out by bands of rows
//! (immediate mode and tile by tile, full-screen passes with blending
//! included).

use gfxcache_render::pipeline::tcor_attributes;
use gfxcache_render::{
    Allocator, Blend, ColorFormat, ColorTarget, CompareFunc, CullMode, DepthFormat, DepthState,
    DepthTarget, Draw, Filter, FragmentOutput, FragmentShader, Fragments, IndexBuffer, IndexFormat,
    Mat4, Pipeline, Sampler, State, StencilFace, StencilOp, StencilState, TbrConfig, TbrStats,
    TexFormat, Texture, Vec3, Vertex, VertexBuffer,
};
use gfxcache_trace::{PassKind, Record, Stream};

type Frame = (Vec<Record>, Vec<[u8; 4]>, Vec<[u8; 4]>, Vec<u32>);

fn render() -> Frame {
    let (w, h) = (96, 64);
    let mut alloc = Allocator::default();
    let tex = Texture::from_fn(64, 64, TexFormat::Rgba8, &mut alloc, |x, y| {
        [(x * 4) as u8, (y * 4) as u8, ((x ^ y) * 4) as u8, 255]
    });
    let sampler = Sampler::new(Filter::Anisotropic);
    let mut p = Pipeline::new();
    let rt = p.add_color(ColorTarget::new(w, h, ColorFormat::Rgba8, &mut alloc));
    let hdr = p.add_color(ColorTarget::new(w, h, ColorFormat::Rgba16F, &mut alloc));
    let ds = p.add_depth(DepthTarget::new(w, h, DepthFormat::D24S8, &mut alloc));
    let proj = Mat4::perspective(70f32.to_radians(), 1.5, 0.5, 40.0);
    let view = Mat4::look_at(
        Vec3::new(0.5, 1.0, 2.0),
        Vec3::new(0.0, 0.0, -3.0),
        Vec3::new(0.0, 1.0, 0.0),
    );
    let mvp = proj * view;
    // Floor reaching behind the camera (near-clipped), uvs repeating.
    let floor = VertexBuffer::new(
        [
            (-4.0, 4.0, 0.0, 0.0),
            (4.0, 4.0, 4.0, 0.0),
            (4.0, -20.0, 4.0, 12.0),
            (-4.0, -20.0, 0.0, 12.0),
        ]
        .iter()
        .map(|&(x, z, u, v)| Vertex::new(Vec3::new(x, 0.0, z), &[u, v]))
        .collect(),
        2,
        &mut alloc,
    );
    let floor_ib = IndexBuffer::new(vec![0, 1, 2, 0, 2, 3], IndexFormat::U16, &mut alloc);
    // A grid of small upright quads (a wall) at z = -4, with a colour.
    let mut verts = vec![];
    let mut idx = vec![];
    for j in 0..4 {
        for i in 0..6 {
            let base = verts.len() as u32;
            let (x0, y0) = (-1.5 + 0.5 * i as f32, 0.2 + 0.5 * j as f32);
            for (dx, dy) in [(0.0, 0.0), (0.45, 0.0), (0.45, 0.45), (0.0, 0.45)] {
                let c = [i as f32 / 6.0, j as f32 / 4.0, 0.5, 0.6];
                verts.push(Vertex::new(
                    Vec3::new(x0 + dx, y0 + dy, -4.0 - 0.1 * i as f32),
                    &c,
                ));
            }
            idx.extend([base, base + 1, base + 2, base, base + 2, base + 3]);
        }
    }
    let wall = VertexBuffer::new(verts, 4, &mut alloc);
    let wall_ib = IndexBuffer::new(idx, IndexFormat::U32, &mut alloc);
    let textured = |f: &mut Fragments<'_>, o: &mut FragmentOutput| {
        let uv = f.uv(0);
        o.color[0] = f.sample(&tex, &sampler, &uv);
        for (i, c) in o.color[1].iter_mut().enumerate() {
            *c = [uv[i][0], uv[i][1], f.quad.depth[i], 1.0];
        }
    };
    let flat = |f: &mut Fragments<'_>, o: &mut FragmentOutput| {
        for i in 0..4 {
            let a = f.attrs[i];
            o.color[0][i] = [a[0], a[1], a[2], a[3]];
            o.color[1][i] = [a[0], 0.0, 0.0, 1.0];
        }
    };
    let mut recs = vec![];
    let mut sink = |r| recs.push(r);
    p.begin_frame(0, &mut sink);
    p.clear_color(rt, [0.1, 0.1, 0.2, 1.0], &mut sink);
    p.clear_depth(ds, 1.0, 0, &mut sink);
    p.begin_pass("main", PassKind::Forward, &mut sink);
    let targets = [rt, hdr];
    let opaque = State::default()
        .with_cull(CullMode::Back)
        .with_stencil(StencilState::both(
            1,
            StencilFace::new(CompareFunc::Always, StencilOp::Replace),
        ));
    p.draw(
        &Draw {
            indices: &floor_ib,
            vertices: &floor,
            mvp,
            state: opaque,
            color: &targets,
            depth: Some(ds),
            shader: &textured,
            attributes: tcor_attributes(floor.attr_count),
            work: gfxcache_render::pipeline::ShaderWork::NONE,
        },
        &mut sink,
    );
    p.end_pass(&mut sink);
    p.begin_pass("transparent", PassKind::Transparent, &mut sink);
    let blended = State {
        depth: DepthState {
            func: CompareFunc::LessEqual,
            write: false,
        },
        stencil: StencilState::both(
            1,
            StencilFace::new(CompareFunc::NotEqual, StencilOp::IncrSat),
        ),
        ..State::default().with_blend(Blend::Alpha)
    };
    p.draw(
        &Draw {
            indices: &wall_ib,
            vertices: &wall,
            mvp,
            state: blended,
            color: &targets,
            depth: Some(ds),
            shader: &flat,
            attributes: tcor_attributes(wall.attr_count),
            work: gfxcache_render::pipeline::ShaderWork::NONE,
        },
        &mut sink,
    );
    p.end_pass(&mut sink);
    p.end_frame(0, &mut sink);
    let st = p.stats();
    let counts = vec![
        st.triangles_in as u32,
        st.triangles_after_cull as u32,
        st.fragments_shaded as u32,
        st.killed_stencil as u32,
        st.killed_early_z as u32,
        st.killed_hiz as u32,
    ];
    (
        recs,
        p.color(rt).to_rgba8(),
        p.color(hdr).to_rgba8(),
        counts,
    )
}

#[test]
fn same_inputs_same_records_and_pixels() {
    let a = render();
    let b = render();
    let c = std::thread::spawn(render).join().expect("render thread");
    assert!(a == b && a == c);
    // The frame exercises every fragment stream and both kill paths.
    for s in [
        Stream::Vidx,
        Stream::Vtx,
        Stream::Hiz,
        Stream::Z,
        Stream::Stc,
        Stream::Rt,
        Stream::Tex,
    ] {
        assert!(
            a.0.iter()
                .any(|r| matches!(r, Record::Access(x) if x.stream == s)),
            "no {s} access"
        );
    }
    assert!(a.3[2] > 0 && a.3[3] > 0, "stats {:?}", a.3);
    assert!(
        a.1.iter().any(|p| *p != a.1[0]),
        "a picture, not a flat colour"
    );
}

/// A draw of a dense, near-clipped, partly back-facing mesh (more
/// triangles than one front-end batch) through a pipeline allowed
/// `threads` threads: records, pixels and statistics.
fn dense(threads: usize) -> (Vec<Record>, Vec<[u8; 4]>, gfxcache_render::Stats) {
    let (w, h) = (120, 72);
    let mut alloc = Allocator::default();
    let tex = Texture::from_fn(32, 32, TexFormat::Rgba8, &mut alloc, |x, y| {
        [(x * 8) as u8, (y * 8) as u8, ((x ^ y) * 8) as u8, 255]
    });
    let sampler = Sampler::new(Filter::Trilinear);
    let mut p = Pipeline::new();
    p.set_threads(threads);
    let rt = p.add_color(ColorTarget::new(w, h, ColorFormat::Rgba8, &mut alloc));
    let ds = p.add_depth(DepthTarget::new(w, h, DepthFormat::D24S8, &mut alloc));
    let mvp = Mat4::perspective(70f32.to_radians(), 1.6, 0.5, 40.0)
        * Mat4::look_at(
            Vec3::new(0.0, 1.5, 2.0),
            Vec3::new(0.0, 0.0, -3.0),
            Vec3::new(0.0, 1.0, 0.0),
        );
    // A wavy 64x64 grid (8192 triangles: a front end on a thread of its
    // own) reaching behind the camera.
    let n = 64u32;
    let mut verts = vec![];
    for j in 0..=n {
        for i in 0..=n {
            let (x, z) = (
                -6.0 + 12.0 * i as f32 / n as f32,
                4.0 - 24.0 * j as f32 / n as f32,
            );
            let y = 0.6 * (x * 1.3).sin() * (z * 0.7).cos();
            verts.push(Vertex::new(Vec3::new(x, y, z), &[x * 0.5, z * 0.5]));
        }
    }
    let mut idx = vec![];
    for j in 0..n {
        for i in 0..n {
            let a = j * (n + 1) + i;
            idx.extend([a, a + 1, a + n + 2, a, a + n + 2, a + n + 1]);
        }
    }
    let vb = VertexBuffer::new(verts, 2, &mut alloc);
    let ib = IndexBuffer::new(idx, IndexFormat::U32, &mut alloc);
    let shader = |f: &mut Fragments<'_>, o: &mut FragmentOutput| {
        let uv = f.uv(0);
        o.color[0] = f.sample(&tex, &sampler, &uv);
    };
    let mut recs = vec![];
    let mut sink = |r| recs.push(r);
    p.begin_frame(0, &mut sink);
    p.clear_color(rt, [0.0, 0.0, 0.0, 1.0], &mut sink);
    p.clear_depth(ds, 1.0, 0, &mut sink);
    p.begin_pass("main", PassKind::Forward, &mut sink);
    for cull in [CullMode::Back, CullMode::None] {
        p.draw(
            &Draw {
                indices: &ib,
                vertices: &vb,
                mvp,
                state: State::default().with_cull(cull),
                color: &[rt],
                depth: Some(ds),
                shader: &shader,
                attributes: tcor_attributes(vb.attr_count),
                work: gfxcache_render::pipeline::ShaderWork::NONE,
            },
            &mut sink,
        );
    }
    p.end_pass(&mut sink);
    p.end_frame(0, &mut sink);
    (recs, p.color(rt).to_rgba8(), p.stats().clone())
}

#[test]
fn front_end_thread_changes_nothing() {
    let a = dense(1);
    assert!(
        a.2.triangles_in > 2 * 4096 && a.2.quads > 0 && a.2.killed_hiz + a.2.killed_early_z > 0
    );
    for threads in [2, 3] {
        let b = dense(threads);
        assert!(a.0 == b.0, "records differ with {threads} threads");
        assert!(a.1 == b.1, "pixels differ with {threads} threads");
        assert_eq!(a.2, b.2);
    }
}

/// What [`banded`] made: records, every target's pixels (colour, HDR,
/// depth), statistics, tile counters, and the rounds shared out.
struct Banded {
    records: Vec<Record>,
    pixels: (Vec<[u8; 4]>, Vec<[u8; 4]>, Vec<f32>),
    stats: gfxcache_render::Stats,
    tbr: TbrStats,
    shared: u64,
}

/// A shader that samples a texture and discards a third of the pixels
/// (forcing late Z).
struct Cutout<'a> {
    tex: &'a Texture,
    sampler: Sampler,
}

impl FragmentShader for Cutout<'_> {
    fn shade(&self, f: &mut Fragments<'_>, o: &mut FragmentOutput) {
        let uv = f.uv(0);
        let c = f.sample(self.tex, &self.sampler, &uv);
        for (i, [x, y]) in f.pixels().into_iter().enumerate() {
            if (x + 2 * y) % 3 == 0 {
                o.kill |= 1 << i;
            }
            o.color[0][i] = c[i];
            o.color[1][i] = [c[i][2], c[i][1], c[i][0], 1.0];
        }
    }

    fn discards(&self) -> bool {
        true
    }
}

/// A frame on a 100x70 screen (neither a multiple of the 8-row bands nor
/// of the tiles), immediate mode or tile by tile, through a pipeline
/// allowed `threads` threads: a textured floor writing depth and stencil
/// into two targets, a wall whose shader discards (late Z), a full-screen
/// triangle alpha-blended over both targets where the stencil is set, and
/// a full-screen additive pass writing only red and green (which reads
/// the destination).
fn banded(threads: usize, tbr: Option<TbrConfig>) -> Banded {
    let (w, h) = (100, 70);
    let mut alloc = Allocator::default();
    let tex = Texture::from_fn(64, 64, TexFormat::Rgba8, &mut alloc, |x, y| {
        [(x * 4) as u8, (y * 4) as u8, ((x ^ y) * 4) as u8, 255]
    });
    let aniso = Sampler::new(Filter::Anisotropic);
    let mut p = Pipeline::new();
    p.set_threads(threads);
    p.set_tbr(tbr);
    let rt = p.add_color(ColorTarget::new(w, h, ColorFormat::Rgba8, &mut alloc));
    let hdr = p.add_color(ColorTarget::new(w, h, ColorFormat::Rgba16F, &mut alloc));
    let ds = p.add_depth(DepthTarget::new(w, h, DepthFormat::D24S8, &mut alloc));
    p.set_depth_stored(ds, true);
    let mvp = Mat4::perspective(70f32.to_radians(), 100.0 / 70.0, 0.5, 40.0)
        * Mat4::look_at(
            Vec3::new(0.5, 1.0, 2.0),
            Vec3::new(0.0, 0.0, -3.0),
            Vec3::new(0.0, 1.0, 0.0),
        );
    let quad = |corners: [(f32, f32, f32, f32, f32); 4], alloc: &mut Allocator| {
        let vb = VertexBuffer::new(
            corners
                .iter()
                .map(|&(x, y, z, u, v)| Vertex::new(Vec3::new(x, y, z), &[u, v]))
                .collect(),
            2,
            alloc,
        );
        (
            vb,
            IndexBuffer::new(vec![0, 1, 2, 0, 2, 3], IndexFormat::U16, alloc),
        )
    };
    let floor = quad(
        [
            (-4.0, 0.0, 4.0, 0.0, 0.0),
            (4.0, 0.0, 4.0, 4.0, 0.0),
            (4.0, 0.0, -20.0, 4.0, 12.0),
            (-4.0, 0.0, -20.0, 0.0, 12.0),
        ],
        &mut alloc,
    );
    let wall = quad(
        [
            (-1.5, -0.5, -4.0, 0.0, 0.0),
            (1.5, -0.5, -4.0, 3.0, 0.0),
            (1.5, 2.0, -4.0, 3.0, 2.5),
            (-1.5, 2.0, -4.0, 0.0, 2.5),
        ],
        &mut alloc,
    );
    let screen = VertexBuffer::new(
        [(-1.0, -1.0), (3.0, -1.0), (-1.0, 3.0)]
            .map(|(x, y)| Vertex::new(Vec3::new(x, y, 0.5), &[(x + 1.0) / 2.0, (1.0 - y) / 2.0]))
            .to_vec(),
        2,
        &mut alloc,
    );
    let screen_ib = IndexBuffer::new(vec![0, 1, 2], IndexFormat::U16, &mut alloc);
    let textured = |f: &mut Fragments<'_>, o: &mut FragmentOutput| {
        let uv = f.uv(0);
        o.color[0] = f.sample(&tex, &aniso, &uv);
        for (i, c) in o.color[1].iter_mut().enumerate() {
            *c = [uv[i][0], uv[i][1], f.quad.depth[i] * 4.0, 1.0];
        }
    };
    let cutout = Cutout {
        tex: &tex,
        sampler: Sampler::new(Filter::Trilinear),
    };
    let trilinear = Sampler::new(Filter::Trilinear);
    let overlay = |f: &mut Fragments<'_>, o: &mut FragmentOutput| {
        let uv = f.uv(0);
        let c = f.sample(&tex, &trilinear, &uv);
        for i in 0..4 {
            o.color[0][i] = [c[i][1], c[i][2], c[i][0], 0.4];
            o.color[1][i] = [2.5 * c[i][0], 0.5, 3.0 * uv[i][1], 0.4];
        }
    };
    let glow = |f: &mut Fragments<'_>, o: &mut FragmentOutput| {
        for (i, [x, y]) in f.pixels().into_iter().enumerate() {
            o.color[0][i] = [x as f32 / 400.0, y as f32 / 280.0, 1.0, 1.0];
        }
    };
    let targets = [rt, hdr];
    let on_stencil = |func| StencilState::both(1, StencilFace::new(func, StencilOp::Replace));
    let full_screen = State {
        depth: DepthState::DISABLED,
        cull: CullMode::None,
        ..State::default()
    };
    let mut additive = full_screen.with_blend(Blend::Additive);
    additive.targets[0].write_mask = 0b0011;
    let draws = [
        (
            &floor,
            State::default().with_stencil(on_stencil(CompareFunc::Always)),
            &textured as &dyn FragmentShader,
        ),
        (
            &wall,
            State::default().with_depth(CompareFunc::LessEqual, true),
            &cutout,
        ),
    ];
    let mut records = vec![];
    let mut sink = |r| records.push(r);
    p.begin_frame(0, &mut sink);
    p.clear_color(rt, [0.1, 0.1, 0.2, 1.0], &mut sink);
    p.clear_color(hdr, [0.0, 0.0, 0.0, 1.0], &mut sink);
    p.clear_depth(ds, 1.0, 0, &mut sink);
    p.begin_pass("main", PassKind::Forward, &mut sink);
    for ((vb, ib), state, shader) in draws {
        let draw = Draw {
            indices: ib,
            vertices: vb,
            mvp,
            state,
            color: &targets,
            depth: Some(ds),
            shader,
            attributes: tcor_attributes(vb.attr_count),
            work: gfxcache_render::pipeline::ShaderWork::NONE,
        };
        p.draw(&draw, &mut sink);
    }
    p.end_pass(&mut sink);
    p.begin_pass("overlay", PassKind::Post, &mut sink);
    let blended = full_screen
        .with_blend(Blend::Alpha)
        .with_stencil(StencilState::both(
            1,
            StencilFace::new(CompareFunc::Equal, StencilOp::Keep),
        ));
    for (state, color, shader) in [
        (blended, &targets[..], &overlay as &dyn FragmentShader),
        (additive, &targets[..1], &glow),
    ] {
        let draw = Draw {
            indices: &screen_ib,
            vertices: &screen,
            mvp: Mat4::IDENTITY,
            state,
            color,
            depth: Some(ds),
            shader,
            attributes: tcor_attributes(screen.attr_count),
            work: gfxcache_render::pipeline::ShaderWork::NONE,
        };
        p.draw(&draw, &mut sink);
    }
    p.end_pass(&mut sink);
    p.end_frame(0, &mut sink);
    let depth = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .map(|(x, y)| p.depth(ds).depth(x, y))
        .collect();
    Banded {
        records,
        pixels: (p.color(rt).to_rgba8(), p.color(hdr).to_rgba8(), depth),
        stats: p.stats().clone(),
        tbr: p.tbr_stats().clone(),
        shared: p.shared_rounds(),
    }
}

#[test]
fn the_back_end_shared_out_by_bands_changes_nothing() {
    let tiled = |tile_size, fps, hsr| {
        Some(TbrConfig {
            tile_size,
            fps,
            hsr,
            ..TbrConfig::default()
        })
    };
    for tbr in [
        None,
        tiled(32, 4, false),
        tiled(12, 3, true),
        tiled(6, 4, false),
    ] {
        let one = banded(1, tbr);
        let s = &one.stats;
        assert_eq!(one.shared, 0);
        assert!(
            s.killed_stencil > 0 && s.killed_late_z + s.killed_early_z > 0,
            "{s:?}"
        );
        assert!(s.fragments_written > 0 && s.texels > 0);
        for threads in [2, 3, 4] {
            let many = banded(threads, tbr);
            assert!(
                many.shared > 0,
                "{tbr:?}: nothing shared out with {threads} threads"
            );
            assert!(
                one.records == many.records,
                "{tbr:?}: records differ with {threads} threads"
            );
            assert!(
                one.pixels == many.pixels,
                "{tbr:?}: pixels differ with {threads} threads"
            );
            assert_eq!(one.stats, many.stats, "{tbr:?}, {threads} threads");
            assert_eq!(one.tbr, many.tbr, "{tbr:?}, {threads} threads");
        }
    }
}
