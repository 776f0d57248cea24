//! The git commit the simulator is built from, for `gfxcache --version`
//! and the sweep's job keys (so that results of another build are not
//! reused): `GFXCACHE_COMMIT`, 12 hex digits, or `unknown` outside a git
//! checkout (a source archive).

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
}

fn main() {
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=GFXCACHE_COMMIT={commit}");
    // Built again when HEAD moves (a commit, a checkout), not on every
    // edit: a build from a changed work tree keeps its commit's name.
    // Only files that exist: cargo takes a missing one for changed, and
    // would build this crate and all above it again every time (a
    // checkout without `packed-refs`).
    let watch = |path: &str| {
        if let Some(p) = git(&["rev-parse", "--git-path", path]) {
            if std::path::Path::new(&p).exists() {
                println!("cargo:rerun-if-changed={p}");
            }
        }
    };
    watch("HEAD");
    watch("packed-refs");
    if let Some(r) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watch(&r);
    }
    println!("cargo:rerun-if-changed=build.rs");
}
