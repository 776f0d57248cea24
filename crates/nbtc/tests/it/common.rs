//! Builders for hand-made inputs.
#![allow(dead_code)]

use gfxcache_nbtc::{UnitEvent, UnitRequest, Work, MAX_TEXELS};
use gfxcache_trace::texreq::{FilterKind, TexReqRecord, TexRequest};
use gfxcache_trace::ShaderOps;

/// Block size of the tests' configurations.
pub const BLOCK: u64 = 32;

/// A request at (x, y) for texels in `blocks` (one texel at the start of
/// each block), after `alu` scalar operations.
pub fn req(x: u16, y: u16, alu: u32, blocks: &[u64]) -> UnitEvent {
    let mut taps = [0u64; MAX_TEXELS];
    for (t, b) in taps.iter_mut().zip(blocks) {
        *t = b * BLOCK;
    }
    UnitEvent::Request(UnitRequest {
        x,
        y,
        taps,
        len: blocks.len() as u8,
        ops_before: ShaderOps::alu(1, alu),
    })
}

/// A fragment's end after `alu` scalar operations.
pub fn end(alu: u32) -> UnitEvent {
    UnitEvent::FragmentEnd(Work {
        ops: ShaderOps::alu(1, alu),
    })
}

/// A `.gtq` record: a one-texel nearest request of processor `fp` at
/// pixel (x, 0) for byte `addr`, after `alu` scalar operations.
pub fn record(fp: u16, x: u16, alu: u32, addr: u64) -> TexReqRecord {
    let mut taps = [0u64; MAX_TEXELS];
    taps[0] = addr;
    TexReqRecord::Request(TexRequest {
        fp,
        x,
        y: 0,
        index: 0,
        filter: FilterKind::Nearest,
        texel_bytes: 4,
        ops: ShaderOps::alu(1, alu),
        taps,
        len: 1,
    })
}
