//! `gfxcache sim` where the geometry is unusual: warnings for policies that
//! cannot be what their name says on it.

use std::path::{Path, PathBuf};

use crate::common::{gfxcache, ok};

fn synth(dir: &Path, accesses: &str) -> PathBuf {
    let p = dir.join("t.gtr");
    ok(&[
        "trace",
        "synth",
        p.to_str().unwrap(),
        "--accesses",
        accesses,
        "--seed",
        "3",
    ]);
    p
}

/// `sim` with `args` after the trace: (stdout, stderr), having succeeded.
fn sim(trace: &Path, args: &[&str]) -> (String, String) {
    let mut all = vec!["sim", trace.to_str().unwrap()];
    all.extend(args);
    let out = gfxcache(&all);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{all:?}: {stderr}");
    (String::from_utf8(out.stdout).unwrap(), stderr)
}

#[test]
fn set_dueling_and_sampling_on_one_set_are_warnings_in_text_and_json() {
    let dir = tempfile::tempdir().unwrap();
    let t = synth(dir.path(), "20K");
    let args = [
        "--size",
        "64KiB",
        "--ways",
        "full",
        "--policy",
        "lru,drrip,gs-drrip,gspc+ucd",
    ];
    let (_, stderr) = sim(&t, &args);
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("warning: "))
        .collect();
    assert_eq!(warnings.len(), 3, "{stderr}");
    assert!(warnings[0]
        .starts_with("warning: drrip: a single set (fully associative) has no leader sets"));
    assert!(warnings[0].ends_with("so this runs exactly as srrip"));
    assert!(warnings[1].starts_with("warning: gs-drrip: a single set"));
    assert!(warnings[2].starts_with("warning: gspc+ucd: the only set is a sample set"));

    let mut json_args = args.to_vec();
    json_args.push("--json");
    let (stdout, stderr_json) = sim(&t, &json_args);
    assert_eq!(stderr_json, stderr, "the same warnings with --json");
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON document");
    let results = v["results"].as_array().unwrap();
    let warnings_of = |i: usize| -> Vec<String> {
        serde_json::from_value(results[i]["warnings"].clone()).expect("a warnings array")
    };
    assert_eq!(results[0]["policy"], "lru");
    assert!(warnings_of(0).is_empty());
    assert_eq!(results[1]["policy"], "drrip");
    assert_eq!(
        format!("warning: drrip: {}", warnings_of(1)[0]),
        warnings[0],
        "JSON and stderr say the same"
    );
    assert_eq!(warnings_of(2).len(), 1);
    assert_eq!(warnings_of(3).len(), 1);
    // The existing fields are all still there.
    for key in ["hits", "misses", "hit_rate", "per_stream", "report"] {
        assert!(results[1].get(key).is_some(), "{key}");
    }
}

#[test]
fn an_ordinary_llc_has_no_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let t = synth(dir.path(), "20K");
    let (stdout, stderr) = sim(
        &t,
        &[
            "--size", "8MiB", "--ways", "16", "--banks", "4", "--policy", "all", "--json",
        ],
    );
    assert!(!stderr.contains("warning"), "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    for r in v["results"].as_array().unwrap() {
        assert_eq!(r["warnings"], serde_json::json!([]), "{}", r["policy"]);
    }
}

/// `gfxcache args` under `ulimit -v` of `kib` KiB of address space (the
/// binary itself starts in much less).
fn under_memory_limit(kib: u64, args: &[&str]) -> std::process::Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_gfxcache"))
        .args(args)
        .output()
        .expect("sh runs")
}

#[test]
fn a_cache_too_large_for_the_memory_at_hand_is_an_error_not_an_abort() {
    let dir = tempfile::tempdir().unwrap();
    let t = synth(dir.path(), "1K");
    let t = t.to_str().unwrap();
    // 2 GiB of address space: the binary and its threads fit, a 64 GiB
    // cache's tables (8 GiB of tags alone) do not.
    const LIMIT: u64 = 2 << 20;
    let small = under_memory_limit(
        LIMIT,
        &[
            "sim", t, "--size", "1MiB", "--ways", "16", "--policy", "all",
        ],
    );
    assert!(
        small.status.success(),
        "the limit leaves room for an ordinary run: {}",
        String::from_utf8_lossy(&small.stderr)
    );
    for policy in ["lru", "drrip", "opt", "gspc"] {
        let out = under_memory_limit(
            LIMIT,
            &[
                "sim", t, "--size", "64GiB", "--ways", "16", "--policy", policy,
            ],
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{policy}: exit 1, no abort: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{policy}: no result printed");
        let line = stderr.lines().last().unwrap_or_default();
        assert!(
            line.starts_with("error: cannot allocate ")
                && line.contains(&format!(
                    " of {policy} on a 64GiB, 16-way cache (1073741824 lines)"
                ))
                && line.ends_with(": not enough memory"),
            "{policy}: {stderr}"
        );
    }
    // `mrc`'s per-set stacks likewise: 2^25 sets x 64 ways of 4 bytes.
    let out = under_memory_limit(LIMIT, &["mrc", t, "--sets", "33554432", "--max-ways", "64"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "mrc: exit 1, no abort: {stderr}"
    );
    assert_eq!(
        stderr.lines().last(),
        Some(
            "error: cannot allocate 8GiB for the recency stacks of 33554432 sets x 64 ways: \
             not enough memory"
        ),
        "{stderr}"
    );
}
