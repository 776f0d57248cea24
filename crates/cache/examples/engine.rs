//! Runs one policy over a trace held in memory and prints block accesses
//! per second, best of five: the engine alone, without decoding, for
//! profilers and for comparing builds.
//!
//! `cargo run --release -p gfxcache-cache --example engine -- FILE.gtr [POLICY] [SHAPE]`
//!
//! The cache is 8 MiB, 16-way, 64-byte blocks, 4 banks (the GSPC paper's
//! LLC). SHAPE rewrites the addresses to separate the cost of a hit, of a
//! miss and of not knowing which comes: `trace` (the default) keeps them,
//! `hits` folds them into 16 KiB (every access hits after the first 256),
//! `misses` makes each a new block.

use std::time::Instant;

use gfxcache_cache::{build_cache, Env, Geometry, NextUseBuilder, PolicySpec, Ways};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .ok_or("usage: engine FILE [POLICY] [trace|hits|misses]")?;
    let spec: PolicySpec = args.next().as_deref().unwrap_or("lru").parse()?;
    let shape = args.next().unwrap_or_else(|| "trace".into());
    let mut reader = gfxcache_trace::open(path.as_ref())?;
    let mut batch = gfxcache_trace::Batch::with_capacity(gfxcache_trace::BATCH_RECORDS);
    let mut batches = Vec::new();
    let mut n = 0u64;
    while reader.read_batch(&mut batch)? {
        let mut b = batch.accesses.clone();
        for a in &mut b {
            n += 1;
            match shape.as_str() {
                "trace" => {}
                "hits" => a.addr &= 0x3fff,
                "misses" => a.addr = n << 6,
                other => return Err(format!("unknown shape '{other}'").into()),
            }
        }
        batches.push(b);
    }
    let g = Geometry::from_size(8 << 20, Ways::N(16), 64)?.with_banks(4)?;
    let mut env = Env::default();
    if spec.name == "opt" {
        let mut nu = NextUseBuilder::new(g.block);
        nu.expect_announced(reader.as_ref());
        for b in &batches {
            nu.push_all(b)?;
        }
        env.next_use = Some(std::sync::Arc::new(nu.finish()));
    }
    let mut best = f64::MAX;
    let mut total = None;
    for _ in 0..5 {
        let mut c = build_cache(&spec, &g, &env)?;
        let start = Instant::now();
        for b in &batches {
            c.access_batch(b);
        }
        best = best.min(start.elapsed().as_secs_f64());
        total = Some(c.stats().total());
    }
    let t = total.ok_or("no run")?;
    println!(
        "{spec} ({shape}): {} block accesses, {} misses, best {:.1} ms: {:.1} M/s",
        t.accesses,
        t.misses,
        best * 1e3,
        t.accesses as f64 / best / 1e6
    );
    Ok(())
}
