//! A screen too large for the memory there is: `gfxcache render` exits 1
//! with a message naming what did not fit, never aborts in the allocator.
//! The memory there is: an address-space limit (`ulimit -v`) on the
//! binary.

use std::process::{Command, Output};

/// 2 GiB of address space: room to start the binary and build the city
/// scene (a few hundred MiB of geometry and textures) and render a small
/// frame, none for 16384x16384 render targets (over 10 GiB).
/// `MALLOC_ARENA_MAX` keeps glibc from reserving an arena of address space
/// per thread, which on a many-core machine would eat the limit.
const LIMIT_KIB: u64 = 2 * 1024 * 1024;

fn render_limited(args: &[&str]) -> Output {
    let script = format!("ulimit -v {LIMIT_KIB} && MALLOC_ARENA_MAX=2 exec \"$@\"");
    Command::new("sh")
        .args([
            "-c",
            &script,
            "sh",
            env!("CARGO_BIN_EXE_gfxcache"),
            "render",
        ])
        .args(args)
        .output()
        .expect("sh runs")
}

#[test]
fn oversize_screens_are_an_error_not_an_abort() {
    for mode in ["imr", "tbr"] {
        let out = render_limited(&[
            "--scene", "city", "--mode", mode, "--width", "16384", "--height", "16384",
        ]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{mode}: {stderr}");
        assert!(stderr.contains("out of memory"), "{mode}: {stderr}");
        assert!(stderr.contains("16384x16384"), "{mode}: {stderr}");
        assert!(!stderr.contains("memory allocation of"), "{mode}: {stderr}");
        assert!(out.stdout.is_empty(), "{mode}: a result printed");
    }
    // The limit leaves room to work: a small frame renders under it.
    let out = render_limited(&["--scene", "city", "--width", "64", "--height", "48"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
