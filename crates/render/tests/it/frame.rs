//! The frame renderer: passes, their markers and streams, render-to-texture
//! reuse, the display write, known colours, determinism.

use crate::scenes;

use std::collections::{BTreeMap, BTreeSet};

use crate::scenes::{config, full, lit_plane, passes, render, PassRecords};
use gfxcache_render::frame::{FrameConfig, FrameRenderer};
use gfxcache_render::{Mat4, Passes, Surface, Vec3};
use gfxcache_trace::{Access, Marker, Op, PassKind, Record, Stream};

fn blocks(acc: &[Access], stream: Stream, op: Op) -> BTreeSet<u64> {
    acc.iter()
        .filter(|a| a.stream == stream && a.op == op)
        .map(|a| a.addr)
        .collect()
}

fn inside(set: &BTreeSet<u64>, s: &Surface) -> BTreeSet<u64> {
    set.iter()
        .copied()
        .filter(|&a| a >= s.base && a < s.base + s.size_bytes())
        .collect()
}

fn pass<'a>(ps: &'a [PassRecords], name: &str) -> &'a PassRecords {
    ps.iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no pass {name}"))
}

fn streams(p: &PassRecords) -> BTreeSet<&'static str> {
    p.accesses.iter().map(|a| a.stream.name()).collect()
}

#[test]
fn every_pass_in_order_with_its_kind() {
    let scene = full();
    let (recs, _) = render(&scene, config(96, 64));
    assert_eq!(
        recs.first(),
        Some(&Record::Marker(Marker::FrameBegin { frame: 0 }))
    );
    assert_eq!(
        recs.last(),
        Some(&Record::Marker(Marker::FrameEnd { frame: 0 }))
    );
    let ps = passes(&recs);
    let got: Vec<(&str, PassKind)> = ps.iter().map(|p| (p.name.as_str(), p.kind)).collect();
    assert_eq!(
        got,
        vec![
            ("shadow", PassKind::Shadow),
            ("reflection", PassKind::RenderToTexture),
            ("gbuffer", PassKind::GBuffer),
            ("lighting", PassKind::Lighting),
            ("transparent", PassKind::Transparent),
            ("post", PassKind::Post),
            ("display", PassKind::Display),
        ]
    );
    for p in &ps {
        assert!(!p.accesses.is_empty(), "pass {} did nothing", p.name);
        assert!(
            p.accesses.iter().any(|a| a.stream == Stream::Shader),
            "pass {} fetched no shader",
            p.name
        );
    }
}

#[test]
fn shadow_pass_writes_depth_only() {
    let scene = full();
    let (recs, r) = render(&scene, config(96, 64));
    let ps = passes(&recs);
    let s = pass(&ps, "shadow");
    let st = streams(s);
    assert!(st.contains("z"), "{st:?}");
    for bad in ["rt", "display", "stc"] {
        assert!(!st.contains(bad), "shadow pass touched {bad}: {st:?}");
    }
    // Later passes read the shadow map (written as z) as tex.
    let map = &r.depth_target("shadow").expect("shadow").surface;
    let z = inside(&blocks(&s.accesses, Stream::Z, Op::Write), map);
    let read = inside(
        &blocks(&pass(&ps, "lighting").accesses, Stream::Tex, Op::Read),
        map,
    );
    assert!(!read.is_empty());
    assert!(read.is_subset(&z));
}

#[test]
fn lighting_reads_the_gbuffer_where_it_was_written() {
    let scene = full();
    let (recs, r) = render(&scene, config(96, 64));
    let ps = passes(&recs);
    let g = pass(&ps, "gbuffer");
    let l = pass(&ps, "lighting");
    let rt = blocks(&g.accesses, Stream::Rt, Op::Write);
    let tex = blocks(&l.accesses, Stream::Tex, Op::Read);
    for name in ["albedo", "normal", "emissive"] {
        let s = &r.color_target(name).expect("target").surface;
        let w = inside(&rt, s);
        assert!(!w.is_empty(), "{name} not written");
        assert_eq!(inside(&tex, s), w, "{name}: tex reads != rt writes");
    }
    let d = &r.depth_target("depth").expect("depth").surface;
    // z writes of the G-buffer pass, minus the clear (which writes every block).
    let z_draw: BTreeSet<u64> = {
        let mut after_clear = g.accesses.clone();
        let clear = after_clear
            .iter()
            .position(|a| a.stream == Stream::Shader)
            .expect("a draw");
        after_clear.drain(..clear);
        inside(&blocks(&after_clear, Stream::Z, Op::Write), d)
    };
    assert_eq!(inside(&tex, d), z_draw, "depth read as tex where written");
    // The stencil test reads stencil; the lighting pass writes no depth.
    assert!(l
        .accesses
        .iter()
        .any(|a| a.stream == Stream::Stc && a.op == Op::Read));
    assert!(!l.accesses.iter().any(|a| a.stream == Stream::Z));
}

#[test]
fn reflection_target_is_read_back_as_texture() {
    let scene = full();
    let (recs, r) = render(&scene, config(96, 64));
    let ps = passes(&recs);
    let s = &r.color_target("reflection").expect("reflection").surface;
    let written = inside(
        &blocks(&pass(&ps, "reflection").accesses, Stream::Rt, Op::Write),
        s,
    );
    let read = inside(
        &blocks(&pass(&ps, "gbuffer").accesses, Stream::Tex, Op::Read),
        s,
    );
    assert!(
        !read.is_empty(),
        "reflective ground never sampled the reflection"
    );
    assert!(read.is_subset(&written));
}

#[test]
fn display_is_written_once_per_visible_block() {
    for (w, h) in [(96, 64), (50, 30)] {
        let scene = full();
        let (recs, r) = render(&scene, config(w, h));
        let disp: Vec<&Access> = recs
            .iter()
            .filter_map(|x| match x {
                Record::Access(a) if a.stream == Stream::Display => Some(a),
                _ => None,
            })
            .collect();
        assert!(disp.iter().all(|a| a.op == Op::Write));
        let s = &r.display_target().surface;
        let mut want = BTreeSet::new();
        for y in 0..h {
            for x in 0..w {
                want.insert(s.block_of(x, y));
            }
        }
        let mut seen = BTreeMap::new();
        for a in &disp {
            *seen.entry(a.addr).or_insert(0) += 1;
        }
        assert!(
            seen.values().all(|&n| n == 1),
            "a display block written twice"
        );
        assert_eq!(seen.keys().copied().collect::<BTreeSet<_>>(), want);
        let ps = passes(&recs);
        for p in &ps {
            let has = p.accesses.iter().any(|a| a.stream == Stream::Display);
            assert_eq!(has, p.name == "display", "pass {}", p.name);
        }
    }
}

#[test]
fn switching_passes_off_removes_them_and_their_traffic() {
    let scene = full();
    let (_, all) = render(&scene, config(64, 48));
    let map = all.depth_target("shadow").expect("shadow").surface.clone();
    let refl = all
        .color_target("reflection")
        .expect("refl")
        .surface
        .clone();
    let names = |p: Passes| {
        let cfg = FrameConfig {
            passes: Some(p),
            ..config(64, 48)
        };
        let (recs, _) = render(&scene, cfg);
        let ps = passes(&recs);
        let tex: BTreeSet<u64> = ps
            .iter()
            .flat_map(|p| p.accesses.iter())
            .filter(|a| a.stream == Stream::Tex)
            .map(|a| a.addr)
            .collect();
        (ps.into_iter().map(|p| p.name).collect::<Vec<_>>(), tex)
    };
    let on = Passes::default();
    let (n, tex) = names(Passes {
        shadow: false,
        ..on
    });
    assert!(!n.contains(&"shadow".to_string()));
    assert!(
        inside(&tex, &map).is_empty(),
        "shadow map sampled without a shadow pass"
    );
    let (n, tex) = names(Passes {
        reflection: false,
        ..on
    });
    assert!(!n.contains(&"reflection".to_string()));
    assert!(inside(&tex, &refl).is_empty());
    let (n, _) = names(Passes {
        deferred: false,
        ..on
    });
    assert_eq!(
        n,
        [
            "shadow",
            "reflection",
            "forward",
            "transparent",
            "post",
            "display"
        ]
    );
    let (n, _) = names(Passes {
        transparent: false,
        post: false,
        ..on
    });
    assert_eq!(
        n,
        ["shadow", "reflection", "gbuffer", "lighting", "display"]
    );
}

/// Screen pixel of world point `p` for the lit-plane scene's camera.
fn pixel_of(scene: &gfxcache_render::Scene, w: u32, h: u32, p: Vec3) -> (u32, u32) {
    let c = scene.camera.at(0, 1);
    let vp = Mat4::perspective(c.fov_y, w as f32 / h as f32, c.near, c.far)
        * Mat4::look_at(c.eye, c.target, c.up);
    let q = vp.transform_point(p);
    let (x, y) = (q.x / q.w, q.y / q.w);
    (
        ((x * 0.5 + 0.5) * w as f32) as u32,
        ((0.5 - y * 0.5) * h as f32) as u32,
    )
}

fn near(got: [u8; 4], want: [f32; 3]) -> bool {
    (0..3).all(|c| (got[c] as f32 - want[c] * 255.0).abs() <= 1.5)
}

#[test]
fn a_lit_plane_has_the_colours_of_its_light() {
    let dir = Vec3::new(1.0, -1.0, 0.0);
    let scene = lit_plane(dir);
    let (w, h) = (128, 96);
    let ndl = std::f32::consts::FRAC_1_SQRT_2;
    // Post off: display = sqrt(clamp(hdr)).
    let lit = (0.5f32 * (0.25 + ndl)).sqrt();
    let dark = (0.5f32 * 0.25).sqrt();
    for deferred in [true, false] {
        let cfg = FrameConfig {
            passes: Some(Passes {
                post: false,
                deferred,
                ..Passes::default()
            }),
            ..config(w, h)
        };
        let (_, r) = render(&scene, cfg);
        let pic = r.picture();
        let at = |p: (u32, u32)| pic[(p.1 * w + p.0) as usize];
        // Lit ground away from the cube and its shadow.
        let p = at(pixel_of(&scene, w, h, Vec3::new(-3.0, 0.0, 2.0)));
        assert!(
            near(p, [lit; 3]),
            "deferred={deferred}: lit {p:?}, want {lit}"
        );
        // The cube at (0, 2, 0) shadows (2, 0, 0) under a 45-degree sun.
        let p = at(pixel_of(&scene, w, h, Vec3::new(2.0, 0.0, 0.0)));
        assert!(
            near(p, [dark; 3]),
            "deferred={deferred}: shadow {p:?}, want {dark}"
        );
    }
}

#[test]
fn the_sky_is_the_sky_colour() {
    let mut scene = lit_plane(Vec3::new(0.0, -1.0, 0.0));
    // Shrink the plane so that the screen corners see the sky.
    scene.meshes[0] = scenes::plane(1.0, 0);
    let cfg = FrameConfig {
        passes: Some(Passes {
            post: false,
            ..Passes::default()
        }),
        ..config(64, 64)
    };
    let (_, r) = render(&scene, cfg);
    let pic = r.picture();
    let sky = scenes::SKY.map(f32::sqrt);
    for p in [pic[0], pic[63], pic[64 * 63]] {
        assert!(near(p, sky), "{p:?}");
    }
    // Straight-down sun on the plane: N.L = 1, 0.5 * (0.25 + 1).
    let c = pic[(32 * 64 + 32) as usize];
    assert!(near(c, [(0.5f32 * 1.25).sqrt(); 3]), "{c:?}");
}

#[test]
fn rendering_is_deterministic_and_independent_of_threads() {
    let scene = full();
    let run = |threads: usize, frame: u32| {
        let cfg = FrameConfig {
            threads,
            ..config(80, 60)
        };
        let mut r = FrameRenderer::new(&scene, cfg).expect("renderer");
        let mut recs = Vec::new();
        let s = r.render(frame, 2, &mut |x| recs.push(x)).unwrap();
        (recs, r.picture(), s)
    };
    let a = run(1, 1);
    let b = run(1, 1);
    assert!(a.0 == b.0 && a.1 == b.1 && a.2 == b.2);
    for threads in [2, 3, 4] {
        let c = run(threads, 1);
        assert!(a.0 == c.0 && a.1 == c.1, "{threads} threads");
        assert_eq!(a.2, c.2, "{threads} threads");
    }
    let other = run(1, 0);
    assert!(a.1 != other.1, "the camera path moved nothing");
}

#[test]
fn summaries_count_what_the_sink_saw() {
    let scene = full();
    let mut r = FrameRenderer::new(&scene, config(64, 48)).expect("renderer");
    let mut n = 0u64;
    let s = r
        .render(0, 1, &mut |x| {
            if matches!(x, Record::Access(_)) {
                n += 1
            }
        })
        .unwrap();
    assert_eq!(s.accesses().total(), n);
    let st = s.stats();
    assert!(st.triangles_in > 0 && st.fragments > 0 && st.texels > 0);
    assert!(st.triangles_after_cull <= st.triangles_in);
}

#[test]
fn bad_configurations_and_scenes_are_errors() {
    let scene = full();
    assert!(FrameRenderer::new(&scene, FrameConfig::new(0, 10)).is_err());
    let cfg = FrameConfig {
        reflection_scale: 0.0,
        ..config(8, 8)
    };
    assert!(FrameRenderer::new(&scene, cfg).is_err());
    let mut bad = full();
    bad.meshes[0].indices.push(999);
    bad.meshes[0].indices.extend([0, 0]);
    let e = FrameRenderer::new(&bad, config(8, 8)).err().expect("error");
    assert!(e.to_string().contains("index 999"), "{e}");
    let mut bad = full();
    bad.instances[0].mesh = 77;
    assert!(FrameRenderer::new(&bad, config(8, 8)).is_err());
    let mut bad = full();
    bad.camera.keys[1].target = bad.camera.keys[1].eye;
    assert!(FrameRenderer::new(&bad, config(8, 8)).is_err());
}

#[test]
fn transparent_pass_blends_without_writing_depth() {
    let scene = full();
    let (recs, _) = render(&scene, config(96, 64));
    let ps = passes(&recs);
    let t = pass(&ps, "transparent");
    let has = |s: Stream, op: Op| t.accesses.iter().any(|a| a.stream == s && a.op == op);
    assert!(has(Stream::Z, Op::Read));
    assert!(
        !has(Stream::Z, Op::Write),
        "transparent geometry wrote depth"
    );
    assert!(
        has(Stream::Rt, Op::Read),
        "blending must read the destination"
    );
    assert!(has(Stream::Rt, Op::Write));
}

#[test]
fn every_draw_fetches_its_shader_right_after_draw_begin() {
    let scene = full();
    let (recs, _) = render(&scene, config(64, 48));
    let mut draws = 0;
    for (i, r) in recs.iter().enumerate() {
        if let Record::Marker(Marker::DrawBegin { .. }) = r {
            draws += 1;
            let next: Vec<&Record> = recs[i + 1..].iter().take(2).collect();
            for n in next {
                assert!(
                    matches!(n, Record::Access(a) if a.stream == Stream::Shader && a.op == Op::Read),
                    "draw {draws} starts with {n:?}"
                );
            }
        }
    }
    // Instances in shadow, reflection (minus the reflective ground), G-buffer,
    // plus full-screen and post draws.
    assert!(draws > 3 * scene.instances.len());
}

#[test]
fn forward_mode_lights_with_the_shadow_map() {
    let scene = full();
    let cfg = FrameConfig {
        passes: Some(Passes {
            deferred: false,
            ..Passes::default()
        }),
        ..config(96, 64)
    };
    let (recs, r) = render(&scene, cfg);
    let ps = passes(&recs);
    let f = pass(&ps, "forward");
    let map = &r.depth_target("shadow").expect("shadow").surface;
    let tex = blocks(&f.accesses, Stream::Tex, Op::Read);
    assert!(!inside(&tex, map).is_empty());
    let refl = &r.color_target("reflection").expect("refl").surface;
    assert!(!inside(&tex, refl).is_empty());
    // No stencil test in forward mode (the clear still writes the plane).
    assert!(!f
        .accesses
        .iter()
        .any(|a| a.stream == Stream::Stc && a.op == Op::Read));
}
