//! Running the `gfxcache` binary from the tests, as a user would.

#![allow(dead_code)] // each test file uses its own part

use std::process::{Command, Output};

pub fn gfxcache(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gfxcache"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Stdout of a run that must succeed.
pub fn ok(args: &[&str]) -> String {
    let out = gfxcache(args);
    assert!(
        out.status.success(),
        "gfxcache {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 stdout")
}

/// Stdout of a run that must succeed and print one JSON document.
pub fn json(args: &[&str]) -> serde_json::Value {
    let text = ok(args);
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("stdout of {args:?} is not one JSON document: {e}\n{text}"))
}

/// A scene small enough for a whole TCOR study in seconds: a shadowless
/// terrain at 128x64.
pub const SMALL_TBR_SCENE: &[&str] = &[
    "--scene",
    "terrain",
    "--width",
    "128",
    "--height",
    "64",
    "--no-shadow",
];
