//! What the simulator is built from, for `gfxcache --version` and the
//! sweep's job keys (so that results of another build are not reused):
//! - `GFXCACHE_COMMIT`: the git commit, 12 hex digits, or `unknown`
//!   outside a git checkout (a source archive);
//! - `GFXCACHE_SOURCES`: 16 hex digits of the SHA-256 of the sources the
//!   simulator is built from, or `unknown` where the workspace is not
//!   beside this crate. A commit does not say what a changed work tree or
//!   an archive holds; the sources do, so an edit that changes a number
//!   changes every key.

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "sources.rs"]
mod sources;
use sources::hash_sources;

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
    // Built again when HEAD moves (a commit, a checkout). Only files that
    // exist: cargo takes a missing one for changed, and would build this
    // crate and all above it again every time (a checkout without
    // `packed-refs`).
    let watch = |path: &str| {
        if let Some(p) = git(&["rev-parse", "--git-path", path]) {
            if Path::new(&p).exists() {
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

    // Built again on an edit of any source (cargo scans a watched
    // directory whole), so that the hash is always the tree's.
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest.join("..").join("..");
    let in_workspace = root.join("crates").join("sweep").join("build.rs").is_file();
    let sources = match in_workspace.then(|| hash_sources(&root)) {
        Some(Ok((hash, tops))) => {
            for top in tops {
                println!("cargo:rerun-if-changed={}", top.display());
            }
            hash
        }
        Some(Err(e)) => panic!("cannot read the sources to hash them: {e}"),
        None => "unknown".into(),
    };
    println!("cargo:rustc-env=GFXCACHE_SOURCES={sources}");
}
