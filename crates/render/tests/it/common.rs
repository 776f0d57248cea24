//! Helpers shared by the integration tests: placing vertices at exact screen
//! positions and collecting what the rasterizer covers.
#![allow(dead_code)]

use gfxcache_render::{Quad, Rasterizer, Vec4, Viewport};

/// Clip-space position (with `w`) of screen point `(sx, sy)` in `vp`; the
/// rasterizer maps it back to `(sx, sy)` to well within a 1/512 pixel.
pub fn clip_at(vp: &Viewport, sx: f64, sy: f64, z: f32, w: f32) -> Vec4 {
    let nx = ((sx - vp.x as f64) / vp.width as f64 * 2.0 - 1.0) as f32;
    let ny = (1.0 - (sy - vp.y as f64) / vp.height as f64 * 2.0) as f32;
    Vec4::new(nx * w, ny * w, z * w, w)
}

/// Per-pixel hit counts over a `(x0 + w) x (y0 + h)` screen.
pub struct Hits {
    pub width: u32,
    pub height: u32,
    pub count: Vec<u32>,
}

impl Hits {
    pub fn new(width: u32, height: u32) -> Hits {
        Hits {
            width,
            height,
            count: vec![0; width as usize * height as usize],
        }
    }

    pub fn get(&self, x: u32, y: u32) -> u32 {
        self.count[(y * self.width + x) as usize]
    }

    /// Add every covered pixel of `q`, checking the quad's own invariants.
    pub fn add(&mut self, q: &Quad) {
        assert_eq!(q.x % 2, 0, "quad x not even");
        assert_eq!(q.y % 2, 0, "quad y not even");
        assert!(q.mask != 0 && q.mask < 16, "bad mask {}", q.mask);
        for i in 0..4 {
            if q.covered(i) {
                let (x, y) = q.pixel(i);
                assert!(
                    x < self.width && y < self.height,
                    "pixel ({x}, {y}) off screen"
                );
                self.count[(y * self.width + x) as usize] += 1;
            }
        }
    }
}

/// Draw one triangle and return its hit counts.
pub fn coverage(r: &Rasterizer, tri: [Vec4; 3]) -> Hits {
    let vp = r.viewport;
    let mut hits = Hits::new(vp.x + vp.width, vp.y + vp.height);
    r.draw(tri, |q| hits.add(q));
    hits
}
