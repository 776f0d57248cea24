//! The sources the simulator is built from and their hash: shared by
//! `build.rs`, which bakes the hash into the build (`GFXCACHE_SOURCES`),
//! and by the test that checks the build's hash is the tree's.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// A crate's subdirectories that do not go into the simulator: its tests,
/// benchmarks, examples and proptest's saved cases.
pub const NOT_BUILT: [&str; 4] = ["tests", "benches", "examples", "proptest-regressions"];

/// The files and directories, under the workspace `root`, whose contents
/// make the simulator: the workspace's manifest and lock file, each
/// crate's files but its tests, benchmarks and examples, and the Python
/// module's Rust.
pub fn sources(root: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut tops = vec![root.join("Cargo.toml"), root.join("Cargo.lock")];
    for entry in std::fs::read_dir(root.join("crates"))? {
        let krate = entry?.path();
        if !krate.is_dir() {
            continue;
        }
        for entry in std::fs::read_dir(&krate)? {
            let path = entry?.path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if !NOT_BUILT.contains(&name) {
                tops.push(path);
            }
        }
    }
    tops.push(root.join("python").join("Cargo.toml"));
    tops.push(root.join("python").join("src"));
    tops.retain(|p| p.exists());
    tops.sort();
    Ok(tops)
}

/// Every file at or under `path`, in a sorted order.
pub fn files_under(path: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if path.is_dir() {
        let mut entries = std::fs::read_dir(path)?
            .map(|e| e.map(|e| e.path()))
            .collect::<std::io::Result<Vec<_>>>()?;
        entries.sort();
        for e in entries {
            files_under(&e, out)?;
        }
    } else {
        out.push(path.to_path_buf());
    }
    Ok(())
}

/// The SHA-256 of each file's path under `root`, length and bytes, in
/// order; and the top-level paths, for cargo to watch.
pub fn hash_sources(root: &Path) -> std::io::Result<(String, Vec<PathBuf>)> {
    let tops = sources(root)?;
    let mut files = Vec::new();
    for top in &tops {
        files_under(top, &mut files)?;
    }
    let mut hasher = Sha256::new();
    for file in &files {
        let bytes = std::fs::read(file)?;
        let name = file.strip_prefix(root).unwrap_or(file).to_string_lossy();
        hasher.update(name.as_bytes());
        hasher.update([0]);
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(&bytes);
    }
    let digest = hasher.finalize();
    let hex = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    Ok((hex, tops))
}
