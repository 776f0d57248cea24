//! What the peers have (libCacheSim, ChampSim, gem5): `mrc --policy`'s
//! SHARDS curves against the exact LRU curve and against `sim` on small
//! frames of the desktop suite, and `sim --levels` / `--hierarchy`.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::common::{gfxcache, json, ok};
use serde_json::Value;

/// Desktop scenes whose 320x180 frames the SHARDS tests use: a courtyard,
/// a street, and an open terrain whose curve has a cliff near its footprint.
const SCENES: [&str; 3] = ["atrium", "city", "terrain"];

/// The rate the tests sample at: these frames have 0.5-1 M block accesses,
/// a hundredth of a 1080p frame's, so the default rate would leave a few
/// thousand sampled accesses.
const RATE: &str = "0.1";

/// The frames, rendered once for every test of this file.
fn frames() -> &'static [PathBuf] {
    static FRAMES: OnceLock<(tempfile::TempDir, Vec<PathBuf>)> = OnceLock::new();
    &FRAMES
        .get_or_init(|| {
            let dir = tempfile::tempdir().unwrap();
            let frames = SCENES
                .iter()
                .map(|s| {
                    let path = dir.path().join(format!("{s}.gtr"));
                    ok(&[
                        "render",
                        "--scene",
                        s,
                        "--width",
                        "320",
                        "--height",
                        "180",
                        "--out",
                        path.to_str().unwrap(),
                    ]);
                    path
                })
                .collect();
            (dir, frames)
        })
        .1
}

fn mrc(trace: &Path, args: &[&str]) -> Value {
    let mut all = vec!["mrc", trace.to_str().unwrap(), "--json"];
    all.extend(args);
    json(&all)
}

fn points(v: &Value) -> &Vec<Value> {
    v["curves"][0]["points"].as_array().unwrap()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap()
}

/// The sampled LRU curve (fully associative, every power of two) is within
/// 0.02 of the exact curve at every resolved size (a mini-cache of at
/// least 256 blocks, the default) once the size is taken as the sample
/// resolves it: somewhere in the point's size band (three standard
/// deviations of the sampling's size error). The exact values in the band
/// come from a run at rate 1, whose every point must equal the one-pass
/// curve exactly.
#[test]
fn shards_lru_curves_follow_the_exact_curve_within_their_size_band() {
    for trace in frames() {
        let sampled = mrc(trace, &["--policy", "lru", "--sampling-rate", RATE]);
        assert_eq!(sampled["method"], "shards");
        let resolved: Vec<&Value> = points(&sampled)
            .iter()
            .filter(|p| p["resolved"] == Value::Bool(true))
            .collect();
        assert!(
            resolved.len() >= 5,
            "{}: {} resolved",
            trace.display(),
            resolved.len()
        );
        let block = |b: u64| (b / 64).max(1) * 64;
        let mut sizes = Vec::new();
        for p in &resolved {
            assert!(u(&p["scaled_blocks"]) >= 256);
            assert_eq!(p["exact"]["source"], "one-pass");
            sizes.extend([
                block(u(&p["size_band"][0])),
                u(&p["size"]),
                block(u(&p["size_band"][1])),
            ]);
        }
        let list: Vec<String> = sizes.iter().map(u64::to_string).collect();
        let exact = mrc(
            trace,
            &[
                "--policy",
                "lru",
                "--sampling-rate",
                "1",
                "--sizes",
                &list.join(","),
            ],
        );
        let exact_at = |size: u64| {
            let p = points(&exact)
                .iter()
                .find(|p| u(&p["size"]) == size)
                .unwrap();
            assert_eq!(f(&p["exact"]["abs_error"]), 0.0, "rate 1 is exact");
            f(&p["miss_ratio"])
        };
        for (p, band) in resolved.iter().zip(sizes.chunks(3)) {
            let m = f(&p["miss_ratio"]);
            let values: Vec<f64> = band.iter().map(|&s| exact_at(s)).collect();
            let lo = values.iter().cloned().fold(f64::INFINITY, f64::min);
            let hi = values.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let off = if m < lo { lo - m } else { (m - hi).max(0.0) };
            assert!(
                off <= 0.02,
                "{} at {} B: sampled {m:.4}, exact {values:?} over its size band",
                trace.display(),
                p["size"]
            );
            assert_eq!(f(&p["exact"]["miss_ratio"]), values[1], "the exact column");
        }
    }
}

/// DRRIP's sampled curve of 16-way caches is within 0.02 of `sim` at 1 and
/// 2 MiB, and `--exact` is `sim` itself.
#[test]
fn shards_drrip_follows_sim() {
    for trace in frames() {
        let sampled = mrc(
            trace,
            &[
                "--policy",
                "drrip",
                "--sampling-rate",
                RATE,
                "--ways",
                "16",
                "--sizes",
                "1MiB,2MiB",
                "--exact",
            ],
        );
        for p in points(&sampled) {
            let size = format!("{}", u(&p["size"]));
            let sim = json(&[
                "sim",
                trace.to_str().unwrap(),
                "--size",
                &size,
                "--ways",
                "16",
                "--policy",
                "drrip",
                "--json",
            ]);
            let exact = sim["results"][0]["misses"].as_u64().unwrap() as f64
                / sim["results"][0]["accesses"].as_u64().unwrap() as f64;
            assert_eq!(p["exact"]["source"], "simulation");
            assert_eq!(f(&p["exact"]["miss_ratio"]), exact);
            let m = f(&p["miss_ratio"]);
            assert!(
                (m - exact).abs() <= 0.02,
                "{} at {size} B: sampled {m:.4}, sim {exact:.4}",
                trace.display()
            );
            assert_eq!(u(&p["scaled_ways"]), 16);
        }
    }
}

#[test]
fn shards_says_how_it_sampled() {
    let trace = &frames()[0];
    let v = mrc(
        trace,
        &["--policy", "lru,srrip", "--sets", "64", "--max-ways", "64"],
    );
    let s = &v["sampling"];
    assert_eq!(f(&s["rate"]), 0.01, "the default rate");
    assert_eq!((u(&s["modulus"]), u(&s["threshold"])), (1 << 24, 167_772));
    assert_eq!(s["hash"], "splitmix64");
    assert_eq!(s["adjust"], true);
    let n = u(&v["block_accesses"]) as f64;
    assert!((f(&v["expected_sampled"]) - n * f(&s["effective_rate"])).abs() < 1e-6);
    assert_eq!(v["curves"].as_array().unwrap().len(), 2);
    // 64 sets x 0.01 rounds to 1 set: every way count of one set.
    for p in points(&v) {
        assert_eq!(u(&p["scaled_sets"]), 1);
        assert_eq!(p["scaled_ways"], p["ways"]);
    }
    let text = ok(&[
        "mrc",
        trace.to_str().unwrap(),
        "--policy",
        "drrip",
        "--sampling-rate",
        "0.05",
        "--no-shards-adj",
    ]);
    assert!(text.contains("SHARDS: rate 0.05 (T = 838861 of P = 16777216, hash splitmix64)"));
    assert!(!text.contains("SHARDS-adj"));
    assert!(text.contains("drrip, fully associative, by capacity"));
    assert!(text.contains("* mini-cache (sets x ways) below 256 blocks: not resolved"));
}

/// `args` must fail with `want` in its last line of stderr.
fn refused(args: &[&str], want: &str) {
    let out = gfxcache(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} ran");
    assert!(err.contains(want), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?}: printed a result");
}

#[test]
fn bad_sampling_flags_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let t = synth(dir.path(), "2K");
    let t = t.to_str().unwrap();
    refused(
        &["mrc", t, "--policy", "lru", "--sampling-rate", "0"],
        "expected a rate above 0 and at most 1",
    );
    refused(&["mrc", t, "--sampling-rate", "0.1"], "--policy");
    refused(
        &[
            "mrc", t, "--policy", "lru", "--sets", "64", "--sizes", "1MiB",
        ],
        "--sets",
    );
    refused(&["mrc", t, "--policy", "nosuch"], "no such policy");
    refused(
        &[
            "mrc", t, "--policy", "lru", "--sizes", "1MiB", "--ways", "3",
        ],
        "--sizes 1MiB with --ways 3",
    );
    let csv = dir.path().join("t.csv");
    ok(&["trace", "convert", t, csv.to_str().unwrap()]);
    refused(
        &["mrc", csv.to_str().unwrap(), "--policy", "lru"],
        "announces no footprint to size the curve by (only a .gtr does): expected --sizes or --sets",
    );
    // Explicit sizes need no footprint.
    let v = json(&[
        "mrc",
        csv.to_str().unwrap(),
        "--policy",
        "lru",
        "--sizes",
        "64KiB",
        "--sampling-rate",
        "1",
        "--json",
    ]);
    assert_eq!(f(&points(&v)[0]["exact"]["abs_error"]), 0.0);
}

fn synth(dir: &Path, accesses: &str) -> PathBuf {
    let p = dir.join("t.gtr");
    ok(&[
        "trace",
        "synth",
        p.to_str().unwrap(),
        "--accesses",
        accesses,
        "--seed",
        "5",
    ]);
    p
}

#[test]
fn a_one_level_hierarchy_is_sim() {
    let dir = tempfile::tempdir().unwrap();
    let t = synth(dir.path(), "200K");
    let t = t.to_str().unwrap();
    let single = json(&[
        "sim",
        t,
        "--size",
        "64KiB",
        "--ways",
        "16",
        "--policy",
        "lru,drrip,opt",
        "--json",
    ]);
    let levels = json(&[
        "sim",
        t,
        "--levels",
        "L1:64KiB:16",
        "--policy",
        "lru,drrip,opt",
        "--json",
    ]);
    assert_eq!(levels["accesses"], single["accesses"]);
    let results = levels["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    for (h, s) in results.iter().zip(single["results"].as_array().unwrap()) {
        assert_eq!(h["policy"], s["policy"]);
        let l1 = &h["levels"][0];
        for key in [
            "accesses",
            "hits",
            "misses",
            "fills",
            "bypasses",
            "evictions",
            "writebacks",
        ] {
            assert_eq!(l1[key], s[key], "{} {key}", s["policy"]);
        }
        for (stream, c) in s["per_stream"].as_object().unwrap() {
            assert_eq!(l1["per_stream"][stream]["misses"], c["misses"], "{stream}");
        }
        assert_eq!(l1["inclusion"], Value::Null);
    }
}

#[test]
fn a_hierarchy_file_names_each_levels_policy_and_inclusion() {
    let dir = tempfile::tempdir().unwrap();
    let t = synth(dir.path(), "200K");
    let file = dir.path().join("h.toml");
    std::fs::write(
        &file,
        "block = 64\n\
         [[level]]\nname = \"L1\"\nsize = \"16KiB\"\nways = 4\npolicy = \"lru\"\n\
         [[level]]\nname = \"L2\"\nsize = \"256KiB\"\nways = 8\npolicy = \"drrip\"\ninclusion = \"inclusive\"\n\
         [[level]]\nname = \"LLC\"\nsize = \"1MiB\"\nways = \"16\"\npolicy = \"srrip\"\ninclusion = \"exclusive\"\nbanks = 4\n",
    )
    .unwrap();
    let v = json(&[
        "sim",
        t.to_str().unwrap(),
        "--hierarchy",
        file.to_str().unwrap(),
        "--json",
    ]);
    let r = &v["results"][0];
    assert_eq!(r["policy"], "lru/drrip/srrip");
    let l = r["levels"].as_array().unwrap();
    let names: Vec<&str> = l.iter().map(|x| x["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["L1", "L2", "LLC"]);
    assert_eq!(l[1]["inclusion"], "inclusive");
    assert_eq!(l[2]["inclusion"], "exclusive");
    assert_eq!((u(&l[2]["sets"]), u(&l[2]["ways"])), (1024, 16));
    // Every miss of a level that allocates reaches the next; an exclusive
    // last level passes its misses to memory.
    assert_eq!(l[1]["accesses"], l[0]["misses"]);
    assert_eq!(l[2]["accesses"], l[1]["misses"]);
    assert_eq!(r["memory"]["reads"], l[2]["misses"]);
    assert_eq!(l[1]["received"], l[0]["writebacks"]);
    for x in l {
        assert_eq!(u(&x["hits"]) + u(&x["misses"]), u(&x["accesses"]));
    }
    // --policy fills in the levels that name none.
    std::fs::write(
        &file,
        "[[level]]\nname = \"L1\"\nsize = \"16KiB\"\nways = 4\n\
         [[level]]\nname = \"L2\"\nsize = \"256KiB\"\nways = 8\npolicy = \"drrip\"\n",
    )
    .unwrap();
    let text = ok(&[
        "sim",
        t.to_str().unwrap(),
        "--hierarchy",
        file.to_str().unwrap(),
        "--policy",
        "fifo,opt",
    ]);
    assert!(text.contains("hierarchy fifo/drrip"), "{text}");
    assert!(text.contains("hierarchy opt/drrip"), "{text}");
    assert!(text.contains("non-inclusive"), "{text}");
    assert!(text.contains("memory: "), "{text}");
}

#[test]
fn bad_hierarchies_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let t = synth(dir.path(), "1K");
    let t = t.to_str().unwrap();
    let sim = |extra: &[&str], want: &str| {
        let mut all = vec!["sim", t];
        all.extend(extra);
        refused(&all, want);
    };
    sim(
        &["--levels", "L1:32KiB", "--policy", "lru"],
        "expected NAME:SIZE:WAYS[:INCLUSION]",
    );
    sim(
        &[
            "--levels",
            "L1:32KiB:8",
            "--size",
            "1MiB",
            "--policy",
            "lru",
        ],
        "--size and --ways describe one cache",
    );
    sim(
        &[
            "--levels",
            "L1:32KiB:8",
            "--write",
            "through",
            "--policy",
            "lru",
        ],
        "every level of a hierarchy is write-back and write-allocate",
    );
    sim(
        &["--levels", "L1:32KiB:8,L2:1MiB:16", "--policy", "opt"],
        "level L2: opt: needs the next uses of its level's accesses",
    );
    sim(
        &[
            "--levels",
            "L1:32KiB:8,L2:1MiB:16:inclusive",
            "--policy",
            "lru+ucd",
        ],
        "expected no +ucd here",
    );
    sim(
        &["--levels", "L1:32KiB:8:exclusive", "--policy", "lru"],
        "the first level has no level above it",
    );
    sim(&["--policy", "lru"], "--size");
    let file = dir.path().join("h.toml");
    std::fs::write(
        &file,
        "[[level]]\nname = \"L1\"\nsize = \"16KiB\"\nways = 4\nassoc = 2\n",
    )
    .unwrap();
    sim(
        &["--hierarchy", file.to_str().unwrap(), "--policy", "lru"],
        "expected a hierarchy file",
    );
    std::fs::write(
        &file,
        "[[level]]\nname = \"L1\"\nsize = \"16KiB\"\nways = 4\n",
    )
    .unwrap();
    sim(
        &["--hierarchy", file.to_str().unwrap()],
        "every level must name its policy without --policy",
    );
}
