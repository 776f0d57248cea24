//! The study's report as tidy tables ([`gfxcache_report::Report`]), each
//! written as `<name>.csv` and `<name>.parquet`:
//!
//! - `scenes`: the counted frames as a whole (Table II: render passes,
//!   tiles, primitives, footprints, reuse, with the paper's ranges beside)
//!   and how they were played; one row (a suite has one per scene).
//! - `passes`: Table II per render pass.
//! - `reductions`: TCOR's decreases versus the baseline per Tile Cache
//!   size, the paper's averages beside (`paper_*`).
//! - `engines`: a row per (engine, Tile Cache size) run through the shared
//!   L2: every count, the energy by level, the Tile Fetcher; then the
//!   figures of Section V-B as the report keys them (`pb_l2_accesses`,
//!   `energy_nj`), each figure over the baseline's at the same size
//!   (`*_vs_baseline`, empty where the baseline's is 0), the fetcher's
//!   reads per primitive, and the mean of the run's counted frames
//!   (`frame_mean_*`, which `frames.csv` had as rows whose `frame` was
//!   `mean`).
//! - `fetcher`: Figures 23-24 by the fetcher's timing (a row per Tile
//!   Cache size, fetcher model, MSHR count and memory latency).
//! - `frames`: each counted frame of every run (the frame's figures only;
//!   their mean is in `engines`).
//! - `curves`: every point of every Attribute Cache curve (Figures 1,
//!   11-13); `reach`: where each curve reaches the lower bound, the
//!   paper's sizes beside; `lower_bound`: the bound of TCOR's two
//!   Attribute Caches.
//! - `other_l1`: the L1s outside the Tiling Engine every run's energy
//!   counts; `machine`, when the study ran on one.
//!
//! Every value column is averaged over a suite's scenes only where every
//! scene has it ([`Mean::AverageAll`]), as [`super::TcorMean`] averages:
//! counts as the mean count per scene, ratios over the baseline as the
//! mean of the scenes' ratios (each scene weighs the same); the paper's
//! numbers are the same in every scene ([`Mean::Same`]).

use std::collections::BTreeMap;

use gfxcache_report::{Mean, Table, TableBuilder, TableError, Unit};

use super::mean::EngineFigure;
use super::paper;
use super::report::{EngineRun, Reductions, TcorReport, ENGINES};

/// `labels` once each, smallest size first (`64KiB` before `128KiB`); a
/// label that is not a size goes last, by name.
pub fn in_size_order<'a>(labels: impl IntoIterator<Item = &'a String>) -> Vec<String> {
    let mut out: Vec<String> = labels.into_iter().cloned().collect();
    out.sort_by_key(|l| (gfxcache_cache::parse_size(l).unwrap_or(u64::MAX), l.clone()));
    out.dedup();
    out
}

/// Every Tile Cache size the study ran or has a figure for, in order.
pub fn tile_caches(r: &TcorReport) -> Vec<String> {
    let runs = r.runs.iter().map(|run| &run.tile_cache);
    let maps = [
        r.pb_l2_accesses.keys().collect::<Vec<_>>(),
        r.pb_dram_accesses.keys().collect(),
        r.dram_accesses.keys().collect(),
        r.energy_nj.keys().collect(),
        r.primitives_per_cycle.keys().collect(),
    ];
    in_size_order(runs.chain(maps.into_iter().flatten()))
}

/// The paper's fully associative Attribute Cache size at which `policy`
/// reaches the lower bound (Figure 11), in bytes.
pub fn paper_reach_bytes(policy: &str, ways: &str) -> Option<u64> {
    let kib = match (policy, ways) {
        ("opt", "full") => paper::OPT_REACHES_BOUND_KIB,
        ("lru", "full") => paper::LRU_REACHES_BOUND_KIB,
        _ => return None,
    };
    Some((kib * 1024.0) as u64)
}

const MIB: f64 = 1024.0 * 1024.0;

/// The counted frames as a whole: Table II and how they were played.
fn scenes(r: &TcorReport) -> Result<Table, TableError> {
    let f = &r.frame;
    let one = |v: u64| [Some(v)];
    let (fp_lo, fp_hi) = paper::FOOTPRINT_MIB;
    let (re_lo, re_hi) = paper::AVERAGE_REUSE;
    let all = Mean::AverageAll;
    TableBuilder::new(
        "scenes",
        "a scene's counted frames as a whole (Table II), the paper's ranges over its games beside",
    )
    .u64("render_passes", Unit::Count, all, one(r.render_passes))
    .u64("tiles", Unit::Count, all, one(r.tiles))
    .u64("primitives", Unit::Count, all, one(f.primitives))
    .u64("attributes", Unit::Count, all, one(f.attributes))
    .u64("tile_uses", Unit::Count, all, one(f.tile_uses))
    .u64("footprint_bytes", Unit::Bytes, all, one(f.footprint_bytes))
    .u64(
        "largest_pass_footprint_bytes",
        Unit::Bytes,
        all,
        one(f.largest_pass_footprint_bytes),
    )
    .f64("average_reuse", Unit::Ratio, all, [Some(f.average_reuse)])
    .f64(
        "paper_footprint_bytes_min",
        Unit::Bytes,
        Mean::Same,
        [Some(fp_lo * MIB)],
    )
    .f64(
        "paper_footprint_bytes_max",
        Unit::Bytes,
        Mean::Same,
        [Some(fp_hi * MIB)],
    )
    .f64(
        "paper_average_reuse_min",
        Unit::Ratio,
        Mean::Same,
        [Some(re_lo)],
    )
    .f64(
        "paper_average_reuse_max",
        Unit::Ratio,
        Mean::Same,
        [Some(re_hi)],
    )
    .text(
        "resolution",
        Mean::Blank,
        [r.resolution.map(|(w, h)| format!("{w}x{h}"))],
    )
    .u64("frames", Unit::Count, Mean::Blank, one(u64::from(r.frames)))
    .u64("warmup", Unit::Count, Mean::Blank, one(u64::from(r.warmup)))
    .text("binning", Mean::Blank, [r.binning.clone()])
    .u64(
        "warnings",
        Unit::Count,
        Mean::Blank,
        one(r.warnings.len() as u64),
    )
    .build()
}

/// Table II, one row per render pass.
fn passes(r: &TcorReport) -> Result<Table, TableError> {
    let p = &r.passes;
    let count =
        |f: fn(&super::report::PassCharacteristics) -> u64| p.iter().map(move |x| Some(f(x)));
    let all = Mean::AverageAll;
    TableBuilder::new("passes", "a render pass of the counted frames (Table II)")
        .key_u64("frame", Unit::None, p.iter().map(|x| u64::from(x.frame)))
        .key("pass", p.iter().map(|x| x.pass.clone()))
        .u64(
            "primitives",
            Unit::Count,
            all,
            count(|x| x.characteristics.primitives),
        )
        .u64(
            "tiles",
            Unit::Count,
            all,
            count(|x| x.characteristics.tiles),
        )
        .u64(
            "busy_tiles",
            Unit::Count,
            all,
            count(|x| x.characteristics.busy_tiles),
        )
        .u64(
            "attributes",
            Unit::Count,
            all,
            count(|x| x.characteristics.attributes),
        )
        .u64(
            "tile_uses",
            Unit::Count,
            all,
            count(|x| x.characteristics.tile_uses),
        )
        .u64(
            "pb_lists_blocks",
            Unit::Count,
            all,
            count(|x| x.characteristics.pb_lists_blocks),
        )
        .u64(
            "pb_attribute_blocks",
            Unit::Count,
            all,
            count(|x| x.characteristics.pb_attribute_blocks),
        )
        .u64(
            "footprint_bytes",
            Unit::Bytes,
            all,
            count(|x| x.characteristics.footprint_bytes),
        )
        .f64(
            "average_reuse",
            Unit::Ratio,
            all,
            p.iter().map(|x| Some(x.characteristics.average_reuse)),
        )
        .u64(
            "longest_list",
            Unit::Count,
            all,
            count(|x| u64::from(x.characteristics.longest_list)),
        )
        .u64(
            "overflow_tiles",
            Unit::Count,
            all,
            count(|x| x.baseline_overflow.tiles),
        )
        .u64(
            "overflow_pmds",
            Unit::Count,
            all,
            count(|x| x.baseline_overflow.pmds),
        )
        .build()
}

/// A decrease of [`Reductions`]: its column and value.
type Decrease = (&'static str, Unit, fn(&Reductions) -> f64);

/// The decreases, in the order of Section V-B's figures.
pub const DECREASES: [Decrease; 6] = [
    ("pb_l2_accesses", Unit::Percent, |d| d.pb_l2_accesses),
    ("pb_dram_accesses", Unit::Percent, |d| d.pb_dram_accesses),
    ("dram_accesses", Unit::Percent, |d| d.dram_accesses),
    ("energy", Unit::Percent, |d| d.energy),
    ("energy_no_l2", Unit::Percent, |d| d.energy_no_l2),
    ("fetcher_speedup", Unit::Ratio, |d| d.fetcher_speedup),
];

/// TCOR's decreases per Tile Cache size (ours, then the paper's), at
/// every size either has.
fn reductions(r: &TcorReport) -> Result<Table, TableError> {
    let sizes = in_size_order(r.reductions.keys().chain(r.paper.keys()));
    let mut b = TableBuilder::new(
        "reductions",
        "a Tile Cache size: TCOR's decreases versus the baseline in percent (the fetcher's \
         speedup in times), the paper's averages beside",
    )
    .key("tile_cache", sizes.iter().cloned());
    for (name, unit, of) in DECREASES {
        b = b.f64(
            name,
            unit,
            Mean::AverageAll,
            sizes.iter().map(|s| r.reductions.get(s).map(of)),
        );
    }
    for (name, unit, of) in DECREASES {
        b = b.f64(
            &format!("paper_{name}"),
            unit,
            Mean::Same,
            sizes.iter().map(|s| r.paper.get(s).map(of)),
        );
    }
    b.build()
}

/// The name of figure `f`'s column.
pub fn figure_column(f: EngineFigure) -> &'static str {
    match f {
        EngineFigure::PbL2Accesses => "pb_l2_accesses",
        EngineFigure::PbDramAccesses => "pb_dram_accesses",
        EngineFigure::DramAccesses => "dram_accesses",
        EngineFigure::EnergyNj => "energy_nj",
        EngineFigure::PrimitivesPerCycle => "primitives_per_cycle",
    }
}

/// A count of a run: its column, unit and value.
type RunCount = (&'static str, Unit, fn(&EngineRun) -> u64);
/// A real of a run.
type RunReal = (&'static str, Unit, fn(&EngineRun) -> f64);

/// Every (engine, Tile Cache size) run: the L2's and main memory's
/// traffic, energy by level, the Tile Fetcher, TCOR's stalls and the
/// baseline's overflow area, as `engines.csv` has always had them; then
/// the figures and their ratios over the baseline, the fetcher's reads
/// per primitive, and the mean of the counted frames.
fn engines(r: &TcorReport) -> Result<Table, TableError> {
    let runs = &r.runs;
    let all = Mean::AverageAll;
    let mut b = TableBuilder::new(
        "engines",
        "a Tiling Engine at a Tile Cache size through the shared L2",
    )
    .key("engine", runs.iter().map(|x| x.engine.clone()))
    .key("tile_cache", runs.iter().map(|x| x.tile_cache.clone()))
    .text(
        "l2_policy",
        Mean::Same,
        runs.iter().map(|x| Some(x.l2_policy.clone())),
    );
    let counts: [RunCount; 6] = [
        ("pb_l2_reads", Unit::Count, |x| x.stats.pb_l2_reads),
        ("pb_l2_writes", Unit::Count, |x| x.stats.pb_l2_writes),
        ("pb_dram_accesses", Unit::Count, |x| {
            x.stats.pb_memory_accesses()
        }),
        ("dram_reads", Unit::Count, |x| x.stats.memory_reads()),
        ("dram_writes", Unit::Count, |x| x.stats.memory_writes()),
        ("dram_accesses", Unit::Count, |x| x.stats.memory_accesses()),
    ];
    for (name, unit, of) in counts {
        b = b.u64(name, unit, all, runs.iter().map(|x| Some(of(x))));
    }
    let energy: [RunReal; 4] = [
        ("energy_l1_nj", Unit::Nanojoules, |x| x.energy.l1_nj),
        ("energy_l2_nj", Unit::Nanojoules, |x| x.energy.l2_nj),
        ("energy_dram_nj", Unit::Nanojoules, |x| x.energy.dram_nj),
        ("energy_total_nj", Unit::Nanojoules, |x| x.energy.total_nj),
    ];
    for (name, unit, of) in energy {
        b = b.f64(name, unit, all, runs.iter().map(|x| Some(of(x))));
    }
    b = b
        .u64(
            "fetcher_primitives",
            Unit::Count,
            all,
            runs.iter().map(|x| Some(x.stats.fetcher.primitives)),
        )
        .u64(
            "fetcher_cycles",
            Unit::Cycles,
            all,
            runs.iter().map(|x| Some(x.stats.fetcher.cycles)),
        )
        .f64(
            "primitives_per_cycle",
            Unit::Ratio,
            all,
            runs.iter()
                .map(|x| Some(x.stats.fetcher.primitives_per_cycle)),
        );
    let fetcher: [RunCount; 8] = [
        ("fetcher_l2_reads", Unit::Count, |x| {
            x.stats.fetcher.l2_reads
        }),
        ("fetcher_l2_read_misses", Unit::Count, |x| {
            x.stats.fetcher.l2_read_misses
        }),
        ("fetcher_l2_requests", Unit::Count, |x| {
            x.stats.fetcher.l2_requests
        }),
        ("fetcher_merged_reads", Unit::Count, |x| {
            x.stats.fetcher.merged_reads
        }),
        ("fetcher_fifo_stall_cycles", Unit::Cycles, |x| {
            x.stats.fetcher.fifo_stall_cycles
        }),
        ("fetcher_mshr_stall_cycles", Unit::Cycles, |x| {
            x.stats.fetcher.mshr_stall_cycles
        }),
        ("fetcher_target_stall_cycles", Unit::Cycles, |x| {
            x.stats.fetcher.target_stall_cycles
        }),
        ("fetcher_dram_wait_cycles", Unit::Cycles, |x| {
            x.stats.fetcher.dram_wait_cycles
        }),
    ];
    for (name, unit, of) in fetcher {
        b = b.u64(name, unit, all, runs.iter().map(|x| Some(of(x))));
    }
    b = b.f64(
        "fetcher_mlp",
        Unit::Ratio,
        all,
        runs.iter().map(|x| Some(x.stats.fetcher.mlp)),
    );
    let rest: [RunCount; 4] = [
        ("attribute_cache_stalls", Unit::Count, |x| {
            x.stats.engine.attribute_cache_stalls
        }),
        ("overflow_passes", Unit::Count, |x| x.stats.overflow.passes),
        ("overflow_pmds", Unit::Count, |x| x.stats.overflow.pmds),
        ("overflow_l2_blocks", Unit::Count, |x| {
            x.stats.overflow.l2_blocks
        }),
    ];
    for (name, unit, of) in rest {
        b = b.u64(name, unit, all, runs.iter().map(|x| Some(of(x))));
    }
    // Section V-B's figures as the report keys them by size and engine
    // (the two the columns above do not already give), then each over the
    // baseline's.
    b = b
        .u64(
            "pb_l2_accesses",
            Unit::Count,
            all,
            runs.iter()
                .map(|x| value(&r.pb_l2_accesses, &x.tile_cache, &x.engine)),
        )
        .f64(
            "energy_nj",
            Unit::Nanojoules,
            all,
            runs.iter()
                .map(|x| value(&r.energy_nj, &x.tile_cache, &x.engine)),
        );
    for f in EngineFigure::ALL {
        b = b.f64(
            &format!("{}_vs_baseline", figure_column(f)),
            Unit::Ratio,
            all,
            runs.iter()
                .map(|x| f.vs_baseline(r, &x.tile_cache, &x.engine)),
        );
    }
    let per_primitive = |n: fn(&EngineRun) -> u64| {
        runs.iter()
            .map(move |x| Some(n(x) as f64 / x.stats.fetcher.primitives.max(1) as f64))
    };
    b = b
        .f64(
            "fetcher_l2_reads_per_primitive",
            Unit::Ratio,
            all,
            per_primitive(|x| x.stats.fetcher.l2_reads),
        )
        .f64(
            "fetcher_l2_read_misses_per_primitive",
            Unit::Ratio,
            all,
            per_primitive(|x| x.stats.fetcher.l2_read_misses),
        );
    let frame_mean: [RunReal; 5] = [
        ("frame_mean_pb_l2_accesses", Unit::Count, |x| {
            x.mean_per_frame.pb_l2_accesses
        }),
        ("frame_mean_pb_dram_accesses", Unit::Count, |x| {
            x.mean_per_frame.pb_dram_accesses
        }),
        ("frame_mean_dram_accesses", Unit::Count, |x| {
            x.mean_per_frame.dram_accesses
        }),
        ("frame_mean_energy_nj", Unit::Nanojoules, |x| {
            x.mean_per_frame.energy_nj
        }),
        ("frame_mean_primitives_per_cycle", Unit::Ratio, |x| {
            x.mean_per_frame.primitives_per_cycle
        }),
    ];
    for (name, unit, of) in frame_mean {
        b = b.f64(name, unit, all, runs.iter().map(|x| Some(of(x))));
    }
    b.build()
}

/// The value of a figure's map at (Tile Cache size, engine), if measured.
pub fn value<T: Copy>(
    m: &BTreeMap<String, BTreeMap<String, T>>,
    size: &str,
    engine: &str,
) -> Option<T> {
    m.get(size).and_then(|e| e.get(engine)).copied()
}

/// Figures 23-24 by the fetcher's timing: a row per point of the sweep at
/// every Tile Cache size, each engine's primitives per cycle and TCOR's
/// speedup over the baseline.
fn fetcher(r: &TcorReport) -> Result<Table, TableError> {
    let sizes = in_size_order(r.fetcher_sensitivity.keys());
    let points: Vec<(&String, &super::fetcher::SensitivityPoint)> = sizes
        .iter()
        .flat_map(|s| r.fetcher_sensitivity[s].iter().map(move |p| (s, p)))
        .collect();
    let all = Mean::AverageAll;
    let mut b = TableBuilder::new(
        "fetcher",
        "a timing of the Tile Fetcher at a Tile Cache size (Figures 23-24 by the fetcher's \
         MSHRs and memory latency)",
    )
    .key("tile_cache", points.iter().map(|(s, _)| s.to_string()))
    .key("model", points.iter().map(|(_, p)| p.model.name()))
    .u64(
        "mshrs",
        Unit::Count,
        Mean::Key,
        points.iter().map(|(_, p)| p.mshrs.map(u64::from)),
    )
    .key_u64(
        "memory_cycles",
        Unit::Cycles,
        points.iter().map(|(_, p)| u64::from(p.memory_cycles)),
    );
    for e in ENGINES {
        b = b.f64(
            &format!("{e}_primitives_per_cycle"),
            Unit::Ratio,
            all,
            points
                .iter()
                .map(|(_, p)| p.primitives_per_cycle.get(e).copied()),
        );
    }
    b.f64(
        "speedup",
        Unit::Ratio,
        all,
        points.iter().map(|(_, p)| Some(p.speedup)),
    )
    .build()
}

/// Each counted frame of every engine run.
fn frames(r: &TcorReport) -> Result<Table, TableError> {
    let rows: Vec<(&EngineRun, &super::report::EngineFrame)> = r
        .runs
        .iter()
        .flat_map(|run| run.per_frame.iter().map(move |f| (run, f)))
        .collect();
    let all = Mean::AverageAll;
    TableBuilder::new(
        "frames",
        "a counted frame of a Tiling Engine at a Tile Cache size (the L2 warm from the frame \
         before); their mean is in engines (frame_mean_*)",
    )
    .key("engine", rows.iter().map(|(x, _)| x.engine.clone()))
    .key("tile_cache", rows.iter().map(|(x, _)| x.tile_cache.clone()))
    .key_u64(
        "frame",
        Unit::None,
        rows.iter().map(|(_, f)| u64::from(f.frame)),
    )
    .u64(
        "pb_l2_accesses",
        Unit::Count,
        all,
        rows.iter().map(|(_, f)| Some(f.pb_l2_accesses)),
    )
    .u64(
        "pb_dram_accesses",
        Unit::Count,
        all,
        rows.iter().map(|(_, f)| Some(f.pb_dram_accesses)),
    )
    .u64(
        "dram_accesses",
        Unit::Count,
        all,
        rows.iter().map(|(_, f)| Some(f.dram_accesses)),
    )
    .f64(
        "energy_nj",
        Unit::Nanojoules,
        all,
        rows.iter().map(|(_, f)| Some(f.energy_nj)),
    )
    .f64(
        "primitives_per_cycle",
        Unit::Ratio,
        all,
        rows.iter().map(|(_, f)| Some(f.primitives_per_cycle)),
    )
    .build()
}

/// Every point of every Attribute Cache curve.
fn curves(r: &TcorReport) -> Result<Table, TableError> {
    let rows: Vec<(&super::report::Curve, &crate::SweepPoint)> = r
        .curves
        .iter()
        .flat_map(|c| c.points.iter().map(move |p| (c, p)))
        .collect();
    let all = Mean::AverageAll;
    let count = |f: fn(&crate::SweepPoint) -> u64| rows.iter().map(move |(_, p)| Some(f(p)));
    let ratio = |f: fn(&crate::SweepPoint) -> f64| rows.iter().map(move |(_, p)| Some(f(p)));
    TableBuilder::new(
        "curves",
        "an Attribute Cache size of a replacement policy at an associativity (Figures 1, \
         11-13): misses over the counted frames' render passes and the lower bound",
    )
    .key("policy", rows.iter().map(|(c, _)| c.policy.clone()))
    .key("ways", rows.iter().map(|(c, _)| c.ways.clone()))
    .key_u64("bytes", Unit::Bytes, rows.iter().map(|(_, p)| p.bytes))
    .u64("entries", Unit::Count, all, count(|p| u64::from(p.entries)))
    .u64("lines", Unit::Count, all, count(|p| u64::from(p.lines)))
    .u64("accesses", Unit::Count, all, count(|p| p.accesses))
    .u64("misses", Unit::Count, all, count(|p| p.misses))
    .f64("miss_ratio", Unit::Fraction, all, ratio(|p| p.miss_ratio))
    .u64("lower_bound", Unit::Count, all, count(|p| p.lower_bound))
    .f64(
        "lower_bound_ratio",
        Unit::Fraction,
        all,
        ratio(|p| p.lower_bound_ratio),
    )
    .u64("l2_reads", Unit::Count, all, count(|p| p.l2_reads))
    .build()
}

/// Where each curve reaches its lower bound, the paper's sizes beside.
fn reach(r: &TcorReport) -> Result<Table, TableError> {
    let c = &r.reach.curves;
    TableBuilder::new(
        "reach",
        "an Attribute Cache curve: the smallest size from which it stays within the tolerance \
         of the lower bound (empty: not within the sweep), the paper's beside",
    )
    .key("policy", c.iter().map(|x| x.policy.clone()))
    .key("ways", c.iter().map(|x| x.ways.clone()))
    .u64(
        "bytes",
        Unit::Bytes,
        Mean::AverageAll,
        c.iter().map(|x| x.bytes),
    )
    .u64(
        "paper_bytes",
        Unit::Bytes,
        Mean::Same,
        c.iter().map(|x| paper_reach_bytes(&x.policy, &x.ways)),
    )
    .build()
}

/// The lower bound of TCOR's Attribute Caches per Tile Cache size.
fn lower_bound(r: &TcorReport) -> Result<Table, TableError> {
    let sizes = in_size_order(r.lower_bound.keys());
    TableBuilder::new(
        "lower_bound",
        "a Tile Cache size: the lower bound (LB) of TCOR's Attribute Cache beside it (48 or \
         112 KiB, 4-way), in primitive misses",
    )
    .key("tile_cache", sizes.iter().cloned())
    .u64(
        "lower_bound",
        Unit::Count,
        Mean::AverageAll,
        sizes.iter().map(|s| r.lower_bound.get(s).copied()),
    )
    .build()
}

/// The L1s outside the Tiling Engine that every run's energy counts.
fn other_l1(r: &TcorReport) -> Result<Table, TableError> {
    let l = &r.other_l1;
    TableBuilder::new(
        "other_l1",
        "an L1 outside the Tiling Engine (vertex, texture) whose accesses in the counted \
         frames every run's energy counts",
    )
    .key("name", l.iter().map(|x| x.name.clone()))
    .u64(
        "bytes",
        Unit::Bytes,
        Mean::Same,
        l.iter().map(|x| Some(x.bytes)),
    )
    .u64(
        "accesses",
        Unit::Count,
        Mean::AverageAll,
        l.iter().map(|x| Some(x.accesses)),
    )
    .f64(
        "access_pj",
        Unit::Picojoules,
        Mean::Same,
        l.iter()
            .map(|x| Some(r.energy_model.sram_access_pj(x.bytes))),
    )
    .build()
}

impl gfxcache_report::Report for TcorReport {
    fn tables(&self) -> Result<Vec<Table>, TableError> {
        let mut out = vec![
            scenes(self)?,
            passes(self)?,
            reductions(self)?,
            engines(self)?,
            fetcher(self)?,
            frames(self)?,
            curves(self)?,
            reach(self)?,
            lower_bound(self)?,
            other_l1(self)?,
        ];
        if let Some(m) = &self.machine {
            out.push(m.table()?);
        }
        Ok(out)
    }

    fn figures(&self) -> Vec<gfxcache_report::Figure> {
        super::figures::figures(self)
    }

    fn suite_figures(scenes: &[&TcorReport]) -> Vec<gfxcache_report::Figure> {
        super::figures::suite_figures(scenes)
    }

    fn page(&self) -> Result<gfxcache_report::Page, TableError> {
        Ok(super::page::page(self))
    }

    fn suite_page(scenes: &[(&str, &TcorReport)]) -> Result<gfxcache_report::Page, TableError> {
        Ok(super::page::suite_page(scenes))
    }
}
