//! Coverage: a triangle covers exactly the pixels whose centres pass its
//! three edge functions under the top-left rule, and meshes are watertight.

use crate::common::{clip_at, coverage, Hits};
use gfxcache_render::raster::snap;
use gfxcache_render::{CullMode, FrontFace, Rasterizer, Viewport};
use proptest::prelude::*;

/// Brute-force reference, written independently of the rasterizer: works
/// on any vertex order, decides "on the edge" cases from where the third
/// vertex lies. Coordinates are in 1/256 pixel.
fn reference_covers(v: [(i64, i64); 3], px: i64, py: i64) -> bool {
    let orient = |a: (i64, i64), b: (i64, i64), p: (i64, i64)| -> i128 {
        (b.0 - a.0) as i128 * (p.1 - a.1) as i128 - (b.1 - a.1) as i128 * (p.0 - a.0) as i128
    };
    let p = (px * 256 + 128, py * 256 + 128);
    if orient(v[0], v[1], v[2]) == 0 {
        return false;
    }
    for k in 0..3 {
        let (a, b, c) = (v[k], v[(k + 1) % 3], v[(k + 2) % 3]);
        let sc = orient(a, b, c).signum();
        let sp = orient(a, b, p).signum();
        if sp == 0 {
            let dy = b.1 - a.1;
            let top = dy == 0 && c.1 > a.1;
            // Moving right from the edge enters the triangle.
            let left = dy != 0 && (-(dy as i128)).signum() == sc;
            if !(top || left) {
                return false;
            }
        } else if sp != sc {
            return false;
        }
    }
    true
}

fn check_triangle(vp: Viewport, pts: [(f64, f64); 3], w: [f32; 3]) {
    let r = Rasterizer::new(vp);
    let tri = [
        clip_at(&vp, pts[0].0, pts[0].1, 0.5, w[0]),
        clip_at(&vp, pts[1].0, pts[1].1, 0.5, w[1]),
        clip_at(&vp, pts[2].0, pts[2].1, 0.5, w[2]),
    ];
    let hits = coverage(&r, tri);
    let fixed = pts.map(|(x, y)| (snap(x as f32), snap(y as f32)));
    for y in 0..hits.height {
        for x in 0..hits.width {
            let inside_vp = vp.contains(x as i64, y as i64);
            let want = inside_vp && reference_covers(fixed, x as i64, y as i64);
            assert_eq!(
                hits.get(x, y),
                want as u32,
                "pixel ({x}, {y}) of triangle {pts:?}"
            );
        }
    }
}

fn grid_point(step: f64) -> impl Strategy<Value = (f64, f64)> {
    let lo = (-12.0 / step) as i64;
    let hi = (76.0 / step) as i64;
    (lo..hi, lo..hi).prop_map(move |(x, y)| (x as f64 * step, y as f64 * step))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Vertices on a half-pixel grid: many pixel centres fall exactly on
    /// edges and vertices, which is where the fill rule matters.
    #[test]
    fn coarse_grid_triangles_match_reference(
        a in grid_point(0.5), b in grid_point(0.5), c in grid_point(0.5),
    ) {
        check_triangle(Viewport::new(64, 64), [a, b, c], [1.0; 3]);
    }

    /// Any sub-pixel position, any w > 0, an odd viewport origin.
    #[test]
    fn fine_grid_triangles_match_reference(
        a in grid_point(1.0 / 256.0), b in grid_point(1.0 / 256.0), c in grid_point(1.0 / 256.0),
        w in prop::array::uniform3(0.25f32..4.0),
    ) {
        let vp = Viewport { x: 3, y: 5, width: 57, height: 50, min_depth: 0.0, max_depth: 1.0 };
        check_triangle(vp, [a, b, c], w);
    }

    /// A jittered grid mesh larger than the viewport, each cell split along
    /// a random diagonal, vertex order random: every pixel is covered
    /// exactly once (no cracks, no double hits).
    #[test]
    fn meshes_cover_every_pixel_once(
        jitter in prop::collection::vec((-5i32..=5, -5i32..=5), 49),
        diagonals in prop::collection::vec(any::<bool>(), 36),
        orders in prop::collection::vec(0usize..6, 72),
        ws in prop::collection::vec(0.5f32..2.0, 49),
        half_grid in any::<bool>(),
    ) {
        let vp = Viewport::new(60, 60);
        let r = Rasterizer::new(vp);
        // 7x7 vertices spaced 12 px from -6 to 66; jitter in steps of 1/2 or
        // 1/256 px, at most 2.5 px, keeps every cell convex.
        let unit = if half_grid { 0.5 } else { 2.5 / 5.0 * (251.0 / 256.0) };
        let vert = |i: usize, j: usize| {
            let (jx, jy) = jitter[j * 7 + i];
            let x = -6.0 + 12.0 * i as f64 + jx as f64 * unit;
            let y = -6.0 + 12.0 * j as f64 + jy as f64 * unit;
            clip_at(&vp, x, y, 0.25, ws[j * 7 + i])
        };
        let mut hits = Hits::new(60, 60);
        for j in 0..6 {
            for i in 0..6 {
                let (a, b, c, d) = (vert(i, j), vert(i + 1, j), vert(i + 1, j + 1), vert(i, j + 1));
                let cell = j * 6 + i;
                let tris = if diagonals[cell] { [[a, b, c], [a, c, d]] } else { [[a, b, d], [b, c, d]] };
                for (t, tri) in tris.iter().enumerate() {
                    let perm = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]][orders[cell * 2 + t]];
                    r.draw([tri[perm[0]], tri[perm[1]], tri[perm[2]]], |q| hits.add(q));
                }
            }
        }
        for y in 0..60 {
            for x in 0..60 {
                prop_assert_eq!(hits.get(x, y), 1, "pixel ({}, {})", x, y);
            }
        }
    }
}

/// A fan of triangles around a vertex sitting exactly on a pixel centre.
#[test]
fn fan_around_pixel_centre_covers_it_once() {
    let vp = Viewport::new(32, 32);
    let r = Rasterizer::new(vp);
    let c = (16.5, 16.5);
    let ring = [
        (16.5, 4.5),
        (28.5, 4.5),
        (28.5, 16.5),
        (28.5, 28.5),
        (16.5, 28.5),
        (4.5, 28.5),
        (4.5, 16.5),
        (4.5, 4.5),
    ];
    let mut hits = Hits::new(32, 32);
    for k in 0..ring.len() {
        let (a, b) = (ring[k], ring[(k + 1) % ring.len()]);
        r.draw(
            [
                clip_at(&vp, c.0, c.1, 0.5, 1.0),
                clip_at(&vp, a.0, a.1, 0.5, 1.0),
                clip_at(&vp, b.0, b.1, 0.5, 1.0),
            ],
            |q| hits.add(q),
        );
    }
    for y in 0..32 {
        for x in 0..32 {
            // The square's left and top edges are in, right and bottom out.
            let want = (4..28).contains(&x) && (4..28).contains(&y);
            assert_eq!(hits.get(x, y), want as u32, "pixel ({x}, {y})");
        }
    }
}

/// The top-left rule on a hand-worked triangle, and culling by winding.
#[test]
fn top_left_rule_and_culling_by_hand() {
    let vp = Viewport::new(8, 8);
    // Right triangle with legs on pixel centres: (0.5,0.5), (4.5,0.5), (0.5,4.5).
    // Screen y is down, so this is clockwise on screen = clockwise in NDC.
    let tri = [
        clip_at(&vp, 0.5, 0.5, 0.5, 1.0),
        clip_at(&vp, 4.5, 0.5, 0.5, 1.0),
        clip_at(&vp, 0.5, 4.5, 0.5, 1.0),
    ];
    let hits = coverage(&Rasterizer::new(vp), tri);
    let mut covered = vec![];
    for y in 0..8 {
        for x in 0..8 {
            if hits.get(x, y) == 1 {
                covered.push((x, y));
            }
        }
    }
    // Top edge y = 0.5 and left edge x = 0.5 are in; the hypotenuse
    // x + y = 5 (pixel centres on it: x + y = 4) is out.
    let want: Vec<(u32, u32)> = (0..8u32)
        .flat_map(|y| (0..8u32).map(move |x| (x, y)))
        .filter(|&(x, y)| x + y < 4)
        .collect();
    assert_eq!(covered, want);

    let count = |cull, ff| {
        let r = Rasterizer::new(vp).with_cull(cull, ff);
        let mut n = 0;
        let stats = r.draw(tri, |_| n += 1);
        (n, stats.culled)
    };
    assert_eq!(count(CullMode::Back, FrontFace::Ccw), (0, true));
    assert!(count(CullMode::Back, FrontFace::Cw).0 > 0);
    assert!(count(CullMode::Front, FrontFace::Ccw).0 > 0);
    assert_eq!(count(CullMode::Front, FrontFace::Cw), (0, true));
    // Reversed winding flips the verdicts and the facing flag.
    let rev = [tri[0], tri[2], tri[1]];
    let r = Rasterizer::new(vp).with_cull(CullMode::Back, FrontFace::Ccw);
    let mut facing = vec![];
    r.draw(rev, |q| facing.push(q.front_facing));
    assert!(!facing.is_empty() && facing.iter().all(|&f| f));
}

/// Degenerate and non-finite triangles draw nothing.
#[test]
fn degenerate_triangles_draw_nothing() {
    let vp = Viewport::new(16, 16);
    let r = Rasterizer::new(vp);
    let a = clip_at(&vp, 1.0, 1.0, 0.5, 1.0);
    let b = clip_at(&vp, 9.0, 5.0, 0.5, 1.0);
    let c = clip_at(&vp, 13.0, 7.0, 0.5, 1.0);
    let mut n = 0;
    assert!(r.draw([a, b, c], |_| n += 1).culled);
    let mut bad = b;
    bad.x = f32::NAN;
    r.draw([a, bad, c], |_| n += 1);
    assert_eq!(n, 0);
}
