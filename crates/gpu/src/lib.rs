//! The GPU machine every study is to run on (issue 34): the parts of a
//! graphics GPU's fragment back end that the designs share and compose
//! on, each described by its parameters, below the design crates
//! (`gfxcache-nuca`, `gfxcache-nbtc`) that plug their mechanisms into it.
//!
//! It begins with the resources shared in time, moved out of
//! `gfxcache-nuca` unchanged:
//!
//! - [`calendar`]: a resource that serves one unit a cycle (a mesh link
//!   passing a flit, an L2 bank taking an access), reserved cycle by cycle
//!   by requests that come in trace order ([`Calendar`]).
//! - [`mesh`]: the 2D mesh between the fragment processors' texture caches
//!   ([`Mesh`]): shapes, X-Y routes, flits, link contention, broadcast
//!   trees.
//!
//! Depends on nothing of the project: the designs depend on it, never the
//! other way.

pub mod calendar;
pub mod mesh;

pub use calendar::Calendar;
pub use mesh::{default_shape, Contention, Mesh, MeshConfig, MeshStats, Message};
