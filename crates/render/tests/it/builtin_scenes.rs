//! The built-in procedural scenes against the contract the frame renderer
//! relies on: valid meshes and material references, a moving camera,
//! particles as blended sprites, and determinism; and the desktop suite
//! against its class: six genres, a desktop preset, big mipmappable
//! textures, a reflective surface with a mirror, blended and masked
//! geometry, hundreds of thousands of triangles; the mobile suite against
//! its: thousands to tens of thousands of triangles, small
//! block-compressed textures, blended sprites and a mobile frame.

use std::sync::OnceLock;

use gfxcache_render::graph::Preset;
use gfxcache_render::scene::builtin::{Suite, BUILTINS};
use gfxcache_render::{AlphaMode, Scene, TexFormat};

/// Every built-in scene, built once for all tests of this binary (a build
/// generates megabytes of textures).
fn scenes() -> &'static [Scene] {
    static SCENES: OnceLock<Vec<Scene>> = OnceLock::new();
    SCENES.get_or_init(|| BUILTINS.iter().map(|b| (b.build)()).collect())
}

fn each(check: impl Fn(&Scene)) {
    assert!(BUILTINS.len() >= 3, "at least three built-in scenes");
    for (b, s) in BUILTINS.iter().zip(scenes()) {
        assert_eq!(s.name, b.name, "scene name matches its registry name");
        check(s);
    }
}

/// `check` on every scene of the desktop suite: what makes a frame of
/// the GSPC paper's class (DirectX 10/11 games) holds for these.
fn each_desktop(check: impl Fn(&Scene)) {
    let mut n = 0;
    for (b, s) in BUILTINS.iter().zip(scenes()) {
        if b.suite == Suite::Desktop {
            check(s);
            n += 1;
        }
    }
    assert!(n > 0, "no desktop scene");
}

/// The mobile suite: at least the six genres of the TCOR and DTM-NUCA
/// papers' games (2D puzzle, endless runner, racing, shooter, maze, 2D
/// strategy).
const MOBILE_SCENES: usize = 6;

/// `check` on every scene of the mobile suite, which has at least
/// [`MOBILE_SCENES`].
fn each_mobile(check: impl Fn(&Scene)) {
    let mut n = 0;
    for (b, s) in BUILTINS.iter().zip(scenes()) {
        if b.suite == Suite::Mobile {
            check(s);
            n += 1;
        }
    }
    assert!(n >= MOBILE_SCENES, "{n} mobile scenes");
}

/// A mobile frame draws thousands to tens of thousands of triangles.
#[test]
fn mobile_triangle_counts_in_class() {
    each_mobile(|s| {
        let t = s.triangle_count();
        assert!((1_000..100_000).contains(&t), "{}: {t} triangles", s.name);
    });
}

/// The genres of the GSPC paper's games (Assassin's Creed, BioShock,
/// Civilization V, Dirt 2, HAWX 2, Lost Planet 2, DMC, Stalker COP) and
/// benchmarks: open world, corridor shooter, racing, top-down strategy,
/// city, interior.
#[test]
fn the_desktop_suite_has_the_six_genres() {
    let desktop: Vec<&str> = Suite::Desktop.scenes().map(|b| b.name).collect();
    assert!(desktop.len() >= 6, "desktop suite: {desktop:?}");
    for genre in [
        "terrain", "corridor", "racing", "strategy", "city", "atrium",
    ] {
        assert!(desktop.contains(&genre), "no {genre} in {desktop:?}");
    }
}

/// A desktop scene names a desktop engine's frame structure, and its
/// classic passes (what the renderer runs until it runs presets) shade
/// deferred exactly when that structure does.
#[test]
fn desktop_scenes_name_a_desktop_preset() {
    each_desktop(|s| {
        assert!(
            matches!(s.preset, Preset::Dx11Deferred | Preset::Dx9Forward),
            "{}: preset {}",
            s.name,
            s.preset
        );
        assert_eq!(
            s.passes.deferred,
            s.preset == Preset::Dx11Deferred,
            "{}: passes {:?} for {}",
            s.name,
            s.passes,
            s.preset
        );
    });
}

/// Particle sprites are blended and seen from both sides, as frame
/// graphs' particles passes expect.
#[test]
fn particles_are_blended_double_sided_sprites() {
    each(|s| {
        for m in s.materials.iter().filter(|m| m.particle) {
            assert_eq!(m.alpha, AlphaMode::Blend, "{}/{}", s.name, m.name);
            assert!(m.double_sided, "{}/{}: one-sided particle", s.name, m.name);
        }
    });
}

#[test]
fn names_unique_and_described() {
    let mut names: Vec<&str> = BUILTINS.iter().map(|b| b.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), BUILTINS.len(), "duplicate scene name");
    for b in BUILTINS {
        assert!(!b.about.trim().is_empty(), "{} has no description", b.name);
        assert!(gfxcache_render::scene::builtin::find(b.name).is_some());
    }
}

/// Desktop DirectX 10/11 frames draw hundreds of thousands of triangles
/// per view in hundreds of draws.
#[test]
fn desktop_triangle_counts_in_class() {
    each_desktop(|s| {
        let t = s.triangle_count();
        assert!(
            (150_000..=1_000_000).contains(&t),
            "{}: {t} triangles",
            s.name
        );
        assert!(
            s.instances.len() >= 100,
            "{}: {} draws",
            s.name,
            s.instances.len()
        );
    });
}

#[test]
fn meshes_are_well_formed() {
    each(|s| {
        assert!(!s.meshes.is_empty());
        for m in &s.meshes {
            let n = m.positions.len();
            assert_eq!(m.normals.len(), n, "{}/{}: normals", s.name, m.name);
            assert_eq!(m.uvs.len(), n, "{}/{}: uvs", s.name, m.name);
            assert_eq!(m.indices.len() % 3, 0, "{}/{}: indices", s.name, m.name);
            assert!(!m.indices.is_empty(), "{}/{}: empty", s.name, m.name);
            assert!(
                m.indices.iter().all(|&i| (i as usize) < n),
                "{}/{}: index out of range",
                s.name,
                m.name
            );
            for p in &m.positions {
                assert!(p.x.is_finite() && p.y.is_finite() && p.z.is_finite());
            }
            for nrm in &m.normals {
                let l = nrm.length();
                assert!(
                    (l - 1.0).abs() < 1e-3,
                    "{}/{}: normal length {l}",
                    s.name,
                    m.name
                );
            }
            for uv in &m.uvs {
                assert!(
                    uv.x.is_finite() && uv.y.is_finite(),
                    "{}/{}: uv",
                    s.name,
                    m.name
                );
            }
            assert!(
                m.material < s.materials.len(),
                "{}/{}: material",
                s.name,
                m.name
            );
        }
        for i in &s.instances {
            assert!(i.mesh < s.meshes.len(), "{}: instance mesh", s.name);
            assert!(i
                .transform
                .cols
                .iter()
                .all(|c| c.x.is_finite() && c.y.is_finite() && c.z.is_finite() && c.w.is_finite()));
        }
    });
}

#[test]
fn textures_are_valid() {
    each(|s| {
        for m in &s.materials {
            if let Some(t) = m.texture {
                assert!(t < s.images.len(), "{}/{}: texture index", s.name, m.name);
            }
        }
        for img in &s.images {
            assert_eq!(
                img.texels.len(),
                (img.width * img.height) as usize,
                "{}/{}: texel count",
                s.name,
                img.name
            );
        }
    });
}

/// Desktop games of the class ship material textures of 512 to 2048
/// texels a side (smaller ones for glass and sprites).
#[test]
fn desktop_textures_are_large() {
    each_desktop(|s| {
        for img in &s.images {
            assert!(
                img.width.max(img.height) <= 2048,
                "{}/{}: {}x{}",
                s.name,
                img.name,
                img.width,
                img.height
            );
        }
        let big = s
            .images
            .iter()
            .filter(|i| i.width >= 1024 && i.height >= 1024)
            .count();
        assert!(big >= 2, "{}: {big} images of 1024x1024 or more", s.name);
    });
    let largest = scenes()
        .iter()
        .flat_map(|s| &s.images)
        .map(|i| i.width.min(i.height))
        .max();
    assert!(largest >= Some(2048), "no 2048x2048 image in any scene");
}

/// A mobile game's textures: 64 to 512 texels a side and block-compressed,
/// BC1 where every texel is opaque, BC3 where some are not.
#[test]
fn mobile_textures_are_small_and_compressed() {
    each_mobile(|s| {
        assert!(!s.images.is_empty(), "{}: no textures", s.name);
        for img in &s.images {
            for side in [img.width, img.height] {
                assert!(
                    (64..=512).contains(&side),
                    "{}/{}: {}x{}",
                    s.name,
                    img.name,
                    img.width,
                    img.height
                );
            }
            let opaque = img.texels.iter().all(|t| t[3] == 255);
            let want = if opaque {
                TexFormat::Bc1
            } else {
                TexFormat::Bc3
            };
            assert_eq!(img.format, want, "{}/{}", s.name, img.name);
        }
    });
}

/// Blended geometry drawn (sprites, particles).
fn draws_blended(s: &Scene) -> bool {
    s.instances
        .iter()
        .any(|i| s.materials[s.meshes[i.mesh].material].alpha == AlphaMode::Blend)
}

/// A mobile frame: a mobile preset and, until frame graphs run it, the
/// classic passes such a frame has (no shadow map, no reflection, no bloom;
/// a G-buffer only on the deferred-lite frame, which one scene at most
/// uses); blended sprites or particles drawn.
#[test]
fn mobile_scenes_have_a_mobile_frame() {
    let lite = std::cell::Cell::new(0);
    each_mobile(|s| {
        assert!(
            matches!(s.preset, Preset::MobileForward | Preset::MobileDeferredLite),
            "{}: preset {}",
            s.name,
            s.preset
        );
        let p = s.passes;
        assert!(!p.shadow && !p.reflection && !p.post, "{}: {p:?}", s.name);
        assert!(p.transparent, "{}: no transparent pass", s.name);
        assert_eq!(
            p.deferred,
            s.preset == Preset::MobileDeferredLite,
            "{}",
            s.name
        );
        lite.set(lite.get() + p.deferred as u32);
        assert!(draws_blended(s), "{}: nothing blended", s.name);
    });
    assert!(lite.get() <= 1, "{} deferred-lite scenes", lite.get());
}

#[test]
fn reflection_and_blending_present() {
    each_desktop(|s| {
        assert!(s.mirror.is_some(), "{}: no mirror", s.name);
        let used: Vec<usize> = s
            .instances
            .iter()
            .map(|i| s.meshes[i.mesh].material)
            .collect();
        let has = |f: &dyn Fn(&gfxcache_render::Material) -> bool| {
            used.iter().any(|&m| f(&s.materials[m]))
        };
        assert!(
            has(&|m| m.reflective),
            "{}: nothing reflective drawn",
            s.name
        );
        assert!(
            has(&|m| m.alpha == AlphaMode::Blend),
            "{}: nothing blended",
            s.name
        );
        assert!(
            has(&|m| m.alpha == AlphaMode::Mask),
            "{}: nothing masked",
            s.name
        );
        let m = s.mirror.unwrap();
        assert!(m.height.is_finite());
    });
}

#[test]
fn camera_path_moves_and_is_finite() {
    each(|s| {
        let keys = &s.camera.keys;
        assert!(keys.len() >= 3, "{}: {} camera keys", s.name, keys.len());
        for c in keys {
            for v in [c.eye, c.target, c.up] {
                assert!(v.x.is_finite() && v.y.is_finite() && v.z.is_finite());
            }
            assert!((c.target - c.eye).length() > 1e-3);
            assert!(c.fov_y > 0.1 && c.fov_y < 3.0);
            assert!(c.near > 0.0 && c.far > c.near);
        }
        let first = s.camera.at(0, 10);
        let last = s.camera.at(9, 10);
        // A first-person view may turn in place; anything else travels.
        let dir = |c: &gfxcache_render::Camera| (c.target - c.eye).normalize();
        let turn = dir(&first).dot(dir(&last)).clamp(-1.0, 1.0).acos();
        assert!(
            (first.eye - last.eye).length() > 1.0 || turn > 2f32.to_radians(),
            "{}: camera does not move",
            s.name
        );
        let l = s.light.direction;
        assert!(
            l.y < 0.0 && l.length() > 0.5,
            "{}: sun must shine down",
            s.name
        );
        assert!(s.sky.iter().all(|c| c.is_finite() && *c >= 0.0));
    });
}

#[test]
fn building_twice_gives_equal_scenes() {
    let mut mobile = 0;
    for (b, s) in BUILTINS.iter().zip(scenes()) {
        assert!((b.build)() == *s, "{} is not deterministic", b.name);
        mobile += (b.suite == Suite::Mobile) as usize;
    }
    assert!(mobile >= MOBILE_SCENES, "{mobile} mobile scenes checked");
}

/// Front faces are counter-clockwise seen from the side the normals point
/// to: the geometric normal of (almost) every triangle agrees with its
/// vertex normals. Back-face culling and lighting both depend on it.
#[test]
fn windings_agree_with_normals() {
    each(|s| {
        for m in &s.meshes {
            let (mut agree, mut total) = (0usize, 0usize);
            for t in m.indices.chunks_exact(3) {
                let [a, b, c] = [0, 1, 2].map(|k| m.positions[t[k] as usize]);
                let g = (b - a).cross(c - a);
                if g.length() < 1e-9 {
                    continue;
                }
                let n =
                    m.normals[t[0] as usize] + m.normals[t[1] as usize] + m.normals[t[2] as usize];
                total += 1;
                if g.dot(n) > 0.0 {
                    agree += 1;
                }
            }
            assert!(
                agree as f64 >= total as f64 * 0.97,
                "{}/{}: {agree} of {total} triangles face their normals",
                s.name,
                m.name
            );
        }
    });
}

/// Instance transforms are rotation, uniform scale and translation only,
/// so a renderer may transform normals with the model matrix as is.
#[test]
fn instance_transforms_are_rigid() {
    each(|s| {
        for i in &s.instances {
            let c = i.transform.cols;
            let axes = [c[0].truncate(), c[1].truncate(), c[2].truncate()];
            let l = axes[0].length();
            assert!(l > 1e-3, "{}: degenerate instance", s.name);
            for a in 0..3 {
                assert!(
                    (axes[a].length() - l).abs() < 1e-3 * l,
                    "{}: non-uniform scale",
                    s.name
                );
                for b in a + 1..3 {
                    assert!(
                        axes[a].dot(axes[b]).abs() < 1e-3 * l * l,
                        "{}: shear",
                        s.name
                    );
                }
            }
            assert!(c[0].w == 0.0 && c[1].w == 0.0 && c[2].w == 0.0 && c[3].w == 1.0);
        }
    });
}
