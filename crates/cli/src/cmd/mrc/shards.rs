//! `gfxcache mrc --policy`: miss-ratio curves of any policy by SHARDS
//! sampling ([`gfxcache_cache::shards`]), beside the exact value where
//! it is known.

use std::sync::Arc;

use anyhow::{bail, Context, Result};
use gfxcache_cache::run::{for_each_batch, Threads};
use gfxcache_cache::shards::{
    next_uses, power_of_two_sizes, ShardsConfig, ShardsPass, ShardsPlan, ShardsReport,
};
use gfxcache_cache::{parse_size, Env, Geometry, Ways};
use serde::Serialize;

use super::Args;
use crate::cmd::open_trace;
use crate::progress;
use crate::table::{percent, thousands, Table};

/// What `mrc --policy --json` prints.
#[derive(Clone, Debug, Serialize)]
pub struct ShardsOutput {
    pub trace: String,
    pub method: &'static str,
    pub block: u32,
    /// The fixed set count (`--sets`), or `null`.
    pub sets: Option<u32>,
    /// The fixed associativity (`--ways N`), or `null`: fully associative,
    /// or every way count with `--sets`.
    pub ways: Option<u32>,
    #[serde(flatten)]
    pub report: ShardsReport,
}

fn config(args: &Args) -> ShardsConfig {
    ShardsConfig {
        rate: args.sampling_rate,
        adjust: !args.no_shards_adj,
        min_scaled_blocks: args.min_scaled_blocks,
        ..ShardsConfig::default()
    }
}

/// `--ways` of the sampled curve (not with `--sets`).
fn ways(args: &Args) -> Result<Ways> {
    match &args.ways {
        None => Ok(Ways::Full),
        Some(w) => w.parse().context("--ways"),
    }
}

/// The caches of the curve at full size: every way count with `--sets`,
/// the `--sizes`, or every power of two up to `footprint` blocks; `None`
/// when they depend on a footprint not known (yet).
fn sizes(args: &Args, footprint: Option<u64>) -> Result<Option<Vec<Geometry>>> {
    if let Some(sets) = args.sets {
        let sizes = (1..=args.max_ways)
            .map(|w| Geometry::new(args.block, sets, w))
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(Some(sizes));
    }
    let ways = ways(args)?;
    if !args.sizes.is_empty() {
        let sizes = args
            .sizes
            .iter()
            .map(|s| {
                let size = parse_size(s).context("--sizes")?;
                Geometry::from_size(size, ways, args.block)
                    .with_context(|| format!("--sizes {s} with --ways {}", show_ways(ways)))
            })
            .collect::<Result<Vec<_>>>()?;
        return Ok(Some(sizes));
    }
    footprint
        .map(|f| power_of_two_sizes(args.block, ways, f).map_err(Into::into))
        .transpose()
}

fn show_ways(w: Ways) -> String {
    match w {
        Ways::Full => "full".into(),
        Ways::N(n) => n.to_string(),
    }
}

fn plan(args: &Args, sizes: Vec<Geometry>) -> Result<ShardsPlan> {
    Ok(ShardsPlan {
        config: config(args),
        sizes,
        specs: super::super::sim::policy_specs(&args.policy)?,
        exact: args.exact,
    })
}

/// What [`output`] checks before it reads the trace. Sizes that come from
/// the trace's footprint are not known here: the policies are checked on
/// the one-block cache of the curve's associativity instead.
pub fn check(args: &Args) -> Result<()> {
    let sizes = match sizes(args, None)? {
        Some(sizes) => sizes,
        None => {
            let w = match ways(args)? {
                Ways::Full => 1,
                Ways::N(n) => n,
            };
            let g = Geometry::new(args.block, 1, w)?;
            let p = plan(args, vec![g])?;
            gfxcache_cache::shards::SpatialSampler::new(p.config.rate, p.config.modulus)?;
            for spec in &p.specs {
                gfxcache_llc::check(spec, &g)?;
            }
            return Ok(());
        }
    };
    plan(args, sizes)?.check(gfxcache_llc::registry())?;
    Ok(())
}

/// The sampled curves of `args`: the next uses of the sample first when a
/// policy needs them, then one pass over the trace.
pub fn output(args: &Args) -> Result<ShardsOutput> {
    let open = || open_trace(&args.trace, args.csv.csv_columns.as_ref());
    let mut reader = open()?;
    let footprint = reader
        .announced_footprint()
        .map(|f| (f.blocks * u64::from(f.block)).div_ceil(u64::from(args.block)));
    let Some(sizes) = sizes(args, footprint)? else {
        bail!(
            "--policy: {} announces no footprint to size the curve by (only a .gtr does): \
             expected --sizes or --sets",
            args.trace.display()
        );
    };
    let plan = plan(args, sizes)?;
    plan.check(gfxcache_llc::registry())?;
    let threads = Threads::Many;
    let (sampled, whole) = if plan.needs_next_use(gfxcache_llc::registry()) {
        let bar = progress::bytes("next uses", reader.progress().1);
        let (s, w) = next_uses(reader.as_mut(), &plan, threads, |done, _| {
            bar.set_position(done)
        })
        .with_context(|| format!("cannot compute next uses of {}", args.trace.display()))?;
        bar.finish_and_clear();
        reader = open()?;
        (
            Env {
                next_use: Some(Arc::new(s)),
            },
            Env {
                next_use: w.map(Arc::new),
            },
        )
    } else {
        (Env::default(), Env::default())
    };
    let mut pass = ShardsPass::new(plan, gfxcache_llc::registry(), &sampled, &whole)?;
    let bar = progress::bytes("SHARDS", reader.progress().1);
    for_each_batch(
        reader.as_mut(),
        threads,
        |batch| pass.push(&batch.accesses, threads),
        |done, _| bar.set_position(done),
    )
    .with_context(|| format!("cannot sample {}", args.trace.display()))?;
    bar.finish_and_clear();
    let report = pass.finish(threads)?;
    for curve in &report.curves {
        for w in &curve.warnings {
            eprintln!("warning: {}: {w}", curve.policy);
        }
    }
    Ok(ShardsOutput {
        trace: args.trace.display().to_string(),
        method: "shards",
        block: args.block,
        sets: args.sets,
        ways: match (args.sets, ways(args)?) {
            (None, Ways::N(n)) => Some(n),
            _ => None,
        },
        report,
    })
}

/// The tables: one per policy.
pub fn render(out: &ShardsOutput) -> String {
    let r = &out.report;
    let s = &r.sampling;
    let mut text = format!(
        "trace {}: {} accesses, {} block accesses of {} B\n\
         SHARDS: rate {} (T = {} of P = {}, hash {}), {} sampled block accesses ({} expected){}\n",
        out.trace,
        thousands(r.trace_accesses),
        thousands(r.block_accesses),
        out.block,
        s.rate,
        s.threshold,
        s.modulus,
        s.hash,
        thousands(r.sampled_block_accesses),
        thousands(r.expected_sampled.round() as u64),
        if s.adjust {
            ", SHARDS-adj: miss ratios of the expected count"
        } else {
            ""
        },
    );
    let shape = match (out.sets, out.ways) {
        (Some(sets), _) => format!("{sets} sets, by associativity"),
        (None, Some(w)) => format!("{w} ways, by capacity"),
        (None, None) => "fully associative, by capacity".into(),
    };
    for curve in &r.curves {
        text.push_str(&format!("\n{}, {shape}\n\n", curve.policy));
        let exact = curve.points.iter().any(|p| p.exact.is_some());
        let streams: Vec<&str> = curve
            .points
            .first()
            .map(|p| p.per_stream.iter().map(|sp| sp.stream.name()).collect())
            .unwrap_or_default();
        let mut head: Vec<String> = [
            "size",
            "ways",
            "mini-cache",
            "size band",
            "misses",
            "miss ratio",
        ]
        .map(String::from)
        .to_vec();
        if exact {
            head.extend(["exact".to_string(), "|error|".to_string()]);
        }
        head.extend(streams.iter().map(|n| format!("{n} miss%")));
        let mut t = Table::new(head);
        let mut unresolved = false;
        for p in &curve.points {
            unresolved |= !p.resolved;
            let mut cells = vec![
                super::size_label(p.size),
                thousands(u64::from(p.ways)),
                format!(
                    "{}x{}{}",
                    p.scaled_sets,
                    p.scaled_ways,
                    if p.resolved { "" } else { "*" }
                ),
                format!(
                    "±{:.1}%",
                    100.0 * (p.size_band.1 as f64 / p.size as f64 - 1.0)
                ),
                thousands(p.misses),
                percent(p.miss_ratio),
            ];
            if exact {
                match &p.exact {
                    Some(e) => {
                        cells.push(percent(e.miss_ratio));
                        cells.push(format!("{:.4}", e.abs_error));
                    }
                    None => cells.extend(["-".to_string(), "-".to_string()]),
                }
            }
            cells.extend(p.per_stream.iter().map(|sp| percent(sp.miss_ratio)));
            t.row(cells);
        }
        text.push_str(&t.render());
        if unresolved {
            text.push_str(&format!(
                "* mini-cache (sets x ways) below {} blocks: not resolved\n",
                s.min_scaled_blocks
            ));
        }
        if !curve.omitted.is_empty() {
            let sizes: Vec<String> = curve
                .omitted
                .iter()
                .map(|&b| super::size_label(b))
                .collect();
            text.push_str(&format!(
                "omitted (the mini-cache rounds to nothing at this rate): {}\n",
                sizes.join(", ")
            ));
        }
    }
    text
}
