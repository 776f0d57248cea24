//! The software GPU of gfxcache: the pipeline stages that turn geometry into
//! pixels and texture samples, and that know the addresses each of them
//! touches.
//!
//! This is the core the rendering passes are built on:
//!
//! - [`math`]: small `f32` vectors and matrices (projection, look-at),
//!   written out by hand so results are the same on every run.
//! - [`raster`]: triangle setup in fixed point, near/far/guard-band clipping,
//!   back-face culling, the top-left fill rule, traversal in 2x2 quads with
//!   per-pixel depth and perspective-correct barycentrics.
//! - [`surface`]: a driver-like address allocator and the tiled layouts of
//!   colour, depth, stencil and hierarchical-Z surfaces.
//! - [`texture`]: mipmapped textures with Morton-ordered texels (and the
//!   block layouts of BC1/BC3) at allocator-given addresses.
//! - [`buffers`]: vertex and index buffers, index/vertex fetch and the
//!   post-transform vertex cache.
//! - [`state`]: depth, stencil, blend, write masks, culling.
//! - [`target`]: colour and depth/stencil targets with their pixels.
//! - [`hiz`]: hierarchical Z bounds and the rule that keeps them conservative.
//! - [`pipeline`]: draws from index fetch to pixels, passes and markers,
//!   every access in issue order, statistics.
//! - [`sampler`]: LOD selection from quad derivatives; point, bilinear,
//!   trilinear and anisotropic filtering; every sample reports the 64 B
//!   texture blocks it read as [`gfxcache_trace::Access`]es on
//!   [`gfxcache_trace::Stream::Tex`].
//!
//! - [`render_caches`]: the GSPC paper's render caches (vertex index,
//!   vertex, HiZ, Z, stencil, render target, three-level texture) in front
//!   of a record sink; their misses and write-backs are the LLC stream.
//! - [`tbr_caches`]: a tile-based GPU's L1s (TCOR Table I: the Vertex
//!   Cache and one texture cache per fragment processor) in front of a
//!   record sink; what leaves them is the L2 request stream.
//! - [`graph`]: frame graphs (passes, targets, what each samples) as
//!   data, and the built-in presets.
//! - [`frame`]: a scene's multi-pass frames on the pipeline; [`scene`]: the
//!   scenes (built-in and loaded from files).
//! - [`session`]: frames of a scene asked for with a small request,
//!   through the caches of its mode to a caller's sink (the consumer side
//!   on a thread of its own), with a serde summary: what `gfxcache render`
//!   and the studies run.
//!
//! Records go to a [`RecordSink`] (`gfxcache-trace`'s; any
//! `FnMut(Record)` is one): accesses and markers in issue order and, in
//! their place, the binned render passes of a tile-based frame (after
//! each render pass's geometry, before its first tile), where a stage in
//! front of the sink may add what a Tiling Engine sends to memory. The
//! renderer itself writes no Parameter Buffer traffic: modelling the
//! Tiling Engine is `gfxcache-tcor`'s, and the command line puts the two
//! together.
//!
//! Everything is deterministic: the same inputs give the same pixels, the
//! same colours and the same addresses, in the same order.
//!
//! Depends on `gfxcache-trace` (records, sinks, binned frames) and
//! `gfxcache-cache` (whose cache engine the render caches run on) only
//! (`tests/it/dependencies.rs` holds it to that). It must never depend on the
//! design crates (tcor, llc, nuca, nbtc), on timing models or on the
//! command line: those consume what this crate emits.

#![forbid(unsafe_code)]

pub mod buffers;
pub mod frame;
pub mod graph;
pub mod hiz;
pub mod math;
pub mod pipeline;
pub mod raster;
pub mod render_caches;
pub mod sampler;
pub mod scene;
pub mod session;
pub mod state;
pub mod storage;
pub mod surface;
pub mod target;
pub mod tbr_caches;
pub mod texture;

pub use gfxcache_trace::{RecordSink, RecordStage};

pub use buffers::{IndexBuffer, IndexFormat, Vertex, VertexBuffer, VertexCache, MAX_ATTRS};
pub use graph::Preset;
pub use hiz::Hiz;
pub use math::{Mat4, Vec2, Vec3, Vec4};
pub use pipeline::{
    unit_of, ColorId, DepthId, Draw, FpAssignment, FragmentOutput, FragmentShader, Fragments,
    Pipeline, Stats, TbrConfig, TbrStats, WritesDepth,
};
pub use raster::{CullMode, FrontFace, Quad, Rasterizer, TriangleStats, Viewport};
pub use render_caches::{CacheShape, RenderCacheConfig, RenderCacheStats, RenderCaches, TexConfig};
pub use sampler::{Derivs, Filter, Lod, Sample, Sampler, Tap, TexView, Wrap};
pub use scene::{
    AlphaMode, Camera, CameraPath, Image, Instance, Light, Material, Mesh, Mirror, Passes, Scene,
    Shading,
};
pub use state::{
    Blend, CompareFunc, DepthState, State, StencilFace, StencilOp, StencilState, TargetState,
    MAX_TARGETS,
};
pub use surface::{Allocator, HizSurface, PixelFormat, Surface};
pub use target::{ColorFormat, ColorTarget, DepthFormat, DepthTarget};
pub use tbr_caches::{TbrCacheConfig, TbrCaches};
pub use texture::{MipLevel, TexFormat, Texture};
