//! The four streams of the GSPC paper (Section 3): "We partition the LLC
//! accesses into four streams, namely, Z, texture sampler, render targets,
//! and the rest."
//!
//! The trace's finer streams map onto them as follows:
//! - [`Class::Z`]: `z` (depth);
//! - [`Class::Tex`]: `tex` (the texture sampler);
//! - [`Class::Rt`]: `rt` and `display`. Displayable colour is a render
//!   target written by the render-target cache; the paper's GSPC protects it
//!   like every other render target (and `+ucd` leaves it out of the LLC
//!   altogether);
//! - [`Class::Other`]: everything else (`vidx`, `vtx`, `hiz`, `stc`,
//!   `shader`, `other`, `pb-list`, `pb-attr`).
//!
//! Reads and writes are alike: the LLC sees the render caches' misses and
//! write-backs, and a render-target write-back is a render-target access.

use gfxcache_cache::stats::ratio;
use gfxcache_trace::Stream;

/// One of the paper's four streams.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Class {
    Z = 0,
    Tex = 1,
    Rt = 2,
    Other = 3,
}

impl Class {
    pub const COUNT: usize = 4;

    pub const ALL: [Class; Class::COUNT] = [Class::Z, Class::Tex, Class::Rt, Class::Other];

    /// The class of `stream`: a table lookup, no branch per access.
    #[inline(always)]
    pub fn of(stream: Stream) -> Class {
        OF_STREAM[stream.index()]
    }

    pub const fn name(self) -> &'static str {
        match self {
            Class::Z => "z",
            Class::Tex => "tex",
            Class::Rt => "rt",
            Class::Other => "other",
        }
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
}

const OF_STREAM: [Class; Stream::COUNT] = {
    let mut t = [Class::Other; Stream::COUNT];
    t[Stream::Z.index()] = Class::Z;
    t[Stream::Tex.index()] = Class::Tex;
    t[Stream::Rt.index()] = Class::Rt;
    t[Stream::Display.index()] = Class::Rt;
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_stream_has_its_class() {
        for s in Stream::ALL {
            let want = match s {
                Stream::Z => Class::Z,
                Stream::Tex => Class::Tex,
                Stream::Rt | Stream::Display => Class::Rt,
                _ => Class::Other,
            };
            assert_eq!(Class::of(s), want, "{s}");
        }
    }
}

/// Fills per class and how many went in at RRPV 3 (the paper's Figure 8
/// measure), for reports.
#[derive(Clone, Copy, Debug, Default)]
pub struct FillMix {
    fills: [u64; Class::COUNT],
    at_max: [u64; Class::COUNT],
}

impl FillMix {
    #[inline(always)]
    pub fn count(&mut self, class: Class, at_max: bool) {
        self.fills[class.index()] += 1;
        self.at_max[class.index()] += u64::from(at_max);
    }

    /// The fraction of `class`'s fills at the maximum RRPV (0 without fills).
    pub fn ratio(&self, class: Class) -> f64 {
        ratio(self.at_max[class.index()], self.fills[class.index()])
    }

    /// The same over every class.
    pub fn total_ratio(&self) -> f64 {
        ratio(self.at_max.iter().sum(), self.fills.iter().sum())
    }

    /// `z_fills_at_max`, `tex_fills_at_max` and `rt_fills_at_max`, for
    /// reports.
    pub fn report(&self) -> [(&'static str, f64); 3] {
        [
            ("z_fills_at_max", self.ratio(Class::Z)),
            ("tex_fills_at_max", self.ratio(Class::Tex)),
            ("rt_fills_at_max", self.ratio(Class::Rt)),
        ]
    }
}
