//! `gfxcache nuca`: the private organization counts what the renderer's
//! own texture caches count for the same shape; a scene's study writes its
//! frames and report; bad settings and inputs are refused by name.

use std::path::{Path, PathBuf};

use gfxcache_render::render_caches::CacheShape;
use gfxcache_render::tbr_caches::{TbrCacheConfig, TbrCaches};
use gfxcache_trace::{Batch, Record};

use crate::common;
use crate::common::{gfxcache, json, ok, refused};

const SCENE: &[&str] = &["--scene", "racer", "--width", "256", "--height", "128"];

/// The renderer's texture caches (16 KiB, 4-way, LRU, one per fragment
/// processor) over the raw stream, and the study's private caches over
/// the same frame's requests, a pixel's request at a time in trace order
/// (how the renderer's caches see them): the same accesses, hits and
/// misses.
#[test]
fn private_caches_count_what_the_renderers_texture_caches_count() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n).display().to_string();
    let (raw, requests) = (p("raw.gtr"), p("f.gtq.zst"));
    let render = [
        &["render"][..],
        SCENE,
        &[
            "--mode",
            "tbr",
            "--hsr",
            "--fragment-processors",
            "4",
            "--raw",
        ],
        &["--out", &raw, "--texture-requests", &requests],
    ]
    .concat();
    ok(&render);

    let shape = CacheShape {
        bytes: 16 * 1024,
        ways: 4,
    };
    let config = TbrCacheConfig {
        texture: shape,
        ..TbrCacheConfig::table_i(4)
    };
    let mut caches = TbrCaches::new(&config, |_: Record| {});
    let mut reader = gfxcache_trace::open(&dir.path().join("raw.gtr")).unwrap();
    let mut batch = Batch::default();
    while reader.read_batch(&mut batch).unwrap() {
        for a in &batch.accesses {
            caches.access(a);
        }
        batch.clear();
    }
    let (mut accesses, mut hits, mut misses) = (0, 0, 0);
    for s in caches.texture_stats() {
        (accesses, hits, misses) = (accesses + s.accesses, hits + s.hits, misses + s.misses);
    }
    assert!(accesses > 10_000 && misses > 100, "{accesses} {misses}");

    let report = json(&[
        "nuca",
        &requests,
        "--fragment-processors",
        "4",
        "--tc-size",
        "16KiB",
        "--request-unit",
        "pixel",
        "--replay-order",
        "trace",
        "--no-sweeps",
        "--scaling",
        "none",
        "--assignments",
        "none",
        "--private-sizes",
        "16KiB",
        "--json",
        "--out",
        &p("study"),
    ]);
    let private = report["organizations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["organization"] == "private")
        .unwrap();
    let s = &private["result"]["stats"];
    assert_eq!(s["texture_accesses"], accesses);
    assert_eq!(s["local_hits"], hits);
    assert_eq!(s["l2_requests"], misses);
}

/// `gfxcache nuca` on a 64x64 frame of racer without the sweeps, into
/// `out`, with `extra` flags.
fn small_racer<'a>(out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "nuca",
        "--scene",
        "racer",
        "--width",
        "64",
        "--height",
        "64",
        "--no-sweeps",
        "--out",
        out,
    ];
    args.extend_from_slice(extra);
    args
}

/// A machine file in `dir`: the `dtm-nuca` preset with `from` (which it
/// holds) made `to`.
fn dtm_nuca_but(dir: &Path, from: &str, to: &str) -> PathBuf {
    let preset = include_str!("../../../machine/presets/dtm-nuca.toml");
    assert!(preset.contains(from), "{from}");
    let machine = dir.join("machine.toml");
    std::fs::write(&machine, preset.replace(from, to)).unwrap();
    machine
}

/// With no --request-unit a texture cache sees the machine's request:
/// a machine whose units take a pixel's sample gives sample requests, a
/// context a thread.
#[test]
fn the_request_unit_is_the_machines() {
    let dir = tempfile::tempdir().unwrap();
    let machine = dtm_nuca_but(
        dir.path(),
        "request_unit = { value = \"quad\"",
        "request_unit = { value = \"sample\"",
    );
    let out = dir.path().join("n");
    let report = json(&small_racer(
        out.to_str().unwrap(),
        &["--machine", machine.to_str().unwrap(), "--json"],
    ));
    assert_eq!(report["request_unit"], "sample");
    assert_eq!(report["config"]["timing"]["contexts"], 384);
}

/// The DRAM's banks are off unless asked for; `--dram-banks on` reads
/// every texture L2 miss at the machine's DRAM (a file's `memory.dram`),
/// `--dram` another.
#[test]
fn dram_banks_are_the_flags_over_the_machines_dram() {
    let dir = tempfile::tempdir().unwrap();
    let machine = dtm_nuca_but(
        dir.path(),
        "dram = { value = \"lpddr3-1600\"",
        "dram = { value = \"ddr3-1867\"",
    );
    let run = |name: &str, extra: &[&str]| {
        let out = dir.path().join(name);
        json(&small_racer(
            out.to_str().unwrap(),
            &[extra, &["--json"]].concat(),
        ))
    };
    let reads = |r: &serde_json::Value| {
        r["organizations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| {
                let res = &o["result"];
                assert_eq!(res["dram"]["reads"], res["l2"]["texture_misses"]);
                res["dram"]["reads"].as_u64().unwrap()
            })
            .sum::<u64>()
    };
    let off = run("off", &[]);
    assert_eq!(off["config"]["timing"]["dram_banks"], false);
    assert_eq!(off["organizations"][0]["result"]["dram"]["reads"], 0);
    let on = run("on", &["--dram-banks", "on"]);
    assert_eq!(on["config"]["timing"]["dram_banks"], true);
    assert_eq!(on["config"]["timing"]["dram"], "lpddr3-1600");
    assert!(reads(&on) > 0);
    let file = run(
        "file",
        &["--dram-banks", "on", "--machine", machine.to_str().unwrap()],
    );
    assert_eq!(file["config"]["timing"]["dram"], "ddr3-1867");
    let flag = run("flag", &["--dram-banks", "on", "--dram", "ddr3-1600"]);
    assert_eq!(flag["config"]["timing"]["dram"], "ddr3-1600");
    // The summary has the banks' table only when there are banks.
    let text = |name: &str, extra: &[&str]| {
        let out = dir.path().join(name);
        ok(&small_racer(out.to_str().unwrap(), extra))
    };
    assert!(text("text-on", &["--dram-banks", "on"]).contains(
        "DRAM behind the L2 (lpddr3-1600, 75 cycles unloaded, and the waits for its banks"
    ));
    assert!(!text("text-off", &[]).contains("DRAM behind the L2"));
}

/// The frame's other traffic and the L2's write-backs are untimed unless
/// asked for; `--other-traffic tiles` times the tiles' traffic with
/// `--other-port-cycles` and `--tile-buffers` as given, `--dram-writes on`
/// the write-backs, and the summary says so; out-of-range values
/// are refused by name; the composed machine (`--l1`) takes the flags and
/// carries the frame's other traffic too.
#[test]
fn other_traffic_is_timed_as_the_flags_say() {
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, extra: &[&str]| {
        let out = dir.path().join(name);
        json(&small_racer(
            out.to_str().unwrap(),
            &[extra, &["--json"]].concat(),
        ))
    };
    let timed =
        |r: &serde_json::Value| r["organizations"][0]["result"]["l2"]["other_timed"].clone();
    let untimed = run("untimed", &[]);
    assert_eq!(untimed["config"]["timing"]["other_traffic"], "untimed");
    assert_eq!(timed(&untimed), 0);
    // An L2 small enough for the frame's blocks to be evicted dirty.
    let small_l2 = dir.path().join("l2.json");
    std::fs::write(&small_l2, r#"{"l2": {"bytes": 16384}}"#).unwrap();
    let tiles = run(
        "tiles",
        &[
            "--config",
            small_l2.to_str().unwrap(),
            "--other-traffic",
            "tiles",
            "--other-port-cycles",
            "3",
            "--tile-buffers",
            "1",
            "--dram-banks",
            "on",
            "--dram-writes",
            "on",
        ],
    );
    let timing = &tiles["config"]["timing"];
    assert_eq!(timing["dram_writes"], true);
    assert_eq!(untimed["config"]["timing"]["dram_writes"], false);
    assert_eq!(timing["other_traffic"], "tiles");
    assert_eq!(timing["other_port_cycles"], 3);
    assert_eq!(timing["tile_buffers"], 1);
    let l2 = &tiles["organizations"][0]["result"]["l2"];
    assert!(timed(&tiles).as_u64().unwrap() > 0, "{l2}");
    assert!(
        l2["other_timed"].as_u64() < l2["other_accesses"].as_u64(),
        "{l2}"
    );
    let dram = &tiles["organizations"][0]["result"]["dram"];
    assert!(dram["writes"].as_u64().unwrap() > 0, "{dram}");
    let out = dir.path().join("text");
    let text = ok(&small_racer(
        out.to_str().unwrap(),
        &["--other-traffic", "tiles"],
    ));
    assert!(
        text.contains("The tiles' other L2 traffic in time (a port sending a block every 1 cycle(s), 2 tile buffers"),
        "{text}"
    );
    let out = dir.path().join("bad");
    let out = out.to_str().unwrap();
    refused(
        &small_racer(out, &["--tile-buffers", "9"]),
        "timing.tile_buffers",
    );
    refused(
        &small_racer(out, &["--other-port-cycles", "0"]),
        "timing.other_port_cycles",
    );
    let composed = json(&small_racer(
        dir.path().join("l1").to_str().unwrap(),
        &["--l1", "nbtc", "--other-traffic", "tiles", "--json"],
    ));
    assert_eq!(
        composed["config"]["machine"]["timing"]["other_traffic"],
        "tiles"
    );
    for run in composed["runs"].as_array().unwrap() {
        assert!(run["machine"]["l2"]["other_timed"].as_u64().unwrap() > 0);
    }
}

/// The machine's L2 takes the GSPC paper's policies too, and the frame's
/// other L2 traffic reaches it with its streams.
#[test]
fn the_l2_takes_the_gspc_papers_policies() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("gspc");
    let report = json(&small_racer(
        out.to_str().unwrap(),
        &["--l2-policy", "gspc", "--json"],
    ));
    assert_eq!(report["config"]["l2"]["policy"], "gspc");
    let l2 = &report["organizations"][0]["result"]["l2"];
    assert!(l2["other_accesses"].as_u64().unwrap() > 0, "{l2}");
    let out = dir.path().join("bad");
    let bad = gfxcache(&small_racer(
        out.to_str().unwrap(),
        &["--l2-policy", "gspcc"],
    ));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        !bad.status.success() && err.contains("gspcc") && err.contains("gspztc"),
        "{err}"
    );
}

#[test]
fn a_scenes_study_writes_its_frames_and_report() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("n");
    // A setting given in part keeps the machine's others: contexts stay
    // the machine's threads over a quad's pixels.
    let partial = dir.path().join("partial.json");
    std::fs::write(&partial, r#"{"timing": {"sync_tiles": false}}"#).unwrap();
    let text = ok(&[
        &["nuca"][..],
        SCENE,
        &["--config", partial.to_str().unwrap()],
        &[
            "--fragment-processors",
            "8",
            "--scaling",
            "4",
            "--assignments",
            "tiles",
        ],
        &["--no-sweeps", "--private-sizes", "16KiB,64KiB"],
        &["--announced-count", "halved", "--bus-channels", "split"],
        &["--bus-width", "256", "--bus-occupancy", "on"],
        &["--out", out.to_str().unwrap()],
    ]
    .concat());
    for org in ["private", "d-nuca", "dtm-nuca", "dtm-nuca-dist"] {
        assert!(text.contains(org), "{org}: {text}");
    }
    for f in [
        "nuca.json",
        "index.html",
        "organizations.csv",
        "frame.gtq.zst",
        "frame.gtr",
        "frame.png",
        "p4.gtq.zst",
        "tiles.gtq.zst",
        "fig8_hits.svg",
        "fig11_scaling.svg",
    ] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("nuca.json")).unwrap()).unwrap();
    assert_eq!(report["scene"], "racer");
    assert_eq!(report["frame"]["fragment_processors"], 8);
    let fps: Vec<u64> = report["scaling"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["fragment_processors"].as_u64().unwrap())
        .collect();
    assert_eq!(fps, [4, 8]);
    assert_eq!(report["assignments"].as_array().unwrap().len(), 2);
    assert_eq!(report["replication"]["fragment_processors"], 4);
    let config = &report["config"];
    assert_eq!(config["announced_count"], "halved");
    assert_eq!(config["timing"]["bus_channels"], "split");
    assert_eq!(config["timing"]["bus_width_bits"], 256);
    assert_eq!(config["timing"]["bus_occupancy"], true);
    // The machine is the paper's, every value with its source, and its
    // threads are the contexts of quads.
    assert_eq!(report["machine"]["name"], "dtm-nuca");
    assert_eq!(config["timing"]["contexts"], 384 / 4);
    assert_eq!(report["request_unit"], "quad");
    assert_eq!(config["timing"]["sync_tiles"], false);
    assert!(out.join("machine.csv").is_file());
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(page.contains("The machine: dtm-nuca"));
    assert!(
        page.contains("A texture request is a quad"),
        "the setup says what a request is"
    );
    let private = &report["organizations"][0];
    assert_eq!(private["organization"], "private");
    let bus = &private["result"]["bus"];
    let requests = private["result"]["stats"]["l2_requests"].as_u64().unwrap();
    assert_eq!(bus["transfers"].as_u64().unwrap(), 2 * requests);
    assert_eq!(bus["busy_cycles"].as_u64().unwrap(), (1 + 2) * requests);
    assert_eq!(bus["channels"], 2);
    assert!(
        text.contains("The bus to the L2 (256 bits, split"),
        "{text}"
    );
    common::check_page(&out, "frame.png");
    assert_eq!(
        common::too_wide(&out),
        Vec::new(),
        "figures wider than the page"
    );
}

#[test]
fn bad_settings_and_inputs_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("n");
    let out = out.to_str().unwrap();
    let refused = |args: &[&str], expect: &str| {
        let o = gfxcache(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(expect), "{args:?}: {err}");
        assert!(o.stdout.is_empty());
    };
    refused(
        &[&["nuca"][..], SCENE, &["--scaling", "x", "--out", out]].concat(),
        "--scaling",
    );
    refused(
        &[
            &["nuca"][..],
            SCENE,
            &["--assignments", "nope", "--out", out],
        ]
        .concat(),
        "--assignments",
    );
    refused(
        &[&["nuca"][..], SCENE, &["--counter-bits", "9", "--out", out]].concat(),
        "counter_bits",
    );
    refused(
        &[&["nuca"][..], SCENE, &["--bus-width", "0", "--out", out]].concat(),
        "timing.bus_width_bits",
    );
    // Caches of gigabytes are refused before the frame renders.
    refused(
        &[&["nuca"][..], SCENE, &["--tc-size", "1GiB", "--out", out]].concat(),
        "tc_bytes = 1073741824 B: expected a texture cache of at most 16 MiB",
    );
    refused(
        &[
            &["nuca"][..],
            SCENE,
            &["--private-sizes", "16KiB,1GiB", "--out", out],
        ]
        .concat(),
        "private_sizes: 1073741824 B: expected private caches of at most 16 MiB",
    );
    let missing = dir.path().join("missing.gtq");
    refused(
        &["nuca", missing.to_str().unwrap(), "--out", out],
        "missing.gtq",
    );
    assert!(!std::path::Path::new(out).exists());
}

/// `--l1` runs the organizations on the composed machine: `gfxcache
/// compose` under every placement, with the command's machine settings
/// (here a flag only `nuca` has), into compose's report; the replay's
/// own flags and its pixel requests are refused by name.
#[test]
fn l1_runs_every_organization_on_the_composed_machine() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("n");
    let report = json(&small_racer(
        out.to_str().unwrap(),
        &["--l1", "btc,nbtc", "--buckets", "16", "--json"],
    ));
    assert_eq!(report["config"]["machine"]["buckets"], 16);
    let runs = report["runs"].as_array().unwrap();
    let placements: Vec<&str> = runs[..6]
        .iter()
        .map(|r| r["placement"].as_str().unwrap())
        .collect();
    assert_eq!(
        placements,
        [
            "private",
            "d-nuca",
            "dtm-nuca",
            "dtm-nuca-dist",
            "s-nuca",
            "ideal-shared"
        ]
    );
    assert_eq!(runs.len(), 12);
    assert!(out.join("compose.json").is_file() && !out.join("nuca.json").exists());
    // The same frame through `gfxcache compose`, the settings by file.
    let frame = out.join("frame.gtq.zst");
    let settings = dir.path().join("machine.json");
    std::fs::write(&settings, r#"{"buckets": 16}"#).unwrap();
    let again = json(&[
        "compose",
        frame.to_str().unwrap(),
        "--l1",
        "btc,nbtc",
        "--placements",
        "private,d-nuca,dtm-nuca,dtm-nuca-dist,s-nuca,ideal-shared",
        "--config",
        settings.to_str().unwrap(),
        "--out",
        dir.path().join("c").to_str().unwrap(),
        "--json",
    ]);
    let from_nuca = json(&[
        "nuca",
        frame.to_str().unwrap(),
        "--l1",
        "btc,nbtc",
        "--buckets",
        "16",
        "--out",
        dir.path().join("d").to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(from_nuca["runs"], again["runs"]);
    for (extra, named) in [
        (&["--l1", "nbtc", "--scaling", "4"][..], "--scaling"),
        (&["--l1", "nbtc", "--contexts", "8"][..], "--contexts"),
        (&["--l1", "nbtc", "--request-unit", "pixel"][..], "pixel"),
        (&["--l1", "nbtx"][..], "nbtx"),
    ] {
        let bad = dir.path().join("bad");
        common::refused(&small_racer(bad.to_str().unwrap(), extra), named);
    }
}
