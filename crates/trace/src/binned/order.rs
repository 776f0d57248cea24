//! The tile traversal order: the fixed order in which the Tile Fetcher
//! visits the tiles of a frame. TCOR (Table I) uses Z-order, the default
//! here; the worked example of Figures 9 and 10 uses scanline order.
//!
//! Because the order is fixed and known while binning, the Polygon List
//! Builder can turn "the next tile that uses this primitive" into a number,
//! the OPT Number: the tile's *position* in this sequence.
//!
//! Grids that are not square or whose sides are not powers of two: Z-order
//! and Hilbert order are defined on the smallest power-of-two square that
//! covers the grid (side `2^k >= max(tiles_x, tiles_y)`); the sequence is
//! that square's curve with the tiles outside the grid skipped. Z-order so
//! keeps its quadrant-by-quadrant locality; a skipped stretch of a Hilbert
//! curve makes one jump between two tiles that are not neighbours, at the
//! grid's right or bottom edge, and nothing else changes.

use serde::{Deserialize, Serialize};

/// How the Tile Fetcher walks the tile grid.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TileOrder {
    /// Row by row, left to right (the paper's worked example).
    Scanline,
    /// Morton order: x bits in the even positions, y bits in the odd ones.
    #[default]
    ZOrder,
    /// The Hilbert curve starting at tile (0, 0).
    Hilbert,
}

impl TileOrder {
    /// The tile IDs (`y * tiles_x + x`) in visiting order: every tile of the
    /// `tiles_x` x `tiles_y` grid exactly once.
    pub fn sequence(self, tiles_x: u32, tiles_y: u32) -> Vec<u32> {
        let (w, h) = (u64::from(tiles_x), u64::from(tiles_y));
        let mut out = Vec::with_capacity((w * h) as usize);
        match self {
            TileOrder::Scanline => {
                out.extend(0..tiles_x * tiles_y);
            }
            TileOrder::ZOrder => {
                let mut keyed: Vec<(u64, u32)> = (0..tiles_y)
                    .flat_map(|y| (0..tiles_x).map(move |x| (morton(x, y), y * tiles_x + x)))
                    .collect();
                keyed.sort_unstable();
                out.extend(keyed.into_iter().map(|(_, id)| id));
            }
            TileOrder::Hilbert => {
                let side = u64::from(tiles_x.max(tiles_y).max(1)).next_power_of_two();
                for d in 0..side * side {
                    let (x, y) = hilbert_d2xy(side, d);
                    if x < w && y < h {
                        out.push((y * w + x) as u32);
                    }
                }
            }
        }
        out
    }

    pub fn name(self) -> &'static str {
        match self {
            TileOrder::Scanline => "scanline",
            TileOrder::ZOrder => "zorder",
            TileOrder::Hilbert => "hilbert",
        }
    }
}

impl std::str::FromStr for TileOrder {
    type Err = String;
    fn from_str(s: &str) -> Result<TileOrder, String> {
        match s {
            "scanline" => Ok(TileOrder::Scanline),
            "zorder" | "z-order" | "z" => Ok(TileOrder::ZOrder),
            "hilbert" => Ok(TileOrder::Hilbert),
            _ => Err(format!(
                "tile order '{s}': expected scanline, zorder or hilbert"
            )),
        }
    }
}

/// Interleaves the bits of `x` (even positions) and `y` (odd positions).
fn morton(x: u32, y: u32) -> u64 {
    fn spread(v: u32) -> u64 {
        let mut v = u64::from(v);
        v = (v | (v << 16)) & 0x0000_FFFF_0000_FFFF;
        v = (v | (v << 8)) & 0x00FF_00FF_00FF_00FF;
        v = (v | (v << 4)) & 0x0F0F_0F0F_0F0F_0F0F;
        v = (v | (v << 2)) & 0x3333_3333_3333_3333;
        v = (v | (v << 1)) & 0x5555_5555_5555_5555;
        v
    }
    spread(x) | (spread(y) << 1)
}

/// Position `d` along the Hilbert curve of a `side` x `side` square
/// (`side` a power of two) to `(x, y)`; the classic iterative conversion.
fn hilbert_d2xy(side: u64, d: u64) -> (u64, u64) {
    let (mut x, mut y) = (0u64, 0u64);
    let mut t = d;
    let mut s = 1;
    while s < side {
        let rx = 1 & (t / 2);
        let ry = 1 & (t ^ rx);
        if ry == 0 {
            if rx == 1 {
                x = s - 1 - x;
                y = s - 1 - y;
            }
            std::mem::swap(&mut x, &mut y);
        }
        x += s * rx;
        y += s * ry;
        t /= 4;
        s *= 2;
    }
    (x, y)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_permutation(seq: &[u32], n: u32) -> bool {
        let mut seen = vec![false; n as usize];
        seq.len() == n as usize
            && seq
                .iter()
                .all(|&t| t < n && !std::mem::replace(&mut seen[t as usize], true))
    }

    #[test]
    fn every_order_visits_every_tile_once() {
        for order in [TileOrder::Scanline, TileOrder::ZOrder, TileOrder::Hilbert] {
            for (w, h) in [(1, 1), (3, 3), (4, 4), (5, 2), (2, 7), (62, 24), (1, 9)] {
                assert!(
                    is_permutation(&order.sequence(w, h), w * h),
                    "{order:?} {w}x{h}"
                );
            }
        }
    }

    #[test]
    fn zorder_of_a_4x4_grid() {
        assert_eq!(
            TileOrder::ZOrder.sequence(4, 4),
            [0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15]
        );
    }

    #[test]
    fn zorder_skips_tiles_outside_a_3x2_grid() {
        // On the covering 4x4 square: (0,0) (1,0) (0,1) (1,1) (2,0) (2,1).
        assert_eq!(TileOrder::ZOrder.sequence(3, 2), [0, 1, 3, 4, 2, 5]);
    }

    #[test]
    fn hilbert_steps_to_a_neighbour_on_a_power_of_two_square() {
        let seq = TileOrder::Hilbert.sequence(8, 8);
        for pair in seq.windows(2) {
            let (a, b) = (pair[0] as i64, pair[1] as i64);
            let d = (a % 8 - b % 8).abs() + (a / 8 - b / 8).abs();
            assert_eq!(d, 1, "{a} -> {b}");
        }
    }

    #[test]
    fn names_round_trip() {
        for order in [TileOrder::Scanline, TileOrder::ZOrder, TileOrder::Hilbert] {
            assert_eq!(order.name().parse::<TileOrder>(), Ok(order));
        }
        assert_eq!(TileOrder::default(), TileOrder::ZOrder);
    }
}
