//! Errors of building a binned frame, a Parameter Buffer layout or a cache.

/// A [`crate::BinnedFrame`] the Polygon List Builder cannot bin.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BinningError {
    #[error("tile grid {tiles_x}x{tiles_y}: expected at least one tile and at most 2^32")]
    Grid { tiles_x: u32, tiles_y: u32 },
    #[error("primitive {prim}: tile {tile} is outside the grid of {tiles} tiles")]
    TileOutOfRange { prim: usize, tile: u32, tiles: u32 },
    #[error("primitive {prim}: zero attributes (a primitive has at least one)")]
    ZeroAttributes { prim: usize },
    #[error("primitive {prim}: tile {tile} is listed twice (a primitive appears in a tile's list at most once)")]
    DuplicateTile { prim: usize, tile: u32 },
    #[error("primitive {prim}: overlaps no tile (the Polygon List Builder never receives it)")]
    NoTiles { prim: usize },
    #[error("more than 2^32 primitive-tile pairs")]
    TooLarge,
}

/// A Parameter Buffer layout that cannot hold a frame, or a cache
/// configuration that cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("tile at traversal position {pos} lists {len} primitives; the baseline PB-Lists layout has room for {max} per tile")]
    ListTooLong { pos: u32, len: u32, max: u32 },
    #[error("{0}")]
    Cache(String),
}
