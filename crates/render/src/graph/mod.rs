//! Frame graphs: the structure of a frame (its passes, the targets each
//! writes and samples) as data, and the built-in presets modelled on the
//! public structure of real engines.
//!
//! A scene names the [`Preset`] of the game class it stands for; the frame
//! renderer ([`crate::frame`]) runs it.

use std::fmt;
use std::str::FromStr;

/// A built-in frame structure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Preset {
    /// The renderer's original frame: shadow map, reflection, G-buffer and
    /// deferred lighting (or one forward pass), transparent, bloom, display.
    /// Its passes are switched by [`crate::scene::Passes`].
    #[default]
    Classic,
    /// A DirectX 10/11 deferred engine: shadow cascades, G-buffer, SSAO with
    /// separable blurs, deferred lighting, sky, transparent and soft
    /// particles, a refraction copy, the luminance chain, bloom, depth of
    /// field, tone mapping, FXAA, UI.
    Dx11Deferred,
    /// A DirectX 9-era forward engine: one shadow map, forward lighting,
    /// a reflection render-to-texture, bloom, tone mapping, UI.
    Dx9Forward,
    /// A mobile game's frame: one forward pass (optionally a small shadow
    /// map) and UI.
    MobileForward,
    /// A mobile deferred-lite frame: a thin G-buffer and one light pass at
    /// mobile sizes, then UI.
    MobileDeferredLite,
}

impl Preset {
    pub const ALL: [Preset; 5] = [
        Preset::Classic,
        Preset::Dx11Deferred,
        Preset::Dx9Forward,
        Preset::MobileForward,
        Preset::MobileDeferredLite,
    ];

    /// The name scene files and the command line use.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Classic => "classic",
            Preset::Dx11Deferred => "dx11-deferred",
            Preset::Dx9Forward => "dx9-forward",
            Preset::MobileForward => "mobile-forward",
            Preset::MobileDeferredLite => "mobile-deferred-lite",
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preset {
    type Err = String;

    fn from_str(s: &str) -> Result<Preset, String> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| {
                let known: Vec<&str> = Preset::ALL.iter().map(|p| p.name()).collect();
                format!("unknown frame preset {s:?} (known: {})", known.join(", "))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_list_the_known() {
        for p in Preset::ALL {
            assert_eq!(p.name().parse::<Preset>(), Ok(p));
        }
        let e = "dx12".parse::<Preset>().unwrap_err();
        assert!(e.contains("dx12") && e.contains("mobile-forward"), "{e}");
    }
}
