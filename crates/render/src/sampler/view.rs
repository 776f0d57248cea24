//! What a sampler reads ([`TexView`]): a mipmapped texture, or a colour or
//! depth render target read in place at its own surface's addresses, with
//! the sizes, texel values and texel addresses the filters need.

use crate::target::{ColorTarget, DepthTarget};
use crate::texture::Texture;

/// What a sampler reads: a mipmapped texture, or a render target sampled
/// in place at its surface's addresses (render-to-texture).
#[derive(Clone, Copy, Debug)]
pub enum TexView<'a> {
    Texture(&'a Texture),
    Color(&'a ColorTarget),
    Depth(&'a DepthTarget),
}

impl<'a> From<&'a Texture> for TexView<'a> {
    fn from(t: &'a Texture) -> TexView<'a> {
        TexView::Texture(t)
    }
}

impl<'a> From<&'a ColorTarget> for TexView<'a> {
    fn from(t: &'a ColorTarget) -> TexView<'a> {
        TexView::Color(t)
    }
}

impl<'a> From<&'a DepthTarget> for TexView<'a> {
    fn from(t: &'a DepthTarget) -> TexView<'a> {
        TexView::Depth(t)
    }
}

impl TexView<'_> {
    pub fn width(&self) -> u32 {
        self.level_size(0).0
    }

    pub fn height(&self) -> u32 {
        self.level_size(0).1
    }

    /// Mip levels (1 for a render target).
    pub fn level_count(&self) -> u32 {
        match self {
            TexView::Texture(t) => t.level_count(),
            TexView::Color(_) | TexView::Depth(_) => 1,
        }
    }

    /// Width and height of `level`.
    #[inline]
    pub fn level_size(&self, level: u32) -> (u32, u32) {
        match self {
            TexView::Texture(t) => {
                let l = t.level(level);
                (l.width, l.height)
            }
            TexView::Color(c) => (c.width(), c.height()),
            TexView::Depth(d) => (d.width(), d.height()),
        }
    }

    /// The value of texel `(x, y)` of `level`: unorm formats in `[0, 1]`,
    /// RGBA16F as stored, depth in every channel.
    #[inline]
    pub fn fetch(&self, level: u32, x: u32, y: u32) -> [f32; 4] {
        match self {
            TexView::Texture(t) => t.texel(level, x, y).map(|v| v as f32 / 255.0),
            TexView::Color(c) => c.read(x, y),
            TexView::Depth(d) => {
                let z = d.depth(x, y);
                [z, z, z, 1.0]
            }
        }
    }

    /// Bytes of one texel (of one BC block for block-compressed
    /// textures).
    pub fn texel_bytes(&self) -> u32 {
        match self {
            TexView::Texture(t) => t.format.block_bytes(),
            TexView::Color(c) => c.surface.format.bytes(),
            TexView::Depth(d) => d.surface.format.bytes(),
        }
    }

    /// Address of the first byte of texel `(x, y)` of `level` (its element
    /// for block-compressed textures).
    #[inline]
    pub fn texel_addr(&self, level: u32, x: u32, y: u32) -> u64 {
        match self {
            TexView::Texture(t) => t.texel_addr(level, x, y),
            TexView::Color(c) => c.surface.addr_of(x, y),
            TexView::Depth(d) => d.surface.addr_of(x, y),
        }
    }
}
