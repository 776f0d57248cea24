//! What a signal handler relies on: `atomic::remove_registered` removes every
//! live temporary file and staged directory, and afterwards nothing new is
//! created or renamed into place. Its own test binary, since it closes the
//! process-wide registry for good: beside the crate's other integration
//! tests (one binary, `tests/it/`) it would make their writes fail.

use std::io::Write;

use gfxcache_trace::atomic::{register_dir, remove_registered, AtomicFile};
use gfxcache_trace::{create, TraceMeta};

#[test]
fn remove_registered_removes_every_temporary_and_closes() {
    let d = tempfile::tempdir().expect("temp dir");
    let target = d.path().join("out.bin");
    let mut file = AtomicFile::create(&target).expect("create");
    file.write_all(b"half").expect("write");
    let temp = file.temp_path().to_path_buf();
    let mut trace = create(&d.path().join("t.gtr.zst"), &TraceMeta::default()).expect("trace");
    trace
        .write_marker(&gfxcache_trace::Marker::PassEnd)
        .expect("marker");
    let staged = d.path().join("report.staged");
    std::fs::create_dir(&staged).expect("mkdir");
    std::fs::write(staged.join("index.html"), b"<html>").expect("write");
    let guard = register_dir(&staged).expect("register");
    assert!(temp.exists());

    assert_eq!(remove_registered(), 3);
    let left: Vec<_> = std::fs::read_dir(d.path())
        .expect("dir")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert!(left.is_empty(), "{left:?}");

    // The process is going away: no commit, no new temporary.
    assert!(file.commit().is_err());
    assert!(trace.finish().is_err());
    assert!(!target.exists());
    assert!(AtomicFile::create(&target).is_err());
    assert!(register_dir(d.path()).is_err());
    drop(guard);
    assert_eq!(std::fs::read_dir(d.path()).expect("dir").count(), 0);
}
