//! Mesh builders for the built-in scenes: boxes, cylinders, cones,
//! spheres, lathes, tubes, arches, heightfield grids, quads, ribbons
//! along a path and 2D sprites, appended into one [`MeshBuilder`] so a
//! prop made of several parts is one mesh (one draw), and a layer of
//! sprites one batch.
//!
//! Conventions: counter-clockwise front faces seen from outside, unit
//! normals, uvs in "texture tiles" (world metres times a per-call scale for
//! architecture, `[0, 1]` around/along for round props).

use crate::math::{Mat4, Vec2, Vec3};
use crate::scene::Mesh;
use std::f32::consts::{PI, TAU};

/// Accumulates triangles; [`MeshBuilder::build`] makes the [`Mesh`].
#[derive(Clone, Default)]
pub struct MeshBuilder {
    pub positions: Vec<Vec3>,
    pub normals: Vec<Vec3>,
    pub uvs: Vec<Vec2>,
    pub indices: Vec<u32>,
}

fn v3(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

impl MeshBuilder {
    pub fn new() -> MeshBuilder {
        MeshBuilder::default()
    }

    pub fn vertex(&mut self, p: Vec3, n: Vec3, uv: (f32, f32)) -> u32 {
        self.positions.push(p);
        self.normals.push(n.normalize());
        self.uvs.push(Vec2::new(uv.0, uv.1));
        (self.positions.len() - 1) as u32
    }

    pub fn tri(&mut self, a: u32, b: u32, c: u32) {
        self.indices.extend_from_slice(&[a, b, c]);
    }

    pub fn build(self, name: &str, material: usize) -> Mesh {
        Mesh {
            name: name.to_string(),
            positions: self.positions,
            normals: self.normals,
            uvs: self.uvs,
            indices: self.indices,
            material,
        }
    }

    /// Append another builder's geometry moved by `m` (rotation,
    /// translation and uniform scale only, so normals stay unit length).
    pub fn append(&mut self, other: &MeshBuilder, m: Mat4) {
        let base = self.positions.len() as u32;
        for i in 0..other.positions.len() {
            self.positions
                .push(m.transform_point(other.positions[i]).truncate());
            self.normals
                .push(m.transform_vector(other.normals[i]).normalize());
            self.uvs.push(other.uvs[i]);
        }
        self.indices.extend(other.indices.iter().map(|i| i + base));
    }

    /// A grid of `nu` x `nv` cells over the parallelogram `origin + s*du +
    /// t*dv` (s, t in `[0, 1]`), facing `du x dv`; uv = `(s, t) * uv_scale`.
    pub fn grid(&mut self, origin: Vec3, du: Vec3, dv: Vec3, nu: u32, nv: u32, uv_scale: Vec2) {
        self.grid_at(origin, du, dv, (nu, nv), Vec2::new(0.0, 0.0), uv_scale);
    }

    /// [`MeshBuilder::grid`] with uv = `uv0 + (s, t) * uv_scale`, so
    /// pieces of one surface (a wall around a door) keep one mapping.
    pub fn grid_at(
        &mut self,
        origin: Vec3,
        du: Vec3,
        dv: Vec3,
        (nu, nv): (u32, u32),
        uv0: Vec2,
        uv_scale: Vec2,
    ) {
        let n = du.cross(dv).normalize();
        let base = self.positions.len() as u32;
        for j in 0..=nv {
            for i in 0..=nu {
                let (s, t) = (i as f32 / nu as f32, j as f32 / nv as f32);
                self.vertex(
                    origin + du * s + dv * t,
                    n,
                    (uv0.x + s * uv_scale.x, uv0.y + t * uv_scale.y),
                );
            }
        }
        let row = nu + 1;
        for j in 0..nv {
            for i in 0..nu {
                let a = base + j * row + i;
                self.tri(a, a + 1, a + row + 1);
                self.tri(a, a + row + 1, a + row);
            }
        }
    }

    /// A single quad (see [`MeshBuilder::grid`]).
    pub fn quad(&mut self, origin: Vec3, du: Vec3, dv: Vec3, uv_scale: Vec2) {
        self.grid(origin, du, dv, 1, 1, uv_scale);
    }

    /// An axis-aligned box; uvs are world metres times `uv_per_m`.
    pub fn cuboid(&mut self, lo: Vec3, hi: Vec3, uv_per_m: f32) {
        let d = hi - lo;
        let (x, y, z) = (v3(d.x, 0.0, 0.0), v3(0.0, d.y, 0.0), v3(0.0, 0.0, d.z));
        let s = uv_per_m;
        let uv = |a: f32, b: f32| Vec2::new(a * s, b * s);
        // Each face: origin and two edges whose cross product points out.
        self.quad(v3(lo.x, lo.y, hi.z), x, y, uv(d.x, d.y)); // +z
        self.quad(v3(hi.x, lo.y, lo.z), -x, y, uv(d.x, d.y)); // -z
        self.quad(v3(hi.x, lo.y, hi.z), -z, y, uv(d.z, d.y)); // +x
        self.quad(v3(lo.x, lo.y, lo.z), z, y, uv(d.z, d.y)); // -x
        self.quad(v3(lo.x, hi.y, hi.z), x, -z, uv(d.x, d.z)); // +y
        self.quad(v3(lo.x, lo.y, lo.z), x, z, uv(d.x, d.z)); // -y
    }

    /// A surface of revolution about +Y through `(0, 0)`: `profile` lists
    /// `(radius, height)` from bottom to top; `segments` around. Normals
    /// come from the profile's slope; u goes around, v along the profile.
    pub fn lathe(&mut self, center: Vec3, profile: &[(f32, f32)], segments: u32) {
        let base = self.positions.len() as u32;
        let n = profile.len();
        for (k, &(r, h)) in profile.iter().enumerate() {
            // Profile tangent by central difference (one-sided at the ends).
            let (a, b) = (profile[k.saturating_sub(1)], profile[(k + 1).min(n - 1)]);
            let (dr, dh) = (b.0 - a.0, b.1 - a.1);
            for s in 0..=segments {
                let t = s as f32 / segments as f32;
                let (sin, cos) = (t * TAU).sin_cos();
                let p = center + v3(r * cos, h, r * sin);
                // Outward normal: the profile tangent (dr, dh) turned outward.
                let nrm = v3(dh * cos, -dr, dh * sin);
                let nrm = if nrm.length() > 1e-6 {
                    nrm
                } else {
                    v3(0.0, 1.0, 0.0)
                };
                self.vertex(p, nrm, (t, k as f32 / (n - 1) as f32));
            }
        }
        let row = segments + 1;
        for k in 0..n as u32 - 1 {
            for s in 0..segments {
                let a = base + k * row + s;
                self.tri(a, a + row, a + row + 1);
                self.tri(a, a + row + 1, a + 1);
            }
        }
    }

    /// A flat disc facing `up` (+Y if `up`, else -Y) at `center`.
    pub fn disc(&mut self, center: Vec3, r: f32, segments: u32, up: bool) {
        let ny = if up { 1.0 } else { -1.0 };
        let c = self.vertex(center, v3(0.0, ny, 0.0), (0.5, 0.5));
        for s in 0..=segments {
            let (sin, cos) = (s as f32 / segments as f32 * TAU).sin_cos();
            self.vertex(
                center + v3(r * cos, 0.0, r * sin),
                v3(0.0, ny, 0.0),
                (0.5 + 0.5 * cos, 0.5 + 0.5 * sin),
            );
        }
        for s in 0..segments {
            if up {
                self.tri(c, c + 2 + s, c + 1 + s);
            } else {
                self.tri(c, c + 1 + s, c + 2 + s);
            }
        }
    }

    /// A capped cylinder standing on `base`.
    pub fn cylinder(&mut self, base: Vec3, r: f32, h: f32, segments: u32, rings: u32) {
        let profile: Vec<(f32, f32)> = (0..=rings)
            .map(|k| (r, h * k as f32 / rings as f32))
            .collect();
        self.lathe(base, &profile, segments);
        self.disc(base + v3(0.0, h, 0.0), r, segments, true);
        self.disc(base, r, segments, false);
    }

    /// A cone (or frustum when `r_top > 0`) standing on `base`, bottom cap
    /// included.
    pub fn cone(&mut self, base: Vec3, r: f32, r_top: f32, h: f32, segments: u32, rings: u32) {
        let profile: Vec<(f32, f32)> = (0..=rings)
            .map(|k| {
                let t = k as f32 / rings as f32;
                (r + (r_top - r) * t, h * t)
            })
            .collect();
        self.lathe(base, &profile, segments);
        self.disc(base, r, segments, false);
    }

    /// A UV sphere.
    pub fn sphere(&mut self, center: Vec3, r: f32, segments: u32, rings: u32) {
        let base = self.positions.len() as u32;
        for k in 0..=rings {
            let t = k as f32 / rings as f32;
            let (sp, cp) = (t * PI).sin_cos();
            for s in 0..=segments {
                let u = s as f32 / segments as f32;
                let (st, ct) = (u * TAU).sin_cos();
                let n = v3(sp * ct, -cp, sp * st);
                self.vertex(center + n * r, n, (u, t));
            }
        }
        let row = segments + 1;
        for k in 0..rings {
            for s in 0..segments {
                let a = base + k * row + s;
                // The pole rows would make zero-area triangles: skip them.
                if k + 1 < rings {
                    self.tri(a, a + row, a + row + 1);
                }
                if k > 0 {
                    self.tri(a, a + row + 1, a + 1);
                }
            }
        }
    }

    /// A wall slab in the XY plane, `x` in `[-half_w, half_w]`, `y` in
    /// `[0, top]`, `z` in `[-t/2, t/2]`, with a round-headed opening of
    /// radius `r` springing at `spring`: the two faces around the arch, the
    /// curved soffit and the top. The jambs below the spring line are left
    /// to the columns the arch rests on.
    pub fn arch(&mut self, half_w: f32, spring: f32, top: f32, t: f32, r: f32, segs: u32) {
        // Angles of the arc plus the two rectangle corners so the outline
        // keeps its corners.
        let corner = (top - spring).atan2(half_w);
        let mut angles: Vec<f32> = (0..=segs).map(|i| PI * i as f32 / segs as f32).collect();
        angles.extend([corner, PI - corner]);
        angles.sort_by(f32::total_cmp);
        let ray = |a: f32| {
            let (s, c) = a.sin_cos();
            let k = (half_w / c.abs().max(1e-6)).min((top - spring) / s.max(1e-6));
            (c * k, spring + s * k)
        };
        let uv = 0.5;
        for &(z, sign) in &[(t * 0.5, 1.0f32), (-t * 0.5, -1.0)] {
            let nrm = v3(0.0, 0.0, sign);
            let base = self.positions.len() as u32;
            for &a in &angles {
                let (s, c) = a.sin_cos();
                let (ix, iy) = (c * r, spring + s * r);
                let (ox, oy) = ray(a);
                self.vertex(v3(ix, iy, z), nrm, (ix * uv, iy * uv));
                self.vertex(v3(ox, oy, z), nrm, (ox * uv, oy * uv));
            }
            for i in 0..angles.len() as u32 - 1 {
                let (a, b, c, d) = (
                    base + 2 * i,
                    base + 2 * i + 1,
                    base + 2 * i + 2,
                    base + 2 * i + 3,
                );
                // Angles increase counter-clockwise seen from +z.
                if sign > 0.0 {
                    self.tri(a, b, d);
                    self.tri(a, d, c);
                } else {
                    self.tri(a, d, b);
                    self.tri(a, c, d);
                }
            }
        }
        // Soffit: normals point at the arch centre.
        let base = self.positions.len() as u32;
        for i in 0..=segs {
            let a = PI * i as f32 / segs as f32;
            let (s, c) = a.sin_cos();
            let n = v3(-c, -s, 0.0);
            let p = v3(c * r, spring + s * r, 0.0);
            let u = i as f32 / segs as f32 * PI * r * uv;
            self.vertex(p + v3(0.0, 0.0, t * 0.5), n, (u, 0.0));
            self.vertex(p - v3(0.0, 0.0, t * 0.5), n, (u, t * uv));
        }
        for i in 0..segs {
            let a = base + 2 * i;
            self.tri(a, a + 3, a + 1);
            self.tri(a, a + 2, a + 3);
        }
        self.quad(
            v3(-half_w, top, t * 0.5),
            v3(2.0 * half_w, 0.0, 0.0),
            v3(0.0, 0.0, -t),
            Vec2::new(2.0 * half_w * uv, t * uv),
        );
    }

    /// A heightfield over `[x0, x0 + size] x [z0, z0 + size]` with `n` x `n`
    /// cells, heights from `h(x, z)`; normals by central differences, uvs
    /// in metres times `uv_per_m`.
    pub fn heightfield(
        &mut self,
        (x0, z0): (f32, f32),
        size: f32,
        n: u32,
        uv_per_m: f32,
        h: impl Fn(f32, f32) -> f32,
    ) {
        let base = self.positions.len() as u32;
        let step = size / n as f32;
        // Heights once per grid point; normals by differences of
        // neighbours (one-sided at the border), not extra evaluations.
        let row = n + 1;
        let mut hs = Vec::with_capacity((row * row) as usize);
        for j in 0..=n {
            for i in 0..=n {
                hs.push(h(x0 + i as f32 * step, z0 + j as f32 * step));
            }
        }
        let at = |i: u32, j: u32| hs[(j * row + i) as usize];
        for j in 0..=n {
            for i in 0..=n {
                let (x, z) = (x0 + i as f32 * step, z0 + j as f32 * step);
                let (il, ir) = (i.saturating_sub(1), (i + 1).min(n));
                let (jl, jr) = (j.saturating_sub(1), (j + 1).min(n));
                let dx = (at(ir, j) - at(il, j)) / ((ir - il) as f32 * step);
                let dz = (at(i, jr) - at(i, jl)) / ((jr - jl) as f32 * step);
                self.vertex(
                    v3(x, at(i, j), z),
                    v3(-dx, 1.0, -dz),
                    ((x - x0) * uv_per_m, (z - z0) * uv_per_m),
                );
            }
        }
        for j in 0..n {
            for i in 0..n {
                let a = base + j * row + i;
                // Seen from above (+y), x then z is clockwise, so wind
                // a -> a+row -> a+row+1 to face up.
                self.tri(a, a + row, a + row + 1);
                self.tri(a, a + row + 1, a + 1);
            }
        }
    }

    /// Two crossed vertical quads (a foliage card pair), `w` wide and `h`
    /// tall, standing on `base`; both sides are seen via double-sided
    /// materials.
    pub fn cross_cards(&mut self, base: Vec3, w: f32, h: f32, angle: f32) {
        for k in 0..2 {
            let a = angle + k as f32 * PI * 0.5;
            let d = v3(a.cos(), 0.0, a.sin()) * w;
            self.quad(
                base - d * 0.5 + v3(0.0, h, 0.0),
                d,
                v3(0.0, -h, 0.0),
                Vec2::new(1.0, 1.0),
            );
        }
    }
}

/// A wall face for [`MeshBuilder::wall`]: from `start` along the
/// horizontal unit vector `along` for `len` metres, `height` tall, facing
/// `along x up`, with door openings centred at the distances `doors`
/// (ascending) of `door.x` wide and `door.y` tall, their jambs and soffit
/// `door.z` deep behind the face.
pub struct Wall<'a> {
    pub start: Vec3,
    pub along: Vec3,
    pub len: f32,
    pub height: f32,
    pub doors: &'a [f32],
    pub door: Vec3,
    /// Grid cells of about this many metres.
    pub cell: f32,
    /// uv = metres times this, continuous across the openings.
    pub uv_per_m: Vec2,
}

impl MeshBuilder {
    /// A wall with door openings (see [`Wall`]).
    pub fn wall(&mut self, w: &Wall) {
        let (up, along, uv) = (v3(0.0, 1.0, 0.0), w.along, w.uv_per_m);
        let back = up.cross(along) * w.door.z;
        let cells = |m: f32| ((m / w.cell).ceil() as u32).max(1);
        let piece = |b: &mut MeshBuilder, a: f32, z: f32, y0: f32, y1: f32| {
            b.grid_at(
                w.start + along * a + up * y0,
                along * (z - a),
                up * (y1 - y0),
                (cells(z - a), cells(y1 - y0)),
                Vec2::new(a * uv.x, y0 * uv.y),
                Vec2::new((z - a) * uv.x, (y1 - y0) * uv.y),
            );
        };
        let (dw, dh, depth) = (w.door.x, w.door.y, w.door.z);
        let mut at = 0.0;
        for &d in w.doors {
            let (a, z) = (d - dw * 0.5, d + dw * 0.5);
            piece(self, at, a, 0.0, w.height);
            piece(self, a, z, dh, w.height);
            let (pa, pz) = (w.start + along * a, w.start + along * z);
            let jamb = up * dh;
            self.quad(pa, back, jamb, Vec2::new(depth * uv.x, dh * uv.y));
            self.quad(pz, jamb, back, Vec2::new(dh * uv.y, depth * uv.x));
            self.quad(pa + jamb, back, along * dw, Vec2::new(depth, dw) * 0.5);
            at = z;
        }
        piece(self, at, w.len, 0.0, w.height);
    }

    /// A capped round tube from `a` to `b` (pipes, rails, barrels lying
    /// down): [`MeshBuilder::cylinder`] turned onto the segment; u goes
    /// around, v along.
    pub fn tube(&mut self, a: Vec3, b: Vec3, r: f32, segments: u32, rings: u32) {
        let axis = b - a;
        let len = axis.length();
        let y = axis * (1.0 / len);
        // Any unit vector not along the axis gives the other two.
        let helper = if y.y.abs() < 0.9 {
            v3(0.0, 1.0, 0.0)
        } else {
            v3(1.0, 0.0, 0.0)
        };
        let x = helper.cross(y).normalize();
        let z = x.cross(y);
        let m = Mat4::from_cols(x.extend(0.0), y.extend(0.0), z.extend(0.0), a.extend(1.0));
        let mut c = MeshBuilder::new();
        c.cylinder(v3(0.0, 0.0, 0.0), r, len, segments, rings);
        self.append(&c, m);
    }

    /// A ribbon through `rows` of `(left, right)` edge points (a road, a
    /// river bank, a border line), `nu` cells across; it faces `across x
    /// along` (up for a road whose rows run forward with `right` to the
    /// right). u runs `[0, 1]` across, v is the distance along the left
    /// edge times `v_per_m`.
    pub fn strip(&mut self, rows: &[(Vec3, Vec3)], nu: u32, v_per_m: f32) {
        let base = self.positions.len() as u32;
        let n = rows.len();
        let mut dist = 0.0;
        for (j, &(l, r)) in rows.iter().enumerate() {
            if j > 0 {
                dist += (l - rows[j - 1].0).length();
            }
            let (prev, next) = (rows[j.saturating_sub(1)], rows[(j + 1).min(n - 1)]);
            let along = (next.0 + next.1) * 0.5 - (prev.0 + prev.1) * 0.5;
            let nrm = (r - l).cross(along);
            for i in 0..=nu {
                let s = i as f32 / nu as f32;
                self.vertex(l + (r - l) * s, nrm, (s, dist * v_per_m));
            }
        }
        let row = nu + 1;
        for j in 0..n as u32 - 1 {
            for i in 0..nu {
                let a = base + j * row + i;
                self.tri(a, a + 1, a + row + 1);
                self.tri(a, a + row + 1, a + row);
            }
        }
    }
}

impl MeshBuilder {
    /// A body lofted along +x through superelliptic cross sections (car
    /// bodies, hulls, fuselages): each section is `[x, half width (z),
    /// half height (y), centre height]`, each interval between sections is
    /// cut into `sub` rings, `segments` around; `exponent` 2 gives
    /// ellipses, larger ones squarer sections. Make the end sections tiny
    /// to close the body. Smooth normals from the faces; u along, v round.
    pub fn loft(&mut self, sections: &[[f32; 4]], sub: u32, segments: u32, exponent: f32) {
        let mut rings = Vec::new();
        for w in sections.windows(2) {
            for i in 0..sub {
                let t = i as f32 / sub as f32;
                rings.push(std::array::from_fn::<f32, 4, _>(|k| {
                    w[0][k] + (w[1][k] - w[0][k]) * t
                }));
            }
        }
        rings.push(*sections.last().expect("a loft needs sections"));
        let mut b = MeshBuilder::new();
        let e = 2.0 / exponent;
        let shape = |a: f32| a.signum() * a.abs().powf(e);
        for (i, r) in rings.iter().enumerate() {
            for j in 0..=segments {
                let a = j as f32 / segments as f32 * TAU;
                let (sin, cos) = a.sin_cos();
                let p = v3(r[0], r[3] + r[2] * shape(sin), r[1] * shape(cos));
                let u = i as f32 / (rings.len() - 1) as f32;
                b.vertex(p, v3(0.0, 1.0, 0.0), (u, j as f32 / segments as f32));
            }
        }
        let row = segments + 1;
        for i in 0..rings.len() as u32 - 1 {
            for j in 0..segments {
                let a = i * row + j;
                // Along x then round: the face normal points out.
                b.tri(a, a + row, a + row + 1);
                b.tri(a, a + row + 1, a + 1);
            }
        }
        b.smooth_normals();
        self.append(&b, Mat4::IDENTITY);
    }

    /// The triangles split into `n` meshes by `class` of each triangle's
    /// corners (below `n`), each mesh keeping only the vertices its
    /// triangles use (terrain by surface, a map by region).
    pub fn split(&self, n: usize, class: impl Fn([Vec3; 3]) -> usize) -> Vec<MeshBuilder> {
        let mut parts: Vec<MeshBuilder> = (0..n).map(|_| MeshBuilder::new()).collect();
        let mut remap: Vec<Vec<u32>> = vec![vec![u32::MAX; self.positions.len()]; n];
        for t in self.indices.chunks_exact(3) {
            let c = class([0, 1, 2].map(|k| self.positions[t[k] as usize]));
            let (part, map) = (&mut parts[c], &mut remap[c]);
            for &i in t {
                let i = i as usize;
                if map[i] == u32::MAX {
                    map[i] = part.positions.len() as u32;
                    part.positions.push(self.positions[i]);
                    part.normals.push(self.normals[i]);
                    part.uvs.push(self.uvs[i]);
                }
                part.indices.push(map[i]);
            }
        }
        parts
    }
}

impl MeshBuilder {
    /// Push every vertex out along its normal by `f(position)` and
    /// recompute smooth normals from the faces (rocks, lumpy props).
    pub fn displace(&mut self, f: impl Fn(Vec3) -> f32) {
        for i in 0..self.positions.len() {
            let p = self.positions[i];
            self.positions[i] = p + self.normals[i] * f(p);
        }
        self.smooth_normals();
    }

    /// Area-weighted vertex normals from the triangles; vertices with the
    /// same position (uv seams) share them so seams do not show.
    pub fn smooth_normals(&mut self) {
        let key = |p: Vec3| (p.x.to_bits(), p.y.to_bits(), p.z.to_bits());
        let mut acc: std::collections::BTreeMap<(u32, u32, u32), Vec3> = Default::default();
        for t in self.indices.chunks_exact(3) {
            let [a, b, c] = [0, 1, 2].map(|k| self.positions[t[k] as usize]);
            let n = (b - a).cross(c - a);
            for p in [a, b, c] {
                let e = acc.entry(key(p)).or_default();
                *e = *e + n;
            }
        }
        for i in 0..self.positions.len() {
            // Vertices no triangle uses keep their normal.
            if let Some(n) = acc.get(&key(self.positions[i])) {
                if n.length() > 1e-12 {
                    self.normals[i] = n.normalize();
                }
            }
        }
    }
}

/// The outline of a sprite as a 2D game engine meshes it: a convex polygon
/// around the sprite's opaque texels rather than its whole rectangle (Unity
/// sprites' default "tight" mesh), so blending does not shade the empty
/// corners. Points in the unit square centred on 0, `y` up, counter-clockwise.
pub fn outline_ngon(sides: u32, radius: f32, turn: f32) -> Vec<(f32, f32)> {
    // Circumscribe the circle of `radius`: the polygon's flats touch it.
    let r = radius / (PI / sides as f32).cos();
    (0..sides)
        .map(|i| {
            let a = turn + TAU * i as f32 / sides as f32;
            (r * a.cos(), r * a.sin())
        })
        .collect()
}

/// The whole rectangle: a plain two-triangle sprite.
pub const OUTLINE_QUAD: [(f32, f32); 4] = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)];

impl MeshBuilder {
    /// A sprite lying on the ground plane facing +Y (the overhead camera of
    /// a 2D game looks down with screen up = -z): `size` metres across and
    /// tall on screen, centred on `center`, meshed as the convex `outline`
    /// (see [`outline_ngon`]) fanned from its first point. `uv` is the
    /// sprite's cell `[u0, v0, u1, v1]` in its atlas, `v0` at the top.
    pub fn sprite(&mut self, center: Vec3, size: Vec2, outline: &[(f32, f32)], uv: [f32; 4]) {
        let base = self.positions.len() as u32;
        for &(x, y) in outline {
            let p = center + v3(x * size.x, 0.0, -y * size.y);
            let (u, v) = (
                uv[0] + (x + 0.5) * (uv[2] - uv[0]),
                uv[1] + (0.5 - y) * (uv[3] - uv[1]),
            );
            self.vertex(p, v3(0.0, 1.0, 0.0), (u, v));
        }
        for i in 1..outline.len() as u32 - 1 {
            self.tri(base, base + i, base + i + 1);
        }
    }

    /// A sprite like [`MeshBuilder::sprite`] over its whole rectangle but
    /// tessellated into `cells.0` x `cells.1` quads: the mesh a 2D skeletal
    /// animation deforms (Spine, Unity's 2D animation), ready to be bent.
    pub fn sprite_grid(&mut self, center: Vec3, size: Vec2, cells: (u32, u32), uv: [f32; 4]) {
        let base = self.positions.len() as u32;
        let (nu, nv) = cells;
        for j in 0..=nv {
            for i in 0..=nu {
                let (s, t) = (i as f32 / nu as f32, j as f32 / nv as f32);
                let p = center + v3((s - 0.5) * size.x, 0.0, (t - 0.5) * size.y);
                let (u, v) = (uv[0] + s * (uv[2] - uv[0]), uv[1] + t * (uv[3] - uv[1]));
                self.vertex(p, v3(0.0, 1.0, 0.0), (u, v));
            }
        }
        let row = nu + 1;
        for j in 0..nv {
            for i in 0..nu {
                // Row j is above row j + 1 on screen (t grows towards +z).
                let a = base + j * row + i;
                self.tri(a, a + row, a + row + 1);
                self.tri(a, a + row + 1, a + 1);
            }
        }
    }

    /// A strip along `path` (a polyline on the ground; `closed` joins its
    /// end to its start) with the cross-section from `a` to `b`, each a
    /// `(lateral, height)` offset from the path (lateral to the right of
    /// the direction of travel). It faces `(b - a) x forward`: a road from
    /// left to right faces up, a wall from its foot to its top faces left.
    /// u runs from `u.0` at `a` to `u.1` at `b`, v along the path at
    /// `v_per_m` per metre.
    pub fn ribbon(
        &mut self,
        path: &[Vec3],
        closed: bool,
        a: (f32, f32),
        b: (f32, f32),
        u: (f32, f32),
        v_per_m: f32,
    ) {
        let n = path.len();
        assert!(n >= 2, "a ribbon needs two points");
        let up = v3(0.0, 1.0, 0.0);
        let base = self.positions.len() as u32;
        let rows = if closed { n + 1 } else { n };
        let mut dist = 0.0;
        for k in 0..rows {
            let i = k % n;
            if k > 0 {
                dist += (path[i] - path[(k - 1) % n]).length();
            }
            let (prev, next) = if closed {
                (path[(i + n - 1) % n], path[(i + 1) % n])
            } else {
                (path[i.saturating_sub(1)], path[(i + 1).min(n - 1)])
            };
            let t = v3(next.x - prev.x, 0.0, next.z - prev.z).normalize();
            let side = t.cross(up).normalize();
            let at = |(l, h): (f32, f32)| path[i] + side * l + up * h;
            let (pa, pb) = (at(a), at(b));
            let nrm = (pb - pa).cross(t);
            self.vertex(pa, nrm, (u.0, dist * v_per_m));
            self.vertex(pb, nrm, (u.1, dist * v_per_m));
        }
        for k in 0..rows as u32 - 1 {
            let (pa, pb, qa, qb) = (
                base + 2 * k,
                base + 2 * k + 1,
                base + 2 * k + 2,
                base + 2 * k + 3,
            );
            self.tri(pa, pb, qb);
            self.tri(pa, qb, qa);
        }
    }

    /// Point every uv at `uv` (one swatch of a palette texture: low-poly
    /// art colours whole parts from a small palette instead of painting
    /// them).
    pub fn flat_uv(&mut self, uv: Vec2) {
        for t in &mut self.uvs {
            *t = uv;
        }
    }
}
