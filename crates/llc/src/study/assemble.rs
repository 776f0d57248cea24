//! From finished runs to the report: the figures of the paper, each
//! computed once here so that every writer shows the same numbers.

use std::collections::BTreeMap;
use std::path::Path;

use gfxcache_cache::Reuse;
use gfxcache_mem::FrameTiming;
use gfxcache_trace::{Stream, TraceMeta};

use super::report::*;
use super::runs::T_VALUES;
use super::{GspcConfig, Run};

/// A finished run.
struct Done {
    spec: String,
    size: u64,
    stats: gfxcache_cache::Stats,
    reuse: Reuse,
    timing: BTreeMap<&'static str, FrameTiming>,
    report: Vec<(&'static str, f64)>,
}

pub(super) fn report(
    trace: &Path,
    meta: &TraceMeta,
    setup: &GspcConfig,
    runs: Vec<Run>,
    seconds: BTreeMap<String, f64>,
) -> GspcReport {
    let done: Vec<Done> = runs
        .into_iter()
        .map(|r| Done {
            spec: r.spec.to_string(),
            size: r.size,
            stats: r.cache.stats().clone(),
            reuse: r.cache.reuse().unwrap_or_default(),
            report: r.cache.report(),
            timing: r.timers.into_iter().map(|(n, t)| (n, t.finish())).collect(),
        })
        .collect();
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
        timing_configs: setup
            .machines
            .iter()
            .map(|m| TimingConfig {
                name: m.name.to_string(),
                about: m.about.to_string(),
            })
            .collect(),
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
    let fps_base = find(fps_baseline(&d.spec));
    let rate = |s: Stream| d.stats.stream(s).hit_rate();
    let rt_rate = {
        let mut c = *d.stats.stream(Stream::Rt);
        c.add(d.stats.stream(Stream::Display));
        c.hit_rate()
    };
    let at_max = |s: Stream| d.reuse.has_rrpv.then(|| d.reuse.fills_at_max_fraction(s));
    let timing: BTreeMap<String, Timing> = d
        .timing
        .iter()
        .map(|(name, t)| {
            let base = fps_base
                .and_then(|b| b.timing.get(name))
                .map_or(0.0, |b| b.fps);
            (
                name.to_string(),
                Timing {
                    frame_ms: t.frame_ns / 1e6,
                    fps: t.fps,
                    fps_vs_drrip: ratio(t.fps, base),
                    dram_reads: t.dram_reads,
                    dram_writes: t.dram_writes,
                    dram_bandwidth_gbps: t.dram_bandwidth_gbps,
                    mean_read_latency_ns: t.mean_read_latency_ns,
                },
            )
        })
        .collect();
    let base_timing = timing.get("baseline");
    PolicyResult {
        policy: d.spec.clone(),
        size: d.size,
        accesses: total.accesses,
        misses: total.misses,
        misses_vs_drrip: ratio(total.misses as f64, drrip_misses as f64),
        hit_rate: HitRates {
            tex: rate(Stream::Tex),
            rt: rt_rate,
            z: rate(Stream::Z),
            all: total.hit_rate(),
        },
        tex_hits_inter: d.reuse.tex_hits_inter,
        tex_hits_intra: d.reuse.tex_hits_intra,
        rt_consumed_fraction: d.reuse.rt_consumed_fraction(),
        rt_fills_at_max_rrpv: at_max(Stream::Rt),
        tex_fills_at_max_rrpv: at_max(Stream::Tex),
        writebacks: total.writebacks,
        fps: base_timing.map_or(0.0, |t| t.fps),
        fps_vs_drrip: base_timing.map_or(0.0, |t| t.fps_vs_drrip),
        timing,
        report: d.report.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
    }
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
