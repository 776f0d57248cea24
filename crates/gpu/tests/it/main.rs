//! The machine's parts by hand, one module each (one test binary).

mod clocks;
mod l2;
mod mesh;
mod texture_cache;
