//! The designs composed on the one GPU machine (issue 34): the NBTC's miss
//! handling (the blocking cache, the NBTC, an MSHR cache, Igehy's
//! prefetching cache; `gfxcache-nbtc`) as the texture units of the
//! fragment processors, whose texture caches are placed by DTM-NUCA's
//! organizations (private, D-NUCA, DTM-NUCA centralized and distributed,
//! S-NUCA, ideal shared; `gfxcache-nuca`) on the machine of
//! `gfxcache-gpu`: its mesh, bus, banked L2 and DRAM latency.
//!
//! Two design crates never depend on each other; this crate is where they
//! meet. One concept per file:
//!
//! - [`machine`]: a DTM-NUCA organization on the GPU machine as the
//!   texture units' memory ([`machine::unit_machine`]).
//! - [`study`]: the composed study, every miss handling under every
//!   placement on one frame's texture requests ([`study::ComposeConfig`]
//!   in, [`study::ComposeReport`] out, progress by callback), its report
//!   as data (tables, figures, page; `gfxcache-report`) and its mean over
//!   a suite's scenes.
//!
//! Depends on `cache` (progress, threads, suites), `gpu`, `machine`,
//! `nbtc`, `nuca`, `report` and `trace` only; never on rendering or the
//! command line.

pub mod machine;
pub mod study;

pub use machine::unit_machine;
pub use study::mean::ComposeMean;
pub use study::{ComposeConfig, ComposeError, ComposeReport, ComposedRun};
