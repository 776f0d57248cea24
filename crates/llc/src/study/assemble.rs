//! From finished runs to the report: the figures of the paper, each
//! computed once here so that every writer shows the same numbers.

use std::collections::BTreeMap;
use std::path::Path;

use gfxcache_cache::{Reuse, Stats};
use gfxcache_mem::{FrameTiming, LINE_BYTES};
use gfxcache_trace::{Stream, TraceMeta};

use super::report::*;
use super::runs::T_VALUES;
use super::timeline::{MissKinds, Timeline};
use super::{GspcConfig, Run};

/// A finished run, over the frames the study counts.
struct Done {
    spec: String,
    size: u64,
    stats: Stats,
    reuse: Reuse,
    misses: MissKinds,
    /// Each counted frame's timing, by machine.
    timing: BTreeMap<&'static str, Vec<FrameTiming>>,
    /// Each counted frame's counts, with the frame's index in the trace.
    frames: Vec<(u32, Stats)>,
    report: Vec<(&'static str, f64)>,
    /// What the policy makes of the geometry that its name does not say.
    notes: Vec<String>,
    timeline: Option<Timeline>,
}

impl Done {
    /// `r` over its frames from `warmup` on (the caller checked that it
    /// has more than `warmup` frames).
    fn of(r: Run, warmup: usize) -> Done {
        let before = warmup.checked_sub(1).map(|i| &r.frames[i]);
        let (zero, no_reuse) = (Stats::default(), Reuse::default());
        let base = before.map_or(&zero, |f| &f.stats);
        let no_misses = MissKinds::default();
        let (stats, reuse, misses) = match r.frames.last() {
            Some(last) => (
                last.stats.since(base),
                last.reuse.since(before.map_or(&no_reuse, |f| &f.reuse)),
                last.misses.since(before.map_or(&no_misses, |f| &f.misses)),
            ),
            None => (zero.clone(), no_reuse.clone(), no_misses),
        };
        let counted = &r.frames[warmup.min(r.frames.len())..];
        let mut frames = Vec::with_capacity(counted.len());
        let mut prev = base;
        for (k, f) in counted.iter().enumerate() {
            frames.push(((warmup + k) as u32, f.stats.since(prev)));
            prev = &f.stats;
        }
        let timing = r
            .timers
            .iter()
            .enumerate()
            .map(|(i, (name, _))| (*name, counted.iter().map(|f| f.timing[i].clone()).collect()))
            .collect();
        Done {
            spec: r.spec.to_string(),
            size: r.size,
            report: r.cache.report(),
            notes: r.cache.notes().to_vec(),
            stats,
            reuse,
            misses,
            timing,
            frames,
            timeline: r.timeline_done,
        }
    }
}

pub(super) fn report(
    trace: &Path,
    meta: &TraceMeta,
    setup: &GspcConfig,
    runs: Vec<Run>,
    seconds: BTreeMap<String, f64>,
) -> GspcReport {
    let frames = runs.first().map_or(0, |r| r.frames.len()) as u32;
    let warmup = setup.warmup as usize;
    let mut done: Vec<Done> = runs.into_iter().map(|r| Done::of(r, warmup)).collect();
    let timelines = done.iter_mut().filter_map(|d| d.timeline.take()).collect();
    let find = |spec: &str, size: u64| done.iter().find(|d| d.spec == spec && d.size == size);
    let main = setup.sizes[0];
    let policies = done
        .iter()
        .map(|d| policy_result(d, |spec| find(spec, d.size)))
        .collect();
    let mix = find("drrip", main)
        .map(|d| stream_mix(&d.stats))
        .unwrap_or_default();
    let opt_epochs = find("opt", main)
        .map(|d| opt_epochs(&d.reuse))
        .unwrap_or_default();
    let t16 = find("gspztc:t=16", main).map(|d| d.stats.total().misses);
    let mut ts = T_VALUES.to_vec();
    ts.push(8);
    ts.sort_unstable();
    let t_sensitivity = ts
        .iter()
        .filter_map(|&t| {
            let spec = if t == 8 {
                "gspztc".to_string()
            } else {
                format!("gspztc:t={t}")
            };
            let misses = find(&spec, main)?.stats.total().misses;
            let base = t16? as f64;
            Some(TPoint {
                t,
                misses,
                change_vs_t16: if base > 0.0 {
                    100.0 * (misses as f64 / base - 1.0)
                } else {
                    0.0
                },
            })
        })
        .collect();
    GspcReport {
        trace: trace.display().to_string(),
        scene: meta.scene.clone(),
        resolution: meta.resolution.map(|[w, h]| (w, h)),
        accesses: done.first().map_or(0, |d| d.stats.total().accesses),
        ways: setup.ways,
        block: setup.block,
        banks: setup.banks,
        sizes: setup.sizes.clone(),
        stream_mix: mix,
        policies,
        opt_epochs,
        t_sensitivity,
        frames,
        warmup: setup.warmup,
        warnings: warnings(&done),
        timelines,
        timing_configs: setup
            .machines
            .iter()
            .map(|m| TimingConfig {
                name: m.name.to_string(),
                about: m.about.to_string(),
            })
            .collect(),
        machine: setup.description.clone(),
        seconds,
    }
}

fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 {
        a / b
    } else {
        0.0
    }
}

/// The DRRIP run a spec's frame rate is compared with: `drrip+ucd` for
/// `+ucd` specs (the paper's Section 5.2 compares like with like), `drrip`
/// otherwise.
fn fps_baseline(spec: &str) -> &'static str {
    if spec.contains("+ucd") {
        "drrip+ucd"
    } else {
        "drrip"
    }
}

fn policy_result<'a>(d: &Done, find: impl Fn(&str) -> Option<&'a Done>) -> PolicyResult {
    let total = d.stats.total();
    let drrip = find("drrip");
    let drrip_misses = drrip.map_or(0, |b| b.stats.total().misses);
    let drrip_reads = drrip.map_or(0, |b| b.misses.read_total());
    let fps_base = find(fps_baseline(&d.spec));
    let at_max = |s: Stream| d.reuse.has_rrpv.then(|| d.reuse.fills_at_max_fraction(s));
    let timing: BTreeMap<String, Timing> = d
        .timing
        .iter()
        .map(|(name, frames)| {
            let base = fps_base
                .and_then(|b| b.timing.get(name))
                .map_or(0.0, |b| over_frames(b).fps);
            (name.to_string(), timing_of(over_frames(frames), base))
        })
        .collect();
    let base_timing = timing.get("baseline");
    let per_frame: Vec<FrameResult> = d
        .frames
        .iter()
        .enumerate()
        .map(|(k, (frame, stats))| {
            let t = d.timing.get("baseline").and_then(|f| f.get(k));
            let total = stats.total();
            FrameResult {
                frame: *frame,
                accesses: total.accesses,
                misses: total.misses,
                hit_rate: hit_rates(stats),
                frame_ms: t.map_or(0.0, |t| t.frame_ns / 1e6),
                fps: t.map_or(0.0, |t| t.fps),
            }
        })
        .collect();
    PolicyResult {
        policy: d.spec.clone(),
        size: d.size,
        accesses: total.accesses,
        misses: total.misses,
        misses_vs_drrip: ratio(total.misses as f64, drrip_misses as f64),
        read_misses: d.misses.read_total(),
        write_misses: d.misses.write_total(),
        read_misses_vs_drrip: ratio(d.misses.read_total() as f64, drrip_reads as f64),
        hit_rate: hit_rates(&d.stats),
        tex_hits_inter: d.reuse.tex_hits_inter,
        tex_hits_intra: d.reuse.tex_hits_intra,
        rt_consumed_fraction: d.reuse.rt_consumed_fraction(),
        rt_fills_at_max_rrpv: at_max(Stream::Rt),
        tex_fills_at_max_rrpv: at_max(Stream::Tex),
        writebacks: total.writebacks,
        fps: base_timing.map_or(0.0, |t| t.fps),
        fps_vs_drrip: base_timing.map_or(0.0, |t| t.fps_vs_drrip),
        timing,
        mean_per_frame: FrameMean::of(&per_frame),
        per_frame,
        report: d.report.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
    }
}

/// Hit rates of texture, render-target (`rt` and `display`), Z and all
/// accesses.
fn hit_rates(stats: &Stats) -> HitRates {
    let rate = |s: Stream| stats.stream(s).hit_rate();
    let mut rt = *stats.stream(Stream::Rt);
    rt.add(stats.stream(Stream::Display));
    HitRates {
        tex: rate(Stream::Tex),
        rt: rt.hit_rate(),
        z: rate(Stream::Z),
        all: stats.total().hit_rate(),
    }
}

/// Frames timed one by one, taken together: how long they took in all
/// and what moved, as the sums the means are made of.
struct OverFrames {
    frames: u64,
    frame_ps: u64,
    dram_reads: u64,
    dram_writes: u64,
    reads: u64,
    read_latency_ps: u64,
    /// Frames per second over the frames: their number over their time.
    fps: f64,
}

fn over_frames(frames: &[FrameTiming]) -> OverFrames {
    let mut o = OverFrames {
        frames: frames.len() as u64,
        frame_ps: 0,
        dram_reads: 0,
        dram_writes: 0,
        reads: 0,
        read_latency_ps: 0,
        fps: 0.0,
    };
    for t in frames {
        o.frame_ps += t.frame_ps;
        o.dram_reads += t.dram_reads;
        o.dram_writes += t.dram_writes;
        o.reads += t.reads;
        o.read_latency_ps += t.read_latency_ps;
    }
    if o.frame_ps > 0 {
        o.fps = 1e9 / mean_frame_ns(&o);
    }
    o
}

fn mean_frame_ns(o: &OverFrames) -> f64 {
    o.frame_ps as f64 / 1000.0 / o.frames.max(1) as f64
}

/// The report's timing of one machine over the counted frames: the mean
/// frame time, and the frame rate, bandwidth and read latency over all of
/// them (one frame: exactly that frame's).
fn timing_of(o: OverFrames, base_fps: f64) -> Timing {
    let ns = o.frame_ps as f64 / 1000.0;
    let per_ns = |x: f64| if o.frame_ps == 0 { 0.0 } else { x / ns };
    Timing {
        frame_ms: mean_frame_ns(&o) / 1e6,
        fps: o.fps,
        fps_vs_drrip: ratio(o.fps, base_fps),
        dram_reads: o.dram_reads,
        dram_writes: o.dram_writes,
        dram_bandwidth_gbps: per_ns(((o.dram_reads + o.dram_writes) * LINE_BYTES) as f64),
        mean_read_latency_ns: if o.reads == 0 {
            0.0
        } else {
            o.read_latency_ps as f64 / 1000.0 / o.reads as f64
        },
    }
}

/// What the reader of the report should know about its input, and what
/// a policy makes of a geometry that its name does not say.
fn warnings(done: &[Done]) -> Vec<String> {
    let mut out: Vec<String> = done
        .iter()
        .flat_map(|d| {
            let size = gfxcache_cache::format_size(d.size);
            d.notes
                .iter()
                .map(move |n| format!("{} at {size}: {n}", d.spec))
        })
        .collect();
    if let Some(d) = done.first() {
        let tagged = [Stream::Z, Stream::Tex, Stream::Rt, Stream::Display]
            .iter()
            .any(|&s| d.stats.stream(s).accesses > 0);
        if !tagged && d.stats.total().accesses > 0 {
            out.push(
                "the trace has no z, tex, rt or display accesses (stream tags missing, as in \
                 a .din trace?): the stream-aware policies see one class of lines only, and \
                 the per-stream hit rates and reuse analyses are empty"
                    .to_string(),
            );
        }
    }
    out
}

fn stream_mix(stats: &gfxcache_cache::Stats) -> Vec<StreamShare> {
    let total = stats.total().accesses as f64;
    stats
        .active_streams()
        .map(|(s, c)| StreamShare {
            stream: s.name().to_string(),
            accesses: c.accesses,
            fraction: ratio(c.accesses as f64, total),
        })
        .collect()
}

fn epochs(hits: [u64; 4], entries: [u64; 4], resident: [u64; 4], death: [f64; 3]) -> Epochs {
    let sum: u64 = hits.iter().sum();
    Epochs {
        hits_by_epoch: hits,
        hit_share_by_epoch: hits.map(|h| ratio(h as f64, sum as f64)),
        entries,
        resident,
        death_ratios: death,
    }
}

fn opt_epochs(r: &Reuse) -> OptEpochs {
    OptEpochs {
        tex: epochs(
            r.tex_hits_by_epoch,
            r.tex_epoch_entries,
            r.tex_epoch_resident,
            r.tex_death_ratios(),
        ),
        z: epochs(
            r.z_hits_by_epoch,
            r.z_epoch_entries,
            r.z_epoch_resident,
            r.z_death_ratios(),
        ),
        tex_inter_share: ratio(
            r.tex_hits_inter as f64,
            (r.tex_hits_inter + r.tex_hits_intra) as f64,
        ),
    }
}
