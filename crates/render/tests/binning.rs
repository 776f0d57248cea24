//! Binning real frames: every pass of a built-in scene's frame binned to
//! 32x32 tiles is a valid TCOR frame, lists no more primitives than the
//! pass drew, changes neither the trace nor the picture, and TCOR's
//! Attribute Cache on the main pass keeps OPT between the lower bound and
//! LRU at every size tried.

use gfxcache_cache::Ways;
use gfxcache_render::frame::{FrameConfig, FrameRenderer, FrameSummary};
use gfxcache_render::pipeline::{BinnedPass, BinningConfig};
use gfxcache_render::scene::resolve;
use gfxcache_tcor::{bound, replay, AttributeCacheConfig, Binning, PbLayout, Replacement};
use gfxcache_trace::Record;

type Rendered = (Vec<Record>, Vec<[u8; 4]>, FrameSummary, Vec<BinnedPass>);

fn render(scene: &str, binning: Option<BinningConfig>) -> Rendered {
    let scene = resolve(scene).expect("built-in scene");
    let cfg = FrameConfig {
        binning,
        threads: 2,
        ..FrameConfig::new(240, 136)
    };
    let mut r = FrameRenderer::new(&scene, cfg).expect("renderer");
    let mut recs = Vec::new();
    let summary = r.render(0, 1, &mut |x| recs.push(x));
    (recs, r.picture(), summary, r.take_binned())
}

#[test]
fn built_in_frames_bin_into_valid_tcor_frames() {
    for name in ["terrain", "atrium", "city"] {
        let plain = render(name, None);
        let binned = render(name, Some(BinningConfig::default()));
        assert!(plain.0 == binned.0, "{name}: binning changed the trace");
        assert!(plain.1 == binned.1, "{name}: binning changed the picture");
        assert!(plain.3.is_empty());
        let passes = &binned.3;
        assert!(!passes.is_empty(), "{name}: nothing binned");
        for bp in passes {
            let what = format!("{name} pass {}", bp.pass);
            let f = &bp.frame;
            let stats = binned
                .2
                .passes
                .iter()
                .find(|p| p.name == bp.pass)
                .unwrap_or_else(|| panic!("{what}: no such pass"))
                .stats;
            assert!(
                f.primitives.len() as u64 <= stats.triangles_after_cull,
                "{what}: {} primitives from {} triangles",
                f.primitives.len(),
                stats.triangles_after_cull
            );
            assert_eq!(f.tile_size, 32);
            for p in &f.primitives {
                assert!((1..=3).contains(&p.attributes), "{what}: {}", p.attributes);
            }
            let b = Binning::new(f).unwrap_or_else(|e| panic!("{what}: {e}"));
            let uses: usize = f.primitives.iter().map(|p| p.tiles.len()).sum();
            assert!(uses >= f.primitives.len(), "{what}");
            assert_eq!(u64::from(b.primitives()), f.primitives.len() as u64);
        }
        // The main pass drives the Attribute Cache: OPT never below the
        // lower bound nor above LRU, fully associative, at several sizes.
        let main = passes
            .iter()
            .max_by_key(|p| p.frame.primitives.len())
            .unwrap();
        let b = Binning::new(&main.frame).unwrap();
        for kib in [4u64, 16, 48] {
            let config = |r| {
                let entries = AttributeCacheConfig::entries_of(kib * 1024);
                AttributeCacheConfig {
                    entries,
                    lines: entries,
                    ..AttributeCacheConfig::tcor_48k()
                }
                .with_replacement(r)
                .with_ways(Ways::Full)
            };
            let layout = PbLayout::interleaved();
            let opt = replay(&b, &layout, config(Replacement::Opt)).unwrap();
            let lru = replay(&b, &layout, config(Replacement::Lru)).unwrap();
            let lb = bound::lower_bound_in_attributes(&b, &config(Replacement::Opt));
            let (o, l) = (
                bound::attribute_misses(&b, &opt),
                bound::attribute_misses(&b, &lru),
            );
            assert!(o >= lb, "{name} {kib} KiB: OPT {o} below LB {lb}");
            assert!(o <= l, "{name} {kib} KiB: OPT {o} above LRU {l}");
        }
    }
}
