//! Binning real frames: every pass of a built-in scene's frame binned to
//! 32x32 tiles is a valid binned frame, lists no more primitives than the
//! pass drew, and changes neither the trace nor the picture. (TCOR's
//! Attribute Cache on such frames: `crates/cli/tests/render_tcor.rs`.)

use gfxcache_render::frame::{FrameConfig, FrameRenderer, FrameSummary};
use gfxcache_render::pipeline::{BinnedPass, BinningConfig};
use gfxcache_render::scene::resolve;
use gfxcache_trace::{Marker, Record, RecordSink};

type Rendered = (Vec<Record>, Vec<[u8; 4]>, FrameSummary, Vec<BinnedPass>);

/// Records, and each binned pass with the number of records before it.
#[derive(Default)]
struct Sunk {
    records: Vec<Record>,
    binned: Vec<(usize, BinnedPass)>,
}

impl RecordSink for Sunk {
    fn record(&mut self, r: Record) {
        self.records.push(r);
    }
    fn binned(&mut self, pass: &BinnedPass) {
        self.binned.push((self.records.len(), pass.clone()));
    }
}

fn render(scene: &str, binning: Option<BinningConfig>) -> Rendered {
    let scene = resolve(scene).expect("built-in scene");
    let cfg = FrameConfig {
        binning,
        threads: 2,
        ..FrameConfig::new(240, 136)
    };
    let mut r = FrameRenderer::new(&scene, cfg).expect("renderer");
    let mut sunk = Sunk::default();
    let summary = r.render(0, 1, &mut sunk);
    let kept = r.take_binned();
    // Each pass is handed over in place, at its end: right before PassEnd.
    assert_eq!(sunk.binned.len(), kept.len());
    for ((at, handed), kept) in sunk.binned.iter().zip(&kept) {
        assert_eq!(handed, kept);
        assert_eq!(sunk.records[*at], Record::Marker(Marker::PassEnd));
        let begin = sunk.records[..*at]
            .iter()
            .rev()
            .find_map(|r| match r {
                Record::Marker(Marker::PassBegin { name, .. }) => Some(name),
                _ => None,
            })
            .expect("inside a pass");
        assert_eq!(*begin, handed.pass);
    }
    (sunk.records, r.picture(), summary, kept)
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
            f.check().unwrap_or_else(|e| panic!("{what}: {e}"));
            let uses: usize = f.primitives.iter().map(|p| p.tiles.len()).sum();
            assert!(uses >= f.primitives.len(), "{what}");
        }
    }
}
