//! A seeded synthetic tile-based frame of texture requests: the input of
//! tests and small examples of texture cache models, as `crate::synth` is
//! for traces. Integer arithmetic and [`crate::synth::Rng`], so a seed
//! gives the same records forever.

use crate::synth::Rng;

use super::{FilterKind, TexReqHeader, TexReqRecord, TexRequest};
use crate::ShaderOps;

/// The header of [`frame`]`(fps, tiles, _)`: `fps` processors (at least
/// 1), `tiles` (at least 1) tiles of 16x16 pixels in rows of at most
/// 4096.
pub fn header(fps: u16, tiles: u32) -> TexReqHeader {
    let tiles = tiles.max(1);
    TexReqHeader::new(
        fps.max(1),
        16 * tiles.min(4096),
        16 * tiles.div_ceil(4096),
        16,
    )
}

/// A frame of `tiles` tiles of 16x16 pixels, one bilinear request a pixel,
/// each row of a tile on fragment processor `row % fps`; the requests
/// sample a texture near their tile's position, so nearby tiles reuse
/// blocks and a request's four taps (4-byte texels, rows 1 KiB apart)
/// span one or two 64-byte blocks. Random scalar ALU operations before
/// each request (0-19) and after it (0-9).
pub fn frame(fps: u16, tiles: u32, seed: u64) -> Vec<TexReqRecord> {
    let mut rng = Rng::new(seed);
    let fps = u32::from(fps.max(1));
    let mut out = vec![TexReqRecord::PassBegin { pass: 0 }];
    for tile in 0..tiles {
        out.push(TexReqRecord::TileBegin { tile });
        for px in 0..256u32 {
            let fp = ((px / 16) % fps) as u16;
            let base = u64::from(tile) * 4096 + rng.below(16384) * 4;
            let mut q = TexRequest {
                fp,
                x: (px % 16) as u16,
                y: (px / 16) as u16,
                index: 0,
                filter: FilterKind::Bilinear,
                texel_bytes: 4,
                ops: ShaderOps::alu(1, rng.below(20) as u32),
                taps: [0; 8],
                len: 4,
            };
            q.taps[..4].copy_from_slice(&[base, base + 4, base + 1024, base + 1028]);
            out.push(TexReqRecord::Request(q));
            let ops = ShaderOps::alu(1, rng.below(10) as u32);
            out.push(TexReqRecord::FragmentEnd {
                fp,
                x: q.x,
                y: q.y,
                ops,
            });
        }
        out.push(TexReqRecord::TileEnd { tile });
    }
    out.push(TexReqRecord::FrameEnd { frame: 0 });
    out
}
