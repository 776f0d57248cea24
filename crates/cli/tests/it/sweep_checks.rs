//! `gfxcache sweep` refuses, before its first frame renders, a sweep any
//! of whose jobs would refuse its arguments (every distinct command line
//! checked as its command checks it), a sweep of more jobs than
//! `--max-jobs`, a sweep file that is no small regular file, and more
//! jobs side by side than cores without `--oversubscribe`.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::{gfxcache, json};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn write_sweep(dir: &Path, text: &str) -> PathBuf {
    let p = dir.join("exp.toml");
    std::fs::write(&p, text).unwrap();
    p
}

/// Whether `out` holds any rendered frame.
fn rendered(out: &Path) -> bool {
    std::fs::read_dir(out.join("frames")).is_ok_and(|mut d| d.next().is_some())
}

/// `gfxcache sweep exp --out out [extra]` refused: its stderr. Nothing
/// was rendered (no `frames/` content) and it took little time.
fn refused(exp: &Path, out: &Path, extra: &[&str]) -> String {
    let start = Instant::now();
    let mut args = vec!["sweep", s(exp), "--out", s(out)];
    args.extend(extra);
    let o = gfxcache(&args);
    let took = start.elapsed();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
    assert!(
        !rendered(out),
        "{args:?} rendered a frame before refusing: {err}"
    );
    assert!(took < Duration::from_secs(30), "{args:?} took {took:?}");
    err
}

/// Two tile-based frame points (the jobs checked are each point's), the
/// studies named, and one table of flags.
fn tbr_sweep(studies: &str, flags: &str) -> String {
    format!(
        "studies = [{studies}]\npolicies = [\"lru\"]\n[frames]\nscenes = [\"atrium\", \"terrain\"]\n\
         resolutions = [\"160x96\"]\nmodes = [\"tbr\", \"imr\"]\n[cache]\nsizes = [\"256KiB\"]\n{flags}"
    )
}

#[test]
fn a_value_any_job_refuses_is_refused_before_any_frame_renders() {
    let root = tempfile::tempdir().unwrap();
    let machine = root.path().join("no-such-machine.toml");
    let cases: Vec<(String, Vec<&str>)> = vec![
        // A policy parameter out of its range, through sim's own check.
        (
            tbr_sweep("\"sim\"", "").replace("[\"lru\"]", "[\"lru\", \"gspc:t=5000\"]"),
            vec!["policies or [flags.sim]", "gspc:t=5000", "1 to 1024"],
        ),
        // A cache gspc cannot make (16-way 64 B blocks in 3 KiB).
        (
            tbr_sweep("\"gspc\"", "[flags.gspc]\nsize = \"3KiB\"\n"),
            vec!["[flags.gspc]", "-gspc-", "3KiB"],
        ),
        // An epoch of 0 texture accesses.
        (
            tbr_sweep("\"nuca\"", "[flags.nuca]\nepoch = 0\nno-sweeps = true\n"),
            vec!["[flags.nuca]", "-nuca-", "epoch"],
        ),
        // A machine file that is not there.
        (
            tbr_sweep(
                "\"tcor\"",
                &format!("[flags.tcor]\nmachine = \"{}\"\n", machine.display()),
            ),
            vec!["[flags.tcor]", "--machine", "no-such-machine.toml"],
        ),
        // An L1 past the largest the NBTC model takes (16 MiB).
        (
            tbr_sweep("\"nbtc\"", "[flags.nbtc]\nl1-size = \"64MiB\"\n"),
            vec!["[flags.nbtc]", "-nbtc-", "--l1-size"],
        ),
        // More fragment processors than the renderer has (256): tcor's
        // frame, refused before it would render.
        (
            tbr_sweep("\"tcor\"", "[flags.tcor]\nfragment-processors = 1000\n"),
            vec!["[flags.tcor]", "--fragment-processors 1000", "1 to 256"],
        ),
        // nuca's other processor counts, each a frame it renders.
        (
            tbr_sweep("\"nuca\"", "[flags.nuca]\nscaling = [4, 512]\n"),
            vec!["[flags.nuca]", "512 fragment processors"],
        ),
        // A render flag the frame configuration refuses (shadow maps of
        // 1 to 16384 pixels).
        (
            tbr_sweep("\"mrc\"", "[flags.render]\nshadow-size = 100000\n"),
            vec!["[flags.render]", "frame atrium-", "shadow map size 100000"],
        ),
        // mrc's sets and ways.
        (
            tbr_sweep("\"mrc\"", "[flags.mrc]\nsets = 0\n"),
            vec!["[flags.mrc]", "-mrc-", "0 sets"],
        ),
        // Settings files that are devices: refused, never read.
        (
            tbr_sweep("\"tcor\"", "[flags.tcor]\nmachine = \"/dev/zero\"\n"),
            vec!["[flags.tcor]", "/dev/zero", "not a regular file"],
        ),
        (
            tbr_sweep("\"nuca\"", "[flags.nuca]\nconfig = \"/dev/zero\"\n"),
            vec!["[flags.nuca]", "--config", "not a regular file"],
        ),
        (
            tbr_sweep("\"nbtc\"", "[flags.nbtc]\nunit = \"/dev/urandom\"\n"),
            vec!["[flags.nbtc]", "--unit", "not a regular file"],
        ),
        (
            tbr_sweep("\"tcor\"", "[flags.tcor]\nenergy = \"/dev/zero\"\n"),
            vec!["[flags.tcor]", "--energy", "not a regular file"],
        ),
    ];
    for (i, (text, words)) in cases.iter().enumerate() {
        let exp = write_sweep(root.path(), text);
        let out = root.path().join(format!("out-{i}"));
        let err = refused(&exp, &out, &[]);
        for w in words {
            assert!(err.contains(w), "case {i}: {w:?} not in {err}");
        }
    }
}

#[test]
fn a_warm_up_leaving_no_frame_is_refused_naming_its_line() {
    let root = tempfile::tempdir().unwrap();
    let exp = write_sweep(
        root.path(),
        "studies = [\"gspc\"]\n[frames]\nscenes = [\"atrium\"]\nresolutions = [\"160x96\"]\n\
         frames = [1, 2]\nwarmup = [0, 1]\n",
    );
    let err = refused(&exp, &root.path().join("out"), &[]);
    assert!(
        err.contains("exp.toml:6: frames.warmup = 1 with frames = 1"),
        "{err}"
    );
}

#[test]
fn more_jobs_than_max_jobs_are_refused_before_they_are_made() {
    let root = tempfile::tempdir().unwrap();
    // 400 frame points x 600 cache geometries: 240 000 sim jobs, past the
    // default limit of 200 000.
    let resolutions: Vec<String> = (0..400).map(|i| format!("\"{}x90\"", 160 + i)).collect();
    let sizes: Vec<String> = (1..=600).map(|i| format!("\"{}KiB\"", 64 * i)).collect();
    let exp = write_sweep(
        root.path(),
        &format!(
            "studies = [\"sim\"]\npolicies = [\"lru\"]\n[frames]\nscenes = [\"atrium\"]\n\
             resolutions = [{}]\n[cache]\nsizes = [{}]\nways = [1]\n",
            resolutions.join(","),
            sizes.join(",")
        ),
    );
    let out = root.path().join("out");
    let err = refused(&exp, &out, &[]);
    assert!(
        err.contains("240000 jobs (400 frame points)") && err.contains("--max-jobs 200000"),
        "{err}"
    );
    assert!(!out.exists());
    // A small one past a small limit, and within it.
    let small = write_sweep(
        root.path(),
        "studies = [\"mrc\", \"gspc\"]\n[frames]\nscenes = [\"atrium\", \"terrain\"]\n\
         resolutions = [\"160x96\"]\n",
    );
    let err = refused(&small, &out, &["--max-jobs", "3"]);
    assert!(
        err.contains("4 jobs (2 frame points)") && err.contains("--max-jobs 3"),
        "{err}"
    );
}

#[test]
fn a_sweep_file_that_is_no_small_regular_file_is_refused() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("out");
    #[cfg(unix)]
    {
        let err = refused(Path::new("/dev/zero"), &out, &[]);
        assert!(
            err.contains("/dev/zero") && err.contains("not a regular file"),
            "{err}"
        );
    }
    let big = root.path().join("big.toml");
    std::fs::write(&big, "#".repeat(2 << 20)).unwrap();
    let err = refused(&big, &out, &[]);
    assert!(err.contains("larger than 1048576 bytes"), "{err}");
    assert!(!out.exists());
}

#[test]
fn more_jobs_side_by_side_than_cores_need_oversubscribe() {
    let root = tempfile::tempdir().unwrap();
    let exp = write_sweep(
        root.path(),
        "studies = [\"mrc\"]\n[frames]\nscenes = [\"atrium\"]\nresolutions = [\"160x96\"]\n",
    );
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let over = (cores + 1).to_string();
    let out = root.path().join("out");
    let err = refused(&exp, &out, &["--jobs", &over]);
    assert!(
        err.contains(&format!("--jobs {over}"))
            && err.contains(&format!("{cores} cores"))
            && err.contains("--oversubscribe"),
        "{err}"
    );
    let err = refused(&exp, &out, &["--jobs", "1000000000", "--oversubscribe"]);
    assert!(err.contains("at most 1024"), "{err}");
    let err = refused(&exp, &out, &["--jobs", "0"]);
    assert!(err.contains("--jobs 0"), "{err}");
    let doc = json(&[
        "sweep",
        s(&exp),
        "--out",
        s(&out),
        "--jobs",
        &over,
        "--oversubscribe",
        "--json",
    ]);
    assert_eq!(
        (doc["jobs"].as_u64(), doc["ran"].as_u64()),
        (Some(1), Some(1))
    );
}

/// What a sweep checks is what each command checks before its work: on
/// its own, each refuses the same values before it reads its scene (a
/// file that is not there, which it would name had it got that far).
#[test]
fn each_command_refuses_them_before_reading_its_scene() {
    let root = tempfile::tempdir().unwrap();
    let scene = root.path().join("missing.obj");
    let out = root.path().join("out");
    let cases: [(&[&str], &str); 5] = [
        (
            &["tcor", "--fragment-processors", "1000"],
            "--fragment-processors 1000",
        ),
        (
            &["nuca", "--scaling", "4,512", "--no-sweeps"],
            "512 fragment processors",
        ),
        (
            &["gspc", "--frames", "2", "--warmup", "2"],
            "--warmup 2 with --frames 2",
        ),
        (&["nbtc", "--width", "20000"], "resolution 20000x"),
        (&["render", "--shadow-size", "0"], "shadow map size 0"),
    ];
    for (args, words) in cases {
        let mut all = args.to_vec();
        all.extend(["--scene", s(&scene), "--out", s(&out)]);
        let o = gfxcache(&all);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{all:?}: {err}");
        assert!(err.contains(words), "{all:?}: {words:?} not in {err}");
        assert!(
            !err.contains("missing.obj"),
            "{all:?} read its scene: {err}"
        );
        assert!(!out.exists(), "{all:?}");
    }
}
