//! Studies on a workload suite (`--suite`) end to end: the suite lists
//! what `scenes --suite` lists, each scene's report is what `--scene`
//! alone makes, the mean is the mean of the scenes' figures (computed here
//! from the per-scene JSON, independently of the design crates), and the
//! report directory is one result with one manifest.
//!
//! Written for any number of scenes per suite; run on the desktop suite
//! at small sizes (a whole suite at 1080p is too slow for a debug test).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::common;
use crate::common::{gfxcache, json, ok};

use serde_json::Value;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn close(a: f64, b: f64, what: &str) {
    assert!(
        (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0),
        "{what}: {a} against {b}"
    );
}

/// The arithmetic mean of `values`.
fn mean(values: impl IntoIterator<Item = f64>) -> f64 {
    let v: Vec<f64> = values.into_iter().collect();
    v.iter().sum::<f64>() / v.len() as f64
}

/// The names of the suite's scenes, as `scenes --suite` lists them.
fn suite_scenes(suite: &str) -> Vec<String> {
    json(&["scenes", "--suite", suite, "--json"])
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap().to_string())
        .collect()
}

/// Every file under `dir`, by its path from `dir` with `/` between
/// directories, with its bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(dir: &Path, prefix: &str, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let e = e.unwrap();
            let name = format!("{prefix}{}", e.file_name().to_string_lossy());
            if e.file_type().unwrap().is_dir() {
                walk(&e.path(), &format!("{name}/"), out);
            } else {
                out.insert(name, std::fs::read(e.path()).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, "", &mut out);
    out
}

/// The manifest lists every file of the directory but itself, with its
/// length, and nothing else.
fn check_manifest(dir: &Path) {
    let all = files(dir);
    let m: Value = serde_json::from_slice(&all["manifest.json"]).unwrap();
    let listed: BTreeMap<String, u64> = m["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e[0].as_str().unwrap().to_string(), e[1].as_u64().unwrap()))
        .collect();
    let on_disk: BTreeMap<String, u64> = all
        .iter()
        .filter(|(name, _)| *name != "manifest.json")
        .map(|(name, bytes)| (name.clone(), bytes.len() as u64))
        .collect();
    assert_eq!(listed, on_disk, "the manifest lists exactly the files");
    assert!(
        m["generator"].as_str().unwrap().starts_with("gfxcache "),
        "{m}"
    );
}

/// `study --suite SUITE --out DIR --json` with `flags`: the suite's JSON
/// document, naming the suite, and what the command said on stderr.
fn suite_json(study: &str, suite: &str, dir: &Path, flags: &[&str]) -> (Value, String) {
    let mut args = vec![study, "--suite", suite, "--out", s(dir), "--json"];
    args.extend_from_slice(flags);
    let o = gfxcache(&args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{err}");
    let v: Value = serde_json::from_slice(&o.stdout).expect("one JSON document");
    assert_eq!(v["suite"], suite);
    (v, err)
}

/// Each scene's report in a suite's JSON document, one for each of
/// `scenes`.
fn scene_reports<'a>(v: &'a Value, scenes: &[String]) -> Vec<&'a Value> {
    let reports: Vec<&Value> = v["scenes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["report"])
        .collect();
    assert_eq!(reports.len(), scenes.len());
    reports
}

/// Each of `files` is in each scene's directory of the suite in `dir`.
fn check_scene_files(dir: &Path, scenes: &[String], files: &[&str]) {
    for scene in scenes {
        for file in files {
            assert!(dir.join(scene).join(file).is_file(), "{scene}/{file}");
        }
    }
}

/// A scene's report as `--scene` alone writes it, against the same scene's
/// directory of a suite's report: the JSON equal but for the wall-clock
/// seconds and the paths, every other file but the page byte-identical.
fn check_same_as_alone(suite_dir: &Path, scene: &str, alone: &Path, paths: &[&str]) {
    let in_suite = files(&suite_dir.join(scene));
    let mut alone_files = files(alone);
    alone_files.remove("manifest.json");
    let names = |m: &BTreeMap<String, Vec<u8>>| m.keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        names(&in_suite),
        names(&alone_files),
        "{scene}: the same files"
    );
    for (name, bytes) in &in_suite {
        if name.ends_with(".json") && name != "binned.json" {
            let mut a: Value = serde_json::from_slice(bytes).unwrap();
            let mut b: Value = serde_json::from_slice(&alone_files[name]).unwrap();
            for v in [&mut a, &mut b] {
                let o = v.as_object_mut().unwrap();
                for key in paths.iter().chain(&["seconds"]) {
                    o.remove(*key);
                }
            }
            assert_eq!(a, b, "{scene}/{name}");
        } else if name != "index.html" {
            assert!(bytes == &alone_files[name], "{scene}/{name} differs");
        }
    }
}

#[test]
fn scenes_lists_a_suite_and_groups_every_scene_by_suite() {
    let all = json(&["scenes", "--json"]);
    let all = all.as_array().unwrap();
    let text = ok(&["scenes"]);
    // Grouped: each suite's scenes together, under a line naming it.
    let mut seen: Vec<String> = Vec::new();
    for e in all {
        let suite = e["suite"].as_str().unwrap().to_string();
        if seen.last() != Some(&suite) {
            assert!(!seen.contains(&suite), "{suite} listed in two places");
            seen.push(suite);
        }
    }
    for suite in ["desktop", "mobile"] {
        let listed = suite_scenes(suite);
        let of_suite: Vec<&str> = all
            .iter()
            .filter(|e| e["suite"] == suite)
            .map(|e| e["name"].as_str().unwrap())
            .collect();
        assert_eq!(listed, of_suite, "{suite}");
        let text = ok(&["scenes", "--suite", suite]);
        let names: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("  "))
            .map(|l| l.split_whitespace().next().unwrap())
            .collect();
        assert_eq!(names, of_suite, "{suite}: {text}");
        if !listed.is_empty() {
            assert_eq!(text.lines().next(), Some(format!("{suite}:").as_str()));
        }
    }
    for e in all {
        let name = e["name"].as_str().unwrap();
        let line = format!("  {name} ");
        assert!(text.lines().any(|l| l.starts_with(&line)), "{name}: {text}");
    }
    let out = gfxcache(&["scenes", "--suite", "console"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("console") && err.contains("desktop, mobile"),
        "{err}"
    );
}

#[test]
fn suite_arguments_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let cases: &[(&[&str], &str)] = &[
        (
            &["gspc", "--suite", "console"],
            "possible values: desktop, mobile",
        ),
        (
            &["tcor", "--suite", "console"],
            "possible values: desktop, mobile",
        ),
        (
            &["gspc", "--suite", "desktop", "--scene", "city"],
            "cannot be used with",
        ),
        (
            &["gspc", "x.gtr", "--suite", "desktop"],
            "cannot be used with",
        ),
        (
            &["tcor", "--suite", "desktop", "--scene", "city"],
            "cannot be used with",
        ),
        (
            &["tcor", "x.gtr", "--binned", "b.json", "--suite", "desktop"],
            "cannot be used with",
        ),
        (
            &["tcor", "--suite", "desktop", "--binned", "b.json"],
            "cannot be used with",
        ),
    ];
    for (args, needle) in cases {
        let mut all = args.to_vec();
        all.extend(["--out", s(&out)]);
        let o = gfxcache(&all);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{all:?} should fail");
        assert!(o.stdout.is_empty(), "{all:?} printed a result");
        assert!(err.contains(needle), "{all:?}: '{needle}' not in: {err}");
    }
    assert!(!out.exists(), "no report of a refused run");
}

const GSPC: &[&str] = &[
    "--width",
    "64",
    "--height",
    "36",
    "--size",
    "256KiB",
    "--big-size",
    "none",
];

#[test]
fn gspc_on_a_suite_is_each_scene_then_the_mean() {
    let scenes = suite_scenes("desktop");
    assert!(!scenes.is_empty(), "the desktop suite has scenes");
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("suite");
    let (v, err) = suite_json("gspc", "desktop", &dir, GSPC);
    let n = scenes.len();
    for (k, scene) in scenes.iter().enumerate() {
        let line = format!("scene {}/{n}: {scene}", k + 1);
        assert!(err.contains(&line), "progress names each scene: {err}");
    }
    assert!(
        !err.contains("paper measured"),
        "desktop is GSPC's class: {err}"
    );

    let listed: Vec<&str> = v["scenes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["scene"].as_str().unwrap())
        .collect();
    assert_eq!(listed, scenes, "each scene of the suite in registry order");
    let reports = scene_reports(&v, &scenes);
    for (r, scene) in reports.iter().zip(&scenes) {
        assert_eq!(r["scene"], scene.as_str());
        assert_eq!(r["resolution"], serde_json::json!([64, 36]));
        let trace = PathBuf::from(r["trace"].as_str().unwrap());
        assert_eq!(trace, dir.join(scene).join("frame.gtr"));
    }
    check_gspc_mean(&v["mean"], &reports);

    // The directory: the suite's files at the top, each scene's report in
    // its own directory, one manifest; --json printed gspc.json.
    let on_disk: Value =
        serde_json::from_slice(&std::fs::read(dir.join("gspc.json")).unwrap()).unwrap();
    assert_eq!(on_disk, v);
    check_manifest(&dir);
    for file in [
        "policies.csv",
        "stream_mix.csv",
        "index.html",
        "fig12_misses_vs_drrip.svg",
        "fig15_17_fps.svg",
    ] {
        assert!(dir.join(file).is_file(), "{file}");
    }
    check_pages(&dir, &scenes, "frame.png");
    let page = std::fs::read_to_string(dir.join("index.html")).unwrap();
    // The suite's tables (each scene's rows and the mean's) come first,
    // the links to the scenes' own pages after them.
    let mean_at = page
        .find("LLC misses normalised to DRRIP")
        .expect("the suite's first table");
    for scene in &scenes {
        let link = format!("<a href=\"{scene}/index.html\">");
        let at = page.find(&link).unwrap_or_else(|| panic!("{scene} linked"));
        assert!(mean_at < at, "the mean first");
    }
    let csv = std::fs::read_to_string(dir.join("policies.csv")).unwrap();
    let runs = reports[0]["policies"].as_array().unwrap().len();
    assert_eq!(csv.lines().count(), 1 + runs * (n + 1));
    for scene in scenes.iter().map(String::as_str).chain(["mean"]) {
        let rows = csv.lines().filter(|l| l.starts_with(&format!("{scene},")));
        assert_eq!(rows.count(), runs, "{scene}'s rows");
    }

    // A scene's report is what --scene alone makes with the options: the
    // first, and the last, which state left by the scenes before would
    // change.
    let ends = [&scenes[0], &scenes[n - 1]];
    for scene in ends.into_iter().take(n.min(2)) {
        let alone = root.path().join(format!("alone-{scene}"));
        let mut args = vec!["gspc", "--scene", scene, "--out", s(&alone), "--json"];
        args.extend_from_slice(GSPC);
        json(&args);
        check_same_as_alone(&dir, scene, &alone, &["trace"]);
    }
}

/// The mean of every figure `GspcMean` has, from the per-scene reports.
fn check_gspc_mean(m: &Value, reports: &[&Value]) {
    assert_eq!(m["scenes"].as_u64(), Some(reports.len() as u64));
    let runs = m["policies"].as_array().unwrap();
    assert_eq!(runs.len(), reports[0]["policies"].as_array().unwrap().len());
    for pm in runs {
        let policy = pm["policy"].as_str().unwrap();
        let of_scenes: Vec<&Value> = reports
            .iter()
            .map(|r| {
                r["policies"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|p| p["policy"] == policy && p["size"] == pm["size"])
                    .unwrap_or_else(|| panic!("{policy} in every scene"))
            })
            .collect();
        let paths: &[&[&str]] = &[
            &["accesses"],
            &["misses"],
            &["misses_vs_drrip"],
            &["hit_rate", "tex"],
            &["hit_rate", "rt"],
            &["hit_rate", "z"],
            &["hit_rate", "all"],
            &["tex_hits_inter"],
            &["rt_consumed_fraction"],
            &["writebacks"],
            &["fps"],
            &["fps_vs_drrip"],
        ];
        let at = |v: &Value, path: &[&str]| path.iter().fold(v.clone(), |v, k| v[*k].clone());
        for path in paths {
            let expected = mean(of_scenes.iter().map(|p| f(&at(p, path))));
            close(f(&at(pm, path)), expected, &format!("{policy} {path:?}"));
        }
        for (name, t) in pm["timing"].as_object().unwrap() {
            let expected = mean(
                of_scenes
                    .iter()
                    .map(|p| f(&p["timing"][name]["fps_vs_drrip"])),
            );
            close(f(&t["fps_vs_drrip"]), expected, &format!("{policy} {name}"));
        }
        let fills = of_scenes
            .iter()
            .map(|p| p["tex_fills_at_max_rrpv"].as_f64());
        match fills.collect::<Option<Vec<f64>>>() {
            Some(all) => close(f(&pm["tex_fills_at_max_rrpv"]), mean(all), policy),
            None => assert!(pm["tex_fills_at_max_rrpv"].is_null(), "{policy}"),
        }
    }
    for share in m["stream_mix"].as_array().unwrap() {
        let stream = &share["stream"];
        let expected = mean(reports.iter().map(|r| {
            let mix = r["stream_mix"].as_array().unwrap();
            mix.iter()
                .find(|x| &x["stream"] == stream)
                .map_or(0.0, |x| f(&x["fraction"]))
        }));
        close(
            f(&share["fraction"]),
            expected,
            &format!("share of {stream}"),
        );
    }
    for p in m["t_sensitivity"].as_array().unwrap() {
        let expected = mean(reports.iter().map(|r| {
            let points = r["t_sensitivity"].as_array().unwrap();
            f(&points.iter().find(|q| q["t"] == p["t"]).unwrap()["change_vs_t16"])
        }));
        close(f(&p["change_vs_t16"]), expected, &format!("t={}", p["t"]));
    }
    for k in 0..3 {
        let expected = mean(
            reports
                .iter()
                .map(|r| f(&r["opt_epochs"]["tex"]["death_ratios"][k])),
        );
        close(
            f(&m["opt_epochs"]["tex"]["death_ratios"][k]),
            expected,
            "death",
        );
    }
}

const TCOR: &[&str] = &[
    "--width",
    "128",
    "--height",
    "64",
    "--no-shadow",
    "--sizes",
    "1KiB,4KiB,16KiB,64KiB",
    "--l2-size",
    "64KiB",
];

#[test]
fn tcor_on_a_suite_is_each_scene_then_the_mean() {
    let scenes = suite_scenes("desktop");
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("suite");
    let (v, err) = suite_json("tcor", "desktop", &dir, TCOR);
    // Allowed, said out loud: the TCOR paper measured mobile frames.
    let warned = err
        .lines()
        .filter(|l| l.contains("TCOR paper measured mobile frames"))
        .count();
    assert_eq!(warned, 1, "{err}");
    assert!(v["warnings"][0]
        .as_str()
        .unwrap()
        .contains("the desktop suite is another class"));
    let reports = scene_reports(&v, &scenes);
    for (r, scene) in reports.iter().zip(&scenes) {
        assert_eq!(r["scene"], scene.as_str());
        assert_eq!(r["resolution"], serde_json::json!([128, 64]));
    }
    check_tcor_mean(&v["mean"], &reports);

    check_manifest(&dir);
    check_scene_files(
        &dir,
        &scenes,
        &[
            "frame.gtr",
            "binned.json",
            "frame.png",
            "tcor.json",
            "index.html",
        ],
    );
    let csv = std::fs::read_to_string(dir.join("engines.csv")).unwrap();
    let runs = reports[0]["runs"].as_array().unwrap().len();
    assert_eq!(csv.lines().count(), 1 + runs * (scenes.len() + 1));
    for file in ["reductions.csv", "fig14_15_pb_l2.svg", "fig11_full.svg"] {
        assert!(dir.join(file).is_file(), "{file}");
    }
    check_pages(&dir, &scenes, "frame.png");

    // A rerun into the report replaces it whole.
    let before = files(&dir);
    let mut again = vec!["tcor", "--suite", "desktop", "--out", s(&dir)];
    again.extend_from_slice(TCOR);
    ok(&again);
    let after = files(&dir);
    assert_eq!(
        before.keys().collect::<Vec<_>>(),
        after.keys().collect::<Vec<_>>()
    );
    assert_eq!(
        before["curves.csv"], after["curves.csv"],
        "the same study again"
    );
    assert_eq!(
        std::fs::read_dir(root.path()).unwrap().count(),
        1,
        "nothing beside"
    );

    // The last scene's report, which state left by the scenes before would
    // change, is what --scene alone makes.
    let last = scenes.last().unwrap();
    let alone = root.path().join("alone");
    let mut args = vec!["tcor", "--scene", last, "--out", s(&alone)];
    args.extend_from_slice(TCOR);
    ok(&args);
    check_same_as_alone(&dir, last, &alone, &["trace", "binned"]);
}

/// The mean of every figure `TcorMean` has, from the per-scene reports.
fn check_tcor_mean(m: &Value, reports: &[&Value]) {
    assert_eq!(m["scenes"].as_u64(), Some(reports.len() as u64));
    let figures = [
        "pb_l2_accesses",
        "pb_dram_accesses",
        "dram_accesses",
        "energy_nj",
        "primitives_per_cycle",
    ];
    let engines = m["engines"].as_array().unwrap();
    assert_eq!(engines.len(), reports[0]["runs"].as_array().unwrap().len());
    for e in engines {
        let (engine, size) = (
            e["engine"].as_str().unwrap(),
            e["tile_cache"].as_str().unwrap(),
        );
        for fig in figures {
            let of = |r: &Value, engine: &str| f(&r[fig][size][engine]);
            let expected = mean(reports.iter().map(|r| of(r, engine)));
            close(f(&e[fig]), expected, &format!("{engine} {size} {fig}"));
            let key = match fig {
                "pb_l2_accesses" => "pb_l2_vs_baseline",
                "pb_dram_accesses" => "pb_dram_vs_baseline",
                "dram_accesses" => "dram_vs_baseline",
                "energy_nj" => "energy_vs_baseline",
                _ => "primitives_per_cycle_vs_baseline",
            };
            let ratios: Option<Vec<f64>> = reports
                .iter()
                .map(|r| {
                    let base = of(r, "baseline");
                    (base > 0.0).then(|| of(r, engine) / base)
                })
                .collect();
            match ratios {
                Some(all) => close(f(&e[key]), mean(all), &format!("{engine} {size} {key}")),
                None => assert!(e[key].is_null(), "{engine} {size} {key}"),
            }
        }
    }
    for (size, d) in m["reductions"].as_object().unwrap() {
        for (key, value) in d.as_object().unwrap() {
            let expected = mean(reports.iter().map(|r| f(&r["reductions"][size][key])));
            close(f(value), expected, &format!("{size} {key}"));
        }
    }
    assert_eq!(m["paper"], reports[0]["paper"]);
    let frame = |r: &Value, key: &str| match key {
        "render_passes" | "tiles" => f(&r[key]),
        _ => f(&r["frame"][key]),
    };
    for (key, value) in m["frame"].as_object().unwrap() {
        let expected = mean(reports.iter().map(|r| frame(r, key)));
        close(f(value), expected, key);
    }
    for c in m["curves"].as_array().unwrap() {
        for p in c["points"].as_array().unwrap() {
            let expected = mean(reports.iter().map(|r| {
                let curve = r["curves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|d| d["policy"] == c["policy"] && d["ways"] == c["ways"])
                    .unwrap();
                let points = curve["points"].as_array().unwrap();
                f(&points.iter().find(|q| q["bytes"] == p["bytes"]).unwrap()["miss_ratio"])
            }));
            close(
                f(&p["miss_ratio"]),
                expected,
                &format!("{} {}", c["policy"], p["bytes"]),
            );
        }
    }
    assert!(!m["curves"].as_array().unwrap().is_empty());
}

/// A mobile scene's NBTC study in well under a second: one small frame,
/// two latencies, one short sweep.
const NBTC: &[&str] = &[
    "--width",
    "64",
    "--height",
    "32",
    "--no-shadow",
    "--no-post",
    "--filters",
    "bilinear",
    "--latencies",
    "50,300",
    "--modes",
    "nbtc,mshr",
    "--sweep-wlb",
    "1,8",
    "--sweep-bab",
    "none",
    "--sweep-bab-merges",
    "none",
    "--sweep-rb",
    "none",
    "--sweep-block",
    "none",
    "--sweep-hit",
    "none",
    "--sweep-filter-latency",
    "none",
    "--sweep-issue-rate",
    "none",
    "--sweep-fragments",
    "none",
    "--sweep-shared-memory",
    "none",
];

#[test]
fn nbtc_on_a_suite_is_each_scene_then_the_mean() {
    let scenes = suite_scenes("mobile");
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("suite");
    let (v, err) = suite_json("nbtc", "mobile", &dir, NBTC);
    assert!(
        !err.contains("another class"),
        "the slides measured mobile frames: {err}"
    );
    let reports = scene_reports(&v, &scenes);
    for (r, scene) in reports.iter().zip(&scenes) {
        assert_eq!(r["name"], scene.as_str());
    }
    check_nbtc_mean(&v["mean"], &reports);

    check_manifest(&dir);
    check_scene_files(
        &dir,
        &scenes,
        &[
            "bilinear.gtq.zst",
            "bilinear.png",
            "nbtc.json",
            "runs.csv",
            "ps_cycles.svg",
            "index.html",
        ],
    );
    let csv = std::fs::read_to_string(dir.join("runs.csv")).unwrap();
    let runs = reports[0]["frames"][0]["runs"].as_array().unwrap().len();
    assert_eq!(runs, 2 * 3, "the BTC, the NBTC and the MSHR cache");
    assert_eq!(csv.lines().count(), 1 + runs * (scenes.len() + 1));
    for file in ["cycles_change_scenes.svg", "sweep_wlb_entries.svg"] {
        assert!(dir.join(file).is_file(), "{file}");
    }
    check_pages(&dir, &scenes, "bilinear.png");

    let last = scenes.last().unwrap();
    let alone = root.path().join("alone");
    let mut args = vec!["nbtc", "--scene", last, "--out", s(&alone)];
    args.extend_from_slice(NBTC);
    ok(&args);
    check_same_as_alone(&dir, last, &alone, &[]);
}

/// A suite's page shows each scene's frame (`picture` in its directory)
/// small, linked to itself, and has a table of contents; each scene's own
/// page shows its frame; no figure under `dir` is wider than the page.
fn check_pages(dir: &Path, scenes: &[String], picture: &str) {
    let page = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(page.contains("<nav class=\"toc\">"), "a table of contents");
    for scene in scenes {
        let src = format!("{scene}/{picture}");
        assert!(
            page.contains(&format!("<a href=\"{src}\"><img src=\"{src}\"")),
            "{src} not shown"
        );
        common::check_page(&dir.join(scene), picture);
    }
    assert_eq!(
        common::too_wide(dir),
        Vec::new(),
        "figures wider than the page"
    );
}

/// The mean of every row and sweep point `NbtcMean` has, from the
/// per-scene reports.
fn check_nbtc_mean(m: &Value, reports: &[&Value]) {
    let names: Vec<&Value> = reports.iter().map(|r| &r["name"]).collect();
    assert_eq!(
        m["scenes"].as_array().unwrap().iter().collect::<Vec<_>>(),
        names
    );
    let rows = m["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2 * 3);
    for row in rows {
        let of: Vec<&Value> = reports
            .iter()
            .map(|r| {
                let frame = r["frames"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|f| f["filter"] == row["filter"])
                    .unwrap();
                frame["runs"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|x| x["mode"] == row["mode"] && x["latency"] == row["latency"])
                    .unwrap()
            })
            .collect();
        for key in [
            "cycles_change",
            "frame_cycles_change",
            "traffic_change",
            "miss_rate",
        ] {
            let expected = mean(of.iter().map(|x| f(&x[key])));
            close(f(&row[key]), expected, &format!("{row} {key}"));
        }
        assert_eq!(row["scenes"].as_u64(), Some(reports.len() as u64));
    }
    let points = m["sweeps"].as_array().unwrap();
    assert_eq!(points.len(), 2);
    for p in points {
        let expected = mean(reports.iter().map(|r| {
            let sweep = &r["sweeps"][0];
            assert_eq!(sweep["knob"], p["knob"]);
            let q = sweep["points"]
                .as_array()
                .unwrap()
                .iter()
                .find(|q| q["value"] == p["value"])
                .unwrap();
            f(&q["nbtc"]["cycles_change"])
        }));
        close(f(&p["cycles_change"]), expected, &format!("{p}"));
    }
}

/// A mobile scene's composed study in well under a second: one small
/// frame on 4 fragment processors, two miss handlings under two
/// placements.
pub(crate) const COMPOSE: &[&str] = &[
    "--width",
    "64",
    "--height",
    "64",
    "--fragment-processors",
    "4",
    "--no-shadow",
    "--no-post",
    "--l1",
    "btc,nbtc",
    "--placements",
    "private,dtm-nuca-dist",
];

#[test]
fn compose_on_a_suite_is_each_scene_then_the_mean() {
    let scenes = suite_scenes("mobile");
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("suite");
    let (v, err) = suite_json("compose", "mobile", &dir, COMPOSE);
    assert!(!err.contains("another class"), "{err}");
    let reports = scene_reports(&v, &scenes);
    for (r, scene) in reports.iter().zip(&scenes) {
        assert_eq!(r["name"], scene.as_str());
        assert_eq!(r["runs"].as_array().unwrap().len(), 4);
    }
    // The mean, from the per-scene JSON: each measure the report's
    // tables average, from the counts behind it.
    let m = &v["mean"];
    let runs = m["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 4);
    for row in runs {
        let of: Vec<&Value> = reports
            .iter()
            .map(|r| {
                r["runs"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|x| x["mode"] == row["mode"] && x["placement"] == row["placement"])
                    .unwrap()
            })
            .collect();
        for key in ["speedup", "placement_speedup", "interaction"] {
            let expected = mean(of.iter().map(|x| f(&x[key])));
            close(f(&row["measures"][key]), expected, &format!("{row} {key}"));
        }
        let remote = mean(of.iter().map(|x| {
            let served = &x["machine"]["served"];
            100.0 * f(&served["remote_hits"]) / f(&served["accesses"])
        }));
        close(
            f(&row["measures"]["remote_percent"]),
            remote,
            &format!("{row} remote"),
        );
        assert_eq!(row["scenes"].as_u64(), Some(reports.len() as u64));
    }

    check_manifest(&dir);
    check_scene_files(
        &dir,
        &scenes,
        &[
            "frame.gtq.zst",
            "frame.png",
            "compose.json",
            "runs.csv",
            "speedup.svg",
            "index.html",
        ],
    );
    let csv = std::fs::read_to_string(dir.join("runs.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 4 * (scenes.len() + 1));
    assert!(dir.join("placement_speedup_scenes.svg").is_file());
    check_pages(&dir, &scenes, "frame.png");

    let last = scenes.last().unwrap();
    let alone = root.path().join("alone");
    let mut args = vec!["compose", "--scene", last, "--out", s(&alone)];
    args.extend_from_slice(COMPOSE);
    ok(&args);
    check_same_as_alone(&dir, last, &alone, &["requests"]);
}
