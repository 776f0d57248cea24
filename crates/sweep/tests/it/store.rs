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

#[test]
fn a_study_result_without_its_whole_report_does_not_count() {
    let dir = tempfile::tempdir().unwrap();
    let text = "name = \"s\"\nstudies = [\"nuca\", \"mrc\"]\n[frames]\nscenes = [\"racer\"]\nmodes = [\"tbr\"]\n";
    let jobs = Experiment::parse(text, Path::new("s.toml")).unwrap().jobs();
    let (study, mrc) = (&jobs[0], &jobs[1]);
    assert!(matches!(study.kind, gfxcache_sweep::JobKind::Study(_)));
    let store = Store::open(dir.path()).unwrap();
    store.save(study, &json!(1)).unwrap();
    store.save(mrc, &json!(2)).unwrap();
    // A study's job is done with its report in place, manifest and all.
    assert!(!store.done(study));
    assert!(store.done(mrc));
    std::fs::create_dir_all(store.report_dir(study)).unwrap();
    assert!(!store.done(study));
    std::fs::write(
        store
            .report_dir(study)
            .join(gfxcache_sweep::REPORT_MANIFEST),
        "{}",
    )
    .unwrap();
    assert_eq!(store.load(study), Some(json!(1)));
}

#[test]
fn what_killed_runs_left_is_removed_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let jobs = jobs();
    let store = Store::open(dir.path()).unwrap();
    store.save(&jobs[0], &json!(1)).unwrap();
    let root = dir.path();
    let job = store.job_dir(&jobs[0]);
    let frames = root.join("frames");
    let tables = root.join("tables");
    for d in [
        &frames,
        &tables,
        &frames.join(".render-x1"),
        &frames.join("racer-k"),
    ] {
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::create_dir_all(job.join("report.a1.partial")).unwrap();
    std::fs::create_dir_all(job.join("report.a2.old")).unwrap();
    std::fs::create_dir_all(job.join("report")).unwrap();
    let leftovers = [
        job.join(".tmpX1"),
        root.join("sweep.csv.ab.partial"),
        tables.join("gspc-policies.csv.cd.partial"),
    ];
    for f in &leftovers {
        std::fs::write(f, "x").unwrap();
    }
    let kept = [
        root.join("sweep.csv"),
        tables.join("gspc-policies.csv"),
        job.join("report").join("nuca.json"),
        frames.join("racer-k").join("frame.gtr"),
    ];
    for f in &kept {
        std::fs::write(f, "x").unwrap();
    }
    assert_eq!(store.remove_leftovers().unwrap(), 6);
    for f in &leftovers {
        assert!(!f.exists(), "{}", f.display());
    }
    for d in ["report.a1.partial", "report.a2.old"] {
        assert!(!job.join(d).exists());
    }
    assert!(!frames.join(".render-x1").exists());
    for f in &kept {
        assert!(f.exists(), "{}", f.display());
    }
    assert!(store.done(&jobs[0]));
    assert_eq!(store.remove_leftovers().unwrap(), 0);
}

#[test]
fn a_second_lock_waits_for_the_first_and_is_told_its_owner() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let first = store.lock("sweep one.toml", |_| panic!("free")).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let root = dir.path().to_path_buf();
    let second = std::thread::spawn(move || {
        let store = Store::open(&root).unwrap();
        let _held = store
            .lock("sweep two.toml", |owner| tx.send(owner).unwrap())
            .unwrap();
        std::fs::read_to_string(root.join(".lock")).unwrap()
    });
    let owner = rx.recv().unwrap().expect("the owner is readable");
    assert_eq!(owner.pid, std::process::id());
    assert_eq!(owner.command, "sweep one.toml");
    assert!(owner.to_string().contains("sweep one.toml"));
    // Still waiting while the first holds it.
    std::thread::sleep(std::time::Duration::from_millis(100));
    assert!(!second.is_finished());
    drop(first);
    let text = second.join().unwrap();
    assert!(text.contains("sweep two.toml"), "{text}");
}

#[test]
fn a_directory_that_is_neither_empty_nor_a_store_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    // Missing, or empty: made.
    Store::open(&dir.path().join("new")).unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    Store::open(&empty).unwrap();
    // A store: opened again.
    Store::open(&empty).unwrap();
    // Someone's files: refused, and left alone.
    let home = dir.path().join("home");
    std::fs::create_dir(&home).unwrap();
    std::fs::write(home.join("thesis.tex"), "x").unwrap();
    let e = Store::open(&home).err().expect("refused");
    assert!(e.to_string().contains("no sweep directory"), "{e}");
    assert!(!home.join("jobs").exists());
}
