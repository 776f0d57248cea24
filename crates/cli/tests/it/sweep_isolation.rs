//! `gfxcache sweep` runs each frame and job in a worker process of its
//! own: a job that aborts fails alone and the others' tables are written;
//! two sweeps on one directory run each job once; a resumed sweep removes
//! what killed runs left; the tables of jobs no longer in the sweep go; a
//! killed sweep takes its workers with it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::json;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn write_sweep(dir: &Path, text: &str) -> PathBuf {
    let p = dir.join("exp.toml");
    std::fs::write(&p, text).unwrap();
    p
}

const SMALL: &str = "[frames]\nscenes = [\"atrium\"]\nresolutions = [\"160x90\"]\n";

fn sweep(exp: &Path, out: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gfxcache"));
    c.args(["sweep", s(exp), "--out", s(out), "--json"]);
    c
}

fn output(mut c: Command) -> Output {
    c.output().expect("the binary runs")
}

/// The job directories under `out` whose name contains `what`.
fn job_dirs(out: &Path, what: &str) -> Vec<PathBuf> {
    std::fs::read_dir(out.join("jobs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().contains(what))
        .collect()
}

#[test]
fn a_job_that_aborts_fails_alone_and_the_others_tables_are_written() {
    let root = tempfile::tempdir().unwrap();
    let exp = write_sweep(
        root.path(),
        &format!(
            "studies = [\"sim\", \"mrc\"]\npolicies = [\"lru\"]\n{SMALL}\
             [cache]\nsizes = [\"64KiB\", \"128KiB\"]\n"
        ),
    );
    let out = root.path().join("out");
    let mut c = sweep(&exp, &out);
    c.env(gfxcache_cli::sweep::worker::TEST_ABORT_JOB, "-mrc-");
    let o = output(c);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("1 of 3 jobs failed"), "{err}");
    assert!(err.contains("3/3 jobs ended, 1 failed"), "{err}");
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let failed = doc["failed"].as_array().unwrap();
    assert_eq!(failed.len(), 1, "{doc}");
    assert!(failed[0]["job"].as_str().unwrap().contains("-mrc-"));
    assert!(
        failed[0]["error"]
            .as_str()
            .unwrap()
            .contains("aborted (SIGABRT)"),
        "{}",
        failed[0]["error"]
    );
    assert_eq!(doc["ran"], 2);
    let csv = std::fs::read_to_string(out.join("sweep.csv")).unwrap();
    let sims = csv
        .lines()
        .filter(|l| l.starts_with("sim,") && l.contains(",all,"))
        .count();
    assert_eq!(sims, 2, "{csv}");
    assert!(!csv.lines().any(|l| l.starts_with("mrc,")), "{csv}");

    // Run again without the abort: only the failed job runs.
    let again = json(&["sweep", s(&exp), "--out", s(&out), "--json"]);
    assert_eq!(
        (again["ran"].as_u64(), again["already_done"].as_u64()),
        (Some(1), Some(2))
    );
}

#[test]
fn two_sweeps_started_together_run_each_job_once() {
    use std::io::{BufRead, Write};
    let root = tempfile::tempdir().unwrap();
    let exp = write_sweep(
        root.path(),
        &format!(
            "studies = [\"sim\", \"mrc\"]\npolicies = [\"lru\"]\n{SMALL}\
             [cache]\nsizes = [\"64KiB\", \"128KiB\"]\n"
        ),
    );
    let out = root.path().join("out");
    // The test holds the store's lock while both sweeps start, so that
    // both must wait however fast the machine: which one runs first is
    // then theirs to settle.
    std::fs::create_dir_all(out.join("jobs")).unwrap();
    let mut held = std::fs::File::create(out.join(".lock")).unwrap();
    held.lock().unwrap();
    writeln!(
        held,
        r#"{{"pid":{},"host":"test","command":"the test","since":0}}"#,
        std::process::id()
    )
    .unwrap();
    let spawn = || {
        let mut child = sweep(&exp, &out)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
        let mut said = String::new();
        while stderr.read_line(&mut said).unwrap() > 0 && !said.contains("is in use by") {}
        assert!(said.contains("the test"), "{said}");
        // The rest of stderr, read to its end so the sweep never blocks.
        let rest = std::thread::spawn(move || {
            let mut rest = String::new();
            std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
            said + &rest
        });
        (child, rest)
    };
    let (a, b) = (spawn(), spawn());
    drop(held);
    let mut ran = 0;
    for (child, stderr) in [a, b] {
        let o = child.wait_with_output().unwrap();
        let err = stderr.join().unwrap();
        assert!(o.status.success(), "{err}");
        let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(doc["jobs"], 3);
        ran += doc["ran"].as_u64().unwrap();
    }
    assert_eq!(ran, 3, "each job runs once");
    assert!(out.join("sweep.csv").is_file());
}

#[test]
fn a_resumed_sweep_removes_what_killed_runs_left_and_reruns_a_job_without_its_report() {
    let root = tempfile::tempdir().unwrap();
    let exp = write_sweep(
        root.path(),
        &format!("studies = [\"mrc\", \"gspc\"]\n{SMALL}"),
    );
    let out = root.path().join("out");
    let first = json(&["sweep", s(&exp), "--out", s(&out), "--json"]);
    assert_eq!(first["ran"], 2);
    let dirs = job_dirs(&out, "-gspc-");
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    let gspc = &dirs[0];
    // What runs killed at various moments leave behind.
    let leftovers = [
        out.join("frames").join(".render-AbC123"),
        gspc.join("report.Xy12.partial"),
        gspc.join("report.Zz99.old"),
    ];
    for d in &leftovers {
        std::fs::create_dir_all(d).unwrap();
    }
    let files = [
        gspc.join(".tmpQw3"),
        out.join("sweep.csv.r4Nd.partial"),
        out.join("tables").join("gspc-policies.csv.a1.partial"),
    ];
    for f in &files {
        std::fs::write(f, "half").unwrap();
    }
    // A result whose report is gone (removed by hand, or a run killed
    // between the two): the job runs again instead of stopping the tables.
    std::fs::remove_dir_all(gspc.join("report")).unwrap();
    let o = output(sweep(&exp, &out));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("removed 6 unfinished files and directories"),
        "{err}"
    );
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (doc["ran"].as_u64(), doc["already_done"].as_u64()),
        (Some(1), Some(1))
    );
    for p in leftovers.iter().chain(&files) {
        assert!(!p.exists(), "{} is left", p.display());
    }
    assert!(gspc.join("report").join("manifest.json").is_file());
}

#[test]
fn tables_of_jobs_no_longer_in_the_sweep_are_removed() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("out");
    let exp = write_sweep(
        root.path(),
        &format!("studies = [\"mrc\", \"gspc\"]\n{SMALL}"),
    );
    let first = json(&["sweep", s(&exp), "--out", s(&out), "--json"]);
    let gspc_tables = |doc: &serde_json::Value| {
        doc["tables"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t.as_str().unwrap().starts_with("tables/gspc-"))
            .count()
    };
    assert!(gspc_tables(&first) > 0, "{first}");
    let on_disk = || {
        std::fs::read_dir(out.join("tables"))
            .map(|d| {
                d.filter(|e| {
                    e.as_ref()
                        .unwrap()
                        .file_name()
                        .to_string_lossy()
                        .starts_with("gspc-")
                })
                .count()
            })
            .unwrap_or(0)
    };
    assert_eq!(on_disk(), gspc_tables(&first));
    // The same directory, a sweep without gspc: its tables go.
    let exp = write_sweep(root.path(), &format!("studies = [\"mrc\"]\n{SMALL}"));
    let second = json(&["sweep", s(&exp), "--out", s(&out), "--json"]);
    assert_eq!(gspc_tables(&second), 0);
    assert_eq!(on_disk(), 0);
}

/// The pids of the sweep workers whose command line names `out`.
fn workers_of(out: &Path) -> Vec<u32> {
    let needle = out.to_string_lossy().into_owned();
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| {
            let e = e.ok()?;
            let pid: u32 = e.file_name().to_str()?.parse().ok()?;
            let cmd = std::fs::read(e.path().join("cmdline")).ok()?;
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            (cmd.contains("sweep-worker") && cmd.contains(&needle)).then_some(pid)
        })
        .collect()
}

#[cfg(target_os = "linux")]
#[test]
fn a_killed_sweep_takes_its_workers_with_it() {
    let root = tempfile::tempdir().unwrap();
    // Long enough a job to be caught running.
    let exp = write_sweep(
        root.path(),
        "studies = [\"gspc\"]\n[frames]\nscenes = [\"city\"]\nresolutions = [\"1280x720\"]\n",
    );
    let out = root.path().join("out");
    let mut child = sweep(&exp, &out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The job's worker names the store; the frame's names its staged
    // directory inside it.
    let start = Instant::now();
    while workers_of(&out).is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no worker started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let start = Instant::now();
    while !workers_of(&out).is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "workers outlived their sweep: {:?}",
            workers_of(&out)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}
