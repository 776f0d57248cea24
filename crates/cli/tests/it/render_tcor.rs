//! The renderer composed with `gfxcache-tcor` (the two never depend on
//! each other; the command line puts them together):
//!
//! - a tile-based frame through the baseline Tiling Engine's stage
//!   ([`PbTrafficStage`]) has its Parameter Buffer traffic where the
//!   engine makes it, and the frame L2 with the baseline engine rebuilds
//!   exactly that traffic (the same blocks in the same places), so that
//!   swapping in TCOR compares like with like;
//! - TCOR's Attribute Cache on the binned passes of real frames keeps OPT
//!   between the lower bound and LRU.

use gfxcache_cache::Ways;
use gfxcache_render::frame::{FrameConfig, FrameRenderer};
use gfxcache_render::pipeline::BinningConfig;
use gfxcache_render::scene::resolve;
use gfxcache_render::TbrConfig;
use gfxcache_tcor::{
    bound, replay, AttributeCacheConfig, BaselineConfig, Binning, FetcherTiming, FrameL2,
    FrameL2Stats, L2Cache, L2Config, L2Policy, L2Stats, LineKind, PassTraffic, PbLayout,
    PbTrafficStage, PbTrafficStats, Replacement, Section, TcorConfig, TileBuffers, TilingEngine,
};
use gfxcache_trace::{Batch, Marker, Record, Staged, Stream};

struct Frame {
    trace: Batch,
    passes: Vec<Binning>,
    pb: PbTrafficStats,
}

/// A tile-based frame with the baseline engine's traffic, as
/// `render --mode tbr --raw` writes it.
fn render(scene: &str, threads: usize) -> Frame {
    let scene = resolve(scene).expect("built-in scene");
    let cfg = FrameConfig {
        tbr: Some(TbrConfig::default()),
        shadow_size: Some(256),
        threads,
        ..FrameConfig::new(192, 128)
    };
    let mut r = FrameRenderer::new(&scene, cfg).expect("renderer");
    let mut trace = Batch::default();
    let mut sink = Staged::new(PbTrafficStage::baseline(), |x| trace.push(x));
    r.render(0, 1, &mut sink).unwrap();
    let pb = sink.stage.finish().expect("the stream matches its passes");
    let passes = r
        .take_binned()
        .iter()
        .map(|p| Binning::new(&p.frame).expect("binnable"))
        .collect();
    Frame { trace, passes, pb }
}

fn is_pb(r: &Record) -> bool {
    matches!(r, Record::Access(a) if matches!(a.stream, Stream::PbList | Stream::PbAttr))
}

#[test]
fn parameter_buffer_traffic_sits_where_the_tiling_engine_makes_it() {
    let f = render("atrium", 1);
    let records: Vec<Record> = f.trace.records().collect();
    let pb = records.iter().filter(|x| is_pb(x)).count() as u64;
    assert_eq!(pb, f.pb.pb_reads + f.pb.pb_writes);
    assert!(f.pb.pb_reads > 0 && f.pb.pb_writes > 0);
    assert_eq!(f.pb.render_passes, f.passes.len() as u64);
    // Outside tiles: only the Polygon List Builder's blocks, each run of
    // them directly before a render pass's first TileBegin.
    let mut in_tile = false;
    let mut run = false;
    for rec in &records {
        match rec {
            Record::Marker(Marker::TileBegin { .. }) => {
                in_tile = true;
                run = false;
            }
            Record::Marker(Marker::TileEnd { .. }) => in_tile = false,
            x if is_pb(x) && !in_tile => run = true,
            Record::Access(_) | Record::Marker(_) => {
                assert!(!run, "{rec:?} between PB build blocks and the tiles");
            }
        }
    }
    // Inside a tile, the Tile Fetcher's blocks come first, right after
    // TileBegin.
    let mut since_begin = None;
    for rec in &records {
        match rec {
            Record::Marker(Marker::TileBegin { .. }) => since_begin = Some(true),
            x if is_pb(x) => {
                if let Some(first) = since_begin {
                    assert!(first, "a fetch block after other tile records");
                }
            }
            _ => {
                if since_begin.is_some() {
                    since_begin = Some(false);
                }
            }
        }
        if matches!(rec, Record::Marker(Marker::TileEnd { .. })) {
            since_begin = None;
        }
    }
    // The same stream for any thread count.
    assert!(render("atrium", 2).trace == f.trace);
}

/// A small L2, so that the frame's lines compete.
fn small_l2(policy: L2Policy) -> L2Config {
    L2Config {
        bytes: 16 * 1024,
        ways: 8,
        policy,
    }
}

fn run(f: &Frame, engine: TilingEngine, l2: L2Config) -> FrameL2Stats {
    let traffic: Vec<PassTraffic> = f
        .passes
        .iter()
        .map(|b| PassTraffic::new(b, &engine).expect("engine"))
        .collect();
    let mut l2 =
        FrameL2::new(&traffic, l2, TileBuffers::Memory, FetcherTiming::default()).expect("L2");
    l2.batch(&f.trace).expect("trace matches its binned passes");
    l2.finish().expect("whole frame")
}

/// The trace as it is, its own Parameter Buffer records included, through
/// an LRU L2 (where last tiles do not matter).
fn reference(f: &Frame, config: L2Config) -> L2Cache {
    let mut l2 = L2Cache::new(config).unwrap();
    for r in f.trace.records() {
        let Record::Access(a) = r else { continue };
        let kind = match a.stream {
            Stream::PbList => LineKind::from(Section::PbLists),
            Stream::PbAttr => LineKind::from(Section::PbAttributes),
            Stream::Rt | Stream::Display | Stream::Z | Stream::Stc | Stream::Hiz => continue,
            _ => LineKind::NonPb,
        };
        let (first, last) = gfxcache_cache::block_range(&a, 6);
        for b in first..=last {
            l2.access(b, a.op.is_write(), kind, 0);
        }
    }
    l2
}

#[test]
fn the_frame_l2_rebuilds_the_baseline_stages_parameter_buffer_traffic() {
    for scene in ["city", "terrain"] {
        let f = render(scene, 2);
        let config = small_l2(L2Policy::Lru);
        let s = run(&f, TilingEngine::Baseline(BaselineConfig::kib64()), config);
        let r = reference(&f, config);
        assert!(
            s.trace_pb_records > 0,
            "{scene}: no Parameter Buffer traffic"
        );
        assert_eq!(s.pb_l2_accesses(), s.trace_pb_records, "{scene}");
        // The reference knows no tiles, so it never calls a line dead.
        let ours = L2Stats {
            dead_evictions: 0,
            ..s.l2
        };
        assert_eq!(ours, *r.stats(), "{scene}: the L2 saw something else");
        assert_eq!(s.render_passes, f.passes.len() as u64);
        assert_eq!(s.pb_l2_reads, f.pb.pb_reads);
        assert_eq!(s.pb_l2_writes, f.pb.pb_writes);
        assert_eq!(s.overflow, f.pb.pb_overflow);
        let tiles = f
            .trace
            .markers
            .iter()
            .filter(|(_, m)| matches!(m, Marker::TileBegin { .. }))
            .count();
        assert_eq!(s.tiles, tiles as u64);
        assert!(s.tile_buffer_writes > 0 && s.l2.other_accesses > 0);
    }
}

#[test]
fn tcor_sends_fewer_parameter_buffer_blocks_and_its_l2_drops_dead_lines() {
    let f = render("city", 2);
    let config = small_l2(L2Policy::DeadAware);
    let base = run(
        &f,
        TilingEngine::Baseline(BaselineConfig::kib64()),
        small_l2(L2Policy::Lru),
    );
    let tcor = run(&f, TilingEngine::Tcor(TcorConfig::kib64()), config);
    assert!(tcor.pb_l2_accesses() < base.pb_l2_accesses());
    // Everything but the Parameter Buffer is the same trace.
    assert_eq!(tcor.l2.other_accesses, base.l2.other_accesses);
    assert_eq!(tcor.tile_buffer_writes, base.tile_buffer_writes);
    assert_eq!(tcor.fetcher.primitives, base.fetcher.primitives);
    assert!(tcor.fetcher.primitives_per_cycle <= 1.0);
    assert!(tcor.fetcher.cycles >= tcor.fetcher.primitives);
}

#[test]
fn a_trace_and_binned_passes_that_disagree_are_errors() {
    let f = render("city", 2);
    let engine = TilingEngine::Baseline(BaselineConfig::kib64());
    let traffic: Vec<PassTraffic> = f
        .passes
        .iter()
        .map(|b| PassTraffic::new(b, &engine).unwrap())
        .collect();
    // One binned pass missing: the trace has a render pass too many.
    let mut l2 = FrameL2::new(
        &traffic[1..],
        small_l2(L2Policy::Lru),
        TileBuffers::Memory,
        FetcherTiming::default(),
    )
    .unwrap();
    assert!(l2.batch(&f.trace).is_err());
    // One binned pass too many: the trace ends early.
    let mut more: Vec<PassTraffic> = f
        .passes
        .iter()
        .map(|b| PassTraffic::new(b, &engine).unwrap())
        .collect();
    more.push(PassTraffic::new(&f.passes[0], &engine).unwrap());
    let mut l2 = FrameL2::new(
        &more,
        small_l2(L2Policy::Lru),
        TileBuffers::Memory,
        FetcherTiming::default(),
    )
    .unwrap();
    l2.batch(&f.trace).unwrap();
    let e = l2.finish().unwrap_err();
    assert!(e.to_string().contains("binned render passes"), "{e}");
}

#[test]
fn opt_on_the_main_pass_of_real_frames_lies_between_the_bound_and_lru() {
    for name in ["terrain", "atrium", "city"] {
        let scene = resolve(name).expect("built-in scene");
        let cfg = FrameConfig {
            binning: Some(BinningConfig::default()),
            threads: 2,
            ..FrameConfig::new(240, 136)
        };
        let mut r = FrameRenderer::new(&scene, cfg).expect("renderer");
        r.render(0, 1, &mut |_| {}).unwrap();
        let passes = r.take_binned();
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
