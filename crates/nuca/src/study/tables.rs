//! The study's report as tidy tables ([`gfxcache_report::Report`]):
//! `organizations` (Figures 6, 8, 9, 10: a row per organization on the
//! main frame, each figure beside the counts it comes from and the
//! paper's value where it gives one), `replication` (Figure 1: a row per
//! number of private caches holding a block, and the paper's share in
//! more than one as a reference row), `capacity` (Figure 7: a row per
//! private size, and per size the paper names as a DTM-NUCA form's
//! effective capacity), `scaling` (Figure 11), `sweeps` (a row per knob
//! value and organization swept, the machine's own value marked `main`),
//! `assignments` and, when the study ran on a machine, `machine`. The
//! figures over them are [`super::figures`].
//!
//! The paper's numbers by organization, the charts' metrics and the
//! sweeps' values are listed once here, for the tables, the figures, the
//! page and the summary.

use gfxcache_report::{Mean, Table, TableBuilder, TableError, Unit};

use crate::replay::OrgKind;
use crate::study::paper::{PaperNumbers, PAPER_ORGANIZATIONS, REPLICATION_FPS};
use crate::study::report::{Figures, NucaReport, OrgRow};

/// The names of [`Figures`]' fields, as the tables' columns.
pub const FIGURE_COLUMNS: [&str; 15] = [
    "local_hit_percent",
    "remote_hit_percent",
    "l2_hit_percent",
    "l2_miss_percent",
    "l2_texture_change_percent",
    "l2_all_change_percent",
    "speedup_percent",
    "energy_change_percent",
    "gpu_energy_change_percent",
    "memory_energy_change_percent",
    "mean_latency_cycles",
    "bus_utilisation_percent",
    "bus_mean_wait_cycles",
    "fp_issue_rate",
    "fp_busy_percent",
];

/// The unit of each of [`FIGURE_COLUMNS`].
const FIGURE_UNITS: [Unit; 15] = [
    Unit::Percent,
    Unit::Percent,
    Unit::Percent,
    Unit::Percent,
    Unit::Percent,
    Unit::Percent,
    Unit::Percent,
    Unit::Percent,
    Unit::Percent,
    Unit::Percent,
    Unit::Cycles,
    Unit::Percent,
    Unit::Cycles,
    Unit::Ratio,
    Unit::Percent,
];

/// [`Figures`]' fields in [`FIGURE_COLUMNS`]' order.
pub fn figure_values(f: &Figures) -> [f64; 15] {
    [
        f.local_hit_percent,
        f.remote_hit_percent,
        f.l2_hit_percent,
        f.l2_miss_percent,
        f.l2_texture_change_percent,
        f.l2_all_change_percent,
        f.speedup_percent,
        f.energy_change_percent,
        f.gpu_energy_change_percent,
        f.memory_energy_change_percent,
        f.mean_latency_cycles,
        f.bus_utilisation_percent,
        f.bus_mean_wait_cycles,
        f.fp_issue_rate,
        f.fp_busy_percent,
    ]
}

/// The paper's value of `kind` among `values`, given in
/// [`PAPER_ORGANIZATIONS`]' order (D-NUCA, DTM-NUCA, its distributed form).
pub fn paper_of(kind: OrgKind, values: &[f64; 3]) -> Option<f64> {
    PAPER_ORGANIZATIONS
        .iter()
        .position(|&k| k == kind)
        .map(|i| values[i])
}

/// The paper's Figure 11 speedup of `kind` with `fps` fragment processors:
/// it gives DTM-NUCA's and its distributed form's with 4 and with 32.
pub fn paper_scaling(paper: &PaperNumbers, kind: OrgKind, fps: usize) -> Option<f64> {
    let pair = match fps {
        4 => &paper.speedup_p4_percent,
        32 => &paper.speedup_p32_percent,
        _ => return None,
    };
    match kind {
        OrgKind::Dtm => Some(pair[0]),
        OrgKind::DtmDist => Some(pair[1]),
        _ => None,
    }
}

/// The paper's Figure 7 effective capacity of `kind`, in bytes: the private
/// size DTM-NUCA's 16 KiB caches match in L2 accesses.
pub fn paper_effective_bytes(paper: &PaperNumbers, kind: OrgKind) -> Option<u64> {
    match kind {
        OrgKind::Dtm => Some(paper.effective_kib[0] * 1024),
        OrgKind::DtmDist => Some(paper.effective_kib[1] * 1024),
        _ => None,
    }
}

/// `sizes` and the paper's Figure 7 sizes, in order: where Figure 7's
/// flat lines run, so that the paper's marks sit on them.
pub fn capacity_axis(sizes: impl IntoIterator<Item = u64>, paper: &PaperNumbers) -> Vec<u64> {
    let marks = [OrgKind::Dtm, OrgKind::DtmDist]
        .into_iter()
        .filter_map(|k| paper_effective_bytes(paper, k));
    let mut all: Vec<u64> = sizes.into_iter().chain(marks).collect();
    all.sort_unstable();
    all.dedup();
    all
}

/// What a chart or a table shows of an organization's figures: its name
/// in the charts, its column, its value, and the paper's value of it (and
/// that value's column) if the paper gives one.
#[derive(Clone, Copy)]
pub struct Metric {
    pub name: &'static str,
    pub column: &'static str,
    pub of: fn(&Figures) -> f64,
    pub paper_column: &'static str,
    pub paper: Option<fn(&PaperNumbers) -> &[f64; 3]>,
}

/// Figure 6, texture requests: the paper's "L2 accesses" beside it.
pub const L2_TEXTURE: Metric = Metric {
    name: "L2 texture requests vs private %",
    column: "l2_texture_change_percent",
    of: |f| f.l2_texture_change_percent,
    paper_column: "paper_l2_accesses_percent",
    paper: Some(paper_l2),
};
/// Figure 6, every stream: the paper's one "L2 accesses" number beside it
/// too, since the paper does not say which streams it counts.
pub const L2_ALL: Metric = Metric {
    name: "L2 accesses (all streams) vs private %",
    column: "l2_all_change_percent",
    of: |f| f.l2_all_change_percent,
    paper_column: "paper_l2_accesses_percent",
    paper: Some(paper_l2),
};
pub const LOCAL_HITS: Metric = Metric {
    name: "local hits %",
    column: "local_hit_percent",
    of: |f| f.local_hit_percent,
    paper_column: "paper_local_hit_percent",
    paper: Some(paper_local_hits),
};
pub const SPEEDUP: Metric = Metric {
    name: "speedup over private %",
    column: "speedup_percent",
    of: |f| f.speedup_percent,
    paper_column: "paper_speedup_percent",
    paper: Some(paper_speedup),
};
pub const ENERGY: Metric = Metric {
    name: "energy vs private %",
    column: "energy_change_percent",
    of: |f| f.energy_change_percent,
    paper_column: "paper_energy_percent",
    paper: Some(paper_energy),
};

/// The metrics the paper gives a value of per organization, each once
/// (the organizations table's paper columns).
const PAPER_METRICS: [Metric; 4] = [LOCAL_HITS, L2_TEXTURE, SPEEDUP, ENERGY];

fn paper_l2(p: &PaperNumbers) -> &[f64; 3] {
    &p.l2_accesses_percent
}

fn paper_local_hits(p: &PaperNumbers) -> &[f64; 3] {
    &p.local_hits_percent
}

fn paper_speedup(p: &PaperNumbers) -> &[f64; 3] {
    &p.speedup_percent
}

fn paper_energy(p: &PaperNumbers) -> &[f64; 3] {
    &p.energy_percent
}

impl Metric {
    /// The paper's value of `kind`, if it gives one.
    pub fn paper(&self, paper: &PaperNumbers, kind: OrgKind) -> Option<f64> {
        paper_of(kind, (self.paper?)(paper))
    }
}

/// DTM-NUCA-Dist's figures under each reading of the announced count the
/// report holds: (reading, whether it is the main one, figures), the main
/// first; empty without the distributed row or the other reading.
pub fn announced_readings(r: &NucaReport) -> Vec<(String, bool, Figures)> {
    let Some(main) = r.row(OrgKind::DtmDist) else {
        return Vec::new();
    };
    let others: Vec<_> = r
        .sweeps
        .iter()
        .filter(|p| p.knob == "announced_count" && p.organization == OrgKind::DtmDist)
        .map(|p| (p.value.clone(), false, p.figures))
        .collect();
    if others.is_empty() {
        return Vec::new();
    }
    let name = r.config.announced_count.name().to_string();
    std::iter::once((name, true, main.figures))
        .chain(others)
        .collect()
}

/// The machine's value of `knob`, as the sweeps write values.
fn main_value(r: &NucaReport, knob: &str) -> Option<String> {
    let m = &r.config;
    Some(match knob {
        "epoch" => m.epoch.to_string(),
        "buckets" => m.buckets.to_string(),
        "counter_bits" => m.counter_bits.to_string(),
        "page_blocks" => m.page_blocks.to_string(),
        "order" => m.timing.order.name().to_string(),
        "context_unit" => m.timing.context_unit.name().to_string(),
        "tc_index" => m.tc_index.name().to_string(),
        "announced_count" => m.announced_count.name().to_string(),
        _ => return None,
    })
}

/// The values of `knob` swept and the machine's, in order (numbers by
/// value), each with whether it is the machine's.
pub fn knob_values(r: &NucaReport, knob: &str) -> Vec<(String, bool)> {
    let main = main_value(r, knob);
    let mut values: Vec<String> = Vec::new();
    let swept = r.sweeps.iter().filter(|p| p.knob == knob);
    for v in swept.map(|p| p.value.clone()).chain(main.clone()) {
        if !values.contains(&v) {
            values.push(v);
        }
    }
    values.sort_by_key(|v| (v.parse::<u64>().unwrap_or(u64::MAX), v.clone()));
    values
        .into_iter()
        .map(|v| {
            let is_main = main.as_deref() == Some(v.as_str());
            (v, is_main)
        })
        .collect()
}

/// The organizations swept on `knob`, in the order first met.
pub fn swept_organizations(r: &NucaReport, knob: &str) -> Vec<OrgKind> {
    let mut kinds = Vec::new();
    for p in r.sweeps.iter().filter(|p| p.knob == knob) {
        if !kinds.contains(&p.organization) {
            kinds.push(p.organization);
        }
    }
    kinds
}

/// The figures of `kind` with `knob` at `value`: the sweep's, or the main
/// run's at the machine's value.
pub fn swept(
    r: &NucaReport,
    knob: &str,
    (value, is_main): &(String, bool),
    kind: OrgKind,
) -> Option<Figures> {
    if *is_main {
        return r.row(kind).map(|row| row.figures);
    }
    r.sweeps
        .iter()
        .find(|p| p.knob == knob && &p.value == value && p.organization == kind)
        .map(|p| p.figures)
}

/// The knobs swept, in the order first met.
pub fn knobs(r: &NucaReport) -> Vec<&str> {
    let mut knobs: Vec<&str> = Vec::new();
    for p in &r.sweeps {
        if !knobs.contains(&p.knob.as_str()) {
            knobs.push(&p.knob);
        }
    }
    knobs
}

/// [`FIGURE_COLUMNS`] from `figures`, a row each: shares and changes
/// against private caches, which a suite averages.
fn figure_columns(mut b: TableBuilder, figures: &[Figures]) -> TableBuilder {
    for (i, (name, unit)) in FIGURE_COLUMNS.iter().zip(FIGURE_UNITS).enumerate() {
        let values = figures.iter().map(|f| Some(figure_values(f)[i]));
        b = b.f64(name, unit, Mean::Average, values);
    }
    b
}

/// A column of the organizations table: a count of a run (not averaged
/// over a suite: it differs by scene), an amount of a run (likewise), or
/// one of its figures (averaged).
enum OrgColumn {
    Count(&'static str, Unit, fn(&OrgRow) -> u64),
    Amount(&'static str, Unit, fn(&OrgRow) -> f64),
    Against(&'static str, Unit, fn(&Figures) -> f64),
}

use OrgColumn::{Against, Amount, Count};

/// The organizations table's columns after `organization`, in order.
const ORG_COLUMNS: [OrgColumn; 46] = [
    Count("texture_accesses", Unit::Count, |x| {
        x.result.stats.texture_accesses
    }),
    Count("local_hits", Unit::Count, |x| x.result.stats.local_hits),
    Count("remote_hits", Unit::Count, |x| x.result.stats.remote_hits),
    Count("l2_hits", Unit::Count, |x| x.result.stats.l2_hits),
    Count("l2_misses", Unit::Count, |x| x.result.stats.l2_misses),
    Against("local_hit_percent", Unit::Percent, |f| f.local_hit_percent),
    Against("remote_hit_percent", Unit::Percent, |f| {
        f.remote_hit_percent
    }),
    Against("l2_hit_percent", Unit::Percent, |f| f.l2_hit_percent),
    Against("l2_miss_percent", Unit::Percent, |f| f.l2_miss_percent),
    Count("l2_texture_requests", Unit::Count, |x| {
        x.result.stats.l2_requests
    }),
    Against("l2_texture_change_percent", Unit::Percent, |f| {
        f.l2_texture_change_percent
    }),
    Count("l2_all_accesses", Unit::Count, |x| {
        x.result.l2.texture_requests + x.result.l2.other_accesses
    }),
    Against("l2_all_change_percent", Unit::Percent, |f| {
        f.l2_all_change_percent
    }),
    Count("cycles", Unit::Cycles, |x| x.result.timing.cycles),
    Against("speedup_percent", Unit::Percent, |f| f.speedup_percent),
    Against("mean_latency_cycles", Unit::Cycles, |f| {
        f.mean_latency_cycles
    }),
    Amount("energy_gpu_nj", Unit::Nanojoules, |x| {
        x.result.energy.gpu_nj
    }),
    Amount("energy_memory_nj", Unit::Nanojoules, |x| {
        x.result.energy.memory_nj
    }),
    Amount("energy_total_nj", Unit::Nanojoules, |x| {
        x.result.energy.total_nj
    }),
    Against("gpu_energy_change_percent", Unit::Percent, |f| {
        f.gpu_energy_change_percent
    }),
    Against("memory_energy_change_percent", Unit::Percent, |f| {
        f.memory_energy_change_percent
    }),
    Against("energy_change_percent", Unit::Percent, |f| {
        f.energy_change_percent
    }),
    Count("mesh_flit_hops", Unit::Count, |x| x.result.mesh.flit_hops),
    Count("broadcasts", Unit::Count, |x| x.result.stats.broadcasts),
    Count("epochs", Unit::Count, |x| x.result.stats.epochs),
    Count("ownership_changes", Unit::Count, |x| {
        x.result.stats.ownership_changes
    }),
    Count("bus_transfers", Unit::Count, |x| x.result.bus.transfers),
    Count("bus_busy_cycles", Unit::Cycles, |x| {
        x.result.bus.busy_cycles
    }),
    Against("bus_utilisation_percent", Unit::Percent, |f| {
        f.bus_utilisation_percent
    }),
    Count("bus_queue_cycles", Unit::Cycles, |x| {
        x.result.bus.queue_cycles
    }),
    Against("bus_mean_wait_cycles", Unit::Cycles, |f| {
        f.bus_mean_wait_cycles
    }),
    Count("bus_max_wait_cycles", Unit::Cycles, |x| {
        x.result.bus.max_wait_cycles
    }),
    Count("dram_bank_reads", Unit::Count, |x| x.result.dram.reads),
    Count("dram_row_conflicts", Unit::Count, |x| {
        x.result.dram.row_conflicts
    }),
    Count("dram_wait_cycles", Unit::Cycles, |x| {
        x.result.dram.wait_cycles
    }),
    Amount("dram_mean_wait_cycles", Unit::Cycles, |x| {
        x.result.dram.mean_wait_cycles()
    }),
    Count("other_timed", Unit::Count, |x| x.result.l2.other_timed),
    Count("other_port_wait_cycles", Unit::Cycles, |x| {
        x.result.l2.other_port_wait_cycles
    }),
    Count("other_bank_wait_cycles", Unit::Cycles, |x| {
        x.result.l2.other_bank_wait_cycles
    }),
    Count("dram_other_reads", Unit::Count, |x| {
        x.result.dram.other_reads
    }),
    Count("dram_other_wait_cycles", Unit::Cycles, |x| {
        x.result.dram.other_wait_cycles
    }),
    Count("dram_writes", Unit::Count, |x| x.result.dram.writes),
    Count("dram_write_wait_cycles", Unit::Cycles, |x| {
        x.result.dram.write_wait_cycles
    }),
    Count("tile_buffer_wait_cycles", Unit::Cycles, |x| {
        x.result.l2.tile_buffer_wait_cycles
    }),
    Against("fp_issue_rate", Unit::Ratio, |f| f.fp_issue_rate),
    Against("fp_busy_percent", Unit::Percent, |f| f.fp_busy_percent),
];

/// Per organization on the main frame: where its texture accesses were
/// served, the L2's accesses, time, energy, the mesh and the bus, each
/// figure beside the count it comes from; then the paper's values.
fn organizations(r: &NucaReport) -> Result<Table, TableError> {
    let rows = &r.organizations;
    let mut b = TableBuilder::new(
        "organizations",
        "an organization on the main frame, against private caches",
    )
    .key("organization", rows.iter().map(|x| x.organization.name()));
    for c in &ORG_COLUMNS {
        b = match *c {
            Count(name, unit, of) => {
                b.u64(name, unit, Mean::Blank, rows.iter().map(|x| Some(of(x))))
            }
            Amount(name, unit, of) => {
                b.f64(name, unit, Mean::Blank, rows.iter().map(|x| Some(of(x))))
            }
            Against(name, unit, of) => b.f64(
                name,
                unit,
                Mean::Average,
                rows.iter().map(|x| Some(of(&x.figures))),
            ),
        };
    }
    for m in PAPER_METRICS {
        let paper = rows.iter().map(|x| m.paper(&r.paper, x.organization));
        b = b.f64(m.paper_column, Unit::Percent, Mean::Same, paper);
    }
    b.build()
}

/// Figure 1: per number of private caches holding the block after a
/// texture access, the share of the accesses, and the share in more than
/// one; the paper's share in more than one (with its 4 caches) as a
/// reference row.
fn replication(r: &NucaReport) -> Result<Table, TableError> {
    /// A row: fragment processors, caches holding the block, the share
    /// of the accesses, the share in more than one, the reference.
    struct Row {
        fps: usize,
        caches: Option<u64>,
        share: Option<f64>,
        replicated: f64,
        reference: Option<String>,
    }
    let p = &r.replication;
    let mut rows: Vec<Row> = p
        .in_caches_percent
        .iter()
        .enumerate()
        .skip(1)
        .map(|(n, &v)| Row {
            fps: p.fps,
            caches: Some(n as u64),
            share: Some(v),
            replicated: p.replicated_percent,
            reference: None,
        })
        .collect();
    rows.push(Row {
        fps: REPLICATION_FPS,
        caches: None,
        share: None,
        replicated: r.paper.replicated_percent,
        reference: Some("paper".to_string()),
    });
    TableBuilder::new(
        "replication",
        "a number of private caches holding a block after a texture access, with the fewest \
         fragment processors studied",
    )
    .key_u64(
        "fragment_processors",
        Unit::Count,
        rows.iter().map(|x| x.fps as u64),
    )
    .u64(
        "caches",
        Unit::Count,
        Mean::Key,
        rows.iter().map(|x| x.caches),
    )
    .f64(
        "share_percent",
        Unit::Percent,
        Mean::Average,
        rows.iter().map(|x| x.share),
    )
    .f64(
        "replicated_percent",
        Unit::Percent,
        Mean::Average,
        rows.iter().map(|x| Some(x.replicated)),
    )
    .text(
        "reference",
        Mean::Reference,
        rows.iter().map(|x| x.reference.clone()),
    )
    .build()
}

/// Figure 7: private caches of each size, their L2 requests against the
/// main size's, DTM-NUCA's L2 requests (at the main size) on every row
/// for reference; then each size the paper gives as a DTM-NUCA form's
/// effective capacity that was not studied, with nothing measured.
fn capacity(r: &NucaReport) -> Result<Table, TableError> {
    let l2 = |kind| r.row(kind).map(|row| row.result.stats.l2_requests);
    let (dtm, dist) = (l2(OrgKind::Dtm), l2(OrgKind::DtmDist));
    let mut sizes: Vec<u64> = r.capacity.iter().map(|p| p.tc_bytes).collect();
    for b in capacity_axis([], &r.paper) {
        if !sizes.contains(&b) {
            sizes.push(b);
        }
    }
    let point = |b: u64| r.capacity.iter().find(|p| p.tc_bytes == b);
    let effective = |b: u64| {
        let kinds: Vec<&str> = [OrgKind::Dtm, OrgKind::DtmDist]
            .into_iter()
            .filter(|&k| paper_effective_bytes(&r.paper, k) == Some(b))
            .map(OrgKind::name)
            .collect();
        (!kinds.is_empty()).then(|| kinds.join(" "))
    };
    TableBuilder::new(
        "capacity",
        "a private texture cache size, studied or given by the paper as a DTM-NUCA form's \
         effective capacity",
    )
    .key_u64("tc_bytes", Unit::Bytes, sizes.iter().copied())
    .u64(
        "l2_requests",
        Unit::Count,
        Mean::Blank,
        sizes.iter().map(|&b| Some(point(b)?.l2_requests)),
    )
    .f64(
        "local_hit_percent",
        Unit::Percent,
        Mean::Average,
        sizes.iter().map(|&b| Some(point(b)?.local_hit_percent)),
    )
    .u64(
        "cycles",
        Unit::Cycles,
        Mean::Blank,
        sizes.iter().map(|&b| Some(point(b)?.cycles)),
    )
    .u64(
        "dtm_l2_requests",
        Unit::Count,
        Mean::Blank,
        sizes.iter().map(|_| dtm),
    )
    .u64(
        "dtm_dist_l2_requests",
        Unit::Count,
        Mean::Blank,
        sizes.iter().map(|_| dist),
    )
    .f64(
        "l2_change_percent",
        Unit::Percent,
        Mean::Average,
        sizes.iter().map(|&b| r.capacity_change(b)),
    )
    .text(
        "paper_effective",
        Mean::Same,
        sizes.iter().map(|&b| effective(b)),
    )
    .build()
}

/// Figure 11: every organization with each number of fragment processors,
/// the paper's speedup beside where it gives one.
fn scaling(r: &NucaReport) -> Result<Table, TableError> {
    let rows: Vec<(usize, &OrgRow)> = r
        .scaling
        .iter()
        .flat_map(|p| p.rows.iter().map(move |row| (p.fps, row)))
        .collect();
    let figures: Vec<Figures> = rows.iter().map(|x| x.1.figures).collect();
    let b = TableBuilder::new(
        "scaling",
        "an organization with a number of fragment processors, against private caches with as \
         many",
    )
    .key_u64(
        "fragment_processors",
        Unit::Count,
        rows.iter().map(|x| x.0 as u64),
    )
    .key("organization", rows.iter().map(|x| x.1.organization.name()));
    figure_columns(b, &figures)
        .f64(
            SPEEDUP.paper_column,
            Unit::Percent,
            Mean::Same,
            rows.iter()
                .map(|x| paper_scaling(&r.paper, x.1.organization, x.0)),
        )
        .build()
}

/// Each knob (in the order first met), each value swept and the machine's
/// (in order, the machine's marked `main`: the main run), each
/// organization swept.
fn sweeps(r: &NucaReport) -> Result<Table, TableError> {
    // (knob, value, organization, figures, main)
    let mut rows: Vec<(&str, String, OrgKind, Figures, bool)> = Vec::new();
    for knob in knobs(r) {
        let kinds = swept_organizations(r, knob);
        for v in knob_values(r, knob) {
            for &k in &kinds {
                if let Some(f) = swept(r, knob, &v, k) {
                    rows.push((knob, v.0.clone(), k, f, v.1));
                }
            }
        }
    }
    let figures: Vec<Figures> = rows.iter().map(|x| x.3).collect();
    let b = TableBuilder::new(
        "sweeps",
        "an organization with one knob at one value, the others at the machine's",
    )
    .key("knob", rows.iter().map(|x| x.0))
    .key("value", rows.iter().map(|x| x.1.clone()))
    .key("organization", rows.iter().map(|x| x.2.name()));
    figure_columns(b, &figures)
        .bool("main", Mean::Same, rows.iter().map(|x| x.4))
        .build()
}

/// Every organization on the frame of each quad assignment.
fn assignments(r: &NucaReport) -> Result<Table, TableError> {
    let rows: Vec<(&str, &OrgRow)> = r
        .assignments
        .iter()
        .flat_map(|p| p.rows.iter().map(move |row| (p.assignment.as_str(), row)))
        .collect();
    let figures: Vec<Figures> = rows.iter().map(|x| x.1.figures).collect();
    let b = TableBuilder::new(
        "assignments",
        "an organization on the frame of a quad assignment, against private caches of that frame",
    )
    .key("assignment", rows.iter().map(|x| x.0))
    .key("organization", rows.iter().map(|x| x.1.organization.name()));
    figure_columns(b, &figures).build()
}

impl gfxcache_report::Report for NucaReport {
    fn tables(&self) -> Result<Vec<Table>, TableError> {
        let mut out = vec![
            organizations(self)?,
            replication(self)?,
            capacity(self)?,
            scaling(self)?,
            sweeps(self)?,
            assignments(self)?,
        ];
        if let Some(m) = &self.machine {
            out.push(m.table()?);
        }
        Ok(out)
    }

    fn figures(&self) -> Vec<gfxcache_report::Figure> {
        super::figures::figures(self)
    }

    fn suite_figures(scenes: &[&NucaReport]) -> Vec<gfxcache_report::Figure> {
        super::figures::suite_figures(scenes)
    }

    fn page(&self) -> Result<gfxcache_report::Page, TableError> {
        Ok(super::page::page(self))
    }

    fn suite_page(scenes: &[(&str, &NucaReport)]) -> Result<gfxcache_report::Page, TableError> {
        Ok(super::page::suite_page(scenes))
    }
}
