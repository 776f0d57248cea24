//! `gfxcache mrc`: LRU miss-ratio curves for every size, or every way count
//! at a fixed set count, from one pass over the trace; with `--policy`,
//! curves of any policy by SHARDS sampling (`mrc/shards.rs`).

use std::path::PathBuf;

use anyhow::{Context, Result};
use gfxcache_cache::mrc::{CurvePoint, MrcBuilder};
use gfxcache_cache::run::{for_each_batch, Threads};
use serde::Serialize;

use super::{open_trace, print_json};
use crate::progress;
use crate::table::{percent, thousands, Table};

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  gfxcache mrc frame.gtr\n  gfxcache mrc frame.gtr --sets 8192 --max-ways 32 --json"
)]
pub struct Args {
    /// Trace file: .gtr, .csv, .din, .oracleGeneral or .oracleGeneral.bin, each
    /// optionally .zst-compressed (the format comes from the name).
    pub trace: PathBuf,
    /// Block (line) size in bytes.
    #[arg(long, default_value_t = 64)]
    pub block: u32,
    /// Fixed set count (modulo index): report every way count from 1 to
    /// --max-ways (default: none, every fully associative size instead).
    #[arg(long)]
    pub sets: Option<u32>,
    /// Deepest associativity reported with --sets.
    #[arg(long, default_value_t = 32)]
    pub max_ways: u32,
    /// Print one JSON document on stdout instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub csv: super::CsvColumnsArg,
    /// Curves of these policies (specs as `sim --policy` takes them, or
    /// `all`) by SHARDS spatial sampling, each size simulated as a
    /// mini-cache on the sampled blocks, instead of the exact LRU curve.
    #[arg(long)]
    pub policy: Vec<String>,
    /// SHARDS' sampling rate R: the share of blocks (by hash) whose
    /// accesses the mini-caches see; each cache is scaled by R.
    #[arg(long, default_value_t = 0.01, requires = "policy")]
    pub sampling_rate: f64,
    /// Miss ratios of the sampled accesses, without SHARDS-adj's correction
    /// to the expected sample size R * N.
    #[arg(long, requires = "policy")]
    pub no_shards_adj: bool,
    /// Smallest mini-cache, in blocks, whose point counts as resolved.
    #[arg(long, default_value_t = 256, requires = "policy")]
    pub min_scaled_blocks: u64,
    /// Cache sizes of the sampled curve, comma-separated (e.g.
    /// 1MiB,2MiB,4MiB); by default every power of two up to the trace's
    /// footprint.
    #[arg(
        long,
        value_delimiter = ',',
        requires = "policy",
        conflicts_with = "sets"
    )]
    pub sizes: Vec<String>,
    /// Ways of each cache of the sampled curve, or `full` (fully
    /// associative, the default).
    #[arg(long, requires = "policy", conflicts_with = "sets")]
    pub ways: Option<String>,
    /// Also simulate every size at full size over the whole trace (as
    /// `sim` does) and print the sampled curve's error; `lru` at fully
    /// associative sizes or with --sets gets it from the exact curve anyway.
    #[arg(long, requires = "policy")]
    pub exact: bool,
}

mod shards;

/// What `mrc --json` prints: the exact LRU curve, or the sampled curves
/// of `--policy`.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Curves {
    Exact(Output),
    Sampled(shards::ShardsOutput),
}

#[derive(Clone, Debug, Serialize)]
pub struct Output {
    pub trace: String,
    pub block: u32,
    /// `null` for the fully associative curve.
    pub sets: Option<u32>,
    /// Trace accesses, before splitting into blocks.
    pub accesses: u64,
    pub block_accesses: u64,
    pub cold_misses: u64,
    pub footprint_blocks: u64,
    pub curve: Vec<CurvePoint>,
}

pub fn run(args: Args) -> Result<()> {
    let out = output(&args)?;
    if args.json {
        return print_json(&out);
    }
    match &out {
        Curves::Exact(out) => print!("{}", render(out)),
        Curves::Sampled(out) => print!("{}", shards::render(out)),
    }
    Ok(())
}

/// Whether `args` would run, without reading the trace or making a
/// table: the block size and the sets and ways asked for, and with
/// `--policy` the sampling and every policy.
pub fn check(args: &Args) -> Result<()> {
    MrcBuilder::new(args.block)?;
    if let Some(sets) = args.sets {
        MrcBuilder::check_sets(sets, args.max_ways)?;
    }
    if !args.policy.is_empty() {
        shards::check(args)?;
    }
    Ok(())
}

/// The curves of `args`, as `--json` prints them.
pub fn output(args: &Args) -> Result<Curves> {
    check(args)?;
    if args.policy.is_empty() {
        exact(args).map(Curves::Exact)
    } else {
        shards::output(args).map(Curves::Sampled)
    }
}

/// The exact LRU curve of `args`.
fn exact(args: &Args) -> Result<Output> {
    let mut builder = MrcBuilder::new(args.block)?;
    if let Some(sets) = args.sets {
        builder = builder.with_sets(sets, args.max_ways)?;
    }
    let mut reader = open_trace(&args.trace, args.csv.csv_columns.as_ref())?;
    let bar = progress::bytes("stack dists", reader.progress().1);
    for_each_batch(
        reader.as_mut(),
        Threads::Many,
        |batch| {
            builder
                .push_all(&batch.accesses)
                .map_err(anyhow::Error::from)
        },
        |done, _| bar.set_position(done),
    )
    .context("cannot compute the stack distances")?;
    bar.finish_and_clear();
    let mrc = builder.finish()?;
    let out = Output {
        trace: args.trace.display().to_string(),
        block: args.block,
        sets: args.sets,
        accesses: mrc.trace_accesses(),
        block_accesses: mrc.accesses(),
        cold_misses: mrc.cold_misses(),
        footprint_blocks: mrc.footprint(),
        curve: mrc.curve(),
    };
    Ok(out)
}

fn render(out: &Output) -> String {
    let mut s = format!(
        "trace {}: {} accesses, {} block accesses of {} B, footprint {} blocks, {} cold misses\n",
        out.trace,
        thousands(out.accesses),
        thousands(out.block_accesses),
        out.block,
        thousands(out.footprint_blocks),
        thousands(out.cold_misses),
    );
    match out.sets {
        Some(sets) => s.push_str(&format!("LRU, {sets} sets, by associativity\n\n")),
        None => s.push_str("LRU, fully associative, by capacity\n\n"),
    }
    let streams: Vec<&str> = out
        .curve
        .first()
        .map(|p| p.per_stream.iter().map(|sp| sp.stream.name()).collect())
        .unwrap_or_default();
    let head = ["size", "ways", "misses", "miss ratio"]
        .into_iter()
        .map(String::from);
    let mut t = Table::new(head.chain(streams.iter().map(|n| format!("{n} miss%"))));
    for p in &out.curve {
        let cells = [
            size_label(p.size),
            thousands(p.ways),
            thousands(p.misses),
            percent(p.miss_ratio),
        ];
        t.row(
            cells
                .into_iter()
                .chain(p.per_stream.iter().map(|sp| percent(sp.miss_ratio))),
        );
    }
    s.push_str(&t.render());
    s
}

/// Exact (`8MiB`) where the size is a round number, approximate otherwise.
pub(crate) fn size_label(bytes: u64) -> String {
    let exact = gfxcache_cache::format_size(bytes);
    if exact.ends_with("iB") || bytes < 1024 {
        exact
    } else {
        crate::table::human_bytes(bytes)
    }
}
