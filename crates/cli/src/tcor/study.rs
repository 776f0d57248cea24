//! Running the TCOR study: the Attribute Cache sweeps on the binned render
//! passes, and six runs (three Tiling Engines at two Tile Cache sizes)
//! through the shared L2, the trace decoded once and every batch fed to
//! every run in parallel.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use gfxcache_cache::run::{self, Threads};
use gfxcache_cache::stats::ratio;
use gfxcache_cache::Ways;
use gfxcache_mem::{EnergyModel, MemoryEnergy};
use gfxcache_tcor::bound::frame_lower_bound;
use gfxcache_tcor::{
    characteristics, reaches_bound, sweep, AttributeCacheConfig, BaselineConfig, Binning,
    FetcherTiming, FrameL2, FrameL2Stats, L2Config, L2Policy, PassTraffic, PbLayout, Replacement,
    TcorConfig, TileBuffers, TilingEngine,
};
use rayon::prelude::*;

use super::paper;
use super::report::*;
use crate::cmd::open_trace;
use crate::gspc::write::size_label;
use crate::progress;

/// What the study runs with.
pub struct Setup {
    /// Capacity and ways of the shared L2 (its policy depends on the run).
    pub l2_bytes: u64,
    pub l2_ways: u32,
    pub tile_buffers: TileBuffers,
    pub timing: FetcherTiming,
    /// Attribute Cache sizes of the miss-ratio curves, increasing.
    pub sizes: Vec<u64>,
    /// How close to the lower bound counts as reaching it.
    pub tolerance: f64,
    pub energy: EnergyModel,
    pub threads: Threads,
}

/// The Attribute Cache policies at each associativity: Figure 11 (fully
/// associative), 12 (1, 2, 4, 8 ways) and 13 (4 ways).
pub fn curve_set() -> Vec<(Ways, Vec<Replacement>)> {
    use Replacement::*;
    vec![
        (Ways::Full, vec![Opt, Lru]),
        (Ways::N(1), vec![Opt, Lru]),
        (Ways::N(2), vec![Opt, Lru]),
        (Ways::N(4), vec![Opt, Lru, Mru, Drrip]),
        (Ways::N(8), vec![Opt, Lru]),
    ]
}

/// The render passes of `path`, binned, with their Table II rows.
fn read_binned(path: &Path) -> Result<(Vec<PassCharacteristics>, Vec<Binning>)> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let passes =
        gfxcache_tcor::binned_file::parse(&bytes).with_context(|| path.display().to_string())?;
    Ok(passes
        .into_iter()
        .map(|p| {
            let row = PassCharacteristics {
                frame: p.frame_number,
                pass: p.pass,
                characteristics: characteristics(&p.binning),
            };
            (row, p.binning)
        })
        .unzip())
}

fn frame_characteristics(passes: &[PassCharacteristics]) -> FrameCharacteristics {
    let mut f = FrameCharacteristics::default();
    for p in passes {
        let c = &p.characteristics;
        f.primitives += c.primitives;
        f.attributes += c.attributes;
        f.tile_uses += c.tile_uses;
        f.footprint_bytes += c.footprint_bytes;
        f.largest_pass_footprint_bytes = f.largest_pass_footprint_bytes.max(c.footprint_bytes);
    }
    f.average_reuse = ratio(f.tile_uses, f.primitives);
    f
}

/// One of the six runs before it has seen the trace.
struct Plan {
    engine: &'static str,
    tile_cache: u64,
    about: String,
    l2_policy: L2Policy,
    /// Index into the Parameter Buffer traffics.
    traffic: usize,
    /// The Tiling Engine's L1s: (bytes, which count).
    l1: Vec<(u64, L1Kind)>,
}

#[derive(Clone, Copy)]
enum L1Kind {
    /// Lists and attributes in one cache.
    Both,
    Lists,
    Attributes,
}

fn plans() -> (Vec<TilingEngine>, Vec<Plan>) {
    let mut engines = Vec::new();
    let mut plans = Vec::new();
    for (base, tcor) in [
        (BaselineConfig::kib64(), TcorConfig::kib64()),
        (BaselineConfig::kib128(), TcorConfig::kib128()),
    ] {
        let size = base.tile_cache_bytes;
        let label = size_label(size);
        let t = engines.len();
        engines.push(TilingEngine::Baseline(base));
        engines.push(TilingEngine::Tcor(tcor));
        // The Attribute Cache's share of the Tile Cache (48 or 112 KiB; its
        // entries are the 48-byte attributes that fit).
        let attr_bytes = size - tcor.list_cache_bytes;
        let tcor_l1 = vec![
            (tcor.list_cache_bytes, L1Kind::Lists),
            (attr_bytes, L1Kind::Attributes),
        ];
        let tcor_about = format!(
            "TCOR: {} Primitive List Cache (LRU) + {} Attribute Cache (OPT, {} lines), interleaved PB-Lists",
            size_label(tcor.list_cache_bytes),
            size_label(attr_bytes),
            tcor.attribute_cache.lines
        );
        plans.push(Plan {
            engine: ENGINES[0],
            tile_cache: size,
            about: format!("{label} 4-way LRU Tile Cache, baseline PB-Lists; LRU L2"),
            l2_policy: L2Policy::Lru,
            traffic: t,
            l1: vec![(size, L1Kind::Both)],
        });
        plans.push(Plan {
            engine: ENGINES[1],
            tile_cache: size,
            about: format!("{tcor_about}; LRU L2"),
            l2_policy: L2Policy::Lru,
            traffic: t + 1,
            l1: tcor_l1.clone(),
        });
        plans.push(Plan {
            engine: ENGINES[2],
            tile_cache: size,
            about: format!("{tcor_about}; dead-line-aware L2"),
            l2_policy: L2Policy::DeadAware,
            traffic: t + 1,
            l1: tcor_l1,
        });
    }
    (engines, plans)
}

/// Runs the whole study over `trace` and its binned passes.
pub fn run_study(
    trace: &Path,
    binned: &Path,
    setup: &Setup,
    other_l1: Vec<L1Count>,
) -> Result<TcorReport> {
    setup
        .energy
        .check()
        .map_err(|e| anyhow::anyhow!("energy model: {e}"))?;
    let mut seconds = BTreeMap::new();
    let start = Instant::now();
    let (passes, binnings) = read_binned(binned)?;
    seconds.insert("read_binned".to_string(), start.elapsed().as_secs_f64());

    // The L2 runs first: they also check that the trace and the binned
    // passes are of the same frame, before the long curves.
    let start = Instant::now();
    let (engines, plans) = plans();
    let traffic: Vec<Vec<PassTraffic>> = engines
        .par_iter()
        .map(|e| binnings.iter().map(|b| PassTraffic::new(b, e)).collect())
        .collect::<Result<_, _>>()
        .context("replaying the Parameter Buffer")?;
    let (meta, stats) = simulate(trace, &traffic, &plans, setup)?;
    seconds.insert("l2".to_string(), start.elapsed().as_secs_f64());

    let start = Instant::now();
    let curves = curves(&binnings, setup)?;
    seconds.insert(
        "attribute_cache_curves".to_string(),
        start.elapsed().as_secs_f64(),
    );

    let runs: Vec<EngineRun> = plans
        .iter()
        .zip(stats)
        .map(|(p, s)| EngineRun {
            engine: p.engine.to_string(),
            tile_cache: size_label(p.tile_cache),
            about: p.about.clone(),
            l2_policy: match p.l2_policy {
                L2Policy::Lru => "lru",
                L2Policy::DeadAware => "dead-aware",
            }
            .to_string(),
            energy: energy(setup, p, &s, &other_l1),
            stats: s,
        })
        .collect();

    let mut lower_bound = BTreeMap::new();
    for (label, c) in [
        ("64KiB", AttributeCacheConfig::tcor_48k()),
        ("128KiB", AttributeCacheConfig::tcor_112k()),
    ] {
        let lb = binnings.iter().map(|b| frame_lower_bound(b, &c)).sum();
        lower_bound.insert(label.to_string(), lb);
    }
    let first = runs.first().map(|r| r.stats).unwrap_or_default();
    let mut report = TcorReport {
        trace: trace.display().to_string(),
        binned: binned.display().to_string(),
        scene: meta.scene.clone(),
        resolution: meta.resolution.map(|[w, h]| (w, h)),
        render_passes: first.render_passes,
        tiles: first.tiles,
        frame: frame_characteristics(&passes),
        passes,
        l2: L2Setup {
            bytes: setup.l2_bytes,
            ways: setup.l2_ways,
            tile_buffers: setup.tile_buffers,
            fetcher: setup.timing,
        },
        reach: reach(&curves, setup.tolerance),
        curves,
        lower_bound,
        pb_l2_accesses: by_size(&runs, |s| s.stats.pb_l2_accesses()),
        pb_dram_accesses: by_size(&runs, |s| s.stats.pb_memory_accesses()),
        dram_accesses: by_size(&runs, |s| s.stats.memory_accesses()),
        energy_nj: by_size(&runs, |s| s.energy.total_nj),
        primitives_per_cycle: by_size(&runs, |s| s.stats.fetcher.primitives_per_cycle),
        reductions: BTreeMap::new(),
        paper: paper::reductions(),
        energy_model: setup.energy,
        other_l1,
        runs,
        seconds,
    };
    report.reductions = reductions(&report);
    Ok(report)
}

/// The smallest Attribute Cache that holds every render pass whole (its
/// attributes in the Attribute Buffer, its primitives in the Primitive
/// Buffer): from there on every policy misses exactly LB.
fn whole_frame_bytes(binnings: &[Binning]) -> u64 {
    binnings
        .iter()
        .map(|b| b.total_attributes().max(2 * u64::from(b.primitives())) * 48)
        .max()
        .unwrap_or(0)
}

/// `sizes`, then doublings of the largest until one holds `whole` bytes:
/// the fully associative curves go that far, so that Figure 11 shows where
/// LRU reaches the bound too.
fn extended(sizes: &[u64], whole: u64) -> Vec<u64> {
    let mut out = sizes.to_vec();
    while let Some(&last) = out.last() {
        if last >= whole {
            break;
        }
        out.push(last * 2);
    }
    out
}

/// Every curve of [`curve_set`] at every size (the fully associative ones
/// [`extended`]), the points in parallel.
fn curves(binnings: &[Binning], setup: &Setup) -> Result<Vec<Curve>> {
    let set = curve_set();
    let full_sizes = extended(&setup.sizes, whole_frame_bytes(binnings));
    let jobs: Vec<(usize, Ways, Replacement, u64)> = set
        .iter()
        .enumerate()
        .flat_map(|(i, (w, rs))| {
            let sizes = if *w == Ways::Full {
                &full_sizes
            } else {
                &setup.sizes
            };
            rs.iter()
                .flat_map(move |r| sizes.iter().map(move |s| (i, *w, *r, *s)))
        })
        .collect();
    let bar = progress::count("attribute cache", jobs.len() as u64);
    let layout = PbLayout::interleaved();
    let points = jobs
        .par_iter()
        .map(|&(_, w, r, s)| {
            let p = sweep::point(binnings, &layout, s, w, r);
            bar.inc(1);
            p
        })
        .collect::<Result<Vec<_>, _>>()
        .context("Attribute Cache sweep")?;
    bar.finish_and_clear();
    let mut curves: Vec<Curve> = Vec::new();
    for (&(_, w, r, _), p) in jobs.iter().zip(points) {
        let (policy, ways) = (policy_name(r), ways_name(w));
        match curves.last_mut() {
            Some(c) if c.policy == policy && c.ways == ways => c.points.push(p),
            _ => curves.push(Curve {
                policy,
                ways,
                points: vec![p],
            }),
        }
    }
    Ok(curves)
}

fn policy_name(r: Replacement) -> String {
    match r {
        Replacement::Opt => "opt",
        Replacement::Lru => "lru",
        Replacement::Mru => "mru",
        Replacement::Drrip => "drrip",
    }
    .to_string()
}

fn ways_name(w: Ways) -> String {
    match w {
        Ways::Full => "full".to_string(),
        Ways::N(n) => n.to_string(),
    }
}

fn reach(curves: &[Curve], tolerance: f64) -> Reach {
    let points: Vec<ReachPoint> = curves
        .iter()
        .map(|c| ReachPoint {
            policy: c.policy.clone(),
            ways: c.ways.clone(),
            bytes: reaches_bound(&c.points, tolerance),
        })
        .collect();
    let full = |policy: &str| {
        points
            .iter()
            .find(|p| p.ways == "full" && p.policy == policy)
            .and_then(|p| p.bytes)
    };
    let lru_over_opt_full = match (full("lru"), full("opt")) {
        (Some(l), Some(o)) if o > 0 => Some(l as f64 / o as f64),
        _ => None,
    };
    Reach {
        tolerance,
        curves: points,
        lru_over_opt_full,
    }
}

/// Feeds the trace to the six runs.
fn simulate(
    trace: &Path,
    traffic: &[Vec<PassTraffic>],
    plans: &[Plan],
    setup: &Setup,
) -> Result<(gfxcache_trace::TraceMeta, Vec<FrameL2Stats>)> {
    let mut l2s = plans
        .iter()
        .map(|p| {
            FrameL2::new(
                &traffic[p.traffic],
                L2Config {
                    bytes: setup.l2_bytes,
                    ways: setup.l2_ways,
                    policy: p.l2_policy,
                },
                setup.tile_buffers,
                setup.timing,
            )
        })
        .collect::<Result<Vec<_>, _>>()
        .context("the L2")?;
    let mut reader = open_trace(trace)?;
    let meta = reader.meta().clone();
    let bar = progress::bytes("L2", reader.progress().1);
    let parallel = setup.threads == Threads::Many;
    run::for_each_batch(
        reader.as_mut(),
        setup.threads,
        |batch| -> Result<()> {
            let r: Result<(), _> = if parallel {
                l2s.par_iter_mut().try_for_each(|l| l.batch(batch))
            } else {
                l2s.iter_mut().try_for_each(|l| l.batch(batch))
            };
            Ok(r?)
        },
        |d, _| bar.set_position(d),
    )
    .with_context(|| {
        format!(
            "{} against {} binned passes",
            trace.display(),
            traffic[0].len()
        )
    })?;
    bar.finish_and_clear();
    let stats = l2s
        .into_iter()
        .map(FrameL2::finish)
        .collect::<Result<Vec<_>, _>>()
        .with_context(|| format!("{} against its binned passes", trace.display()))?;
    Ok((meta, stats))
}

fn energy(setup: &Setup, p: &Plan, s: &FrameL2Stats, other_l1: &[L1Count]) -> MemoryEnergy {
    let e = &s.engine;
    let mut l1: Vec<(u64, u64)> =
        p.l1.iter()
            .map(|&(bytes, kind)| {
                let n = match kind {
                    L1Kind::Both => e.lists_accesses + e.attribute_accesses,
                    L1Kind::Lists => e.lists_accesses,
                    L1Kind::Attributes => e.attribute_accesses,
                };
                (bytes, n)
            })
            .collect();
    l1.extend(other_l1.iter().map(|c| (c.bytes, c.accesses)));
    let l2 = (setup.l2_bytes, s.l2.pb_accesses + s.l2.other_accesses);
    MemoryEnergy::of(&setup.energy, &l1, l2, s.memory_reads(), s.memory_writes())
}

/// `f` of every run, by Tile Cache size then engine.
pub(crate) fn by_size<T>(
    runs: &[EngineRun],
    f: impl Fn(&EngineRun) -> T,
) -> BTreeMap<String, BTreeMap<String, T>> {
    let mut m: BTreeMap<String, BTreeMap<String, T>> = BTreeMap::new();
    for r in runs {
        m.entry(r.tile_cache.clone())
            .or_default()
            .insert(r.engine.clone(), f(r));
    }
    m
}

/// How many times faster `ours` is than `base` (rates), 0 without a base.
fn speedup(base: f64, ours: f64) -> f64 {
    if base == 0.0 {
        0.0
    } else {
        ours / base
    }
}

/// Decrease of `ours` from `base` in percent.
fn decrease(base: f64, ours: f64) -> f64 {
    if base == 0.0 {
        0.0
    } else {
        100.0 * (base - ours) / base
    }
}

fn reductions(r: &TcorReport) -> BTreeMap<String, Reductions> {
    let mut out = BTreeMap::new();
    for size in r.pb_l2_accesses.keys() {
        let get = |m: &BTreeMap<String, BTreeMap<String, u64>>, e: &str| {
            m.get(size).and_then(|x| x.get(e)).copied().unwrap_or(0) as f64
        };
        let getf = |m: &BTreeMap<String, BTreeMap<String, f64>>, e: &str| {
            m.get(size).and_then(|x| x.get(e)).copied().unwrap_or(0.0)
        };
        let [base, no_l2, tcor] = ENGINES;
        out.insert(
            size.clone(),
            Reductions {
                pb_l2_accesses: decrease(
                    get(&r.pb_l2_accesses, base),
                    get(&r.pb_l2_accesses, tcor),
                ),
                pb_dram_accesses: decrease(
                    get(&r.pb_dram_accesses, base),
                    get(&r.pb_dram_accesses, tcor),
                ),
                dram_accesses: decrease(get(&r.dram_accesses, base), get(&r.dram_accesses, tcor)),
                energy: decrease(getf(&r.energy_nj, base), getf(&r.energy_nj, tcor)),
                energy_no_l2: decrease(getf(&r.energy_nj, base), getf(&r.energy_nj, no_l2)),
                fetcher_speedup: speedup(
                    getf(&r.primitives_per_cycle, base),
                    getf(&r.primitives_per_cycle, tcor),
                ),
            },
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fully_associative_sizes_extend_until_the_frame_fits() {
        assert_eq!(extended(&[4, 8], 8), vec![4, 8]);
        assert_eq!(extended(&[4, 8], 9), vec![4, 8, 16]);
        assert_eq!(extended(&[4, 8], 33), vec![4, 8, 16, 32, 64]);
        assert_eq!(extended(&[], 33), Vec::<u64>::new());
    }
}
