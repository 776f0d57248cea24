//! The sweeps of `gfxcache nbtc` from their flags: each knob's values
//! (the study's defaults without the flag, `none` for none), each value
//! checked on the unit alone, naming its flag.

use anyhow::{bail, Context, Result};
use gfxcache_nbtc::study::Sweeps;
use gfxcache_nbtc::NbtcConfig;

use super::{filter_name, Args};
use crate::cmd::render::TextureFilterArg;

/// A sweep flag's values: `given`, or `default` without the flag; `none`
/// for none; each at most `max`.
fn sweep_values(
    flag: &str,
    given: &Option<Vec<String>>,
    default: Vec<u64>,
    max: u64,
) -> Result<Vec<u64>> {
    let Some(given) = given else {
        return Ok(default);
    };
    let mut out = Vec::new();
    for s in given.iter().map(|s| s.trim()).filter(|s| *s != "none") {
        let v: u64 = s.parse().ok().filter(|&v| v <= max).with_context(|| {
            format!("{flag}: '{s}': expected a whole number up to {max}, or none")
        })?;
        if !out.contains(&v) {
            out.push(v);
        }
    }
    Ok(out)
}

fn narrow(values: Vec<u64>) -> Vec<u32> {
    values.into_iter().map(|v| v as u32).collect()
}

/// The knobs swept and their flags, a setter each (to check each value
/// alone, naming its flag).
type SweepFlag = (&'static str, fn(&mut NbtcConfig, u64));

const SWEEP_FLAGS: [SweepFlag; 10] = [
    ("--sweep-wlb", |c, v| c.wlb_entries = v as u32),
    ("--sweep-bab", |c, v| c.bab_entries = v as u32),
    ("--sweep-bab-merges", |c, v| c.bab_merges_sent = v != 0),
    ("--sweep-rb", |c, v| c.rb_entries = v as u32),
    ("--sweep-block", |c, v| c.block_bytes = v as u32),
    ("--sweep-hit", |c, v| c.hit_latency = v),
    ("--sweep-filter-latency", |c, v| c.filter_latency = v),
    ("--sweep-issue-rate", |c, v| {
        c.issue = match v {
            0 => None,
            _ => c.issue.map(|m| m.scaled(v as f64 / 100.0)),
        }
    }),
    ("--sweep-fragments", |c, v| c.fragments_in_flight = v as u32),
    ("--sweep-shared-memory", |c, v| c.share_memory(v != 0)),
];

/// The sweeps, each value checked on the unit alone, naming its flag.
pub(super) fn sweeps(
    args: &Args,
    unit: &NbtcConfig,
    filters: &[TextureFilterArg],
    longest_latency: u64,
) -> Result<Sweeps> {
    if args.no_sweeps {
        return Ok(Sweeps::none());
    }
    let d = Sweeps::default();
    let wide = |v: &[u32]| v.iter().map(|&x| u64::from(x)).collect::<Vec<u64>>();
    let small = u64::from(u32::MAX);
    let lists = [
        sweep_values("--sweep-wlb", &args.sweep_wlb, wide(&d.wlb_entries), small)?,
        sweep_values("--sweep-bab", &args.sweep_bab, wide(&d.bab_entries), small)?,
        sweep_values(
            "--sweep-bab-merges",
            &args.sweep_bab_merges,
            wide(&d.bab_merges_sent),
            1,
        )?,
        sweep_values("--sweep-rb", &args.sweep_rb, wide(&d.rb_entries), small)?,
        sweep_values(
            "--sweep-block",
            &args.sweep_block,
            wide(&d.block_bytes),
            small,
        )?,
        sweep_values(
            "--sweep-hit",
            &args.sweep_hit,
            d.hit_latency.clone(),
            u64::MAX,
        )?,
        sweep_values(
            "--sweep-filter-latency",
            &args.sweep_filter_latency,
            d.filter_latency.clone(),
            u64::MAX,
        )?,
        sweep_values(
            "--sweep-issue-rate",
            &args.sweep_issue_rate,
            wide(&d.issue_rate),
            100_000,
        )?,
        sweep_values(
            "--sweep-fragments",
            &args.sweep_fragments,
            wide(&d.fragments_in_flight),
            small,
        )?,
        sweep_values(
            "--sweep-shared-memory",
            &args.sweep_shared_memory,
            wide(&d.shared_memory),
            1,
        )?,
    ];
    let latency = args.sweep_latency.unwrap_or(longest_latency);
    let at = NbtcConfig {
        memory_latency: latency,
        ..*unit
    };
    at.check()
        .with_context(|| format!("--sweep-latency: {latency}"))?;
    for ((flag, set), values) in SWEEP_FLAGS.iter().zip(&lists) {
        for &v in values {
            let mut c = at;
            set(&mut c, v);
            c.check().with_context(|| format!("{flag}: {v}"))?;
        }
    }
    let [wlb, bab, bab_merges, rb, block, hit, filter, issue, fragments, shared] = lists;
    Ok(Sweeps {
        filter: filter_name(sweep_on(args, filters)?).to_string(),
        latency,
        wlb_entries: narrow(wlb),
        bab_entries: narrow(bab),
        bab_merges_sent: narrow(bab_merges),
        rb_entries: narrow(rb),
        block_bytes: narrow(block),
        hit_latency: hit,
        filter_latency: filter,
        issue_rate: narrow(issue),
        fragments_in_flight: narrow(fragments),
        shared_memory: narrow(shared),
    })
}

/// The frame the sweeps run on: --sweep-on's, which must be studied; else
/// bilinear if it is, else the first.
fn sweep_on(args: &Args, filters: &[TextureFilterArg]) -> Result<TextureFilterArg> {
    match args.sweep_on {
        Some(f) if filters.contains(&f) => Ok(f),
        Some(f) => {
            let names: Vec<&str> = filters.iter().map(|&f| filter_name(f)).collect();
            bail!(
                "--sweep-on {}: no such frame is studied (the frames: {})",
                filter_name(f),
                names.join(", ")
            )
        }
        None if filters.contains(&TextureFilterArg::Bilinear) => Ok(TextureFilterArg::Bilinear),
        None => Ok(filters[0]),
    }
}
