//! What the policy benchmarks time: a cache built outside the timing and
//! fed the whole trace ([`time_cache`]), and one run of OPT as `sim` makes
//! it, the next-use pass (sized from the footprint a `.gtr` writer would
//! have put in its footer) and the cache ([`run_opt`]).

use std::hint::black_box;
use std::sync::Arc;

use criterion::{BatchSize, Bencher};

use gfxcache_cache::stats::Counts;
use gfxcache_cache::{build_cache, Env, Geometry, NextUseBuilder, PolicySpec};
use gfxcache_trace::{Access, FootprintSketch};

/// The footprint estimate of `trace`, as a `.gtr` file's footer has it.
pub fn footprint(trace: &[Access]) -> u64 {
    let mut sketch = FootprintSketch::default();
    trace.iter().for_each(|a| sketch.add_access(a));
    sketch.estimate()
}

/// OPT over `trace` in a cache of `g`, the next-use pass included.
pub fn run_opt(trace: &[Access], g: &Geometry, footprint: u64) -> Counts {
    let spec: PolicySpec = "opt".parse().unwrap();
    let mut nu = NextUseBuilder::new(g.block);
    nu.expect(trace.len() as u64);
    nu.expect_blocks(footprint);
    nu.push_all(trace).unwrap();
    let env = Env {
        next_use: Some(Arc::new(nu.finish())),
    };
    let mut c = build_cache(&spec, g, &env).unwrap();
    c.access_batch(trace);
    c.stats().total()
}

/// Times `spec` over `trace` in a cache of `g`, each cache built untimed.
pub fn time_cache(b: &mut Bencher<'_>, spec: &PolicySpec, g: &Geometry, trace: &[Access]) {
    b.iter_batched(
        || build_cache(spec, g, &Env::default()).unwrap(),
        |mut c| {
            c.access_batch(black_box(trace));
            black_box(c.stats().total())
        },
        BatchSize::PerIteration,
    )
}
