//! The pieces of the TCOR study on a synthetic render pass the size of a
//! built-in scene's largest (90 000 primitives of 3 attributes on Table I's
//! 62x24 tiles, 1.4 tiles each, in submission order drifting across the
//! screen): an Attribute Cache sweep point (what `gfxcache tcor` runs
//! 160-odd times per frame) and one Tiling Engine's Parameter Buffer
//! traffic. The whole study is timed end to end with
//! `/usr/bin/time gfxcache tcor --scene S` (README, "The TCOR study").
//!
//! `cargo bench -p gfxcache-tcor --bench study`

use criterion::{criterion_group, criterion_main, Criterion};
use gfxcache_cache::Ways;
use gfxcache_tcor::{
    sweep, BaselineConfig, BinnedFrame, BinnedPrimitive, Binning, PassTraffic, PbLayout,
    Replacement, TcorConfig, TileOrder, TilingEngine,
};

/// SplitMix64: a fixed seed gives the same frame on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

fn pass() -> Binning {
    let (tx, ty) = (62u32, 24u32);
    let mut rng = Rng(1);
    let n = 90_000u32;
    let primitives = (0..n)
        .map(|p| {
            // Submission order sweeps the screen, with some scatter.
            let centre = u64::from(p) * u64::from(tx * ty) / u64::from(n);
            let jitter = rng.next() % 64;
            let t = ((centre + jitter) % u64::from(tx * ty)) as u32;
            let (x, y) = (t % tx, t / tx);
            let mut tiles = vec![t];
            if rng.next() % 5 < 2 && x + 1 < tx {
                tiles.push(y * tx + x + 1);
            }
            BinnedPrimitive {
                attributes: 3,
                tiles,
            }
        })
        .collect();
    Binning::new(&BinnedFrame {
        tiles_x: tx,
        tiles_y: ty,
        tile_size: 32,
        order: TileOrder::ZOrder,
        primitives,
    })
    .expect("a valid frame")
}

fn study(c: &mut Criterion) {
    let b = [pass()];
    let layout = PbLayout::interleaved();
    let mut g = c.benchmark_group("attribute-cache-point");
    g.sample_size(10);
    for (name, ways, r, bytes) in [
        ("full-opt-48KiB", Ways::Full, Replacement::Opt, 48 << 10),
        ("full-lru-48KiB", Ways::Full, Replacement::Lru, 48 << 10),
        ("full-lru-4MiB", Ways::Full, Replacement::Lru, 4 << 20),
        ("4way-opt-48KiB", Ways::N(4), Replacement::Opt, 48 << 10),
        ("4way-drrip-4MiB", Ways::N(4), Replacement::Drrip, 4 << 20),
    ] {
        g.bench_function(name, |bench| {
            bench.iter(|| sweep::point(&b, &layout, bytes, ways, r, 0).expect("a cache"))
        });
    }
    g.finish();
    let mut g = c.benchmark_group("pass-traffic");
    g.sample_size(10);
    for (name, engine) in [
        (
            "baseline-64KiB",
            TilingEngine::Baseline(BaselineConfig::kib64()),
        ),
        ("tcor-64KiB", TilingEngine::Tcor(TcorConfig::kib64())),
    ] {
        g.bench_function(name, |bench| {
            bench.iter(|| PassTraffic::new(&b[0], &engine).expect("an engine"))
        });
    }
    g.finish();
}

criterion_group!(benches, study);
criterion_main!(benches);
