//! Scene TOML files: the example scene, model placement and flags, cameras
//! and defaults, presets and frames of their own, and errors that name
//! their line.

use std::path::Path;

use crate::loader_checks::*;
use gfxcache_render::scene::{self, SceneError};
use gfxcache_render::Vec3;

#[test]
fn example_scene_toml_loads() {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/scenes/example.toml");
    let s = scene::load(&p).unwrap();
    assert_well_formed(&s);
    assert_eq!(s.name, "example");
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    // tri.obj (2 meshes, 3 triangles) placed twice and box.ac (2 meshes,
    // 3 triangles): the second tri.obj is instances of the first's meshes,
    // with its materials and texture.
    assert_eq!(s.meshes.len(), 4);
    assert_eq!(s.instances.len(), 6);
    assert_eq!(s.triangle_count(), 3 + 3 + 3);
    assert_eq!(s.images.len(), 2);
    assert_eq!(s.instances[2].mesh, s.instances[0].mesh);
    assert_eq!(s.instances[3].mesh, s.instances[1].mesh);
    // Second model: translate (3,0,0), rotate 90 degrees about y, scale 1.5:
    // (1,0,0) -> (0,0,-1.5) -> (3,0,-1.5).
    let p = s.instances[2]
        .transform
        .transform_point(Vec3::new(1.0, 0.0, 0.0))
        .truncate();
    assert!(close3(p, Vec3::new(3.0, 0.0, -1.5)), "{p:?}");
    // Third model's materials are reflective, the others not.
    assert!(s.materials[s.meshes[2].material].reflective);
    assert!(!s.materials[s.meshes[0].material].reflective);
    assert_eq!(s.camera.keys.len(), 2);
    let c = s.camera.keys[0];
    assert!(close3(c.eye, Vec3::new(0.0, 3.0, 8.0)) && close(c.fov_y, 50f32.to_radians()));
    assert!(close(c.near, 0.1) && close(c.far, 100.0));
    assert!(close(s.camera.keys[1].far, 1000.0));
    assert_eq!(s.light.color, [1.0, 0.95, 0.85]);
    assert_eq!(s.mirror, Some(gfxcache_render::Mirror { height: -0.5 }));
    assert_eq!(s.sky, [0.3, 0.45, 0.7]);
    assert!(!s.passes.deferred && s.passes.shadow);
}

#[test]
fn a_toml_model_can_be_the_scene_interface() {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/s.toml");
    let text = "[[model]]\npath = \"tri.obj\"\n[[model]]\npath = \"tri.obj\"\ninterface = true\n";
    let s = scene::toml_scene::parse_str(text, &p).unwrap();
    assert!(s.has_interface());
    let flags: Vec<bool> = s
        .instances
        .iter()
        .map(|i| s.material_of(i).interface)
        .collect();
    // The second model's instances, and only they.
    let half = flags.len() / 2;
    assert!(half > 0 && flags[..half].iter().all(|f| !f) && flags[half..].iter().all(|&f| f));
    let (line, msg) = toml_error("[[model]]\npath = \"tri.obj\"\ninterface = 1\n");
    assert_eq!(line, 3, "{msg}");
}

#[test]
fn a_toml_model_chooses_its_materials_programs() {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/s.toml");
    let text =
        "[[model]]\npath = \"tri.obj\"\nshading = \"pixel-lit\"\n[[model]]\npath = \"tri.obj\"\n";
    let s = scene::toml_scene::parse_str(text, &p).unwrap();
    let shadings: Vec<gfxcache_render::Shading> = s
        .instances
        .iter()
        .map(|i| s.material_of(i).shading)
        .collect();
    // The first placement's materials pixel-lit, the second's the frame's
    // own: the same file, loaded twice.
    let half = shadings.len() / 2;
    assert!(half > 0);
    assert!(shadings[..half]
        .iter()
        .all(|&x| x == gfxcache_render::Shading::PixelLit));
    assert!(shadings[half..]
        .iter()
        .all(|&x| x == gfxcache_render::Shading::Standard));
    let (_, msg) = toml_error("[[model]]\npath = \"tri.obj\"\nshading = \"toon\"\n");
    assert!(
        msg.contains("shading \"toon\"") && msg.contains("pixel-lit"),
        "{msg}"
    );
}

fn toml_error(text: &str) -> (usize, String) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/s.toml");
    match scene::toml_scene::parse_str(text, &dir) {
        Err(SceneError::Line { line, msg, .. }) => (line, msg),
        other => panic!("expected a line error, got {:?}", other.map(|s| s.name)),
    }
}

#[test]
fn scene_toml_errors_name_the_line() {
    let (line, msg) =
        toml_error("[[model]]\npath = \"tri.obj\"\n\n[passes]\nshadow = true\nbloom = false\n");
    assert_eq!(line, 6);
    assert!(msg.contains("bloom"), "{msg}");
    let (line, msg) = toml_error("[[model]]\npath = \"tri.obj\"\nposition = [0, 0]\n");
    assert_eq!(line, 3, "{msg}");
    let (line, msg) = toml_error("[[model]]\npath = \"tri.obj\"\n[[model]]\npath = \"gone.obj\"\n");
    assert_eq!(line, 3);
    assert!(msg.contains("gone.obj"), "{msg}");
    let (line, msg) = toml_error("[[model]]\npath = \"s.toml\"\n");
    assert_eq!(line, 1);
    assert!(msg.contains(".obj"), "{msg}");
    let (line, _) = toml_error("[[model]]\npath = \"tri.obj\"\n[[camera]]\neye = [0, 0, 1]\ntarget = [0, 0, 0]\nnear = 0\n");
    assert_eq!(line, 3);
    let (line, _) = toml_error("sky = [1, 1, 1]\n");
    assert_eq!(line, 1);
    // A scene without cameras gets the framing camera; defaults elsewhere.
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/s.toml");
    let s = scene::toml_scene::parse_str("[[model]]\npath = \"tri.obj\"\nscale = [1, 2, 3]\n", &p)
        .unwrap();
    assert_eq!(s.name, "s");
    assert_eq!(s.camera.keys.len(), 1);
    assert_eq!(s.passes, gfxcache_render::Passes::default());
    assert_eq!(s.light, gfxcache_render::Light::default());
    let q = s.instances[0]
        .transform
        .transform_point(Vec3::new(1.0, 1.0, 1.0))
        .truncate();
    assert!(close3(q, Vec3::new(1.0, 2.0, 3.0)));
}

/// A tiny forward frame of a scene file's own, into the display.
const OWN_FRAME: &str = "[[model]]\npath = \"tri.obj\"\n\
[[target]]\nname = \"depth\"\nformat = \"d24s8\"\n\
[[target]]\nname = \"sun\"\nformat = \"d32f\"\nsquare = 512\n\
[[target]]\nname = \"screen\"\nformat = \"display\"\n\
[[pass]]\nname = \"sun\"\nop = \"shadow\"\ndepth = \"sun\"\n\
[[pass]]\nname = \"main\"\nop = \"forward\"\ncolor = [\"screen\"]\ndepth = \"depth\"\nreads = { shadow = [\"sun\"] }\n";

#[test]
fn a_scene_file_names_a_preset_or_gives_its_own_frame() {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/s.toml");
    let s = scene::toml_scene::parse_str(
        "preset = \"mobile-forward\"\n[[model]]\npath = \"tri.obj\"\n",
        &p,
    )
    .unwrap();
    assert_eq!(s.preset, gfxcache_render::Preset::MobileForward);
    assert!(s.graph.is_none());
    let s = scene::toml_scene::parse_str(OWN_FRAME, &p).unwrap();
    let g = s.graph.as_ref().expect("the file's own frame");
    let names: Vec<&str> = g.passes.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["sun", "main"]);
    // It renders: the main pass reads the sun's map.
    let cfg = gfxcache_render::frame::FrameConfig::new(64, 48);
    let mut r = gfxcache_render::frame::FrameRenderer::new(&s, cfg).unwrap();
    let mut recs = Vec::new();
    let summary = r.render(0, 1, &mut |x| recs.push(x)).unwrap();
    let drawn: Vec<&str> = summary.passes.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(drawn, ["sun", "main"]);
    assert_eq!(r.depth_target("sun").unwrap().width(), 512 * 48 / 1080 + 1);
}

#[test]
fn scene_file_frame_errors_name_the_line() {
    let (line, msg) = toml_error("preset = \"dx12\"\n[[model]]\npath = \"tri.obj\"\n");
    assert_eq!(line, 1);
    assert!(msg.contains("dx11-deferred"), "{msg}");
    // A pass that reads what nothing drew: the line of its table.
    let bad = OWN_FRAME.replace(
        "reads = { shadow = [\"sun\"] }",
        "reads = { shadow = [\"depth\"] }",
    );
    let (line, msg) = toml_error(&bad);
    assert_eq!(line, 17, "{msg}");
    assert!(
        msg.contains("pass 'main'") && msg.contains("no earlier pass"),
        "{msg}"
    );
    let (line, msg) = toml_error(&OWN_FRAME.replace("\"d32f\"", "\"d16\""));
    assert_eq!(line, 6, "{msg}");
    assert!(msg.contains("unknown format"), "{msg}");
    let (line, msg) = toml_error(&format!("preset = \"classic\"\n{OWN_FRAME}"));
    assert_eq!(line, 1, "{msg}");
    assert!(msg.contains("not both"), "{msg}");
    let (line, msg) = toml_error(&OWN_FRAME.replace("op = \"forward\"", "op = \"raytrace\""));
    assert_eq!(line, 17, "{msg}");
    assert!(msg.contains("unknown op"), "{msg}");
}

#[test]
fn scene_toml_sources_are_the_file_then_each_models() {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/scenes/example.toml");
    let s = scene::load(&p).unwrap();
    let models = p
        .parent()
        .unwrap()
        .join("../../crates/render/tests/fixtures");
    assert_eq!(
        s.sources,
        [
            p.clone(),
            models.join("tri.obj"),
            models.join("tri.mtl"),
            models.join("tex2x2.tga"),
            models.join("box.ac"),
            models.join("tex.rgb"),
        ]
    );
    // A model loaded twice (placed with other flags) is listed once.
    let dir = tempfile::tempdir().unwrap();
    let tri = fixture("tri.obj");
    let text = format!(
        "[[model]]\npath = {tri:?}\n[[model]]\npath = {tri:?}\nreflective = true\n[[model]]\npath = {:?}\n",
        fixture("box.ac")
    );
    let p = write(dir.path(), "s.toml", text.as_bytes());
    let s = scene::load(&p).unwrap();
    assert_eq!(
        s.sources,
        [
            p.clone(),
            tri,
            fixture("tri.mtl"),
            fixture("tex2x2.tga"),
            fixture("box.ac"),
            fixture("tex.rgb"),
        ]
    );
}
