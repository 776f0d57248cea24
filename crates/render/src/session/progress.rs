//! How far a session's rendering is, told as it goes: frames done and
//! render-graph passes done, counted where the consumer side takes the
//! records (a pass is done when its `PassEnd` reaches the consumer), so
//! that a bar moves within a frame, not only between frames.

use gfxcache_trace::binned::BinnedPass;
use gfxcache_trace::{Access, Marker, Record, RecordSink};

/// How far a session is. `passes` is the frame graph's passes times the
/// frames; a pass a frame skips (nothing to draw, e.g. no reflection this
/// frame) counts as done when its frame is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenderProgress {
    pub frames_done: u32,
    pub frames: u32,
    pub passes_done: u64,
    pub passes: u64,
}

/// The count behind [`RenderProgress`].
#[derive(Clone, Copy, Debug)]
pub(super) struct Tally {
    frames: u32,
    frames_done: u32,
    passes_per_frame: u64,
    /// `PassEnd`s of the frame under way.
    ends: u64,
}

impl Tally {
    pub(super) fn new(frames: u32, passes_per_frame: usize) -> Tally {
        Tally {
            frames,
            frames_done: 0,
            passes_per_frame: passes_per_frame as u64,
            ends: 0,
        }
    }

    pub(super) fn passes_ended(&mut self, n: u64) -> RenderProgress {
        self.ends += n;
        self.now()
    }

    pub(super) fn frame_done(&mut self) -> RenderProgress {
        self.frames_done += 1;
        self.ends = 0;
        self.now()
    }

    fn now(&self) -> RenderProgress {
        let ppf = self.passes_per_frame;
        RenderProgress {
            frames_done: self.frames_done,
            frames: self.frames,
            passes_done: u64::from(self.frames_done) * ppf + self.ends.min(ppf),
            passes: u64::from(self.frames) * ppf,
        }
    }
}

/// A sink that hands every record on to `sink` and tells `progress` after
/// each `PassEnd` (one dynamic-free call per pass, nothing per access).
pub(super) struct Watched<'a, C, P> {
    pub(super) sink: &'a mut C,
    pub(super) tally: &'a mut Tally,
    pub(super) progress: &'a mut P,
}

impl<C: RecordSink, P: FnMut(RenderProgress)> RecordSink for Watched<'_, C, P> {
    #[inline]
    fn record(&mut self, r: Record) {
        let end = matches!(r, Record::Marker(Marker::PassEnd));
        self.sink.record(r);
        if end {
            (self.progress)(self.tally.passes_ended(1));
        }
    }

    #[inline]
    fn accesses(&mut self, accesses: &[Access]) {
        self.sink.accesses(accesses);
    }

    fn binned(&mut self, pass: &BinnedPass) {
        self.sink.binned(pass);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passes_done_count_the_ends_of_the_frame_under_way_and_whole_frames() {
        let mut t = Tally::new(2, 3);
        assert_eq!(t.passes_ended(1).passes_done, 1);
        assert_eq!(t.passes_ended(1).passes_done, 2);
        // The frame skipped its third pass: done with the frame.
        let p = t.frame_done();
        assert_eq!((p.frames_done, p.passes_done, p.passes), (1, 3, 6));
        // More ends than the graph has passes never run past the frame.
        assert_eq!(t.passes_ended(5).passes_done, 6);
        let p = t.frame_done();
        assert_eq!((p.frames_done, p.frames, p.passes_done), (2, 2, 6));
    }
}
