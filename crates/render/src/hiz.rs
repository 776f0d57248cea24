//! Hierarchical Z: one conservative depth bound per 8x8-pixel tile, kept
//! in a [`HizSurface`], that lets whole quads be rejected without touching
//! the depth buffer.
//!
//! Why and how (the rule the pipeline and the tests rely on):
//!
//! - Each tile stores `max`, a 16-bit bound **never below** any depth
//!   stored in the tile ([`HizSurface::quantize_up`]). A quad whose nearest
//!   depth (rounded down, [`HizSurface::quantize_down`]) is `>= max` cannot
//!   pass a `Less` test anywhere in the tile (`> max` for `LessEqual`), so
//!   it is rejected. Other compare functions never use HiZ (a `Greater`
//!   test would need a minimum bound, which is not modelled).
//! - **Conservative on every write**: a depth written above `max` raises
//!   `max` at once, so the bound holds whatever the compare function.
//! - **Tightened on full rewrite**: per tile the HiZ unit tracks (on chip,
//!   not in memory) which pixels were written since the bound was last
//!   refreshed and the largest depth written to them. When every pixel of
//!   the tile that lies inside the surface has been written, each stored
//!   depth is one of those writes, so `max` becomes
//!   `min(max, quantize_up(largest written))` and tracking restarts. This is
//!   how a front-to-back pass lets later draws be rejected.
//! - A clear sets every bound to the clear depth and resets the tracking.

use crate::state::CompareFunc;
use crate::storage::{filled, TooLarge};
use crate::surface::{Allocator, HizSurface, HIZ_TILE};

/// The HiZ bounds of a depth buffer and their addresses.
#[derive(Clone, Debug, PartialEq)]
pub struct Hiz {
    pub surface: HizSurface,
    width: u32,
    height: u32,
    max: Vec<u16>,
    written: Vec<u64>,
    written_max: Vec<f32>,
}

impl Hiz {
    /// HiZ for a `width` x `height` depth buffer, cleared to depth 1.
    /// Panics where [`Hiz::try_new`] fails.
    pub fn new(width: u32, height: u32, alloc: &mut Allocator) -> Hiz {
        Self::try_new(width, height, alloc).expect("memory for the HiZ bounds")
    }

    /// [`Hiz::new`], or the size of the first table the memory is not
    /// there for.
    pub fn try_new(width: u32, height: u32, alloc: &mut Allocator) -> Result<Hiz, TooLarge> {
        let surface = HizSurface::new(width, height, alloc);
        let n = surface.tiles_x as usize * surface.tiles_y as usize;
        let mut hiz = Hiz {
            surface,
            width,
            height,
            max: filled(n, 0)?,
            written: filled(n, 0)?,
            written_max: filled(n, 0.0)?,
        };
        hiz.clear(1.0);
        Ok(hiz)
    }

    /// Every tile bounded by `depth`, tracking reset.
    pub fn clear(&mut self, depth: f32) {
        self.max.fill(HizSurface::quantize_up(depth));
        self.written.fill(0);
        self.written_max.fill(0.0);
    }

    fn index(&self, x: u32, y: u32) -> usize {
        (y / HIZ_TILE) as usize * self.surface.tiles_x as usize + (x / HIZ_TILE) as usize
    }

    /// The stored bound of the tile holding pixel `(x, y)`.
    pub fn max_at(&self, x: u32, y: u32) -> u16 {
        self.max[self.index(x, y)]
    }

    /// Address of the entry of the tile holding pixel `(x, y)`.
    pub fn addr_of_pixel(&self, x: u32, y: u32) -> u64 {
        self.surface.addr_of_pixel(x, y)
    }

    /// Whether fragments in the tile of `(x, y)` whose nearest depth is
    /// `nearest` surely fail `func`.
    pub fn rejects(&self, x: u32, y: u32, func: CompareFunc, nearest: f32) -> bool {
        rejects(self.max_at(x, y), func, nearest)
    }

    /// Note that `depth` was stored at pixel `(x, y)`; true when the tile's
    /// bound changed (the HiZ entry must be written back).
    pub fn note_write(&mut self, x: u32, y: u32, depth: f32) -> bool {
        let cuts = [0, self.height];
        let mut all = self.rows_mut(&cuts);
        all.next().expect("one band").note_write(x, y, depth)
    }

    /// The bounds and tracking of the tile rows of each band of pixel rows
    /// `cuts[k]..cuts[k + 1]`, top to bottom (`cuts` ascending from 0 to
    /// the height, each inner cut a multiple of [`HIZ_TILE`]): what the
    /// back end of one band of the screen may change.
    pub(crate) fn rows_mut<'a>(&'a mut self, cuts: &'a [u32]) -> impl Iterator<Item = HizRows<'a>> {
        let tiles_x = self.surface.tiles_x;
        let (width, height) = (self.width, self.height);
        let mut rest = (
            &mut self.max[..],
            &mut self.written[..],
            &mut self.written_max[..],
        );
        cuts.windows(2).map(move |w| {
            debug_assert!(
                w[0] % HIZ_TILE == 0,
                "band at row {} inside a HiZ tile",
                w[0]
            );
            let rows = (w[1].div_ceil(HIZ_TILE) - w[0] / HIZ_TILE) as usize;
            let n = (rows * tiles_x as usize).min(rest.0.len());
            let (max, m) = std::mem::take(&mut rest.0).split_at_mut(n);
            let (written, wr) = std::mem::take(&mut rest.1).split_at_mut(n);
            let (written_max, wm) = std::mem::take(&mut rest.2).split_at_mut(n);
            rest = (m, wr, wm);
            HizRows {
                tiles_x,
                width,
                height,
                ty0: w[0] / HIZ_TILE,
                max,
                written,
                written_max,
            }
        })
    }
}

/// Whether a quad whose nearest depth is `nearest` surely fails `func`
/// against a tile bounded by `max`.
fn rejects(max: u16, func: CompareFunc, nearest: f32) -> bool {
    let q = HizSurface::quantize_down(nearest);
    match func {
        CompareFunc::Less => q >= max,
        CompareFunc::LessEqual => q > max,
        _ => false,
    }
}

/// Bits of the pixels of tile `(tx, ty)` that lie inside a `width` x
/// `height` surface.
fn full_mask(width: u32, height: u32, tx: u32, ty: u32) -> u64 {
    let w = (width - tx * HIZ_TILE).min(HIZ_TILE);
    let h = (height - ty * HIZ_TILE).min(HIZ_TILE);
    let row = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
    (0..h).fold(0, |m, r| m | row << (r * HIZ_TILE))
}

/// The HiZ bounds and tracking of a band of tile rows (see
/// [`Hiz::rows_mut`]).
pub(crate) struct HizRows<'a> {
    tiles_x: u32,
    width: u32,
    height: u32,
    /// The band's first tile row.
    ty0: u32,
    max: &'a mut [u16],
    written: &'a mut [u64],
    written_max: &'a mut [f32],
}

impl HizRows<'_> {
    fn index(&self, x: u32, y: u32) -> usize {
        (y / HIZ_TILE - self.ty0) as usize * self.tiles_x as usize + (x / HIZ_TILE) as usize
    }

    /// [`Hiz::rejects`] for a pixel of the band.
    pub(crate) fn rejects(&self, x: u32, y: u32, func: CompareFunc, nearest: f32) -> bool {
        rejects(self.max[self.index(x, y)], func, nearest)
    }

    /// [`Hiz::note_write`] for a pixel of the band.
    pub(crate) fn note_write(&mut self, x: u32, y: u32, depth: f32) -> bool {
        let i = self.index(x, y);
        let mut changed = false;
        let up = HizSurface::quantize_up(depth);
        if up > self.max[i] {
            self.max[i] = up;
            changed = true;
        }
        self.written[i] |= 1u64 << ((y % HIZ_TILE) * HIZ_TILE + x % HIZ_TILE);
        if depth > self.written_max[i] {
            self.written_max[i] = depth;
        }
        let (tx, ty) = (x / HIZ_TILE, y / HIZ_TILE);
        // Tiles inside the surface (all but the right and bottom edges) are
        // full when every bit is set; only edge tiles need their mask built.
        let full = if (tx + 1) * HIZ_TILE <= self.width && (ty + 1) * HIZ_TILE <= self.height {
            u64::MAX
        } else {
            full_mask(self.width, self.height, tx, ty)
        };
        if self.written[i] == full {
            let tight = HizSurface::quantize_up(self.written_max[i]);
            if tight < self.max[i] {
                self.max[i] = tight;
                changed = true;
            }
            self.written[i] = 0;
            self.written_max[i] = 0.0;
        }
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bound_tightens_only_on_full_rewrite_and_rises_at_once() {
        let mut alloc = Allocator::default();
        let mut h = Hiz::new(12, 8, &mut alloc);
        assert_eq!(h.max_at(0, 0), 65535);
        for y in 0..8 {
            for x in 0..8 {
                let changed = h.note_write(x, y, 0.5);
                assert_eq!(changed, (x, y) == (7, 7));
            }
        }
        assert_eq!(h.max_at(3, 3), HizSurface::quantize_up(0.5));
        assert!(h.rejects(0, 0, CompareFunc::Less, 0.51));
        assert!(h.rejects(0, 0, CompareFunc::LessEqual, 0.51));
        // Equal depth is within the quantization step: kept, conservatively.
        assert!(!h.rejects(0, 0, CompareFunc::Less, 0.5));
        assert!(!h.rejects(0, 0, CompareFunc::Less, 0.49));
        assert!(!h.rejects(0, 0, CompareFunc::Greater, 0.9));
        // The edge tile has 4x8 pixels inside the surface.
        for y in 0..8 {
            for x in 8..12 {
                h.note_write(x, y, 0.25);
            }
        }
        assert_eq!(h.max_at(8, 0), HizSurface::quantize_up(0.25));
        // A farther write raises the bound at once.
        assert!(h.note_write(1, 1, 0.75));
        assert_eq!(h.max_at(0, 0), HizSurface::quantize_up(0.75));
        h.clear(1.0);
        assert_eq!(h.max_at(9, 0), 65535);
    }
}
