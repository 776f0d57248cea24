//! Writing output files so that none is ever lost or left half-written:
//! everything goes to `<path>.partial` first and is renamed over `path`
//! only once complete; on failure the partial file is removed and `path`
//! keeps what it held.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// Runs `write` on `<path>.partial`, then renames it to `path`.
pub fn write_atomically(path: &Path, write: impl FnOnce(&Path) -> Result<()>) -> Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".partial");
    let tmp = PathBuf::from(tmp);
    let result = write(&tmp).and_then(|()| std::fs::rename(&tmp, path).map_err(Into::into));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.with_context(|| format!("cannot write {}", path.display()))
}

/// Writes `bytes` to `path` through [`write_atomically`].
pub fn write_bytes(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomically(path, |tmp| Ok(std::fs::write(tmp, bytes)?))
}
