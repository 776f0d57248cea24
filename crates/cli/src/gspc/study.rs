//! Running the GSPC study: every run (a policy at an LLC size) is a cache
//! built observed ([`gfxcache_cache::observe`]) with frame timers behind it;
//! the trace is decoded once and every batch goes to every run in parallel.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result};
use gfxcache_cache::run::{self, Threads};
use gfxcache_cache::{BlockEvent, BlockOutcome, CacheSim, Env, Geometry, PolicySpec, Reuse, Ways};
use gfxcache_mem::{DramConfig, FrameTimer, FrameTiming, GpuConfig, LlcTiming};
use gfxcache_trace::{Stream, TraceMeta};
use rayon::prelude::*;

use super::report::*;
use super::runs::{main_specs, other_specs, T_VALUES};
use crate::cmd::open_trace;
use crate::progress;

/// A named machine the frame time is computed on.
#[derive(Clone)]
pub struct Machine {
    pub name: &'static str,
    pub about: &'static str,
    pub gpu: GpuConfig,
    pub llc: LlcTiming,
    pub dram: DramConfig,
    /// Whether runs at sizes other than the main one are timed on it too.
    pub every_size: bool,
}

/// The paper's baseline (Section 4) and the two machines of Figure 17.
pub fn machines(gpu: &GpuConfig) -> Vec<Machine> {
    let llc = LlcTiming::default();
    vec![
        Machine {
            name: "baseline",
            about: "GPU of Section 4 (96 cores x 8 threads, 12 samplers), LLC at 4 GHz (20 cycles), dual-channel DDR3-1600 15-15-15",
            gpu: gpu.clone(),
            llc: llc.clone(),
            dram: DramConfig::ddr3_1600(),
            every_size: true,
        },
        Machine {
            name: "ddr3-1867",
            about: "as baseline, DDR3-1867 10-10-10 (Figure 17, upper)",
            gpu: gpu.clone(),
            llc: llc.clone(),
            dram: DramConfig::ddr3_1867(),
            every_size: false,
        },
        Machine {
            name: "gpu-64",
            about: "as baseline, 64 cores x 8 threads and 8 samplers (Figure 17, lower)",
            gpu: GpuConfig {
                work_cycles: gpu.work_cycles,
                ..GpuConfig::less_aggressive()
            },
            llc,
            dram: DramConfig::ddr3_1600(),
            every_size: false,
        },
    ]
}

/// What the study runs on.
pub struct Setup {
    pub sizes: Vec<u64>,
    pub ways: u32,
    pub block: u32,
    pub banks: u32,
    pub machines: Vec<Machine>,
    pub threads: Threads,
}

/// One policy at one size, with its timers.
struct Run {
    spec: PolicySpec,
    size: u64,
    cache: Box<dyn CacheSim>,
    timers: Vec<(&'static str, FrameTimer)>,
    events: Vec<BlockEvent>,
}

impl Run {
    fn batch(&mut self, accesses: &[gfxcache_trace::Access]) {
        self.cache.access_batch_events(accesses, &mut self.events);
        for (_, t) in &mut self.timers {
            feed(t, &self.events);
        }
    }
}

/// Hands the LLC's outcomes to a frame timer: every access with whether it
/// hit, and every dirty eviction as a memory write.
fn feed(timer: &mut FrameTimer, events: &[BlockEvent]) {
    for e in events {
        let hit = e.outcome == BlockOutcome::Hit;
        timer.access(e.block, e.stream, e.write, hit);
        if let BlockOutcome::Fill {
            victim: Some((victim, true)),
        } = e.outcome
        {
            timer.writeback(victim);
        }
    }
}

/// The LLC of `size` bytes in the study's shape.
pub fn geometry(setup: &Setup, size: u64) -> Result<Geometry> {
    Ok(Geometry::from_size(size, Ways::N(setup.ways), setup.block)?.with_banks(setup.banks)?)
}

/// Runs the whole study over `trace`.
pub fn run_study(trace: &Path, setup: &Setup) -> Result<GspcReport> {
    let mut seconds = BTreeMap::new();
    let start = Instant::now();
    let mut env = Env::default();
    {
        let mut reader = open_trace(trace)?;
        let bar = progress::bytes("next uses", reader.progress().1);
        let nu = run::next_use(reader.as_mut(), setup.block, setup.threads, |d, _| {
            bar.set_position(d)
        })
        .with_context(|| format!("cannot compute next uses of {}", trace.display()))?;
        bar.finish_and_clear();
        env.next_use = Some(Arc::new(nu));
    }
    seconds.insert("next_use".to_string(), start.elapsed().as_secs_f64());

    let mut runs = Vec::new();
    for (i, &size) in setup.sizes.iter().enumerate() {
        let geom = geometry(setup, size)?;
        let specs = if i == 0 { main_specs() } else { other_specs() };
        for s in &specs {
            let spec: PolicySpec = s.parse()?;
            let cache = gfxcache_llc::build_observed(&spec, &geom, &env)?;
            let timers = setup
                .machines
                .iter()
                .filter(|m| i == 0 || m.every_size)
                .map(|m| {
                    // The timed LLC is the simulated one: its banks and size.
                    let llc = LlcTiming {
                        banks: setup.banks,
                        bank_bytes: size / u64::from(setup.banks.max(1)),
                        ..m.llc.clone()
                    };
                    FrameTimer::new(&m.gpu, &llc, &m.dram)
                        .map(|t| (m.name, t))
                        .with_context(|| format!("timing machine {}", m.name))
                })
                .collect::<Result<_>>()?;
            runs.push(Run {
                spec,
                size,
                cache,
                timers,
                events: Vec::new(),
            });
        }
    }

    let start = Instant::now();
    let mut reader = open_trace(trace)?;
    let meta = reader.meta().clone();
    let bar = progress::bytes("simulating", reader.progress().1);
    let parallel = setup.threads == Threads::Many;
    run::for_each_batch(
        reader.as_mut(),
        setup.threads,
        |batch| {
            if parallel {
                runs.par_iter_mut().for_each(|r| r.batch(&batch.accesses));
            } else {
                runs.iter_mut().for_each(|r| r.batch(&batch.accesses));
            }
            Ok::<(), gfxcache_trace::TraceError>(())
        },
        |d, _| bar.set_position(d),
    )
    .with_context(|| format!("cannot simulate {}", trace.display()))?;
    bar.finish_and_clear();
    seconds.insert("simulate".to_string(), start.elapsed().as_secs_f64());

    Ok(assemble(trace, &meta, setup, runs, seconds))
}

/// A finished run.
struct Done {
    spec: String,
    size: u64,
    stats: gfxcache_cache::Stats,
    reuse: Reuse,
    timing: BTreeMap<&'static str, FrameTiming>,
    report: Vec<(&'static str, f64)>,
}

fn assemble(
    trace: &Path,
    meta: &TraceMeta,
    setup: &Setup,
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
