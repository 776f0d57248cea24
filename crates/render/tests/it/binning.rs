//! Binning real frames: every pass of a built-in scene's frame binned to
//! 32x32 tiles is a valid binned frame, lists no more primitives than the
//! pass drew, and changes neither the trace nor the picture; binned by
//! bounding box, in immediate mode or tile by tile, each primitive lists a
//! superset of its exact tiles; each primitive's attribute count is its
//! draw's shader program's vertex outputs. (Hand-built and random triangles:
//! `binning_overlap.rs`; TCOR's Attribute Cache on such frames:
//! `crates/cli/tests/it/render_tcor.rs`.)

use gfxcache_render::frame::{FrameConfig, FrameRenderer, FrameSummary};
use gfxcache_render::pipeline::{BinnedPass, BinningConfig, BinningMode};
use gfxcache_render::scene::{resolve, AlphaMode, Scene};
use gfxcache_render::TbrConfig;
use std::collections::BTreeSet;

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
    render_scene(&resolve(scene).expect("built-in scene"), cfg)
}

fn render_scene(scene: &Scene, cfg: FrameConfig) -> Rendered {
    let cfg = FrameConfig { threads: 2, ..cfg };
    let tiled = cfg.tbr.is_some();
    let mut r = FrameRenderer::new(scene, cfg).expect("renderer");
    let mut sunk = Sunk::default();
    let summary = r.render(0, 1, &mut sunk).unwrap();
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
            let stats = &binned
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

/// Each pass's attribute counts, as a set.
fn counts(passes: &[BinnedPass], name: &str) -> BTreeSet<u32> {
    passes
        .iter()
        .filter(|p| p.pass == name)
        .flat_map(|p| &p.frame.primitives)
        .map(|p| p.attributes)
        .collect()
}

/// Each primitive's attribute count is its draw's program's vertex
/// outputs, the position plus scalars four to a vector: depth-only shadow
/// draws 1, alpha-tested ones 2 (uv), the G-buffer and the lit passes 3
/// (normal and uv), the interface 2 (uv), full-screen passes 1; one render
/// pass drawing several programs mixes their counts.
#[test]
fn attribute_counts_follow_the_programs_vertex_outputs() {
    let set = |v: &[u32]| v.iter().copied().collect::<BTreeSet<u32>>();
    let mut city = resolve("city").expect("built-in scene");
    let config = || FrameConfig {
        binning: Some(BinningConfig::default()),
        ..FrameConfig::new(240, 136)
    };
    let binned = render_scene(&city, config()).3;
    for shadow in ["shadow0", "shadow1", "shadow2"] {
        assert_eq!(counts(&binned, shadow), set(&[1, 2]), "{shadow}");
    }
    assert_eq!(counts(&binned, "gbuffer"), set(&[3]));
    for pass in ["transparent", "particles"] {
        assert_eq!(counts(&binned, pass), set(&[3]), "{pass}");
    }
    for pass in ["ssao", "lighting", "sky", "bloom", "tonemap", "fxaa"] {
        assert_eq!(counts(&binned, pass), set(&[1]), "{pass}");
    }
    assert_eq!(counts(&binned, "ui"), set(&[2]));

    // Without alpha-tested materials the shadow passes draw depth only.
    for m in &mut city.materials {
        if m.alpha == AlphaMode::Mask {
            m.alpha = AlphaMode::Opaque;
        }
    }
    let binned = render_scene(&city, config()).3;
    for shadow in ["shadow0", "shadow1", "shadow2", "shadow3"] {
        assert_eq!(counts(&binned, shadow), set(&[1]), "{shadow}");
    }

    // Tile by tile, the mobile light pass is one render pass: the
    // full-screen light (1), the scene's blended draws (3), the HUD (2).
    let racer = render_with(
        "racer",
        FrameConfig {
            tbr: Some(TbrConfig::default()),
            ..FrameConfig::new(196, 120)
        },
    )
    .3;
    assert_eq!(counts(&racer, "gbuffer"), set(&[3]));
    assert_eq!(counts(&racer, "lighting"), set(&[1, 2, 3]));
}
