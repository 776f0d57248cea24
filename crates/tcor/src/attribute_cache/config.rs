//! What an Attribute Cache is made of: its entries, lines, ways and
//! replacement, with the TCOR paper's two sizes.

use gfxcache_cache::Ways;

use super::Replacement;
use crate::layout::ATTRIBUTE_BYTES;

/// Shape and policy of an Attribute Cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttributeCacheConfig {
    /// Attribute Buffer entries (48 bytes of attribute each).
    pub entries: u32,
    /// Primitive Buffer lines.
    pub lines: u32,
    /// Ways of the Primitive Buffer; `Ways::Full` is one set.
    pub ways: Ways,
    pub replacement: Replacement,
}

impl Default for AttributeCacheConfig {
    fn default() -> AttributeCacheConfig {
        AttributeCacheConfig::tcor_48k()
    }
}

impl AttributeCacheConfig {
    /// TCOR's 64 KiB Tile Cache split: a 48 KiB Attribute Cache.
    pub fn tcor_48k() -> AttributeCacheConfig {
        AttributeCacheConfig {
            entries: Self::entries_of(48 * 1024),
            lines: 512,
            ways: Ways::N(4),
            replacement: Replacement::Opt,
        }
    }

    /// TCOR's 128 KiB Tile Cache split: a 112 KiB Attribute Cache.
    pub fn tcor_112k() -> AttributeCacheConfig {
        AttributeCacheConfig {
            entries: Self::entries_of(112 * 1024),
            lines: 1024,
            ..Self::tcor_48k()
        }
    }

    /// Attribute Buffer entries in `bytes` of attributes (48 bytes each).
    pub fn entries_of(bytes: u64) -> u32 {
        (bytes / ATTRIBUTE_BYTES) as u32
    }

    pub fn with_replacement(mut self, r: Replacement) -> AttributeCacheConfig {
        self.replacement = r;
        self
    }

    pub fn with_ways(mut self, ways: Ways) -> AttributeCacheConfig {
        self.ways = ways;
        self
    }

    pub(super) fn way_count(&self) -> u32 {
        match self.ways {
            Ways::Full => self.lines,
            Ways::N(w) => w,
        }
    }
}
