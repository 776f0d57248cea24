//! What one pixel processor asks of its texture unit, in order: texture
//! requests with the shader work before each, and each fragment's work
//! after its last request; and [`UnitInput`], the window of whole
//! fragments a unit reads, so that a frame streams through the units.

use std::collections::VecDeque;

use gfxcache_trace::texreq::TexReqRecord;
use gfxcache_trace::ShaderOps;

use crate::config::MAX_TEXELS;
use crate::error::NbtcError;

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
    /// Shader operations the fragment runs before it (after its previous
    /// request's result, or from its start); the unit's issue model says
    /// what they cost.
    pub ops_before: ShaderOps,
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
    /// Shader operations.
    pub ops: ShaderOps,
}

/// One event of a pixel processor's input. A fragment is the requests up
/// to and including the next [`UnitEvent::FragmentEnd`] (or the end of
/// the input).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitEvent {
    Request(UnitRequest),
    FragmentEnd(Work),
}

impl UnitEvent {
    /// A `.gtq` record's event and its fragment processor; `None` for
    /// markers (passes, tiles, frames): the processors run independently,
    /// and only a GPU machine whose tiles synchronise them puts a tile's
    /// end in their inputs ([`UnitInput::tile_end`]).
    pub fn of_record(record: &TexReqRecord) -> Option<(usize, UnitEvent)> {
        match *record {
            TexReqRecord::Request(ref r) => Some((
                usize::from(r.fp),
                UnitEvent::Request(UnitRequest {
                    x: r.x,
                    y: r.y,
                    taps: r.taps,
                    len: r.len,
                    ops_before: r.ops,
                }),
            )),
            TexReqRecord::FragmentEnd { fp, ops, .. } => {
                Some((usize::from(fp), UnitEvent::FragmentEnd(Work { ops })))
            }
            _ => None,
        }
    }
}

/// A `.gtq` stream split into one event list per fragment processor
/// (`fp`), each in the stream's order: a `Request`'s operations are the
/// work before it, a `FragmentEnd`'s the work after the fragment's last
/// request. It holds the whole frame: [`UnitInput`] streams.
pub fn unit_events<I>(records: I) -> Vec<Vec<UnitEvent>>
where
    I: IntoIterator<Item = TexReqRecord>,
{
    let mut units: Vec<Vec<UnitEvent>> = Vec::new();
    for record in records {
        let Some((fp, event)) = UnitEvent::of_record(&record) else {
            continue;
        };
        if units.len() <= fp {
            units.resize_with(fp + 1, Vec::new);
        }
        units[fp].push(event);
    }
    units
}

/// One pixel processor's input as a window of whole fragments: the
/// driver pushes fragments as it reads them and discards those every run
/// has finished with, so a frame never has to be held. Event and
/// fragment indices are absolute (from the start of the input).
///
/// On a machine whose tiles synchronise its fragment processors, the
/// input also holds each tile's end ([`UnitInput::tile_end`]): a barrier
/// the processor does not admit a fragment past until every processor of
/// the machine has finished the tile ([`crate::TextureUnit::pass_tile_end`]).
///
/// A fragment with no request and no work is not kept: it would take a
/// processor slot and give it back in the same cycle, which changes
/// nothing, and leaving it out bounds how many fragments a cycle can
/// admit (see [`UnitInput::can_advance`]).
#[derive(Clone, Debug, Default)]
pub struct UnitInput {
    /// A ring, so that discarding the oldest moves nothing.
    events: VecDeque<UnitEvent>,
    /// Absolute index of `events[0]`.
    base: usize,
    /// Absolute index one past each fragment's last event, from fragment
    /// `ends_base` on.
    ends: VecDeque<usize>,
    ends_base: usize,
    /// Events of the fragment being gathered (not ended yet).
    open: Vec<UnitEvent>,
    /// Events taken so far, kept or not: errors name them.
    taken: usize,
    /// Each tile end's place: the fragments before it (a frame's few
    /// thousand tiles at most, kept whole).
    tile_ends: Vec<usize>,
    finished: bool,
}

impl UnitInput {
    pub fn new() -> UnitInput {
        UnitInput::default()
    }

    /// A finished input of `events`.
    pub fn whole(events: &[UnitEvent]) -> Result<UnitInput, NbtcError> {
        let mut input = UnitInput::new();
        for &e in events {
            input.push(e)?;
        }
        input.finish();
        Ok(input)
    }

    /// The next event of the input; a fragment is kept once its
    /// `FragmentEnd` arrives.
    pub fn push(&mut self, event: UnitEvent) -> Result<(), NbtcError> {
        let index = self.taken;
        self.taken += 1;
        if let UnitEvent::Request(r) = &event {
            if r.len == 0 || r.len as usize > MAX_TEXELS {
                return Err(NbtcError::Texels { index, len: r.len });
            }
        }
        debug_assert!(!self.finished, "an event after the input finished");
        let end = matches!(event, UnitEvent::FragmentEnd(_));
        self.open.push(event);
        if end {
            self.close_fragment();
        }
        Ok(())
    }

    fn close_fragment(&mut self) {
        let empty = match self.open[..] {
            [] => true,
            [UnitEvent::FragmentEnd(w)] => w.ops.is_none(),
            _ => false,
        };
        if !empty {
            self.events.extend(self.open.drain(..));
            self.ends.push_back(self.base + self.events.len());
        }
        self.open.clear();
    }

    /// A tile ends here: the fragments pushed so far are its (a fragment
    /// without its end is closed as it is).
    pub fn tile_end(&mut self) {
        debug_assert!(!self.finished, "a tile end after the input finished");
        if !self.open.is_empty() {
            self.close_fragment();
        }
        self.tile_ends.push(self.fragments());
    }

    /// The fragments before tile end `tile` (counted from 0), once it is
    /// pushed.
    pub fn tile_end_at(&self, tile: usize) -> Option<usize> {
        self.tile_ends.get(tile).copied()
    }

    /// The fragments a processor that has passed `passed` tile ends may
    /// admit: those before the next tile end, or all pushed so far.
    pub fn admissible(&self, passed: usize) -> usize {
        self.tile_end_at(passed).unwrap_or_else(|| self.fragments())
    }

    /// No more events: a fragment without its end is kept as it is.
    pub fn finish(&mut self) {
        if !self.open.is_empty() {
            self.close_fragment();
        }
        self.finished = true;
    }

    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Whole fragments pushed so far.
    pub fn fragments(&self) -> usize {
        self.ends_base + self.ends.len()
    }

    /// One past the last event of the fragments pushed so far.
    pub fn events_end(&self) -> usize {
        self.base + self.events.len()
    }

    #[inline]
    pub(crate) fn event(&self, index: usize) -> &UnitEvent {
        &self.events[index - self.base]
    }

    /// One past the last event of fragment `fragment`.
    #[inline]
    pub(crate) fn fragment_end(&self, fragment: usize) -> usize {
        self.ends[fragment - self.ends_base]
    }

    /// Whether a processor that has admitted `admitted` fragments, keeps
    /// `in_flight` at once and has passed `passed` tile ends may run its
    /// next cycle: the input is finished, or holds every fragment that
    /// cycle could admit (a slot for each, and one more for the fragment a
    /// result completes within the cycle; an admitted fragment cannot
    /// finish in the cycle that admits it), or the tile end it may not
    /// admit past.
    pub fn can_advance(&self, admitted: usize, in_flight: usize, passed: usize) -> bool {
        self.finished || self.fragments() > admitted + in_flight || passed < self.tile_ends.len()
    }

    /// Forgets the events before `event` and the fragments before
    /// `fragment` (no run needs them any more).
    pub fn discard_before(&mut self, event: usize, fragment: usize) {
        let e = event.saturating_sub(self.base).min(self.events.len());
        self.events.drain(..e);
        self.base += e;
        let f = fragment.saturating_sub(self.ends_base).min(self.ends.len());
        self.ends.drain(..f);
        self.ends_base += f;
    }
}
