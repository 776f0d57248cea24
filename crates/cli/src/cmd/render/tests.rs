//! Tests of `gfxcache render`'s own pieces: the default resolution of
//! each mode, the same trace, picture and summary for any thread count,
//! unwritable outputs.

use super::*;
use gfxcache_render::{
    Camera, CameraPath, Instance, Light, Mat4, Material, Mesh, Passes, Vec2, Vec3,
};
use gfxcache_trace::Marker;

/// A plane and a floating quad under the sun: enough for every pass
/// but reflection.
fn scene() -> Scene {
    let quad = |y: f32, s: f32, material: usize| Mesh {
        name: "quad".into(),
        positions: [(-s, -s), (-s, s), (s, s), (s, -s)]
            .iter()
            .map(|&(x, z)| Vec3::new(x, y, z))
            .collect(),
        normals: vec![Vec3::new(0.0, 1.0, 0.0); 4],
        uvs: vec![Vec2::new(0.0, 0.0); 4],
        indices: vec![0, 1, 2, 0, 2, 3],
        material,
    };
    Scene {
        name: "cli-test".into(),
        meshes: vec![quad(0.0, 5.0, 0), quad(1.0, 1.0, 1)],
        materials: vec![
            Material::default(),
            Material {
                base_color: [1.0, 0.2, 0.2, 0.5],
                alpha: gfxcache_render::AlphaMode::Blend,
                emissive: [3.0, 0.0, 0.0],
                ..Material::default()
            },
        ],
        images: vec![],
        instances: (0..2)
            .map(|mesh| Instance {
                mesh,
                transform: Mat4::IDENTITY,
            })
            .collect(),
        camera: CameraPath::still(Camera {
            eye: Vec3::new(0.0, 6.0, 6.0),
            target: Vec3::new(0.0, 0.0, 0.0),
            up: Vec3::new(0.0, 1.0, 0.0),
            fov_y: 1.0,
            near: 0.5,
            far: 30.0,
        }),
        light: Light::default(),
        mirror: None,
        passes: Passes::default(),
        preset: Default::default(),
        graph: None,
        sky: [0.3, 0.5, 0.9],
        warnings: vec![],
        sources: vec![],
    }
}

fn args(dir: &Path, threads: usize, raw: bool) -> Args {
    Args {
        scene: "cli-test".into(),
        mode: "imr".into(),
        width: Some(64),
        height: Some(48),
        frames: 2,
        out: Some(dir.join(format!("t{threads}{raw}.gtr"))),
        png: Some(dir.join("p.png")),
        binned: None,
        tile_size: 32,
        tile_order: OrderArg::ZOrder,
        binning: BinningArg::Exact,
        processors: Default::default(),
        fp_assignment: FpAssignment::RoundRobin,
        hsr: false,
        texture_requests: None,
        texture_filter: TextureFilterArg::AsAuthored,
        raw,
        json: true,
        threads,
        passes: PassSwitches::default(),
    }
}

#[test]
fn default_resolution_depends_on_the_mode() {
    let dir = tempfile::tempdir().unwrap();
    let mut a = args(dir.path(), 1, false);
    (a.width, a.height) = (None, None);
    assert_eq!(a.resolution(), (1920, 1080));
    a.mode = "tbr".into();
    assert_eq!(a.resolution(), (1960, 768));
    a.height = Some(100);
    assert_eq!(a.resolution(), (1960, 100));
    a.processors.fragment_processors = Some(0);
    let e = a.check().unwrap_err().to_string();
    assert!(e.contains("--fragment-processors 0"), "{e}");
}

#[test]
fn fp_assignment_needs_tile_based_mode_and_reaches_the_request() {
    let dir = tempfile::tempdir().unwrap();
    let mut a = args(dir.path(), 1, false);
    a.fp_assignment = FpAssignment::Tiles;
    let e = a.check().unwrap_err().to_string();
    assert!(e.contains("--fp-assignment"), "{e}");
    a.mode = "tbr".into();
    a.check().unwrap();
    let tbr = a.request().mode.tbr().unwrap();
    assert_eq!(tbr.fp_assignment, FpAssignment::Tiles);
    assert_eq!(
        parse_fp_assignment("blocks").unwrap(),
        FpAssignment::Blocks { side: 16 }
    );
    assert_eq!(
        parse_fp_assignment("blocks:32").unwrap(),
        FpAssignment::Blocks { side: 32 }
    );
    for bad in ["blocks:0", "blocks:6", "blocks:x", "stripes"] {
        assert!(parse_fp_assignment(bad).is_err(), "{bad}");
    }
    let meta = a.request().trace_meta("s");
    assert_eq!(meta.extra["fp_assignment"], "tiles");
}

#[test]
fn trace_png_and_summary_agree_for_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let s = scene();
    let a = render_scene(&s, &args(dir.path(), 1, false)).unwrap();
    let b = render_scene(&s, &args(dir.path(), 2, false)).unwrap();
    let (out, a, b) = (&a, &a.done.summary, &b.done.summary);
    let ta = std::fs::read(dir.path().join("t1false.gtr")).unwrap();
    let tb = std::fs::read(dir.path().join("t2false.gtr")).unwrap();
    assert!(ta == tb, "traces differ between thread counts");
    assert_eq!(a.llc_accesses, b.llc_accesses);
    let mut r = gfxcache_trace::open(&dir.path().join("t1false.gtr")).unwrap();
    assert_eq!(r.meta().resolution, Some([64, 48]));
    assert_eq!(r.meta().frames, Some(2));
    assert_eq!(r.meta().block_size, Some(64));
    let recs = gfxcache_trace::read_all(r.as_mut()).unwrap();
    let accesses = recs
        .iter()
        .filter(|x| matches!(x, Record::Access(_)))
        .count();
    assert_eq!(accesses as u64, a.llc_accesses);
    assert!(a.llc_accesses < a.pipeline_accesses);
    let frames = recs
        .iter()
        .filter(|x| matches!(x, Record::Marker(Marker::FrameBegin { .. })))
        .count();
    assert_eq!(frames, 2);
    let img = image::open(dir.path().join("p.png")).unwrap();
    assert_eq!((img.width(), img.height()), (64, 48));
    assert!(!dir.path().join("p.png.partial").exists());
    assert!(a.per_pass.iter().any(|p| p.name == "transparent"));
    assert!(a.render_caches.iter().all(|c| c.hit_rate <= 1.0));
    assert!(a.overdraw > 0.1 && a.overdraw < 3.0, "{}", a.overdraw);
    let raw = render_scene(&s, &args(dir.path(), 2, true)).unwrap();
    let raw = &raw.done.summary;
    let mut r = gfxcache_trace::open(&dir.path().join("t2true.gtr")).unwrap();
    let n = gfxcache_trace::read_all(r.as_mut())
        .unwrap()
        .iter()
        .filter(|x| matches!(x, Record::Access(_)))
        .count();
    assert_eq!(n as u64, raw.pipeline_accesses);
    assert!(raw.render_caches.is_empty());
    // Shown with --nocapture: what `--json` prints.
    eprintln!("{}", serde_json::to_string_pretty(&out.json()).unwrap());
    assert!(text(out).contains("render cache"));
}

#[test]
fn unwritable_outputs_are_errors() {
    let s = scene();
    let mut a = args(Path::new("/nonexistent-dir"), 2, false);
    assert!(render_scene(&s, &a).is_err());
    a.threads = 1;
    assert!(render_scene(&s, &a).is_err());
}

/// `render`'s arguments as the command line parses `words`.
fn parsed(words: &[&str]) -> Args {
    let words = ["gfxcache", "render", "--scene", "cli-test"]
        .iter()
        .chain(words);
    match <crate::Cli as clap::Parser>::try_parse_from(words)
        .unwrap()
        .command
    {
        crate::Command::Render(a) => a,
        _ => unreachable!("render parses as render"),
    }
}

#[test]
fn fps_is_fragment_processors_former_name_and_warns() {
    let a = parsed(&["--mode", "tbr", "--fps", "8"]);
    a.check().unwrap();
    assert!(matches!(a.request().mode, Mode::Tbr(t) if t.fps == 8));
    let command = crate::Command::Render(a);
    assert_eq!(command.deprecations(), [super::super::FPS_DEPRECATED]);
    let a = parsed(&["--mode", "tbr", "--fragment-processors", "8"]);
    assert!(matches!(a.request().mode, Mode::Tbr(t) if t.fps == 8));
    assert!(crate::Command::Render(a).deprecations().is_empty());
    let a = parsed(&["--mode", "tbr"]);
    assert!(matches!(a.request().mode, Mode::Tbr(t) if t.fps == TbrConfig::default().fps));
    let both = ["gfxcache", "render", "--scene", "x", "--fps", "2"];
    let both = [&both[..], &["--fragment-processors", "2"]].concat();
    assert!(<crate::Cli as clap::Parser>::try_parse_from(both).is_err());
}

#[test]
fn fragment_processors_are_refused_in_immediate_mode() {
    for flag in ["--fps", "--fragment-processors"] {
        let e = parsed(&[flag, "8"]).check().unwrap_err().to_string();
        assert!(e.starts_with(flag) && e.contains("--mode tbr"), "{e}");
    }
    parsed(&[]).check().unwrap();
}

#[test]
fn an_error_names_the_flag_given() {
    for flag in ["--fps", "--fragment-processors"] {
        let e = parsed(&["--mode", "tbr", flag, "0"]).check().unwrap_err();
        assert!(
            e.to_string()
                .starts_with(&format!("{flag} 0: expected 1 to")),
            "{e}"
        );
    }
}
