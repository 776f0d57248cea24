//! The GPU machine every study is to run on (issue 34): the parts of a
//! graphics GPU's fragment back end that the designs share and compose
//! on, each described by its parameters, below the design crates
//! (`gfxcache-nuca`, `gfxcache-nbtc`) that plug their mechanisms into it.
//!
//! It begins with what DTM-NUCA and the NBTC both had, moved out of
//! `gfxcache-nuca` unchanged (the NBTC's L1 was the same cache):
//!
//! - [`texture_cache`]: a texture unit's read-only LRU cache, with the
//!   hit that leaves the LRU order alone, the probe that changes nothing
//!   and the fill when memory returns ([`TextureCache`]).
//! - [`calendar`]: a resource that serves one unit a cycle (a mesh link
//!   passing a flit, an L2 bank taking an access), reserved cycle by cycle
//!   by requests that come in trace order ([`Calendar`]).
//! - [`mesh`]: the 2D mesh between the fragment processors' texture caches
//!   ([`Mesh`]): shapes, X-Y routes, flits, link contention, broadcast
//!   trees.
//!
//! Depends on `gfxcache-cache` (a cache's geometry and set index) only:
//! the designs depend on it, never the other way.

pub mod calendar;
pub mod mesh;
pub mod texture_cache;

pub use calendar::Calendar;
pub use mesh::{default_shape, Contention, Mesh, MeshConfig, MeshStats, Message};
pub use texture_cache::{Lookup, TextureCache};
