//! Tile-based rendering of real frames: the same pixels as immediate mode,
//! tiles in the configured order with matching markers, the tile buffers'
//! traffic only at tile starts (loads) and ends (stores), each colour block
//! stored once per render pass, texture reads tagged with a fragment
//! processor, each render pass's binned frame handed over between its
//! geometry and its tiles (and no Parameter Buffer traffic: that is a
//! Tiling Engine model's, in `gfxcache-tcor`), and the same records for any
//! thread count.

use std::collections::HashMap;

use gfxcache_render::frame::{FrameConfig, FrameRenderer};
use gfxcache_render::pipeline::BinnedPass;
use gfxcache_render::scene::resolve;
use gfxcache_render::{
    Allocator, ColorFormat, ColorTarget, FpAssignment, Pipeline, TbrConfig, TbrStats,
};
use gfxcache_trace::binned::TileOrder;
use gfxcache_trace::{Marker, Op, PassKind, Record, RecordSink, Stream};

struct Rendered {
    records: Vec<Record>,
    picture: Vec<[u8; 4]>,
    hdr: Vec<[u8; 4]>,
    binned: Vec<BinnedPass>,
    tbr: Option<TbrStats>,
    quads: u64,
    shaded: u64,
    texels: u64,
}

fn render(scene: &str, tbr: Option<TbrConfig>, threads: usize, deferred: bool) -> Rendered {
    let scene = resolve(scene).expect("built-in scene");
    let mut passes = scene.passes;
    passes.deferred = deferred;
    let cfg = FrameConfig {
        tbr,
        threads,
        passes: Some(passes),
        // The classic frame, where the forward switch applies.
        preset: Some(gfxcache_render::Preset::Classic),
        shadow_size: Some(256),
        ..FrameConfig::new(160, 96)
    };
    let mut r = FrameRenderer::new(&scene, cfg).expect("renderer");
    let mut records = Vec::new();
    let summary = r.render(0, 1, &mut |x| records.push(x)).unwrap();
    Rendered {
        records,
        picture: r.picture(),
        hdr: r.color_target("hdr").expect("hdr").to_rgba8(),
        binned: r.take_binned(),
        tbr: r.tbr_stats().cloned(),
        quads: summary.stats().quads,
        shaded: summary.stats().fragments_shaded,
        texels: summary.stats().texels,
    }
}

fn tbr(order: TileOrder, fps: u16) -> Option<TbrConfig> {
    Some(TbrConfig {
        order,
        fps,
        ..TbrConfig::default()
    })
}

/// The records of each tile, between its `TileBegin` and `TileEnd`, with
/// the tile id; panics unless markers pair up in order.
fn tiles(records: &[Record]) -> Vec<(u32, &[Record])> {
    let mut out = Vec::new();
    let mut open: Option<(u32, usize)> = None;
    for (i, r) in records.iter().enumerate() {
        match r {
            Record::Marker(Marker::TileBegin { tile }) => {
                assert!(open.is_none(), "TileBegin {tile} inside another tile");
                open = Some((*tile, i + 1));
            }
            Record::Marker(Marker::TileEnd { tile }) => {
                let (t, start) = open.take().expect("TileEnd without TileBegin");
                assert_eq!(t, *tile, "TileEnd {tile} closes tile {t}");
                out.push((t, &records[start..i]));
            }
            Record::Marker(m) => assert!(open.is_none(), "{m:?} inside a tile"),
            Record::Access(_) => {}
        }
    }
    assert!(open.is_none(), "last tile not closed");
    out
}

fn is_target(s: Stream) -> bool {
    matches!(
        s,
        Stream::Z | Stream::Stc | Stream::Rt | Stream::Display | Stream::Hiz
    )
}

#[test]
fn tile_based_pictures_equal_immediate_mode() {
    for (name, deferred) in [
        ("terrain", true),
        ("atrium", true),
        ("city", true),
        ("city", false),
    ] {
        let imr = render(name, None, 1, deferred);
        let t = render(name, tbr(TileOrder::ZOrder, 4), 1, deferred);
        assert!(imr.picture == t.picture, "{name}: pictures differ");
        assert!(imr.hdr == t.hdr, "{name}: HDR targets differ");
        assert_eq!(imr.quads, t.quads, "{name}: quads differ");
        assert!(imr.records != t.records);
        let s = t.tbr.expect("tile-based counters");
        assert_eq!(s.quads_per_fp.iter().sum::<u64>(), t.quads, "{name}");
        assert!(s.tiles > 0 && s.flushed_blocks > 0, "{name}: {s:?}");
    }
}

#[test]
fn hidden_surface_removal_shades_less_for_the_same_pixels() {
    for (name, deferred) in [
        ("terrain", true),
        ("atrium", true),
        ("city", true),
        ("atrium", false),
    ] {
        let plain = render(name, tbr(TileOrder::ZOrder, 4), 1, deferred);
        let hsr = render(
            name,
            Some(TbrConfig {
                hsr: true,
                ..TbrConfig::default()
            }),
            1,
            deferred,
        );
        assert!(
            plain.picture == hsr.picture,
            "{name}: HSR changed the picture"
        );
        assert!(plain.hdr == hsr.hdr, "{name}: HSR changed the HDR target");
        let hidden = hsr.tbr.as_ref().unwrap().hsr_hidden;
        assert!(hidden > 0, "{name}: nothing hidden");
        assert!(hsr.shaded < plain.shaded, "{name}");
        assert!(hsr.texels < plain.texels, "{name}");
        assert_eq!(plain.tbr.unwrap().hsr_hidden, 0);
    }
}

#[test]
fn tiles_pair_up_and_follow_the_order() {
    for order in [TileOrder::ZOrder, TileOrder::Scanline, TileOrder::Hilbert] {
        let r = render("terrain", tbr(order, 4), 1, true);
        let ts = tiles(&r.records);
        let mut at = 0;
        for bp in &r.binned {
            let seq = order.sequence(bp.frame.tiles_x, bp.frame.tiles_y);
            let ids: Vec<u32> = ts[at..at + seq.len()].iter().map(|t| t.0).collect();
            assert_eq!(ids, seq, "{order:?}: render pass {} of {}", bp.pass, at);
            at += seq.len();
        }
        assert_eq!(at, ts.len(), "{order:?}: tiles outside any render pass");
        assert_eq!(r.tbr.unwrap().tiles, ts.len() as u64);
    }
}

#[test]
fn tile_buffers_move_only_at_tile_start_and_end() {
    let r = render("atrium", tbr(TileOrder::ZOrder, 4), 1, true);
    let (mut loads, mut stores) = (0, 0);
    for (tile, recs) in tiles(&r.records) {
        // Loads, then the back end, then stores.
        let mut phase = 0;
        for rec in recs {
            let Record::Access(a) = rec else { continue };
            assert_ne!(a.stream, Stream::Hiz, "tile {tile}: HiZ is on chip");
            let p = match (is_target(a.stream), a.op) {
                (true, Op::Read) => 1,
                (false, _) => 2,
                (true, Op::Write) => 3,
            };
            assert!(p >= phase, "tile {tile}: {a:?} after phase {phase}");
            phase = p;
            loads += usize::from(p == 1);
            stores += usize::from(p == 3);
        }
    }
    let s = r.tbr.unwrap();
    assert_eq!(loads as u64, s.loaded_blocks);
    assert_eq!(stores as u64, s.flushed_blocks);
    assert!(
        loads > 0,
        "transparent and lighting passes load their targets"
    );
}

#[test]
fn each_colour_block_is_stored_once_per_render_pass() {
    // 6 is no multiple of the 4x4 or 8x8 blocks: blocks straddle tiles.
    for tile_size in [32, 6] {
        stored_once(tile_size);
    }
}

fn stored_once(tile_size: u32) {
    let scene = resolve("city").unwrap();
    let cfg = FrameConfig {
        tbr: Some(TbrConfig {
            tile_size,
            order: TileOrder::Hilbert,
            ..TbrConfig::default()
        }),
        // The classic frame writes the display exactly once.
        preset: Some(gfxcache_render::Preset::Classic),
        shadow_size: Some(256),
        ..FrameConfig::new(150, 90)
    };
    let imr = {
        let mut r = FrameRenderer::new(&scene, FrameConfig { tbr: None, ..cfg }).unwrap();
        r.render(0, 1, &mut |_| {}).unwrap();
        r.picture()
    };
    let mut r = FrameRenderer::new(&scene, cfg).unwrap();
    let mut records = Vec::new();
    r.render(0, 1, &mut |x| records.push(x)).unwrap();
    let binned = r.take_binned();
    let ts = tiles(&records);
    let mut at = 0;
    for bp in &binned {
        let n = (bp.frame.tiles_x * bp.frame.tiles_y) as usize;
        let mut seen: HashMap<u64, u32> = HashMap::new();
        for (_, recs) in &ts[at..at + n] {
            for rec in *recs {
                if let Record::Access(a) = rec {
                    if matches!(a.stream, Stream::Rt | Stream::Display) && a.op == Op::Write {
                        *seen.entry(a.addr).or_default() += 1;
                    }
                }
            }
        }
        assert!(
            seen.values().all(|&c| c == 1),
            "tile size {tile_size}, pass {}: a colour block stored twice",
            bp.pass
        );
        at += n;
    }
    // The display surface: every block exactly once in the frame.
    let d = &r.display_target().surface;
    let mut want: Vec<u64> = Vec::new();
    for y in (0..d.height).step_by(d.format.tile_shape().1 as usize) {
        for x in (0..d.width).step_by(d.format.tile_shape().0 as usize) {
            want.push(d.block_of(x, y));
        }
    }
    want.sort_unstable();
    let mut got: Vec<u64> = records
        .iter()
        .filter_map(|r| match r {
            Record::Access(a) if a.stream == Stream::Display => Some(a.addr),
            _ => None,
        })
        .collect();
    got.sort_unstable();
    assert_eq!(got, want, "tile size {tile_size}");
    assert!(r.picture() == imr, "tile size {tile_size}: pictures differ");
}

#[test]
fn texture_reads_carry_a_fragment_processor() {
    let r = render("atrium", tbr(TileOrder::ZOrder, 3), 1, true);
    let mut used = [0u64; 3];
    for (_, recs) in tiles(&r.records) {
        for rec in recs {
            if let Record::Access(a) = rec {
                if a.stream == Stream::Tex {
                    assert!(a.unit < 3, "unit {} with 3 fragment processors", a.unit);
                    used[a.unit as usize] += 1;
                }
            }
        }
    }
    assert!(used.iter().all(|&n| n > 0), "{used:?}");
    // Outside tiles nothing is sampled: fragments are shaded in tiles only.
    let inside: u64 = used.iter().sum();
    let all = r
        .records
        .iter()
        .filter(|r| matches!(r, Record::Access(a) if a.stream == Stream::Tex))
        .count() as u64;
    assert_eq!(inside, all);
}

#[test]
fn same_records_for_any_thread_count() {
    let one = render("city", tbr(TileOrder::ZOrder, 4), 1, true);
    for threads in [2, 3] {
        let many = render("city", tbr(TileOrder::ZOrder, 4), threads, true);
        assert!(one.records == many.records, "{threads} threads");
        assert!(one.picture == many.picture && one.hdr == many.hdr);
        assert_eq!(one.binned, many.binned);
        assert_eq!(one.tbr, many.tbr);
    }
}

#[test]
fn bad_configurations_are_errors() {
    let scene = resolve("terrain").unwrap();
    for (t, want) in [
        (
            TbrConfig {
                tile_size: 3,
                ..TbrConfig::default()
            },
            "tile size 3",
        ),
        (
            TbrConfig {
                tile_size: 0,
                ..TbrConfig::default()
            },
            "tile size 0",
        ),
        (
            TbrConfig {
                fps: 0,
                ..TbrConfig::default()
            },
            "0 fragment processors",
        ),
        (
            TbrConfig {
                fps: 1000,
                ..TbrConfig::default()
            },
            "1000 fragment processors",
        ),
        (
            TbrConfig {
                fp_assignment: FpAssignment::Blocks { side: 6 },
                ..TbrConfig::default()
            },
            "blocks of 6 pixels",
        ),
    ] {
        let cfg = FrameConfig {
            tbr: Some(t),
            ..FrameConfig::new(64, 64)
        };
        let e = FrameRenderer::new(&scene, cfg).err().expect("an error");
        assert!(e.to_string().contains(want), "{e}");
    }
}

/// The stream as a sink sees it: records, and binned passes in place.
#[derive(Default)]
struct Sunk {
    items: Vec<Item>,
}

#[derive(Debug, PartialEq)]
enum Item {
    Record(Record),
    Binned(BinnedPass),
}

impl RecordSink for Sunk {
    fn record(&mut self, r: Record) {
        self.items.push(Item::Record(r));
    }
    fn binned(&mut self, pass: &BinnedPass) {
        self.items.push(Item::Binned(pass.clone()));
    }
}

#[test]
fn each_render_pass_is_handed_over_between_its_geometry_and_its_tiles() {
    for threads in [1, 2] {
        let scene = resolve("city").unwrap();
        let cfg = FrameConfig {
            tbr: tbr(TileOrder::ZOrder, 4),
            threads,
            shadow_size: Some(256),
            ..FrameConfig::new(160, 96)
        };
        let mut r = FrameRenderer::new(&scene, cfg).unwrap();
        let mut sink = Sunk::default();
        r.render(0, 1, &mut sink).unwrap();
        let kept = r.take_binned();
        let handed: Vec<&BinnedPass> = sink
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Binned(p) => Some(p),
                Item::Record(_) => None,
            })
            .collect();
        assert_eq!(handed.len() as u64, r.tbr_stats().unwrap().render_passes);
        assert!(handed.iter().copied().eq(kept.iter()), "the same passes");
        let mut tiles_left = 0;
        for (k, item) in sink.items.iter().enumerate() {
            match item {
                Item::Binned(p) => {
                    assert_eq!(tiles_left, 0, "a pass handed over inside another");
                    // Its tiles come next, the first right away.
                    tiles_left = p.frame.tiles();
                    assert!(matches!(
                        sink.items[k + 1],
                        Item::Record(Record::Marker(Marker::TileBegin { .. }))
                    ));
                }
                Item::Record(Record::Marker(Marker::TileBegin { .. })) => {
                    assert!(tiles_left > 0, "a tile outside any handed-over pass");
                    tiles_left -= 1;
                }
                Item::Record(Record::Access(a)) => {
                    assert!(!matches!(a.stream, Stream::PbList | Stream::PbAttr));
                }
                Item::Record(_) => {}
            }
        }
        assert_eq!(tiles_left, 0);
    }
}

#[test]
fn a_clear_no_render_pass_consumes_still_reaches_memory() {
    let mut alloc = Allocator::default();
    let mut p = Pipeline::new();
    p.set_tbr(Some(TbrConfig::default()));
    let id = p.add_color(ColorTarget::new(40, 24, ColorFormat::Rgba8, &mut alloc));
    let mut recs = Vec::new();
    p.begin_pass("clear", PassKind::Other, &mut |r| recs.push(r));
    p.clear_color(id, [1.0, 0.0, 0.0, 1.0], &mut |r| recs.push(r));
    assert_eq!(recs.len(), 1, "a tile-based clear writes nothing at once");
    p.end_pass(&mut |r| recs.push(r));
    let writes = recs
        .iter()
        .filter(|r| matches!(r, Record::Access(a) if a.stream == Stream::Rt && a.op == Op::Write))
        .count();
    // 40x24 pixels of 4x4 blocks.
    assert_eq!(writes, 10 * 6);
    assert_eq!(p.color(id).read(39, 23), [1.0, 0.0, 0.0, 1.0]);
}

fn assigned(fps: u16, fp_assignment: FpAssignment) -> Option<TbrConfig> {
    Some(TbrConfig {
        fps,
        fp_assignment,
        ..TbrConfig::default()
    })
}

#[test]
fn every_fp_assignment_deals_each_quad_once_and_keeps_the_pixels() {
    let rr = render("atrium", assigned(4, FpAssignment::RoundRobin), 1, true);
    let rr_fps = rr.tbr.as_ref().unwrap().quads_per_fp.clone();
    assert_eq!(rr_fps.iter().sum::<u64>(), rr.quads);
    for a in [
        FpAssignment::Blocks { side: 16 },
        FpAssignment::Blocks { side: 8 },
        FpAssignment::Tiles,
    ] {
        let t = render("atrium", assigned(4, a), 1, true);
        assert!(t.picture == rr.picture, "{a:?}: pictures differ");
        assert_eq!(t.quads, rr.quads, "{a:?}");
        let per_fp = &t.tbr.as_ref().unwrap().quads_per_fp;
        assert_eq!(per_fp.len(), 4, "{a:?}");
        assert_eq!(per_fp.iter().sum::<u64>(), t.quads, "{a:?}: {per_fp:?}");
        assert_ne!(per_fp, &rr_fps, "{a:?} dealt as round-robin does");
        // Only which processor reads changes: the same texture reads.
        let tex = |r: &Rendered| -> Vec<u64> {
            let mut v: Vec<u64> = r
                .records
                .iter()
                .filter_map(|r| match r {
                    Record::Access(a) if a.stream == Stream::Tex => Some(a.addr),
                    _ => None,
                })
                .collect();
            v.sort_unstable();
            v
        };
        assert!(tex(&t) == tex(&rr), "{a:?}: other texture reads");
    }
}

#[test]
fn whole_tiles_go_to_one_processor_in_traversal_order() {
    let fps = 3;
    let t = render("atrium", assigned(fps, FpAssignment::Tiles), 1, true);
    // The i-th tile of a render pass (a pass's tiles follow its draws'
    // DrawBegin markers) reads its textures as processor i % fps.
    let (mut i, mut inside, mut checked) = (0u16, None, 0);
    for r in &t.records {
        match r {
            Record::Marker(Marker::TileBegin { .. }) => inside = Some(i % fps),
            Record::Marker(Marker::TileEnd { .. }) => {
                inside = None;
                i += 1;
            }
            Record::Marker(Marker::DrawBegin { .. }) => i = 0,
            Record::Access(a) if a.stream == Stream::Tex => {
                if let Some(fp) = inside {
                    assert_eq!(a.unit, fp, "tile {i} of its pass");
                    checked += 1;
                }
            }
            _ => {}
        }
    }
    assert!(checked > 1000, "{checked} texture reads in tiles");
}

#[test]
fn a_screen_block_goes_to_one_processor_by_its_interleave() {
    // Blocks of 64 pixels over 32-pixel tiles: each tile lies in one
    // block, block (bx, by) of a pass `ceil(w / 64)` blocks wide.
    let fps = 3;
    let t = render(
        "atrium",
        assigned(fps, FpAssignment::Blocks { side: 64 }),
        1,
        true,
    );
    let mut passes = t.binned.iter();
    let (mut pass, mut in_pass, mut tile) = (None, false, None);
    let mut checked = 0;
    for r in &t.records {
        match r {
            Record::Marker(Marker::DrawBegin { .. }) if !in_pass => {
                pass = Some(&passes.next().expect("a binned pass per render pass").frame);
                in_pass = true;
            }
            Record::Marker(Marker::TileBegin { tile: id }) => {
                in_pass = false;
                let f = pass.expect("a render pass");
                let (tx, ty) = (id % f.tiles_x, id / f.tiles_x);
                let per_row = f.tiles_x.div_ceil(2);
                tile = Some(((tx / 2 + ty / 2 * per_row) % u32::from(fps)) as u16);
            }
            Record::Marker(Marker::TileEnd { .. }) => tile = None,
            Record::Access(a) if a.stream == Stream::Tex => {
                if let Some(fp) = tile {
                    assert_eq!(a.unit, fp);
                    checked += 1;
                }
            }
            _ => {}
        }
    }
    assert!(passes.next().is_none(), "render passes left over");
    assert!(checked > 1000, "{checked} texture reads in tiles");
}
