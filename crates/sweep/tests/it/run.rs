//! The schedule: each frame rendered once, every job's result kept, a
//! sweep that stopped part way resumed to the same results, failures
//! reported while the others go on.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use gfxcache_cache::progress::quiet;
use gfxcache_sweep::{run, run_one, Experiment, FramePoint, Job, Store};
use serde_json::{json, Value};

fn jobs() -> Vec<Job> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/sweeps/two-scenes.toml");
    Experiment::read(&path).unwrap().jobs()
}

/// A stand-in renderer: the frame's scene in a file.
fn render(count: &AtomicUsize) -> impl Fn(&FramePoint, &Path) -> Result<(), String> + '_ {
    move |frame, dir| {
        count.fetch_add(1, Ordering::Relaxed);
        std::fs::write(dir.join("frame.txt"), &frame.scene).map_err(|e| e.to_string())
    }
}

/// A stand-in job: reads its frame, answers with the scene and its key (a
/// study's job also writes its report, as a study does).
fn exec(job: &Job, dir: &Path, own: &Path) -> Result<Value, String> {
    let scene = std::fs::read_to_string(dir.join("frame.txt")).map_err(|e| e.to_string())?;
    if matches!(job.kind, gfxcache_sweep::JobKind::Study(_)) {
        let report = own.join(gfxcache_sweep::REPORT);
        std::fs::create_dir_all(&report).map_err(|e| e.to_string())?;
        std::fs::write(report.join(gfxcache_sweep::REPORT_MANIFEST), "{}")
            .map_err(|e| e.to_string())?;
    }
    Ok(json!({ "scene": scene, "key": job.key() }))
}

/// The stand-in job run on `store`, its result kept as a worker keeps it.
fn kept(store: &Store) -> impl Fn(&Job) -> Result<(), String> + Sync + '_ {
    move |job| run_one(store, job, exec)
}

fn results(store: &Store, jobs: &[Job]) -> Vec<Option<Value>> {
    jobs.iter().map(|j| store.load(j)).collect()
}

#[test]
fn each_frame_renders_once_and_every_result_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let jobs = jobs();
    let renders = AtomicUsize::new(0);
    let s = run(&jobs, &store, render(&renders), kept(&store), &quiet);
    assert_eq!(
        (s.jobs, s.already_done, s.ran, s.frames_rendered),
        (8, 0, 8, 2)
    );
    assert!(s.failed.is_empty(), "{:?}", s.failed);
    assert_eq!(renders.load(Ordering::Relaxed), 2);
    for (j, r) in jobs.iter().zip(results(&store, &jobs)) {
        assert_eq!(r, Some(json!({ "scene": j.frame.scene, "key": j.key() })));
    }
    // Again: nothing to do.
    let s = run(&jobs, &store, render(&renders), kept(&store), &quiet);
    assert_eq!((s.already_done, s.ran, s.frames_rendered), (8, 0, 0));
    assert_eq!(renders.load(Ordering::Relaxed), 2);
}

#[test]
fn a_sweep_stopped_part_way_resumes_to_the_same_results() {
    let whole = tempfile::tempdir().unwrap();
    let whole_store = Store::open(whole.path()).unwrap();
    let jobs = jobs();
    let renders = AtomicUsize::new(0);
    run(
        &jobs,
        &whole_store,
        render(&renders),
        kept(&whole_store),
        &quiet,
    );

    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    // The first run dies on every job on racer's frame.
    let dying = |job: &Job| {
        if job.frame.scene == "racer" {
            Err("killed".to_string())
        } else {
            run_one(&store, job, exec)
        }
    };
    let s = run(&jobs, &store, render(&renders), dying, &quiet);
    assert_eq!((s.ran, s.failed.len()), (4, 4));
    assert!(s
        .failed
        .iter()
        .all(|f| f.error == "killed" && f.job.starts_with("racer-")));
    let s = run(&jobs, &store, render(&renders), kept(&store), &quiet);
    assert_eq!((s.already_done, s.ran, s.frames_rendered), (4, 4, 0));
    assert_eq!(results(&store, &jobs), results(&whole_store, &jobs));
}

#[test]
fn a_frame_that_fails_to_render_fails_its_jobs_only() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let jobs = jobs();
    let broken = |frame: &FramePoint, d: &Path| {
        if frame.scene == "city" {
            Err("out of memory".to_string())
        } else {
            std::fs::write(d.join("frame.txt"), &frame.scene).map_err(|e| e.to_string())
        }
    };
    let s = run(&jobs, &store, broken, kept(&store), &quiet);
    assert_eq!((s.ran, s.failed.len(), s.frames_rendered), (4, 4, 1));
    assert!(s
        .failed
        .iter()
        .all(|f| f.error.contains("rendering its frame: out of memory")));
    // No half-rendered frame was left to be taken as whole.
    let city = jobs.iter().find(|j| j.frame.scene == "city").unwrap();
    assert!(!store.frame_dir(&city.frame).exists());
    let renders = AtomicUsize::new(0);
    let s = run(&jobs, &store, render(&renders), kept(&store), &quiet);
    assert_eq!((s.ran, s.frames_rendered), (4, 1));
}

#[test]
fn a_job_that_ends_without_its_result_fails() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let jobs = jobs();
    let renders = AtomicUsize::new(0);
    let forgetful = |job: &Job| {
        if job.frame.scene == "racer" {
            Ok(())
        } else {
            run_one(&store, job, exec)
        }
    };
    let s = run(&jobs, &store, render(&renders), forgetful, &quiet);
    assert_eq!((s.ran, s.failed.len()), (4, 4));
    assert!(s.failed.iter().all(|f| f.error.contains("without keeping")));
}

#[test]
fn progress_counts_the_failed_jobs_before_each_ended_one() {
    use gfxcache_cache::Progress;
    use gfxcache_sweep::{JOBS_ENDED, JOBS_FAILED};
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let jobs = jobs();
    let renders = AtomicUsize::new(0);
    let dying = |job: &Job| {
        if job.frame.scene == "racer" {
            Err("killed".to_string())
        } else {
            run_one(&store, job, exec)
        }
    };
    let seen = std::sync::Mutex::new(Vec::new());
    let record = |p: Progress| seen.lock().unwrap().push((p.phase, p.done, p.total));
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(|| run(&jobs, &store, render(&renders), dying, &record));
    let seen = seen.into_inner().unwrap();
    let ended: Vec<u64> = seen
        .iter()
        .filter(|(p, ..)| *p == JOBS_ENDED)
        .map(|(_, d, _)| *d)
        .collect();
    assert_eq!(ended, (0..=8).collect::<Vec<_>>());
    let failed: Vec<u64> = seen
        .iter()
        .filter(|(p, ..)| *p == JOBS_FAILED)
        .map(|(_, d, t)| {
            assert_eq!(*t, 8);
            *d
        })
        .collect();
    assert_eq!(failed, vec![1, 2, 3, 4]);
}

#[test]
fn a_resumed_sweep_counts_only_the_frames_it_renders() {
    use gfxcache_cache::Progress;
    use gfxcache_sweep::FRAMES;
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let jobs = jobs();
    let renders = AtomicUsize::new(0);
    run(&jobs, &store, render(&renders), kept(&store), &quiet);
    // One job's result lost: it runs again on the frame in place.
    std::fs::remove_file(store.job_dir(&jobs[0]).join("result.json")).unwrap();
    let seen = std::sync::Mutex::new(Vec::new());
    let record = |p: Progress| {
        if p.phase == FRAMES {
            seen.lock().unwrap().push((p.done, p.total));
        }
    };
    let s = run(&jobs, &store, render(&renders), kept(&store), &record);
    assert_eq!((s.ran, s.frames_rendered), (1, 0));
    assert_eq!(seen.into_inner().unwrap(), vec![(0, 0)]);
}

/// The studies that render the frames of their own machine (`tcor`,
/// `nuca`, `nbtc`) need no frame of the sweep's: a sweep of them alone
/// renders none.
#[test]
fn a_sweep_of_studies_that_render_their_own_frames_renders_none() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/sweeps/mobile-studies.toml");
    let jobs: Vec<Job> = Experiment::read(&path)
        .unwrap()
        .jobs()
        .into_iter()
        .filter(|j| j.kind.study() != gfxcache_sweep::StudyKind::Mrc)
        .collect();
    assert!(!jobs.is_empty() && jobs.iter().all(|j| !j.kind.reads_frame()));
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path()).unwrap();
    let renders = AtomicUsize::new(0);
    let own = |job: &Job| {
        run_one(&store, job, |_, _, own| {
            let report = own.join(gfxcache_sweep::REPORT);
            std::fs::create_dir_all(&report).map_err(|e| e.to_string())?;
            std::fs::write(report.join(gfxcache_sweep::REPORT_MANIFEST), "{}")
                .map_err(|e| e.to_string())?;
            Ok(json!({ "key": job.key() }))
        })
    };
    let s = run(&jobs, &store, render(&renders), own, &quiet);
    assert!(s.failed.is_empty(), "{:?}", s.failed);
    assert_eq!((s.ran, s.frames_rendered), (jobs.len(), 0));
    assert_eq!(renders.load(Ordering::Relaxed), 0);
}
