//! `--fps`, the former name of `--fragment-processors` (elsewhere fps is
//! frames per second): it still works, saying on stderr that it is
//! deprecated, and immediate mode refuses it, as it refuses
//! `--fragment-processors`, before anything is written.

use std::process::{Command, Output};

const WARNING: &str = "warning: --fps is deprecated; use --fragment-processors";

fn gfxcache(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gfxcache"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `render` of a small tile-based frame with `flag 2`, its trace in `trace`.
fn render(flag: &str, trace: &str) -> Output {
    gfxcache(&[
        "render",
        "--scene",
        "terrain",
        "--mode",
        "tbr",
        "--width",
        "64",
        "--height",
        "32",
        "--no-shadow",
        flag,
        "2",
        "--out",
        trace,
        "--json",
    ])
}

#[test]
fn fps_renders_as_fragment_processors_do_and_warns() {
    let dir = tempfile::tempdir().unwrap();
    let path = |n: &str| dir.path().join(n).display().to_string();
    let old = render("--fps", &path("old.gtr"));
    let new = render("--fragment-processors", &path("new.gtr"));
    for out in [&old, &new] {
        assert!(out.status.success(), "{}", stderr(out));
    }
    assert_eq!(stderr(&old).matches(WARNING).count(), 1, "{}", stderr(&old));
    assert!(!stderr(&new).contains("deprecated"), "{}", stderr(&new));
    let quads = |out: &Output| {
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["tbr"]["quads_per_fp"].clone()
    };
    assert_eq!(quads(&old).as_array().map(Vec::len), Some(2));
    assert_eq!(quads(&old), quads(&new));
    let bytes = |n: &str| std::fs::read(dir.path().join(n)).unwrap();
    assert!(bytes("old.gtr") == bytes("new.gtr"), "the same trace");
}

#[test]
fn immediate_mode_refuses_fps_before_writing_anything() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("frame.gtr");
    for flag in ["--fps", "--fragment-processors"] {
        let out = gfxcache(&[
            "render",
            "--scene",
            "terrain",
            flag,
            "2",
            "--out",
            trace.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        let expected = format!("error: {flag}: fragment processors need --mode tbr");
        assert!(stderr(&out).contains(&expected), "{}", stderr(&out));
        assert!(!trace.exists());
    }
}
