//! The machine's parts by hand, one module each (one test binary).

mod clocks;
mod dram;
mod l2;
mod mesh;
mod texture_cache;
