//! `gfxcache sim`: one trace, one cache geometry, many policies, one decode;
//! or, with `--levels` or `--hierarchy`, a cache hierarchy per policy
//! (`sim/hierarchy.rs`).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use gfxcache_cache::run::Threads;
use gfxcache_cache::spec::split_list;
use gfxcache_cache::{
    format_size, parse_size, run, CacheSim, Counts, Env, Geometry, IndexFn, PolicySpec, Ways,
    WritePolicy,
};
use serde::Serialize;

use super::{open_trace, print_json};
use crate::progress;
use crate::table::{percent, thousands, Table};

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  gfxcache sim frame.gtr --size 8MiB --ways 16 --policy lru,drrip,gspc,opt\n  gfxcache sim frame.gtr --size 4MiB --ways 16 --banks 4 --policy all --json"
)]
pub struct Args {
    /// Trace file: .gtr, .csv, .din, .oracleGeneral or .oracleGeneral.bin, each
    /// optionally .zst-compressed (the format comes from the name).
    pub trace: PathBuf,
    #[command(flatten)]
    pub cache: CacheArgs,
    /// Policies, comma-separated specs `name[+ucd][:key=value,...]`, or `all`
    /// for every registered policy with its defaults (see `gfxcache policies`).
    /// A `key=value` after a comma belongs to the spec before it:
    /// `lru,gspc:t=4,acc-bits=8` is two specs. May be repeated.
    #[arg(long, short, required_unless_present = "hierarchy")]
    pub policy: Vec<String>,
    /// Print one JSON document on stdout instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Decode and simulate on one thread, policies one after another (for
    /// single-thread measurements); by default a reader thread decodes ahead
    /// and several policies run in parallel. Results are identical.
    #[arg(long)]
    pub single_thread: bool,
    #[command(flatten)]
    pub csv: super::CsvColumnsArg,
    /// A cache hierarchy instead of one cache: levels from the one the
    /// trace reaches first, comma-separated, each NAME:SIZE:WAYS[:INCLUSION]
    /// with INCLUSION inclusive, non-inclusive (the default) or exclusive,
    /// e.g. L1:32KiB:8,L2:1MiB:16:inclusive; every level runs each --policy.
    #[arg(long, conflicts_with = "hierarchy")]
    pub levels: Option<String>,
    /// A cache hierarchy from a TOML file: `block = 64` and a [[level]]
    /// table per level (name, size, ways, and optionally policy,
    /// inclusion, banks, index); --policy fills in levels that name no
    /// policy.
    #[arg(long, value_name = "FILE")]
    pub hierarchy: Option<PathBuf>,
}

mod hierarchy;

/// What `sim --json` prints: caches of one geometry, or hierarchies.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Results {
    Caches(Output),
    Hierarchies(hierarchy::HierarchyOutput),
}

/// The geometry of `sim`'s one cache (`--levels` and `--hierarchy` give
/// several instead).
#[derive(clap::Args, Clone)]
pub struct CacheArgs {
    /// Capacity, e.g. 8MiB, 512KiB, 16MB (powers of 1024), or plain bytes;
    /// no default: required unless --levels or --hierarchy gives the caches.
    #[arg(long, value_name = "SIZE", required_unless_present_any = ["levels", "hierarchy"])]
    pub size: Option<String>,
    /// Ways per set, or `full` for a fully associative cache; no default:
    /// required unless --levels or --hierarchy gives the caches.
    #[arg(long, required_unless_present_any = ["levels", "hierarchy"])]
    pub ways: Option<String>,
    /// Block (line) size in bytes.
    #[arg(long, default_value_t = 64)]
    pub block: u32,
    /// Banks (a set belongs to bank set % banks); per-bank policy state such
    /// as SHiP-mem's tables depends on it.
    #[arg(long, default_value_t = 1)]
    pub banks: u32,
    /// Set index function.
    #[arg(long, value_enum, default_value_t = IndexArg::Modulo)]
    pub index: IndexArg,
    /// Write policy.
    #[arg(long, value_enum, default_value_t = WriteArg::Back)]
    pub write: WriteArg,
    /// Write misses go to memory without allocating a line.
    #[arg(long)]
    pub no_write_allocate: bool,
}

#[derive(clap::ValueEnum, Clone, Copy)]
pub enum IndexArg {
    Modulo,
    Xor,
}

#[derive(clap::ValueEnum, Clone, Copy)]
pub enum WriteArg {
    Back,
    Through,
}

impl CacheArgs {
    pub fn geometry(&self) -> Result<Geometry> {
        let (Some(size), Some(ways)) = (&self.size, &self.ways) else {
            bail!("--size and --ways: expected both, for the one cache simulated");
        };
        let size = parse_size(size)?;
        let ways: Ways = ways.parse()?;
        let index = match self.index {
            IndexArg::Modulo => IndexFn::Modulo,
            IndexArg::Xor => IndexFn::XorFold,
        };
        let write = match self.write {
            WriteArg::Back => WritePolicy::WriteBack,
            WriteArg::Through => WritePolicy::WriteThrough,
        };
        Ok(Geometry::from_size(size, ways, self.block)?
            .with_banks(self.banks)?
            .with_index(index)?
            .with_write(write, !self.no_write_allocate))
    }
}

/// The policy specs named by `--policy`, with `all` expanded.
pub fn policy_specs(values: &[String]) -> Result<Vec<PolicySpec>> {
    let mut specs = Vec::new();
    for n in &split_list(values) {
        if n == "all" {
            for p in gfxcache_llc::registry() {
                specs.push(p.name.parse()?);
            }
        } else {
            specs.push(n.parse()?);
        }
    }
    if specs.is_empty() {
        bail!("--policy names no policy");
    }
    Ok(specs)
}

#[derive(Clone, Debug, Serialize)]
pub struct Config {
    pub size: u64,
    pub ways: u32,
    pub block: u32,
    pub sets: u32,
    pub banks: u32,
    pub index: &'static str,
    pub write: &'static str,
    pub write_allocate: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct StreamResult {
    pub accesses: u64,
    pub hits: u64,
    pub misses: u64,
    pub fills: u64,
    pub bypasses: u64,
    pub evictions: u64,
    pub writebacks: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct PolicyResult {
    pub policy: String,
    #[serde(flatten)]
    pub counts: Counts,
    pub hit_rate: f64,
    pub per_stream: BTreeMap<&'static str, StreamResult>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub report: BTreeMap<&'static str, f64>,
    /// What the policy does on this geometry that its name does not
    /// promise (`CacheSim::notes`), also printed on stderr.
    pub warnings: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Output {
    pub trace: String,
    pub accesses: u64,
    pub config: Config,
    pub results: Vec<PolicyResult>,
}

pub fn run(args: Args) -> Result<()> {
    let out = output(&args)?;
    if args.json {
        return print_json(&out);
    }
    match &out {
        Results::Caches(out) => print!("{}", render(out, &args.cache.geometry()?)),
        Results::Hierarchies(out) => print!("{}", hierarchy::render(out)),
    }
    Ok(())
}

/// Whether `args` ask for a hierarchy (`--levels`, `--hierarchy`).
fn is_hierarchy(args: &Args) -> bool {
    args.levels.is_some() || args.hierarchy.is_some()
}

/// The cache and the policies `args` ask for, every policy's parameters
/// checked on that cache (without building it): all `sim` checks before
/// it reads the trace, and all [`check`] does.
pub fn plan(args: &Args) -> Result<(Geometry, Vec<PolicySpec>)> {
    let geom = args.cache.geometry()?;
    let specs = policy_specs(&args.policy)?;
    for spec in &specs {
        gfxcache_llc::check(spec, &geom)?;
    }
    Ok((geom, specs))
}

/// Whether `args` would run, without reading the trace ([`plan`], or a
/// hierarchy's checks).
pub fn check(args: &Args) -> Result<()> {
    if is_hierarchy(args) {
        return hierarchy::check(args);
    }
    plan(args).map(drop)
}

/// Every policy of `args` through its cache or hierarchy, as `--json`
/// prints it.
pub fn output(args: &Args) -> Result<Results> {
    if is_hierarchy(args) {
        return hierarchy::output(args).map(Results::Hierarchies);
    }
    caches(args).map(Results::Caches)
}

/// Every policy of `args` through its cache.
fn caches(args: &Args) -> Result<Output> {
    let (geom, specs) = plan(args)?;
    let threads = Threads::single_if(args.single_thread);
    let caches = simulate(
        &args.trace,
        args.csv.csv_columns.as_ref(),
        &geom,
        &specs,
        threads,
    )?;
    let (accesses, caches) = caches;
    let out = Output {
        trace: args.trace.display().to_string(),
        accesses,
        config: config(&geom),
        results: caches.iter().map(|c| result(c.as_ref())).collect(),
    };
    Ok(out)
}

/// Runs every spec over the trace; computes next uses first when a policy
/// needs them. Every cache that can be built before the trace is read is
/// built first, so that one too large for the memory at hand is an error
/// before any pass.
pub fn simulate(
    trace: &std::path::Path,
    columns: Option<&gfxcache_trace::CsvColumns>,
    geom: &Geometry,
    specs: &[PolicySpec],
    threads: Threads,
) -> Result<(u64, Vec<Box<dyn CacheSim>>)> {
    let needs_next_use =
        |s: &PolicySpec| gfxcache_llc::find(&s.name).is_some_and(|p| p.needs_next_use);
    let build = |s: &PolicySpec, env: &Env| gfxcache_llc::build_cache(s, geom, env);
    let mut built = specs
        .iter()
        .map(|s| {
            if needs_next_use(s) {
                Ok(None)
            } else {
                build(s, &Env::default()).map(Some)
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    if specs.iter().any(needs_next_use) {
        let mut reader = open_trace(trace, columns)?;
        let bar = progress::bytes("next uses", reader.progress().1);
        let nu = run::next_use(reader.as_mut(), geom.block, threads, |done, _| {
            bar.set_position(done)
        })
        .with_context(|| format!("cannot compute next uses of {}", trace.display()))?;
        bar.finish_and_clear();
        let env = Env {
            next_use: Some(Arc::new(nu)),
        };
        for (slot, s) in built.iter_mut().zip(specs) {
            if slot.is_none() {
                *slot = Some(build(s, &env)?);
            }
        }
    }
    let mut caches: Vec<Box<dyn CacheSim>> = built.into_iter().flatten().collect();
    for c in &caches {
        for note in c.notes() {
            eprintln!("warning: {}: {note}", c.label());
        }
    }
    let mut reader = open_trace(trace, columns)?;
    let bar = progress::bytes("simulating", reader.progress().1);
    let accesses = run::simulate(reader.as_mut(), &mut caches, threads, |done, _| {
        bar.set_position(done)
    })
    .with_context(|| format!("cannot simulate {}", trace.display()))?;
    bar.finish_and_clear();
    Ok((accesses, caches))
}

fn config(g: &Geometry) -> Config {
    Config {
        size: g.size(),
        ways: g.ways,
        block: g.block,
        sets: g.sets,
        banks: g.banks,
        index: match g.index {
            IndexFn::Modulo => "modulo",
            IndexFn::XorFold => "xor",
        },
        write: match g.write {
            WritePolicy::WriteBack => "back",
            WritePolicy::WriteThrough => "through",
        },
        write_allocate: g.write_allocate,
    }
}

fn result(c: &dyn CacheSim) -> PolicyResult {
    let stats = c.stats();
    let total = stats.total();
    PolicyResult {
        policy: c.label().to_string(),
        counts: total,
        hit_rate: total.hit_rate(),
        per_stream: stats
            .active_streams()
            .map(|(s, k)| {
                (
                    s.name(),
                    StreamResult {
                        accesses: k.accesses,
                        hits: k.hits,
                        misses: k.misses,
                        fills: k.fills,
                        bypasses: k.bypasses,
                        evictions: k.evictions,
                        writebacks: k.writebacks,
                    },
                )
            })
            .collect(),
        report: c.report().into_iter().collect(),
        warnings: c.notes().to_vec(),
    }
}

fn render(out: &Output, g: &Geometry) -> String {
    let mut s = format!(
        "trace {}: {} accesses\ncache {}, {} ways, {} B blocks, {} sets, {} bank(s), {} index, write-{}{}\n\n",
        out.trace,
        thousands(out.accesses),
        format_size(g.size()),
        g.ways,
        g.block,
        g.sets,
        g.banks,
        out.config.index,
        out.config.write,
        if g.write_allocate { ", write-allocate" } else { ", no-write-allocate" },
    );
    let mut t = Table::new([
        "policy",
        "accesses",
        "hits",
        "misses",
        "miss ratio",
        "bypasses",
        "writebacks",
    ]);
    for r in &out.results {
        let c = &r.counts;
        t.row([
            r.policy.clone(),
            thousands(c.accesses),
            thousands(c.hits),
            thousands(c.misses),
            percent(c.miss_ratio()),
            thousands(c.bypasses),
            thousands(c.writebacks),
        ]);
    }
    s.push_str(&t.render());
    let streams: Vec<&'static str> = {
        let mut v: Vec<&'static str> = out
            .results
            .iter()
            .flat_map(|r| r.per_stream.keys().copied())
            .collect();
        v.sort_by_key(|n| {
            n.parse::<gfxcache_trace::Stream>()
                .map(|s| s.id())
                .unwrap_or(u8::MAX)
        });
        v.dedup();
        v
    };
    if streams.len() > 1 {
        s.push_str("\nmisses per stream\n");
        let mut t = Table::new(std::iter::once("policy").chain(streams.iter().copied()));
        for r in &out.results {
            let cells = streams
                .iter()
                .map(|n| r.per_stream.get(n).map_or(0, |k| k.misses));
            t.row(std::iter::once(r.policy.clone()).chain(cells.map(thousands)));
        }
        s.push_str(&t.render());
    }
    s
}
