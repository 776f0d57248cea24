//! What `gfxcache nuca` prints without `--json`: the organizations'
//! figures beside the paper's, Figure 1's replication, Figure 7's
//! effective capacity and Figure 11 in a line per number of fragment
//! processors.

use gfxcache_cache::format_size;
use gfxcache_nuca::study::paper::PaperNumbers;
use gfxcache_nuca::study::{Figures, NucaReport};
use gfxcache_nuca::{OrgKind, OtherTraffic};

use super::{
    paper_effective_bytes, paper_scaling, share, signed, ENERGY, L2_TEXTURE, LOCAL_HITS, SPEEDUP,
};
use crate::table::{thousands, Table};

/// The summary.
pub fn text(r: &NucaReport) -> String {
    let f = &r.frame;
    let mut out = format!(
        "DTM-NUCA study of {} ({} fragment processors with texture caches of {}, {} quad assignment): {} tiles, {} texture requests, {} texture block accesses, {} other L2 accesses\n\n",
        r.scene.as_deref().unwrap_or(&r.requests),
        f.fps,
        format_size(r.config.tc_bytes),
        f.assignment,
        thousands(f.tiles),
        thousands(f.texture_requests),
        thousands(f.texture_accesses),
        thousands(f.other_accesses),
    );
    let rows: Vec<(OrgKind, Figures)> = r
        .organizations
        .iter()
        .map(|row| (row.organization, row.figures))
        .collect();
    out += &organizations(&rows, &r.paper);
    out += &bus(r);
    out += &dram(r);
    out += &other_traffic(r);
    out += &announced(r);
    let p = &r.replication;
    out += &format!(
        "\nFigure 1: with {} private caches, {} of texture accesses find their block in more than one (paper, 4 caches: {})\n",
        p.fps,
        share(p.replicated_percent),
        share(r.paper.replicated_percent)
    );
    out += &capacity(r);
    out += &scaling(r);
    out
}

/// A row per organization, ours and then, where the paper gives them, the
/// paper's.
pub(super) fn organizations(rows: &[(OrgKind, Figures)], paper: &PaperNumbers) -> String {
    let mut t = Table::new([
        "organization",
        "",
        "local",
        "remote",
        "L2",
        "L2 requests",
        "speedup",
        "energy",
    ])
    .left(1);
    for &(k, ref f) in rows {
        t.row([
            k.name().to_string(),
            "ours".into(),
            share(f.local_hit_percent),
            share(f.remote_hit_percent),
            share(f.l2_hit_percent + f.l2_miss_percent),
            signed(f.l2_texture_change_percent),
            signed(f.speedup_percent),
            signed(f.energy_change_percent),
        ]);
        let paper = |m: super::Metric| m.paper(paper, k);
        if let Some(local) = paper(LOCAL_HITS) {
            let or_dash = |v: Option<f64>| v.map_or("-".to_string(), signed);
            t.row([
                String::new(),
                "paper".into(),
                share(local),
                "-".into(),
                "-".into(),
                or_dash(paper(L2_TEXTURE)),
                or_dash(paper(SPEEDUP)),
                or_dash(paper(ENERGY)),
            ]);
        }
    }
    format!(
        "Against private caches (local, remote, L2: shares of texture accesses)\n{}",
        t.render()
    )
}

/// The bus to the L2, a row per organization.
fn bus(r: &NucaReport) -> String {
    let mut t = Table::new([
        "organization",
        "transfers",
        "busy cycles",
        "utilisation",
        "queueing cycles",
        "mean wait",
        "largest wait",
    ])
    .left(0);
    for row in &r.organizations {
        let (b, f) = (&row.result.bus, &row.figures);
        t.row([
            row.organization.name().to_string(),
            thousands(b.transfers),
            thousands(b.busy_cycles),
            share(f.bus_utilisation_percent),
            thousands(b.queue_cycles),
            format!("{:.2}", f.bus_mean_wait_cycles),
            thousands(b.max_wait_cycles),
        ]);
    }
    let occupancy = match r.config.timing.bus_occupancy {
        true => "one transfer at a time",
        false => "occupancy off: a fixed latency, no queueing",
    };
    format!(
        "\nThe bus to the L2 ({} bits, {}, {occupancy}; waits in cycles)\n{}",
        r.config.timing.bus_width_bits,
        r.config.timing.bus_channels.name(),
        t.render()
    )
}

/// The DRAM's banks and buses per organization, when the misses wait for
/// them (`--dram-banks on`); nothing otherwise, where every miss takes the
/// latency alone.
fn dram(r: &NucaReport) -> String {
    let Some(d) = r.config.timing.dram_banks() else {
        return String::new();
    };
    let mut t = Table::new([
        "organization",
        "texture reads",
        "other reads",
        "writes",
        "row hits",
        "row conflicts",
        "waiting cycles",
        "mean wait",
    ])
    .left(0);
    for row in &r.organizations {
        let x = &row.result.dram;
        t.row([
            row.organization.name().to_string(),
            thousands(x.reads),
            thousands(x.other_reads),
            thousands(x.writes),
            thousands(x.row_hits),
            thousands(x.row_conflicts),
            thousands(x.wait_cycles),
            format!("{:.2}", x.mean_wait_cycles()),
        ]);
    }
    format!(
        "
DRAM behind the L2 ({}, {} cycles unloaded, and the waits for its banks and \
         channel buses; rows of every read and write, waits of the texture reads, in cycles)\n{}",
        d.dram.name(),
        r.config.timing.dram_cycles,
        t.render()
    )
}

/// The frame's other L2 traffic, when it takes time.
fn other_traffic(r: &NucaReport) -> String {
    let rows = r.organizations.iter().map(|row| {
        (
            vec![row.organization.name().to_string()],
            &row.result.l2,
            &row.result.dram,
        )
    });
    timed_traffic(&r.config.timing, &["organization"], rows)
}

/// The table of the frame's other L2 traffic in time (empty when it is
/// untimed): per row, its `keys`, then what was timed, the mean port,
/// bank and DRAM waits, and the cycles tiles waited for their buffer.
pub(crate) fn timed_traffic<'a>(
    timing: &gfxcache_nuca::TimingConfig,
    keys: &[&str],
    rows: impl Iterator<
        Item = (
            Vec<String>,
            &'a gfxcache_gpu::L2Stats,
            &'a gfxcache_gpu::DramStats,
        ),
    >,
) -> String {
    if timing.other_traffic == OtherTraffic::Untimed {
        return String::new();
    }
    let headings = [
        "timed",
        "port wait",
        "bank wait",
        "DRAM reads",
        "DRAM wait",
        "tile buffer wait",
    ];
    let mut t = Table::new(keys.iter().copied().chain(headings));
    for i in 0..keys.len() {
        t = t.left(i);
    }
    for (key, l2, dram) in rows {
        let per = |cycles: u64, n: u64| format!("{:.2}", cycles as f64 / n.max(1) as f64);
        t.row(key.into_iter().chain([
            thousands(l2.other_timed),
            per(l2.other_port_wait_cycles, l2.other_timed),
            per(l2.other_bank_wait_cycles, l2.other_timed),
            thousands(dram.other_reads),
            per(dram.other_wait_cycles, dram.other_reads),
            thousands(l2.tile_buffer_wait_cycles),
        ]));
    }
    format!(
        "
The tiles' other L2 traffic in time (a port sending a block every {} cycle(s), {} tile \
         buffers; mean waits, and the cycles tiles waited for their buffer; the binning pass \
         untimed)\n{}",
        timing.other_port_cycles,
        timing.tile_buffers,
        t.render()
    )
}

/// DTM-NUCA-Dist under each reading of the announced count, a line.
fn announced(r: &NucaReport) -> String {
    let readings = super::announced_readings(r);
    if readings.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = readings
        .iter()
        .map(|(name, main, f)| {
            format!(
                "{name}{}: local {}, L2 requests {}, speedup {}",
                if *main { " (main)" } else { "" },
                share(f.local_hit_percent),
                signed(f.l2_texture_change_percent),
                signed(f.speedup_percent)
            )
        })
        .collect();
    format!(
        "\nDTM-NUCA-Dist, the owner's announced count a claim must beat: {}\n",
        parts.join("; ")
    )
}

/// Figure 7 in a line per DTM-NUCA form.
fn capacity(r: &NucaReport) -> String {
    let mut out = String::new();
    let largest = r.capacity.iter().map(|p| p.tc_bytes).max();
    for kind in [OrgKind::Dtm, OrgKind::DtmDist] {
        if r.row(kind).is_none() {
            continue;
        }
        let ours = match (r.effective_capacity(kind), largest) {
            (Some(b), _) => format!("private caches of {} make as few", format_size(b)),
            (None, Some(b)) => format!("no private size up to {} makes as few", format_size(b)),
            (None, None) => "no private sizes were studied".to_string(),
        };
        let paper = paper_effective_bytes(&r.paper, kind).map_or("-".into(), format_size);
        out += &format!(
            "Figure 7: against {} with {} caches, {ours} L2 requests (paper: private caches of {paper} for 16KiB)\n",
            kind.name(),
            format_size(r.config.tc_bytes),
        );
    }
    out
}

/// Figure 11 in a line per number of fragment processors.
fn scaling(r: &NucaReport) -> String {
    let mut out = String::new();
    for p in &r.scaling {
        let parts: Vec<String> = p
            .rows
            .iter()
            .filter(|row| row.organization != OrgKind::Private)
            .map(|row| {
                let k = row.organization;
                let paper = paper_scaling(&r.paper, k, p.fps)
                    .map_or(String::new(), |v| format!(" (paper {})", signed(v)));
                format!(
                    "{} {}{paper}",
                    k.name(),
                    signed(row.figures.speedup_percent)
                )
            })
            .collect();
        out += &format!("Figure 11, P = {}: {}\n", p.fps, parts.join(", "));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nuca::test_report::report;

    #[test]
    fn mentions_each_organization_and_the_papers_numbers() {
        let r = report();
        let s = text(&r);
        assert!(
            s.starts_with("DTM-NUCA study of a<1> (8 fragment processors"),
            "{s}"
        );
        for row in &r.organizations {
            let name = row.organization.name();
            let line = s
                .lines()
                .find(|l| l.starts_with(&format!("{name} ")))
                .unwrap_or_else(|| panic!("no line for {name}:\n{s}"));
            assert!(
                line.contains(&signed(row.figures.speedup_percent)),
                "{line}"
            );
        }
        let paper = s
            .lines()
            .filter(|l| l.trim_start().starts_with("paper"))
            .count();
        assert_eq!(
            paper, 3,
            "a paper row for D-NUCA, DTM-NUCA and its distributed form\n{s}"
        );
        assert!(s.contains("+16.9%") && s.contains("66.3%"));
        assert!(s.contains(&format!(
            "Figure 1: with 4 private caches, {} of texture accesses",
            share(r.replication.replicated_percent)
        )));
        assert!(s.contains("(paper, 4 caches: 84.6%)"));
        assert!(
            s.contains("Figure 7: against dtm-nuca with 4KiB caches, no private size up to 16KiB makes as few L2 requests (paper: private caches of 128KiB for 16KiB)"),
            "{s}"
        );
        assert!(s.contains("Figure 11, P = 4: d-nuca "));
        assert!(
            s.contains("The bus to the L2 (128 bits, shared, one transfer at a time"),
            "{s}"
        );
        let private = r.row(OrgKind::Private).unwrap();
        let bus = s
            .lines()
            .skip_while(|l| !l.starts_with("The bus to the L2"))
            .find(|l| l.starts_with("private "))
            .unwrap();
        assert!(
            bus.contains(&share(private.figures.bus_utilisation_percent))
                && bus.contains(&thousands(private.result.bus.transfers)),
            "{bus}"
        );
        let dist = r.row(OrgKind::DtmDist).unwrap().figures;
        assert!(
            s.contains(&format!(
                "DTM-NUCA-Dist, the owner's announced count a claim must beat: as-announced (main): local {}",
                share(dist.local_hit_percent)
            )),
            "{s}"
        );
        assert!(s.contains("; halved: local "), "{s}");
        assert!(s.contains("(paper +10.2%)"));
        assert_eq!(s.lines().filter(|l| l.starts_with("Figure 11")).count(), 2);
    }
}
