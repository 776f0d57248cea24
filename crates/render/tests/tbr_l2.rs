//! A rendered tile-based frame through `gfxcache-tcor`'s frame L2: with the
//! baseline Tiling Engine it must rebuild exactly the Parameter Buffer
//! traffic the renderer put in its trace (the same blocks in the same
//! places), so that swapping in TCOR compares like with like.

use gfxcache_render::frame::{FrameConfig, FrameRenderer};
use gfxcache_render::scene::resolve;
use gfxcache_render::TbrConfig;
use gfxcache_tcor::{
    BaselineConfig, Binning, FetcherTiming, FrameL2, FrameL2Stats, L2Cache, L2Config, L2Policy,
    L2Stats, LineKind, PassTraffic, Section, TcorConfig, TileBuffers, TilingEngine,
};
use gfxcache_trace::{Batch, Marker, Record, Stream};

struct Frame {
    trace: Batch,
    passes: Vec<Binning>,
}

fn render(scene: &str) -> Frame {
    let scene = resolve(scene).expect("built-in scene");
    let cfg = FrameConfig {
        tbr: Some(TbrConfig::default()),
        shadow_size: 256,
        ..FrameConfig::new(192, 128)
    };
    let mut r = FrameRenderer::new(&scene, cfg).expect("renderer");
    let mut trace = Batch::default();
    r.render(0, 1, &mut |x| trace.push(x));
    let passes = r
        .take_binned()
        .iter()
        .map(|p| Binning::new(&p.frame).expect("binnable"))
        .collect();
    Frame { trace, passes }
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
fn the_baseline_engine_rebuilds_the_renderers_parameter_buffer_traffic() {
    for scene in ["city", "terrain"] {
        let f = render(scene);
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
    let f = render("city");
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
    let f = render("city");
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
