//! Seeded randomness for the built-in scenes: an integer hash, a small
//! sequential generator and tileable value noise / fbm.
//!
//! Everything derives from integer hashing of explicit seeds (no `rand`, no
//! clock), so building a scene twice gives bit-identical results. Noise is
//! periodic on its integer lattice so textures made from it tile seamlessly
//! under repeat addressing.

/// A well-mixed 32-bit hash of `(x, y, seed)` (a murmur-style finalizer over
/// a linear combination, enough to hide lattice structure).
pub fn hash(x: u32, y: u32, seed: u32) -> u32 {
    let mut h = x
        .wrapping_mul(0x8da6_b343)
        .wrapping_add(y.wrapping_mul(0xd816_3841))
        .wrapping_add(seed.wrapping_mul(0xcb1a_b31f))
        .wrapping_add(0x9e37_79b9);
    h ^= h >> 16;
    h = h.wrapping_mul(0x7feb_352d);
    h ^= h >> 15;
    h = h.wrapping_mul(0x846c_a68b);
    h ^= h >> 16;
    h
}

/// `hash` mapped to `[0, 1)`.
pub fn hash01(x: u32, y: u32, seed: u32) -> f32 {
    (hash(x, y, seed) >> 8) as f32 * (1.0 / 16_777_216.0)
}

/// A tiny deterministic sequence for placing objects (counter + hash, so
/// draws never depend on anything but the seed and how many came before).
pub struct Rng {
    seed: u32,
    n: u32,
}

impl Rng {
    pub fn new(seed: u32) -> Rng {
        Rng { seed, n: 0 }
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f32 {
        self.n = self.n.wrapping_add(1);
        hash01(self.n, 0x5eed, self.seed)
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    /// Uniform integer in `[0, n)`.
    pub fn below(&mut self, n: u32) -> u32 {
        ((self.unit() * n as f32) as u32).min(n.saturating_sub(1))
    }
}

fn smooth(t: f32) -> f32 {
    t * t * (3.0 - 2.0 * t)
}

/// Value noise in `[0, 1]` at `(x, y)`, periodic with `period` lattice cells
/// on both axes. `period` must be a power of two: wrapping is then a mask,
/// not a division (this is the inner loop of every texture).
pub fn value(x: f32, y: f32, period: u32, seed: u32) -> f32 {
    debug_assert!(period.is_power_of_two());
    let mask = period - 1;
    let (fx, fy) = (x.floor(), y.floor());
    let (tx, ty) = (smooth(x - fx), smooth(y - fy));
    // Two's complement makes the mask wrap negative cells correctly.
    let xi = (fx as i32 as u32) & mask;
    let yi = (fy as i32 as u32) & mask;
    let x1 = (xi + 1) & mask;
    let y1 = (yi + 1) & mask;
    let a = hash01(xi, yi, seed);
    let b = hash01(x1, yi, seed);
    let c = hash01(xi, y1, seed);
    let d = hash01(x1, y1, seed);
    let top = a + (b - a) * tx;
    let bot = c + (d - c) * tx;
    top + (bot - top) * ty
}

/// Fractal sum of `octaves` value-noise layers in `[0, 1]`; `(u, v)` in
/// texture units (one tile = `[0, 1)`), `base` cells across at the first
/// octave, doubling each octave so every layer tiles.
pub fn fbm(u: f32, v: f32, base: u32, octaves: u32, seed: u32) -> f32 {
    let mut sum = 0.0;
    let mut amp = 0.5;
    let mut norm = 0.0;
    let mut period = base;
    for o in 0..octaves {
        let f = period as f32;
        sum += amp * value(u * f, v * f, period, seed.wrapping_add(o * 7919));
        norm += amp;
        amp *= 0.5;
        period *= 2;
    }
    sum / norm
}

/// Cellular (Worley-like) distance to the nearest jittered point of a
/// `cells` x `cells` periodic grid (a power of two), in cell units (roughly `[0, 1]`), plus
/// the hash of that nearest cell (to colour cells apart).
pub fn cells(u: f32, v: f32, cells: u32, seed: u32) -> (f32, u32) {
    let (x, y) = (u * cells as f32, v * cells as f32);
    let (cx, cy) = (x.floor() as i32, y.floor() as i32);
    let mut best = f32::INFINITY;
    let mut id = 0;
    debug_assert!(cells.is_power_of_two());
    let mask = cells - 1;
    // Only the 2x2 cells nearest the sample's quadrant: a point farther
    // away is rarely the nearest, and this is 9/4 times cheaper.
    let (ox, oy) = (
        if x - (cx as f32) < 0.5 { -1 } else { 0 },
        if y - (cy as f32) < 0.5 { -1 } else { 0 },
    );
    for dy in oy..=oy + 1 {
        for dx in ox..=ox + 1 {
            let (gx, gy) = (cx + dx, cy + dy);
            let (wx, wy) = (gx as u32 & mask, gy as u32 & mask);
            let px = gx as f32 + hash01(wx, wy, seed);
            let py = gy as f32 + hash01(wx, wy, seed ^ 0xabcd);
            let d = (px - x) * (px - x) + (py - y) * (py - y);
            if d < best {
                best = d;
                id = hash(wx, wy, seed ^ 0x1234);
            }
        }
    }
    (best.sqrt(), id)
}

/// A tileable fbm field precomputed on an `n` x `n` grid and read back
/// with bilinear filtering: textures read noise per texel through this,
/// one table lookup instead of an fbm evaluation (a 2048x2048 image would
/// otherwise need tens of millions of lattice hashes).
pub struct Field {
    n: u32,
    data: Vec<f32>,
}

impl Field {
    /// `fbm(u, v, base, octaves, seed)` sampled at `n` x `n` texel
    /// centres (`n` a power of two).
    pub fn fbm(n: u32, base: u32, octaves: u32, seed: u32) -> Field {
        debug_assert!(n.is_power_of_two());
        let inv = 1.0 / n as f32;
        let mut data = Vec::with_capacity((n * n) as usize);
        for y in 0..n {
            for x in 0..n {
                data.push(fbm(x as f32 * inv, y as f32 * inv, base, octaves, seed));
            }
        }
        Field { n, data }
    }

    /// Bilinear, repeating, `(u, v)` in tiles.
    pub fn at(&self, u: f32, v: f32) -> f32 {
        let (x, y) = (u * self.n as f32, v * self.n as f32);
        let (fx, fy) = (x.floor(), y.floor());
        let (tx, ty) = (x - fx, y - fy);
        let m = self.n - 1;
        let (x0, y0) = (fx as i32 as u32 & m, fy as i32 as u32 & m);
        let (x1, y1) = ((x0 + 1) & m, (y0 + 1) & m);
        let row = |y: u32| (y * self.n) as usize;
        let a = self.data[row(y0) + x0 as usize];
        let b = self.data[row(y0) + x1 as usize];
        let c = self.data[row(y1) + x0 as usize];
        let d = self.data[row(y1) + x1 as usize];
        let top = a + (b - a) * tx;
        let bot = c + (d - c) * tx;
        top + (bot - top) * ty
    }
}
