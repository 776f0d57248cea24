//! The texture request record of tile-based frames (`.gtq`,
//! `session::render_with_requests`): its requests are the raw stream's
//! `tex` records before de-duplication, for every fragment processor
//! assignment; it does not depend on the thread count; each fragment's
//! operations are those of its program's path, optional requests skipped
//! costing nothing; immediate mode refuses it. A forced filter (`RenderRequest::
//! texture_filter`) is every filtered request's filter and tap count but
//! the exact reads' (loads, shadow map and SSAO depth taps), which do not
//! change; screen-space passes read the texels they read as authored.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

use gfxcache_render::frame::shaders::Program;
use gfxcache_render::frame::FilterOverride;
use gfxcache_render::pipeline::{Opt, Options};
use gfxcache_render::scene::resolve;
use gfxcache_render::session::{render_with_requests, Mode, RenderRequest};
use gfxcache_render::{FpAssignment, Preset, TbrConfig};
use gfxcache_trace::texreq::{FilterKind, TexReqRecord, TexReqSink, TexRequest};
use gfxcache_trace::{Marker, Op, PassKind, PassThrough, Record, ShaderOps, Stream, TraceError};

/// A sink the test reads back.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<TexReqRecord>>>);

impl TexReqSink for Shared {
    fn records(&mut self, records: &[TexReqRecord]) {
        self.0.lock().unwrap().extend_from_slice(records);
    }
    fn finish(self: Box<Self>) -> Result<(), TraceError> {
        Ok(())
    }
}

struct Frame {
    raw: Vec<Record>,
    requests: Vec<TexReqRecord>,
}

fn request(fps: u16, fp_assignment: FpAssignment, preset: Option<Preset>) -> RenderRequest {
    let mut r = RenderRequest::new(Mode::Tbr(TbrConfig {
        fps,
        fp_assignment,
        ..TbrConfig::default()
    }));
    r.width = 192;
    r.height = 128;
    r.raw = true;
    r.passes.preset = preset;
    r.passes.shadow_size = Some(128);
    r
}

fn render(scene: &str, req: &RenderRequest) -> Frame {
    let scene = resolve(scene).expect("built-in scene");
    let shared = Shared::default();
    let mut raw = Vec::new();
    let done = render_with_requests(
        &scene,
        req,
        PassThrough,
        |r| raw.push(r),
        Some(Box::new(shared.clone())),
        |_| {},
    )
    .expect("rendered");
    assert!(done.texture_requests.is_some(), "the sink comes back");
    drop(done);
    let requests = std::mem::take(&mut *shared.0.lock().unwrap());
    Frame { raw, requests }
}

/// Each tile's raw `tex` records (block, unit), in tile order.
fn raw_tiles(raw: &[Record]) -> Vec<Vec<(u64, u16)>> {
    let mut tiles = Vec::new();
    let mut cur: Option<Vec<(u64, u16)>> = None;
    for r in raw {
        match r {
            Record::Marker(Marker::TileBegin { .. }) => cur = Some(Vec::new()),
            Record::Marker(Marker::TileEnd { .. }) => tiles.push(cur.take().expect("open tile")),
            Record::Access(a) if a.stream == Stream::Tex => cur
                .as_mut()
                .expect("tex reads only inside tiles")
                .push((a.addr, a.unit)),
            _ => {}
        }
    }
    tiles
}

/// A record's quad (its pixel's 2x2) and position in it.
fn quad_of(q: &TexRequest) -> ((u16, u16), u8) {
    ((q.x / 2, q.y / 2), ((q.x & 1) + 2 * (q.y & 1)) as u8)
}

/// What the raw stream makes of one tile's requests: a sample's taps
/// (one pixel, all its probes: the requests of one pixel and index in a
/// row) become its distinct 64-byte blocks in first-touched order; a
/// load's (a run of `Fetch` requests of one quad, pixels in increasing
/// order) become the distinct blocks of the run, since the pipeline
/// reports a load's blocks once per quad. Loads in this renderer are made
/// with the quad's whole mask, so a run is one load; were two loads with
/// narrowed masks to merge, the comparison would fail, not pass.
fn expected_tex(requests: &[TexReqRecord]) -> Vec<(u64, u16)> {
    let mut out = Vec::new();
    let mut group: Vec<u64> = Vec::new();
    // Fetch or not, quad, position in it, x, index.
    type Key = (bool, (u16, u16), u8, u16, u8);
    let mut key: Option<Key> = None;
    let flush = |group: &mut Vec<u64>, fp: u16, out: &mut Vec<(u64, u16)>| {
        let mut seen: Vec<u64> = Vec::new();
        for a in group.drain(..) {
            let b = a & !63;
            if !seen.contains(&b) {
                seen.push(b);
                out.push((b, fp));
            }
        }
    };
    let mut last_fp = 0;
    for r in requests {
        let TexReqRecord::Request(q) = r else {
            flush(&mut group, last_fp, &mut out);
            key = None;
            continue;
        };
        let fetch = q.filter == FilterKind::Fetch;
        let (quad, pos) = quad_of(q);
        let same = match key {
            Some((f, k_quad, k_pos, k_xy, k_index)) if f == fetch => {
                if fetch {
                    k_quad == quad && pos > k_pos
                } else {
                    k_quad == quad && k_pos == pos && k_xy == q.x && k_index == q.index
                }
            }
            _ => false,
        };
        if !same {
            flush(&mut group, last_fp, &mut out);
        }
        key = Some((fetch, quad, pos, q.x, q.index));
        last_fp = q.fp;
        group.extend_from_slice(q.addresses());
    }
    flush(&mut group, last_fp, &mut out);
    out
}

/// Each tile's requests.
fn request_tiles(requests: &[TexReqRecord]) -> Vec<Vec<TexReqRecord>> {
    let mut tiles = Vec::new();
    let mut cur: Option<Vec<TexReqRecord>> = None;
    for r in requests {
        match r {
            TexReqRecord::TileBegin { .. } => cur = Some(Vec::new()),
            TexReqRecord::TileEnd { .. } => tiles.push(cur.take().expect("open tile")),
            TexReqRecord::Request(_) | TexReqRecord::FragmentEnd { .. } => {
                cur.as_mut().expect("requests only inside tiles").push(*r)
            }
            _ => {}
        }
    }
    tiles
}

#[test]
fn the_requests_blocks_are_the_raw_streams_tex_records_for_every_assignment() {
    for (fps, fa) in [
        (4, FpAssignment::RoundRobin),
        (3, FpAssignment::Blocks { side: 16 }),
        (5, FpAssignment::Tiles),
    ] {
        for preset in [None, Some(Preset::Dx11Deferred)] {
            let f = render("racer", &request(fps, fa, preset));
            let raw = raw_tiles(&f.raw);
            let req = request_tiles(&f.requests);
            assert_eq!(raw.len(), req.len(), "tiles, {fa:?} {preset:?}");
            let mut compared = 0;
            for (k, (r, q)) in raw.iter().zip(&req).enumerate() {
                assert_eq!(&expected_tex(q), r, "tile {k}, {fa:?} {preset:?}");
                compared += r.len();
            }
            assert!(compared > 10_000, "{compared} tex records");
            let kinds: BTreeMap<(u8, u8), usize> = f
                .requests
                .iter()
                .filter_map(|r| match r {
                    TexReqRecord::Request(q) => Some((q.filter.code(), q.len)),
                    _ => None,
                })
                .fold(BTreeMap::new(), |mut m, k| {
                    *m.entry(k).or_default() += 1;
                    m
                });
            let fps_seen: std::collections::BTreeSet<u16> = f
                .requests
                .iter()
                .filter_map(|r| match r {
                    TexReqRecord::Request(q) => Some(q.fp),
                    _ => None,
                })
                .collect();
            assert_eq!(fps_seen.len(), fps as usize, "{fa:?}: {fps_seen:?}");
            // Not vacuous: loads and filtered samples both there.
            assert!(kinds.contains_key(&(3, 1)), "{kinds:?}");
            assert!(kinds.keys().any(|&(f, n)| f != 3 && n >= 4), "{kinds:?}");
        }
    }
}

#[test]
fn anisotropic_samples_are_trilinear_probes_sharing_their_index_with_the_alu_on_the_first() {
    let f = render("racer", &request(4, FpAssignment::RoundRobin, None));
    let mut probes = 0;
    for w in f.requests.windows(2) {
        if let [TexReqRecord::Request(a), TexReqRecord::Request(b)] = w {
            if (a.x, a.y, a.index) == (b.x, b.y, b.index) {
                probes += 1;
                assert_eq!(b.filter, FilterKind::Trilinear);
                assert!(b.ops.is_none(), "a later probe carries no operations");
            }
        }
    }
    assert!(probes > 100, "{probes} later probes");
}

#[test]
fn the_record_is_the_same_for_one_and_two_threads() {
    let mut req = request(
        4,
        FpAssignment::Blocks { side: 16 },
        Some(Preset::Dx11Deferred),
    );
    req.width = 320;
    req.height = 192;
    req.threads = 1;
    let one = render("racer", &req);
    req.threads = 2;
    let two = render("racer", &req);
    assert!(one.requests.len() > 100_000, "{}", one.requests.len());
    assert!(one.requests == two.requests, "the records differ");
    assert!(one.raw == two.raw);
}

/// Per fragment (in a pass's tiles): the operations of its requests and
/// its end, and how many requests it made.
fn fragments(requests: &[TexReqRecord], pass: u32) -> Vec<(ShaderOps, u32)> {
    let mut out = Vec::new();
    let mut open: BTreeMap<(u16, u16), (ShaderOps, u32)> = BTreeMap::new();
    let mut current = None;
    for r in requests {
        match *r {
            TexReqRecord::PassBegin { pass } => current = Some(pass),
            _ if current != Some(pass) => {}
            TexReqRecord::Request(q) => {
                let e = open.entry((q.x, q.y)).or_default();
                e.0 += q.ops;
                e.1 = e.1.max(u32::from(q.index) + 1);
            }
            TexReqRecord::FragmentEnd { x, y, ops, .. } => {
                let (sum, n) = open.remove(&(x, y)).unwrap_or_default();
                out.push((sum + ops, n));
            }
            _ => {}
        }
    }
    assert!(open.is_empty(), "requests without a FragmentEnd");
    out
}

/// The index of pass `name` in the frame (its `PassBegin`s in order).
fn pass_index(raw: &[Record], name: &str) -> u32 {
    raw.iter()
        .filter_map(|r| match r {
            Record::Marker(Marker::PassBegin { name, .. }) => Some(name.as_str()),
            _ => None,
        })
        .position(|n| n == name)
        .unwrap_or_else(|| panic!("no pass {name}")) as u32
}

#[test]
fn a_fragments_operations_are_its_programs_path() {
    // City's frame has SSAO, its blurs and a refraction copy.
    let f = render("city", &request(4, FpAssignment::RoundRobin, None));
    for (name, program, taps_fixed) in [
        ("ssao-blur-x", Program::Blur, false),
        ("refraction-copy", Program::Copy, true),
    ] {
        let frags = fragments(&f.requests, pass_index(&f.raw, name));
        assert!(frags.len() > 1000, "{name}: {} fragments", frags.len());
        let code = program.code();
        for &(ops, n) in &frags {
            // Full-screen passes make every request of their path: the
            // taps are what the rest leaves.
            let lead = code.path(0, Options::NONE, true).requests();
            let taps = n - lead;
            if taps_fixed {
                assert_eq!(taps, 0, "{name}");
            }
            let path = code.path(taps, Options::NONE, true);
            assert_eq!(path.requests(), n, "{name}");
            assert_eq!(ops, path.ops, "{name}: {n} requests");
        }
    }
}

#[test]
fn skipped_optional_requests_cost_nothing() {
    // City's frame has shadow cascades and ambient occlusion.
    let f = render("city", &request(4, FpAssignment::RoundRobin, None));
    // The G-buffer: untextured or unreflective materials skip a request
    // and its block. A fragment's operations are those of the path of its
    // requests (every subset of the optional ones, in every variant).
    let code = Program::GBuffer.code();
    let frags = fragments(&f.requests, pass_index(&f.raw, "gbuffer"));
    let optional = code.optional_requests();
    let mut paths: Vec<(u32, ShaderOps)> = Vec::new();
    for alpha in [false, true] {
        for pack in [false, true] {
            let o = Options::NONE
                .with(Opt::AlphaTest, alpha)
                .with(Opt::PackNormal, pack);
            for made in 0..1u32 << optional.len() {
                let taken = |k: usize| {
                    let i = optional.iter().position(|&j| j == k).unwrap();
                    made & (1 << i) != 0
                };
                let p = code.path_where(0, o, taken);
                paths.push((p.requests(), p.ops));
            }
        }
    }
    let mut by_requests = BTreeMap::new();
    for &(ops, n) in &frags {
        assert!(paths.contains(&(n, ops)), "{n} requests, {ops:?}");
        *by_requests.entry(n).or_insert(0) += 1;
    }
    assert!(by_requests.len() >= 2, "{by_requests:?}");
    // In each variant, a request skipped is operations saved.
    for v in paths.chunks(1 << optional.len()) {
        let ops = |made: usize| v[made].1.scalar_ops();
        assert!(ops(0) < ops(1) && ops(0) < ops(2), "{v:?}");
        assert!(ops(1) < ops(3) && ops(2) < ops(3), "{v:?}");
    }
    // Lighting: the ambient occlusion is sampled, the shadow skipped where
    // no cascade holds the pixel, and then its lookup's request and
    // compare cost nothing.
    let light = Program::Lighting.code();
    let cascaded = Options::NONE
        .with(Opt::Shadowed, true)
        .with(Opt::Cascades, true);
    let all = light.path(0, cascaded, true);
    let frags = fragments(&f.requests, pass_index(&f.raw, "lighting"));
    let lit = frags.iter().filter(|&&(ops, _)| ops == all.ops).count();
    let unshadowed = frags
        .iter()
        .filter(|&&(ops, n)| n + 1 == all.requests() && ops.scalar_ops() < all.ops.scalar_ops())
        .count();
    assert!(lit * 10 > frags.len() * 8, "{lit} of {}", frags.len());
    assert!(
        lit + unshadowed == frags.len(),
        "{lit} + {unshadowed} of {}",
        frags.len()
    );
}

#[test]
fn immediate_mode_refuses_a_texture_request_record() {
    let scene = resolve("racer").unwrap();
    let mut req = RenderRequest::new(Mode::Imr);
    req.width = 64;
    req.height = 64;
    let r = render_with_requests(
        &scene,
        &req,
        PassThrough,
        |_| {},
        Some(Box::new(Shared::default())),
        |_| {},
    );
    match r {
        Err(e) => assert!(e.to_string().contains("tile by tile"), "{e}"),
        Ok(_) => panic!("immediate mode recorded texture requests"),
    }
}

/// The 64-byte blocks the frame's shadow passes store: its shadow maps.
fn shadow_map_blocks(raw: &[Record]) -> BTreeSet<u64> {
    let mut in_shadow = false;
    let mut blocks = BTreeSet::new();
    for r in raw {
        match r {
            Record::Marker(Marker::PassBegin { kind, .. }) => in_shadow = *kind == PassKind::Shadow,
            Record::Access(a) if in_shadow && a.stream == Stream::Z && a.op == Op::Write => {
                blocks.insert(a.addr);
            }
            _ => {}
        }
    }
    blocks
}

/// The requests of a frame by pass index, with whether each is an exact
/// read a forced filter leaves alone: a tap of the shadow maps (a depth
/// comparison) or of the SSAO pass (depth and normal taps), when the
/// frame has them.
fn classified(f: &Frame) -> Vec<(u32, bool, TexRequest)> {
    let shadow = shadow_map_blocks(&f.raw);
    let ssao = f
        .raw
        .iter()
        .filter_map(|r| match r {
            Record::Marker(Marker::PassBegin { name, .. }) => Some(name.as_str()),
            _ => None,
        })
        .position(|n| n == "ssao")
        .map_or(u32::MAX, |p| p as u32);
    let mut pass = u32::MAX;
    let mut out = Vec::new();
    for r in &f.requests {
        match *r {
            TexReqRecord::PassBegin { pass: p } => pass = p,
            TexReqRecord::Request(q) => {
                let in_shadow_map = q.addresses().iter().all(|a| shadow.contains(&(a & !63)));
                out.push((pass, pass == ssao || in_shadow_map, q));
            }
            _ => {}
        }
    }
    out
}

fn forced(scene: &str, filter: FilterOverride) -> Frame {
    let mut req = request(4, FpAssignment::RoundRobin, None);
    req.texture_filter = filter;
    render(scene, &req)
}

#[test]
fn a_forced_filter_is_every_filtered_requests_and_the_exact_reads_stay_exact() {
    // City's frame has shadow cascades and SSAO; racer's (the mobile
    // deferred-lite frame) no exact read but its loads.
    for (scene, exact_reads) in [("city", true), ("racer", false)] {
        // As authored, the exact reads are the nearest requests: the
        // classification below is the renderer's, not a guess.
        let authored = classified(&forced(scene, FilterOverride::AsAuthored));
        let mut exact = 0;
        for &(pass, is_exact, q) in &authored {
            if q.filter != FilterKind::Fetch {
                assert_eq!(
                    q.filter == FilterKind::Nearest,
                    is_exact,
                    "{scene} pass {pass}: {q:?}"
                );
                exact += usize::from(is_exact);
            }
        }
        assert_eq!(exact > 1000, exact_reads, "{scene}: {exact} exact reads");
        for (filter, kind, taps) in [
            (FilterOverride::Nearest, FilterKind::Nearest, &[1][..]),
            (FilterOverride::Bilinear, FilterKind::Bilinear, &[4]),
            (FilterOverride::Trilinear, FilterKind::Trilinear, &[4, 8]),
        ] {
            let f = forced(scene, filter);
            // A forced filter takes the anisotropic probes away: no two
            // requests in a row of one pixel and index.
            let probes = f
                .requests
                .windows(2)
                .filter(|w| match w {
                    [TexReqRecord::Request(a), TexReqRecord::Request(b)] => {
                        (a.x, a.y, a.index) == (b.x, b.y, b.index)
                    }
                    _ => false,
                })
                .count();
            assert_eq!(probes, 0, "{scene}, {filter}");
            let frame = classified(&f);
            let mut count: BTreeMap<(u8, u8), usize> = BTreeMap::new();
            for &(pass, is_exact, q) in &frame {
                let ok = if q.filter == FilterKind::Fetch {
                    q.len == 1
                } else if is_exact {
                    (q.filter, q.len) == (FilterKind::Nearest, 1)
                } else {
                    q.filter == kind && taps.contains(&q.len)
                };
                assert!(
                    ok,
                    "{scene}, {filter}, pass {pass}, exact {is_exact}: {q:?}"
                );
                *count.entry((q.filter.code(), q.len)).or_default() += 1;
            }
            let filtered: usize = taps
                .iter()
                .map(|&n| count.get(&(kind.code(), n)).copied().unwrap_or(0))
                .sum();
            assert!(filtered > 10_000, "{scene}, {filter}: {count:?}");
            if filter == FilterOverride::Trilinear {
                // Two levels read wherever the LOD falls between them.
                assert!(
                    count.get(&(kind.code(), 8)).copied().unwrap_or(0) > 1000,
                    "{count:?}"
                );
            }
        }
    }
}

/// The requests of pass `name`.
fn pass_requests(f: &Frame, name: &str) -> Vec<TexRequest> {
    let index = pass_index(&f.raw, name);
    let mut pass = u32::MAX;
    let mut out = Vec::new();
    for r in &f.requests {
        match *r {
            TexReqRecord::PassBegin { pass: p } => pass = p,
            TexReqRecord::Request(q) if pass == index => out.push(q),
            _ => {}
        }
    }
    assert!(out.len() > 1000, "{name}: {} requests", out.len());
    out
}

#[test]
fn exact_reads_do_not_change_and_screen_passes_read_their_texels_as_authored() {
    // Full-screen passes of city's frame that read where their pixels
    // are, whatever the pictures hold: the SSAO's depth and normal taps
    // (exact), then bilinear as authored (blurs, the refraction copy, the
    // luminance and bloom chains, tone mapping's bloom) with their loads.
    let screen = [
        "ssao-blur-x",
        "ssao-blur-y",
        "refraction-copy",
        "luminance",
        "bloom",
        "tonemap",
    ];
    let authored = forced("city", FilterOverride::AsAuthored);
    for filter in [
        FilterOverride::Nearest,
        FilterOverride::Bilinear,
        FilterOverride::Trilinear,
    ] {
        let f = forced("city", filter);
        assert!(
            pass_requests(&f, "ssao") == pass_requests(&authored, "ssao"),
            "{filter}: SSAO's taps changed"
        );
        for name in screen {
            let (was, is) = (pass_requests(&authored, name), pass_requests(&f, name));
            assert_eq!(was.len(), is.len(), "{filter}, {name}");
            let mut filtered = 0;
            for (a, b) in was.iter().zip(&is) {
                let at = |q: &TexRequest| (q.fp, q.x, q.y, q.index, q.ops, q.texel_bytes);
                assert_eq!(at(a), at(b), "{filter}, {name}");
                match (a.filter, filter) {
                    (FilterKind::Fetch, _) => assert_eq!(a, b, "{filter}, {name}: a load"),
                    (FilterKind::Bilinear, FilterOverride::Bilinear) => assert_eq!(a, b),
                    // A render target has one level: trilinear reads the
                    // bilinear footprint.
                    (FilterKind::Bilinear, FilterOverride::Trilinear) => {
                        assert_eq!(b.filter, FilterKind::Trilinear);
                        assert_eq!(a.addresses(), b.addresses(), "{name}");
                    }
                    (FilterKind::Bilinear, FilterOverride::Nearest) => {
                        assert_eq!((b.filter, b.len), (FilterKind::Nearest, 1), "{name}");
                        // The nearest texel is one of the footprint's.
                        assert!(a.addresses().contains(&b.taps[0]), "{name}: {a:?} {b:?}");
                    }
                    _ => panic!("{name}: {a:?} as authored"),
                }
                filtered += usize::from(a.filter != FilterKind::Fetch);
            }
            assert!(filtered > 0, "{name}: no filtered request");
        }
    }
}
