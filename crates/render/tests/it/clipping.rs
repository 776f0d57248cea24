//! Clipping: triangles crossing the near plane (or passing behind the eye,
//! or reaching past the guard band) cover exactly the pixels of the part of
//! the triangle in front of the near plane.

use crate::common::{coverage, Hits};
use gfxcache_render::{Rasterizer, Vec4, Viewport};
use proptest::prelude::*;

/// The region the triangle covers, in homogeneous 2D form (Olano and
/// Greer): with `p = (nx, ny, 1)` and each vertex as `(x, y, w)`, the edge
/// functions `e_i = p · (v_j × v_k)` are linear in the pixel position, and
/// the point of the triangle's plane seen through `p` has barycentrics
/// `e_i / S` with `S = e_0 + e_1 + e_2`. Its depth `z = Z / S` and
/// `w = W / S` (`Z = Σ e_i z_i`, `W = Σ e_i w_i`), so every condition of
/// coverage is the sign of a product of two of these linear functions, and
/// the boundary of the covered region lies on their zero lines.
struct Region {
    /// `e_0, e_1, e_2, S, Z, W - Z, W` as `(a, b, c)` with value
    /// `a * sx + b * sy + c` at pixel position `(sx, sy)`.
    lines: [[f64; 3]; 7],
}

impl Region {
    fn new(vp: &Viewport, t: &[Vec4; 3]) -> Region {
        let v = t.map(|p| [p.x as f64, p.y as f64, p.w as f64]);
        let cross = |a: [f64; 3], b: [f64; 3]| {
            [
                a[1] * b[2] - a[2] * b[1],
                a[2] * b[0] - a[0] * b[2],
                a[0] * b[1] - a[1] * b[0],
            ]
        };
        // e_i in normalized device coordinates, then in pixels:
        // nx = sx * 2 / width + kx, ny = -sy * 2 / height + ky.
        let (sx, sy) = (2.0 / vp.width as f64, -2.0 / vp.height as f64);
        let (kx, ky) = (-(vp.x as f64) * sx - 1.0, -(vp.y as f64) * sy + 1.0);
        let to_pixels = |n: [f64; 3]| [n[0] * sx, n[1] * sy, n[0] * kx + n[1] * ky + n[2]];
        let e = [cross(v[1], v[2]), cross(v[2], v[0]), cross(v[0], v[1])].map(to_pixels);
        let weighted = |g: fn(&Vec4) -> f32| {
            let mut l = [0.0; 3];
            for (ei, ti) in e.iter().zip(t) {
                for k in 0..3 {
                    l[k] += ei[k] * g(ti) as f64;
                }
            }
            l
        };
        let s = weighted(|_| 1.0);
        let z = weighted(|v| v.z);
        let w = weighted(|v| v.w);
        let w_minus_z = [w[0] - z[0], w[1] - z[1], w[2] - z[2]];
        Region {
            lines: [e[0], e[1], e[2], s, z, w_minus_z, w],
        }
    }
}

impl Region {
    /// Whether the pixel position is covered: in the triangle, in front of
    /// the near plane, behind the far plane and in front of the eye. `None`
    /// when it lies within `tolerance` pixels of a boundary line, where
    /// snapping and the rounding of clipping may decide either way.
    fn covers(&self, sx: f64, sy: f64, tolerance: f64) -> Option<bool> {
        let mut value = [0.0; 7];
        for (v, l) in value.iter_mut().zip(&self.lines) {
            *v = l[0] * sx + l[1] * sy + l[2];
            let gradient = l[0].hypot(l[1]);
            let near_line = if gradient > 0.0 {
                v.abs() < tolerance * gradient
            } else {
                v.abs() < 1e-12
            };
            if near_line {
                return None;
            }
        }
        let [e0, e1, e2, s, z, w_minus_z, w] = value;
        Some([e0, e1, e2, z, w_minus_z].iter().all(|x| x * s >= 0.0) && w * s > 0.0)
    }
}

/// Compare with the reference at every pixel farther than a fiftieth of a
/// pixel from every boundary line of the covered region (snapping moves
/// vertices by up to 1/512 px); returns how many pixels were compared.
fn check(vp: Viewport, t: [Vec4; 3]) -> usize {
    let r = Rasterizer::new(vp);
    let hits = coverage(&r, t);
    let region = Region::new(&vp, &t);
    let mut compared = 0;
    for y in vp.y..vp.y + vp.height {
        for x in vp.x..vp.x + vp.width {
            let Some(covered) = region.covers(x as f64 + 0.5, y as f64 + 0.5, 0.02) else {
                continue;
            };
            compared += 1;
            assert_eq!(hits.get(x, y), covered as u32, "pixel ({x}, {y}) of {t:?}");
        }
    }
    compared
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Random clip-space triangles, most of them crossing the near plane,
    /// some with vertices behind the eye (w < 0) or far outside the guard band.
    #[test]
    fn clipped_triangles_cover_what_is_in_front(
        v in prop::array::uniform3((-3.0f32..3.0, -3.0f32..3.0, -1.5f32..2.0, -1.0f32..3.0)),
    ) {
        let t = v.map(|(x, y, z, w)| Vec4::new(x, y, z, w));
        let vp = Viewport::new(40, 30);
        let compared = check(vp, t);
        prop_assert!(compared > 40 * 30 * 9 / 10, "only {} of 1200 pixels unambiguous", compared);
    }
}

/// The exact statement: a triangle crossing the near plane covers exactly
/// what its clipped polygon (cut by hand, drawn as triangles that no longer
/// cross it) covers, and the barycentrics agree.
#[test]
fn near_crossing_triangle_equals_its_clipped_polygon() {
    let vp = Viewport::new(48, 48);
    let r = Rasterizer::new(vp);
    let tris = [
        [
            Vec4::new(-0.8, -0.6, 0.5, 1.0),
            Vec4::new(0.9, -0.4, -0.7, 0.6),
            Vec4::new(0.1, 0.9, 0.3, 1.2),
        ],
        [
            Vec4::new(-1.0, -1.0, -0.5, 0.2),
            Vec4::new(1.0, -0.5, -0.4, 0.5),
            Vec4::new(0.2, 1.0, 0.8, 1.5),
        ],
    ];
    for t in tris {
        // Sutherland-Hodgman against z >= 0, the new point computed from the
        // inside vertex, carrying barycentrics.
        let mut poly: Vec<(Vec4, [f32; 3])> = vec![];
        for i in 0..3 {
            let (a, b) = (t[i], t[(i + 1) % 3]);
            let mut ba = [0.0; 3];
            ba[i] = 1.0;
            let mut bb = [0.0; 3];
            bb[(i + 1) % 3] = 1.0;
            if a.z >= 0.0 {
                poly.push((a, ba));
            }
            if (a.z >= 0.0) != (b.z >= 0.0) {
                let ((p, bp), (q, bq)) = if a.z >= 0.0 {
                    ((a, ba), (b, bb))
                } else {
                    ((b, bb), (a, ba))
                };
                let s = p.z / (p.z - q.z);
                let mut pos = p.lerp(q, s);
                pos.z = 0.0;
                let mut bary = [0.0; 3];
                for k in 0..3 {
                    bary[k] = bp[k] + (bq[k] - bp[k]) * s;
                }
                poly.push((pos, bary));
            }
        }
        assert!(poly.len() >= 3);
        let mut whole = Hits::new(48, 48);
        let mut bary_whole = vec![[0.0f32; 3]; 48 * 48];
        let stats = r.draw(t, |q| {
            whole.add(q);
            for i in 0..4 {
                if q.covered(i) {
                    let (x, y) = q.pixel(i);
                    bary_whole[(y * 48 + x) as usize] = q.bary[i];
                }
            }
        });
        assert!(stats.clipped);
        let mut parts = Hits::new(48, 48);
        for k in 1..poly.len() - 1 {
            let fan = [poly[0], poly[k], poly[k + 1]];
            r.draw(fan.map(|(p, _)| p), |q| {
                parts.add(q);
                for i in 0..4 {
                    if q.covered(i) {
                        let (x, y) = q.pixel(i);
                        let sub = q.bary[i];
                        let mut b = [0.0f32; 3];
                        for (j, bj) in b.iter_mut().enumerate() {
                            *bj =
                                sub[0] * fan[0].1[j] + sub[1] * fan[1].1[j] + sub[2] * fan[2].1[j];
                        }
                        let got = bary_whole[(y * 48 + x) as usize];
                        for j in 0..3 {
                            assert!(
                                (got[j] - b[j]).abs() < 1e-4,
                                "pixel ({x}, {y}): {got:?} vs {b:?}"
                            );
                        }
                    }
                }
            });
        }
        assert_eq!(whole.count, parts.count);
        assert!(whole.count.iter().sum::<u32>() > 50);
    }
}

/// Wholly behind the near plane, or behind the eye: nothing.
#[test]
fn triangles_behind_draw_nothing() {
    let r = Rasterizer::new(Viewport::new(16, 16));
    let behind = [
        Vec4::new(-0.5, -0.5, -0.1, 1.0),
        Vec4::new(0.5, -0.5, -0.2, 1.0),
        Vec4::new(0.0, 0.5, -0.3, 1.0),
    ];
    let mut n = 0;
    let stats = r.draw(behind, |_| n += 1);
    assert!(stats.clipped && n == 0);
    // Behind the eye: projecting without clipping would flip it on screen.
    let eye = [
        Vec4::new(-0.5, -0.5, 0.5, -1.0),
        Vec4::new(0.5, -0.5, 0.5, -1.0),
        Vec4::new(0.0, 0.5, 0.5, -1.0),
    ];
    r.draw(eye, |_| n += 1);
    assert_eq!(n, 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A planar mesh crossing the near plane, larger than the screen: no
    /// pixel is hit twice, every pixel clearly in front is hit once and
    /// every pixel clearly behind is not.
    #[test]
    fn mesh_crossing_near_plane_is_watertight(
        jitter in prop::collection::vec((-0.1f32..0.1, -0.1f32..0.1), 81),
        diagonals in prop::collection::vec(any::<bool>(), 64),
    ) {
        let vp = Viewport::new(40, 40);
        let r = Rasterizer::new(vp);
        let plane = |x: f32, y: f32| Vec4::new(x, y, 0.5 * x + 0.1 * y + 0.05, 1.0 + 0.1 * x);
        let vert = |i: usize, j: usize| {
            let (jx, jy) = if i == 0 || i == 8 || j == 0 || j == 8 { (0.0, 0.0) } else { jitter[j * 9 + i] };
            plane(-1.6 + 0.4 * i as f32 + jx, -1.6 + 0.4 * j as f32 + jy)
        };
        let mut hits = Hits::new(40, 40);
        for j in 0..8 {
            for i in 0..8 {
                let (a, b, c, d) = (vert(i, j), vert(i + 1, j), vert(i + 1, j + 1), vert(i, j + 1));
                let tris = if diagonals[j * 8 + i] { [[a, b, c], [a, c, d]] } else { [[a, b, d], [b, c, d]] };
                for t in tris {
                    r.draw(t, |q| hits.add(q));
                }
            }
        }
        for y in 0..40 {
            for x in 0..40 {
                let nx = (x as f32 + 0.5) / 20.0 - 1.0;
                let ny = 1.0 - (y as f32 + 0.5) / 20.0;
                let px = nx / (1.0 - 0.1 * nx);
                let py = ny * (1.0 + 0.1 * px);
                let z = plane(px, py).z;
                let n = hits.get(x, y);
                prop_assert!(n <= 1, "pixel ({}, {}) hit {} times", x, y, n);
                if z.abs() > 0.01 {
                    prop_assert_eq!(n, (z > 0.0) as u32, "pixel ({}, {}) z {}", x, y, z);
                }
            }
        }
    }
}
