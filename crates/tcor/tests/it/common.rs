//! Shared by the property tests.

use gfxcache_cache::Ways;
use proptest::prelude::*;

/// Fully associative, or 1, 2, 4 or 8 ways.
pub fn ways() -> impl Strategy<Value = Ways> {
    prop_oneof![
        Just(Ways::Full),
        Just(Ways::N(1)),
        Just(Ways::N(2)),
        Just(Ways::N(4)),
        Just(Ways::N(8)),
    ]
}
