//! What one pixel processor asks of its texture unit, in order: texture
//! requests with the shader work before each, and each fragment's work
//! after its last request.

use gfxcache_trace::texreq::TexReqRecord;

use crate::config::MAX_TEXELS;

/// One texture request of one fragment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitRequest {
    /// The fragment's pixel: results for the same (x, y) complete in
    /// input order.
    pub x: u16,
    pub y: u16,
    /// Texel byte addresses in tap order; `taps[..len]` hold them.
    pub taps: [u64; MAX_TEXELS],
    pub len: u8,
    /// Shader instructions the fragment runs before it (after its previous
    /// request's result, or from its start).
    pub alu_before: u32,
}

impl UnitRequest {
    /// The request's texel addresses.
    pub fn addresses(&self) -> &[u64] {
        &self.taps[..self.len as usize]
    }
}

/// A fragment's shader work after its last request's result; it ends the
/// fragment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Work {
    /// Shader instructions.
    pub cycles: u32,
}

/// One event of a pixel processor's input. A fragment is the requests up
/// to and including the next [`UnitEvent::FragmentEnd`] (or the end of
/// the input).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitEvent {
    Request(UnitRequest),
    FragmentEnd(Work),
}

/// A `.gtq` stream split into one event list per fragment processor
/// (`fp`), each in the stream's order: a `Request`'s `alu` is the work
/// before it, a `FragmentEnd`'s the work after the fragment's last
/// request. Markers (passes, tiles, frames) are dropped: in this model
/// the processors run independently and nothing waits at a tile's end.
pub fn unit_events<I>(records: I) -> Vec<Vec<UnitEvent>>
where
    I: IntoIterator<Item = TexReqRecord>,
{
    let mut units: Vec<Vec<UnitEvent>> = Vec::new();
    for record in records {
        let (fp, event) = match record {
            TexReqRecord::Request(r) => (
                usize::from(r.fp),
                UnitEvent::Request(UnitRequest {
                    x: r.x,
                    y: r.y,
                    taps: r.taps,
                    len: r.len,
                    alu_before: r.alu,
                }),
            ),
            TexReqRecord::FragmentEnd { fp, alu, .. } => (
                usize::from(fp),
                UnitEvent::FragmentEnd(Work { cycles: alu }),
            ),
            _ => continue,
        };
        if units.len() <= fp {
            units.resize_with(fp + 1, Vec::new);
        }
        units[fp].push(event);
    }
    units
}
