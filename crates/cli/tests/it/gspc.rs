//! `gfxcache gspc` end to end: a small rendered frame through the whole
//! study, the report files, and the invariants any honest study keeps.

use std::path::Path;

use crate::common;
use crate::common::{gfxcache, json};

use serde_json::Value;

fn study(dir: &Path, input: &[&str]) -> Value {
    let mut args = vec!["gspc"];
    args.extend_from_slice(input);
    args.extend_from_slice(&[
        "--size",
        "256KiB",
        "--big-size",
        "512KiB",
        "--out",
        dir.to_str().unwrap(),
        "--json",
    ]);
    json(&args)
}

fn runs_at(v: &Value, size: u64) -> Vec<&Value> {
    v["policies"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["size"] == size)
        .collect()
}

fn run<'a>(runs: &[&'a Value], policy: &str) -> &'a Value {
    runs.iter()
        .find(|p| p["policy"] == policy)
        .unwrap_or_else(|| panic!("no run of {policy}"))
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

#[test]
fn study_of_a_rendered_frame() {
    let dir = tempfile::tempdir().unwrap();
    let v = study(
        dir.path(),
        &["--scene", "atrium", "--width", "256", "--height", "144"],
    );
    assert_eq!(v["scene"], "atrium");
    assert_eq!(v["sizes"], serde_json::json!([256 * 1024, 512 * 1024]));
    let accesses = v["accesses"].as_u64().unwrap();
    assert!(accesses > 10_000, "a frame makes LLC traffic: {accesses}");

    let mix: f64 = v["stream_mix"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| f(&s["fraction"]))
        .sum();
    assert!((mix - 1.0).abs() < 1e-9, "stream shares sum to 1: {mix}");

    for (size, expected) in [(256 * 1024, 18), (512 * 1024, 12)] {
        let runs = runs_at(&v, size);
        assert_eq!(runs.len(), expected, "runs at {size}");
        let opt = run(&runs, "opt");
        let drrip = run(&runs, "drrip");
        assert_eq!(f(&drrip["misses_vs_drrip"]), 1.0);
        for p in &runs {
            let name = p["policy"].as_str().unwrap();
            assert_eq!(p["accesses"].as_u64(), Some(accesses), "{name}");
            assert!(
                p["misses"].as_u64() >= opt["misses"].as_u64(),
                "opt has the fewest misses, not {name} at {size}"
            );
            for s in ["tex", "rt", "z", "all"] {
                let h = f(&p["hit_rate"][s]);
                assert!((0.0..=1.0).contains(&h), "{name} {s} hit rate {h}");
            }
            let c = f(&p["rt_consumed_fraction"]);
            assert!((0.0..=1.0).contains(&c), "{name} consumed {c}");
            assert!(f(&p["fps"]) > 0.0, "{name} has a frame rate");
            assert!(p["timing"]["baseline"]["frame_ms"].as_f64().unwrap() > 0.0);
        }
        // `+ucd` runs compare their frame rate with `drrip+ucd`.
        assert_eq!(f(&run(&runs, "drrip+ucd")["fps_vs_drrip"]), 1.0);
        assert!(f(&run(&runs, "gspc+ucd")["fps_vs_drrip"]) > 0.0);
    }
    // The sensitivity machines run at the main size only.
    let main = runs_at(&v, 256 * 1024);
    let timing = main[0]["timing"].as_object().unwrap();
    assert_eq!(timing.len(), 3, "{timing:?}");
    let big = runs_at(&v, 512 * 1024);
    assert_eq!(big[0]["timing"].as_object().unwrap().len(), 1);

    // Figure 8 is about RRIP insertions: LRU has no RRPVs, DRRIP does.
    assert!(run(&main, "lru")["tex_fills_at_max_rrpv"].is_null());
    assert!(run(&main, "drrip")["tex_fills_at_max_rrpv"].is_number());

    let e = &v["opt_epochs"]["tex"];
    let entries: Vec<u64> = e["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert!(entries.windows(2).all(|w| w[0] >= w[1]), "{entries:?}");
    assert!(entries[0] > 0, "OPT keeps texture lines");
    assert_eq!(v["t_sensitivity"].as_array().unwrap().len(), 4);

    for file in [
        "frame.gtr",
        "frame.png",
        "gspc.json",
        "index.html",
        "policies.csv",
        "fig12_misses_vs_drrip.svg",
    ] {
        let p = dir.path().join(file);
        let len = std::fs::metadata(&p).map(|m| m.len()).unwrap_or(0);
        assert!(len > 0, "{} written", p.display());
    }
    let on_disk: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("gspc.json")).unwrap())
            .unwrap();
    assert_eq!(on_disk, v, "--json prints gspc.json");
    common::check_page(dir.path(), "frame.png");
    assert_eq!(
        common::too_wide(dir.path()),
        Vec::new(),
        "figures wider than the page"
    );
}

#[test]
fn frames_after_a_warm_up() {
    let dir = tempfile::tempdir().unwrap();
    let v = study(
        dir.path(),
        &[
            "--scene", "city", "--width", "160", "--height", "90", "--frames", "3", "--warmup", "1",
        ],
    );
    assert_eq!(
        (v["frames"].as_u64(), v["warmup"].as_u64()),
        (Some(3), Some(1))
    );
    for p in v["policies"].as_array().unwrap() {
        let frames = p["per_frame"].as_array().unwrap();
        let index: Vec<u64> = frames
            .iter()
            .map(|f| f["frame"].as_u64().unwrap())
            .collect();
        assert_eq!(index, [1, 2], "{}", p["policy"]);
        let misses: u64 = frames.iter().map(|f| f["misses"].as_u64().unwrap()).sum();
        assert_eq!(p["misses"].as_u64(), Some(misses), "{}", p["policy"]);
        assert!(frames.iter().all(|x| f(&x["fps"]) > 0.0));
    }
    let csv = std::fs::read_to_string(dir.path().join("frames.csv")).unwrap();
    assert!(
        csv.lines().any(|l| l.starts_with("gspc,262144,2,")),
        "{csv}"
    );
    // The mean over the frames counted: a run's `frame_mean_*` columns.
    let policies = std::fs::read_to_string(dir.path().join("policies.csv")).unwrap();
    let head: Vec<&str> = policies.lines().next().unwrap().split(',').collect();
    let at = head.iter().position(|c| *c == "frame_mean_misses").unwrap();
    let row = policies
        .lines()
        .find(|l| l.starts_with("gspc,262144,"))
        .unwrap();
    assert!(!row.split(',').nth(at).unwrap().is_empty(), "{row}");

    // The trace the study rendered has three frames; a warm-up of three
    // leaves nothing, and a trace brings its own frames.
    let trace = dir.path().join("frame.gtr");
    let out = gfxcache(&[
        "gspc",
        trace.to_str().unwrap(),
        "--warmup",
        "3",
        "--out",
        "x",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("leaves no frame"));
    let out = gfxcache(&[
        "gspc",
        trace.to_str().unwrap(),
        "--frames",
        "2",
        "--out",
        "x",
    ]);
    assert!(!out.status.success());
}

#[test]
fn same_trace_same_study() {
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("a");
    let mut a = study(
        &first,
        &["--scene", "terrain", "--width", "160", "--height", "90"],
    );
    let trace = first.join("frame.gtr");
    let mut b = study(&dir.path().join("b"), &[trace.to_str().unwrap()]);
    let mut c = study(
        &dir.path().join("c"),
        &[trace.to_str().unwrap(), "--single-thread"],
    );
    for v in [&mut a, &mut b, &mut c] {
        v.as_object_mut().unwrap().remove("seconds");
        v.as_object_mut().unwrap().remove("trace");
    }
    assert_eq!(a, b);
    assert_eq!(b, c);
}

#[test]
fn bad_input_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["gspc", "--out", out_dir], "required"),
        (
            &["gspc", "/no/such/trace.gtr", "--out", out_dir],
            "/no/such/trace.gtr",
        ),
        (
            &["gspc", "x.gtr", "--scene", "atrium", "--out", out_dir],
            "cannot be used with",
        ),
        (
            &["gspc", "--scene", "nosuchscene", "--out", out_dir],
            "nosuchscene",
        ),
        (
            &[
                "gspc",
                "--scene",
                "atrium",
                "--size",
                "8MiB",
                "--big-size",
                "8MiB",
                "--out",
                out_dir,
            ],
            "--big-size",
        ),
        (
            &["gspc", "x.gtr", "--size", "0", "--out", out_dir],
            "an LLC of 0B",
        ),
        (
            &["gspc", "x.gtr", "--banks", "3", "--out", out_dir],
            "3 banks",
        ),
        // A machine without the frame time's keys, or the render caches.
        (
            &["gspc", "x.gtr", "--machine", "dtm-nuca", "--out", out_dir],
            "machine dtm-nuca: no frame_time",
        ),
        (
            &["gspc", "x.gtr", "--machine", "nosuch", "--out", out_dir],
            "unknown machine",
        ),
    ];
    for (args, needle) in cases {
        let out = gfxcache(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} should fail");
        assert!(out.stdout.is_empty(), "{args:?} printed a result");
        assert!(err.contains(needle), "{args:?}: '{needle}' not in: {err}");
    }
}

/// `gfxcache gspc` on a 128x72 atrium frame into `out` with `flags`, the
/// main size only and no timelines: its report.
fn small_frame(out: &Path, flags: &[&str]) -> Value {
    let mut args = vec![
        "gspc",
        "--scene",
        "atrium",
        "--width",
        "128",
        "--height",
        "72",
        "--big-size",
        "none",
        "--timeline",
        "none",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ];
    args.extend_from_slice(flags);
    json(&args)
}

/// The machine is data: a user's file with another LLC and other render
/// caches is studied on them, and its description is in the report; on a
/// given trace, render caches other than the renderer's are said to be
/// the trace's.
#[test]
fn a_users_machine_sets_the_llc_and_the_render_caches() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = json(&["machines", "gspc", "--json"])[0]["machine"].take();
    m["name"] = "mine".into();
    // A 256 KiB 8-way LLC, and a texture L3 of half the paper's.
    m["l2"]["bytes"]["value"] = "256KiB".into();
    m["l2"]["ways"] = serde_json::json!({"value": 8, "source": "ours: a test"});
    m["render_caches"]["texture_l3"]["bytes"]["value"] = "192KiB".into();
    let text = toml::to_string(&m).unwrap();
    let file = dir.path().join("mine.toml");
    std::fs::write(&file, &text).unwrap();
    let machine = file.to_str().unwrap();
    let out = dir.path().join("mine");
    let v = small_frame(&out, &["--machine", machine]);
    assert_eq!(v["sizes"], serde_json::json!([256 * 1024]));
    assert_eq!(v["ways"], 8);
    assert_eq!(v["machine"]["name"], "mine");
    let csv = std::fs::read_to_string(out.join("machine.csv")).unwrap();
    assert!(
        csv.contains("render_caches.texture_l3.bytes,192KiB"),
        "{csv}"
    );
    // Its render caches made the frame: the paper's make another stream.
    let paper = dir.path().join("paper");
    let p = small_frame(&paper, &["--size", "256KiB", "--ways", "8"]);
    assert_ne!(
        v["accesses"], p["accesses"],
        "the texture L3 changes the LLC's stream"
    );
    let w = p["warnings"].to_string();
    assert!(!w.contains("render caches"), "{w}");
    // On the paper's frame, that machine's render caches are not applied,
    // and the report says so.
    let trace = paper.join("frame.gtr");
    let again = dir.path().join("again");
    let t = json(&[
        "gspc",
        trace.to_str().unwrap(),
        "--machine",
        machine,
        "--big-size",
        "none",
        "--timeline",
        "none",
        "--out",
        again.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(t["accesses"], p["accesses"]);
    let w = t["warnings"].to_string();
    assert!(w.contains("machine mine's render caches"), "{w}");
}
