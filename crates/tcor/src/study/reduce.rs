//! The figures of Section V-B by Tile Cache size and engine, and TCOR's
//! decreases against the baseline.

use std::collections::BTreeMap;

use super::report::{EngineRun, Reductions, TcorReport, ENGINES};

/// `f` of every run, by Tile Cache size then engine.
pub fn by_size<T>(
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

pub(super) fn reductions(r: &TcorReport) -> BTreeMap<String, Reductions> {
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
