//! The frame presets: what each graph holds, that it renders the same
//! records every time, and that every pass really samples, as textures,
//! the blocks the earlier passes it reads drew (render target to texture
//! reuse); graph checks and pass switches.

use crate::scenes;

use gfxcache_render::frame::FrameConfig;
use gfxcache_render::graph::{FrameGraph, Op, PresetParams, Role, TargetFormat, TargetSize};
use gfxcache_render::scene::{AlphaMode, Instance, Material, Passes, Scene};
use gfxcache_render::{Mat4, Preset, Vec3};
use gfxcache_trace::{Access, Stream};

/// `scenes::full` (mirror, glass, masked lamp) with a smoke particle.
fn scene() -> Scene {
    let mut s = scenes::full();
    s.materials.push(Material {
        name: "smoke".into(),
        texture: Some(0),
        alpha: AlphaMode::Blend,
        double_sided: true,
        particle: true,
        ..Material::default()
    });
    let mut card = scenes::plane(1.0, s.materials.len() - 1);
    card.name = "smoke".into();
    s.meshes.push(card);
    s.instances.push(Instance {
        mesh: s.meshes.len() - 1,
        transform: Mat4::translation(Vec3::new(-1.0, 0.8, 0.5)) * Mat4::rotation_x(1.4),
    });
    s
}

fn config(preset: Preset) -> FrameConfig {
    FrameConfig {
        preset: Some(preset),
        ..scenes::config(96, 64)
    }
}

fn params() -> PresetParams {
    PresetParams {
        shadow_size: None,
        reflection_scale: 0.5,
        bloom_levels: 5,
        passes: Passes::default(),
    }
}

/// The address range of graph target `name`.
fn range(r: &gfxcache_render::frame::FrameRenderer<'_>, name: &str) -> (u64, u64) {
    let s = match r.color_target(name) {
        Some(c) => &c.surface,
        None => &r.depth_target(name).expect("a target").surface,
    };
    (s.base, s.base + s.size_bytes())
}

fn within(a: &Access, (lo, hi): (u64, u64)) -> bool {
    (lo..hi).contains(&a.addr)
}

#[test]
fn every_preset_renders_the_same_records_twice_and_samples_what_it_reads() {
    let scene = scene();
    for preset in Preset::ALL {
        let (recs, r) = scenes::render(&scene, config(preset));
        let (again, _) = scenes::render(&scene, config(preset));
        assert!(
            recs == again,
            "{preset}: records differ between two renders"
        );
        let threaded = FrameConfig {
            threads: 3,
            ..config(preset)
        };
        let (threaded, _) = scenes::render(&scene, threaded);
        assert!(recs == threaded, "{preset}: records depend on the threads");
        let drawn = scenes::passes(&recs);
        let graph = r.graph().clone();
        let names: Vec<&str> = drawn.iter().map(|p| p.name.as_str()).collect();
        let expected: Vec<&str> = graph.passes.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, expected, "{preset}: every pass draws, in order");
        for (k, p) in graph.passes.iter().enumerate() {
            // Cascades: a pixel samples the nearest that holds it, so a far
            // one may hold no visible pixel of a small scene; the first
            // must serve.
            let first_shadow = p.reads.iter().position(|(role, _)| *role == Role::Shadow);
            for (j, (role, target)) in p.reads.iter().enumerate() {
                if *role == Role::Shadow && Some(j) != first_shadow {
                    continue;
                }
                let span = range(&r, target);
                let tex = drawn[k]
                    .accesses
                    .iter()
                    .filter(|a| a.stream == Stream::Tex && within(a, span))
                    .count();
                assert!(
                    tex > 0,
                    "{preset}: pass {} reads no texel of its {} target {target}",
                    p.name,
                    role.name()
                );
                // Render target to texture: some block this pass samples
                // was drawn by an earlier pass of the frame.
                let written: std::collections::HashSet<u64> = drawn[..k]
                    .iter()
                    .flat_map(|q| &q.accesses)
                    .filter(|a| a.op.is_write() && within(a, span))
                    .map(|a| a.addr & !63)
                    .collect();
                let reused = drawn[k]
                    .accesses
                    .iter()
                    .any(|a| a.stream == Stream::Tex && written.contains(&(a.addr & !63)));
                assert!(
                    reused,
                    "{preset}: pass {} samples no block drawn earlier in {target}",
                    p.name
                );
            }
        }
    }
}

#[test]
fn the_dx11_preset_has_the_passes_of_its_engine_class() {
    let g = Preset::Dx11Deferred.graph(&params());
    let names: Vec<&str> = g.passes.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "shadow0",
            "shadow1",
            "shadow2",
            "shadow3",
            "gbuffer",
            "ssao",
            "ssao-blur-x",
            "ssao-blur-y",
            "lighting",
            "sky",
            "refraction-copy",
            "transparent",
            "particles",
            "luminance",
            "bloom",
            "dof",
            "tonemap",
            "fxaa",
            "ui"
        ]
    );
    g.check().unwrap();
    // SSAO at half resolution, the luminance chain down to 1x1.
    let (_, ao) = g.target("ao").unwrap();
    assert_eq!(ao.size.resolve(1920, 1080), (960, 540));
    let lum = g.passes.iter().find(|p| p.op == Op::Luminance).unwrap();
    let last = g.target(lum.color.last().unwrap()).unwrap().1;
    assert_eq!(last.size.resolve(1920, 1080), (1, 1));
    assert_eq!(last.size.resolve(3840, 2160), (1, 1));
}

#[test]
fn the_mobile_presets_draw_straight_into_the_display() {
    for preset in [Preset::MobileForward, Preset::MobileDeferredLite] {
        let g = preset.graph(&params());
        let display = g
            .targets
            .iter()
            .find(|t| t.format == TargetFormat::Display)
            .unwrap();
        let main = g
            .passes
            .iter()
            .find(|p| matches!(p.op, Op::Forward { .. } | Op::Lighting { .. }))
            .unwrap();
        assert_eq!(main.color[0], display.name, "{preset}");
        assert!(
            !g.targets.iter().any(|t| t.name == "hdr"),
            "{preset} has no HDR target"
        );
    }
}

#[test]
fn shadow_maps_follow_the_screen_unless_fixed() {
    let g = Preset::Classic.graph(&params());
    let (_, shadow) = g.target("shadow").unwrap();
    assert_eq!(shadow.size.resolve(1920, 1080), (2048, 2048));
    assert_eq!(shadow.size.resolve(960, 540), (1024, 1024));
    let fixed = Preset::Classic.graph(&PresetParams {
        shadow_size: Some(300),
        ..params()
    });
    assert_eq!(
        fixed.target("shadow").unwrap().1.size,
        TargetSize::Fixed {
            width: 300,
            height: 300
        }
    );
}

#[test]
fn post_switched_off_passes_sources_through() {
    let g = Preset::Dx11Deferred.graph(&PresetParams {
        passes: Passes {
            post: false,
            ..Passes::default()
        },
        ..params()
    });
    g.check().unwrap();
    let names: Vec<&str> = g.passes.iter().map(|p| p.name.as_str()).collect();
    for gone in ["ssao", "ssao-blur-x", "luminance", "bloom", "dof"] {
        assert!(!names.contains(&gone), "{gone} still there");
    }
    let tone = g.passes.iter().find(|p| p.op == Op::ToneMap).unwrap();
    assert_eq!(tone.reads, vec![(Role::Source, "hdr".to_string())]);
    let lighting = g.passes.iter().find(|p| p.name == "lighting").unwrap();
    assert!(lighting.reads.iter().all(|(r, _)| *r != Role::Ao));
}

/// A graph with `edit` applied must fail its check with `says` in the
/// message.
fn refused(edit: impl FnOnce(&mut FrameGraph), says: &str) {
    let mut g = Preset::Dx11Deferred.graph(&params());
    edit(&mut g);
    let e = g.check().expect_err(says).to_string();
    assert!(e.contains(says), "{e:?} should say {says:?}");
}

#[test]
fn graphs_that_cannot_run_are_refused_by_name() {
    refused(|g| g.passes.swap(4, 5), "which no earlier pass draws");
    refused(|g| g.passes[5].reads.clear(), "reads no depth target");
    refused(
        |g| g.passes[8].reads.push((Role::Shadow, "ao".into())),
        "reads colour target \"ao\" as shadow",
    );
    refused(
        |g| g.passes[5].color.push("nowhere".into()),
        "colour targets",
    );
    refused(|g| g.passes[0].depth = None, "needs a depth target");
    refused(
        |g| g.passes[8].depth = Some("cascade0".into()),
        "has no stencil",
    );
    refused(
        |g| {
            let mut d = g.targets[0].clone();
            d.name = "second".into();
            d.format = TargetFormat::Display;
            g.targets.push(d);
        },
        "exactly one display target",
    );
    refused(|g| g.targets[1].name = "cascade0".into(), "used twice");
    refused(
        |g| {
            g.targets[0].size = TargetSize::Fixed {
                width: 0,
                height: 4,
            }
        },
        "out of range",
    );
}

#[test]
fn a_frame_config_that_picks_a_preset_needs_no_scene_change() {
    let scene = scene();
    let (_, r) = scenes::render(&scene, config(Preset::MobileForward));
    assert!(r
        .graph()
        .passes
        .iter()
        .any(|p| matches!(p.op, Op::Forward { ui: Some(24), .. })));
    let mut forward = config(Preset::Dx11Deferred);
    forward.passes = Some(Passes {
        deferred: false,
        ..Passes::default()
    });
    let e = gfxcache_render::frame::FrameRenderer::new(&scene, forward)
        .err()
        .expect("the forward switch is the classic preset's");
    assert!(e.to_string().contains("classic"), "{e}");
}

#[test]
fn the_mobile_main_pass_draws_blended_instances_and_particles_too() {
    let scene = scene();
    let cfg = config(Preset::MobileForward);
    let mut r = gfxcache_render::frame::FrameRenderer::new(&scene, cfg).unwrap();
    let summary = r.render(0, 1, &mut |_| {}).unwrap();
    let names: Vec<&str> = summary.passes.iter().map(|p| p.name.as_str()).collect();
    // The HUD is the main pass's last draw: no pass of its own.
    assert_eq!(names, ["shadow", "forward"]);
    let forward = &summary.passes[1];
    assert_eq!(forward.stats.draws as usize, scene.instances.len() + 1);
    // Without transparent geometry the main pass draws the opaque ones only.
    let off = FrameConfig {
        passes: Some(Passes {
            transparent: false,
            ..Passes::default()
        }),
        ..config(Preset::MobileForward)
    };
    let mut r = gfxcache_render::frame::FrameRenderer::new(&scene, off).unwrap();
    let summary = r.render(0, 1, &mut |_| {}).unwrap();
    let blended = scene
        .instances
        .iter()
        .filter(|i| scene.materials[scene.meshes[i.mesh].material].alpha == AlphaMode::Blend)
        .count();
    assert_eq!(
        summary.passes[1].stats.draws as usize,
        scene.instances.len() - blended + 1
    );
}

/// A scene with an interface of its own: its interface instances are drawn
/// by the pass that draws the interface (the UI pass; the mobile main
/// pass), in place of the preset's HUD, and by no other; without one, that
/// pass draws the HUD's 24 or 48 quads in one draw.
#[test]
fn the_ui_pass_draws_the_scene_interface_instead_of_the_hud() {
    let plain = scene();
    let mut own = scene();
    own.materials.push(Material {
        name: "panel".into(),
        texture: Some(0),
        alpha: AlphaMode::Blend,
        double_sided: true,
        interface: true,
        ..Material::default()
    });
    for x in [-0.5, 0.5] {
        let mut panel = scenes::plane(0.2, own.materials.len() - 1);
        panel.name = "panel".into();
        own.meshes.push(panel);
        own.instances.push(Instance {
            mesh: own.meshes.len() - 1,
            transform: Mat4::translation(Vec3::new(x, 1.0, 1.0)) * Mat4::rotation_x(1.2),
        });
    }
    assert!(own.has_interface() && !plain.has_interface());
    for (preset, ui_pass, hud_quads) in [
        (Preset::MobileForward, "forward", 24),
        (Preset::Dx11Deferred, "ui", 48),
    ] {
        let run = |s: &Scene| {
            let mut r = gfxcache_render::frame::FrameRenderer::new(s, config(preset)).unwrap();
            r.render(0, 1, &mut |_| {}).unwrap()
        };
        let (with, without) = (run(&own), run(&plain));
        let pass = |s: &gfxcache_render::frame::FrameSummary, name: &str| {
            s.passes
                .iter()
                .find(|p| p.name == name)
                .unwrap_or_else(|| panic!("{preset}: no {name} pass"))
                .stats
                .clone()
        };
        let (ui, hud) = (pass(&with, ui_pass), pass(&without, ui_pass));
        // Two draws of two triangles in place of one draw of the quads.
        assert_eq!(ui.draws, hud.draws + 1, "{preset}");
        assert_eq!(
            ui.triangles_in + 2 * hud_quads,
            hud.triangles_in + 4,
            "{preset}"
        );
        // No other pass draws the interface: the world's passes draw the
        // same as without it.
        assert_eq!(with.passes.len(), without.passes.len());
        for (a, b) in with.passes.iter().zip(&without.passes) {
            if a.name != ui_pass {
                assert_eq!(a.stats.draws, b.stats.draws, "{preset}: {}", a.name);
            }
        }
    }
}

/// The deferred-lite light pass draws the blended instances, the particles
/// and the HUD after its full-screen draw, in the same pass; with the
/// transparent switch off, only the full-screen draw and the HUD.
#[test]
fn the_deferred_lite_light_pass_draws_what_follows_into_the_display() {
    let scene = scene();
    let render = |passes: Passes| {
        let cfg = FrameConfig {
            passes: Some(passes),
            ..config(Preset::MobileDeferredLite)
        };
        let mut r = gfxcache_render::frame::FrameRenderer::new(&scene, cfg).unwrap();
        r.render(0, 1, &mut |_| {}).unwrap()
    };
    let summary = render(Passes::default());
    let names: Vec<&str> = summary.passes.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["shadow", "gbuffer", "lighting"]);
    let blended = scene
        .instances
        .iter()
        .filter(|i| scene.material_of(i).alpha == AlphaMode::Blend)
        .count();
    assert!(blended > 0);
    assert_eq!(summary.passes[2].stats.draws as usize, 1 + blended + 1);
    let off = render(Passes {
        transparent: false,
        ..Passes::default()
    });
    assert_eq!(off.passes[2].stats.draws, 2);
}
