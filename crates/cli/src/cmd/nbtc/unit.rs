//! The texture unit of `gfxcache nbtc`: `NbtcConfig::default()` on the
//! machine (`NbtcConfig::on_machine`), then `--unit F.json`'s fields, then
//! the flags, checked with each error naming the flag (or the file) that
//! set the field.

use std::path::Path;

use anyhow::{bail, Context, Result};
use gfxcache_cache::parse_size;
use gfxcache_machine::Machine;
use gfxcache_nbtc::{MemoryPath, Mode, NbtcConfig, NbtcError};

use super::{Args, DramArg, MemoryArg};

/// The flag (or flags) that set `field` of [`NbtcConfig`].
fn flag_of(field: &str) -> &'static str {
    match field {
        "l1_bytes, l1_ways, block_bytes" => "--l1-size, --l1-ways, --block-bytes",
        "l1_bytes" => "--l1-size",
        "rb_entries" => "--rb-entries",
        "wlb_entries" => "--wlb-entries",
        "bab_entries" => "--bab-entries",
        "fragments_in_flight" => "--fragments-in-flight",
        "hit_latency, filter_latency" => "--hit-latency, --filter-latency",
        "issue" => "--machine, --issue-rate",
        "memory_latency" => "--latencies",
        "mode.mshr.mshrs" => "--mshrs",
        "mode.mshr.targets" => "--mshr-targets",
        "mode.prefetching.fragment_fifo" => "--fragment-fifo",
        "mode.prefetching.request_fifo" => "--request-fifo",
        "mode.prefetching.rob" => "--rob",
        "memory.shared-dram.clock_mhz" => "--memory-clock-mhz",
        _ => "--unit",
    }
}

/// `config`'s check, its error naming the flag of the field it refuses
/// (and `--unit`, whose file may have set it).
pub(super) fn check_unit(config: &NbtcConfig, unit_file: Option<&Path>) -> Result<()> {
    config.check().map_err(|e| {
        let flag = match &e {
            NbtcError::Config { field, .. } => flag_of(field),
            _ => "--unit",
        };
        let file = unit_file.map_or(String::new(), |p| format!(" (or --unit {})", p.display()));
        anyhow::Error::new(e).context(format!("{flag}{file}"))
    })
}

/// The texture unit: the machine's, then --unit's fields, then the flags.
pub(super) fn unit(args: &Args, machine: &Machine) -> Result<NbtcConfig> {
    let base = NbtcConfig::default().on_machine(machine);
    let mut u = match &args.unit {
        None => base,
        Some(path) => read_unit(path, &base)?,
    };
    if let Some(s) = &args.l1_size {
        u.l1_bytes = parse_size(s).context("--l1-size")?;
    }
    let set = |field: &mut u32, v: Option<u32>| {
        if let Some(v) = v {
            *field = v;
        }
    };
    set(&mut u.l1_ways, args.l1_ways);
    set(&mut u.block_bytes, args.block_bytes);
    set(&mut u.rb_entries, args.rb_entries);
    set(&mut u.wlb_entries, args.wlb_entries);
    set(&mut u.bab_entries, args.bab_entries);
    set(&mut u.fragments_in_flight, args.fragments_in_flight);
    let set = |field: &mut u64, v: Option<u64>| {
        if let Some(v) = v {
            *field = v;
        }
    };
    set(&mut u.hit_latency, args.hit_latency);
    set(&mut u.filter_latency, args.filter_latency);
    match args.issue_rate {
        Some(0) => u.issue = None,
        Some(p) => u.issue = u.issue.map(|m| m.scaled(f64::from(p) / 100.0)),
        None => {}
    }
    if let (Some(p), Some(m)) = (args.issue_rate, u.issue) {
        m.check()
            .map_err(|e| anyhow::anyhow!("--issue-rate {p}: {e}"))?;
    }
    if args.bab_forgets_sent {
        u.bab_merges_sent = false;
    }
    if let Some(memory) = args.memory {
        u.share_memory(memory == MemoryArg::Shared);
    }
    if let MemoryPath::SharedDram { clock_mhz, dram } = &mut u.memory {
        *clock_mhz = args.memory_clock_mhz.unwrap_or(*clock_mhz);
        *dram = args.memory_dram.map_or(*dram, DramArg::preset);
    } else if args.memory_clock_mhz.is_some() || args.memory_dram.is_some() {
        bail!(
            "--memory-clock-mhz, --memory-dram: the units' memory is private: give --memory shared"
        );
    }
    u.mode = Mode::Nbtc;
    check_unit(&u, args.unit.as_deref())?;
    Ok(u)
}

/// --unit's file: `NbtcConfig`'s fields but the two each run sets, over
/// `base`'s.
fn read_unit(path: &Path, base: &NbtcConfig) -> Result<NbtcConfig> {
    const EACH_RUNS: &str =
        "is each run's own: set the designs with --modes and the latencies with --latencies";
    crate::cmd::merge_settings(
        "--unit",
        path,
        base,
        "the fields of nbtc.json's \"unit\" (see its defaults there)",
        &[("mode", EACH_RUNS), ("memory_latency", EACH_RUNS)],
    )
}
