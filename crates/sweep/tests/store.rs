//! The result store keeps whole results only, and a resumed sweep finds
//! exactly the jobs still to run.

use std::path::Path;

use gfxcache_sweep::{Experiment, Store};
use serde_json::json;

fn jobs() -> Vec<gfxcache_sweep::Job> {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/sweeps/two-scenes.toml"),
    )
    .unwrap();
    Experiment::parse(&text, Path::new("two-scenes.toml"))
        .unwrap()
        .jobs()
}

#[test]
fn finished_jobs_are_kept_and_the_rest_are_pending() {
    let dir = tempfile::tempdir().unwrap();
    let jobs = jobs();
    let store = Store::open(dir.path()).unwrap();
    assert_eq!(store.pending(&jobs).len(), jobs.len());
    store.save(&jobs[0], &json!({"misses": 12})).unwrap();
    store.save(&jobs[2], &json!({"misses": 7})).unwrap();
    // A store opened again (a resumed sweep) sees the same.
    let store = Store::open(dir.path()).unwrap();
    assert_eq!(store.load(&jobs[0]), Some(json!({"misses": 12})));
    let pending = store.pending(&jobs);
    assert_eq!(pending.len(), jobs.len() - 2);
    assert!(!pending.contains(&&jobs[0]) && !pending.contains(&&jobs[2]));
    // Saving again replaces the result whole.
    store.save(&jobs[0], &json!({"misses": 13})).unwrap();
    assert_eq!(store.load(&jobs[0]), Some(json!({"misses": 13})));
}

#[test]
fn a_torn_or_foreign_result_does_not_count() {
    let dir = tempfile::tempdir().unwrap();
    let jobs = jobs();
    let store = Store::open(dir.path()).unwrap();
    // A kill mid-write leaves a temporary file beside no result.json.
    let d = store.job_dir(&jobs[1]);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join(".tmpAbC123"), "{\"key\": ").unwrap();
    assert!(!store.done(&jobs[1]));
    // A truncated result.json, or one with another job's key, is not done.
    std::fs::write(d.join("result.json"), "{\"key\": \"").unwrap();
    assert!(!store.done(&jobs[1]));
    let other = format!("{{\"key\": \"{}\", \"result\": 1}}", jobs[0].key());
    std::fs::write(d.join("result.json"), other).unwrap();
    assert!(!store.done(&jobs[1]));
    store.save(&jobs[1], &json!(3)).unwrap();
    assert_eq!(store.load(&jobs[1]), Some(json!(3)));
}
