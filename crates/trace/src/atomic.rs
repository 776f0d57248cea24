//! Output files that appear under their name only when complete, whoever
//! else writes the same name at the same time.
//!
//! An [`AtomicFile`] is a temporary file beside its target, named
//! `<name>.<random>.partial` (a name that still says what it is and whose it
//! is, and that no other writer, in this process or another, can share).
//! [`AtomicFile::commit`] flushes it to disk, renames it over the target and
//! syncs the directory, so that the target is at every moment either what
//! it was before or the whole new file. Dropped without a commit, or on any
//! error, the temporary is removed. Two processes writing one path thus
//! leave one of their two outputs, whole, and never a mix.
//!
//! Every live temporary is kept in a process-wide registry, beside any
//! directory a caller stages and registers with [`register_dir`], so that a
//! signal handler can remove them all with [`remove_registered`] before the
//! process exits (a destructor never runs on `exit`).

use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use tempfile::NamedTempFile;

/// Random characters in a temporary's name (62^6: collisions are retried).
const RANDOM_CHARS: usize = 6;

/// What a registered path is, for removing it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    File,
    Dir,
}

/// The temporaries of this process that are not yet committed or removed.
struct Registry {
    next_id: u64,
    live: Vec<(u64, PathBuf, Kind)>,
    /// Set by [`remove_registered`]: the process is going away, so nothing
    /// new may be created and nothing renamed into place.
    closed: bool,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    next_id: 0,
    live: Vec::new(),
    closed: false,
});

/// The registry, also after a panic elsewhere held the lock: its state is a
/// list that is valid after every single push or removal.
fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

impl Registry {
    fn refuse_if_closed(&self) -> io::Result<()> {
        if self.closed {
            return Err(io::Error::other(
                "interrupted: the process is exiting and writes no more output",
            ));
        }
        Ok(())
    }

    fn add(&mut self, path: PathBuf, kind: Kind) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.live.push((id, path, kind));
        id
    }

    fn forget(&mut self, id: u64) {
        self.live.retain(|(i, _, _)| *i != id);
    }
}

/// Removes every registered temporary file and directory, and from then on
/// refuses to create or commit any: for a signal handler that is about to
/// exit the process. Returns how many paths it removed.
pub fn remove_registered() -> usize {
    let mut reg = registry();
    reg.closed = true;
    let mut removed = 0;
    for (_, path, kind) in reg.live.drain(..) {
        let r = match kind {
            Kind::File => std::fs::remove_file(&path),
            Kind::Dir => std::fs::remove_dir_all(&path),
        };
        removed += usize::from(r.is_ok());
    }
    removed
}

/// Keeps a directory in the registry, so that [`remove_registered`] removes
/// it (and everything in it) if the process is interrupted. Dropping the
/// guard takes it out of the registry and leaves the directory alone:
/// drop it once the directory has been renamed into place or removed.
#[must_use = "the directory leaves the registry when the guard is dropped"]
#[derive(Debug)]
pub struct Registered {
    id: u64,
}

impl Drop for Registered {
    fn drop(&mut self) {
        registry().forget(self.id);
    }
}

/// Registers `dir`, a directory this process is staging (e.g. a
/// `tempfile::Builder::tempdir_in` beside the directory it will replace);
/// fails once [`remove_registered`] has run.
pub fn register_dir(dir: &Path) -> io::Result<Registered> {
    let path = std::path::absolute(dir)?;
    let mut reg = registry();
    reg.refuse_if_closed()?;
    Ok(Registered {
        id: reg.add(path, Kind::Dir),
    })
}

/// A file being written under a unique temporary name beside its target.
/// Writes go straight to the file: wrap it in a `BufWriter` for many small
/// writes.
#[derive(Debug)]
pub struct AtomicFile {
    /// `None` only inside `commit` and `drop`.
    temp: Option<NamedTempFile>,
    target: PathBuf,
    id: u64,
}

/// The directory a file name lives in (`.` for a bare name).
fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

impl AtomicFile {
    /// Creates `<target>.<random>.partial` in the target's directory. Errors
    /// are the operating system's, as met creating it (a missing or
    /// unwritable directory); the caller names the target.
    pub fn create(target: &Path) -> io::Result<AtomicFile> {
        let Some(name) = target.file_name() else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "expected a file name, found a directory path",
            ));
        };
        let mut prefix = OsString::from(name);
        prefix.push(".");
        let dir = parent_dir(target);
        // Created while holding the registry, so that `remove_registered`
        // never runs between the file's creation and its registration.
        let mut reg = registry();
        reg.refuse_if_closed()?;
        let temp = tempfile::Builder::new()
            .prefix(&prefix)
            .suffix(".partial")
            .rand_bytes(RANDOM_CHARS)
            // Our own `open` (not tempfile's): an output gets the usual
            // permissions (0666 less the umask), not a temporary's 0600,
            // and its errors are the bare OS error.
            .make_in(dir, |path| {
                OpenOptions::new().write(true).create_new(true).open(path)
            })?;
        let id = reg.add(temp.path().to_path_buf(), Kind::File);
        Ok(AtomicFile {
            temp: Some(temp),
            target: target.to_path_buf(),
            id,
        })
    }

    /// Where the data goes until [`AtomicFile::commit`].
    pub fn temp_path(&self) -> &Path {
        self.temp.as_ref().map_or(Path::new(""), |t| t.path())
    }

    /// The name the file gets once committed.
    pub fn target(&self) -> &Path {
        &self.target
    }

    fn file(&mut self) -> io::Result<&mut File> {
        self.temp
            .as_mut()
            .map(|t| t.as_file_mut())
            .ok_or_else(|| io::Error::other("output file already committed"))
    }

    /// Flushes the file to disk, renames it over the target and syncs the
    /// directory. On error the temporary is removed and the target keeps
    /// what it held.
    pub fn commit(mut self) -> io::Result<()> {
        let Some(temp) = self.temp.take() else {
            return Err(io::Error::other("output file already committed"));
        };
        // Data on disk before the name: a crash after the rename must not
        // leave the target empty.
        temp.as_file().sync_all()?;
        {
            // The rename and the registry change under one lock: an
            // interrupt sees the temporary (and removes it) or the
            // complete target, never a target it cannot account for.
            let mut reg = registry();
            reg.refuse_if_closed()?;
            let persisted = temp.persist(&self.target);
            reg.forget(self.id);
            // On error, dropping the returned temporary removes it.
            persisted.map_err(|e| e.error)?;
        }
        sync_dir(parent_dir(&self.target))
    }
}

/// Makes a rename in `dir` durable. Filesystems that cannot sync a
/// directory say so with `EINVAL`; that is no failure of the output.
#[cfg(unix)]
fn sync_dir(dir: &Path) -> io::Result<()> {
    match File::open(dir)?.sync_all() {
        Err(e) if e.kind() == io::ErrorKind::InvalidInput => Ok(()),
        r => r,
    }
}

/// Elsewhere a rename is as durable as the platform makes it.
#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> io::Result<()> {
    Ok(())
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file()?.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.file()?.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.temp {
            Some(t) => t.as_file_mut().flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        // Dropping the temporary removes it; only then may it leave the
        // registry, so that an interrupt in between still removes it.
        drop(self.temp.take());
        registry().forget(self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn partials(dir: &Path) -> Vec<PathBuf> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().ends_with(".partial"))
            .collect()
    }

    fn registered(path: &Path) -> bool {
        registry().live.iter().any(|(_, p, _)| p == path)
    }

    #[test]
    fn commit_renames_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.txt");
        std::fs::write(&target, b"old").unwrap();
        let mut f = AtomicFile::create(&target).unwrap();
        let temp = f.temp_path().to_path_buf();
        let name = temp.file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.starts_with("out.txt.") && name.ends_with(".partial"));
        assert!(registered(&temp));
        f.write_all(b"new").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"old");
        f.commit().unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        assert!(partials(dir.path()).is_empty());
        assert!(!registered(&temp));
    }

    #[test]
    fn drop_without_commit_removes_the_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.txt");
        let mut f = AtomicFile::create(&target).unwrap();
        let temp = f.temp_path().to_path_buf();
        f.write_all(b"half").unwrap();
        assert!(temp.exists());
        drop(f);
        assert!(!temp.exists() && !target.exists());
        assert!(partials(dir.path()).is_empty());
        assert!(!registered(&temp));
    }

    #[test]
    fn two_writers_of_one_target_do_not_mix() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.txt");
        let mut a = AtomicFile::create(&target).unwrap();
        let mut b = AtomicFile::create(&target).unwrap();
        assert_ne!(a.temp_path(), b.temp_path());
        for _ in 0..1000 {
            a.write_all(b"aaaa").unwrap();
            b.write_all(b"bb").unwrap();
        }
        a.commit().unwrap();
        b.commit().unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"bb".repeat(1000));
        assert!(partials(dir.path()).is_empty());
    }

    #[test]
    fn a_missing_directory_is_the_bare_os_error() {
        let dir = tempfile::tempdir().unwrap();
        let e = AtomicFile::create(&dir.path().join("no/such/out.txt")).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        assert!(e.raw_os_error().is_some(), "{e:?}");
        assert!(!e.to_string().contains("partial"), "{e}");
    }

    #[test]
    fn a_registered_directory_leaves_the_registry_with_its_guard() {
        let dir = tempfile::tempdir().unwrap();
        let staged = dir.path().join("report.staged");
        std::fs::create_dir(&staged).unwrap();
        let guard = register_dir(&staged).unwrap();
        assert!(registered(&staged));
        drop(guard);
        assert!(!registered(&staged));
        assert!(staged.is_dir());
    }
}
