//! `gfxcache tcor` end to end: a small tile-based frame through the whole
//! study, the report files, and what must hold whatever the frame.

use std::path::Path;

use crate::common;
use crate::common::{gfxcache, json, SMALL_TBR_SCENE};

use serde_json::Value;

/// Small sizes so that a 320x192 frame still overflows the caches.
const SIZES: &str = "1KiB,2KiB,4KiB,8KiB,16KiB,48KiB,112KiB,256KiB";

fn study(dir: &Path, input: &[&str], sizes: &str) -> Value {
    let mut args = vec!["tcor"];
    args.extend_from_slice(input);
    args.extend_from_slice(&[
        "--sizes",
        sizes,
        "--l2-size",
        "64KiB",
        "--out",
        dir.to_str().unwrap(),
        "--json",
    ]);
    json(&args)
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))
}

#[test]
fn study_of_a_rendered_tile_based_frame() {
    let dir = tempfile::tempdir().unwrap();
    let v = study(
        dir.path(),
        &["--scene", "city", "--width", "320", "--height", "192"],
        SIZES,
    );
    assert_eq!(v["scene"], "city");
    assert_eq!(v["resolution"], serde_json::json!([320, 192]));
    assert!(u(&v["render_passes"]) >= 5);
    assert_eq!(
        v["passes"].as_array().unwrap().len() as u64,
        u(&v["render_passes"])
    );

    // The figures of Section V-B for both Tile Cache sizes and every engine.
    for key in [
        "pb_l2_accesses",
        "pb_dram_accesses",
        "dram_accesses",
        "energy_nj",
        "primitives_per_cycle",
    ] {
        for size in ["64KiB", "128KiB"] {
            for engine in ["baseline", "tcor_no_l2", "tcor"] {
                assert!(
                    v[key][size][engine].is_number(),
                    "{key}.{size}.{engine} missing"
                );
            }
        }
    }
    for size in ["64KiB", "128KiB"] {
        let pb = &v["pb_l2_accesses"][size];
        // TCOR's L1s send the same blocks to either L2.
        assert_eq!(pb["tcor"], pb["tcor_no_l2"]);
        assert!(u(&pb["baseline"]) > 0);
        assert!(u(&v["lower_bound"][size]) > 0);
    }
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 6);
    for r in runs {
        let s = &r["stats"];
        // Everything outside the Parameter Buffer is the same trace.
        assert_eq!(
            s["l2"]["other_accesses"],
            runs[0]["stats"]["l2"]["other_accesses"]
        );
        assert_eq!(
            s["tile_buffer_writes"],
            runs[0]["stats"]["tile_buffer_writes"]
        );
        let f = &s["fetcher"];
        assert!(f["primitives_per_cycle"].as_f64().unwrap() <= 1.0);
        assert_eq!(
            u(&f["l2_requests"]) + u(&f["merged_reads"]),
            u(&f["l2_reads"])
        );
        // The sweep on the same reads: the blocking fetcher is the serial
        // sum of Table I's latencies, and the default non-blocking fetcher
        // (16 MSHRs at 75 cycles) is the run's own.
        let sweep = r["fetcher_sweep"].as_array().unwrap();
        let points = v["l2"]["fetcher_sweep"].as_array().unwrap();
        assert_eq!(sweep.len(), 15);
        for (p, t) in sweep.iter().zip(points) {
            assert_eq!(p["primitives"], f["primitives"]);
            assert_eq!(p["l2_reads"], f["l2_reads"]);
            if t["model"] == "blocking" {
                let serial = u(&p["primitives"])
                    + 12 * u(&p["l2_reads"])
                    + u(&t["memory_cycles"]) * u(&p["l2_read_misses"]);
                assert_eq!(u(&p["cycles"]), serial, "{t}");
            } else if t["mshrs"] == 16 && t["memory_cycles"] == 75 {
                assert_eq!(p, f, "{t}");
            }
        }
        let dead = u(&s["l2"]["dead_dirty_dropped"]);
        if r["l2_policy"] == "lru" {
            assert_eq!(dead, 0, "an LRU L2 writes every dirty line back");
        }
        // The renderer's own baseline Tiling Engine is what the study's
        // baseline rebuilds.
        if r["engine"] == "baseline" && r["tile_cache"] == "64KiB" {
            assert_eq!(
                u(&s["trace_pb_records"]),
                u(&s["pb_l2_reads"]) + u(&s["pb_l2_writes"])
            );
        }
    }

    // Every policy stays at or above the lower bound at every size; OPT
    // fully associative is never above LRU fully associative.
    let curves = v["curves"].as_array().unwrap();
    assert_eq!(curves.len(), 12);
    for c in curves {
        let points = c["points"].as_array().unwrap();
        if c["ways"] != "full" {
            assert_eq!(points.len(), SIZES.split(',').count());
        }
        for p in points {
            assert!(u(&p["misses"]) >= u(&p["lower_bound"]), "{c}");
            assert!(u(&p["misses"]) <= u(&p["accesses"]));
        }
    }
    let full = |policy: &str| {
        curves
            .iter()
            .find(|c| c["ways"] == "full" && c["policy"] == policy)
            .unwrap()["points"]
            .as_array()
            .unwrap()
            .clone()
    };
    for (o, l) in full("opt").iter().zip(full("lru").iter()) {
        assert!(u(&o["misses"]) <= u(&l["misses"]), "opt {o} lru {l}");
    }
    // The fully associative curves run until the largest pass fits, where
    // every policy misses exactly LB: both reach it, OPT no later.
    let reach = |policy: &str| {
        let c = v["reach"]["curves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["ways"] == "full" && c["policy"] == policy)
            .unwrap();
        u(&c["bytes"])
    };
    assert!(reach("opt") <= reach("lru"), "{}", v["reach"]);
    assert!(full("lru").len() >= SIZES.split(',').count());

    let sensitivity = v["fetcher_sensitivity"]["64KiB"].as_array().unwrap();
    assert_eq!(sensitivity.len(), 15);
    assert!(sensitivity[0]["mshrs"].is_null() && sensitivity[1]["mshrs"] == 1);
    for f in [
        "tcor.json",
        "curves.csv",
        "engines.csv",
        "fetcher.csv",
        "passes.csv",
        "index.html",
        "frame.gtr",
        "binned.json",
        "frame.png",
    ] {
        let p = dir.path().join(f);
        assert!(
            std::fs::metadata(&p).map(|m| m.len() > 0).unwrap_or(false),
            "{f}"
        );
    }
    let file: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("tcor.json")).unwrap())
            .unwrap();
    assert_eq!(file, v, "--json prints tcor.json");
    common::check_page(dir.path(), "frame.png");
    assert_eq!(
        common::too_wide(dir.path()),
        Vec::new(),
        "figures wider than the page"
    );

    // The same study from the trace and binned passes it kept, on one
    // thread: the same numbers.
    let again = tempfile::tempdir().unwrap();
    let trace = dir.path().join("frame.gtr");
    let binned = dir.path().join("binned.json");
    let w = study(
        again.path(),
        &[
            trace.to_str().unwrap(),
            "--binned",
            binned.to_str().unwrap(),
            "--single-thread",
        ],
        SIZES,
    );
    for key in [
        "pb_l2_accesses",
        "pb_dram_accesses",
        "dram_accesses",
        "curves",
        "lower_bound",
        "primitives_per_cycle",
        "fetcher_sensitivity",
    ] {
        assert_eq!(v[key], w[key], "{key}");
    }
}

#[test]
fn bad_inputs_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("out");
    let out = out_dir.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["tcor", "--out", out], "required"),
        (vec!["tcor", "x.gtr", "--out", out], "--binned"),
        (
            vec!["tcor", "--scene", "city", "--sizes", "40B", "--out", out],
            "--sizes",
        ),
        (
            vec!["tcor", "--scene", "city", "--l2-size", "1000", "--out", out],
            "--l2-size",
        ),
        (
            vec!["tcor", "--scene", "city", "--tolerance", "-1", "--out", out],
            "--tolerance",
        ),
        (
            vec!["tcor", "--scene", "no-such-scene", "--out", out],
            "no-such-scene",
        ),
        (
            vec![
                "tcor",
                "--scene",
                "city",
                "--fetcher-mshrs",
                "0",
                "--out",
                out,
            ],
            "--fetcher-mshrs: 0: expected 1 to 4096 MSHRs",
        ),
        (
            vec![
                "tcor",
                "--scene",
                "city",
                "--fetcher-fifo",
                "0",
                "--out",
                out,
            ],
            "--fetcher-fifo",
        ),
        (
            vec![
                "tcor",
                "--scene",
                "city",
                "--fetcher-targets",
                "0",
                "--out",
                out,
            ],
            "--fetcher-targets",
        ),
        (
            vec![
                "tcor",
                "--scene",
                "city",
                "--fetcher-sweep-mshrs",
                "4,0",
                "--out",
                out,
            ],
            "--fetcher-sweep-mshrs",
        ),
        (
            vec!["tcor", "--scene", "city", "--l2-cycles", "0", "--out", out],
            "--l2-cycles",
        ),
        (
            vec![
                "tcor",
                "--scene",
                "city",
                "--dram-banks",
                "on",
                "--memory-cycles",
                "38",
                "--out",
                out,
            ],
            "--memory-cycles: 38: with DRAM banks, expected at least lpddr3-1600's longest service of a block, 39 cycles",
        ),
        (
            vec![
                "tcor",
                "--scene",
                "city",
                "--dram-banks",
                "on",
                "--fetcher-sweep-memory",
                "75,20",
                "--out",
                out,
            ],
            "--fetcher-sweep-memory: 20: with DRAM banks",
        ),
        (
            vec![
                "tcor",
                "--scene",
                "terrain",
                "--width",
                "64",
                "--height",
                "64",
                "--sizes",
                "4KiB,64GiB",
                "--out",
                out,
            ],
            "--sizes: 64GiB is more than this frame can use",
        ),
    ];
    for (args, needle) in cases {
        let o = gfxcache(&args);
        assert!(!o.status.success(), "{args:?} succeeded");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?} printed a result");
    }

    // A binned file that is not one, and binned passes of another frame.
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"not\": \"a list\"}").unwrap();
    let small = dir.path().join("small");
    let s = study(&small, SMALL_TBR_SCENE, "48KiB");
    assert!(u(&s["tiles"]) > 0);
    let trace = small.join("frame.gtr");
    let o = gfxcache(&[
        "tcor",
        trace.to_str().unwrap(),
        "--binned",
        bad.to_str().unwrap(),
        "--out",
        out,
    ]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("bad.json"));

    let other = dir.path().join("other");
    let mut wider = SMALL_TBR_SCENE.to_vec();
    wider[3] = "160";
    study(&other, &wider, "48KiB");
    let o = gfxcache(&[
        "tcor",
        trace.to_str().unwrap(),
        "--binned",
        other.join("binned.json").to_str().unwrap(),
        "--out",
        out,
    ]);
    assert!(!o.status.success(), "binned passes of another frame");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("record"), "{err}");
    assert!(o.stdout.is_empty());
}

/// `--dram-banks on` sends the fetcher's L2 misses through the machine's
/// DRAM banks (its `memory.dram`): the baseline's, which miss, wait; the
/// blocking fetcher's never do; off, none waits.
#[test]
fn the_fetchers_misses_wait_for_the_dram_banks_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let input = ["--scene", "racer", "--width", "320", "--height", "160"];
    let mut on = input.to_vec();
    on.extend_from_slice(&["--dram-banks", "on"]);
    let banked = study(&dir.path().join("on"), &on, "16KiB");
    let timing = &banked["l2"]["fetcher"]["dram_banks"];
    assert_eq!(timing["dram"], "lpddr3-1600");
    assert_eq!((u(&timing["t_rcd"]), u(&timing["line_cycles"])), (12, 6));
    let waits = |r: &Value, engine: &str| {
        r["runs"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| x["engine"] == engine)
            .map(|x| u(&x["stats"]["fetcher"]["dram_wait_cycles"]))
            .sum::<u64>()
    };
    assert!(waits(&banked, "baseline") > 0);
    let flat = study(&dir.path().join("off"), &input, "16KiB");
    assert!(flat["l2"]["fetcher"]["dram_banks"].is_null());
    assert_eq!(waits(&flat, "baseline"), 0);
    let mut blocking = on.clone();
    blocking.extend_from_slice(&["--fetcher", "blocking"]);
    let blocked = study(&dir.path().join("blocking"), &blocking, "16KiB");
    assert_eq!(waits(&blocked, "baseline"), 0);
}

#[test]
fn frames_after_a_warm_up() {
    let dir = tempfile::tempdir().unwrap();
    let (trace, binned) = (dir.path().join("t.gtr"), dir.path().join("b.json"));
    let (t, b) = (trace.to_str().unwrap(), binned.to_str().unwrap());
    let mut args = vec![
        "render", "--mode", "tbr", "--frames", "2", "--out", t, "--binned", b,
    ];
    args.extend(SMALL_TBR_SCENE);
    assert!(gfxcache(&args).status.success());
    let all = study(&dir.path().join("all"), &[t, "--binned", b], "4KiB,48KiB");
    let warm = study(
        &dir.path().join("warm"),
        &[t, "--binned", b, "--warmup", "1"],
        "4KiB,48KiB",
    );
    assert_eq!((u(&all["frames"]), u(&all["warmup"])), (2, 0));
    assert_eq!((u(&warm["frames"]), u(&warm["warmup"])), (2, 1));
    // Only the second frame's render passes count after the warm-up.
    let passes = warm["passes"].as_array().unwrap();
    assert!(passes.iter().all(|p| p["frame"] == 1));
    assert_eq!(2 * passes.len(), all["passes"].as_array().unwrap().len());
    for (a, w) in all["runs"]
        .as_array()
        .unwrap()
        .iter()
        .zip(warm["runs"].as_array().unwrap())
    {
        let (fa, fw) = (&a["per_frame"], &w["per_frame"]);
        assert_eq!(fa.as_array().unwrap().len(), 2);
        assert_eq!(fw.as_array().unwrap().len(), 1);
        // The counted frame is the second frame of the whole run, with the
        // L2 the first left behind, to the last count.
        assert_eq!(fw[0], fa[1], "{}", w["engine"]);
        assert_eq!(
            u(&w["stats"]["pb_l2_reads"]) + u(&w["stats"]["pb_l2_writes"]),
            u(&fw[0]["pb_l2_accesses"])
        );
        let sum = |k: &str| u(&fa[0][k]) + u(&fa[1][k]);
        assert_eq!(
            u(&a["stats"]["pb_l2_reads"]) + u(&a["stats"]["pb_l2_writes"]),
            sum("pb_l2_accesses")
        );
    }
    let o = gfxcache(&["tcor", t, "--binned", b, "--warmup", "2", "--out", "x"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("leave no frame"));
}

#[test]
fn frames_rendered_by_the_study_count_their_l1s_frame_by_frame() {
    let dir = tempfile::tempdir().unwrap();
    let mut scene = SMALL_TBR_SCENE.to_vec();
    scene.extend(["--frames", "2"]);
    let all = study(&dir.path().join("all"), &scene, "48KiB");
    let mut warm_args = scene.to_vec();
    warm_args.extend(["--warmup", "1"]);
    let warm = study(&dir.path().join("warm"), &warm_args, "48KiB");
    let l1 = |v: &Value| -> Vec<u64> {
        v["other_l1"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| u(&c["accesses"]))
            .collect()
    };
    let (a, w) = (l1(&all), l1(&warm));
    assert_eq!(a.len(), w.len());
    assert!(!a.is_empty());
    // The warm-up's frame is not counted: fewer L1 accesses, but some.
    for (a, w) in a.iter().zip(&w) {
        assert!(0 < *w && w < a, "{w} of {a}");
    }
    // The energy of the counted frame is that frame's row of the whole run.
    let (ra, rw) = (&all["runs"][0], &warm["runs"][0]);
    assert_eq!(rw["per_frame"][0], ra["per_frame"][1]);
    let e = rw["energy"]["total_nj"].as_f64().unwrap();
    let f = ra["per_frame"][1]["energy_nj"].as_f64().unwrap();
    assert!((e - f).abs() <= 1e-9 * f.abs(), "{e} vs {f}");
}

/// `--binning bbox` renders with bounding-box binning, and the report says
/// which mode its figures are for, also for a given trace (from its
/// header): more tile uses, as many primitives or more, more Parameter
/// Buffer traffic than exact binning of the same frame.
#[test]
fn the_report_names_the_binning_mode() {
    let dir = tempfile::tempdir().unwrap();
    let exact = study(&dir.path().join("exact"), SMALL_TBR_SCENE, "4KiB,48KiB");
    let mut args = SMALL_TBR_SCENE.to_vec();
    args.extend(["--binning", "bbox"]);
    let bbox = study(&dir.path().join("bbox"), &args, "4KiB,48KiB");
    assert_eq!(exact["binning"], "exact");
    assert_eq!(bbox["binning"], "bbox");
    let frame = |v: &Value, k: &str| u(&v["frame"][k]);
    assert!(frame(&bbox, "tile_uses") > frame(&exact, "tile_uses"));
    assert!(frame(&bbox, "primitives") >= frame(&exact, "primitives"));
    let baseline = |v: &Value| u(&v["pb_l2_accesses"]["64KiB"]["baseline"]);
    assert!(baseline(&bbox) > baseline(&exact));

    let (trace, binned) = (dir.path().join("t.gtr"), dir.path().join("b.json"));
    let (t, b) = (trace.to_str().unwrap(), binned.to_str().unwrap());
    let mut render = vec!["render", "--mode", "tbr", "--binning", "bbox"];
    render.extend(["--out", t, "--binned", b]);
    render.extend(SMALL_TBR_SCENE);
    assert!(gfxcache(&render).status.success());
    let given = study(&dir.path().join("given"), &[t, "--binned", b], "4KiB");
    assert_eq!(given["binning"], "bbox");
    assert_eq!(given["frame"]["tile_uses"], bbox["frame"]["tile_uses"]);
    let o = gfxcache(&["tcor", t, "--binned", b, "--binning", "bbox", "--out", "x"]);
    assert!(!o.status.success(), "a given trace says its own mode");
}
