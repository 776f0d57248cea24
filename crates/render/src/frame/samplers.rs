//! The frame's samplers, by what they read, and the render option that
//! forces their filter ([`FilterOverride`], [`FrameConfig::texture_filter`]):
//! texture unit studies (NBTC) measure a frame in one filter mode, as the
//! NBTC slides' mRPsim ran a whole benchmark in nearest, bilinear or
//! trilinear.

use serde::{Deserialize, Serialize};

use crate::sampler::{Filter, Sampler, Wrap};

use super::FrameConfig;

/// A filter every sample whose filter is a quality choice takes instead of
/// the one the frame authored ([`FrameConfig::texture_filter`]).
///
/// **Forced** (the filter is a quality choice):
/// - material textures ([`Samplers::material`], [`FrameConfig::sampler`],
///   anisotropic by default): the G-buffer, forward, transparent, particle
///   and reflection passes, alpha-tested shadow casters, the scene's own
///   interface. Wrap modes and LOD bias stay; no forced filter is
///   anisotropic, so the probes go;
/// - screen-space reads between texels or at another size
///   ([`Samplers::screen`], bilinear and clamped as authored): the bloom
///   and luminance chains, tone mapping's and the display's bloom, blurs,
///   copies, depth of field, motion blur, FXAA, the lighting pass's
///   ambient occlusion, the materials' reflection and refraction reads,
///   the HUD's atlas.
///
/// **Never forced** (exact reads, where filtering would blend values that
/// must be read one by one):
/// - texel loads (`Fragments::load`; `FilterKind::Fetch` requests): the
///   G-buffer, depth, HDR colour at the pixel's own texel;
/// - point samples of depth or normals that are compared or tested texel
///   by texel ([`Samplers::exact`]; `FilterKind::Nearest` requests): the
///   shadow map lookup (a depth comparison: averaging stored depths before
///   comparing is not percentage-closer filtering) and SSAO's depth and
///   normal taps.
///
/// The filters keep the sampler's meaning ([`crate::sampler`]):
/// `Nearest` is [`Filter::Point`] (the nearest texel of the nearest
/// level, 1 tap), `Bilinear` is [`Filter::Bilinear`] (2x2 texels of the
/// nearest level, as `GL_LINEAR_MIPMAP_NEAREST`: 4 taps), `Trilinear` is
/// [`Filter::Trilinear`] (2x2 texels in each of the two levels around the
/// LOD, blended: 8 taps, or 4 where there is one level to read: an LOD
/// with no fraction, the last level, a render target's only level).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FilterOverride {
    /// Each sampler's own filter.
    #[default]
    AsAuthored,
    Nearest,
    Bilinear,
    Trilinear,
}

impl FilterOverride {
    /// Every override, the default first.
    pub const ALL: [FilterOverride; 4] = [
        FilterOverride::AsAuthored,
        FilterOverride::Nearest,
        FilterOverride::Bilinear,
        FilterOverride::Trilinear,
    ];

    /// Its name on the command line and in trace headers.
    pub fn name(self) -> &'static str {
        match self {
            FilterOverride::AsAuthored => "as-authored",
            FilterOverride::Nearest => "nearest",
            FilterOverride::Bilinear => "bilinear",
            FilterOverride::Trilinear => "trilinear",
        }
    }

    /// Whether it forces nothing.
    pub fn is_as_authored(&self) -> bool {
        *self == FilterOverride::AsAuthored
    }

    /// The filter it forces (`None`: none).
    pub fn filter(self) -> Option<Filter> {
        match self {
            FilterOverride::AsAuthored => None,
            FilterOverride::Nearest => Some(Filter::Point),
            FilterOverride::Bilinear => Some(Filter::Bilinear),
            FilterOverride::Trilinear => Some(Filter::Trilinear),
        }
    }

    /// `sampler` with the forced filter (everything else kept), or as it
    /// is.
    pub fn apply(self, sampler: Sampler) -> Sampler {
        match self.filter() {
            Some(filter) => Sampler { filter, ..sampler },
            None => sampler,
        }
    }
}

impl std::fmt::Display for FilterOverride {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The samplers a frame's shaders use whose filter
/// [`FrameConfig::texture_filter`] forces (see [`FilterOverride`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Samplers {
    /// Material textures.
    pub material: Sampler,
    /// Screen-space reads between texels or at another size: bilinear,
    /// clamped, as authored.
    pub screen: Sampler,
}

impl Samplers {
    /// Exact reads (shadow map lookups, SSAO's depth and normal taps):
    /// point, clamped, whatever [`FrameConfig::texture_filter`] says.
    pub fn exact() -> Sampler {
        Sampler::new(Filter::Point).with_wrap(Wrap::Clamp, Wrap::Clamp)
    }
}

impl FrameConfig {
    /// The samplers of its frames, with [`FrameConfig::texture_filter`]
    /// applied.
    pub fn samplers(&self) -> Samplers {
        let force = self.texture_filter;
        Samplers {
            material: force.apply(self.sampler),
            screen: force.apply(Sampler::new(Filter::Bilinear).with_wrap(Wrap::Clamp, Wrap::Clamp)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn as_authored_keeps_every_sampler_and_a_forced_filter_changes_the_filter_only() {
        let filters = [
            Filter::Point,
            Filter::Bilinear,
            Filter::Trilinear,
            Filter::Anisotropic,
        ];
        for filter in filters {
            let s = Sampler {
                lod_bias: 0.5,
                ..Sampler::new(filter)
                    .with_wrap(Wrap::MirroredRepeat, Wrap::Clamp)
                    .with_max_aniso(4)
            };
            assert_eq!(FilterOverride::AsAuthored.apply(s), s);
            for o in &FilterOverride::ALL[1..] {
                let forced = o.apply(s);
                assert_eq!(Some(forced.filter), o.filter());
                assert_eq!(Sampler { filter, ..forced }, s, "{o}");
            }
        }
        let cfg = FrameConfig::default();
        assert_eq!(cfg.texture_filter, FilterOverride::AsAuthored);
        assert_eq!(cfg.samplers().material, cfg.sampler);
        assert_eq!(cfg.samplers().screen.filter, Filter::Bilinear);
        let forced = FrameConfig {
            texture_filter: FilterOverride::Nearest,
            ..cfg
        };
        assert_eq!(forced.samplers().material.filter, Filter::Point);
        assert_eq!(forced.samplers().screen.filter, Filter::Point);
    }
}
