//! The composed study's report as tidy tables
//! ([`gfxcache_report::Report`]): `runs`, a row per miss handling (`l1`)
//! and placement: the frame's cycles, the three speedups
//! ([`ComposedRun`]), where the placement served the accesses, the
//! units' stalls, what the L2 and the bus did, and the counts behind
//! them; and, when the report holds the machine's description,
//! `machine`. A suite averages the speedups, shares and waits (each
//! scene weighs the same); counts, which differ by scene, are not
//! averaged.

use gfxcache_report::{Mean, Table, TableBuilder, TableError, Unit};

use super::{ComposeReport, ComposedRun};

/// A measure of a run averaged over a suite's scenes: its column, unit
/// and value.
type Measure = (&'static str, Unit, fn(&ComposedRun) -> f64);

/// The measures, in the page's order.
pub const MEASURES: [Measure; 12] = [
    ("speedup", Unit::Ratio, |r| r.speedup),
    ("placement_speedup", Unit::Ratio, |r| r.placement_speedup),
    ("interaction", Unit::Ratio, |r| r.interaction),
    ("local_percent", Unit::Percent, |r| 100.0 * r.local_share()),
    ("remote_percent", Unit::Percent, |r| {
        100.0 * r.remote_share()
    }),
    ("l2_percent", Unit::Percent, |r| 100.0 * r.l2_share()),
    ("stall_percent", Unit::Percent, |r| 100.0 * r.stall_share()),
    ("l2_hit_rate_percent", Unit::Percent, |r| {
        100.0 * r.l2_hit_rate()
    }),
    ("bus_utilisation_percent", Unit::Percent, |r| {
        100.0 * r.bus_utilisation()
    }),
    ("bus_mean_wait_cycles", Unit::Cycles, |r| {
        r.machine.bus.mean_wait_cycles()
    }),
    ("bus_max_wait_cycles", Unit::Cycles, |r| {
        r.machine.bus.max_wait_cycles as f64
    }),
    ("dram_mean_wait_cycles", Unit::Cycles, |r| {
        r.machine.dram.mean_wait_cycles()
    }),
];

/// A count of a run: its column, unit and value.
type Count = (&'static str, Unit, fn(&ComposedRun) -> u64);

/// The counts behind the measures.
pub const COUNTS: [Count; 26] = [
    ("unit_cycles", Unit::Cycles, |r| r.total.cycles),
    ("stalled_cycles", Unit::Cycles, |r| r.total.stalled_cycles()),
    ("requests", Unit::Count, |r| r.total.requests),
    ("texel_lookups", Unit::Count, |r| r.total.texel_lookups),
    ("memory_requests", Unit::Count, |r| r.total.memory_requests),
    ("accesses", Unit::Count, |r| r.machine.served.accesses),
    ("local_hits", Unit::Count, |r| r.machine.served.local_hits),
    ("remote_hits", Unit::Count, |r| r.machine.served.remote_hits),
    ("l2_requests", Unit::Count, |r| r.machine.served.l2_requests),
    ("l2_requests_by_owner", Unit::Count, |r| {
        r.machine.served.l2_requests_by_owner
    }),
    ("merged_lookups", Unit::Count, |r| {
        r.machine.served.merged_lookups
    }),
    ("table_updates", Unit::Count, |r| {
        r.machine.side.table_updates
    }),
    ("epochs", Unit::Count, |r| r.machine.side.epochs),
    ("ownership_changes", Unit::Count, |r| {
        r.machine.side.ownership_changes
    }),
    ("dram_reads", Unit::Count, |r| r.machine.l2.dram_reads),
    ("dram_wait_cycles", Unit::Cycles, |r| {
        r.machine.dram.wait_cycles
    }),
    ("bus_transfers", Unit::Count, |r| r.machine.bus.transfers),
    ("bus_busy_cycles", Unit::Cycles, |r| {
        r.machine.bus.busy_cycles
    }),
    ("mesh_flit_hops", Unit::Count, |r| r.machine.mesh.flit_hops),
    ("other_accesses", Unit::Count, |r| {
        r.machine.l2.other_accesses
    }),
    ("other_timed", Unit::Count, |r| r.machine.l2.other_timed),
    ("other_port_wait_cycles", Unit::Cycles, |r| {
        r.machine.l2.other_port_wait_cycles
    }),
    ("other_bank_wait_cycles", Unit::Cycles, |r| {
        r.machine.l2.other_bank_wait_cycles
    }),
    ("dram_other_reads", Unit::Count, |r| {
        r.machine.dram.other_reads
    }),
    ("dram_writes", Unit::Count, |r| r.machine.dram.writes),
    ("tile_buffer_wait_cycles", Unit::Cycles, |r| {
        r.machine.l2.tile_buffer_wait_cycles
    }),
];

/// A row per run, in the report's order.
fn runs(r: &ComposeReport) -> Result<Table, TableError> {
    let mut b = TableBuilder::new(
        "runs",
        "a miss handling of the texture units (l1) under a placement of their texture caches",
    )
    .key("l1", r.runs.iter().map(|x| x.mode.clone()))
    .key("placement", r.runs.iter().map(|x| x.placement.name()))
    .u64(
        "frame_cycles",
        Unit::Cycles,
        Mean::Blank,
        r.runs.iter().map(|x| Some(x.frame_cycles)),
    );
    for (name, unit, of) in MEASURES {
        b = b.f64(
            name,
            unit,
            Mean::Average,
            r.runs.iter().map(|x| Some(of(x))),
        );
    }
    for (name, unit, of) in COUNTS {
        b = b.u64(name, unit, Mean::Blank, r.runs.iter().map(|x| Some(of(x))));
    }
    b.build()
}

impl gfxcache_report::Report for ComposeReport {
    fn tables(&self) -> Result<Vec<Table>, TableError> {
        let mut out = vec![runs(self)?];
        if let Some(m) = &self.config.description {
            out.push(m.table()?);
        }
        Ok(out)
    }

    fn figures(&self) -> Vec<gfxcache_report::Figure> {
        super::figures::figures(self)
    }

    fn suite_figures(scenes: &[&ComposeReport]) -> Vec<gfxcache_report::Figure> {
        super::figures::suite_figures(scenes)
    }

    fn page(&self) -> Result<gfxcache_report::Page, TableError> {
        Ok(super::page::page(self))
    }

    fn suite_page(scenes: &[(&str, &ComposeReport)]) -> Result<gfxcache_report::Page, TableError> {
        Ok(super::page::suite_page(scenes))
    }
}
