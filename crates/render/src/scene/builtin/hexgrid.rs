//! A hex map for strategy scenes: pointy-top hexes in offset rows (odd
//! rows shifted half a hex along +x), as Civilization V lays out its
//! map, on the XZ plane; cell centres, corners and neighbours, the cell
//! under a point, a hex tile mesh over a height function and the
//! outline of a region.

use super::shapes::MeshBuilder;
use crate::math::Vec3;

/// `cols` x `rows` pointy-top hexes of circumradius `r`, centred on the
/// origin.
#[derive(Clone, Copy, Debug)]
pub struct HexGrid {
    pub r: f32,
    pub cols: u32,
    pub rows: u32,
}

/// A cell: column and row.
pub type Hex = (u32, u32);

impl HexGrid {
    /// Centre-to-centre distance along a row.
    pub fn pitch(&self) -> f32 {
        self.r * 3f32.sqrt()
    }

    /// Row spacing.
    pub fn row_step(&self) -> f32 {
        self.r * 1.5
    }

    fn origin(&self) -> (f32, f32) {
        (
            -(self.cols as f32 - 0.5) * self.pitch() * 0.5,
            -(self.rows as f32 - 1.0) * self.row_step() * 0.5,
        )
    }

    /// The centre of `(col, row)` at height 0.
    pub fn center(&self, (c, r): Hex) -> Vec3 {
        let (x0, z0) = self.origin();
        let shift = if r % 2 == 1 { 0.5 } else { 0.0 };
        Vec3::new(
            x0 + (c as f32 + shift) * self.pitch(),
            0.0,
            z0 + r as f32 * self.row_step(),
        )
    }

    /// Corner `i` (0..6) of a hex at `center`, clockwise seen from above
    /// starting 30 degrees off +x, so `(center, corner i, corner i + 1)`
    /// faces up.
    pub fn corner(&self, center: Vec3, i: u32) -> Vec3 {
        let a = (30.0 + 60.0 * i as f32).to_radians();
        center + Vec3::new(a.cos() * self.r, 0.0, -a.sin() * self.r)
    }

    /// The cells next to `h` that are on the map.
    pub fn neighbours(&self, (c, r): Hex) -> Vec<Hex> {
        let odd = r % 2 == 1;
        let (c, r) = (c as i64, r as i64);
        let d: [(i64, i64); 6] = if odd {
            [(1, 0), (-1, 0), (0, -1), (1, -1), (0, 1), (1, 1)]
        } else {
            [(1, 0), (-1, 0), (-1, -1), (0, -1), (-1, 1), (0, 1)]
        };
        d.iter()
            .map(|&(dc, dr)| (c + dc, r + dr))
            .filter(|&(c, r)| c >= 0 && r >= 0 && c < self.cols as i64 && r < self.rows as i64)
            .map(|(c, r)| (c as u32, r as u32))
            .collect()
    }

    /// The cell whose centre is nearest `(x, z)` (clamped to the map).
    pub fn at(&self, x: f32, z: f32) -> Hex {
        let (x0, z0) = self.origin();
        let r0 = ((z - z0) / self.row_step()).round() as i64;
        let mut best = (0, 0);
        let mut dist = f32::INFINITY;
        for r in r0 - 1..=r0 + 1 {
            let r = r.clamp(0, self.rows as i64 - 1) as u32;
            let shift = if r % 2 == 1 { 0.5 } else { 0.0 };
            let c0 = ((x - x0) / self.pitch() - shift).round() as i64;
            for c in c0 - 1..=c0 + 1 {
                let c = c.clamp(0, self.cols as i64 - 1) as u32;
                let p = self.center((c, r));
                let d = (p.x - x).powi(2) + (p.z - z).powi(2);
                if d < dist {
                    dist = d;
                    best = (c, r);
                }
            }
        }
        best
    }

    /// Every cell, row by row.
    pub fn cells(&self) -> impl Iterator<Item = Hex> + '_ {
        (0..self.rows).flat_map(move |r| (0..self.cols).map(move |c| (c, r)))
    }
}

/// A hex tile over the ground `h(x, z)`: each of the six triangles from
/// the centre to two corners cut into `k` x `k` smaller ones; normals from
/// the height function's slope, so neighbouring tiles meet smoothly; uvs
/// in metres times `uv_per_m`.
pub fn tile(
    b: &mut MeshBuilder,
    grid: &HexGrid,
    center: Vec3,
    k: u32,
    uv_per_m: f32,
    h: &impl Fn(f32, f32) -> f32,
) {
    let e = 0.25;
    let vertex = |b: &mut MeshBuilder, p: Vec3| {
        let (x, z) = (p.x, p.z);
        let dx = (h(x + e, z) - h(x - e, z)) / (2.0 * e);
        let dz = (h(x, z + e) - h(x, z - e)) / (2.0 * e);
        b.vertex(
            Vec3::new(x, h(x, z), z),
            Vec3::new(-dx, 1.0, -dz),
            (x * uv_per_m, z * uv_per_m),
        )
    };
    for i in 0..6 {
        let (a, bb, c) = (
            center,
            grid.corner(center, i),
            grid.corner(center, (i + 1) % 6),
        );
        // Lattice points P(s, t) = A + (B - A) s/k + (C - B) t/k, t <= s.
        let mut idx = Vec::with_capacity(((k + 1) * (k + 2) / 2) as usize);
        for s in 0..=k {
            for t in 0..=s {
                let p = a + (bb - a) * (s as f32 / k as f32) + (c - bb) * (t as f32 / k as f32);
                idx.push(vertex(b, p));
            }
        }
        let at = |s: u32, t: u32| idx[(s * (s + 1) / 2 + t) as usize];
        for s in 0..k {
            for t in 0..=s {
                b.tri(at(s, t), at(s + 1, t), at(s + 1, t + 1));
                if t < s {
                    b.tri(at(s, t), at(s + 1, t + 1), at(s, t + 1));
                }
            }
        }
    }
}

/// The outline of a `region` of cells: a ribbon along every edge between
/// a cell of the region and one outside it, `inset` (a fraction of the
/// way to the cell's centre) wide, each point at height `lift(x, z)`
/// (culture borders, selections).
pub fn outline(
    grid: &HexGrid,
    region: &[Hex],
    inset: f32,
    lift: impl Fn(f32, f32) -> f32,
) -> MeshBuilder {
    let mut ribbon = MeshBuilder::new();
    let at = |p: Vec3| Vec3::new(p.x, lift(p.x, p.z), p.z);
    for &h in region {
        let c = grid.center(h);
        for e in 0..6 {
            let (a, b) = (grid.corner(c, e), grid.corner(c, (e + 1) % 6));
            // The neighbour across this edge has its centre at twice the
            // edge's midpoint from ours.
            let across = (a + b) - c;
            if region.contains(&grid.at(across.x, across.z)) {
                continue;
            }
            let rows: Vec<(Vec3, Vec3)> = (0..=4)
                .map(|t| {
                    let p = a + (b - a) * (t as f32 / 4.0);
                    (at(p), at(p + (c - p) * inset))
                })
                .collect();
            ribbon.strip(&rows, 1, 0.5);
        }
    }
    ribbon
}
