//! Binning real frames: every pass of a built-in scene's frame binned to
//! 32x32 tiles is a valid binned frame, lists no more primitives than the
//! pass drew, and changes neither the trace nor the picture; binned by
//! bounding box, in immediate mode or tile by tile, each primitive lists a
//! superset of its exact tiles. (Hand-built and random triangles:
//! `binning_overlap.rs`; TCOR's Attribute Cache on such frames:
//! `crates/cli/tests/render_tcor.rs`.)

use gfxcache_render::frame::{FrameConfig, FrameRenderer, FrameSummary};
use gfxcache_render::pipeline::{BinnedPass, BinningConfig, BinningMode};
use gfxcache_render::scene::resolve;
use gfxcache_render::TbrConfig;
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
    render_with(
        scene,
        FrameConfig {
            binning,
            ..FrameConfig::new(240, 136)
        },
    )
}

fn render_with(scene: &str, cfg: FrameConfig) -> Rendered {
    let scene = resolve(scene).expect("built-in scene");
    let cfg = FrameConfig { threads: 2, ..cfg };
    let tiled = cfg.tbr.is_some();
    let mut r = FrameRenderer::new(&scene, cfg).expect("renderer");
    let mut sunk = Sunk::default();
    let summary = r.render(0, 1, &mut sunk);
    let kept = r.take_binned();
    // Each pass is handed over in place, at its end: right before PassEnd
    // (tile by tile: before its tiles, which `tbr.rs` checks).
    assert_eq!(sunk.binned.len(), kept.len());
    for ((at, handed), kept) in sunk.binned.iter().zip(&kept) {
        assert_eq!(handed, kept);
        if !tiled {
            assert_eq!(sunk.records[*at], Record::Marker(Marker::PassEnd));
        }
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

/// Whether each primitive of `exact`, in order, lists a subset of the
/// tiles of a primitive of `bbox` after the previous one's: bounding-box
/// binning lists every primitive exact binning lists (and those that cover
/// no pixel centre of their box), in the same order. The earliest match is
/// taken, which finds such a matching whenever there is one.
fn embeds(exact: &[BinnedPass], bbox: &[BinnedPass]) -> Result<(), String> {
    if exact.len() != bbox.len() {
        return Err(format!("{} exact passes, {} bbox", exact.len(), bbox.len()));
    }
    for (e, b) in exact.iter().zip(bbox) {
        if (e.frame_number, &e.pass) != (b.frame_number, &b.pass) {
            return Err(format!("pass {} against {}", e.pass, b.pass));
        }
        let mut rest = b.frame.primitives.iter();
        for (k, p) in e.frame.primitives.iter().enumerate() {
            let found = rest.any(|q| {
                q.attributes == p.attributes && p.tiles.iter().all(|t| q.tiles.contains(t))
            });
            if !found {
                return Err(format!(
                    "pass {}: exact primitive {k} has no superset",
                    e.pass
                ));
            }
        }
    }
    Ok(())
}

fn tile_uses(passes: &[BinnedPass]) -> usize {
    passes
        .iter()
        .flat_map(|p| &p.frame.primitives)
        .map(|p| p.tiles.len())
        .sum()
}

/// Rendered frames, in immediate mode with binning and tile by tile: the
/// bounding box lists more tiles than exact binning, each primitive's a
/// superset of its exact tiles, with the same records and pixels (the
/// rasterizer still draws exactly).
#[test]
fn bounding_box_binning_lists_a_superset_of_the_exact_tiles() {
    let bbox = BinningConfig {
        mode: BinningMode::BoundingBox,
        ..BinningConfig::default()
    };
    for name in ["terrain", "city"] {
        let exact = render(name, Some(BinningConfig::default()));
        let boxed = render(name, Some(bbox));
        assert!(exact.0 == boxed.0, "{name}: the mode changed the trace");
        assert!(exact.1 == boxed.1, "{name}: the mode changed the picture");
        embeds(&exact.3, &boxed.3).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(tile_uses(&boxed.3) > tile_uses(&exact.3), "{name}");
        for bp in &boxed.3 {
            bp.frame
                .check()
                .unwrap_or_else(|e| panic!("{name} {}: {e}", bp.pass));
        }
    }
    let tiled = |mode| {
        render_with(
            "match3",
            FrameConfig {
                tbr: Some(TbrConfig {
                    binning_mode: mode,
                    ..TbrConfig::default()
                }),
                ..FrameConfig::new(196, 120)
            },
        )
    };
    let (exact, boxed) = (tiled(BinningMode::Exact), tiled(BinningMode::BoundingBox));
    assert!(
        exact.0 == boxed.0,
        "tile by tile: the mode changed the trace"
    );
    assert!(
        exact.1 == boxed.1,
        "tile by tile: the mode changed the picture"
    );
    embeds(&exact.3, &boxed.3).unwrap_or_else(|e| panic!("tile by tile: {e}"));
    assert!(tile_uses(&boxed.3) > tile_uses(&exact.3));
}
