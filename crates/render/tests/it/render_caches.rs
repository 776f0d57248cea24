//! The render caches: hits stay on chip, misses and dirty write-backs are
//! the LLC stream, the texture hierarchy, markers in place, flush, and a
//! full-screen textured draw through the pipeline.

use gfxcache_render::pipeline::tcor_attributes;
use gfxcache_render::render_caches::CacheShape;
use gfxcache_render::{
    Allocator, ColorFormat, ColorTarget, DepthFormat, DepthTarget, Draw, Filter, FragmentOutput,
    Fragments, IndexBuffer, IndexFormat, Mat4, Pipeline, RenderCacheConfig, RenderCaches, Sampler,
    State, TexFormat, Texture, Vec3, Vertex, VertexBuffer,
};
use gfxcache_trace::{Access, Marker, Op, PassKind, Record, RecordSink, Stream};

fn read(addr: u64, stream: Stream, unit: u16) -> Record {
    Record::Access(Access {
        addr,
        size: 64,
        unit,
        stream,
        op: Op::Read,
    })
}

fn write(addr: u64, stream: Stream, unit: u16) -> Record {
    Record::Access(Access {
        addr,
        size: 64,
        unit,
        stream,
        op: Op::Write,
    })
}

/// Runs `recs` through caches of `cfg`; the LLC stream.
fn run(cfg: &RenderCacheConfig, recs: &[Record]) -> Vec<Record> {
    let mut out = Vec::new();
    let mut rc = RenderCaches::with_config(cfg, |r| out.push(r));
    for r in recs {
        rc.record(r.clone());
    }
    drop(rc);
    out
}

fn tiny() -> RenderCacheConfig {
    let two = CacheShape {
        bytes: 128,
        ways: 2,
    };
    RenderCacheConfig {
        rt: two,
        z: two,
        ..Default::default()
    }
}

#[test]
fn a_repeated_block_hits() {
    let mut out = Vec::new();
    let mut rc = RenderCaches::new(|r| out.push(r));
    rc.record(read(0x1000, Stream::Z, 3));
    rc.record(read(0x1000, Stream::Z, 3));
    rc.record(Record::Access(Access {
        size: 4,
        ..Access::read(0x1010, Stream::Z) // same block
    }));
    let z = rc.stats_of(Stream::Z).unwrap();
    assert_eq!((z.accesses, z.hits, z.misses), (3, 2, 1));
    drop(rc);
    assert_eq!(out, vec![read(0x1000, Stream::Z, 3)]);
}

#[test]
fn an_evicted_dirty_line_is_written_back_once_with_its_stream() {
    let recs = [
        write(0x0, Stream::Rt, 1), // allocated dirty, nothing out
        read(0x40, Stream::Rt, 2),
        read(0x80, Stream::Rt, 2), // evicts 0x0
        read(0xc0, Stream::Rt, 2), // evicts 0x40, clean
    ];
    let out = run(&tiny(), &recs);
    assert_eq!(
        out,
        vec![
            read(0x40, Stream::Rt, 2),
            read(0x80, Stream::Rt, 2),
            write(0x0, Stream::Rt, 2),
            read(0xc0, Stream::Rt, 2),
        ]
    );
    let mut out = Vec::new();
    let mut rc = RenderCaches::with_config(&tiny(), |r| out.push(r));
    recs.iter().for_each(|r| rc.record(r.clone()));
    rc.flush();
    assert_eq!(rc.stats_of(Stream::Rt).unwrap().writebacks, 1);
    drop(rc);
    assert_eq!(
        out.iter()
            .filter(|r| matches!(r, Record::Access(a) if a.op == Op::Write))
            .count(),
        1
    );
}

#[test]
fn texture_l1_is_per_unit_and_l2_is_shared() {
    let mut out = Vec::new();
    let mut rc = RenderCaches::new(|r| out.push(r));
    rc.record(read(0x8000, Stream::Tex, 0));
    rc.record(read(0x8000, Stream::Tex, 1));
    rc.record(read(0x8000, Stream::Tex, 1));
    let (u0, u1) = (rc.tex_l1_stats(0), rc.tex_l1_stats(1));
    assert_eq!((u0.accesses, u0.misses), (1, 1));
    assert_eq!((u1.accesses, u1.misses, u1.hits), (2, 1, 1));
    let stats = rc.stats();
    let l2 = stats.iter().find(|s| s.0 == "tex-l2").unwrap().1;
    let l3 = stats.iter().find(|s| s.0 == "tex-l3").unwrap().1;
    assert_eq!((l2.accesses, l2.misses, l2.hits), (2, 1, 1));
    assert_eq!((l3.accesses, l3.misses), (1, 1));
    drop(rc);
    assert_eq!(out, vec![read(0x8000, Stream::Tex, 0)]);
}

#[test]
fn only_l3_misses_leave_as_tex() {
    let mut x = 7u64;
    let recs: Vec<Record> = (0..50_000)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // 2 MiB of texture, 12 units.
            read(
                ((x >> 30) % (2 << 20)) & !63,
                Stream::Tex,
                ((x >> 8) % 12) as u16,
            )
        })
        .collect();
    let mut out = Vec::new();
    let mut rc = RenderCaches::new(|r| out.push(r));
    recs.iter().for_each(|r| rc.record(r.clone()));
    let stats = rc.stats();
    let get = |n: &str| stats.iter().find(|s| s.0 == n).unwrap().1;
    let (l1, l2, l3) = (get("tex-l1"), get("tex-l2"), get("tex-l3"));
    drop(rc);
    assert_eq!(l1.accesses, 50_000);
    assert_eq!(l2.accesses, l1.misses);
    assert_eq!(l3.accesses, l2.misses);
    assert!(l1.hits > 0 && l2.hits > 0 && l3.hits > 0);
    assert_eq!(out.len() as u64, l3.misses);
    assert!(out
        .iter()
        .all(|r| matches!(r, Record::Access(a) if a.stream == Stream::Tex && a.op == Op::Read)));
}

#[test]
fn markers_keep_their_place_and_uncached_streams_pass_through() {
    let disp = Record::Access(Access {
        addr: 0x123,
        size: 7,
        unit: 0,
        stream: Stream::Display,
        op: Op::Write,
    });
    let recs = vec![
        Record::Marker(Marker::FrameBegin { frame: 0 }),
        read(0x1000, Stream::Z, 0),
        Record::Marker(Marker::PassBegin {
            name: "p".into(),
            kind: PassKind::Forward,
        }),
        Record::Marker(Marker::DrawBegin { draw: 0 }),
        read(0x1000, Stream::Z, 0),
        read(0x2000, Stream::Shader, 0),
        disp.clone(),
        Record::Marker(Marker::PassEnd),
        read(0x1040, Stream::Z, 0),
    ];
    let out = run(&RenderCacheConfig::default(), &recs);
    assert_eq!(
        out,
        vec![
            recs[0].clone(),
            recs[1].clone(),
            recs[2].clone(),
            recs[3].clone(),
            recs[5].clone(),
            disp,
            recs[7].clone(),
            recs[8].clone(),
        ]
    );
}

#[test]
fn flush_writes_back_every_dirty_line_once() {
    let mut recs = vec![Record::Marker(Marker::FrameBegin { frame: 0 })];
    for b in 0..10u64 {
        recs.push(write(0x10_0000 + b * 64, Stream::Z, 0));
        recs.push(write(0x10_0000 + b * 64, Stream::Z, 0));
        recs.push(read(0x20_0000 + b * 64, Stream::Stc, 0));
    }
    recs.push(write(0x30_0000, Stream::Hiz, 0));
    recs.push(Record::Marker(Marker::FrameEnd { frame: 0 }));
    let out = run(&RenderCacheConfig::default(), &recs);
    let writes: Vec<u64> = out
        .iter()
        .filter_map(|r| match r {
            Record::Access(a) if a.op == Op::Write => Some(a.addr),
            _ => None,
        })
        .collect();
    // Cache by cache (hiz before z), blocks in address order.
    let mut want = vec![0x30_0000];
    want.extend((0..10).map(|b| 0x10_0000 + b * 64));
    assert_eq!(writes, want);
    // The write-backs come before the frame's end.
    assert_eq!(out.last(), recs.last());

    // A second flush has nothing left to write.
    let mut out = Vec::new();
    let mut rc = RenderCaches::new(|r| out.push(r));
    recs.iter().for_each(|r| rc.record(r.clone()));
    let n = rc.stats().iter().map(|s| s.1.writebacks).sum::<u64>();
    assert_eq!(n, 11);
    rc.flush();
    drop(rc);
    assert_eq!(out.len(), 10 + 11 + 2);
}

/// A full-screen textured rectangle with depth, one frame.
fn frame() -> Vec<Record> {
    let (w, h) = (64u32, 64u32);
    let mut alloc = Allocator::default();
    let mut p = Pipeline::new();
    let rt = p.add_color(ColorTarget::new(w, h, ColorFormat::Rgba8, &mut alloc));
    let ds = p.add_depth(DepthTarget::new(w, h, DepthFormat::D24S8, &mut alloc));
    let tex = Texture::from_fn(128, 128, TexFormat::Rgba8, &mut alloc, |x, y| {
        [(x * 3) as u8, (y * 5) as u8, (x ^ y) as u8, 255]
    });
    let sampler = Sampler::new(Filter::Trilinear);
    let verts = [
        (-1.0, -1.0, 0.0, 1.0),
        (1.0, -1.0, 1.0, 1.0),
        (1.0, 1.0, 1.0, 0.0),
        (-1.0, 1.0, 0.0, 0.0),
    ]
    .iter()
    .map(|&(x, y, u, v)| Vertex::new(Vec3::new(x, y, 0.5), &[u, v]))
    .collect();
    let ib = IndexBuffer::new(vec![0, 1, 2, 0, 2, 3], IndexFormat::U16, &mut alloc);
    let vb = VertexBuffer::new(verts, 2, &mut alloc);
    let shader = |f: &mut Fragments<'_>, o: &mut FragmentOutput| {
        let uv = f.uv(0);
        o.color[0] = f.sample(&tex, &sampler, &uv);
    };
    let mut recs = Vec::new();
    let sink = &mut |r| recs.push(r);
    p.begin_frame(0, sink);
    p.begin_pass("main", PassKind::Forward, sink);
    p.clear_color(rt, [0.0; 4], sink);
    p.clear_depth(ds, 1.0, 0, sink);
    for _ in 0..2 {
        let d = Draw {
            indices: &ib,
            vertices: &vb,
            mvp: Mat4::IDENTITY,
            state: State::default(),
            color: &[rt],
            depth: Some(ds),
            shader: &shader,
            attributes: tcor_attributes(vb.attr_count),
            work: gfxcache_render::pipeline::ShaderWork::NONE,
        };
        p.draw(&d, sink);
    }
    p.end_pass(sink);
    p.end_frame(0, sink);
    recs
}

fn is_marker(r: &Record) -> bool {
    matches!(r, Record::Marker(_))
}

#[test]
fn a_textured_frame_through_the_render_caches() {
    let raw = frame();
    let llc = run(&RenderCacheConfig::default(), &raw);
    let (raw_n, llc_n) = (
        raw.iter().filter(|r| !is_marker(r)).count(),
        llc.iter().filter(|r| !is_marker(r)).count(),
    );
    assert!(llc_n > 0 && llc_n < raw_n, "llc {llc_n} raw {raw_n}");
    for r in &llc {
        if let Record::Access(a) = r {
            assert_eq!(a.addr % 64, 0, "{a:?}");
            assert_eq!(a.size, 64, "{a:?}");
        }
    }
    // Markers, in the same order.
    let markers = |v: &[Record]| {
        v.iter()
            .filter(|r| is_marker(r))
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(markers(&raw), markers(&llc));
    // Every stream that reached memory was used, tex among them.
    for s in [
        Stream::Tex,
        Stream::Rt,
        Stream::Z,
        Stream::Vidx,
        Stream::Vtx,
    ] {
        assert!(
            llc.iter()
                .any(|r| matches!(r, Record::Access(a) if a.stream == s)),
            "no {s}"
        );
    }
}

#[test]
fn deterministic() {
    let raw = frame();
    assert_eq!(raw, frame());
    let a = run(&RenderCacheConfig::default(), &raw);
    let b = run(&RenderCacheConfig::default(), &raw);
    assert_eq!(a, b);
}
