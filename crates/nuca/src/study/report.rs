//! What a DTM-NUCA study reports: every run's results and, derived from
//! them against the private caches of the same frame, the figures of the
//! paper's Section V.

use std::collections::BTreeMap;

use gfxcache_machine::{IssueModel, Machine};
use serde::Serialize;

use crate::input::RequestUnit;
use crate::replay::{OrgKind, OrgResult};
use crate::NucaConfig;

use super::paper::PaperNumbers;

/// A study of one frame.
#[derive(Serialize, serde::Deserialize, Clone, Debug)]
pub struct NucaReport {
    /// The scene, when the command rendered it (set by the caller).
    pub scene: Option<String>,
    /// The main frame's files, as the caller names them.
    pub requests: String,
    pub trace: Option<String>,
    /// Wall-clock seconds by phase (`replay`; the caller adds `render`).
    pub seconds: BTreeMap<String, f64>,
    /// The model's configuration of the main runs (on the machine).
    pub config: NucaConfig,
    /// The machine, every value with its source.
    pub machine: Option<Machine>,
    /// How the fragment processors issued shader operations (none: no
    /// time).
    pub issue: Option<IssueModel>,
    /// What the texture caches saw as one request.
    pub request_unit: RequestUnit,
    /// The main frame (rendered with `config.fps` fragment processors).
    pub frame: FrameSummary,
    /// Every organization on the main frame (Figures 6, 8, 9, 10).
    pub organizations: Vec<OrgRow>,
    /// Figure 1: the private caches' replication with the fewest
    /// fragment processors studied (4 by default).
    pub replication: Replication,
    /// Figure 7: private caches of each size against DTM-NUCA's.
    pub capacity: Vec<CapacityPoint>,
    /// Figure 11: each organization with each number of fragment
    /// processors, against private caches with as many.
    pub scaling: Vec<ScalingPoint>,
    /// Our sweeps of the DTM-NUCA knobs, one changed at a time.
    pub sweeps: Vec<SweepPoint>,
    /// The quad assignments: each organization on frames whose quads reach
    /// the fragment processors another way.
    pub assignments: Vec<AssignmentPoint>,
    pub paper: PaperNumbers,
    /// What the reader should know (e.g. no other L2 traffic was given).
    pub warnings: Vec<String>,
}

/// What the main frame held.
#[derive(Serialize, serde::Deserialize, Clone, Debug, Default, PartialEq, Eq)]
pub struct FrameSummary {
    /// Fragment processors: "fps" in the code, but not in what a reader
    /// sees, where fps would read as frames per second.
    #[serde(rename = "fragment_processors")]
    pub fps: usize,
    /// How its quads reached the fragment processors.
    pub assignment: String,
    pub tiles: u64,
    pub texture_requests: u64,
    /// Distinct blocks of each request, all requests.
    pub texture_accesses: u64,
    /// The frame's other L2 traffic, in blocks.
    pub other_accesses: u64,
    pub work_cycles: u64,
    /// Shader operations of every fragment (each once): over the
    /// fragment processors' cycles, their issue rate (each organization's
    /// `fp_issue_rate`).
    pub shader_instructions: u64,
}

/// One organization's results and its figures against the private caches.
#[derive(Serialize, serde::Deserialize, Clone, Debug)]
pub struct OrgRow {
    pub organization: OrgKind,
    pub figures: Figures,
    pub result: OrgResult,
}

/// An organization's figures against private caches of the same frame and
/// machine. Percentages; a change is (this / private - 1) x 100.
#[derive(Serialize, serde::Deserialize, Clone, Copy, Debug, Default, PartialEq)]
pub struct Figures {
    /// Figure 8: shares of the texture accesses.
    pub local_hit_percent: f64,
    pub remote_hit_percent: f64,
    pub l2_hit_percent: f64,
    pub l2_miss_percent: f64,
    /// Figure 6: the texture caches' L2 requests, and the L2's accesses of
    /// every stream (texture requests and the other traffic).
    pub l2_texture_change_percent: f64,
    pub l2_all_change_percent: f64,
    /// Figure 9: private cycles / cycles - 1.
    pub speedup_percent: f64,
    /// Figure 10: energy, on the GPU (texture caches, tables, network, L2,
    /// static) and in memory (DRAM), and in all.
    pub energy_change_percent: f64,
    pub gpu_energy_change_percent: f64,
    pub memory_energy_change_percent: f64,
    /// Mean cycles from a texture access's issue to its data.
    pub mean_latency_cycles: f64,
    /// The bus to the L2 ([`crate::bus`]): the share of the frame's cycles
    /// it was held ([`crate::BusStats::utilisation`]) and the mean cycles
    /// a transfer waited for it. Not against private caches.
    pub bus_utilisation_percent: f64,
    pub bus_mean_wait_cycles: f64,
    /// Shader operations (each once) the fragment processors issued a
    /// cycle: the frame's over their cycles together (the paper's Table
    /// II gives 7-14 % for its games on 32 FPs). Not against private
    /// caches.
    pub fp_issue_rate: f64,
    /// Share of the fragment processors' cycles their cores ran shader
    /// work (the rest they waited for texture data or had nothing to do).
    pub fp_busy_percent: f64,
}

fn change(this: f64, base: f64) -> f64 {
    if base == 0.0 {
        0.0
    } else {
        (this / base - 1.0) * 100.0
    }
}

fn share(part: u64, all: u64) -> f64 {
    if all == 0 {
        0.0
    } else {
        part as f64 * 100.0 / all as f64
    }
}

impl Figures {
    /// The field-by-field mean of `all` (at least one).
    pub fn mean(all: &[Figures]) -> Figures {
        let m = |f: fn(&Figures) -> f64| gfxcache_cache::suite::mean(all.iter().map(f));
        Figures {
            local_hit_percent: m(|f| f.local_hit_percent),
            remote_hit_percent: m(|f| f.remote_hit_percent),
            l2_hit_percent: m(|f| f.l2_hit_percent),
            l2_miss_percent: m(|f| f.l2_miss_percent),
            l2_texture_change_percent: m(|f| f.l2_texture_change_percent),
            l2_all_change_percent: m(|f| f.l2_all_change_percent),
            speedup_percent: m(|f| f.speedup_percent),
            energy_change_percent: m(|f| f.energy_change_percent),
            gpu_energy_change_percent: m(|f| f.gpu_energy_change_percent),
            memory_energy_change_percent: m(|f| f.memory_energy_change_percent),
            mean_latency_cycles: m(|f| f.mean_latency_cycles),
            bus_utilisation_percent: m(|f| f.bus_utilisation_percent),
            bus_mean_wait_cycles: m(|f| f.bus_mean_wait_cycles),
            fp_issue_rate: m(|f| f.fp_issue_rate),
            fp_busy_percent: m(|f| f.fp_busy_percent),
        }
    }

    /// The fragment processors' figures of `r`, `fps` of them running a
    /// frame of `instructions` shader operations.
    pub fn with_processors(self, r: &OrgResult, fps: usize, instructions: u64) -> Figures {
        let fp_cycles = r.timing.cycles as f64 * fps as f64;
        let per = |n: f64| if fp_cycles > 0.0 { n / fp_cycles } else { 0.0 };
        Figures {
            fp_issue_rate: per(instructions as f64),
            fp_busy_percent: per(r.timing.work_cycles as f64) * 100.0,
            ..self
        }
    }

    /// `r`'s figures against `private`'s (runs of the same frame).
    pub fn of(r: &OrgResult, private: &OrgResult) -> Figures {
        let s = &r.stats;
        let all = |x: &OrgResult| (x.l2.texture_requests + x.l2.other_accesses) as f64;
        Figures {
            local_hit_percent: share(s.local_hits, s.texture_accesses),
            remote_hit_percent: share(s.remote_hits, s.texture_accesses),
            l2_hit_percent: share(s.l2_hits, s.texture_accesses),
            l2_miss_percent: share(s.l2_misses, s.texture_accesses),
            l2_texture_change_percent: change(
                s.l2_requests as f64,
                private.stats.l2_requests as f64,
            ),
            l2_all_change_percent: change(all(r), all(private)),
            speedup_percent: match r.timing.cycles {
                0 => 0.0,
                c => (private.timing.cycles as f64 / c as f64 - 1.0) * 100.0,
            },
            energy_change_percent: change(r.energy.total_nj, private.energy.total_nj),
            gpu_energy_change_percent: change(r.energy.gpu_nj, private.energy.gpu_nj),
            memory_energy_change_percent: change(r.energy.memory_nj, private.energy.memory_nj),
            mean_latency_cycles: match s.texture_accesses {
                0 => 0.0,
                n => r.timing.texture_latency_cycles as f64 / n as f64,
            },
            bus_utilisation_percent: r.bus.utilisation(r.timing.cycles) * 100.0,
            bus_mean_wait_cycles: r.bus.mean_wait_cycles(),
            fp_issue_rate: 0.0,
            fp_busy_percent: 0.0,
        }
    }
}

/// Figure 1.
#[derive(Serialize, serde::Deserialize, Clone, Debug, Default, PartialEq)]
pub struct Replication {
    /// Fragment processors: "fps" in the code, but not in what a reader
    /// sees, where fps would read as frames per second.
    #[serde(rename = "fragment_processors")]
    pub fps: usize,
    /// Entry i: the share of texture accesses after which the block was in
    /// i private caches (i = 1 ..= fps; entry 0 is always 0).
    pub in_caches_percent: Vec<f64>,
    /// The share in more than one.
    pub replicated_percent: f64,
}

impl Replication {
    pub fn of(private: &OrgResult, fps: usize) -> Replication {
        let r = &private.stats.replication;
        let all: u64 = r.iter().sum();
        let in_caches_percent: Vec<f64> = r.iter().map(|&n| share(n, all)).collect();
        Replication {
            fps,
            replicated_percent: in_caches_percent.iter().skip(2).sum(),
            in_caches_percent,
        }
    }
}

/// Figure 7: one private texture cache size.
#[derive(Serialize, serde::Deserialize, Clone, Debug)]
pub struct CapacityPoint {
    pub tc_bytes: u64,
    /// The private caches' L2 requests and local hit share at this size.
    pub l2_requests: u64,
    pub local_hit_percent: f64,
    pub cycles: u64,
}

/// Figure 11: the organizations with one number of fragment processors.
#[derive(Serialize, serde::Deserialize, Clone, Debug)]
pub struct ScalingPoint {
    /// Fragment processors: "fps" in the code, but not in what a reader
    /// sees, where fps would read as frames per second.
    #[serde(rename = "fragment_processors")]
    pub fps: usize,
    pub rows: Vec<OrgRow>,
}

/// One knob at one value, the others at the main machine's.
#[derive(Serialize, serde::Deserialize, Clone, Debug)]
pub struct SweepPoint {
    /// The knob: `epoch`, `buckets`, `counter_bits`, `page_blocks`,
    /// `order`, `tc_index` (these two against private caches with the
    /// same setting), `announced_count` (DTM-NUCA-Dist only).
    pub knob: String,
    pub value: String,
    pub organization: OrgKind,
    pub figures: Figures,
}

/// One quad assignment.
#[derive(Serialize, serde::Deserialize, Clone, Debug)]
pub struct AssignmentPoint {
    pub assignment: String,
    pub rows: Vec<OrgRow>,
}

impl NucaReport {
    /// The main frame's row of `kind`.
    pub fn row(&self, kind: OrgKind) -> Option<&OrgRow> {
        self.organizations.iter().find(|r| r.organization == kind)
    }

    /// Figure 7: the L2 requests of private caches of `tc_bytes` against
    /// those of the main size's, in percent change, if that size was
    /// studied.
    pub fn capacity_change(&self, tc_bytes: u64) -> Option<f64> {
        let at = self.capacity.iter().find(|p| p.tc_bytes == tc_bytes)?;
        let base = self.row(OrgKind::Private)?.result.stats.l2_requests;
        Some(change(at.l2_requests as f64, base as f64))
    }

    /// The smallest private size whose L2 requests are no more than
    /// `kind`'s at the main size (Figure 7's "effective capacity"), if any
    /// studied size reaches it.
    pub fn effective_capacity(&self, kind: OrgKind) -> Option<u64> {
        let target = self.row(kind)?.result.stats.l2_requests;
        self.capacity
            .iter()
            .filter(|p| p.l2_requests <= target)
            .map(|p| p.tc_bytes)
            .min()
    }
}

/// Rows of `results` (one per organization, private among them) with
/// their figures.
pub fn rows(results: Vec<OrgResult>) -> Vec<OrgRow> {
    let Some(private) = results
        .iter()
        .find(|r| r.organization == OrgKind::Private)
        .cloned()
    else {
        return results
            .into_iter()
            .map(|result| OrgRow {
                organization: result.organization,
                figures: Figures::default(),
                result,
            })
            .collect();
    };
    results
        .into_iter()
        .map(|result| OrgRow {
            organization: result.organization,
            figures: Figures::of(&result, &private),
            result,
        })
        .collect()
}
