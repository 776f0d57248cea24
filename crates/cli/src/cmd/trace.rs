//! `gfxcache trace info` and `gfxcache trace convert`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use gfxcache_trace::{
    Batch, Dropped, Format, Marker, Stream, StreamTotals, Totals, TraceMeta, BATCH_RECORDS,
};
use rustc_hash::FxHashSet;
use serde::Serialize;

use super::{open_trace, print_json};
use crate::output::check_paths;
use crate::progress;
use crate::table::{thousands, Table};

#[derive(clap::Subcommand)]
pub enum Command {
    /// What a trace holds: its header, per-stream totals, markers and footprint.
    Info(InfoArgs),
    /// Convert between formats, chosen by extension (.gtr, .csv, .din, .oracleGeneral[.bin], optionally .zst).
    Convert(ConvertArgs),
    /// Write a seeded synthetic frame-like trace (for trying things out and benchmarking).
    Synth(SynthArgs),
}

#[derive(clap::Args)]
#[command(after_help = "Example:\n  gfxcache trace synth synth.gtr --accesses 1M --seed 7")]
pub struct SynthArgs {
    /// Output file: .gtr, .csv, .din, .oracleGeneral or .oracleGeneral.bin,
    /// each optionally .zst-compressed (the format comes from the name).
    pub output: PathBuf,
    /// Accesses to generate: a whole number, optionally with K, M or G (powers of 1000).
    #[arg(long, default_value = "10M", value_parser = parse_count)]
    pub accesses: u64,
    /// Seed of the synthetic frame (the same seed gives the same trace).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// `10M` -> 10 000 000.
fn parse_count(s: &str) -> Result<u64, String> {
    let (num, mult) = match s.strip_suffix(['K', 'k']) {
        Some(n) => (n, 1_000),
        None => match s.strip_suffix('M') {
            Some(n) => (n, 1_000_000),
            None => match s.strip_suffix('G') {
                Some(n) => (n, 1_000_000_000),
                None => (s, 1),
            },
        },
    };
    num.parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(mult))
        .ok_or_else(|| format!("'{s}': expected a whole number, optionally with K, M or G"))
}

#[derive(clap::Args)]
#[command(after_help = "Example:\n  gfxcache trace info frame.gtr")]
pub struct InfoArgs {
    /// Trace file: .gtr, .csv, .din, .oracleGeneral or .oracleGeneral.bin, each
    /// optionally .zst-compressed (the format comes from the name).
    pub trace: PathBuf,
    /// Block size for the footprint (distinct blocks touched).
    #[arg(long, default_value_t = 64)]
    pub block: u32,
    /// Print one JSON document on stdout instead of tables.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub csv: super::CsvColumnsArg,
}

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  gfxcache trace convert frame.gtr frame.csv.zst\n  gfxcache trace convert frame.gtr frame.oracleGeneral.bin\n  gfxcache trace convert web.csv web.gtr --csv-columns addr=obj_id,size=obj_size"
)]
pub struct ConvertArgs {
    /// Trace to read: .gtr, .csv, .din, .oracleGeneral or .oracleGeneral.bin,
    /// each optionally .zst-compressed (the format comes from the name).
    pub input: PathBuf,
    /// Trace to write: .gtr, .csv, .din, .oracleGeneral or .oracleGeneral.bin,
    /// each optionally .zst-compressed (the format comes from the name).
    /// Written whole or not at all.
    pub output: PathBuf,
    #[command(flatten)]
    pub csv: super::CsvColumnsArg,
}

pub fn run(c: Command) -> Result<()> {
    match c {
        Command::Info(a) => info(a),
        Command::Convert(a) => convert(a),
        Command::Synth(a) => synth(a),
    }
}

#[derive(Serialize)]
struct Info {
    trace: String,
    meta: TraceMeta,
    records: u64,
    accesses: u64,
    markers: BTreeMap<&'static str, u64>,
    streams: BTreeMap<&'static str, StreamTotals>,
    block: u32,
    footprint_blocks: u64,
    footprint_bytes: u64,
}

fn marker_name(m: &Marker) -> &'static str {
    match m {
        Marker::FrameBegin { .. } => "frame-begin",
        Marker::FrameEnd { .. } => "frame-end",
        Marker::PassBegin { .. } => "pass-begin",
        Marker::PassEnd => "pass-end",
        Marker::DrawBegin { .. } => "draw-begin",
        Marker::TileBegin { .. } => "tile-begin",
        Marker::TileEnd { .. } => "tile-end",
    }
}

fn info(args: InfoArgs) -> Result<()> {
    if !args.block.is_power_of_two() {
        anyhow::bail!("--block {}: expected a power of two", args.block);
    }
    let shift = args.block.trailing_zeros();
    let mut reader = open_trace(&args.trace, args.csv.csv_columns.as_ref())?;
    let meta = reader.meta().clone();
    let bar = progress::bytes("reading", reader.progress().1);
    let mut batch = Batch::with_capacity(BATCH_RECORDS);
    let mut totals = Totals::default();
    let mut markers: BTreeMap<&'static str, u64> = BTreeMap::new();
    let mut blocks: FxHashSet<u64> = FxHashSet::default();
    while reader.read_batch(&mut batch).context("cannot read trace")? {
        for a in &batch.accesses {
            totals.add_access(a);
            let (first, last) = gfxcache_cache::block_range(a, shift);
            for b in first..=last {
                blocks.insert(b);
            }
        }
        for (_, m) in &batch.markers {
            totals.markers += 1;
            *markers.entry(marker_name(m)).or_default() += 1;
        }
        bar.set_position(reader.progress().0);
    }
    bar.finish_and_clear();
    let out = Info {
        trace: args.trace.display().to_string(),
        meta,
        records: totals.records(),
        accesses: totals.accesses,
        markers,
        streams: totals.by_name(),
        block: args.block,
        footprint_blocks: blocks.len() as u64,
        footprint_bytes: blocks.len() as u64 * u64::from(args.block),
    };
    if args.json {
        return print_json(&out);
    }
    println!("trace       {}", out.trace);
    println!("generator   {}", out.meta.generator);
    if let Some(s) = &out.meta.scene {
        println!("scene       {s}");
    }
    if let Some([w, h]) = out.meta.resolution {
        println!("resolution  {w}x{h}");
    }
    if let Some(m) = &out.meta.mode {
        println!("mode        {m}");
    }
    if let Some(b) = out.meta.block_size {
        println!("block size  {b} B");
    }
    println!("records     {}", thousands(out.records));
    println!("accesses    {}", thousands(out.accesses));
    println!(
        "footprint   {} blocks of {} B ({})",
        thousands(out.footprint_blocks),
        out.block,
        crate::table::human_bytes(out.footprint_bytes)
    );
    if !out.markers.is_empty() {
        let list: Vec<String> = out
            .markers
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        println!("markers     {}", list.join(", "));
    }
    println!();
    let mut t = Table::new(["stream", "reads", "writes", "bytes", "share"]);
    for (name, s) in &out.streams {
        let n = s.reads + s.writes;
        t.row([
            name.to_string(),
            thousands(s.reads),
            thousands(s.writes),
            thousands(s.bytes),
            crate::table::percent(n as f64 / out.accesses.max(1) as f64),
        ]);
    }
    print!("{}", t.render());
    Ok(())
}

fn convert(args: ConvertArgs) -> Result<()> {
    check_paths(
        &[("OUTPUT", Some(&args.output))],
        &[("INPUT", Some(&args.input))],
    )?;
    let mut reader = open_trace(&args.input, args.csv.csv_columns.as_ref())?;
    let meta = reader.meta().clone();
    let mut writer = gfxcache_trace::create(&args.output, &meta).context("cannot create trace")?;
    let bar = progress::bytes("converting", reader.progress().1);
    let mut batch = Batch::with_capacity(BATCH_RECORDS);
    while reader.read_batch(&mut batch).context("cannot read trace")? {
        writer.write_batch(&batch).context("cannot write trace")?;
        bar.set_position(reader.progress().0);
    }
    bar.finish_and_clear();
    let dropped = writer.dropped();
    let totals = writer.finish().context("cannot write trace")?;
    warn_dropped(&args.output, &dropped, &meta);
    eprintln!(
        "wrote {}: {} accesses, {} markers",
        args.output.display(),
        thousands(totals.accesses),
        thousands(totals.markers)
    );
    Ok(())
}

fn synth(args: SynthArgs) -> Result<()> {
    check_paths(&[("OUTPUT", Some(&args.output))], &[])?;
    let meta = gfxcache_trace::synth::synth_meta(args.seed);
    let mut writer = gfxcache_trace::create(&args.output, &meta).context("cannot create trace")?;
    let mut gen = gfxcache_trace::synth::synth(args.seed, args.accesses);
    let mut batch = Batch::with_capacity(BATCH_RECORDS);
    while gen.fill_batch(&mut batch) {
        writer.write_batch(&batch).context("cannot write trace")?;
    }
    let dropped = writer.dropped();
    let totals = writer.finish().context("cannot write trace")?;
    warn_dropped(&args.output, &dropped, &meta);
    eprintln!(
        "wrote {}: {} accesses",
        args.output.display(),
        thousands(totals.accesses)
    );
    Ok(())
}

/// One warning on stderr for each kind of thing `out` could not hold: the
/// header, markers, streams (with how many accesses of which), units.
fn warn_dropped(path: &Path, dropped: &Dropped, meta: &TraceMeta) {
    let lost_meta = lost_meta_fields(path, meta);
    let out = path.display();
    if !lost_meta.is_empty() {
        eprintln!(
            "warning: {out} cannot hold the trace header; its {} were left out",
            lost_meta.join(", ")
        );
    }
    if dropped.markers > 0 {
        eprintln!(
            "warning: {out} cannot hold markers; {} frame/pass/draw/tile markers were left out",
            thousands(dropped.markers)
        );
    }
    if dropped.stream_total() > 0 {
        let by_stream: Vec<String> = Stream::ALL
            .iter()
            .filter(|s| dropped.streams[s.index()] > 0)
            .map(|s| format!("{} {}", s.name(), thousands(dropped.streams[s.index()])))
            .collect();
        let holds = if Format::from_path(path).is_ok_and(|(f, _)| f == Format::OracleGeneral) {
            "no streams"
        } else {
            "only reads and writes (stream other) and instruction fetches (shader reads)"
        };
        eprintln!(
            "warning: {out} holds {holds}; {} accesses lost their stream and read back as other ({})",
            thousands(dropped.stream_total()),
            by_stream.join(", ")
        );
    }
    if dropped.units > 0 {
        eprintln!(
            "warning: {out} cannot hold units; {} accesses with a unit other than 0 read back as unit 0",
            thousands(dropped.units)
        );
    }
    if dropped.writes > 0 {
        eprintln!(
            "warning: {out} cannot hold writes; {} writes read back as reads",
            thousands(dropped.writes)
        );
    }
    if dropped.sizes > 0 {
        eprintln!(
            "warning: {out} holds 64-byte objects; {} accesses that were not one aligned 64-byte \
             block were written as the blocks they touch",
            thousands(dropped.sizes)
        );
    }
}

/// The header fields of `meta` that a file named `out` cannot hold.
fn lost_meta_fields(out: &Path, meta: &TraceMeta) -> Vec<String> {
    let holds = Format::from_path(out).is_ok_and(|(f, _)| f.holds_meta());
    if holds {
        return Vec::new();
    }
    let mut lost: Vec<String> = [
        ("scene", meta.scene.is_some()),
        ("resolution", meta.resolution.is_some()),
        ("mode", meta.mode.is_some()),
        ("block size", meta.block_size.is_some()),
        ("frames", meta.frames.is_some()),
    ]
    .iter()
    .filter(|(_, set)| *set)
    .map(|(name, _)| name.to_string())
    .collect();
    if !meta.extra.is_empty() {
        let keys: Vec<&str> = meta.extra.keys().map(String::as_str).collect();
        lost.push(format!("extra fields ({})", keys.join(", ")));
    }
    lost
}
