//! Triangulating one planar polygon of a scene file (an AC3D surface, an
//! OBJ face) into triangles that cover exactly its area, concave or not,
//! with the polygon's own winding, so that back-face culling treats every
//! triangle as the file's author meant the polygon.
//!
//! Convex polygons (nearly all of them) are fanned from their first
//! corner, as modelling tools and the loaders before this one draw them;
//! others go through ear clipping (the `earcut` crate, in the plane the
//! polygon faces most).

use crate::math::Vec3;

/// Reusable state for [`Triangulator::triangulate`].
#[derive(Default)]
pub struct Triangulator {
    earcut: earcut::Earcut<f64>,
    flat: Vec<[f64; 2]>,
    found: Vec<u32>,
    corners: Vec<Vec3>,
    triangles: Vec<[u32; 3]>,
}

impl Triangulator {
    /// Appends to `indices` the triangles of a mesh face whose corners,
    /// in order, are at `corners` and are vertices `ids` of the mesh.
    pub fn triangulate_face(
        &mut self,
        corners: impl IntoIterator<Item = Vec3>,
        ids: &[u32],
        indices: &mut Vec<u32>,
    ) {
        let mut polygon = std::mem::take(&mut self.corners);
        let mut triangles = std::mem::take(&mut self.triangles);
        polygon.clear();
        polygon.extend(corners);
        debug_assert_eq!(polygon.len(), ids.len());
        triangles.clear();
        self.triangulate(&polygon, &mut triangles);
        indices.extend(triangles.iter().flat_map(|t| t.map(|k| ids[k as usize])));
        self.corners = polygon;
        self.triangles = triangles;
    }

    /// Appends to `out` the triangles of the polygon with corners `corners`
    /// (in order), as indices into `corners`: `corners.len() - 2` of them
    /// for a simple polygon. A polygon with no area (all corners on one
    /// line, or repeated) gets its fan, whose triangles draw nothing.
    pub fn triangulate(&mut self, corners: &[Vec3], out: &mut Vec<[u32; 3]>) {
        let n = corners.len();
        if n < 3 {
            return;
        }
        let normal = newell_normal(corners);
        // A corner at infinity or NaN has no plane to clip ears in.
        if n == 3 || !normal.iter().all(|c| c.is_finite()) || is_convex(corners, normal) {
            fan(n, out);
            return;
        }
        // Drop the axis the polygon faces most: the rest is its shape, with
        // its winding mirrored when that axis points away.
        let axis = dominant_axis(normal);
        let (u, v) = [(1, 2), (2, 0), (0, 1)][axis];
        self.flat.clear();
        self.flat.extend(corners.iter().map(|c| {
            let c = [f64::from(c.x), f64::from(c.y), f64::from(c.z)];
            [c[u], c[v]]
        }));
        self.earcut
            .earcut_slice(&self.flat, &[] as &[u32], &mut self.found);
        if self.found.len() / 3 != n - 2 {
            // Self-intersecting or degenerate: ear clipping cannot cover it.
            fan(n, out);
            return;
        }
        for t in self.found.chunks_exact(3) {
            let tri = [t[0], t[1], t[2]];
            let [a, b, c] = tri.map(|i| corners[i as usize]);
            let facing = triangle_normal(a, b, c);
            out.push(if dot(facing, normal) < 0.0 {
                [tri[0], tri[2], tri[1]]
            } else {
                tri
            });
        }
    }
}

fn fan(n: usize, out: &mut Vec<[u32; 3]>) {
    out.extend((1..n as u32 - 1).map(|k| [0, k, k + 1]));
}

/// The polygon's normal by Newell's method (in `f64`, so that no product of
/// finite coordinates overflows), its length twice the polygon's area.
fn newell_normal(corners: &[Vec3]) -> [f64; 3] {
    let mut nrm = [0.0f64; 3];
    for (i, a) in corners.iter().enumerate() {
        let b = corners[(i + 1) % corners.len()];
        let (ax, ay, az) = (f64::from(a.x), f64::from(a.y), f64::from(a.z));
        let (bx, by, bz) = (f64::from(b.x), f64::from(b.y), f64::from(b.z));
        nrm[0] += (ay - by) * (az + bz);
        nrm[1] += (az - bz) * (ax + bx);
        nrm[2] += (ax - bx) * (ay + by);
    }
    nrm
}

fn triangle_normal(a: Vec3, b: Vec3, c: Vec3) -> [f64; 3] {
    newell_normal(&[a, b, c])
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn dominant_axis(n: [f64; 3]) -> usize {
    let a = n.map(f64::abs);
    if a[0] >= a[1] && a[0] >= a[2] {
        0
    } else if a[1] >= a[2] {
        1
    } else {
        2
    }
}

/// The sine below which a corner counts as straight, not reflex: a
/// corner turned back by less (0.006 degrees) is within the rounding of
/// `f32` coordinates, and a fan's sliver there has no area to speak of.
const STRAIGHT: f64 = 1e-4;

/// Whether every corner turns the same way as the polygon as a whole
/// (straight corners allowed): then the fan covers it exactly.
fn is_convex(corners: &[Vec3], normal: [f64; 3]) -> bool {
    let n = corners.len();
    let normal_len = dot(normal, normal).sqrt();
    (0..n).all(|i| {
        let [a, b, c] = [corners[(i + n - 1) % n], corners[i], corners[(i + 1) % n]];
        let edges = distance(a, b) * distance(b, c);
        // The turn's length is |ab| |bc| sin(angle); its side, the sign.
        dot(triangle_normal(a, b, c), normal) >= -STRAIGHT * edges * normal_len
    })
}

fn distance(a: Vec3, b: Vec3) -> f64 {
    let d = [b.x - a.x, b.y - a.y, b.z - a.z].map(f64::from);
    dot(d, d).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f32, y: f32) -> Vec3 {
        Vec3::new(x, y, 0.0)
    }

    fn area2(corners: &[Vec3], tris: &[[u32; 3]]) -> f64 {
        tris.iter()
            .map(|t| {
                let [a, b, c] = t.map(|i| corners[i as usize]);
                triangle_normal(a, b, c)[2]
            })
            .sum()
    }

    /// A star-shaped (so simple) polygon about the origin, in the plane
    /// spanned by `u` and `v`: corners at increasing angles, each at its
    /// own radius.
    fn star(radii: &[f32], u: Vec3, v: Vec3) -> Vec<Vec3> {
        let n = radii.len() as f32;
        radii
            .iter()
            .enumerate()
            .map(|(i, &r)| {
                let a = std::f32::consts::TAU * i as f32 / n;
                let (x, y) = (r * a.cos(), r * a.sin());
                Vec3::new(x * u.x + y * v.x, x * u.y + y * v.y, x * u.z + y * v.z)
            })
            .collect()
    }

    proptest::proptest! {
        /// Any simple polygon, convex or not, in any plane: n - 2 triangles
        /// that all face the polygon's way and add up to its area.
        #[test]
        fn simple_polygons_are_covered_exactly(
            radii in proptest::collection::vec(0.2f32..3.0, 3..40),
            tilt in 0usize..3,
        ) {
            let (u, v) = [
                (Vec3::new(1.0, 0.0, 0.0), Vec3::new(0.0, 1.0, 0.0)),
                (Vec3::new(0.0, 0.6, 0.8), Vec3::new(1.0, 0.0, 0.0)),
                (Vec3::new(0.0, 0.0, 1.0), Vec3::new(0.0, -1.0, 0.0)),
            ][tilt];
            let corners = star(&radii, u, v);
            let normal = newell_normal(&corners);
            let mut out = Vec::new();
            Triangulator::default().triangulate(&corners, &mut out);
            proptest::prop_assert_eq!(out.len(), corners.len() - 2);
            let mut sum = 0.0;
            for t in &out {
                let [a, b, c] = t.map(|i| corners[i as usize]);
                let d = dot(triangle_normal(a, b, c), normal);
                proptest::prop_assert!(d >= 0.0, "{:?} faces away", t);
                sum += d;
            }
            // Each triangle's normal is twice its area along the polygon's.
            let whole = dot(normal, normal);
            proptest::prop_assert!((sum - whole).abs() <= 1e-3 * whole, "{} vs {}", sum, whole);
        }
    }

    #[test]
    fn a_corner_bent_back_by_rounding_alone_keeps_the_fan() {
        // A corner on the bottom edge, a hair inside: straight but for
        // rounding, so the fan stays (a reflex corner this small would
        // leave a sliver of no area).
        let corners = [
            v(0.0, 0.0),
            v(0.5, 1e-6),
            v(1.0, 0.0),
            v(1.0, 1.0),
            v(0.0, 1.0),
        ];
        let mut out = Vec::new();
        Triangulator::default().triangulate(&corners, &mut out);
        assert_eq!(out, vec![[0, 1, 2], [0, 2, 3], [0, 3, 4]]);
    }

    #[test]
    fn non_finite_corners_get_the_fan() {
        let corners = [v(0.0, 0.0), v(f32::NAN, 0.0), v(1.0, 1.0), v(0.0, 1.0)];
        let mut out = Vec::new();
        Triangulator::default().triangulate(&corners, &mut out);
        assert_eq!(out, vec![[0, 1, 2], [0, 2, 3]]);
    }

    #[test]
    fn convex_polygons_keep_their_fan() {
        let square = [v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)];
        let mut out = Vec::new();
        Triangulator::default().triangulate(&square, &mut out);
        assert_eq!(out, vec![[0, 1, 2], [0, 2, 3]]);
    }

    #[test]
    fn a_concave_polygon_is_covered_exactly_with_its_winding() {
        // A square with a notch, from a corner that does not see into the
        // notch: its fan covers the notch and then takes it away again with a
        // triangle turned the other way.
        let arrow = [
            v(2.0, 0.0),
            v(2.0, 2.0),
            v(0.0, 2.0),
            v(0.0, 0.0),
            v(1.0, 0.5),
        ];
        let signed = newell_normal(&arrow)[2];
        for mirrored in [false, true] {
            let corners: Vec<Vec3> = if mirrored {
                arrow.iter().rev().copied().collect()
            } else {
                arrow.to_vec()
            };
            let mut out = Vec::new();
            Triangulator::default().triangulate(&corners, &mut out);
            assert_eq!(out.len(), 3);
            let want = if mirrored { -signed } else { signed };
            assert!((area2(&corners, &out) - want).abs() < 1e-9);
            for t in &out {
                let [a, b, c] = t.map(|i| corners[i as usize]);
                assert!(triangle_normal(a, b, c)[2] * want > 0.0, "{t:?} flips");
            }
        }
    }
}
