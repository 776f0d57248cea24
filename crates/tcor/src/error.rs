//! Errors of building a binned frame, a Parameter Buffer layout or a cache.

/// A [`crate::BinnedFrame`] the Polygon List Builder cannot bin (checked in
/// `gfxcache-trace`, where binned frames live).
pub use gfxcache_trace::binned::BinningError;

/// A Parameter Buffer layout that cannot hold a frame, or a cache
/// configuration that cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// PB-Lists (with the baseline's overflow area) would run into
    /// PB-Attributes.
    #[error(
        "PB-Lists of this frame end at {end:#x}, past the PB-Attributes Pointer {attrs_ptr:#x}"
    )]
    ListsOverlapAttributes { end: u64, attrs_ptr: u64 },
    /// A Parameter Buffer layout that cannot be used.
    #[error("{0}")]
    Layout(String),
    #[error("{0}")]
    Cache(String),
}
