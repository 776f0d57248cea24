//! A study's report directory is one result: a rerun into it that fails or
//! is killed part way leaves the old report whole, and a finished rerun
//! replaces it whole.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{gfxcache, ok, SMALL_TBR_SCENE};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Every file of `dir` with its bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// What lies beside the report in `root`, but the report `out` itself.
fn beside(root: &Path, out: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p != out)
        .collect()
}

fn gspc(out: &Path, more: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = ["gspc", "--size", "256KiB", "--big-size", "none"]
        .map(String::from)
        .to_vec();
    args.extend(more.iter().map(|a| a.to_string()));
    args.extend(["--out".to_string(), s(out).to_string()]);
    args
}

fn run(args: &[String]) -> std::process::Output {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    gfxcache(&args)
}

const SMALL: &[&str] = &["--scene", "atrium", "--width", "160", "--height", "90"];

#[test]
fn a_failed_rerun_leaves_the_old_report_whole() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("report");
    let tcor = |more: &[&str]| {
        let mut args = vec!["tcor".to_string()];
        args.extend(more.iter().map(|a| a.to_string()));
        args.extend(["--out".to_string(), s(&out).to_string()]);
        args
    };
    assert!(run(&tcor(SMALL)).status.success());
    let before = files(&out);
    assert!(before.contains_key("manifest.json") && before.contains_key("tcor.json"));
    // This rerun renders its frame (of another scene) into the staged
    // report, then fails: a size past what that frame can use is known
    // only once it is rendered.
    let o = run(&tcor(&[
        "--scene", "city", "--width", "160", "--height", "90", "--sizes", "16MiB",
    ]));
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("more than this frame can use"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(files(&out), before, "the old report, every file as it was");
    assert!(
        beside(root.path(), &out).is_empty(),
        "{:?}",
        beside(root.path(), &out)
    );
}

#[test]
fn a_finished_rerun_replaces_the_report_whole() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("report");
    let mut tcor = vec!["tcor", "--sizes", "48KiB", "--out", s(&out)];
    tcor.extend(SMALL_TBR_SCENE);
    ok(&tcor);
    assert!(out.join("tcor.json").exists());
    assert!(run(&gspc(&out, SMALL)).status.success());
    let after = files(&out);
    assert!(after.contains_key("gspc.json"));
    assert!(
        !after.contains_key("tcor.json"),
        "nothing of the old report stays"
    );
    let manifest: serde_json::Value = serde_json::from_slice(&after["manifest.json"]).unwrap();
    let listed: Vec<&str> = manifest["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f[0].as_str().unwrap())
        .collect();
    let on_disk: Vec<&str> = after
        .keys()
        .map(String::as_str)
        .filter(|n| *n != "manifest.json")
        .collect();
    assert_eq!(listed, on_disk);
    for f in manifest["files"].as_array().unwrap() {
        let name = f[0].as_str().unwrap();
        assert_eq!(f[1].as_u64(), Some(after[name].len() as u64), "{name}");
    }
    let report: serde_json::Value = serde_json::from_slice(&after["gspc.json"]).unwrap();
    assert_eq!(report["trace"], s(&out.join("frame.gtr")), "the final path");
    assert!(beside(root.path(), &out).is_empty());
}

#[test]
fn a_directory_that_is_not_a_report_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("mine");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("notes.txt"), "keep me").unwrap();
    let o = run(&gspc(&out, SMALL));
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("notes.txt"));
    assert_eq!(
        std::fs::read_to_string(out.join("notes.txt")).unwrap(),
        "keep me"
    );
    // A study of a trace inside the report it would replace.
    let report = root.path().join("report");
    assert!(run(&gspc(&report, SMALL)).status.success());
    let trace = report.join("frame.gtr");
    let o = run(&gspc(&report, &[s(&trace)]));
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("inside --out"));
    assert!(trace.exists());
}

/// A rerun killed while it simulates (its frame rendered into the staged
/// directory) leaves the old report whole and nothing beside it.
#[cfg(unix)]
#[test]
fn an_interrupted_rerun_leaves_the_old_report_whole() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("report");
    assert!(run(&gspc(&out, SMALL)).status.success());
    let before = files(&out);
    let args = gspc(
        &out,
        &["--scene", "city", "--width", "640", "--height", "360"],
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_gfxcache"))
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let start = Instant::now();
    // The staged directory, once the frame is rendered into it.
    let staged_frame = || {
        beside(root.path(), &out)
            .into_iter()
            .any(|d| d.join("frame.gtr").exists())
    };
    while !staged_frame() {
        assert!(
            child.try_wait().expect("try_wait").is_none(),
            "the study ended before its frame was rendered"
        );
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "no staged frame"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let pid = libc::pid_t::try_from(child.id()).expect("pid");
    // SAFETY: kill(2) on our own child's pid has no memory effects.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let o = child.wait_with_output().expect("wait");
    assert_eq!(
        o.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(files(&out), before, "the old report, every file as it was");
    assert!(
        beside(root.path(), &out).is_empty(),
        "{:?}",
        beside(root.path(), &out)
    );
}
