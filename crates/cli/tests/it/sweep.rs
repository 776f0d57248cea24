//! `gfxcache sweep`: the README's example sweep killed part way and
//! started again runs only the unfinished jobs and ends with the tables of
//! an unbroken run; flags a study does not take are refused before any
//! work; a failing job is reported while every other result is kept.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

use crate::common::{gfxcache, json, ok};

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/sweeps/two-scenes.toml")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Each job's `result.json` with its modification time.
fn results(out: &Path) -> BTreeMap<PathBuf, SystemTime> {
    let Ok(jobs) = std::fs::read_dir(out.join("jobs")) else {
        return BTreeMap::new();
    };
    jobs.filter_map(|e| {
        let p = e.unwrap().path().join("result.json");
        let t = std::fs::metadata(&p).ok()?.modified().ok()?;
        Some((p, t))
    })
    .collect()
}

/// Every table of a sweep's directory (`sweep.*`, `tables/*`), by name.
fn tables(out: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut t = BTreeMap::new();
    for name in ["sweep.csv", "sweep.parquet"] {
        t.insert(name.to_string(), std::fs::read(out.join(name)).unwrap());
    }
    if let Ok(dir) = std::fs::read_dir(out.join("tables")) {
        for e in dir {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            t.insert(format!("tables/{name}"), std::fs::read(&p).unwrap());
        }
    }
    t
}

#[test]
fn a_sweep_killed_part_way_resumes_to_the_tables_of_an_unbroken_run() {
    let root = tempfile::tempdir().unwrap();
    let whole = root.path().join("whole");
    let first = json(&["sweep", s(&example()), "--out", s(&whole), "--json"]);
    assert_eq!(first["jobs"], 8);
    assert_eq!(first["ran"], 8);
    assert_eq!(first["frames_rendered"], 2);

    // Killed (SIGKILL: no clean-up at all) once its first result is kept.
    let out = root.path().join("killed");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gfxcache"))
        .args(["sweep", s(&example()), "--out", s(&out)])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let start = Instant::now();
    while results(&out).is_empty() {
        assert!(
            child.try_wait().expect("try_wait").is_none(),
            "the sweep ended before its first result"
        );
        assert!(start.elapsed() < Duration::from_secs(300), "no result");
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().expect("kill");
    child.wait().expect("wait");
    let kept = results(&out);
    assert!(!kept.is_empty() && kept.len() < 8, "{} results", kept.len());

    let resumed = json(&["sweep", s(&example()), "--out", s(&out), "--json"]);
    assert_eq!(resumed["already_done"], kept.len());
    assert_eq!(resumed["ran"], 8 - kept.len());
    assert_eq!(resumed["failed"].as_array().unwrap().len(), 0);
    // Finished jobs did not run again.
    for (p, t) in &kept {
        assert_eq!(
            results(&out).get(p),
            Some(t),
            "{} was rewritten",
            p.display()
        );
    }
    let (a, b) = (tables(&whole), tables(&out));
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (name, bytes) in &a {
        assert!(b[name] == *bytes, "{name} differs from the unbroken run's");
    }
    // The tidy table: per scene, 3 sizes x 4 policies, each with its total.
    let csv = String::from_utf8(a["sweep.csv"].clone()).unwrap();
    let totals = csv
        .lines()
        .filter(|l| l.starts_with("sim,") && l.contains(",all,"))
        .count();
    assert_eq!(totals, 2 * 3 * 4);
    assert!(a.contains_key("tables/gspc-policies.csv"));
    assert!(out.join("index.html").is_file());
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    for fig in [
        "miss-ratio-1.svg",
        "miss-ratio-2.svg",
        "miss-ratio-mean.svg",
    ] {
        assert!(out.join(fig).is_file() && page.contains(fig), "{fig}");
    }
    // The page's template: its contents, its tables linked, no text
    // under 11 px (the figures at their own size, a frame to a row).
    for part in [
        "<nav class=\"toc\">",
        "<a href=\"sweep.csv\">sweep.csv</a>",
        "href=\"#miss-ratio-against-capacity\"",
        "Studies by frame",
    ] {
        assert!(page.contains(part), "{part} missing");
    }
    assert!(!page.contains("flex"), "figures side by side");

    // Again on a finished sweep: nothing runs.
    let again = json(&["sweep", s(&example()), "--out", s(&out), "--json"]);
    assert_eq!(
        (again["ran"].as_u64(), again["already_done"].as_u64()),
        (Some(0), Some(8))
    );
}

fn write_sweep(dir: &Path, text: &str) -> PathBuf {
    let p = dir.join("exp.toml");
    std::fs::write(&p, text).unwrap();
    p
}

const SMALL: &str = "[frames]\nscenes = [\"atrium\"]\nresolutions = [\"160x90\"]\n";

#[test]
fn a_flag_its_study_does_not_take_is_refused_before_any_work() {
    let root = tempfile::tempdir().unwrap();
    let exp = write_sweep(
        root.path(),
        &format!("studies = [\"mrc\", \"gspc\"]\n{SMALL}[flags.gspc]\nno-such-knob = 3\n"),
    );
    let out = root.path().join("out");
    let o = gfxcache(&["sweep", s(&exp), "--out", s(&out)]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("[flags.gspc]") && err.contains("--no-such-knob"),
        "{err}"
    );
    assert!(!out.exists(), "nothing may run");
}

#[test]
fn a_failing_job_is_reported_and_the_others_are_kept() {
    let root = tempfile::tempdir().unwrap();
    // An Attribute Cache larger than the frame can use: what the frame
    // holds, known once tcor has rendered it (a value its command refuses
    // before any work is refused before the sweep's first frame).
    let exp = write_sweep(
        root.path(),
        &format!(
            "studies = [\"mrc\", \"tcor\"]\n{SMALL}modes = [\"tbr\"]\n\
             [flags.tcor]\nsizes = [\"4KiB\", \"64GiB\"]\nno-fetcher-sweep = true\n"
        ),
    );
    let out = root.path().join("out");
    let o = gfxcache(&["sweep", s(&exp), "--out", s(&out), "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("1 of 2 jobs failed"), "{err}");
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let failed = doc["failed"].as_array().unwrap();
    assert_eq!(failed.len(), 1);
    assert!(failed[0]["job"].as_str().unwrap().contains("-tcor-"));
    assert!(
        failed[0]["error"]
            .as_str()
            .unwrap()
            .contains("64GiB is more than this frame can use"),
        "{}",
        failed[0]["error"]
    );
    assert_eq!(doc["ran"], 1);
    let csv = std::fs::read_to_string(out.join("sweep.csv")).unwrap();
    assert!(csv.lines().any(|l| l.starts_with("mrc,atrium,")), "{csv}");
}

#[test]
fn a_repeated_axis_value_runs_one_job_and_writes_no_repeated_row() {
    let root = tempfile::tempdir().unwrap();
    let exp = write_sweep(
        root.path(),
        "studies = [\"sim\"]\npolicies = [\"lru\", \"lru\"]\n\
         [frames]\nscenes = [\"atrium\", \"atrium\"]\nresolutions = [\"160x90\"]\n\
         [cache]\nsizes = [\"256KiB\", \"256KiB\", \"262144\"]\n",
    );
    let out = root.path().join("out");
    let doc = json(&["sweep", s(&exp), "--out", s(&out), "--json"]);
    assert_eq!(
        (doc["jobs"].as_u64(), doc["ran"].as_u64()),
        (Some(1), Some(1))
    );
    let csv = std::fs::read_to_string(out.join("sweep.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    let mut distinct = rows.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), rows.len(), "{csv}");
    let totals = rows
        .iter()
        .filter(|l| l.starts_with("sim,") && l.contains(",all,"))
        .count();
    assert_eq!(totals, 1, "{csv}");
}

/// `gfxcache sweep sub/exp.toml --out out --json` run in `cwd`.
fn sweep_in(cwd: &Path) -> serde_json::Value {
    let o = Command::new(env!("CARGO_BIN_EXE_gfxcache"))
        .args(["sweep", "sub/exp.toml", "--out", "out", "--json"])
        .current_dir(cwd)
        .output()
        .expect("the binary runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn a_scene_file_beside_the_sweep_file_reruns_when_edited_not_when_touched() {
    let root = tempfile::tempdir().unwrap();
    let sub = root.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    let scene = sub.join("quad.obj");
    std::fs::write(
        &scene,
        "v -1 -1 0\nv 1 -1 0\nv 1 1 0\nv -1 1 0\nf 1 2 3\nf 1 3 4\n",
    )
    .unwrap();
    // The scene's path is from the sweep file's directory, not the one
    // the sweep runs in.
    write_sweep(
        &sub,
        "studies = [\"mrc\"]\n[frames]\nscenes = [\"quad.obj\"]\nresolutions = [\"160x90\"]\n",
    );
    let first = sweep_in(root.path());
    assert_eq!(
        (first["jobs"].as_u64(), first["ran"].as_u64()),
        (Some(1), Some(1))
    );

    // Touched (a later modification time, the same bytes): kept.
    let later = SystemTime::now() + Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&scene)
        .unwrap()
        .set_modified(later)
        .unwrap();
    let touched = sweep_in(root.path());
    assert_eq!(
        (touched["ran"].as_u64(), touched["already_done"].as_u64()),
        (Some(0), Some(1))
    );

    // Edited: its frame is rendered again and its job runs again.
    let mut text = std::fs::read_to_string(&scene).unwrap();
    text.push_str("\n# edited\n");
    std::fs::write(&scene, text).unwrap();
    let edited = sweep_in(root.path());
    assert_eq!(
        (edited["ran"].as_u64(), edited["already_done"].as_u64()),
        (Some(1), Some(0))
    );
    assert_eq!(edited["frames_rendered"], 1);
}

/// A `nuca` job on the composed machine (`--l1`) writes the composed
/// study's tables, named so (`compose-runs`), beside no `nuca-` table of
/// its own.
#[test]
fn a_study_on_the_composed_machine_writes_compose_tables() {
    let root = tempfile::tempdir().unwrap();
    let exp = write_sweep(
        root.path(),
        "studies = [\"nuca\"]\n\
         [frames]\nscenes = [\"racer\"]\nmodes = [\"tbr\"]\nresolutions = [\"64x64\"]\n\
         [flags.nuca]\nl1 = \"btc\"\nno-sweeps = true\n",
    );
    let out = root.path().join("out");
    ok(&["sweep", s(&exp), "--out", s(&out), "--json"]);
    let tables = out.join("tables");
    let names: Vec<String> = std::fs::read_dir(&tables)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().any(|n| n == "compose-runs.csv"), "{names:?}");
    assert!(!names.iter().any(|n| n.starts_with("nuca-")), "{names:?}");
}
