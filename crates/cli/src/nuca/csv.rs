//! The study's tables as CSV, for spreadsheets and scripts:
//! `organizations.csv` (Figures 6, 8, 9, 10 with the counts behind them),
//! `replication.csv` (Figure 1), `capacity.csv` (Figure 7),
//! `scaling.csv` (Figure 11), `sweeps.csv` and `assignments.csv`. Numbers
//! in full precision; a value not measured is empty.

use std::path::{Path, PathBuf};

use gfxcache_nuca::study::{NucaReport, OrgRow};
use gfxcache_nuca::OrgKind;

use super::{figure_values, FIGURE_COLUMNS};
use crate::report::write_csvs;

/// Writes the CSV files into `dir` and returns their paths.
pub fn write_all(report: &NucaReport, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = vec![
        ("organizations.csv", organizations(report)),
        ("replication.csv", replication(report)),
        ("capacity.csv", capacity(report)),
        ("scaling.csv", scaling(report)),
        ("sweeps.csv", sweeps(report)),
        ("assignments.csv", assignments(report)),
    ];
    if let Some(m) = &report.machine {
        files.push(("machine.csv", crate::report::machine::rows(m)));
    }
    write_csvs(dir, files)
}

pub(super) fn header(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| s.to_string()).collect()
}

/// `head` then [`FIGURE_COLUMNS`].
pub(super) fn with_figures(head: &[&str]) -> Vec<String> {
    header(head)
        .into_iter()
        .chain(FIGURE_COLUMNS.iter().map(|c| c.to_string()))
        .collect()
}

/// Per organization on the main frame: where its texture accesses were
/// served, the L2's accesses, time, energy and the mesh, each figure
/// beside the count it comes from.
fn organizations(r: &NucaReport) -> Vec<Vec<String>> {
    let head = header(&[
        "organization",
        "texture_accesses",
        "local_hits",
        "remote_hits",
        "l2_hits",
        "l2_misses",
        "local_hit_percent",
        "remote_hit_percent",
        "l2_hit_percent",
        "l2_miss_percent",
        "l2_texture_requests",
        "l2_texture_change_percent",
        "l2_all_accesses",
        "l2_all_change_percent",
        "cycles",
        "speedup_percent",
        "mean_latency_cycles",
        "energy_gpu_nj",
        "energy_memory_nj",
        "energy_total_nj",
        "gpu_energy_change_percent",
        "memory_energy_change_percent",
        "energy_change_percent",
        "mesh_flit_hops",
        "broadcasts",
        "epochs",
        "ownership_changes",
        "bus_transfers",
        "bus_busy_cycles",
        "bus_utilisation_percent",
        "bus_queue_cycles",
        "bus_mean_wait_cycles",
        "bus_max_wait_cycles",
    ]);
    let rows = r.organizations.iter().map(|row| {
        let (s, f, res) = (&row.result.stats, &row.figures, &row.result);
        let counts = [
            s.texture_accesses,
            s.local_hits,
            s.remote_hits,
            s.l2_hits,
            s.l2_misses,
        ];
        let shares = [
            f.local_hit_percent,
            f.remote_hit_percent,
            f.l2_hit_percent,
            f.l2_miss_percent,
        ];
        let mut out = vec![row.organization.name().to_string()];
        out.extend(counts.map(|n| n.to_string()));
        out.extend(shares.map(|x| x.to_string()));
        out.push(s.l2_requests.to_string());
        out.push(f.l2_texture_change_percent.to_string());
        out.push((res.l2.texture_requests + res.l2.other_accesses).to_string());
        out.push(f.l2_all_change_percent.to_string());
        out.push(res.timing.cycles.to_string());
        out.push(f.speedup_percent.to_string());
        out.push(f.mean_latency_cycles.to_string());
        let e = &res.energy;
        out.extend([e.gpu_nj, e.memory_nj, e.total_nj].map(|x| x.to_string()));
        let changes = [
            f.gpu_energy_change_percent,
            f.memory_energy_change_percent,
            f.energy_change_percent,
        ];
        out.extend(changes.map(|x| x.to_string()));
        let events = [
            res.mesh.flit_hops,
            s.broadcasts,
            s.epochs,
            s.ownership_changes,
        ];
        out.extend(events.map(|n| n.to_string()));
        let bus = &res.bus;
        out.push(bus.transfers.to_string());
        out.push(bus.busy_cycles.to_string());
        out.push(f.bus_utilisation_percent.to_string());
        out.push(bus.queue_cycles.to_string());
        out.push(f.bus_mean_wait_cycles.to_string());
        out.push(bus.max_wait_cycles.to_string());
        out
    });
    std::iter::once(head).chain(rows).collect()
}

/// Figure 1: per number of private caches holding the block after a
/// texture access, the share of the accesses.
fn replication(r: &NucaReport) -> Vec<Vec<String>> {
    let head = header(&["fragment_processors", "caches", "share_percent"]);
    let p = &r.replication;
    let rows = p
        .in_caches_percent
        .iter()
        .enumerate()
        .skip(1)
        .map(|(n, v)| vec![p.fps.to_string(), n.to_string(), v.to_string()]);
    std::iter::once(head).chain(rows).collect()
}

/// The L2 requests of `kind` on the main frame, as text; empty without it.
fn l2_requests(r: &NucaReport, kind: OrgKind) -> String {
    r.row(kind)
        .map(|row| row.result.stats.l2_requests.to_string())
        .unwrap_or_default()
}

/// Figure 7: private caches of each size, DTM-NUCA's L2 requests (at the
/// main size) on every row for reference.
fn capacity(r: &NucaReport) -> Vec<Vec<String>> {
    let head = header(&[
        "tc_bytes",
        "l2_requests",
        "local_hit_percent",
        "cycles",
        "dtm_l2_requests",
        "dtm_dist_l2_requests",
    ]);
    let (dtm, dist) = (
        l2_requests(r, OrgKind::Dtm),
        l2_requests(r, OrgKind::DtmDist),
    );
    let rows = r.capacity.iter().map(|p| {
        vec![
            p.tc_bytes.to_string(),
            p.l2_requests.to_string(),
            p.local_hit_percent.to_string(),
            p.cycles.to_string(),
            dtm.clone(),
            dist.clone(),
        ]
    });
    std::iter::once(head).chain(rows).collect()
}

/// `key` then the figures of `row`.
fn figures_row(key: Vec<String>, row: &OrgRow) -> Vec<String> {
    let mut out = key;
    out.push(row.organization.name().to_string());
    out.extend(figure_values(&row.figures).map(|x| x.to_string()));
    out
}

/// Figure 11: every organization with each number of fragment processors.
fn scaling(r: &NucaReport) -> Vec<Vec<String>> {
    let head = with_figures(&["fragment_processors", "organization"]);
    let rows = r.scaling.iter().flat_map(|p| {
        p.rows
            .iter()
            .map(|row| figures_row(vec![p.fps.to_string()], row))
    });
    std::iter::once(head).chain(rows).collect()
}

/// Each knob value swept, per organization swept.
fn sweeps(r: &NucaReport) -> Vec<Vec<String>> {
    let head = with_figures(&["knob", "value", "organization"]);
    let rows = r.sweeps.iter().map(|p| {
        let mut out = vec![
            p.knob.clone(),
            p.value.clone(),
            p.organization.name().to_string(),
        ];
        out.extend(figure_values(&p.figures).map(|x| x.to_string()));
        out
    });
    std::iter::once(head).chain(rows).collect()
}

/// Every organization on the frame of each quad assignment.
fn assignments(r: &NucaReport) -> Vec<Vec<String>> {
    let head = with_figures(&["assignment", "organization"]);
    let rows = r.assignments.iter().flat_map(|p| {
        p.rows
            .iter()
            .map(|row| figures_row(vec![p.assignment.clone()], row))
    });
    std::iter::once(head).chain(rows).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nuca::test_report::report;
    use crate::report::read_csv as read;

    fn column(rows: &[Vec<String>], name: &str) -> usize {
        rows[0]
            .iter()
            .position(|c| c == name)
            .unwrap_or_else(|| panic!("no column {name}"))
    }

    #[test]
    fn organizations_csv_is_the_reports_numbers() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = report();
        write_all(&r, dir.path())?;
        let rows = read(&dir.path().join("organizations.csv"))?;
        assert_eq!(rows.len(), 1 + r.organizations.len());
        assert!(rows.iter().all(|row| row.len() == rows[0].len()));
        let dtm = r.row(OrgKind::Dtm).unwrap();
        let at = rows.iter().position(|x| x[0] == "dtm-nuca").unwrap();
        let get = |name: &str| rows[at][column(&rows, name)].clone();
        let s = &dtm.result.stats;
        assert_eq!(get("local_hits"), s.local_hits.to_string());
        assert_eq!(get("remote_hits"), s.remote_hits.to_string());
        assert_eq!(get("l2_texture_requests"), s.l2_requests.to_string());
        assert_eq!(get("cycles"), dtm.result.timing.cycles.to_string());
        assert_eq!(get("epochs"), s.epochs.to_string());
        assert_eq!(
            get("speedup_percent"),
            dtm.figures.speedup_percent.to_string()
        );
        assert_eq!(
            get("energy_total_nj"),
            dtm.result.energy.total_nj.to_string()
        );
        assert_eq!(get("mesh_flit_hops"), dtm.result.mesh.flit_hops.to_string());
        let bus = &dtm.result.bus;
        assert_eq!(get("bus_transfers"), bus.transfers.to_string());
        assert_eq!(get("bus_busy_cycles"), bus.busy_cycles.to_string());
        assert_eq!(get("bus_queue_cycles"), bus.queue_cycles.to_string());
        assert_eq!(get("bus_max_wait_cycles"), bus.max_wait_cycles.to_string());
        assert_eq!(
            get("bus_utilisation_percent"),
            dtm.figures.bus_utilisation_percent.to_string()
        );
        // The shares add up to every access.
        let shares: f64 = [
            "local_hit_percent",
            "remote_hit_percent",
            "l2_hit_percent",
            "l2_miss_percent",
        ]
        .iter()
        .map(|c| get(c).parse::<f64>().unwrap())
        .sum();
        assert!((shares - 100.0).abs() < 1e-9, "{shares}");
        Ok(())
    }

    #[test]
    fn figure_files_have_a_row_per_point() -> anyhow::Result<()> {
        let dir = tempfile::tempdir()?;
        let r = report();
        write_all(&r, dir.path())?;
        let replication = read(&dir.path().join("replication.csv"))?;
        assert_eq!(
            replication[0],
            ["fragment_processors", "caches", "share_percent"]
        );
        assert_eq!(replication.len(), 1 + r.replication.fps);
        assert_eq!(
            replication[2][2],
            r.replication.in_caches_percent[2].to_string()
        );

        let capacity = read(&dir.path().join("capacity.csv"))?;
        assert_eq!(capacity.len(), 1 + r.capacity.len());
        assert_eq!(capacity[1][0], "2048");
        let dtm = r.row(OrgKind::Dtm).unwrap().result.stats.l2_requests;
        assert!(capacity[1..].iter().all(|row| row[4] == dtm.to_string()));

        let scaling = read(&dir.path().join("scaling.csv"))?;
        let runs: usize = r.scaling.iter().map(|p| p.rows.len()).sum();
        assert_eq!(scaling.len(), 1 + runs);
        assert_eq!(
            scaling[0][..3],
            ["fragment_processors", "organization", "local_hit_percent"]
        );
        let p4 = &r.scaling[0];
        let row = scaling
            .iter()
            .find(|x| x[0] == "4" && x[1] == "dtm-nuca")
            .unwrap();
        let dtm4 = p4
            .rows
            .iter()
            .find(|x| x.organization == OrgKind::Dtm)
            .unwrap();
        let speedup = column(&scaling, "speedup_percent");
        assert_eq!(row[speedup], dtm4.figures.speedup_percent.to_string());

        let sweeps = read(&dir.path().join("sweeps.csv"))?;
        assert_eq!(sweeps.len(), 1 + r.sweeps.len());
        assert_eq!(sweeps[1][..3], ["epoch", "500", "dtm-nuca"]);
        let assignments = read(&dir.path().join("assignments.csv"))?;
        assert!(assignments.iter().any(|x| x[0] == "tiles"));
        assert!(assignments.iter().any(|x| x[0] == "round-robin"));
        Ok(())
    }
}
