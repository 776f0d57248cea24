//! `gfxcache nbtc`: a scene's study writes its frames and report; on a
//! given request file `--json` prints one document whose numbers are the
//! CSV's; bad settings and inputs are refused by name before anything is
//! rendered or written.

use std::path::Path;

use crate::common;
use crate::common::{gfxcache, json, ok};

/// A mobile scene small enough for a whole study in well under a second.
const SCENE: &[&str] = &[
    "--scene",
    "match3",
    "--width",
    "64",
    "--height",
    "32",
    "--no-shadow",
    "--no-post",
];

/// Every sweep off but the WLB's, at two values.
const FEW_SWEEPS: &[&str] = &[
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

const DESIGNS: [&str; 5] = ["btc", "btc-parallel", "nbtc", "mshr", "prefetching"];

/// A small tile-based frame's texture requests, rendered with 8 fragment
/// processors.
fn requests(dir: &Path) -> String {
    let path = dir.join("f.gtq.zst").display().to_string();
    let render = [
        &["render"][..],
        SCENE,
        &[
            "--mode",
            "tbr",
            "--fragment-processors",
            "8",
            "--texture-requests",
            &path,
        ],
    ]
    .concat();
    ok(&render);
    path
}

fn read_csv(path: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(|l| l.split(',').map(String::from).collect())
        .collect()
}

#[test]
fn a_scenes_study_writes_its_frames_and_report() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("n");
    let text = ok(&[
        &["nbtc"][..],
        SCENE,
        &["--filters", "nearest,bilinear", "--latencies", "50,300"],
        FEW_SWEEPS,
        &["--out", out.to_str().unwrap()],
    ]
    .concat());
    for design in DESIGNS {
        assert!(text.contains(&format!(" {design} ")), "{design}: {text}");
    }
    assert!(text.contains("-41.6%") && text.contains("Sweep of wlb_entries"));
    for f in [
        "nbtc.json",
        "index.html",
        "runs.csv",
        "sweeps.csv",
        "paper.csv",
        "nearest.gtq.zst",
        "bilinear.gtq.zst",
        "nearest.png",
        "ps_cycles.svg",
        "cycles_change.svg",
        "miss_rate.svg",
        "traffic.svg",
        "sweep_wlb_entries.svg",
    ] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    assert!(!out.join("sweep_bab_entries.svg").exists());
    assert!(
        !out.join("bilinear.png").exists(),
        "the first frame's picture"
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("nbtc.json")).unwrap()).unwrap();
    assert_eq!(report["name"], "match3");
    let frames = report["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 2);
    let taps = |f: &serde_json::Value| {
        f["texel_lookups"].as_f64().unwrap() / f["requests"].as_f64().unwrap()
    };
    for (f, filter) in frames.iter().zip(["nearest", "bilinear"]) {
        assert_eq!(f["filter"], filter);
        assert_eq!(f["pixel_processors"], 8, "the slides' 8");
        assert!(f["requests"].as_u64().unwrap() > 1000);
        assert_eq!(f["runs"].as_array().unwrap().len(), 2 * DESIGNS.len());
    }
    // The filter is forced: nearest reads a texel a request (loads too),
    // bilinear up to four.
    assert!(taps(&frames[0]) < 1.2, "{}", taps(&frames[0]));
    assert!(
        taps(&frames[1]) > 2.0 * taps(&frames[0]),
        "{}",
        taps(&frames[1])
    );
    assert_eq!(report["sweeps"][0]["filter"], "bilinear");
    assert_eq!(report["sweeps"][0]["latency"], 300);
    common::check_page(&out, "nearest.png");
    assert_eq!(
        common::too_wide(&out),
        Vec::new(),
        "figures wider than the page"
    );
}

/// `--json` prints the report and nothing else; its rows are a filter x
/// latency x design each, and runs.csv holds the same numbers.
#[test]
fn json_is_one_document_and_agrees_with_the_csv() {
    let dir = tempfile::tempdir().unwrap();
    let requests = requests(dir.path());
    let unit = dir.path().join("unit.json");
    std::fs::write(
        &unit,
        r#"{"wlb_entries": 16, "field_bits": {"coordinate": 11}}"#,
    )
    .unwrap();
    let out = dir.path().join("j");
    let report = json(
        &[
            &["nbtc", &requests, "--latencies", "300,50,300", "--json"][..],
            &["--unit", unit.to_str().unwrap(), "--bab-entries", "64"],
            &["--memory", "shared", "--memory-clock-mhz", "400"],
            &["--memory-dram", "ddr3-1867"],
            FEW_SWEEPS,
            &["--out", out.to_str().unwrap()],
        ]
        .concat(),
    );
    assert_eq!(report["unit"]["wlb_entries"], 16, "--unit's");
    assert_eq!(report["unit"]["bab_entries"], 64, "the flag's");
    // The buffers' cost at those sizes, the coordinates 11 bits each:
    // RB 32 x 114, WLB 16 x 552, BAB 64 x 28 bits.
    assert_eq!(report["unit"]["field_bits"]["address"], 32, "the default");
    assert_eq!(
        report["unit"]["memory"],
        serde_json::json!({"shared-dram": {"clock_mhz": 400, "dram": "ddr3-1867"}})
    );
    assert_eq!(report["storage"]["rb"]["entry_bits"], 114);
    assert_eq!(
        report["storage"]["bytes"],
        (32 * 114 + 16 * 552 + 64 * 28) / 8
    );
    assert_eq!(report["latencies"], serde_json::json!([50, 300]));
    let frames = report["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 1);
    assert_eq!(frames[0]["filter"], "as-authored");
    let runs = frames[0]["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2 * DESIGNS.len());
    let sweep = &report["sweeps"][0];
    assert_eq!(
        (&sweep["knob"], &sweep["filter"]),
        (
            &serde_json::json!("wlb_entries"),
            &serde_json::json!("as-authored")
        ),
        "a given frame is swept"
    );

    let csv = read_csv(&out.join("runs.csv"));
    assert_eq!(csv.len(), 1 + runs.len());
    let col = |name: &str| csv[0].iter().position(|c| c == name).unwrap();
    for row in runs {
        let (latency, mode) = (row["latency"].to_string(), row["mode"].clone());
        let name = match mode.as_str() {
            Some(n) => n.to_string(),
            None => mode.as_object().unwrap().keys().next().unwrap().clone(),
        };
        let name = match (name.as_str(), mode["blocking"]["serial"].as_bool()) {
            ("blocking", Some(true)) => "btc".to_string(),
            ("blocking", Some(false)) => "btc-parallel".to_string(),
            _ => name,
        };
        let line = csv
            .iter()
            .find(|l| l[col("latency")] == latency && l[col("mode")] == name)
            .unwrap_or_else(|| panic!("no CSV row for {name} at {latency}"));
        let stats = &row["stats"];
        for field in [
            "cycles",
            "ps_stall_cycles",
            "nbtc_stall_cycles",
            "traffic_bytes",
        ] {
            assert_eq!(line[col(field)], stats[field].to_string(), "{name} {field}");
        }
        // serde_json reads floats to within an ulp or so.
        for (column, field) in [
            ("cycles_change_percent", "cycles_change"),
            ("traffic_change_percent", "traffic_change"),
            ("miss_rate_percent", "miss_rate"),
        ] {
            let csv: f64 = line[col(column)].parse().unwrap();
            let json = row[field].as_f64().unwrap();
            assert!(
                (csv - json).abs() <= 1e-12 * json.abs().max(1.0),
                "{name} {field}: {csv} vs {json}"
            );
        }
    }
    let names: Vec<&str> = csv[1..].iter().map(|l| l[col("mode")].as_str()).collect();
    for design in DESIGNS {
        assert_eq!(
            names.iter().filter(|&&n| n == design).count(),
            2,
            "{design}"
        );
    }
}

#[test]
fn bad_settings_and_inputs_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("n");
    let out = out.to_str().unwrap();
    let refused = |args: &[&str], expect: &str| {
        let all = [&["nbtc"][..], args, &["--out", out]].concat();
        let o = gfxcache(&all);
        assert!(!o.status.success(), "{all:?} succeeded");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(expect), "{all:?}: {err}");
        assert!(o.stdout.is_empty(), "{all:?}");
        assert!(!Path::new(out).exists(), "{all:?} wrote {out}");
        assert!(
            std::fs::read_dir(dir.path()).unwrap().next().is_none(),
            "{all:?} left a file beside --out"
        );
    };
    fn scene<'a>(more: &[&'a str]) -> Vec<&'a str> {
        [SCENE, more].concat()
    }
    refused(&scene(&["--latencies", "2000000"]), "--latencies");
    refused(&scene(&["--modes", "nbtc,foo"]), "--modes");
    refused(&scene(&["--l1-size", "1000"]), "--l1-size");
    refused(
        &scene(&["--l1-size", "3KiB", "--l1-ways", "5"]),
        "--l1-ways",
    );
    refused(&scene(&["--l1-size", "lots"]), "--l1-size");
    // Gigabyte L1s are refused before work (they took tens of gigabytes).
    refused(
        &scene(&["--l1-size", "1GiB"]),
        "l1_bytes = 1073741824 B: expected a texture L1 of at most 16 MiB",
    );
    refused(&scene(&["--l1-size", "64GiB"]), "--l1-size");
    refused(&scene(&["--wlb-entries", "0"]), "--wlb-entries");
    refused(&scene(&["--rob", "4"]), "--rob");
    refused(&scene(&["--sweep-bab", "4"]), "--sweep-bab");
    refused(&scene(&["--sweep-bab-merges", "2"]), "--sweep-bab-merges");
    refused(&scene(&["--sweep-block", "48"]), "--sweep-block");
    refused(&scene(&["--sweep-wlb", "x"]), "--sweep-wlb");
    refused(&scene(&["--sweep-latency", "2000000"]), "--sweep-latency");
    refused(&scene(&["--issue-rate", "100000"]), "--issue-rate");
    refused(
        &scene(&["--sweep-issue-rate", "200000"]),
        "--sweep-issue-rate",
    );
    refused(&scene(&["--machine", "nosuch"]), "--machine");
    refused(
        &scene(&["--filters", "bilinear", "--sweep-on", "trilinear"]),
        "--sweep-on",
    );
    refused(&scene(&["--pixel-processors", "0"]), "--pixel-processors");
    refused(&scene(&["--tile-size", "7"]), "--tile-size");
    let units = tempfile::tempdir().unwrap();
    let unit = units.path().join("unit.json");
    std::fs::write(&unit, r#"{"mode": "mshr"}"#).unwrap();
    refused(&scene(&["--unit", unit.to_str().unwrap()]), "--modes");
    std::fs::write(&unit, r#"{"wlb_entries": 0}"#).unwrap();
    refused(&scene(&["--unit", unit.to_str().unwrap()]), "unit.json");
    std::fs::write(&unit, r#"{"wlb": 4}"#).unwrap();
    refused(&scene(&["--unit", unit.to_str().unwrap()]), "unit.json");
    refused(&scene(&["--memory-clock-mhz", "400"]), "--memory shared");
    refused(&scene(&["--memory-dram", "ddr3-1600"]), "--memory shared");
    refused(
        &scene(&["--memory", "shared", "--memory-dram", "ddr5"]),
        "--memory-dram",
    );
    refused(
        &scene(&["--memory", "shared", "--memory-clock-mhz", "0"]),
        "--memory-clock-mhz",
    );
    refused(
        &scene(&["--sweep-shared-memory", "2"]),
        "--sweep-shared-memory",
    );
    std::fs::write(&unit, r#"{"field_bits": {"texel": 0}}"#).unwrap();
    refused(
        &scene(&["--unit", unit.to_str().unwrap()]),
        "field_bits.texel",
    );
    let missing = units.path().join("missing.gtq");
    refused(&[missing.to_str().unwrap()], "missing.gtq");
}

/// `--placements` puts the units' L1s in placements of the GPU machine:
/// `gfxcache compose` with the BTC first, this command's designs and unit
/// settings (here a flag only `nbtc` has), a pixel's sample a request, on
/// one frame, into compose's report; a machine with no L2, the flags of
/// the units' own memory and more than one filter are refused by name.
#[test]
fn placements_run_the_designs_on_the_composed_machine() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("n");
    let small = |out: &Path, extra: &[&str]| -> Vec<String> {
        let mut args: Vec<String> = [
            "nbtc", "--scene", "racer", "--width", "64", "--height", "64", "--out",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        args.push(out.display().to_string());
        args.extend(extra.iter().map(|s| s.to_string()));
        args
    };
    let run = |args: &[String]| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        json(&args)
    };
    let report = run(&small(
        &out,
        &[
            "--machine",
            "dtm-nuca",
            "--placements",
            "private,dtm-nuca",
            "--modes",
            "nbtc",
            "--rb-entries",
            "16",
            "--json",
        ],
    ));
    assert_eq!(report["config"]["unit"]["rb_entries"], 16);
    assert_eq!(report["config"]["request_unit"], "sample");
    let pairs: Vec<(&str, &str)> = report["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["mode"].as_str().unwrap(),
                r["placement"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        pairs,
        [
            ("btc", "private"),
            ("btc", "dtm-nuca"),
            ("nbtc", "private"),
            ("nbtc", "dtm-nuca")
        ]
    );
    assert!(out.join("compose.json").is_file() && !out.join("nbtc.json").exists());
    // The same frame through `gfxcache compose`, the unit by file.
    let frame = out.join("frame.gtq.zst");
    let unit = dir.path().join("unit.json");
    std::fs::write(&unit, r#"{"rb_entries": 16}"#).unwrap();
    let again = json(&[
        "compose",
        frame.to_str().unwrap(),
        "--l1",
        "btc,nbtc",
        "--placements",
        "private,dtm-nuca",
        "--request-unit",
        "sample",
        "--unit",
        unit.to_str().unwrap(),
        "--out",
        dir.path().join("c").to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(report["runs"], again["runs"]);
    let bad = dir.path().join("bad");
    for (extra, named) in [
        (&["--placements", "private"][..], "[l2]"),
        (
            &[
                "--machine",
                "dtm-nuca",
                "--placements",
                "private",
                "--latencies",
                "50",
            ][..],
            "--latencies",
        ),
        (
            &[
                "--machine",
                "dtm-nuca",
                "--placements",
                "private",
                "--filters",
                "nearest,bilinear",
            ][..],
            "one filter",
        ),
        (
            &["--machine", "dtm-nuca", "--placements", "nowhere"][..],
            "nowhere",
        ),
    ] {
        let args = small(&bad, extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = gfxcache(&args);
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(
            !r.status.success() && err.contains(named),
            "{extra:?}: {err}"
        );
    }
}
