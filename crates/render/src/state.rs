//! Pipeline state: depth, stencil, blending, colour write masks, culling.
//!
//! Why it is shaped this way: these are the fixed-function settings that
//! decide which of the `hiz`, `z`, `stc` and `rt` accesses a fragment
//! makes, so they follow the Direct3D/Vulkan model closely:
//!
//! - **Depth**: a [`CompareFunc`] and a write enable. The test runs *early*
//!   (before shading, so killed fragments are never shaded) unless the
//!   fragment shader writes depth, which forces *late* Z (after shading)
//!   exactly as on hardware. `Always` without writes means no depth traffic
//!   at all.
//! - **Stencil**: reference, read and write masks and, per face
//!   ([`Quad::front_facing`](crate::Quad)), a compare function and the ops
//!   for stencil-fail, depth-fail and pass (two-sided stencil).
//! - **Blend** per render target: off, source-alpha / one-minus-source-alpha
//!   ("over"), or additive (one, one). Blending needs the destination, so it
//!   makes the pipeline read the render target; so does a partial colour
//!   write mask (the untouched channels must be kept).
//! - Up to [`MAX_TARGETS`] = 8 render targets (MRT).

use crate::raster::{CullMode, FrontFace};

/// Most simultaneous colour render targets.
pub const MAX_TARGETS: usize = 8;

/// How a new value compares with the stored one: `new FUNC stored`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum CompareFunc {
    Never,
    #[default]
    Less,
    LessEqual,
    Equal,
    Greater,
    GreaterEqual,
    NotEqual,
    Always,
}

impl CompareFunc {
    /// Whether `new FUNC stored` holds.
    pub fn test<T: PartialOrd>(self, new: T, stored: T) -> bool {
        match self {
            CompareFunc::Never => false,
            CompareFunc::Less => new < stored,
            CompareFunc::LessEqual => new <= stored,
            CompareFunc::Equal => new == stored,
            CompareFunc::Greater => new > stored,
            CompareFunc::GreaterEqual => new >= stored,
            CompareFunc::NotEqual => new != stored,
            CompareFunc::Always => true,
        }
    }
}

/// Depth test and write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DepthState {
    pub func: CompareFunc,
    pub write: bool,
}

impl Default for DepthState {
    /// `Less` with writes: the usual opaque-geometry state.
    fn default() -> DepthState {
        DepthState {
            func: CompareFunc::Less,
            write: true,
        }
    }
}

impl DepthState {
    /// No depth test and no writes: no depth traffic.
    pub const DISABLED: DepthState = DepthState {
        func: CompareFunc::Always,
        write: false,
    };

    /// Whether the stored depth must be read (the test needs it).
    pub fn reads(&self) -> bool {
        self.func != CompareFunc::Always
    }

    /// Whether the depth buffer is touched at all.
    pub fn enabled(&self) -> bool {
        self.reads() || self.write
    }
}

/// What happens to a stored stencil value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum StencilOp {
    #[default]
    Keep,
    Zero,
    Replace,
    IncrSat,
    DecrSat,
    Invert,
    IncrWrap,
    DecrWrap,
}

impl StencilOp {
    /// The new value for stored `s` and reference `r` (before the write mask).
    pub fn apply(self, s: u8, r: u8) -> u8 {
        match self {
            StencilOp::Keep => s,
            StencilOp::Zero => 0,
            StencilOp::Replace => r,
            StencilOp::IncrSat => s.saturating_add(1),
            StencilOp::DecrSat => s.saturating_sub(1),
            StencilOp::Invert => !s,
            StencilOp::IncrWrap => s.wrapping_add(1),
            StencilOp::DecrWrap => s.wrapping_sub(1),
        }
    }
}

/// Stencil test and ops of one face.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct StencilFace {
    /// `(ref & read_mask) FUNC (stored & read_mask)`.
    pub func: CompareFunc,
    /// Stencil test failed.
    pub fail: StencilOp,
    /// Stencil passed, depth failed.
    pub zfail: StencilOp,
    /// Both passed.
    pub pass: StencilOp,
}

impl StencilFace {
    /// Always pass, keep everything.
    pub const KEEP: StencilFace = StencilFace {
        func: CompareFunc::Always,
        fail: StencilOp::Keep,
        zfail: StencilOp::Keep,
        pass: StencilOp::Keep,
    };

    /// The same ops on either outcome of a test with `func`.
    pub fn new(func: CompareFunc, pass: StencilOp) -> StencilFace {
        StencilFace {
            func,
            fail: StencilOp::Keep,
            zfail: StencilOp::Keep,
            pass,
        }
    }
}

/// The stencil test; disabled means no stencil traffic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StencilState {
    pub enabled: bool,
    pub reference: u8,
    pub read_mask: u8,
    pub write_mask: u8,
    pub front: StencilFace,
    pub back: StencilFace,
}

impl Default for StencilState {
    fn default() -> StencilState {
        StencilState {
            enabled: false,
            reference: 0,
            read_mask: 0xff,
            write_mask: 0xff,
            front: StencilFace::KEEP,
            back: StencilFace::KEEP,
        }
    }
}

impl StencilState {
    /// Enabled, both faces doing `face`, full masks.
    pub fn both(reference: u8, face: StencilFace) -> StencilState {
        StencilState {
            enabled: true,
            reference,
            front: face,
            back: face,
            ..StencilState::default()
        }
    }

    pub fn face(&self, front_facing: bool) -> &StencilFace {
        if front_facing {
            &self.front
        } else {
            &self.back
        }
    }

    /// Whether the stencil test passes against `stored`.
    pub fn test(&self, face: &StencilFace, stored: u8) -> bool {
        face.func
            .test(self.reference & self.read_mask, stored & self.read_mask)
    }

    /// `stored` after `op`, through the write mask.
    pub fn update(&self, op: StencilOp, stored: u8) -> u8 {
        let v = op.apply(stored, self.reference);
        (stored & !self.write_mask) | (v & self.write_mask)
    }

    /// Whether a depth failure can change the stencil (HiZ may then not
    /// drop fragments before the stencil sees them).
    pub fn depth_fail_writes(&self) -> bool {
        self.enabled
            && self.write_mask != 0
            && (self.front.zfail != StencilOp::Keep || self.back.zfail != StencilOp::Keep)
    }
}

/// Colour blending of one render target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Blend {
    /// The fragment's colour replaces the target's.
    #[default]
    Off,
    /// `src * src.a + dst * (1 - src.a)` for RGB and
    /// `src.a + dst.a * (1 - src.a)` for alpha.
    Alpha,
    /// `src + dst` (one, one).
    Additive,
}

impl Blend {
    pub fn apply(self, src: [f32; 4], dst: [f32; 4]) -> [f32; 4] {
        match self {
            Blend::Off => src,
            Blend::Alpha => {
                let a = src[3];
                [
                    src[0] * a + dst[0] * (1.0 - a),
                    src[1] * a + dst[1] * (1.0 - a),
                    src[2] * a + dst[2] * (1.0 - a),
                    a + dst[3] * (1.0 - a),
                ]
            }
            Blend::Additive => [
                src[0] + dst[0],
                src[1] + dst[1],
                src[2] + dst[2],
                src[3] + dst[3],
            ],
        }
    }
}

/// Colour write mask bits.
pub mod mask {
    pub const R: u8 = 1;
    pub const G: u8 = 2;
    pub const B: u8 = 4;
    pub const A: u8 = 8;
    pub const ALL: u8 = 15;
}

/// Blend and write mask of one render target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TargetState {
    pub blend: Blend,
    /// Bits of [`mask`]; 0 writes nothing (and touches nothing).
    pub write_mask: u8,
}

impl Default for TargetState {
    fn default() -> TargetState {
        TargetState {
            blend: Blend::Off,
            write_mask: mask::ALL,
        }
    }
}

impl TargetState {
    /// Whether writing needs the target's current value.
    pub fn reads_destination(&self) -> bool {
        self.write_mask != 0 && (self.blend != Blend::Off || self.write_mask != mask::ALL)
    }

    /// The value to store given the fragment's `src` and the stored `dst`.
    pub fn combine(&self, src: [f32; 4], dst: [f32; 4]) -> [f32; 4] {
        let b = self.blend.apply(src, dst);
        std::array::from_fn(|c| {
            if self.write_mask & (1 << c) != 0 {
                b[c]
            } else {
                dst[c]
            }
        })
    }
}

/// Everything fixed-function about a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct State {
    pub depth: DepthState,
    pub stencil: StencilState,
    /// Per render target, by slot.
    pub targets: [TargetState; MAX_TARGETS],
    pub cull: CullMode,
    pub front_face: FrontFace,
}

impl State {
    /// The same blend on every target.
    pub fn with_blend(mut self, blend: Blend) -> State {
        for t in &mut self.targets {
            t.blend = blend;
        }
        self
    }

    pub fn with_depth(mut self, func: CompareFunc, write: bool) -> State {
        self.depth = DepthState { func, write };
        self
    }

    pub fn with_stencil(mut self, stencil: StencilState) -> State {
        self.stencil = stencil;
        self
    }

    pub fn with_cull(mut self, cull: CullMode) -> State {
        self.cull = cull;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stencil_ops_and_masks() {
        let s = StencilState {
            write_mask: 0x0f,
            ..StencilState::both(
                0xab,
                StencilFace::new(CompareFunc::Equal, StencilOp::Replace),
            )
        };
        assert_eq!(s.update(StencilOp::Replace, 0x50), 0x5b);
        assert_eq!(StencilOp::IncrSat.apply(255, 0), 255);
        assert_eq!(StencilOp::IncrWrap.apply(255, 0), 0);
        assert_eq!(StencilOp::DecrSat.apply(0, 0), 0);
        assert_eq!(StencilOp::DecrWrap.apply(0, 0), 255);
        assert_eq!(StencilOp::Invert.apply(0x0f, 0), 0xf0);
        let t = StencilState {
            read_mask: 0x0f,
            ..s
        };
        assert!(t.test(&t.front, 0xfb));
        assert!(!t.test(&t.front, 0xfa));
    }

    #[test]
    fn blend_equations_and_masks() {
        let src = [1.0, 0.5, 0.0, 0.25];
        let dst = [0.0, 0.5, 1.0, 1.0];
        assert_eq!(Blend::Alpha.apply(src, dst), [0.25, 0.5, 0.75, 1.0]);
        assert_eq!(Blend::Additive.apply(src, dst), [1.0, 1.0, 1.0, 1.25]);
        let t = TargetState {
            blend: Blend::Off,
            write_mask: mask::R | mask::A,
        };
        assert!(t.reads_destination());
        assert_eq!(t.combine(src, dst), [1.0, 0.5, 1.0, 0.25]);
        assert!(!TargetState::default().reads_destination());
        assert!(CompareFunc::LessEqual.test(1, 1) && !CompareFunc::Less.test(1, 1));
    }
}
