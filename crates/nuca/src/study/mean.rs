//! The DTM-NUCA study's mean over the scenes of a suite, as the paper
//! averages its games: every figure is the arithmetic mean of the scenes'
//! figures (each scene weighs the same). A figure some scene lacks (a run
//! it did not make) has no mean and is left out.

use gfxcache_cache::suite::{mean, SuiteMean};
use serde::Serialize;

use crate::replay::OrgKind;

use super::paper::PaperNumbers;
use super::report::{Figures, NucaReport, OrgRow};

/// The mean of a DTM-NUCA study over a suite's scenes.
#[derive(Serialize, Clone, Debug)]
pub struct NucaMean {
    pub scenes: u32,
    /// Figures 6, 8, 9, 10 per organization.
    pub organizations: Vec<(OrgKind, Figures)>,
    /// Figure 1: the share of accesses to replicated blocks, and the
    /// fragment processors it was measured with.
    #[serde(rename = "replication_fragment_processors")]
    pub replication_fps: usize,
    pub replicated_percent: f64,
    /// Figure 7: each private size's L2 requests against the private
    /// caches of the main size, in percent change; and DTM-NUCA's.
    pub capacity: Vec<(u64, f64)>,
    /// Figure 11: (fragment processors, organization, figures).
    pub scaling: Vec<(usize, OrgKind, Figures)>,
    /// The sweeps: (knob, value, organization, figures).
    pub sweeps: Vec<(String, String, OrgKind, Figures)>,
    /// The quad assignments: (assignment, organization, figures).
    pub assignments: Vec<(String, OrgKind, Figures)>,
    pub paper: PaperNumbers,
}

/// The mean of the figures `of` gives for each report, if every report
/// has them.
fn mean_of(
    reports: &[&NucaReport],
    of: impl Fn(&NucaReport) -> Option<Figures>,
) -> Option<Figures> {
    let figures: Option<Vec<Figures>> = reports.iter().map(|r| of(r)).collect();
    figures.map(|f| Figures::mean(&f))
}

/// The figures of `kind`'s row among `rows`.
fn of_kind(rows: &[OrgRow], kind: OrgKind) -> Option<Figures> {
    rows.iter()
        .find(|row| row.organization == kind)
        .map(|row| row.figures)
}

impl SuiteMean for NucaReport {
    type Mean = NucaMean;

    fn suite_mean(reports: &[&NucaReport]) -> NucaMean {
        let first = reports[0];
        let kinds: Vec<OrgKind> = first.organizations.iter().map(|r| r.organization).collect();
        let organizations = kinds
            .iter()
            .filter_map(|&k| Some((k, mean_of(reports, |r| of_kind(&r.organizations, k))?)))
            .collect();
        let capacity = first
            .capacity
            .iter()
            .filter_map(|p| {
                let changes: Option<Vec<f64>> = reports
                    .iter()
                    .map(|r| r.capacity_change(p.tc_bytes))
                    .collect();
                Some((p.tc_bytes, mean(changes?)))
            })
            .collect();
        let mut scaling = Vec::new();
        for point in &first.scaling {
            for &k in &kinds {
                let of = |r: &NucaReport| {
                    let p = r.scaling.iter().find(|q| q.fps == point.fps)?;
                    of_kind(&p.rows, k)
                };
                if let Some(f) = mean_of(reports, of) {
                    scaling.push((point.fps, k, f));
                }
            }
        }
        let mut assignments = Vec::new();
        for point in &first.assignments {
            for &k in &kinds {
                let of = |r: &NucaReport| {
                    let p = r
                        .assignments
                        .iter()
                        .find(|q| q.assignment == point.assignment)?;
                    of_kind(&p.rows, k)
                };
                if let Some(f) = mean_of(reports, of) {
                    assignments.push((point.assignment.clone(), k, f));
                }
            }
        }
        let sweeps = first
            .sweeps
            .iter()
            .filter_map(|p| {
                let f = mean_of(reports, |r| {
                    r.sweeps
                        .iter()
                        .find(|q| {
                            q.knob == p.knob
                                && q.value == p.value
                                && q.organization == p.organization
                        })
                        .map(|q| q.figures)
                })?;
                Some((p.knob.clone(), p.value.clone(), p.organization, f))
            })
            .collect();
        NucaMean {
            scenes: reports.len() as u32,
            organizations,
            replication_fps: first.replication.fps,
            replicated_percent: mean(reports.iter().map(|r| r.replication.replicated_percent)),
            capacity,
            scaling,
            sweeps,
            assignments,
            paper: first.paper.clone(),
        }
    }

    fn warnings(&self) -> &[String] {
        &self.warnings
    }
}
