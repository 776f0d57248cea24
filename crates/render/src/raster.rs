//! Triangle rasterization the way a desktop GPU does it: clip, project,
//! snap to fixed point, cull, then walk the bounding box in 2x2 quads.
//!
//! Why each choice:
//!
//! - **Clipping.** Triangles are clipped in clip space against the near
//!   plane (`z >= 0`), the far plane (`z <= w`), `w >= W_MIN`, and a guard
//!   band of [`GUARD_BAND`] times the viewport on each side (`|x|, |y| <=
//!   GUARD_BAND * w`). Near and `w` clipping is what makes projection valid;
//!   far clipping keeps depth in `[0, 1]`; the guard band only exists to
//!   bound the fixed-point coordinates (anything inside it is rasterized
//!   and cut by the viewport during traversal, like hardware). A triangle
//!   wholly inside every plane is not touched. Intersection points on an
//!   edge are always computed from its inside vertex towards its outside
//!   vertex, so two triangles sharing a clipped edge get bit-identical new
//!   vertices and no crack opens between them. The clipped polygon is
//!   drawn as a fan; its inner edges obey the fill rule like any other.
//! - **Fixed point.** Screen positions are snapped to [`SUBPIXEL_BITS`] = 8
//!   fractional bits (1/256 pixel, what D3D requires at least) and edge
//!   functions are evaluated exactly in `i64`: coverage never depends on
//!   floating-point rounding, so shared edges have no cracks and no double
//!   hits.
//! - **Fill rule.** A pixel is covered when its centre `(x + 0.5, y + 0.5)`
//!   lies strictly inside all three edges, or exactly on an edge that is a
//!   *top* edge (horizontal, the triangle below it) or a *left* edge: the
//!   top-left rule of Direct3D and OpenGL. Screen `y` grows downwards.
//! - **Culling.** Facing is decided on the snapped screen triangle from its
//!   winding as seen in normalized device coordinates (y up): counter-
//!   clockwise is front for [`FrontFace::Ccw`]. Zero-area triangles are
//!   dropped.
//! - **Quads.** Traversal visits 2x2 quads aligned to even pixel
//!   coordinates (a quad's helper pixels give the texture derivatives), and
//!   emits each quad with at least one covered pixel to a callback, with no
//!   allocation. Depth (`z / w` mapped to the viewport's depth range) is
//!   interpolated linearly in screen space, which is exact for a plane;
//!   barycentrics are perspective-correct and refer to the three vertices
//!   as given, even when the triangle was clipped, so the caller
//!   interpolates its own attributes. Helper (uncovered) pixels carry
//!   extrapolated values.

use std::cmp::Ordering;

use crate::math::Vec4;

/// Fractional bits of snapped screen coordinates.
pub const SUBPIXEL_BITS: u32 = 8;
/// One pixel in fixed point.
pub const SUBPIXEL_ONE: i64 = 1 << SUBPIXEL_BITS;
/// Half the guard band's width in normalized device units: geometry within
/// `|x|, |y| <= GUARD_BAND * w` is rasterized without clipping.
pub const GUARD_BAND: f32 = 16.0;
/// Smallest `w` a clipped vertex may have.
pub const W_MIN: f32 = 1e-6;
/// Largest `x + width` and `y + height` of a viewport, which bounds the
/// fixed-point arithmetic.
pub const MAX_VIEWPORT: u32 = 16384;

/// Snap a screen coordinate (pixels) to fixed point, rounding to nearest.
pub fn snap(v: f32) -> i64 {
    // In f64 the scaling is exact, so only the rounding to 1/256 happens.
    (v as f64 * SUBPIXEL_ONE as f64).round() as i64
}

/// The screen rectangle and depth range that normalized device coordinates
/// map to. Screen `y` grows downwards: NDC `y = 1` is the viewport's top.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    pub x: u32,
    pub y: u32,
    pub width: u32,
    pub height: u32,
    pub min_depth: f32,
    pub max_depth: f32,
}

impl Viewport {
    /// A viewport at the origin with depth range `[0, 1]`.
    pub fn new(width: u32, height: u32) -> Viewport {
        Viewport {
            x: 0,
            y: 0,
            width,
            height,
            min_depth: 0.0,
            max_depth: 1.0,
        }
    }

    /// Screen position (pixels, before snapping) of NDC `(x, y)`.
    pub fn to_screen(&self, ndc_x: f32, ndc_y: f32) -> (f32, f32) {
        (
            self.x as f32 + (ndc_x + 1.0) * 0.5 * self.width as f32,
            self.y as f32 + (1.0 - ndc_y) * 0.5 * self.height as f32,
        )
    }

    /// Depth of NDC `z` in the viewport's depth range.
    pub fn to_depth(&self, ndc_z: f32) -> f32 {
        self.min_depth + ndc_z * (self.max_depth - self.min_depth)
    }

    /// Whether pixel `(x, y)` lies inside the viewport.
    pub fn contains(&self, x: i64, y: i64) -> bool {
        x >= self.x as i64
            && y >= self.y as i64
            && x < (self.x + self.width) as i64
            && y < (self.y + self.height) as i64
    }
}

/// Which faces are discarded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CullMode {
    #[default]
    None,
    Back,
    Front,
}

/// Which winding, as seen in normalized device coordinates (y up), is the
/// front face.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FrontFace {
    #[default]
    Ccw,
    Cw,
}

/// A 2x2 block of pixels with at least one covered.
///
/// Pixel `i` (0..4) is at `(x + (i & 1), y + (i >> 1))`: 0 top-left,
/// 1 top-right, 2 bottom-left, 3 bottom-right.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quad {
    /// Top-left pixel; always even.
    pub x: u32,
    pub y: u32,
    /// Bit `i` set when pixel `i` is covered (and inside the viewport).
    pub mask: u8,
    /// Per-pixel depth in the viewport's depth range.
    pub depth: [f32; 4],
    /// Per-pixel perspective-correct barycentrics of the triangle's three
    /// vertices as passed to [`Rasterizer::draw`] (they sum to 1).
    pub bary: [[f32; 3]; 4],
    pub front_facing: bool,
}

impl Quad {
    pub fn covered(&self, i: usize) -> bool {
        self.mask & (1 << i) != 0
    }

    /// Screen position of pixel `i`.
    pub fn pixel(&self, i: usize) -> (u32, u32) {
        (self.x + (i as u32 & 1), self.y + (i as u32 >> 1))
    }

    /// Interpolate per-vertex values at pixel `i`.
    pub fn interpolate<const N: usize>(&self, i: usize, attr: &[[f32; N]; 3]) -> [f32; N] {
        let b = self.bary[i];
        let mut out = [0.0; N];
        for (k, o) in out.iter_mut().enumerate() {
            *o = b[0] * attr[0][k] + b[1] * attr[1][k] + b[2] * attr[2][k];
        }
        out
    }
}

/// What became of one triangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TriangleStats {
    /// Discarded by facing (or for having zero area on screen).
    pub culled: bool,
    /// Needed clipping (cut by a plane, or wholly outside one).
    pub clipped: bool,
    /// Quads emitted.
    pub quads: u32,
    /// Covered pixels emitted.
    pub pixels: u32,
    /// The pixels `[x0, x1] x [y0, y1]` (inclusive) whose centres lie in
    /// the bounding box of what was drawn of the triangle (its clipped,
    /// snapped screen triangles that were not culled), cut to the
    /// viewport: what a bounding-box Polygon List Builder bins. `None`
    /// when that holds no pixel centre. Every covered pixel lies in it.
    pub bounds: Option<[u32; 4]>,
}

/// Rasterizer state: viewport, culling and winding.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rasterizer {
    pub viewport: Viewport,
    pub cull: CullMode,
    pub front_face: FrontFace,
}

/// A vertex during clipping: clip position plus its barycentrics in the
/// original triangle.
#[derive(Clone, Copy, Debug, Default)]
struct ClipVert {
    pos: Vec4,
    bary: [f32; 3],
}

const PLANES: usize = 7;
const MAX_POLY: usize = 3 + PLANES;

fn plane_distance(p: usize, v: Vec4) -> f32 {
    match p {
        0 => v.z,                    // near
        1 => v.w - v.z,              // far
        2 => v.w - W_MIN,            // in front of the eye
        3 => GUARD_BAND * v.w - v.x, // right guard band
        4 => GUARD_BAND * v.w + v.x, // left guard band
        5 => GUARD_BAND * v.w - v.y, // top guard band
        _ => GUARD_BAND * v.w + v.y, // bottom guard band
    }
}

fn outcode(v: Vec4) -> u8 {
    let mut c = 0;
    for p in 0..PLANES {
        if plane_distance(p, v) < 0.0 {
            c |= 1 << p;
        }
    }
    c
}

/// The point where edge `inside -> outside` crosses plane `p`.
fn intersect(p: usize, inside: &ClipVert, outside: &ClipVert) -> ClipVert {
    let di = plane_distance(p, inside.pos);
    let d_o = plane_distance(p, outside.pos);
    let t = di / (di - d_o);
    let mut bary = [0.0; 3];
    for (k, b) in bary.iter_mut().enumerate() {
        *b = inside.bary[k] + (outside.bary[k] - inside.bary[k]) * t;
    }
    let mut pos = inside.pos.lerp(outside.pos, t);
    // Land exactly on the plane whatever the rounding of the lerp.
    match p {
        0 => pos.z = 0.0,
        1 => pos.z = pos.w,
        _ => {}
    }
    ClipVert { pos, bary }
}

/// Sutherland-Hodgman against the planes in `mask`; returns the vertex count.
fn clip_polygon(poly: &mut [ClipVert; MAX_POLY], mut n: usize, mask: u8) -> usize {
    let mut out = [ClipVert::default(); MAX_POLY];
    for p in 0..PLANES {
        if mask & (1 << p) == 0 {
            continue;
        }
        let mut m = 0;
        for i in 0..n {
            let a = poly[i];
            let b = poly[(i + 1) % n];
            let a_in = plane_distance(p, a.pos) >= 0.0;
            let b_in = plane_distance(p, b.pos) >= 0.0;
            if a_in {
                out[m] = a;
                m += 1;
            }
            if a_in != b_in {
                out[m] = if a_in {
                    intersect(p, &a, &b)
                } else {
                    intersect(p, &b, &a)
                };
                m += 1;
            }
        }
        n = m;
        poly[..n].copy_from_slice(&out[..n]);
        if n < 3 {
            return 0;
        }
    }
    n
}

/// A projected, snapped vertex.
#[derive(Clone, Copy, Debug, Default)]
struct ScreenVert {
    x: i64,
    y: i64,
    depth: f64,
    inv_w: f64,
    bary: [f64; 3],
}

impl Rasterizer {
    /// A rasterizer for `viewport` with no culling and counter-clockwise front faces.
    pub fn new(viewport: Viewport) -> Rasterizer {
        assert!(
            viewport.x + viewport.width <= MAX_VIEWPORT
                && viewport.y + viewport.height <= MAX_VIEWPORT,
            "viewport beyond {MAX_VIEWPORT} pixels"
        );
        Rasterizer {
            viewport,
            cull: CullMode::None,
            front_face: FrontFace::Ccw,
        }
    }

    pub fn with_cull(mut self, cull: CullMode, front_face: FrontFace) -> Rasterizer {
        self.cull = cull;
        self.front_face = front_face;
        self
    }

    /// Rasterize the triangle with clip-space positions `clip`, calling
    /// `emit` once per quad with a covered pixel, in a deterministic order
    /// (per fan triangle, quads row by row, left to right). Triangles with
    /// non-finite coordinates are dropped.
    pub fn draw<F: FnMut(&Quad)>(&self, clip: [Vec4; 3], mut emit: F) -> TriangleStats {
        let vp = &self.viewport;
        assert!(
            vp.x + vp.width <= MAX_VIEWPORT && vp.y + vp.height <= MAX_VIEWPORT,
            "viewport beyond {MAX_VIEWPORT} pixels"
        );
        let mut stats = TriangleStats::default();
        if clip
            .iter()
            .any(|v| !(v.x.is_finite() && v.y.is_finite() && v.z.is_finite() && v.w.is_finite()))
        {
            return stats;
        }
        let mut poly = [ClipVert::default(); MAX_POLY];
        for (i, v) in clip.iter().enumerate() {
            let mut bary = [0.0; 3];
            bary[i] = 1.0;
            poly[i] = ClipVert { pos: *v, bary };
        }
        let codes = [outcode(clip[0]), outcode(clip[1]), outcode(clip[2])];
        let mut n = 3;
        if codes[0] | codes[1] | codes[2] != 0 {
            stats.clipped = true;
            if codes[0] & codes[1] & codes[2] != 0 {
                return stats;
            }
            n = clip_polygon(&mut poly, 3, codes[0] | codes[1] | codes[2]);
        }
        let mut screen = [ScreenVert::default(); MAX_POLY];
        for (s, v) in screen.iter_mut().zip(&poly[..n]) {
            *s = self.project(v);
        }
        let mut any_drawn = false;
        for i in 1..n.saturating_sub(1) {
            let tri = [screen[0], screen[i], screen[i + 1]];
            any_drawn |= self.draw_screen(tri, &mut stats, &mut emit);
        }
        stats.culled = n >= 3 && !any_drawn;
        stats
    }

    fn project(&self, v: &ClipVert) -> ScreenVert {
        let inv_w = 1.0 / v.pos.w;
        let (sx, sy) = self.viewport.to_screen(v.pos.x * inv_w, v.pos.y * inv_w);
        ScreenVert {
            x: snap(sx),
            y: snap(sy),
            depth: self.viewport.to_depth(v.pos.z * inv_w) as f64,
            inv_w: inv_w as f64,
            bary: [v.bary[0] as f64, v.bary[1] as f64, v.bary[2] as f64],
        }
    }

    /// Set up and traverse one screen triangle; false if culled or empty.
    fn draw_screen<F: FnMut(&Quad)>(
        &self,
        mut v: [ScreenVert; 3],
        stats: &mut TriangleStats,
        emit: &mut F,
    ) -> bool {
        let mut area2 =
            (v[1].x - v[0].x) * (v[2].y - v[0].y) - (v[1].y - v[0].y) * (v[2].x - v[0].x);
        if area2 == 0 {
            return false;
        }
        // Screen y points down, so a positive area is clockwise in NDC.
        let front = match self.front_face {
            FrontFace::Ccw => area2 < 0,
            FrontFace::Cw => area2 > 0,
        };
        match self.cull {
            CullMode::Back if !front => return false,
            CullMode::Front if front => return false,
            _ => {}
        }
        if area2 < 0 {
            v.swap(1, 2);
            area2 = -area2;
        }
        let edges = Edges::new(&v);
        let vp = &self.viewport;
        let half = SUBPIXEL_ONE / 2;
        let min_x = v.iter().map(|p| p.x).min().expect("3 vertices");
        let max_x = v.iter().map(|p| p.x).max().expect("3 vertices");
        let min_y = v.iter().map(|p| p.y).min().expect("3 vertices");
        let max_y = v.iter().map(|p| p.y).max().expect("3 vertices");
        // Pixels whose centres can lie in the bounding box, cut to the viewport.
        let x0 = (min_x - half + SUBPIXEL_ONE - 1)
            .div_euclid(SUBPIXEL_ONE)
            .max(vp.x as i64);
        let x1 = (max_x - half)
            .div_euclid(SUBPIXEL_ONE)
            .min((vp.x + vp.width) as i64 - 1);
        let y0 = (min_y - half + SUBPIXEL_ONE - 1)
            .div_euclid(SUBPIXEL_ONE)
            .max(vp.y as i64);
        let y1 = (max_y - half)
            .div_euclid(SUBPIXEL_ONE)
            .min((vp.y + vp.height) as i64 - 1);
        if x0 > x1 || y0 > y1 {
            return true;
        }
        let b = [x0 as u32, y0 as u32, x1 as u32, y1 as u32];
        stats.bounds = Some(match stats.bounds {
            Some(a) => [
                a[0].min(b[0]),
                a[1].min(b[1]),
                a[2].max(b[2]),
                a[3].max(b[3]),
            ],
            None => b,
        });
        let inv_area = 1.0 / area2 as f64;
        // A quad outside both its rows' spans covers nothing, so each row of
        // quads is walked only where coverage can be.
        let span = |py: i64| {
            let in_viewport = py >= vp.y as i64 && py < (vp.y + vp.height) as i64;
            in_viewport.then(|| edges.span(py, (x0, x1))).flatten()
        };
        let mut qy = y0 & !1;
        while qy <= y1 {
            let (first, last) = match (span(qy), span(qy + 1)) {
                (None, None) => {
                    qy += 2;
                    continue;
                }
                (Some(r), None) | (None, Some(r)) => r,
                (Some(a), Some(b)) => (a.0.min(b.0), a.1.max(b.1)),
            };
            // The edge functions at the first quad's pixel centres, then
            // stepped by whole quads: integer sums, so each value is exactly
            // the one evaluated at its pixel.
            let mut qx = first & !1;
            let mut e: [[i64; 3]; 4] =
                std::array::from_fn(|i| edges.at(qx + (i as i64 & 1), qy + (i as i64 >> 1)));
            while qx <= last {
                let mut mask = 0u8;
                for (i, ei) in e.iter().enumerate() {
                    let inside = vp.contains(qx + (i as i64 & 1), qy + (i as i64 >> 1));
                    if inside && edges.inside(ei) {
                        mask |= 1 << i;
                    }
                }
                if mask != 0 {
                    let mut quad = Quad {
                        x: qx as u32,
                        y: qy as u32,
                        mask,
                        depth: [0.0; 4],
                        bary: [[0.0; 3]; 4],
                        front_facing: front,
                    };
                    for (i, ei) in e.iter().enumerate() {
                        let (depth, bary) = interpolate(&v, ei, inv_area);
                        quad.depth[i] = depth;
                        quad.bary[i] = bary;
                    }
                    stats.quads += 1;
                    stats.pixels += mask.count_ones();
                    emit(&quad);
                }
                qx += 2;
                edges.step_quad(&mut e);
            }
            qy += 2;
        }
        true
    }
}

/// The three edge functions of a screen triangle (counter-clockwise in
/// screen space, in 1/256 pixel): edge `k` is opposite vertex `k`,
/// `E_k(p) = a*px + b*py + c`, positive inside; its weight at `p` is
/// `E_k(p) / area2`.
struct Edges {
    a: [i64; 3],
    b: [i64; 3],
    c: [i64; 3],
    /// Top-left rule: a pixel exactly on an edge that is neither top nor
    /// left is outside, i.e. such an edge needs `E >= 1`.
    bias: [i64; 3],
}

impl Edges {
    fn new(v: &[ScreenVert; 3]) -> Edges {
        let mut e = Edges {
            a: [0; 3],
            b: [0; 3],
            c: [0; 3],
            bias: [0; 3],
        };
        for k in 0..3 {
            let (s, t) = (&v[(k + 1) % 3], &v[(k + 2) % 3]);
            let dx = t.x - s.x;
            let dy = t.y - s.y;
            e.a[k] = -dy;
            e.b[k] = dx;
            e.c[k] = dy * s.x - dx * s.y;
            if !(dy < 0 || (dy == 0 && dx > 0)) {
                e.bias[k] = 1;
            }
        }
        e
    }

    /// The edge functions at the centre of pixel `(px, py)`.
    #[inline]
    fn at(&self, px: i64, py: i64) -> [i64; 3] {
        let half = SUBPIXEL_ONE / 2;
        let (cx, cy) = (px * SUBPIXEL_ONE + half, py * SUBPIXEL_ONE + half);
        std::array::from_fn(|k| self.a[k] * cx + self.b[k] * cy + self.c[k])
    }

    /// Whether edge values `e` are inside all three edges.
    #[inline]
    fn inside(&self, e: &[i64; 3]) -> bool {
        (0..3).all(|k| e[k] >= self.bias[k])
    }

    /// The values of a quad's four pixels moved one quad (2 pixels) right.
    #[inline]
    fn step_quad(&self, e: &mut [[i64; 3]; 4]) {
        for ei in e {
            for (v, a) in ei.iter_mut().zip(self.a) {
                *v += 2 * SUBPIXEL_ONE * a;
            }
        }
    }

    /// The pixels of row `py` among `x0..=x1` inside all three edges, as
    /// their first and last x (exact: integer bounds of each half-line).
    fn span(&self, py: i64, (x0, x1): (i64, i64)) -> Option<(i64, i64)> {
        let half = SUBPIXEL_ONE / 2;
        let cy = py * SUBPIXEL_ONE + half;
        let (mut lo, mut hi) = (x0, x1);
        for k in 0..3 {
            // Inside: a * px + b >= bias, with a the step per pixel.
            let a = self.a[k] * SUBPIXEL_ONE;
            let r = self.bias[k] - (self.a[k] * half + self.b[k] * cy + self.c[k]);
            match a.cmp(&0) {
                Ordering::Greater => lo = lo.max(-((-r).div_euclid(a))),
                Ordering::Less => hi = hi.min((-r).div_euclid(-a)),
                Ordering::Equal if r > 0 => return None,
                Ordering::Equal => {}
            }
        }
        (lo <= hi).then_some((lo, hi))
    }
}

/// Depth and perspective-correct barycentrics at a pixel with edge values `e`.
fn interpolate(v: &[ScreenVert; 3], e: &[i64; 3], inv_area: f64) -> (f32, [f32; 3]) {
    let l = [
        e[0] as f64 * inv_area,
        e[1] as f64 * inv_area,
        e[2] as f64 * inv_area,
    ];
    let depth = l[0] * v[0].depth + l[1] * v[1].depth + l[2] * v[2].depth;
    // 1/w is affine in screen space; weight each vertex by it.
    let mut q = [l[0] * v[0].inv_w, l[1] * v[1].inv_w, l[2] * v[2].inv_w];
    let denom = q[0] + q[1] + q[2];
    if denom > 0.0 {
        for x in &mut q {
            *x /= denom;
        }
    } else {
        // Only a helper pixel far outside a steep triangle gets here.
        q = l;
    }
    let mut bary = [0.0f32; 3];
    for (j, b) in bary.iter_mut().enumerate() {
        *b = (q[0] * v[0].bary[j] + q[1] * v[1].bary[j] + q[2] * v[2].bary[j]) as f32;
    }
    (depth as f32, bary)
}
