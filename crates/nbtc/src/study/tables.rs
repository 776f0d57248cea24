//! The study's report as tidy tables ([`gfxcache_report::Report`]):
//! `runs` (a row per filter mode, latency and design: every count of its
//! units, the changes against the BTC, the miss rate and the slides'
//! numbers beside), `sweeps` (a row per knob value and design, the
//! unit's own value marked `main`), `paper` (each of the slides' numbers
//! beside ours), `storage` (a row per field of each buffer) and, when the
//! study ran on a machine, `machine`. The figures over them are
//! [`super::figures`].
//!
//! The cycle categories, counts and knobs are listed once here, in the
//! slides' words, for the tables, the figures and the page.

use gfxcache_report::{Mean, Table, TableBuilder, TableError, Unit};

use crate::config::{MemoryPath, Mode, NbtcConfig};
use crate::stats::UnitStats;
use crate::study::paper::PaperNumbers;
use crate::study::report::{FilterReport, NbtcReport, RunRow, Sweep};

/// A cycle category of [`UnitStats`]: its column, its name in the charts
/// (the slides' words where they have one) and its count.
pub struct Category {
    pub field: &'static str,
    pub name: &'static str,
    pub of: fn(&UnitStats) -> u64,
}

/// Every cycle category, in the slides' stacking order (PS run, PS stall,
/// NBTC stall) and then ours; they sum to `cycles`.
pub const CATEGORIES: [Category; 10] = [
    Category {
        field: "run_cycles",
        name: "PS run",
        of: |s| s.run_cycles,
    },
    Category {
        field: "issue_cycles",
        name: "issue",
        of: |s| s.issue_cycles,
    },
    Category {
        field: "ps_stall_cycles",
        name: "PS stall",
        of: |s| s.ps_stall_cycles,
    },
    Category {
        field: "nbtc_stall_cycles",
        name: "NBTC stall (WLB full)",
        of: |s| s.nbtc_stall_cycles,
    },
    Category {
        field: "blocked_cycles",
        name: "BTC blocked",
        of: |s| s.blocked_cycles,
    },
    Category {
        field: "miss_queue_full_cycles",
        name: "miss queue full",
        of: |s| s.miss_queue_full_cycles,
    },
    Category {
        field: "rb_full_cycles",
        name: "RB full",
        of: |s| s.rb_full_cycles,
    },
    Category {
        field: "mux_conflict_cycles",
        name: "MUX conflict",
        of: |s| s.mux_conflict_cycles,
    },
    Category {
        field: "drain_cycles",
        name: "drain",
        of: |s| s.drain_cycles,
    },
    Category {
        field: "tile_wait_cycles",
        name: "tile wait",
        of: |s| s.tile_wait_cycles,
    },
];

/// A count of [`UnitStats`]: its column, unit and how to read it.
pub type Count = (&'static str, Unit, fn(&UnitStats) -> u64);

/// The other counts of [`UnitStats`].
pub const COUNTS: [Count; 10] = [
    ("requests", Unit::Count, |s| s.requests),
    ("texel_lookups", Unit::Count, |s| s.texel_lookups),
    ("hits", Unit::Count, |s| s.hits),
    ("primary_misses", Unit::Count, |s| s.primary_misses),
    ("secondary_misses", Unit::Count, |s| s.secondary_misses),
    ("memory_requests", Unit::Count, |s| s.memory_requests),
    ("traffic_bytes", Unit::Bytes, |s| s.traffic_bytes),
    ("all_hit_requests", Unit::Count, |s| s.all_hit_requests),
    ("memory_wait_cycles", Unit::Cycles, |s| s.memory_wait_cycles),
    ("instructions", Unit::Count, |s| s.instructions),
];

/// A knob the study sweeps: its name in the report and in the charts.
pub struct Knob {
    pub knob: &'static str,
    pub title: &'static str,
}

pub const KNOBS: [Knob; 9] = [
    Knob {
        knob: "wlb_entries",
        title: "Waiting List Buffer entries",
    },
    Knob {
        knob: "bab_entries",
        title: "Block Address Buffer entries",
    },
    Knob {
        knob: "rb_entries",
        title: "Retry Buffer entries",
    },
    Knob {
        knob: "block_bytes",
        title: "block bytes",
    },
    Knob {
        knob: "hit_latency",
        title: "hit latency (cycles, ours)",
    },
    Knob {
        knob: "filter_latency",
        title: "filter latency (cycles, ours)",
    },
    Knob {
        knob: "issue_rate",
        title: "issue rates, % of the machine's (0: shading takes no time)",
    },
    Knob {
        knob: "fragments_in_flight",
        title: "fragments in flight per pixel processor",
    },
    Knob {
        knob: "shared_memory",
        title: "units sharing one DRAM (0: each its own path; ours)",
    },
];

/// The title of `knob` in the charts.
pub fn knob_title(knob: &str) -> &str {
    KNOBS
        .iter()
        .find(|k| k.knob == knob)
        .map_or(knob, |k| k.title)
}

/// The slides' change in pixel-shader cycles of `mode` against the BTC at
/// `latency`: they give the NBTC's at 50 and 300 cycles only.
pub fn paper_cycles(paper: &PaperNumbers, mode: Mode, latency: u64) -> Option<f64> {
    if mode != Mode::Nbtc {
        return None;
    }
    paper
        .cycles_change
        .iter()
        .find(|(l, _)| *l == latency)
        .map(|(_, v)| *v)
}

/// The slides' bound on the NBTC's memory traffic over the BTC's ("up to
/// 11 % more"); no other design has one.
pub fn paper_traffic(paper: &PaperNumbers, mode: Mode) -> Option<f64> {
    (mode == Mode::Nbtc).then_some(paper.traffic_change_max)
}

/// The unit's value of `knob`.
fn main_value(unit: &NbtcConfig, knob: &str) -> Option<u64> {
    Some(match knob {
        "wlb_entries" => u64::from(unit.wlb_entries),
        "bab_entries" => u64::from(unit.bab_entries),
        "rb_entries" => u64::from(unit.rb_entries),
        "block_bytes" => u64::from(unit.block_bytes),
        "hit_latency" => unit.hit_latency,
        "filter_latency" => unit.filter_latency,
        "issue_rate" => 100,
        "fragments_in_flight" => u64::from(unit.fragments_in_flight),
        "shared_memory" => u64::from(unit.memory != MemoryPath::Private),
        _ => return None,
    })
}

/// A value of a swept knob: the NBTC's and the BTC's runs at it (the
/// BTC's at the main value for the buffers, which it lacks) and whether
/// it is the unit's own value.
pub struct KnobPoint<'a> {
    pub value: u64,
    pub main: bool,
    pub nbtc: &'a RunRow,
    pub btc: Option<&'a RunRow>,
    /// The NBTC's buffers at this value, bytes.
    pub storage_bytes: u64,
}

/// The points of `sweep` in order of value, with the main grid's runs at
/// the unit's value when the sweep leaves it out and the grid has it.
pub fn knob_points<'a>(r: &'a NbtcReport, sweep: &'a Sweep) -> Vec<KnobPoint<'a>> {
    let main = main_value(&r.unit, &sweep.knob);
    let mut points: Vec<KnobPoint> = sweep
        .points
        .iter()
        .map(|p| KnobPoint {
            value: p.value,
            main: Some(p.value) == main,
            nbtc: &p.nbtc,
            btc: Some(&p.btc),
            storage_bytes: p.storage_bytes,
        })
        .collect();
    let grid = r.frames.iter().find(|f| f.filter == sweep.filter);
    let row = |mode| grid.and_then(|f| f.row(mode, sweep.latency));
    if let (Some(value), Some(nbtc)) = (main, row(Mode::Nbtc)) {
        if !points.iter().any(|p| p.value == value) {
            points.push(KnobPoint {
                value,
                main: true,
                nbtc,
                btc: row(Mode::BTC),
                storage_bytes: r.storage.bytes,
            });
        }
    }
    points.sort_by_key(|p| p.value);
    points
}

/// A rate or change of a run: its column, unit and value.
type Rate = (&'static str, Unit, fn(&RunRow) -> f64);

/// One of the slides' numbers beside ours: filter mode, metric, latency,
/// the slides' value and ours.
struct PaperRow<'a> {
    filter: &'a str,
    metric: &'static str,
    latency: Option<u64>,
    paper: f64,
    ours: Option<f64>,
}

/// The columns every run has, from `rows`: its design, every count, its
/// buffers' occupancy (per unit and cycle, so the mean over the
/// processors' summed cycles), the miss rate and the changes against the
/// BTC. A suite averages the rates and changes; the counts differ by
/// scene and are not averaged.
fn run_columns(mut b: TableBuilder, rows: &[&RunRow]) -> TableBuilder {
    let stat = |of: fn(&UnitStats) -> u64| rows.iter().map(move |r| Some(of(&r.stats)));
    let value = |of: fn(&RunRow) -> f64| rows.iter().map(move |r| Some(of(r)));
    b = b.key("mode", rows.iter().map(|r| r.mode.name())).u64(
        "cycles",
        Unit::Cycles,
        Mean::Blank,
        stat(|s| s.cycles),
    );
    for c in &CATEGORIES {
        b = b.u64(c.field, Unit::Cycles, Mean::Blank, stat(c.of));
    }
    b = b.u64(
        "frame_cycles",
        Unit::Cycles,
        Mean::Blank,
        rows.iter().map(|r| Some(r.frame_cycles)),
    );
    for (field, unit, of) in &COUNTS {
        b = b.u64(field, *unit, Mean::Blank, stat(*of));
    }
    type Occupancy = fn(&UnitStats) -> &crate::stats::Occupancy;
    let buffers: [(&str, Occupancy); 3] =
        [("rb", |s| &s.rb), ("wlb", |s| &s.wlb), ("bab", |s| &s.bab)];
    for (name, of) in buffers {
        b = b
            .u64(
                &format!("{name}_max"),
                Unit::Count,
                Mean::Blank,
                rows.iter().map(|r| Some(of(&r.stats).max)),
            )
            .f64(
                &format!("{name}_mean"),
                Unit::Count,
                Mean::Blank,
                rows.iter().map(|r| Some(of(&r.stats).mean(r.stats.cycles))),
            );
    }
    let averaged: [Rate; 6] = [
        ("miss_rate_percent", Unit::Percent, |r| r.miss_rate),
        ("cycles_change_percent", Unit::Percent, |r| r.cycles_change),
        ("frame_cycles_change_percent", Unit::Percent, |r| {
            r.frame_cycles_change
        }),
        ("traffic_change_percent", Unit::Percent, |r| {
            r.traffic_change
        }),
        ("fp_issue_rate", Unit::Ratio, |r| r.fp_issue_rate),
        ("stall_share_percent", Unit::Percent, |r| r.stall_share),
    ];
    for (name, unit, of) in averaged {
        b = b.f64(name, unit, Mean::Average, value(of));
    }
    b
}

/// Per filter mode, latency and design.
fn runs(r: &NbtcReport) -> Result<Table, TableError> {
    let rows: Vec<(&FilterReport, &RunRow)> = r
        .frames
        .iter()
        .flat_map(|f| f.runs.iter().map(move |row| (f, row)))
        .collect();
    let b = TableBuilder::new(
        "runs",
        "a design at a memory latency on the frame of a filter mode",
    )
    .key("filter", rows.iter().map(|(f, _)| f.filter.clone()))
    .key_u64("latency", Unit::Cycles, rows.iter().map(|(_, x)| x.latency));
    let runs: Vec<&RunRow> = rows.iter().map(|(_, x)| *x).collect();
    run_columns(b, &runs)
        .f64(
            "paper_cycles_change_percent",
            Unit::Percent,
            Mean::Same,
            runs.iter()
                .map(|x| paper_cycles(&r.paper, x.mode, x.latency)),
        )
        .f64(
            "paper_traffic_change_max_percent",
            Unit::Percent,
            Mean::Same,
            runs.iter().map(|x| paper_traffic(&r.paper, x.mode)),
        )
        .build()
}

/// Per knob value (in order of value, the unit's own marked `main`), the
/// NBTC and the BTC; the NBTC's row says what its buffers cost at the
/// value.
fn sweeps(r: &NbtcReport) -> Result<Table, TableError> {
    // (sweep, point, run, buffer bytes of the NBTC's row)
    let mut rows: Vec<(&Sweep, bool, u64, &RunRow, Option<u64>)> = Vec::new();
    for s in &r.sweeps {
        for p in knob_points(r, s) {
            rows.push((s, p.main, p.value, p.nbtc, Some(p.storage_bytes)));
            if let Some(btc) = p.btc {
                rows.push((s, p.main, p.value, btc, None));
            }
        }
    }
    let b = TableBuilder::new(
        "sweeps",
        "a design at one value of one knob, the others at the unit's",
    )
    .key("knob", rows.iter().map(|x| x.0.knob.clone()))
    .key_u64("value", Unit::None, rows.iter().map(|x| x.2))
    .key("filter", rows.iter().map(|x| x.0.filter.clone()))
    .key_u64("latency", Unit::Cycles, rows.iter().map(|x| x.0.latency));
    let runs: Vec<&RunRow> = rows.iter().map(|x| x.3).collect();
    run_columns(b, &runs)
        .u64(
            "nbtc_buffer_bytes",
            Unit::Bytes,
            Mean::Same,
            rows.iter().map(|x| x.4),
        )
        .bool("main", Mean::Same, rows.iter().map(|x| x.1))
        .build()
}

/// A row per field of each of the NBTC's buffers at the unit's sizes.
fn storage(r: &NbtcReport) -> Result<Table, TableError> {
    let s = &r.storage;
    let rows: Vec<_> = [("rb", &s.rb), ("wlb", &s.wlb), ("bab", &s.bab)]
        .into_iter()
        .flat_map(|(name, b)| b.fields.iter().map(move |f| (name, b, f)))
        .collect();
    TableBuilder::new(
        "storage",
        "a field of an entry of one of the NBTC's buffers",
    )
    .key("buffer", rows.iter().map(|x| x.0))
    .u64(
        "entries",
        Unit::Count,
        Mean::Same,
        rows.iter().map(|x| Some(u64::from(x.1.entries))),
    )
    .key("field", rows.iter().map(|x| x.2.name.clone()))
    .u64(
        "bits",
        Unit::Bits,
        Mean::Same,
        rows.iter().map(|x| Some(u64::from(x.2.bits))),
    )
    .u64(
        "entry_bits",
        Unit::Bits,
        Mean::Same,
        rows.iter().map(|x| Some(u64::from(x.1.entry_bits))),
    )
    .u64(
        "buffer_bits",
        Unit::Bits,
        Mean::Same,
        rows.iter().map(|x| Some(x.1.bits)),
    )
    .build()
}

/// Each of the slides' numbers, on each filter mode, beside ours: the
/// NBTC's cycles change at 50 and 300 cycles and its largest traffic
/// change over the latencies run (empty where we did not run it).
fn paper(r: &NbtcReport) -> Result<Table, TableError> {
    let mut rows: Vec<PaperRow> = Vec::new();
    for f in &r.frames {
        for &(latency, paper) in &r.paper.cycles_change {
            let ours = f.row(Mode::Nbtc, latency).map(|row| row.cycles_change);
            rows.push(PaperRow {
                filter: &f.filter,
                metric: "cycles_change",
                latency: Some(latency),
                paper,
                ours,
            });
        }
        let nbtc = f.runs.iter().filter(|row| row.mode == Mode::Nbtc);
        let most = nbtc.max_by(|a, b| a.traffic_change.total_cmp(&b.traffic_change));
        rows.push(PaperRow {
            filter: &f.filter,
            metric: "traffic_change_max",
            latency: most.map(|row| row.latency),
            paper: r.paper.traffic_change_max,
            ours: most.map(|row| row.traffic_change),
        });
    }
    TableBuilder::new(
        "paper",
        "one of the slides' numbers on the frame of a filter mode, beside ours",
    )
    .key("filter", rows.iter().map(|x| x.filter))
    .key("metric", rows.iter().map(|x| x.metric))
    .u64(
        "latency",
        Unit::Cycles,
        Mean::Key,
        rows.iter().map(|x| x.latency),
    )
    .f64(
        "paper_percent",
        Unit::Percent,
        Mean::Same,
        rows.iter().map(|x| Some(x.paper)),
    )
    .f64(
        "ours_percent",
        Unit::Percent,
        Mean::Average,
        rows.iter().map(|x| x.ours),
    )
    .build()
}

impl gfxcache_report::Report for NbtcReport {
    fn tables(&self) -> Result<Vec<Table>, TableError> {
        let mut out = vec![runs(self)?, sweeps(self)?, paper(self)?, storage(self)?];
        if let Some(m) = &self.machine {
            out.push(m.table()?);
        }
        Ok(out)
    }

    fn figures(&self) -> Vec<gfxcache_report::Figure> {
        super::figures::figures(self)
    }

    fn suite_figures(scenes: &[&NbtcReport]) -> Vec<gfxcache_report::Figure> {
        super::figures::suite_figures(scenes)
    }

    fn page(&self) -> Result<gfxcache_report::Page, TableError> {
        Ok(super::page::page(self))
    }

    fn suite_page(scenes: &[(&str, &NbtcReport)]) -> Result<gfxcache_report::Page, TableError> {
        Ok(super::page::suite_page(scenes))
    }
}
