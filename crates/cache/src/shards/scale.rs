//! The mini-cache of a cache at sampling rate R: the cache that sees the
//! sample as the whole cache sees the trace.

use crate::geometry::Geometry;

/// The mini-cache of `full` at rate `rate`: R times the sets, the same
/// ways, so that each set of the mini-cache stands for 1 / R sets of the
/// cache and sees about as many blocks competing for its ways (ours: the
/// miniature-simulation paper scales a cache's size, and a set-associative
/// cache keeps its associativity only by scaling its sets). A fully
/// associative cache (one set) scales its ways. Counts round to nearest;
/// `None` where they round to 0, a size the sample cannot resolve. The
/// mini-cache is indexed modulo its set count, with one bank, write-back
/// and write-allocate like `full`.
pub fn mini_cache(full: &Geometry, rate: f64) -> Option<Geometry> {
    let scale = |n: u32| (f64::from(n) * rate).round() as u32;
    let (sets, ways) = if full.sets == 1 {
        (1, scale(full.ways))
    } else {
        (scale(full.sets), full.ways)
    };
    if sets == 0 || ways == 0 {
        return None;
    }
    Geometry::new(full.block, sets, ways)
        .ok()
        .map(|g| g.with_write(full.write, full.write_allocate))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Ways;

    #[test]
    fn sets_scale_and_ways_stay() {
        let llc = Geometry::from_size(8 << 20, Ways::N(16), 64).unwrap();
        let m = mini_cache(&llc, 0.01).unwrap();
        assert_eq!((m.sets, m.ways), (82, 16));
        let full = Geometry::from_size(1 << 20, Ways::Full, 64).unwrap();
        let m = mini_cache(&full, 0.01).unwrap();
        assert_eq!((m.sets, m.ways), (1, 164));
        let small = Geometry::from_size(32 << 10, Ways::N(16), 64).unwrap();
        assert_eq!(mini_cache(&small, 0.01), None);
        assert_eq!(mini_cache(&small, 1.0), Some(small));
    }
}
