//! How to render frames ([`FrameConfig`]) and why they cannot be
//! ([`FrameError`]).

use crate::pipeline::{BinningConfig, TbrConfig};
use crate::sampler::{Filter, Sampler};
use crate::scene::Passes;
use crate::storage::{human, TooLarge};

use super::FilterOverride;

/// Largest screen or shadow-map side accepted.
pub const MAX_SIZE: u32 = 16384;

/// How to render frames.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameConfig {
    pub width: u32,
    pub height: u32,
    /// `None`: the scene's own [`Scene::passes`](crate::scene::Scene::passes).
    pub passes: Option<Passes>,
    /// `None`: the scene's frame graph (its own, or its preset's).
    pub preset: Option<crate::graph::Preset>,
    /// Side of every shadow map; `None`: the preset's, which follows the
    /// screen height (the classic preset's is 2048² at 1080 lines).
    pub shadow_size: Option<u32>,
    /// Reflection target size relative to the screen, in `(0, 1]`.
    pub reflection_scale: f32,
    /// Bloom levels below full resolution (0 = no bloom chain).
    pub bloom_levels: u32,
    /// How material textures are filtered (as authored; see
    /// [`FrameConfig::texture_filter`]).
    pub sampler: Sampler,
    /// A filter forced on every sample whose filter is a quality choice
    /// (material textures and screen-space filtered reads), never on
    /// exact reads (texel loads, shadow map and SSAO depth taps); the rule
    /// and each call site's side are in [`FilterOverride`]'s
    /// documentation. The default, [`FilterOverride::AsAuthored`], forces
    /// nothing.
    pub texture_filter: FilterOverride,
    /// See the module documentation.
    pub threads: usize,
    /// Bin each pass's triangles to screen tiles as a tile-based GPU's
    /// Polygon List Builder would ([`FrameRenderer::take_binned`](super::FrameRenderer::take_binned)); `None`
    /// bins nothing. Records and pixels do not depend on it.
    pub binning: Option<BinningConfig>,
    /// Render tile by tile, as a tile-based GPU does (`None`: immediate
    /// mode). Each pass's draws into the same targets become one render
    /// pass ([`Pipeline::draw_tiled`](crate::pipeline::Pipeline::draw_tiled)), binned with this configuration's
    /// tiles and order whatever [`FrameConfig::binning`] says. The pixels
    /// are those of immediate mode.
    pub tbr: Option<TbrConfig>,
}

impl Default for FrameConfig {
    fn default() -> FrameConfig {
        FrameConfig {
            width: 1920,
            height: 1080,
            passes: None,
            preset: None,
            shadow_size: None,
            reflection_scale: 0.5,
            bloom_levels: 5,
            sampler: Sampler::new(Filter::Anisotropic).with_max_aniso(16),
            texture_filter: FilterOverride::AsAuthored,
            threads: 1,
            binning: None,
            tbr: None,
        }
    }
}

impl FrameConfig {
    /// The default configuration at `width` x `height`.
    pub fn new(width: u32, height: u32) -> FrameConfig {
        FrameConfig {
            width,
            height,
            ..FrameConfig::default()
        }
    }

    /// Why frames of this configuration cannot be rendered, whatever the
    /// scene: what [`FrameRenderer::new`](super::FrameRenderer::new) refuses
    /// before anything is made.
    pub fn check(&self) -> Result<(), FrameError> {
        let bad = |m: String| Err(FrameError::Config(m));
        if !(1..=MAX_SIZE).contains(&self.width) || !(1..=MAX_SIZE).contains(&self.height) {
            return bad(format!(
                "resolution {}x{} out of range (1 to {MAX_SIZE} per side)",
                self.width, self.height
            ));
        }
        if let Some(s) = self.shadow_size {
            if !(1..=MAX_SIZE).contains(&s) {
                return bad(format!(
                    "shadow map size {s} out of range (1 to {MAX_SIZE})"
                ));
            }
        }
        if !(self.reflection_scale > 0.0 && self.reflection_scale <= 1.0) {
            return bad(format!(
                "reflection scale {} not in (0, 1]",
                self.reflection_scale
            ));
        }
        if let Some(t) = &self.tbr {
            t.check().map_err(FrameError::Config)?;
        }
        if let Some(b) = &self.binning {
            b.check().map_err(FrameError::Config)?;
        }
        if self.bloom_levels > 12 {
            return bad(format!("{} bloom levels (at most 12)", self.bloom_levels));
        }
        Ok(())
    }
}

/// Why a frame cannot be rendered.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    #[error("bad frame configuration: {0}")]
    Config(String),
    #[error("bad scene: {0}")]
    Scene(String),
    /// A table the frame needs (a render target, its HiZ, the picture) is
    /// larger than the memory there is.
    #[error("out of memory: {what} needs {}; try a smaller resolution", human(*bytes))]
    OutOfMemory { what: String, bytes: u64 },
    /// Asked to stop ([`gfxcache_cache::progress::request_stop`]) before
    /// the frames were done: the error of kind
    /// [`std::io::ErrorKind::Interrupted`] that
    /// [`gfxcache_cache::progress::interrupted`] makes, with its message.
    #[error(transparent)]
    Interrupted(std::io::Error),
}

impl FrameError {
    /// [`FrameError::Interrupted`], with the message every computation
    /// asked to stop ends with.
    pub fn interrupted() -> FrameError {
        FrameError::Interrupted(gfxcache_cache::progress::interrupted())
    }

    pub fn is_interrupted(&self) -> bool {
        matches!(self, FrameError::Interrupted(_))
    }

    pub(super) fn out_of_memory(what: String, e: TooLarge) -> FrameError {
        FrameError::OutOfMemory {
            what,
            bytes: e.bytes,
        }
    }
}
