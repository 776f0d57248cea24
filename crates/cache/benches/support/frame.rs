//! The benchmark trace of `policies.rs`: 10 million accesses shaped like a
//! frame's LLC traffic, from a seeded RNG.

use gfxcache_trace::{Access, Op, Stream};

use super::trace::{access, Rng};

const N: usize = 10_000_000;
const BLOCK: u64 = 64;

/// The benchmark trace (deterministic).
pub fn frame_trace() -> Vec<Access> {
    const TEX: u64 = 0x1_0000_0000;
    const RT: u64 = 0x2000_0000;
    const Z: u64 = 0x3000_0000;
    const VTX: u64 = 0x4000_0000;
    const DISPLAY: u64 = 0x5000_0000;
    let tex_blocks: u64 = (64 << 20) / BLOCK;
    let surface_blocks: u64 = (8 << 20) / BLOCK;
    let vtx_blocks: u64 = (2 << 20) / BLOCK;
    let mut rng = Rng::seeded(0x5eed);
    let (mut pixel, mut display) = (0u64, 0u64);
    let mut out = Vec::with_capacity(N);
    while out.len() < N {
        match rng.below(100) {
            // Texture: a Zipf-like pick (u^3 puts half the picks in the
            // hottest eighth), scattered over the 64 MiB by an odd
            // multiplier (a bijection modulo 2^20), then a short run of
            // neighbouring texels.
            0..=49 => {
                let u = rng.unit();
                let rank = (u * u * u * tex_blocks as f64) as u64;
                let blk = rank.wrapping_mul(0x9E37_79B1) & (tex_blocks - 1);
                let run = 1 + rng.below(3);
                for i in 0..run {
                    let b = (blk + i) & (tex_blocks - 1);
                    out.push(access(
                        TEX + b * BLOCK + rng.below(4) * 16,
                        Stream::Tex,
                        Op::Read,
                    ));
                }
            }
            // Colour and depth: read-modify-write of the next block of each
            // surface, in raster order.
            50..=84 => {
                let b = pixel % surface_blocks;
                pixel += 1;
                out.push(access(Z + b * BLOCK, Stream::Z, Op::Read));
                out.push(access(Z + b * BLOCK, Stream::Z, Op::Write));
                out.push(access(RT + b * BLOCK, Stream::Rt, Op::Read));
                out.push(access(RT + b * BLOCK, Stream::Rt, Op::Write));
            }
            85..=94 => {
                let b = rng.below(vtx_blocks);
                out.push(access(VTX + b * BLOCK, Stream::Vtx, Op::Read));
            }
            _ => {
                let b = display % surface_blocks;
                display += 1;
                out.push(access(DISPLAY + b * BLOCK, Stream::Display, Op::Write));
            }
        }
    }
    out.truncate(N);
    out
}
