//! The Polygon List Builder's two overlap tests ([`BinningMode`]) on hand-
//! built and random triangles: bounding-box binning lists exactly the
//! tiles of the triangle's clipped screen bounding box (in pixel-centre
//! space, cut to the screen), a superset of the tiles exact binning lists,
//! and the records do not depend on the mode. (Rendered frames:
//! `binning.rs`.)

use std::collections::BTreeSet;

use gfxcache_render::pipeline::{BinnedPass, BinningConfig, BinningMode};
use gfxcache_render::{
    Allocator, ColorFormat, CullMode, DepthFormat, DepthTarget, Draw, FragmentOutput, Fragments,
    IndexBuffer, IndexFormat, Mat4, Pipeline, Rasterizer, State, Vec3, Vec4, Vertex, VertexBuffer,
    Viewport,
};
use gfxcache_render::{ColorTarget, FrontFace};
use gfxcache_trace::binned::TileOrder;
use gfxcache_trace::{PassKind, Record};
use proptest::prelude::*;

const TILE: u32 = 32;
/// The draws' attribute count (their vertices carry one scalar: the
/// pipeline lists what the draw says, not what its vertices hold).
const ATTRIBUTES: u32 = 4;

fn flat(f: &mut Fragments<'_>, o: &mut FragmentOutput) {
    for i in 0..4 {
        o.color[0][i] = [f.attrs[i][0], 0.0, 0.0, 1.0];
    }
}

/// One triangle with screen-space corners `pts` (pixels, y down) at depths
/// `z` (NDC; outside `[0, 1]` it is clipped) on a `w` x `h` screen.
fn triangle(
    alloc: &mut Allocator,
    (w, h): (u32, u32),
    pts: [(f32, f32, f32); 3],
) -> (IndexBuffer, VertexBuffer) {
    let verts = pts
        .iter()
        .map(|&(x, y, z)| {
            let (nx, ny) = (x / w as f32 * 2.0 - 1.0, 1.0 - y / h as f32 * 2.0);
            Vertex::new(Vec3::new(nx, ny, z), &[0.5])
        })
        .collect();
    (
        IndexBuffer::new(vec![0, 1, 2], IndexFormat::U16, alloc),
        VertexBuffer::new(verts, 1, alloc),
    )
}

/// The records of drawing `pts` in one pass, binned in `mode`, and the
/// binned passes (none when no triangle is listed anywhere).
fn bin(
    (w, h): (u32, u32),
    pts: [(f32, f32, f32); 3],
    cull: CullMode,
    mode: BinningMode,
) -> (Vec<Record>, Vec<BinnedPass>) {
    let mut alloc = Allocator::new(0x1000_0000);
    let mut p = Pipeline::default();
    let rt = p.add_color(ColorTarget::new(w, h, ColorFormat::Rgba8, &mut alloc));
    let ds = p.add_depth(DepthTarget::new(w, h, DepthFormat::D32F, &mut alloc));
    p.set_binning(Some(BinningConfig {
        tile_size: TILE,
        order: TileOrder::Scanline,
        mode,
    }));
    let (ib, vb) = triangle(&mut alloc, (w, h), pts);
    let color = [rt];
    let draw = Draw {
        indices: &ib,
        vertices: &vb,
        mvp: Mat4::IDENTITY,
        state: State {
            cull,
            ..State::default()
        },
        color: &color,
        depth: Some(ds),
        shader: &flat,
        attributes: ATTRIBUTES,
        work: gfxcache_render::pipeline::ShaderWork::NONE,
    };
    let mut recs = Vec::new();
    p.begin_pass("main", PassKind::Forward, &mut |r| recs.push(r));
    p.draw(&draw, &mut |r| recs.push(r));
    p.end_pass(&mut |r| recs.push(r));
    (recs, p.take_binned())
}

/// The tiles of the only primitive binned, as a set (empty: none binned).
fn tiles_of(binned: &[BinnedPass]) -> BTreeSet<u32> {
    assert!(binned.len() <= 1);
    let Some(pass) = binned.first() else {
        return BTreeSet::new();
    };
    assert_eq!(pass.frame.primitives.len(), 1);
    let prim = &pass.frame.primitives[0];
    assert_eq!(
        prim.attributes, ATTRIBUTES,
        "the draw's, whatever its vertices"
    );
    let set: BTreeSet<u32> = prim.tiles.iter().copied().collect();
    assert_eq!(set.len(), prim.tiles.len(), "each tile listed once");
    pass.frame.check().expect("a valid binned frame");
    set
}

/// The tiles holding pixels `[x0, x1] x [y0, y1]` on a `tiles_x`-wide grid.
fn box_tiles([x0, y0, x1, y1]: [u32; 4], tiles_x: u32) -> BTreeSet<u32> {
    (y0 / TILE..=y1 / TILE)
        .flat_map(|ty| (x0 / TILE..=x1 / TILE).map(move |tx| ty * tiles_x + tx))
        .collect()
}

/// What the rasterizer makes of the triangle: the pixels it covers and its
/// bounds ([`gfxcache_render::TriangleStats::bounds`]).
fn raster(
    (w, h): (u32, u32),
    pts: [(f32, f32, f32); 3],
    cull: CullMode,
) -> (Vec<(u32, u32)>, Option<[u32; 4]>) {
    let clip =
        pts.map(|(x, y, z)| Vec4::new(x / w as f32 * 2.0 - 1.0, 1.0 - y / h as f32 * 2.0, z, 1.0));
    let mut covered = Vec::new();
    let r = Rasterizer::new(Viewport::new(w, h)).with_cull(cull, FrontFace::Ccw);
    let stats = r.draw(clip, |q| {
        covered.extend((0..4).filter(|&i| q.covered(i)).map(|i| q.pixel(i)))
    });
    (covered, stats.bounds)
}

/// A thin diagonal triangle across a 128 x 128 screen of 4 x 4 tiles:
/// exact binning lists the tiles along the diagonal, bounding-box binning
/// all 16, and the records are the same.
#[test]
fn a_thin_diagonal_triangle_is_listed_in_every_tile_of_its_box() {
    let size = (128, 128);
    let pts = [(1.0, 2.0, 0.5), (126.0, 125.0, 0.5), (125.0, 126.0, 0.5)];
    let (rec_exact, exact) = bin(size, pts, CullMode::None, BinningMode::Exact);
    let (rec_box, bbox) = bin(size, pts, CullMode::None, BinningMode::BoundingBox);
    assert_eq!(rec_exact, rec_box, "binning changes no record");
    let exact = tiles_of(&exact);
    assert_eq!(tiles_of(&bbox), (0..16).collect());
    // The diagonal tiles and, where the sliver crosses a tile corner, a
    // neighbour; never the far corners.
    assert!(
        [0, 5, 10, 15].iter().all(|t| exact.contains(t)),
        "{exact:?}"
    );
    assert!(!exact.contains(&3) && !exact.contains(&12), "{exact:?}");
    assert!(exact.len() < 16);
}

/// A triangle mostly off screen: its box is cut to the screen, so only the
/// on-screen tiles it spans are listed.
#[test]
fn the_box_is_cut_to_the_screen() {
    let size = (128, 96);
    // Pixel centres x 0..=79, y 40..=59 on screen: tiles x 0..=2, y 1.
    let pts = [(-300.0, 40.0, 0.5), (80.0, 40.0, 0.5), (80.0, 60.0, 0.5)];
    let (_, bbox) = bin(size, pts, CullMode::None, BinningMode::BoundingBox);
    assert_eq!(tiles_of(&bbox), BTreeSet::from([4, 5, 6]));
    let (_, bounds) = raster(size, pts, CullMode::None);
    assert_eq!(bounds, Some([0, 40, 79, 59]));
}

/// A sliver between the rows of pixel centres (`y - x` stays within
/// [0.375, 0.625], never a whole number): exact binning lists it nowhere,
/// bounding-box binning in every tile of its box, where the rasterizer
/// makes no fragment of it.
#[test]
fn a_triangle_covering_no_pixel_centre_is_listed_by_its_box_only() {
    let size = (64, 64);
    let pts = [
        (0.625, 1.125, 0.5),
        (60.5, 60.875, 0.5),
        (60.375, 61.0, 0.5),
    ];
    let (covered, bounds) = raster(size, pts, CullMode::None);
    assert!(covered.is_empty());
    assert_eq!(bounds, Some([1, 1, 60, 60]));
    let (_, exact) = bin(size, pts, CullMode::None, BinningMode::Exact);
    assert!(exact.is_empty(), "no pass binned: no primitive listed");
    let (_, bbox) = bin(size, pts, CullMode::None, BinningMode::BoundingBox);
    assert_eq!(tiles_of(&bbox), BTreeSet::from([0, 1, 2, 3]));
}

/// A culled triangle is in no list in either mode.
#[test]
fn a_culled_triangle_is_listed_nowhere() {
    let size = (64, 64);
    // Down, then up and right on screen: counter-clockwise with y up, a
    // front face. Its hypotenuse x + y = 64 only touches tile (1, 1).
    let front = [(4.0, 4.0, 0.5), (4.0, 60.0, 0.5), (60.0, 4.0, 0.5)];
    for (mode, tiles) in [(BinningMode::Exact, 3), (BinningMode::BoundingBox, 4)] {
        let (_, binned) = bin(size, front, CullMode::Front, mode);
        assert!(binned.is_empty(), "{mode:?}");
        let (_, binned) = bin(size, front, CullMode::Back, mode);
        assert_eq!(tiles_of(&binned).len(), tiles, "{mode:?}");
    }
    assert_eq!(raster(size, front, CullMode::Front).1, None);
}

fn coord(lo: i32, hi: i32) -> impl Strategy<Value = f32> {
    // Eighths of a pixel: exact in NDC and back, and on the snap grid.
    (lo * 8..hi * 8).prop_map(|v| v as f32 / 8.0)
}

fn corner(w: i32, h: i32, z: (f32, f32)) -> impl Strategy<Value = (f32, f32, f32)> {
    (coord(-w / 2, w + w / 2), coord(-h / 2, h + h / 2), z.0..z.1)
}

fn cull() -> impl Strategy<Value = CullMode> {
    prop_oneof![
        Just(CullMode::None),
        Just(CullMode::Back),
        Just(CullMode::Front)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Random triangles, partly off screen and (depth outside [0, 1])
    /// clipped by the near or far plane: bounding-box binning lists the
    /// tiles of the rasterizer's bounds, which hold every covered pixel,
    /// and exact binning a subset of them, with the same records.
    #[test]
    fn bounding_box_tiles_are_a_superset_of_the_exact_ones(
        a in corner(96, 80, (-0.5, 1.5)),
        b in corner(96, 80, (-0.5, 1.5)),
        c in corner(96, 80, (-0.5, 1.5)),
        cull in cull(),
    ) {
        let size = (96, 80);
        let pts = [a, b, c];
        let (rec_exact, exact) = bin(size, pts, cull, BinningMode::Exact);
        let (rec_box, bbox) = bin(size, pts, cull, BinningMode::BoundingBox);
        prop_assert_eq!(rec_exact, rec_box);
        let (exact, bbox) = (tiles_of(&exact), tiles_of(&bbox));
        prop_assert!(exact.is_subset(&bbox), "exact {:?} bbox {:?}", exact, bbox);
        let (covered, bounds) = raster(size, pts, cull);
        prop_assert_eq!(&bbox, &bounds.map_or_else(BTreeSet::new, |b| box_tiles(b, 3)));
        let covered_tiles: BTreeSet<u32> =
            covered.iter().map(|&(x, y)| (y / TILE) * 3 + x / TILE).collect();
        prop_assert_eq!(&exact, &covered_tiles);
        if let Some([x0, y0, x1, y1]) = bounds {
            prop_assert!(x1 < 96 && y1 < 80);
            for (x, y) in covered {
                prop_assert!((x0..=x1).contains(&x) && (y0..=y1).contains(&y));
            }
        }
    }

    /// Unclipped triangles (depth within [0, 1]): the bounds are the pixels
    /// whose centres lie in the box of the three corners, cut to the screen.
    #[test]
    fn the_bounds_of_an_unclipped_triangle_are_its_corners_box(
        a in corner(96, 80, (0.05, 0.95)),
        b in corner(96, 80, (0.05, 0.95)),
        c in corner(96, 80, (0.05, 0.95)),
    ) {
        let size = (96u32, 80u32);
        let pts = [a, b, c];
        let (_, bounds) = raster(size, pts, CullMode::None);
        let area2 = (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0);
        let xs = pts.map(|p| p.0);
        let ys = pts.map(|p| p.1);
        let lo = |v: [f32; 3]| v.iter().copied().fold(f32::INFINITY, f32::min);
        let hi = |v: [f32; 3]| v.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        // Pixel k's centre k + 0.5 lies in [lo, hi].
        let x0 = (lo(xs) - 0.5).ceil().max(0.0);
        let x1 = (hi(xs) - 0.5).floor().min(size.0 as f32 - 1.0);
        let y0 = (lo(ys) - 0.5).ceil().max(0.0);
        let y1 = (hi(ys) - 0.5).floor().min(size.1 as f32 - 1.0);
        let want = (area2 != 0.0 && x0 <= x1 && y0 <= y1)
            .then_some([x0 as u32, y0 as u32, x1 as u32, y1 as u32]);
        prop_assert_eq!(bounds, want);
    }
}
