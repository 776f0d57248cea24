//! `gfxcache sim --levels` / `--hierarchy`: the trace through a cache
//! hierarchy ([`gfxcache_cache::hierarchy`]), one per policy.

use std::sync::Arc;

use anyhow::{bail, Context, Result};
use gfxcache_cache::hierarchy::{
    parse_levels, Hierarchy, HierarchyConfig, HierarchyFile, HierarchyReport, LevelDefaults,
    LevelSpec,
};
use gfxcache_cache::run::{self, Threads};
use gfxcache_cache::{format_size, Env, IndexFn, PolicySpec};
use gfxcache_trace::Stream;
use serde::Serialize;

use super::{policy_specs, Args, IndexArg, WriteArg};
use crate::cmd::{open_trace, read_settings};
use crate::progress;
use crate::table::{percent, thousands, Table};

/// What `sim --levels --json` prints.
#[derive(Clone, Debug, Serialize)]
pub struct HierarchyOutput {
    pub trace: String,
    pub accesses: u64,
    /// One per policy (or one, from a file naming every level's policy).
    pub results: Vec<HierarchyReport>,
}

/// The levels as written, and the block size: `--levels` with `--block`,
/// or the file (its `block`, else `--block`).
fn specs(args: &Args) -> Result<(Vec<LevelSpec>, u32)> {
    if let Some(text) = &args.levels {
        return Ok((parse_levels(text).context("--levels")?, args.cache.block));
    }
    let Some(path) = &args.hierarchy else {
        bail!("expected --levels or --hierarchy");
    };
    let text = read_settings("--hierarchy", path)?;
    let file: HierarchyFile = toml::from_str(&text)
        .with_context(|| format!("--hierarchy: {}: expected a hierarchy file", path.display()))?;
    Ok((file.levels, file.block.unwrap_or(args.cache.block)))
}

/// The hierarchies `args` describe: one per `--policy` spec, or the
/// file's own when it names every level's policy and no `--policy` is
/// given; each checked against the registry.
pub fn configs(args: &Args) -> Result<Vec<HierarchyConfig>> {
    if args.cache.size.is_some() || args.cache.ways.is_some() {
        bail!(
            "--size and --ways describe one cache: with --levels or --hierarchy each level \
             has its own, so expected neither"
        );
    }
    if matches!(args.cache.write, WriteArg::Through) || args.cache.no_write_allocate {
        bail!(
            "--write through, --no-write-allocate: every level of a hierarchy is write-back \
             and write-allocate, so expected neither"
        );
    }
    let (levels, block) = specs(args)?;
    let configs = if args.policy.is_empty() {
        vec![HierarchyConfig::new(&levels, defaults(args, block, None))
            .context("--hierarchy: every level must name its policy without --policy")?]
    } else {
        policy_specs(&args.policy)?
            .iter()
            .map(|spec| HierarchyConfig::new(&levels, defaults(args, block, Some(spec))))
            .collect::<Result<Vec<_>, _>>()?
    };
    for c in &configs {
        Hierarchy::check(c, gfxcache_llc::registry())?;
    }
    Ok(configs)
}

/// What a level takes from the flags when it does not say: the block
/// size, the policy, `--banks` and `--index` (a file's level may give its
/// own banks and index).
fn defaults<'a>(args: &Args, block: u32, policy: Option<&'a PolicySpec>) -> LevelDefaults<'a> {
    LevelDefaults {
        block,
        policy,
        banks: args.cache.banks,
        index: match args.cache.index {
            IndexArg::Modulo => IndexFn::Modulo,
            IndexArg::Xor => IndexFn::XorFold,
        },
    }
}

/// What `sim` checks of a hierarchy before it reads the trace.
pub fn check(args: &Args) -> Result<()> {
    configs(args).map(drop)
}

/// Every hierarchy of `args` over the trace, in parallel, one decode
/// (after a pass for the next uses when a first level runs OPT).
pub fn output(args: &Args) -> Result<HierarchyOutput> {
    let configs = configs(args)?;
    let threads = Threads::single_if(args.single_thread);
    let open = || open_trace(&args.trace, args.csv.csv_columns.as_ref());
    let needs = configs
        .iter()
        .any(|c| Hierarchy::needs_next_use(c, gfxcache_llc::registry()));
    let env = if needs {
        let block = configs[0].levels[0].geometry.block;
        let mut reader = open()?;
        let bar = progress::bytes("next uses", reader.progress().1);
        let nu = run::next_use(reader.as_mut(), block, threads, |done, _| {
            bar.set_position(done)
        })
        .with_context(|| format!("cannot compute next uses of {}", args.trace.display()))?;
        bar.finish_and_clear();
        Env {
            next_use: Some(Arc::new(nu)),
        }
    } else {
        Env::default()
    };
    let mut hierarchies = configs
        .iter()
        .map(|c| Hierarchy::build(c, gfxcache_llc::registry(), &env))
        .collect::<Result<Vec<_>, _>>()?;
    for h in &hierarchies {
        for level in h.report().levels {
            for note in &level.warnings {
                eprintln!("warning: {} ({}): {note}", level.policy, level.name);
            }
        }
    }
    let mut reader = open()?;
    let bar = progress::bytes("simulating", reader.progress().1);
    let accesses = run::feed(
        reader.as_mut(),
        &mut hierarchies,
        threads,
        |h, batch| {
            h.access_all(&batch.accesses);
            Ok::<(), gfxcache_trace::TraceError>(())
        },
        |done, _| bar.set_position(done),
    )
    .with_context(|| format!("cannot simulate {}", args.trace.display()))?;
    bar.finish_and_clear();
    Ok(HierarchyOutput {
        trace: args.trace.display().to_string(),
        accesses,
        results: hierarchies.iter().map(Hierarchy::report).collect(),
    })
}

/// A table per hierarchy: its levels and memory, then misses per stream.
pub fn render(out: &HierarchyOutput) -> String {
    let mut s = format!(
        "trace {}: {} accesses\n",
        out.trace,
        thousands(out.accesses)
    );
    for r in &out.results {
        s.push_str(&format!("\nhierarchy {}\n\n", r.policy));
        let mut t = Table::new([
            "level",
            "size",
            "ways",
            "sets",
            "inclusion",
            "policy",
            "accesses",
            "hits",
            "misses",
            "miss ratio",
            "received",
            "writebacks",
            "back-invals",
        ]);
        for l in &r.levels {
            let c = &l.counts;
            t.row([
                l.name.clone(),
                format_size(l.size),
                thousands(u64::from(l.ways)),
                thousands(u64::from(l.sets)),
                l.inclusion.map_or("-".into(), |i| i.to_string()),
                l.policy.clone(),
                thousands(c.accesses),
                thousands(c.hits),
                thousands(c.misses),
                percent(c.miss_ratio()),
                thousands(c.received),
                thousands(c.writebacks),
                thousands(c.back_invalidations),
            ]);
        }
        s.push_str(&t.render());
        s.push_str(&format!(
            "memory: {} reads, {} writes\n",
            thousands(r.memory.reads),
            thousands(r.memory.writes)
        ));
        let streams: Vec<&'static str> = Stream::ALL
            .iter()
            .map(|s| s.name())
            .filter(|n| r.levels.iter().any(|l| l.per_stream.contains_key(n)))
            .collect();
        if streams.len() > 1 {
            s.push_str("\nmisses per stream\n");
            let mut t = Table::new(std::iter::once("level").chain(streams.iter().copied()));
            for l in &r.levels {
                let cells = streams
                    .iter()
                    .map(|n| l.per_stream.get(n).map_or(0, |k| k.misses));
                t.row(std::iter::once(l.name.clone()).chain(cells.map(thousands)));
            }
            s.push_str(&t.render());
        }
    }
    s
}
