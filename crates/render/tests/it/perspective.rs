//! Perspective-correct interpolation reproduces analytic planes: a ground
//! plane seen in perspective, where every pixel's interpolated world
//! position must project back onto that pixel's centre, carry the plane's
//! depth, and give a linear attribute its analytic value.

use gfxcache_render::{Mat4, Rasterizer, Vec3, Viewport};

fn scene() -> (Mat4, [[Vec3; 3]; 2]) {
    let proj = Mat4::perspective(60f32.to_radians(), 1.0, 0.1, 50.0);
    let view = Mat4::look_at(
        Vec3::new(0.3, 1.2, 3.0),
        Vec3::new(0.0, 0.0, -2.0),
        Vec3::new(0.0, 1.0, 0.0),
    );
    let (a, b, c, d) = (
        Vec3::new(-3.0, 0.0, 2.0),
        Vec3::new(3.0, 0.0, 2.0),
        Vec3::new(3.0, 0.0, -20.0),
        Vec3::new(-3.0, 0.0, -20.0),
    );
    (proj * view, [[a, b, c], [a, c, d]])
}

/// A linear function of world position.
fn attr(p: Vec3) -> f32 {
    3.0 * p.x - 0.5 * p.z + 1.0
}

#[test]
fn ground_plane_interpolates_like_the_analytic_plane() {
    let (vp_mat, tris) = scene();
    let vp = Viewport::new(96, 64);
    let r = Rasterizer::new(vp);
    let mut pixels = 0;
    let mut worst_affine = 0.0f32;
    for tri in &tris {
        let clip = tri.map(|p| vp_mat.transform_point(p));
        let attrs = tri.map(|p| [p.x, p.y, p.z, attr(p)]);
        r.draw(clip, |q| {
            for i in 0..4 {
                if !q.covered(i) {
                    continue;
                }
                pixels += 1;
                let (x, y) = q.pixel(i);
                let b = q.bary[i];
                assert!(b.iter().all(|&w| w > -1e-4), "barycentrics {b:?}");
                assert!((b[0] + b[1] + b[2] - 1.0).abs() < 1e-5);
                let [wx, wy, wz, a] = q.interpolate(i, &attrs);
                let p = Vec3::new(wx, wy, wz);
                // The interpolated point projects onto this pixel's centre.
                let c = vp_mat.transform_point(p);
                let (sx, sy) = vp.to_screen(c.x / c.w, c.y / c.w);
                let err = ((sx - (x as f32 + 0.5)).abs()).max((sy - (y as f32 + 0.5)).abs());
                assert!(err < 0.01, "pixel ({x}, {y}) reprojects {err} px away");
                // Its depth is the plane's depth there.
                let depth = vp.to_depth(c.z / c.w);
                assert!(
                    (q.depth[i] - depth).abs() < 2e-5,
                    "depth {} vs {depth}",
                    q.depth[i]
                );
                assert!((0.0..=1.0).contains(&q.depth[i]));
                // A linear attribute has its analytic value.
                assert!((a - attr(p)).abs() < 1e-3, "attribute {a} vs {}", attr(p));
                assert!(wy.abs() < 1e-5);
                // How wrong screen-linear interpolation would have been.
                let (sx0, sy0) = screen_of(&vp_mat, &vp, tri);
                let affine = affine_weights(sx0, sy0, x as f32 + 0.5, y as f32 + 0.5);
                let az = affine[0] * tri[0].z + affine[1] * tri[1].z + affine[2] * tri[2].z;
                worst_affine = worst_affine.max((az - wz).abs());
            }
        });
    }
    assert!(pixels > 96 * 64 / 4, "plane covers only {pixels} pixels");
    // The test has teeth: affine interpolation misses by metres.
    assert!(worst_affine > 1.0, "affine error only {worst_affine}");
}

fn screen_of(m: &Mat4, vp: &Viewport, tri: &[Vec3; 3]) -> ([f32; 3], [f32; 3]) {
    let mut xs = [0.0; 3];
    let mut ys = [0.0; 3];
    for k in 0..3 {
        let c = m.transform_point(tri[k]);
        let (x, y) = vp.to_screen(c.x / c.w, c.y / c.w);
        xs[k] = x;
        ys[k] = y;
    }
    (xs, ys)
}

fn affine_weights(x: [f32; 3], y: [f32; 3], px: f32, py: f32) -> [f32; 3] {
    let area = (x[1] - x[0]) * (y[2] - y[0]) - (y[1] - y[0]) * (x[2] - x[0]);
    let e = |a: usize, b: usize| (x[b] - x[a]) * (py - y[a]) - (y[b] - y[a]) * (px - x[a]);
    [e(1, 2) / area, e(2, 0) / area, e(0, 1) / area]
}

/// Depth is z/w mapped into the viewport's depth range.
#[test]
fn depth_range_maps_ndc_depth() {
    let (vp_mat, tris) = scene();
    let mut vp = Viewport::new(32, 32);
    vp.min_depth = 0.25;
    vp.max_depth = 0.75;
    let r = Rasterizer::new(vp);
    let clip = tris[0].map(|p| vp_mat.transform_point(p));
    let mut n = 0;
    r.draw(clip, |q| {
        for i in 0..4 {
            if q.covered(i) {
                n += 1;
                assert!((0.25..=0.75).contains(&q.depth[i]), "depth {}", q.depth[i]);
            }
        }
    });
    assert!(n > 0);
}
