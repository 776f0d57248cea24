//! Output files that are never lost, half-written or mixed up: each is
//! written to a temporary file of its own beside it and renamed over it only
//! once complete ([`gfxcache_trace::atomic`]); and before any work, a
//! command checks its outputs against each other and against its inputs,
//! and that each can be written where it is asked for.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use gfxcache_trace::atomic::AtomicFile;

/// Runs `write` on a unique temporary file beside `path`
/// (`<name>.<random>.partial`), then syncs it and renames it to `path`. On
/// failure the temporary is removed and `path` keeps what it held.
pub fn write_atomically(path: &Path, write: impl FnOnce(&Path) -> Result<()>) -> Result<()> {
    let result = (|| -> Result<()> {
        let file = AtomicFile::create(path)?;
        // `write` reopens the file by name; the data lands in the same
        // file, which `commit` syncs through its own handle.
        write(file.temp_path())?;
        Ok(file.commit()?)
    })();
    result.with_context(|| format!("cannot write {}", path.display()))
}

/// Writes `bytes` to `path`, whole or not at all.
pub fn write_bytes(path: &Path, bytes: &[u8]) -> Result<()> {
    let result = (|| -> std::io::Result<()> {
        let mut file = AtomicFile::create(path)?;
        file.write_all(bytes)?;
        file.commit()
    })();
    result.with_context(|| format!("cannot write {}", path.display()))
}

/// A file named on the command line, with the flag (or argument) that named
/// it; `None` when the flag was not given.
pub type Named<'a> = (&'a str, Option<&'a Path>);

/// Refuses, before any work: two outputs that are the same file, an output
/// that is one of the inputs, an output that is a directory, and an output
/// that cannot be created where it is asked for (missing or unwritable
/// directory: probed by creating and removing a temporary file there).
/// Each error names the flags and the path.
pub fn check_paths(outputs: &[Named], inputs: &[Named]) -> Result<()> {
    let mut seen: Vec<(&str, &Path, PathBuf)> = Vec::new();
    for &(flag, path) in outputs {
        let Some(path) = path else { continue };
        let id = output_identity(flag, path)?;
        let same = seen.iter().find(|(_, p, i)| *i == id || same_file(p, path));
        if let Some((other, other_path, _)) = same {
            bail!(
                "{other} {} and {flag} {} are the same file: each output needs a file of its own",
                other_path.display(),
                path.display()
            );
        }
        for &(input_flag, input) in inputs {
            let Some(input) = input else { continue };
            let is_input = std::fs::canonicalize(input).is_ok_and(|c| c == id);
            if is_input || same_file(input, path) {
                bail!(
                    "{flag} {} is the same file as the input {input_flag} {}: \
                     writing it would destroy what is read",
                    path.display(),
                    input.display()
                );
            }
        }
        seen.push((flag, path, id));
    }
    Ok(())
}

/// What identifies an output that may not exist yet: its directory,
/// canonicalized, and its file name. Proves on the way that a file can be
/// created there.
fn output_identity(flag: &str, path: &Path) -> Result<PathBuf> {
    if path.is_dir() {
        bail!(
            "{flag} {}: is a directory; expected a file name",
            path.display()
        );
    }
    let Some(name) = path.file_name() else {
        bail!("{flag} {}: expected a file name", path.display());
    };
    // Dropped at once: the probe leaves nothing behind.
    AtomicFile::create(path).with_context(|| format!("cannot write {flag} {}", path.display()))?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let dir = std::fs::canonicalize(dir)
        .with_context(|| format!("cannot write {flag} {}", path.display()))?;
    Ok(dir.join(name))
}

/// Whether `a` and `b` both exist and are one file (links included).
#[cfg(unix)]
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

/// Elsewhere, existing files are compared by their canonical paths.
#[cfg(not(unix))]
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(outputs: &[Named], inputs: &[Named]) -> String {
        format!("{:#}", check_paths(outputs, inputs).unwrap_err())
    }

    #[test]
    fn outputs_of_one_file_are_refused_however_spelled() {
        let d = tempfile::tempdir().unwrap();
        let a = d.path().join("x.gtr");
        let b = d.path().join("sub/../x.gtr");
        std::fs::create_dir(d.path().join("sub")).unwrap();
        let e = err(&[("--out", Some(&a)), ("--png", Some(&b))], &[]);
        assert!(
            e.contains(" and --png ") && e.contains("are the same file"),
            "{e}"
        );
        check_paths(
            &[
                ("--out", Some(&a)),
                ("--png", Some(&d.path().join("x.png"))),
            ],
            &[],
        )
        .unwrap();
        // A link to an existing output is the same file.
        std::fs::write(&a, b"trace").unwrap();
        #[cfg(unix)]
        {
            let link = d.path().join("link.gtr");
            std::os::unix::fs::symlink(&a, &link).unwrap();
            let e = err(&[("--out", Some(&a)), ("--binned", Some(&link))], &[]);
            assert!(
                e.contains(" and --binned ") && e.contains("are the same file"),
                "{e}"
            );
        }
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 3);
    }

    #[test]
    fn an_output_that_is_an_input_is_refused() {
        let d = tempfile::tempdir().unwrap();
        let input = d.path().join("a.gtr");
        std::fs::write(&input, b"x").unwrap();
        let same = d.path().join("./a.gtr");
        let e = err(&[("OUTPUT", Some(&same))], &[("INPUT", Some(&input))]);
        assert!(
            e.contains("OUTPUT ") && e.contains("is the same file as the input INPUT "),
            "{e}"
        );
        // An input that does not exist is the reader's error, not this one.
        check_paths(
            &[("OUTPUT", Some(&d.path().join("b.gtr")))],
            &[("INPUT", Some(&d.path().join("missing.gtr")))],
        )
        .unwrap();
    }

    #[test]
    fn outputs_that_cannot_be_written_are_refused() {
        let d = tempfile::tempdir().unwrap();
        let missing = d.path().join("no/x.gtr");
        let e = err(&[("--out", Some(&missing))], &[]);
        assert!(
            e.contains("cannot write --out") && e.contains("no/x.gtr"),
            "{e}"
        );
        // A regular file where a directory should be (fails even for root).
        let file = d.path().join("f");
        std::fs::write(&file, b"").unwrap();
        let e = err(&[("--png", Some(&file.join("x.png")))], &[]);
        assert!(e.contains("cannot write --png"), "{e}");
        let e = err(&[("--out", Some(d.path()))], &[]);
        assert!(e.contains("is a directory"), "{e}");
        // The probes leave nothing behind.
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
    }
}
