//! End-to-end tests of the `gfxcache` binary: what a user sees.

use std::path::{Path, PathBuf};

use crate::common::{gfxcache, json, ok};

fn synth(dir: &Path, name: &str, accesses: &str) -> PathBuf {
    let p = dir.join(name);
    ok(&[
        "trace",
        "synth",
        p.to_str().unwrap(),
        "--accesses",
        accesses,
        "--seed",
        "7",
    ]);
    p
}

#[test]
fn sim_json_is_one_document_with_consistent_counts() {
    let dir = tempfile::tempdir().unwrap();
    let t = synth(dir.path(), "t.gtr", "200K");
    let v = json(&[
        "sim",
        t.to_str().unwrap(),
        "--size",
        "1MiB",
        "--ways",
        "16",
        "--banks",
        "4",
        "--policy",
        "all",
        "--json",
    ]);
    assert_eq!(v["accesses"], 200_000);
    assert_eq!(v["config"]["sets"], 1024);
    assert_eq!(v["config"]["banks"], 4);
    let results = v["results"].as_array().unwrap();
    assert!(results.len() >= 10, "every registered policy runs");
    let misses = |name: &str| {
        results
            .iter()
            .find(|r| r["policy"] == name)
            .unwrap_or_else(|| panic!("{name} ran"))["misses"]
            .as_u64()
            .unwrap()
    };
    for r in results {
        let (a, h, m) = (
            r["accesses"].as_u64().unwrap(),
            r["hits"].as_u64().unwrap(),
            r["misses"].as_u64().unwrap(),
        );
        assert_eq!(a, h + m, "{}", r["policy"]);
        assert!(misses("opt") <= m, "opt beats {}", r["policy"]);
        let per_stream: u64 = r["per_stream"]
            .as_object()
            .unwrap()
            .values()
            .map(|s| s["misses"].as_u64().unwrap())
            .sum();
        assert_eq!(per_stream, m);
    }
}

#[test]
fn sim_table_lists_each_policy() {
    let dir = tempfile::tempdir().unwrap();
    let t = synth(dir.path(), "t.gtr", "50K");
    let text = ok(&[
        "sim",
        t.to_str().unwrap(),
        "--size",
        "256KiB",
        "--ways",
        "8",
        "--policy",
        "lru,drrip:bits=4,srrip+ucd",
    ]);
    for p in ["lru", "drrip:bits=4", "srrip+ucd", "misses per stream"] {
        assert!(text.contains(p), "table mentions {p}:\n{text}");
    }
}

#[test]
fn damaged_trace_fails_with_offset_and_prints_no_result() {
    let dir = tempfile::tempdir().unwrap();
    let t = synth(dir.path(), "t.gtr", "100K");
    let mut bytes = std::fs::read(&t).unwrap();
    let cut = dir.path().join("cut.gtr");
    bytes.truncate(bytes.len() * 2 / 3);
    std::fs::write(&cut, &bytes).unwrap();
    let out = gfxcache(&[
        "sim",
        cut.to_str().unwrap(),
        "--size",
        "1MiB",
        "--ways",
        "16",
        "--policy",
        "lru",
        "--json",
    ]);
    assert!(!out.status.success());
    assert!(out.stdout.is_empty(), "no partial result on stdout");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cut.gtr") && err.contains("byte"),
        "error names file and offset: {err}"
    );
}

#[test]
fn bad_arguments_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let t = synth(dir.path(), "t.gtr", "1K");
    let t = t.to_str().unwrap();
    for (args, needle) in [
        (
            vec![
                "sim", t, "--size", "1MiB", "--ways", "16", "--policy", "nosuch",
            ],
            "no such policy",
        ),
        (
            vec![
                "sim",
                t,
                "--size",
                "1MiB",
                "--ways",
                "16",
                "--policy",
                "srrip:bits=9",
            ],
            "bits=9",
        ),
        (
            vec![
                "sim",
                t,
                "--size",
                "1MiB",
                "--ways",
                "16",
                "--policy",
                "lru:foo=1",
            ],
            "unknown parameter",
        ),
        (
            vec![
                "sim", t, "--size", "1MoB", "--ways", "16", "--policy", "lru",
            ],
            "size '1MoB'",
        ),
        (
            vec!["sim", t, "--size", "1MiB", "--ways", "3", "--policy", "lru"],
            "ways",
        ),
        (
            vec![
                "sim",
                "/nonexistent.gtr",
                "--size",
                "1MiB",
                "--ways",
                "16",
                "--policy",
                "lru",
            ],
            "nonexistent.gtr",
        ),
        (
            vec![
                "sim", "x.txt", "--size", "1MiB", "--ways", "16", "--policy", "lru",
            ],
            "x.txt",
        ),
    ] {
        let out = gfxcache(&args);
        assert!(!out.status.success(), "{args:?} must fail");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(needle),
            "{args:?}: stderr should mention {needle:?}: {err}"
        );
    }
}

#[test]
fn convert_round_trips_text_formats() {
    let dir = tempfile::tempdir().unwrap();
    let t = synth(dir.path(), "t.gtr", "20K");
    let d = |n: &str| dir.path().join(n).to_str().unwrap().to_string();
    ok(&["trace", "convert", t.to_str().unwrap(), &d("a.csv")]);
    ok(&["trace", "convert", &d("a.csv"), &d("b.gtr.zst")]);
    ok(&["trace", "convert", &d("b.gtr.zst"), &d("c.csv.zst")]);
    ok(&["trace", "convert", &d("c.csv.zst"), &d("d.csv")]);
    assert_eq!(
        std::fs::read(d("a.csv")).unwrap(),
        std::fs::read(d("d.csv")).unwrap()
    );
    ok(&["trace", "convert", &d("a.csv"), &d("e.din")]);
    ok(&["trace", "convert", &d("e.din"), &d("f.gtr")]);
    ok(&["trace", "convert", &d("f.gtr"), &d("g.din")]);
    assert_eq!(
        std::fs::read(d("e.din")).unwrap(),
        std::fs::read(d("g.din")).unwrap()
    );
    // Every format simulates to the same numbers.
    let sim = |p: &str| {
        json(&[
            "sim", p, "--size", "64KiB", "--ways", "4", "--policy", "lru", "--json",
        ])["results"][0]["misses"]
            .clone()
    };
    assert_eq!(sim(t.to_str().unwrap()), sim(&d("d.csv")));
}

#[test]
fn same_inputs_give_identical_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let a = synth(dir.path(), "a.gtr", "30K");
    let b = synth(dir.path(), "b.gtr", "30K");
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let args = |p: &Path| {
        vec![
            "sim".to_string(),
            p.to_str().unwrap().to_string(),
            "--size".into(),
            "128KiB".into(),
            "--ways".into(),
            "8".into(),
            "--policy".into(),
            "all".into(),
            "--json".into(),
        ]
    };
    let run = |p: &Path| {
        ok(&args(p).iter().map(String::as_str).collect::<Vec<_>>())
            .replace(p.to_str().unwrap(), "T")
    };
    assert_eq!(run(&a), run(&b));
}

#[test]
fn trace_info_reports_totals() {
    let dir = tempfile::tempdir().unwrap();
    let t = synth(dir.path(), "t.gtr", "10K");
    let v = json(&["trace", "info", t.to_str().unwrap(), "--json"]);
    assert_eq!(v["accesses"], 10_000);
    let sum: u64 = v["streams"]
        .as_object()
        .unwrap()
        .values()
        .map(|s| s["reads"].as_u64().unwrap() + s["writes"].as_u64().unwrap())
        .sum();
    assert_eq!(sum, 10_000);
    assert!(v["footprint_blocks"].as_u64().unwrap() > 0);
}

#[test]
fn mrc_equals_sim_lru_at_every_size() {
    let dir = tempfile::tempdir().unwrap();
    let t = synth(dir.path(), "t.gtr", "100K");
    let t = t.to_str().unwrap();
    let lru = |size: &str, ways: &str| {
        json(&[
            "sim", t, "--size", size, "--ways", ways, "--policy", "lru", "--json",
        ])["results"][0]["misses"]
            .as_u64()
            .unwrap()
    };
    let full = json(&["mrc", t, "--json"]);
    let curve = full["curve"].as_array().unwrap();
    assert!(curve.len() > 5);
    for (size, label) in [(4096u64, "4KiB"), (65536, "64KiB"), (1 << 20, "1MiB")] {
        let p = curve
            .iter()
            .find(|p| p["size"] == size)
            .expect("power-of-two point");
        assert_eq!(
            p["misses"].as_u64().unwrap(),
            lru(label, "full"),
            "fully associative {label}"
        );
    }
    let by_ways = json(&["mrc", t, "--sets", "256", "--max-ways", "8", "--json"]);
    for p in by_ways["curve"].as_array().unwrap() {
        let ways = p["ways"].as_u64().unwrap();
        let size = format!("{}", 256 * 64 * ways);
        assert_eq!(
            p["misses"].as_u64().unwrap(),
            lru(&size, &ways.to_string()),
            "{ways} ways"
        );
    }
}

#[test]
fn scenes_lists_the_builtins() {
    let v = json(&["scenes", "--json"]);
    let list = v.as_array().expect("a list");
    let text = ok(&["scenes"]);
    // One line per scene, under a line per suite naming it.
    let scenes = text.lines().filter(|l| l.starts_with("  ")).count();
    assert_eq!(scenes, list.len());
    for s in list {
        assert!(text.contains(s["name"].as_str().unwrap()));
        assert!(text.contains(&format!("{}:", s["suite"].as_str().unwrap())));
    }
}

/// A tile too large for any GPU is refused by every tile-based study
/// before its frame renders (it used to allocate gigabytes, or panic in
/// the renderer on an odd size).
#[test]
fn the_tile_based_studies_refuse_absurd_tiles_before_work() {
    for study in ["nuca", "nbtc", "tcor"] {
        for (tile, want) in [
            (
                "100000",
                "--tile-size 100000: expected an even number of pixels from 2 to 1024",
            ),
            (
                "3",
                "--tile-size 3: expected an even number of pixels from 2 to 1024",
            ),
        ] {
            let out = gfxcache(&[study, "--scene", "match3", "--tile-size", tile, "--json"]);
            assert!(!out.status.success(), "{study} --tile-size {tile}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains(want), "{study}: {err}");
            assert!(!err.contains("scene 1/"), "{study} rendered first: {err}");
            assert!(out.stdout.is_empty());
        }
    }
}

#[test]
fn render_errors_are_clear() {
    for (args, want) in [
        (
            &["--tile-size", "31"][..],
            "--tile-size 31: expected an even number",
        ),
        (
            &["--tile-size", "0"][..],
            "--tile-size 0: expected an even number",
        ),
        (
            &["--tile-size", "100000"][..],
            "--tile-size 100000: expected an even number of pixels from 2 to 1024",
        ),
        (
            &["--fragment-processors", "0"][..],
            "--fragment-processors 0: expected 1 to 256",
        ),
        (
            &["--fragment-processors", "300"][..],
            "--fragment-processors 300: expected 1 to 256",
        ),
    ] {
        let mut all = vec!["render", "--scene", "terrain", "--mode", "tbr", "--json"];
        all.extend_from_slice(args);
        let out = gfxcache(&all);
        assert!(!out.status.success(), "{all:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{all:?}: {err}");
        assert!(out.stdout.is_empty());
    }
    let out = gfxcache(&["render", "--scene", "terrain", "--hsr"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("--hsr: hidden-surface removal needs --mode tbr"));
    let out = gfxcache(&["render", "--scene", "terrain", "--binning", "bbox"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("--binning: binning needs --mode tbr or --binned"));
    let out = gfxcache(&["render", "--scene", "terrain", "--binning", "sphere"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("sphere"));
    let out = gfxcache(&["render", "--scene", "terrain", "--order", "spiral"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("spiral"));
    let out = gfxcache(&["render", "--scene", "/no/such/scene.obj", "--json"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown scene"));
    assert!(out.stdout.is_empty());
    let out = gfxcache(&["render", "--scene", "x", "--mode", "fast"]);
    assert!(!out.status.success());
}

#[test]
fn render_a_builtin() {
    let v = json(&["scenes", "--json"]);
    let first = v
        .as_array()
        .and_then(|l| l.first())
        .expect("at least one built-in scene");
    let name = first["name"].as_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let gtr = dir.path().join("f.gtr");
    let png = dir.path().join("f.png");
    let v = json(&[
        "render",
        "--scene",
        name,
        "--width",
        "64",
        "--height",
        "48",
        "--out",
        gtr.to_str().unwrap(),
        "--png",
        png.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(v["width"], 64);
    assert!(v["llc_accesses"].as_u64().unwrap() > 0);
    assert!(gtr.exists() && png.exists());
    let info = json(&["trace", "info", gtr.to_str().unwrap(), "--json"]);
    assert!(info.is_object());
}

#[test]
fn render_tile_based() {
    let dir = tempfile::tempdir().unwrap();
    let gtr = dir.path().join("t.gtr");
    let binned = dir.path().join("b.json");
    let v = json(&[
        "render",
        "--scene",
        "city",
        "--mode",
        "tbr",
        "--width",
        "96",
        "--height",
        "64",
        "--fragment-processors",
        "2",
        "--order",
        "scanline",
        "--hsr",
        "--out",
        gtr.to_str().unwrap(),
        "--binned",
        binned.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(v["mode"], "tbr");
    let t = &v["tbr"];
    assert_eq!(t["fragment_processors"], 2);
    assert_eq!(t["order"], "scanline");
    assert_eq!(t["hsr"], true);
    assert!(t["hsr_hidden"].as_u64().unwrap() > 0);
    assert_eq!(t["quads_per_fp"].as_array().unwrap().len(), 2);
    assert_eq!(t["texture_hit_rate_per_fp"].as_array().unwrap().len(), 2);
    assert!(t["tiles"].as_u64().unwrap() > 0);
    assert!(t["flushed_blocks"].as_u64().unwrap() > 0);
    let caches: Vec<&str> = v["render_caches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["cache"].as_str().unwrap())
        .collect();
    assert_eq!(caches, ["vertex", "tex-fp0", "tex-fp1"]);
    assert!(v["llc"]["pb-attr"]["reads"].as_u64().unwrap() > 0);
    assert!(binned.exists());
    let info = json(&["trace", "info", gtr.to_str().unwrap(), "--json"]);
    assert!(info.to_string().contains("\"tbr\""), "{info}");
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(96), Some(64))
    );
}

#[test]
fn render_binned_writes_the_polygon_lists() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("binned.json");
    let gtr = dir.path().join("f.gtr");
    let summary = json(&[
        "render",
        "--scene",
        "city",
        "--width",
        "100",
        "--height",
        "70",
        "--out",
        gtr.to_str().unwrap(),
        "--binned",
        path.to_str().unwrap(),
        "--tile-order",
        "hilbert",
        // The classic frame, whose display pass is one full-screen draw.
        "--preset",
        "classic",
        "--json",
    ]);
    let rows = summary["binned"].as_array().expect("Table II rows");
    let display_row = rows.iter().find(|r| r["pass"] == "display").unwrap();
    assert_eq!(display_row["tiles"], 12);
    assert!(display_row["footprint_bytes"].as_u64().unwrap() > 0);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let passes = v.as_array().expect("a list of binned passes");
    assert!(!passes.is_empty());
    let display = passes
        .iter()
        .find(|p| p["pass"] == "display")
        .expect("the display pass is binned");
    let f = &display["frame"];
    // 100 x 70 pixels in 32-pixel tiles: 4 x 3.
    assert_eq!(
        (f["tiles_x"].as_u64(), f["tiles_y"].as_u64()),
        (Some(4), Some(3))
    );
    assert_eq!(f["order"], "hilbert");
    for p in f["primitives"].as_array().unwrap() {
        assert!(p["attributes"].as_u64().unwrap() >= 1);
        assert!(p["tiles"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t.as_u64().unwrap() < 12));
    }
    // Binning changes no record of the trace.
    let plain = dir.path().join("g.gtr");
    ok(&[
        "render",
        "--scene",
        "city",
        "--width",
        "100",
        "--height",
        "70",
        "--out",
        plain.to_str().unwrap(),
        "--preset",
        "classic",
        "--json",
    ]);
    assert_eq!(std::fs::read(&gtr).unwrap(), std::fs::read(&plain).unwrap());

    let out = gfxcache(&[
        "render",
        "--scene",
        "city",
        "--binned",
        path.to_str().unwrap(),
        "--tile-size",
        "7",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--tile-size 7"));
}

#[test]
fn policies_lists_each_parameter_with_its_default_and_range() {
    let v = json(&["policies", "--json"]);
    let all = v.as_array().unwrap();
    let find = |name: &str| all.iter().find(|p| p["name"] == name).unwrap();
    assert!(find("lru")["params"].as_array().unwrap().is_empty());
    let bits = &find("srrip")["params"][0];
    assert_eq!(
        (bits["key"].as_str(), bits["default"].as_str()),
        (Some("bits"), Some("2"))
    );
    assert_eq!(
        (bits["min"].as_u64(), bits["max"].as_u64()),
        (Some(1), Some(8))
    );
    let bypass = &find("opt")["params"][0];
    assert_eq!(
        (bypass["key"].as_str(), bypass["default"].as_str()),
        (Some("bypass"), Some("true"))
    );
    assert!(bypass["min"].is_null());
    let gspc: Vec<&str> = find("gspc")["params"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["key"].as_str().unwrap())
        .collect();
    assert_eq!(gspc, ["t", "counter-bits", "acc-bits", "rt-hi", "rt-lo"]);
    let table = ok(&["policies"]);
    assert!(
        table.contains("bits=2 (1-8)") && table.contains("bypass=true (true|false)"),
        "{table}"
    );
}

#[test]
fn progress_is_plain_lines_on_stderr_when_it_is_not_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("f.gtr");
    ok(&[
        "render",
        "--scene",
        "atrium",
        "--width",
        "160",
        "--height",
        "90",
        "--out",
        trace.to_str().unwrap(),
    ]);
    let o = gfxcache(&[
        "sim",
        trace.to_str().unwrap(),
        "--size",
        "64KiB",
        "--ways",
        "16",
        "--policy",
        "lru,opt",
        "--json",
    ]);
    assert!(o.status.success());
    // stdout is the document alone; stderr (a pipe here) has the bars as
    // lines: no carriage returns or cursor moves, each phase named.
    serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap();
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(!err.contains('\r') && !err.contains('\x1b'), "{err:?}");
    for phase in ["next uses [", "simulating ["] {
        assert!(err.lines().any(|l| l.starts_with(phase)), "{err}");
    }
}
