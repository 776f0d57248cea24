//! NBTC, the non-blocking texture cache (Hong, Woo, Seo, Kim, Kwon, Jung,
//! Lee and Park, Sejong University and Samsung SAIT, 2013; slides only):
//! a pixel processor's texture unit whose L1 keeps taking requests while
//! misses are handled, with a Retry Buffer (results back in order per
//! screen coordinate), a Waiting List Buffer (an inverted MSHR holding
//! every texel of a waiting request) and a Block Address Buffer (each
//! missing block fetched once); beside it the blocking texture cache it is
//! measured against, on the same L1, memory and shader work; and for
//! context the designs a reader compares it with: a conventional MSHR
//! cache (gem5, Emerald) and Igehy's prefetching texture cache (as
//! GPGPU-Sim implements it).
//!
//! Each pixel processor's unit runs cycle by cycle ([`TextureUnit`]); a
//! frame's `.gtq` requests stream through many configurations' units in
//! parallel ([`Replay`]); [`study`] is `gfxcache nbtc`. The
//! specification is `shared/specs/nbtc.md`; its timing model is ours and
//! named so. One concept per file, in the slides' words:
//!
//! - [`config`]: [`NbtcConfig`] (the slides' values as defaults, ours
//!   marked), [`Mode`], [`MemoryPath`] and [`NbtcConfig::check`].
//! - [`event`]: the input, [`UnitRequest`], [`Work`], [`UnitEvent`],
//!   [`unit_events`] from a `.gtq` record stream, and [`UnitInput`], the
//!   window of whole fragments a unit reads.
//! - the L1 texture cache (LRU, probe and fill apart) is the GPU
//!   machine's texture cache ([`gfxcache_gpu::TextureCache`]).
//! - [`retry_buffer`], [`waiting_list_buffer`], [`block_address_buffer`]:
//!   the three buffers.
//! - [`miss_handling`]: each scheme of [`Mode`] in a file of its own (the
//!   blocking cache, the NBTC, MSHRs, the prefetching cache), behind the
//!   small [`miss_handling::MissHandling`] interface the unit asks.
//! - [`pixel_processor`]: the shader side, fragments in flight.
//! - [`quad`]: [`RequestUnit`], what a unit takes as one request, and
//!   [`QuadGatherer`], a quad's requests as one fragment's.
//! - [`texture_unit`]: [`TextureUnit`], the cycle loop, resumable as its
//!   input streams in.
//! - [`replay`]: [`Replay`], many configurations' units over one frame,
//!   in parallel, streamed; the units of a run on a shared DRAM in step.
//! - [`stats`]: [`UnitStats`], [`Occupancy`].
//! - [`storage`]: [`Storage`], what the three buffers cost in bits, with
//!   our [`FieldBits`] (the slides give the fields, not their widths).
//! - [`study`]: the study (`gfxcache nbtc`): [`study::NbtcStudyConfig`]
//!   in, [`study::NbtcReport`] out; [`study::NbtcMean`] over a suite.
//!
//! Depends on `gfxcache-cache` (the L1's geometry), `gfxcache-gpu` (the
//! L1), `gfxcache-mem` (the
//! [`MissQueue`](gfxcache_mem::MissQueue) under the Block Address Buffer,
//! and the [`Dram`](gfxcache_mem::Dram) of a shared memory) and
//! `gfxcache-trace` (the `.gtq` records) only; never on `render`, another
//! design crate or `cli`, and it never prints or touches a file.

pub mod block_address_buffer;
pub mod config;
pub mod error;
pub mod event;
pub mod l1_port;
pub mod miss_handling;
pub mod pixel_processor;
pub mod quad;
pub mod replay;
pub mod retry_buffer;
pub mod stats;
pub mod storage;
pub mod study;
pub mod texture_unit;
pub mod waiting_list_buffer;

pub use block_address_buffer::BlockAddressBuffer;
pub use config::{MemoryPath, Mode, NbtcConfig, MAX_TEXELS};
pub use error::NbtcError;
pub use event::{unit_events, UnitEvent, UnitInput, UnitRequest, Work};
pub use l1_port::{L1Port, OwnL1, PlacedL1};
pub use quad::{QuadGatherer, RequestUnit};
pub use replay::{
    MachineReplay, Replay, RunResult, TileTrafficSource, UnitMachine, MACHINE_WINDOW_CYCLES,
};
pub use retry_buffer::RetryBuffer;
pub use stats::{Occupancy, UnitStats};
pub use storage::{FieldBits, Storage};
pub use texture_unit::{Progress, TextureUnit};
pub use waiting_list_buffer::WaitingListBuffer;
