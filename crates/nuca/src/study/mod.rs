//! The DTM-NUCA paper's study (Section V) on rendered frames: a
//! configuration in ([`NucaStudyConfig`]: the machine, the frames' files,
//! the sizes, counts and sweeps), a report out ([`NucaReport`]), progress
//! by callback. It reads its inputs and writes nothing.
//!
//! Each frame is read once: its events go, chunk by chunk, to every run
//! that replays it (an organization on a configuration), the runs in
//! parallel ([`crate::Replay`]). The main frame carries the organizations
//! (Figures 6, 8, 9, 10), the private sizes (Figure 7) and the sweeps; a
//! frame per other number of fragment processors carries Figure 11 (and
//! Figure 1, from the fewest); a frame per other quad assignment carries
//! that sensitivity.

pub mod figures;
pub mod mean;
pub mod page;
pub mod paper;
pub mod report;
pub mod tables;

use std::path::{Path, PathBuf};

use gfxcache_cache::progress::{Progress, ProgressFn};
use gfxcache_cache::run::Threads;
use gfxcache_machine::{IssueModel, Machine};
use gfxcache_trace::texreq::TexReqReader;
use serde::{Deserialize, Serialize};

use crate::config::MAX_TC_BYTES;
use crate::input::{FrameInput, InputError, RequestUnit};
use crate::replay::{OrgKind, OrgResult, Replay, ReplayEvent, REPLAY_CHUNK};
use crate::{NucaConfig, NucaError, TcIndex};

pub use mean::NucaMean;
pub use report::{
    AssignmentPoint, CapacityPoint, Figures, FrameSummary, NucaReport, OrgRow, Replication,
    ScalingPoint, SweepPoint,
};

/// A rendered frame's files: its texture requests (`.gtq`) and, for the
/// other L2 traffic, its trace (`.gtr`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrameFiles {
    pub requests: PathBuf,
    pub trace: Option<PathBuf>,
}

/// The knob values the sweeps try on the main frame, each with the other
/// knobs at the machine's (the machine's own value is the main run).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Sweeps {
    pub epoch: Vec<u64>,
    pub buckets: Vec<u32>,
    pub counter_bits: Vec<u32>,
    pub page_blocks: Vec<u32>,
    /// Replay the main frame in the other order as well.
    pub trace_order: bool,
    /// Replay the main frame with contexts holding the other unit as
    /// well ([`crate::ContextUnit`]: a fragment or a request).
    pub context_unit: bool,
    /// Run the main frame with the other texture cache set index as well.
    pub tc_index: bool,
    /// Run DTM-NUCA-Dist with the other reading of the announced count as
    /// well ([`crate::AnnouncedCount`]), so the report shows both.
    pub announced_count: bool,
    /// The organizations the sweeps run.
    pub organizations: Vec<OrgKind>,
}

impl Default for Sweeps {
    /// Around the paper's values, by factors of 2 to 4 (ours).
    fn default() -> Sweeps {
        Sweeps {
            epoch: vec![5_000, 10_000, 40_000, 80_000],
            buckets: vec![8, 16, 64, 128],
            counter_bits: vec![2, 3, 6, 8],
            page_blocks: vec![1, 2, 4, 16, 32],
            trace_order: true,
            context_unit: true,
            tc_index: true,
            announced_count: true,
            organizations: vec![OrgKind::Dtm, OrgKind::DtmDist],
        }
    }
}

impl Sweeps {
    /// No sweeps.
    pub fn none() -> Sweeps {
        Sweeps {
            epoch: vec![],
            buckets: vec![],
            counter_bits: vec![],
            page_blocks: vec![],
            trace_order: false,
            context_unit: false,
            tc_index: false,
            announced_count: false,
            organizations: vec![],
        }
    }
}

/// Everything a study needs.
#[derive(Clone, Debug)]
pub struct NucaStudyConfig {
    /// The model's configuration of the main runs: the machine's
    /// ([`NucaConfig::on_machine`]; the paper's Table I by default).
    pub config: NucaConfig,
    /// The machine it is on, every value with its source (for the
    /// report).
    pub machine: Option<Machine>,
    /// The frame rendered with `config.fps` fragment processors.
    pub frame: FrameFiles,
    /// How its quads reached the fragment processors (a name for reports).
    pub assignment: String,
    /// The organizations of the main and scaling runs.
    pub organizations: Vec<OrgKind>,
    /// Figure 7: private texture cache sizes, in bytes.
    pub private_sizes: Vec<u64>,
    /// Figure 11: the same frame rendered with other numbers of fragment
    /// processors.
    pub scaling: Vec<(usize, FrameFiles)>,
    /// The same frame with other quad assignments (name, files).
    pub assignments: Vec<(String, FrameFiles)>,
    pub sweeps: Sweeps,
    /// How a fragment processor issues shader operations (the machine's);
    /// `None`: shading takes no time.
    pub issue: Option<IssueModel>,
    /// What the texture cache sees as one request. (ours): a quad's.
    pub request_unit: RequestUnit,
    pub threads: Threads,
}

impl NucaStudyConfig {
    /// The paper's study of `frame` on the paper's machine (the
    /// `dtm-nuca` preset): every organization, private caches of 16 to
    /// 512 KiB, the default sweeps, no other frames.
    pub fn new(frame: FrameFiles) -> NucaStudyConfig {
        let machine = Machine::preset("dtm-nuca").expect("the dtm-nuca preset");
        NucaStudyConfig {
            config: NucaConfig::default()
                .on_machine(&machine, 4)
                .expect("the dtm-nuca preset has an L2"),
            issue: Some(machine.issue_model()),
            machine: Some(machine),
            frame,
            assignment: "round-robin".into(),
            organizations: OrgKind::ALL.to_vec(),
            private_sizes: (4..=9).map(|k| 1024u64 << k).collect(),
            scaling: Vec::new(),
            assignments: Vec::new(),
            sweeps: Sweeps::default(),
            request_unit: RequestUnit::Quad,
            threads: Threads::Many,
        }
    }

    /// Why the study cannot run, before anything is read.
    pub fn check(&self) -> Result<(), StudyError> {
        self.config.check().map_err(StudyError::Config)?;
        if !self.organizations.contains(&OrgKind::Private) {
            return Err(StudyError::Invalid(
                "the organizations must include private, the baseline of every figure".into(),
            ));
        }
        if let Some(&bytes) = self.private_sizes.iter().find(|&&b| b > MAX_TC_BYTES) {
            return Err(StudyError::Invalid(format!(
                "private_sizes: {bytes} B: expected private caches of at most 16 MiB"
            )));
        }
        if let Some(Err(e)) = self.issue.map(|m| m.check()) {
            return Err(StudyError::Invalid(format!("issue: {e}")));
        }
        for config in self.main_runs().iter().map(|(c, _, _)| c) {
            config.check().map_err(StudyError::Config)?;
        }
        for &(fps, _) in &self.scaling {
            let c = NucaConfig {
                fps,
                ..self.config.clone()
            };
            c.check().map_err(StudyError::Config)?;
        }
        Ok(())
    }

    /// The runs of the main frame: (configuration, organization, what it
    /// is for).
    fn main_runs(&self) -> Vec<(NucaConfig, OrgKind, Purpose)> {
        let m = &self.config;
        let mut runs: Vec<_> = self
            .organizations
            .iter()
            .map(|&k| (m.clone(), k, Purpose::Main))
            .collect();
        for &bytes in &self.private_sizes {
            if bytes != m.tc_bytes {
                let c = NucaConfig {
                    tc_bytes: bytes,
                    ..m.clone()
                };
                runs.push((c, OrgKind::Private, Purpose::Capacity));
            }
        }
        let s = &self.sweeps;
        // The private caches of the knobs that change them too.
        let mut privates = Vec::new();
        let mut knob = |name: &'static str, value: String, c: NucaConfig| {
            for &k in &s.organizations {
                runs.push((c.clone(), k, Purpose::Sweep(name, value.clone())));
            }
        };
        for &v in s.epoch.iter().filter(|&&v| v != m.epoch) {
            knob(
                "epoch",
                v.to_string(),
                NucaConfig {
                    epoch: v,
                    ..m.clone()
                },
            );
        }
        for &v in s.buckets.iter().filter(|&&v| v != m.buckets) {
            knob(
                "buckets",
                v.to_string(),
                NucaConfig {
                    buckets: v,
                    ..m.clone()
                },
            );
        }
        for &v in s.counter_bits.iter().filter(|&&v| v != m.counter_bits) {
            let c = NucaConfig {
                counter_bits: v,
                ..m.clone()
            };
            knob("counter_bits", v.to_string(), c);
        }
        for &v in s.page_blocks.iter().filter(|&&v| v != m.page_blocks) {
            let c = NucaConfig {
                page_blocks: v,
                ..m.clone()
            };
            knob("page_blocks", v.to_string(), c);
        }
        if s.trace_order {
            let mut c = m.clone();
            c.timing.order = m.timing.order.other();
            let name = c.timing.order.name();
            knob("order", name.into(), c.clone());
            privates.push((c, OrgKind::Private, Purpose::Sweep("order", name.into())));
        }
        if s.context_unit {
            let mut c = m.clone();
            c.timing.context_unit = m.timing.context_unit.other();
            let name = c.timing.context_unit.name();
            knob("context_unit", name.into(), c.clone());
            let purpose = Purpose::Sweep("context_unit", name.into());
            privates.push((c, OrgKind::Private, purpose));
        }
        if s.tc_index {
            let mut c = m.clone();
            c.tc_index = match m.tc_index {
                TcIndex::Modulo => TcIndex::XorFold,
                TcIndex::XorFold => TcIndex::Modulo,
            };
            let name = c.tc_index.name();
            knob("tc_index", name.into(), c.clone());
            privates.push((c, OrgKind::Private, Purpose::Sweep("tc_index", name.into())));
        }
        // Only the distributed tables keep an announced count.
        if s.announced_count && self.organizations.contains(&OrgKind::DtmDist) {
            let c = NucaConfig {
                announced_count: m.announced_count.other(),
                ..m.clone()
            };
            let name = c.announced_count.name();
            runs.push((
                c,
                OrgKind::DtmDist,
                Purpose::Sweep("announced_count", name.into()),
            ));
        }
        runs.extend(privates);
        runs
    }
}

/// What a run of the main frame is for.
#[derive(Clone, Debug, PartialEq)]
enum Purpose {
    Main,
    Capacity,
    Sweep(&'static str, String),
}

/// What stops a study.
#[derive(Debug, thiserror::Error)]
pub enum StudyError {
    #[error(transparent)]
    Config(NucaError),
    #[error("nuca study: {0}")]
    Invalid(String),
    /// A frame's files could not be read as one frame.
    #[error("reading the frame of {path}")]
    Input {
        path: PathBuf,
        #[source]
        source: InputError,
    },
    #[error("replaying the frame of {path}")]
    Replay {
        path: PathBuf,
        #[source]
        source: NucaError,
    },
}

/// The phase of [`run`]'s progress: bytes of the frames' request files
/// replayed, over every frame the study replays.
pub const REPLAYING: &str = "replaying frames";

/// Runs the study.
pub fn run(config: &NucaStudyConfig, progress: ProgressFn<'_>) -> Result<NucaReport, StudyError> {
    config.check()?;
    let start = std::time::Instant::now();
    let m = &config.config;
    let main_runs = config.main_runs();
    // Progress in bytes of the frames' request files, replayed one after
    // another: a bar with a pace and a time left, on every run.
    let files: Vec<&FrameFiles> = std::iter::once(&config.frame)
        .chain(config.scaling.iter().map(|(_, f)| f))
        .chain(config.assignments.iter().map(|(_, f)| f))
        .collect();
    let total: u64 = files
        .iter()
        .map(|f| std::fs::metadata(&f.requests).map_or(0, |m| m.len()))
        .sum();
    let replayed = std::sync::atomic::AtomicU64::new(0);
    let replaying = |read: u64| {
        let before = replayed.load(std::sync::atomic::Ordering::Relaxed);
        progress(Progress::bytes(
            REPLAYING,
            (before + read).min(total),
            total,
        ));
    };
    let next_file = |path: &Path| {
        let len = std::fs::metadata(path).map_or(0, |m| m.len());
        replayed.fetch_add(len, std::sync::atomic::Ordering::Relaxed);
    };
    let runs: Vec<_> = main_runs.iter().map(|(c, k, _)| (c.clone(), *k)).collect();
    let (frame, results) = replay_frame(&config.frame, runs, config, &replaying)?;
    next_file(&config.frame.requests);
    let mut organizations = Vec::new();
    let mut capacity = Vec::new();
    let mut sweep_results = Vec::new();
    for ((c, _, purpose), r) in main_runs.iter().zip(results) {
        match purpose {
            Purpose::Main => organizations.push(r),
            Purpose::Capacity => capacity.push((c.tc_bytes, r)),
            Purpose::Sweep(knob, value) => sweep_results.push((*knob, value.clone(), r)),
        }
    }
    let mut organizations = report::rows(organizations);
    for row in organizations.iter_mut() {
        row.figures = row
            .figures
            .with_processors(&row.result, m.fps, frame.shader_instructions);
    }
    let private = organizations
        .iter()
        .find(|r| r.organization == OrgKind::Private)
        .map(|r| r.result.clone())
        .expect("checked: private is studied");
    // Knobs that change the private caches too are against private
    // caches with the same setting.
    let private_with = |knob: &str, value: &str| {
        sweep_results
            .iter()
            .find(|(k, v, r)| *k == knob && v == value && r.organization == OrgKind::Private)
            .map(|(_, _, r)| r.clone())
    };
    let sweeps = sweep_results
        .iter()
        .filter(|(_, _, r)| r.organization != OrgKind::Private)
        .map(|(knob, value, r)| {
            // Against the private caches replayed the same way.
            let base = private_with(knob, value).unwrap_or_else(|| private.clone());
            SweepPoint {
                knob: knob.to_string(),
                value: value.clone(),
                organization: r.organization,
                figures: Figures::of(r, &base).with_processors(r, m.fps, frame.shader_instructions),
            }
        })
        .collect();
    let mut capacity: Vec<CapacityPoint> = capacity
        .into_iter()
        .chain([(m.tc_bytes, private.clone())])
        .map(|(tc_bytes, r)| CapacityPoint {
            tc_bytes,
            l2_requests: r.stats.l2_requests,
            local_hit_percent: Figures::of(&r, &r).local_hit_percent,
            cycles: r.timing.cycles,
        })
        .collect();
    capacity.sort_by_key(|p| p.tc_bytes);

    let mut scaling = Vec::new();
    for (fps, files) in &config.scaling {
        let c = NucaConfig {
            fps: *fps,
            ..m.clone()
        };
        let runs = config
            .organizations
            .iter()
            .map(|&k| (c.clone(), k))
            .collect();
        let (_, results) = replay_frame(files, runs, config, &replaying)?;
        next_file(&files.requests);
        scaling.push(ScalingPoint {
            fps: *fps,
            rows: report::rows(results),
        });
    }
    scaling.push(ScalingPoint {
        fps: m.fps,
        rows: organizations.clone(),
    });
    scaling.sort_by_key(|p| p.fps);
    let fewest = &scaling[0];
    let replication = fewest
        .rows
        .iter()
        .find(|r| r.organization == OrgKind::Private)
        .map(|r| Replication::of(&r.result, fewest.fps))
        .unwrap_or_default();

    let mut assignments = vec![AssignmentPoint {
        assignment: config.assignment.clone(),
        rows: organizations.clone(),
    }];
    for (name, files) in &config.assignments {
        let runs = config
            .organizations
            .iter()
            .map(|&k| (m.clone(), k))
            .collect();
        let (_, results) = replay_frame(files, runs, config, &replaying)?;
        next_file(&files.requests);
        assignments.push(AssignmentPoint {
            assignment: name.clone(),
            rows: report::rows(results),
        });
    }
    progress(Progress::bytes(REPLAYING, total, total));
    let mut warnings = Vec::new();
    if config.frame.trace.is_none() {
        warnings.push(
            "no trace of the frame was given: the L2 holds texture blocks only, and the \"all streams\" L2 figures equal the texture ones".to_string(),
        );
    }
    let late: u64 = organizations
        .iter()
        .map(|r| r.result.l2.late_reservations)
        .sum();
    if late > 0 {
        warnings.push(format!(
            "{late} L2 bank reservations fell more than a calendar window behind and were held to its start"
        ));
    }
    let late: u64 = organizations
        .iter()
        .map(|r| r.result.bus.late_reservations)
        .sum();
    if late > 0 {
        warnings.push(format!(
            "{late} bus reservations fell more than a calendar window behind and were held to its start"
        ));
    }
    let seconds = [("replay".to_string(), start.elapsed().as_secs_f64())].into();
    Ok(NucaReport {
        scene: None,
        requests: config.frame.requests.display().to_string(),
        trace: config.frame.trace.as_ref().map(|t| t.display().to_string()),
        seconds,
        config: m.clone(),
        machine: config.machine.clone(),
        issue: config.issue,
        request_unit: config.request_unit,
        frame: FrameSummary {
            fps: m.fps,
            assignment: config.assignment.clone(),
            ..frame
        },
        organizations,
        replication,
        capacity,
        scaling,
        sweeps,
        assignments,
        paper: paper::numbers(),
        warnings,
    })
}

/// Replays the frame of `files` through `runs`; its summary and the runs'
/// results in order.
fn replay_frame(
    files: &FrameFiles,
    runs: Vec<(NucaConfig, OrgKind)>,
    config: &NucaStudyConfig,
    replaying: &(dyn Fn(u64) + Sync),
) -> Result<(FrameSummary, Vec<OrgResult>), StudyError> {
    let path = files.requests.clone();
    let input_error = |source| StudyError::Input {
        path: path.clone(),
        source,
    };
    let block_bytes = runs[0].0.block_bytes;
    let reader =
        TexReqReader::open(&files.requests).map_err(|e| input_error(InputError::Trace(e)))?;
    let mut input = FrameInput::new(
        reader,
        &files.requests,
        files.trace.as_deref(),
        config.issue,
        config.request_unit,
        block_bytes,
    )
    .map_err(input_error)?;
    let mut replay = Replay::of_runs(runs).map_err(|source| StudyError::Replay {
        path: path.clone(),
        source,
    })?;
    let replay_error = |source| StudyError::Replay {
        path: path.clone(),
        source,
    };
    let mut summary = FrameSummary::default();
    // With threads, the frame is read and decoded on a thread of its own,
    // a chunk ahead of the replay; the chunks and their order are the
    // same either way.
    let requests = match config.threads {
        Threads::One => {
            let mut chunk = Vec::with_capacity(REPLAY_CHUNK + 4096);
            loop {
                let more = next_chunk(&mut input, &mut chunk).map_err(input_error)?;
                replaying(input.file_bytes_read());
                count(&chunk, &mut summary);
                replay.feed(&chunk, config.threads).map_err(replay_error)?;
                chunk.clear();
                if !more {
                    break;
                }
            }
            (input.requests(), input.instructions())
        }
        Threads::Many => std::thread::scope(|scope| {
            let (full, filled) = std::sync::mpsc::sync_channel::<Vec<ReplayEvent>>(1);
            let (empty, emptied) = std::sync::mpsc::channel::<Vec<ReplayEvent>>();
            let reader = scope.spawn(move || {
                let mut chunk = Vec::with_capacity(REPLAY_CHUNK + 4096);
                loop {
                    let more = next_chunk(&mut input, &mut chunk)?;
                    replaying(input.file_bytes_read());
                    if full.send(std::mem::take(&mut chunk)).is_err() || !more {
                        break;
                    }
                    chunk = emptied
                        .recv()
                        .unwrap_or_else(|_| Vec::with_capacity(REPLAY_CHUNK + 4096));
                    chunk.clear();
                }
                Ok((input.requests(), input.instructions()))
            });
            for mut chunk in filled {
                count(&chunk, &mut summary);
                replay.feed(&chunk, config.threads).map_err(replay_error)?;
                chunk.clear();
                let _ = empty.send(chunk);
            }
            reader
                .join()
                .expect("the frame reader does not panic")
                .map_err(input_error)
        })?,
    };
    replay.finish(config.threads);
    (summary.texture_requests, summary.shader_instructions) = requests;
    Ok((summary, replay.results()))
}

/// Reads whole tiles into `chunk` until it holds a replay chunk's events
/// (true: more may follow) or the input ends (false: the last, possibly
/// empty, chunk).
fn next_chunk<R: std::io::Read>(
    input: &mut FrameInput<R>,
    chunk: &mut Vec<ReplayEvent>,
) -> Result<bool, InputError> {
    loop {
        if !input.next_tile(chunk)? {
            return Ok(false);
        }
        if chunk.len() >= REPLAY_CHUNK {
            return Ok(true);
        }
    }
}

/// Adds `events` to the frame's summary.
fn count(events: &[ReplayEvent], s: &mut FrameSummary) {
    for e in events {
        match *e {
            ReplayEvent::Texture(a) => {
                s.texture_accesses += 1;
                s.work_cycles += u64::from(a.work);
            }
            ReplayEvent::Work { work, .. } => s.work_cycles += u64::from(work),
            ReplayEvent::Other { .. } => s.other_accesses += 1,
            ReplayEvent::TileEnd => s.tiles += 1,
        }
    }
}

/// The frame files `dir/frame.gtq.zst` and `dir/frame.gtr`, as a command
/// that renders into `dir` names them.
pub fn frame_files_in(dir: &Path, stem: &str) -> FrameFiles {
    FrameFiles {
        requests: dir.join(format!("{stem}.gtq.zst")),
        trace: Some(dir.join(format!("{stem}.gtr"))),
    }
}
