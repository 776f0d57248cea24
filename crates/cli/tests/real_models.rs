//! End to end on real content installed by package name: Debian's
//! `glmark2-data` (`.ci/run` installs it) puts OBJ models under
//! `/usr/share/glmark2/models`; `GFXCACHE_GLMARK2_MODELS` points elsewhere.
//! A missing model is a test failure that says how to install it, never a
//! silent skip.

use std::path::PathBuf;
use std::process::Command;

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

#[test]
fn renders_the_glmark2_bunny() {
    let bunny = model("bunny.obj");
    let dir = tempfile::tempdir().unwrap();
    let gtr = dir.path().join("bunny.gtr");
    let png = dir.path().join("bunny.png");
    let out = Command::new(env!("CARGO_BIN_EXE_gfxcache"))
        .args(["render", "--scene"])
        .arg(&bunny)
        .args([
            "--width", "320", "--height", "180", "--frames", "2", "--json",
        ])
        .arg("--out")
        .arg(&gtr)
        .arg("--png")
        .arg(&png)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // The bunny of glmark2-data has 69,666 triangles, drawn in the shadow
    // and main passes of each of the two frames.
    let tris = v["triangles_in"].as_u64().unwrap();
    assert!(tris >= 4 * 69_666, "triangles_in {tris}");
    assert!(v["triangles_after_cull"].as_u64().unwrap() > 0);
    assert!(v["fragments_shaded"].as_u64().unwrap() > 0);
    for s in ["vidx", "vtx", "z", "rt", "display"] {
        let c = &v["llc"][s];
        let n = c["reads"].as_u64().unwrap_or(0) + c["writes"].as_u64().unwrap_or(0);
        assert!(n > 0, "no {s} traffic in the LLC stream: {c}");
    }
    // The framing camera puts the model in view: the picture is not all sky.
    let img = image::open(&png).unwrap().to_rgba8();
    assert_eq!(img.dimensions(), (320, 180));
    let sky = *img.get_pixel(0, 0);
    let covered = img.pixels().filter(|p| **p != sky).count();
    assert!(
        covered > 320 * 180 / 20,
        "only {covered} pixels differ from the corner's colour"
    );
    assert!(gtr.is_file());
}
