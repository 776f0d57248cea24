//! `gfxcache compose` end to end: the machine's and the units' settings
//! from `--config`, `--unit` and the bus flags reach the study (and its
//! report), and what the units may not set is refused by name.

use std::path::Path;

use crate::common::{gfxcache, json};

/// A small frame on 4 fragment processors, as the suite's test runs
/// each scene.
fn small() -> Vec<&'static str> {
    let mut args = vec!["--scene", "racer"];
    args.extend_from_slice(crate::suite::COMPOSE);
    args
}

fn compose(out: &Path, more: &[&str]) -> serde_json::Value {
    let mut args = vec!["compose", "--out", out.to_str().unwrap(), "--json"];
    args.extend_from_slice(&small());
    args.extend_from_slice(more);
    json(&args)
}

/// The composed study of racer at 320x160 into `out`, with `more` flags
/// and the tiles' wait `sync` (`on` or `off`).
fn compose_racer(out: &Path, more: &[&str], sync: &str) -> serde_json::Value {
    let mut args = vec!["compose", "--out", out.to_str().unwrap(), "--json"];
    args.extend(["--scene", "racer", "--width", "320", "--height", "160"]);
    args.extend_from_slice(more);
    args.extend(["--sync-tiles", sync]);
    json(&args)
}

/// DTM-NUCA's replay of `requests` into `out` with `more` flags, the
/// tiles' wait `sync` and `contexts` a processor if given: its first
/// organization's result (private caches).
fn nuca_private(
    requests: &Path,
    out: &Path,
    more: &[&str],
    contexts: Option<&str>,
    sync: &str,
) -> serde_json::Value {
    let mut args = vec!["nuca", requests.to_str().unwrap(), "--no-sweeps", "--json"];
    args.extend_from_slice(more);
    args.extend(["--sync-tiles", sync]);
    args.extend(contexts.map(|c| ["--contexts", c]).into_iter().flatten());
    args.extend(["--out", out.to_str().unwrap()]);
    json(&args)["organizations"][0]["result"].clone()
}

/// A count of a report as a number.
fn n(v: &serde_json::Value) -> f64 {
    v.as_u64().unwrap() as f64
}

/// The replay's L2 requests (`nuca`'s result) are a composed run's
/// within `share` of them (and 2), with the tiles' wait `sync`.
fn assert_l2_requests_near(
    nuca: &serde_json::Value,
    run: &serde_json::Value,
    share: f64,
    sync: &str,
) {
    let ours = n(&nuca["stats"]["l2_requests"]);
    let theirs = n(&run["machine"]["served"]["l2_requests"]);
    assert!(
        (ours - theirs).abs() <= share * theirs + 2.0,
        "sync {sync}: {ours} {theirs}"
    );
}

/// How much longer the replay's frame (`nuca`'s result) is than a
/// composed run's, as a fraction.
fn gap(nuca: &serde_json::Value, run: &serde_json::Value) -> f64 {
    n(&nuca["timing"]["cycles"]) / n(&run["frame_cycles"]) - 1.0
}

#[test]
fn the_config_unit_and_bus_flags_reach_the_study() {
    let dir = tempfile::tempdir().unwrap();
    let machine = dir.path().join("machine.json");
    std::fs::write(&machine, r#"{"tc_bytes": 8192, "epoch": 1000}"#).unwrap();
    let unit = dir.path().join("unit.json");
    std::fs::write(&unit, r#"{"wlb_entries": 8, "fragments_in_flight": 64}"#).unwrap();
    let base = compose(&dir.path().join("a"), &[]);
    let r = compose(
        &dir.path().join("b"),
        &[
            "--config",
            machine.to_str().unwrap(),
            "--unit",
            unit.to_str().unwrap(),
            "--bus-width",
            "256",
            "--l2-policy",
            "srrip:bits=3",
        ],
    );
    let c = &r["config"];
    assert_eq!(c["machine"]["l2"]["policy"], "srrip:bits=3");
    assert_eq!(base["config"]["machine"]["l2"]["policy"], "lru");
    assert_eq!(c["machine"]["tc_bytes"], 8192);
    assert_eq!(c["machine"]["epoch"], 1000);
    assert_eq!(c["machine"]["timing"]["bus_width_bits"], 256);
    assert_eq!(c["unit"]["wlb_entries"], 8);
    assert_eq!(c["unit"]["fragments_in_flight"], 64);
    assert_eq!(base["config"]["machine"]["tc_bytes"], 16384);
    // The request unit is the machine's (dtm-nuca: a quad's, a fragment
    // four of its 384 threads) unless --request-unit says otherwise.
    assert_eq!(base["config"]["request_unit"], "quad");
    assert_eq!(base["config"]["unit"]["fragments_in_flight"], 96);
    let page = std::fs::read_to_string(dir.path().join("a").join("index.html")).unwrap();
    assert!(
        page.contains("fragment.request_unit unless --request-unit says otherwise"),
        "the setup says whose request unit it is"
    );
    let samples = compose(&dir.path().join("c"), &["--request-unit", "sample"]);
    assert_eq!(samples["config"]["request_unit"], "sample");
    assert_eq!(samples["config"]["unit"]["fragments_in_flight"], 384);
    // A 256-bit bus carries a 64-byte block in half the beats: every
    // transfer holds it for less time.
    let beats = |v: &serde_json::Value| {
        let bus = &v["runs"][0]["machine"]["bus"];
        bus["busy_cycles"].as_f64().unwrap() / bus["transfers"].as_f64().unwrap()
    };
    assert!(beats(&r) < beats(&base), "{} {}", beats(&r), beats(&base));
}

#[test]
fn what_the_units_may_not_set_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    for (field, says) in [
        ("memory_latency", "the memory its L2 and DRAM"),
        ("l1_bytes", "the L1 is the machine's texture cache"),
        ("mode", "--l1"),
    ] {
        let unit = dir.path().join(format!("{field}.json"));
        std::fs::write(&unit, format!(r#"{{"{field}": 1}}"#)).unwrap();
        let mut args = vec!["compose", "--out", "unused-out"];
        args.extend_from_slice(&small());
        args.extend_from_slice(&["--unit", unit.to_str().unwrap()]);
        let o = gfxcache(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{field}");
        assert!(
            err.contains(&format!("\"{field}\"")) && err.contains(says),
            "{err}"
        );
        assert!(err.contains(unit.to_str().unwrap()), "{err}");
    }
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "[1, 2]").unwrap();
    let mut args = vec!["compose", "--out", "unused-out"];
    args.extend_from_slice(&small());
    args.extend_from_slice(&["--config", bad.to_str().unwrap()]);
    let o = gfxcache(&args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(err.contains("expected a JSON object"), "{err}");
    // OPT needs the future of the L2's accesses, which the machine makes
    // as it runs.
    let mut args = vec!["compose", "--out", "unused-out"];
    args.extend_from_slice(&small());
    args.extend_from_slice(&["--l2-policy", "opt"]);
    let o = gfxcache(&args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(
        err.contains("l2.policy = opt") && err.contains("future"),
        "{err}"
    );
    assert!(!Path::new("unused-out").exists(), "nothing written");
}

/// DTM-NUCA's replay (`FpClocks`: contexts, each holding a fragment
/// with one request in flight) and the composed machine (the NBTC's
/// pixel processor and texture unit, cycle by cycle) are two models of a
/// fragment processor. On one frame, with DTM-NUCA's replay reading
/// requests as the units do (`--request-unit sample`), they see the same
/// accesses and, on private caches, make the same L2 requests; one
/// context a processor times the blocking cache's frame and as many as
/// the units' fragments in flight the NBTC's, with the tiles
/// synchronised or not. The tolerances are the gaps measured on racer,
/// runner and shooter at 320x160 and 640x320 (at most 5.4 % and 7.6 % for
/// the blocking cache without and with the tiles' wait, 1.4 % for the
/// NBTC either way) with room: the blocking unit lets other fragments
/// shade while it waits, one context does not, and the NBTC's buffers
/// are finite. Contexts that take requests in turn (`--context-unit
/// request`) overlap a fragment's requests where the units chain them:
/// with the tiles' wait their frame is shorter than the NBTC's (by up to
/// 9 %).
#[test]
fn dtm_nucas_replay_and_the_composed_machine_agree_on_private_caches() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c");
    let units = [
        "--l1",
        "btc,nbtc",
        "--placements",
        "private",
        "--request-unit",
        "sample",
    ];
    let (free, synced) = (
        compose_racer(&out, &units, "off"),
        compose_racer(&out, &units, "on"),
    );
    let (requests, nuca_out) = (out.join("frame.gtq.zst"), dir.path().join("n"));
    let nuca = |contexts: Option<&str>, sync: &str| {
        let samples = ["--request-unit", "sample"];
        nuca_private(&requests, &nuca_out, &samples, contexts, sync)
    };
    let run = |c: &serde_json::Value, mode: &str| {
        let runs = c["runs"].as_array().unwrap();
        runs.iter().find(|r| r["mode"] == mode).unwrap().clone()
    };
    for (sync, c, bound) in [("off", &free, 0.08), ("on", &synced, 0.10)] {
        let (blocking, many) = (nuca(Some("1"), sync), nuca(None, sync));
        let (btc, nbtc) = (run(c, "btc"), run(c, "nbtc"));
        assert_eq!(
            blocking["stats"]["texture_accesses"],
            btc["machine"]["served"]["accesses"]
        );
        assert_l2_requests_near(&blocking, &btc, 0.001, sync);
        let g = gap(&blocking, &btc);
        assert!(g.abs() < bound, "sync {sync}: {g}");
        let g = gap(&many, &nbtc);
        assert!(g.abs() < 0.03, "sync {sync}: {g}");
        // Not a tautology: the blocking cache's frame is not the NBTC's.
        assert!(gap(&many, &btc).abs() > 0.1, "{}", gap(&many, &btc));
    }
    let requests_in_turn = nuca_private(
        &requests,
        &nuca_out,
        &["--request-unit", "sample", "--context-unit", "request"],
        None,
        "on",
    );
    let g = gap(&requests_in_turn, &run(&synced, "nbtc"));
    assert!(g < -0.03, "the replay overlaps what the units chain: {g}");
    // The tiles' wait is the machine's: every unit ends with the frame,
    // and the frame is longer for it.
    for mode in ["btc", "nbtc"] {
        let (f, s) = (run(&free, mode), run(&synced, mode));
        assert_eq!(f["total"]["tile_wait_cycles"], 0);
        assert!(n(&s["total"]["tile_wait_cycles"]) > 0.0, "{mode}");
        assert!(n(&s["frame_cycles"]) > n(&f["frame_cycles"]), "{mode}");
    }
}

/// With quad requests the units see DTM-NUCA's replay's accesses
/// exactly (its default request unit, a quad's), under every placement,
/// and on private caches its L2 requests; one context a processor times
/// the blocking cache's frame and the machine's contexts the NBTC's, with
/// the tiles' wait or without. The tolerances are the gaps measured on
/// racer, runner and shooter at 320x160 and 640x320 (L2 requests at most
/// 0.15 %, cycles at most 3.6 % for the blocking cache, 1.4 % and 6.4 %
/// for the NBTC without and with the wait) with room.
#[test]
fn quad_requests_see_dtm_nucas_replays_accesses() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c");
    let units = [
        "--request-unit",
        "quad",
        "--l1",
        "btc,nbtc",
        "--placements",
        "private,dtm-nuca-dist",
    ];
    let (requests, nuca_out) = (out.join("frame.gtq.zst"), dir.path().join("n"));
    let nuca = |contexts: Option<&str>, sync: &str| {
        nuca_private(&requests, &nuca_out, &[], contexts, sync)
    };
    for sync in ["on", "off"] {
        let c = compose_racer(&out, &units, sync);
        let (blocking, many) = (nuca(Some("1"), sync), nuca(None, sync));
        let runs = c["runs"].as_array().unwrap();
        let run = |mode: &str, placement: &str| {
            runs.iter()
                .find(|r| r["mode"] == mode && r["placement"] == placement)
                .unwrap()
        };
        for placement in ["private", "dtm-nuca-dist"] {
            assert_eq!(
                run("btc", placement)["machine"]["served"]["accesses"],
                blocking["stats"]["texture_accesses"],
                "{placement}"
            );
        }
        let btc = run("btc", "private");
        assert_l2_requests_near(&blocking, btc, 0.002, sync);
        let g = gap(&blocking, btc);
        assert!(g.abs() < 0.06, "sync {sync}: {g}");
        let g = gap(&many, run("nbtc", "private"));
        let bound = if sync == "off" { 0.03 } else { 0.09 };
        assert!(g.abs() < bound, "sync {sync}: {g}");
    }
}

/// The frame is rendered with the machine's hidden-surface removal
/// (`dtm-nuca` is a TBDR), as `gfxcache nuca` renders it; `--no-hsr`
/// shades what an early Z-test passes, more fragments and more requests.
#[test]
fn the_frame_has_the_machines_hidden_surface_removal() {
    let dir = tempfile::tempdir().unwrap();
    let requests = |more: &[&str]| {
        let r = compose(
            &dir.path().join("h"),
            &[&["--l1", "btc"][..], more].concat(),
        );
        r["runs"][0]["total"]["requests"].as_u64().unwrap()
    };
    let (machine, hsr, no_hsr) = (requests(&[]), requests(&["--hsr"]), requests(&["--no-hsr"]));
    assert_eq!(machine, hsr);
    assert!(hsr < no_hsr, "{hsr} {no_hsr}");
    // The last of the two flags wins.
    assert_eq!(requests(&["--hsr", "--no-hsr"]), no_hsr);
}

/// `--other-traffic` renders the frame's trace beside its requests and
/// carries its other L2 traffic, timed as `--other-port-cycles` and
/// `--tile-buffers` say; the frame's files given back (`--trace`) give
/// the same runs; without a trace, or without synchronised tiles, the
/// flags are refused by name.
#[test]
fn other_traffic_reaches_the_composed_machines_as_the_flags_say() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let flags = [
        "--other-traffic",
        "tiles",
        "--other-port-cycles",
        "2",
        "--tile-buffers",
        "1",
        "--dram-banks",
        "on",
    ];
    let report = compose(&out, &flags);
    let timing = &report["config"]["machine"]["timing"];
    assert_eq!(timing["other_traffic"], "tiles");
    assert_eq!(timing["other_port_cycles"], 2);
    assert_eq!(timing["tile_buffers"], 1);
    let trace = out.join("frame.gtr");
    assert_eq!(report["trace"], trace.to_str().unwrap());
    assert!(trace.is_file());
    for run in report["runs"].as_array().unwrap() {
        let l2 = &run["machine"]["l2"];
        assert!(l2["other_timed"].as_u64().unwrap() > 0, "{l2}");
        assert!(l2["other_timed"].as_u64() <= l2["other_accesses"].as_u64());
    }
    // The summary shows what was timed, a row a run.
    let text_out = dir.path().join("text");
    let mut text_args = vec!["compose", "--out", text_out.to_str().unwrap()];
    text_args.extend_from_slice(&small());
    text_args.extend_from_slice(&flags);
    let text = crate::common::ok(&text_args);
    assert!(
        text.contains("The tiles' other L2 traffic in time (a port sending a block every 2 cycle(s), 1 tile buffers"),
        "{text}"
    );
    // The last run's row: nbtc under the distributed tables, its count
    // with thousands separators.
    let timed = report["runs"][3]["machine"]["l2"]["other_timed"]
        .as_u64()
        .unwrap();
    let digits = timed.to_string();
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(c);
    }
    let row = text
        .lines()
        .rev()
        .find(|l| l.starts_with("nbtc") && l.contains("dtm-nuca-dist"))
        .unwrap();
    assert!(
        row.split_whitespace().nth(2) == Some(grouped.as_str()),
        "{grouped} in {row}"
    );
    let plain = compose(&dir.path().join("p"), &[]);
    assert!(plain.get("trace").is_none());
    assert_eq!(plain["runs"][0]["machine"]["l2"]["other_accesses"], 0);
    // The same frame from its files.
    let requests = out.join("frame.gtq.zst");
    let mut args = vec![
        "compose",
        requests.to_str().unwrap(),
        "--trace",
        trace.to_str().unwrap(),
        "--json",
    ];
    let again_out = dir.path().join("again");
    args.extend(["--out", again_out.to_str().unwrap()]);
    args.extend([
        "--fragment-processors",
        "4",
        "--l1",
        "btc,nbtc",
        "--placements",
        "private,dtm-nuca-dist",
    ]);
    args.extend_from_slice(&flags);
    let again = json(&args);
    assert_eq!(again["runs"], report["runs"]);
    let bad = dir.path().join("bad");
    let bad = bad.to_str().unwrap();
    let no_trace = [
        "compose",
        requests.to_str().unwrap(),
        "--fragment-processors",
        "4",
        "--other-traffic",
        "tiles",
        "--out",
        bad,
    ];
    crate::common::refused(&no_trace, "--trace");
    let mut unsynchronised = vec!["compose", "--out", bad, "--sync-tiles", "off"];
    unsynchronised.extend_from_slice(&small());
    unsynchronised.extend(["--other-traffic", "untimed"]);
    crate::common::refused(&unsynchronised, "synchronised tiles");
}
