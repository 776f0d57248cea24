//! (h) Determinism of the pipeline: a small frame with a perspective,
//! near-clipped textured floor, a stencil pass, a blended pass and MRT gives
//! the identical record sequence and identical pixels on every run, on
//! this thread or another.

use gfxcache_render::{
    Allocator, Blend, ColorFormat, ColorTarget, CompareFunc, CullMode, DepthFormat, DepthState,
    DepthTarget, Draw, Filter, FragmentOutput, Fragments, IndexBuffer, IndexFormat, Mat4, Pipeline,
    Sampler, State, StencilFace, StencilOp, StencilState, TexFormat, Texture, Vec3, Vertex,
    VertexBuffer,
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
    // A wavy 48x40 grid (3840 triangles) reaching behind the camera.
    let n = 48u32;
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
            },
            &mut sink,
        );
    }
    p.end_pass(&mut sink);
    p.end_frame(0, &mut sink);
    (recs, p.color(rt).to_rgba8(), *p.stats())
}

#[test]
fn front_end_thread_changes_nothing() {
    let a = dense(1);
    assert!(a.2.triangles_in > 2 * 256 && a.2.quads > 0 && a.2.killed_hiz + a.2.killed_early_z > 0);
    for threads in [2, 3] {
        let b = dense(threads);
        assert!(a.0 == b.0, "records differ with {threads} threads");
        assert!(a.1 == b.1, "pixels differ with {threads} threads");
        assert_eq!(a.2, b.2);
    }
}
