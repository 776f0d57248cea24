//! Errors of building a binned frame, a Parameter Buffer layout or a cache.

/// A [`crate::BinnedFrame`] the Polygon List Builder cannot bin (checked in
/// `gfxcache-trace`, where binned frames live).
pub use gfxcache_trace::binned::BinningError;

/// A Parameter Buffer layout that cannot hold a frame, or a cache
/// configuration that cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("tile at traversal position {pos} lists {len} primitives; the baseline PB-Lists layout has room for {max} per tile")]
    ListTooLong { pos: u32, len: u32, max: u32 },
    #[error("{0}")]
    Cache(String),
}
