//! End to end on real content installed by package name (`.ci/run`
//! installs both): Debian's `glmark2-data` puts OBJ models under
//! `/usr/share/glmark2/models` (`GFXCACHE_GLMARK2_MODELS` points
//! elsewhere), and `crrcsim-data` AC3D aircraft and scenery under
//! `/usr/share/games/crrcsim`. The example scene files of
//! `examples/scenes/` that use them are rendered here, so that they cannot
//! rot. A missing model is a test failure that says how to install it,
//! never a silent skip. (The TORCS examples need `torcs-data`, 333 MB to
//! download: too large for CI, so no test renders them.)

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn model(name: &str) -> PathBuf {
    let dir = std::env::var_os("GFXCACHE_GLMARK2_MODELS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/share/glmark2/models"));
    let p = dir.join(name);
    assert!(
        p.is_file(),
        "{} is missing: install Debian's glmark2-data (apt-get install glmark2-data) \
         or set GFXCACHE_GLMARK2_MODELS",
        p.display()
    );
    p
}

/// An example scene file, after checking that the package it draws from
/// is installed (`probe`, one of its files).
fn example(name: &str, probe: &str, package: &str) -> PathBuf {
    assert!(
        Path::new(probe).is_file(),
        "{probe} is missing: examples/scenes/{name} needs Debian's {package} \
         (apt-get install {package})"
    );
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/scenes")
        .join(name)
}

/// `gfxcache render --json` of `scene` at 320x180, `frames` frames, with
/// any extra arguments; the trace and picture go to `dir`.
fn render(scene: &Path, frames: u32, extra: &[&str], dir: &Path) -> (serde_json::Value, Output) {
    let out = Command::new(env!("CARGO_BIN_EXE_gfxcache"))
        .args(["render", "--scene"])
        .arg(scene)
        .args(["--width", "320", "--height", "180", "--json", "--frames"])
        .arg(frames.to_string())
        .args(extra)
        .arg("--out")
        .arg(dir.join("frame.gtr"))
        .arg("--png")
        .arg(dir.join("frame.png"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(dir.join("frame.gtr").is_file());
    (v, out)
}

fn llc_traffic(v: &serde_json::Value, stream: &str) -> u64 {
    let c = &v["llc"][stream];
    c["reads"].as_u64().unwrap_or(0) + c["writes"].as_u64().unwrap_or(0)
}

/// Pixels of the picture that differ from its top-left corner's colour.
fn covered(png: &Path) -> usize {
    let img = image::open(png).unwrap().to_rgba8();
    assert_eq!(img.dimensions(), (320, 180));
    let sky = *img.get_pixel(0, 0);
    img.pixels().filter(|p| **p != sky).count()
}

#[test]
fn renders_the_glmark2_bunny() {
    let bunny = model("bunny.obj");
    let dir = tempfile::tempdir().unwrap();
    let (v, _) = render(&bunny, 2, &[], dir.path());
    // The bunny of glmark2-data has 69,666 triangles, drawn in the shadow
    // and main passes of each of the two frames.
    let tris = v["triangles_in"].as_u64().unwrap();
    assert!(tris >= 4 * 69_666, "triangles_in {tris}");
    assert!(v["triangles_after_cull"].as_u64().unwrap() > 0);
    assert!(v["fragments_shaded"].as_u64().unwrap() > 0);
    for s in ["vidx", "vtx", "z", "rt", "display"] {
        assert!(llc_traffic(&v, s) > 0, "no {s} traffic in the LLC stream");
    }
    // The framing camera puts the model in view: the picture is not all sky.
    let n = covered(&dir.path().join("frame.png"));
    assert!(
        n > 320 * 180 / 20,
        "only {n} pixels differ from the corner's colour"
    );
}

#[test]
fn renders_the_glmark2_bunnies_example() {
    model("bunny.obj");
    let scene = example(
        "glmark2-bunnies.toml",
        "/usr/share/glmark2/models/bunny.obj",
        "glmark2-data",
    );
    let dir = tempfile::tempdir().unwrap();
    let (v, out) = render(&scene, 1, &[], dir.path());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("warning"), "{stderr}");
    // Nine bunnies of 69,666 triangles, in the shadow and G-buffer passes:
    // the file's one model placed nine times, each drawn.
    let tris = v["triangles_in"].as_u64().unwrap();
    assert!(tris >= 2 * 9 * 69_666, "triangles_in {tris}");
    for s in ["vidx", "vtx", "z", "rt", "display"] {
        assert!(llc_traffic(&v, s) > 0, "no {s} traffic in the LLC stream");
    }
    // The camera looks at the bunnies, which fill much of the picture.
    let n = covered(&dir.path().join("frame.png"));
    assert!(n > 320 * 180 / 5, "only {n} pixels differ from the sky");
}

#[test]
fn renders_the_crrcsim_flying_field_example() {
    let scene = example(
        "crrcsim-flying-field.toml",
        "/usr/share/games/crrcsim/objects/davis.ac",
        "crrcsim-data",
    );
    let dir = tempfile::tempdir().unwrap();
    let (v, out) = render(&scene, 1, &[], dir.path());
    // Every texture the scene's AC3D files name is found in CRRCsim's
    // textures directory: none is replaced by a checkerboard.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("checkerboard"), "{stderr}");
    // The field, four aircraft of 4,800 to 9,300 triangles and the props:
    // about 29,800 triangles a view (over 25,000 unless a model lost
    // objects), in the shadow and forward passes.
    let tris = v["triangles_in"].as_u64().unwrap();
    assert!(tris >= 2 * 25_000, "triangles_in {tris}");
    // Textured through and through: texture traffic reaches the LLC.
    assert!(
        llc_traffic(&v, "tex") > 0,
        "no texture traffic in the LLC stream"
    );
    assert!(llc_traffic(&v, "z") > 0 && llc_traffic(&v, "display") > 0);
    let n = covered(&dir.path().join("frame.png"));
    assert!(n > 320 * 180 / 5, "only {n} pixels differ from the sky");
}
