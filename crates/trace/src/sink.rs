//! Record streams as they are made: a [`RecordSink`] takes records one by
//! one, and, in their place in the stream, the binned render passes of a
//! tile-based frame; a [`RecordStage`] sits in a stream and passes on what
//! it makes of it (a cache its misses, the Tiling Engine model of
//! `gfxcache-tcor` the records with its Parameter Buffer traffic added).
//!
//! Both are generic traits, so a chain of stages is monomorphized and
//! inlined: no dynamic dispatch per record. Any `FnMut(Record)` closure is
//! a sink that ignores binned passes; a sink that wraps another must pass
//! them on (`binned` has a default that drops them, which only a terminal
//! sink may rely on).

use crate::binned::BinnedPass;
use crate::record::{Access, Record};

/// Takes a record stream, with the binned render passes in stream order.
pub trait RecordSink {
    /// The next record.
    fn record(&mut self, r: Record);

    /// The next records, all accesses: the same as giving each to
    /// [`RecordSink::record`] in turn, which the default does. A sink
    /// that can take a run of accesses at once (count it once, copy it
    /// whole) overrides it; a renderer hands its accesses over this way.
    #[inline]
    fn accesses(&mut self, accesses: &[Access]) {
        for &a in accesses {
            self.record(Record::Access(a));
        }
    }

    /// A render pass's binned frame, at its place in the stream: in
    /// tile-based mode right after the render pass's geometry (its last
    /// draw's records) and before its first `TileBegin`; when an
    /// immediate-mode frame is binned, at the end of the pass, before its
    /// `PassEnd`. The default drops it.
    fn binned(&mut self, pass: &BinnedPass) {
        let _ = pass;
    }
}

impl<F: FnMut(Record)> RecordSink for F {
    #[inline]
    fn record(&mut self, r: Record) {
        self(r)
    }
}

/// A stage of a record stream: takes records and binned passes in stream
/// order and hands what it makes of them, in order, to `out`.
pub trait RecordStage {
    fn record(&mut self, r: Record, out: &mut impl RecordSink);

    /// A run of accesses (see [`RecordSink::accesses`]); the default gives
    /// each to [`RecordStage::record`] in turn.
    #[inline]
    fn accesses(&mut self, accesses: &[Access], out: &mut impl RecordSink) {
        for &a in accesses {
            self.record(Record::Access(a), out);
        }
    }

    /// A binned pass at its place in the stream (see
    /// [`RecordSink::binned`]); the default passes it on.
    fn binned(&mut self, pass: &BinnedPass, out: &mut impl RecordSink) {
        out.binned(pass);
    }
}

/// The stage that changes nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PassThrough;

impl RecordStage for PassThrough {
    #[inline]
    fn record(&mut self, r: Record, out: &mut impl RecordSink) {
        out.record(r);
    }

    #[inline]
    fn accesses(&mut self, accesses: &[Access], out: &mut impl RecordSink) {
        out.accesses(accesses);
    }
}

/// A stage in front of a sink, as one sink.
#[derive(Clone, Debug, Default)]
pub struct Staged<T, S> {
    pub stage: T,
    pub out: S,
}

impl<T: RecordStage, S: RecordSink> Staged<T, S> {
    pub fn new(stage: T, out: S) -> Self {
        Staged { stage, out }
    }

    /// The stage and the sink, back.
    pub fn into_parts(self) -> (T, S) {
        (self.stage, self.out)
    }
}

impl<T: RecordStage, S: RecordSink> RecordSink for Staged<T, S> {
    #[inline]
    fn record(&mut self, r: Record) {
        self.stage.record(r, &mut self.out);
    }

    #[inline]
    fn accesses(&mut self, accesses: &[Access]) {
        self.stage.accesses(accesses, &mut self.out);
    }

    fn binned(&mut self, pass: &BinnedPass) {
        self.stage.binned(pass, &mut self.out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::binned::{BinnedFrame, TileOrder};
    use crate::record::{Access, Marker, Stream};

    /// Keeps what it gets, binned passes as `Other` markers.
    #[derive(Default)]
    struct Keep(Vec<String>);

    impl RecordSink for Keep {
        fn record(&mut self, r: Record) {
            self.0.push(format!("{r:?}"));
        }
        fn binned(&mut self, pass: &BinnedPass) {
            self.0.push(format!("binned {}", pass.pass));
        }
    }

    /// Doubles every access.
    struct Twice;

    impl RecordStage for Twice {
        fn record(&mut self, r: Record, out: &mut impl RecordSink) {
            if let Record::Access(a) = &r {
                out.record(Record::Access(*a));
            }
            out.record(r);
        }
    }

    fn pass() -> BinnedPass {
        BinnedPass {
            frame_number: 0,
            pass: "main".into(),
            frame: BinnedFrame {
                tiles_x: 1,
                tiles_y: 1,
                tile_size: 32,
                order: TileOrder::ZOrder,
                primitives: vec![],
            },
        }
    }

    /// A run of accesses is the same as its records one by one, through
    /// a stage that overrides only `record` and through closures.
    #[test]
    fn a_run_of_accesses_is_its_records_in_turn() {
        let run = [
            Access::read(64, Stream::Tex),
            Access::write(128, Stream::Rt),
            Access::read(192, Stream::Z),
        ];
        let mut by_run = Staged::new(Twice, Keep::default());
        by_run.accesses(&run);
        let mut one_by_one = Staged::new(Twice, Keep::default());
        run.iter()
            .for_each(|a| one_by_one.record(Record::Access(*a)));
        assert_eq!(by_run.out.0, one_by_one.out.0);
        assert_eq!(by_run.out.0.len(), 6);
        let mut got = Vec::new();
        (|r: Record| got.push(r)).accesses(&run);
        assert_eq!(got, run.map(Record::Access));
    }

    #[test]
    fn staged_sinks_keep_binned_passes_in_place() {
        let mut s = Staged::new(Twice, Keep::default());
        s.record(Record::Access(Access::read(64, Stream::Tex)));
        s.binned(&pass());
        s.record(Record::Marker(Marker::TileBegin { tile: 0 }));
        let (_, keep) = s.into_parts();
        assert_eq!(keep.0.len(), 4);
        assert_eq!(keep.0[0], keep.0[1]);
        assert_eq!(keep.0[2], "binned main");
        assert!(keep.0[3].contains("TileBegin"));

        let mut through = Staged::new(PassThrough, Keep::default());
        through.accesses(&[
            Access::read(64, Stream::Tex),
            Access::write(128, Stream::Rt),
        ]);
        assert_eq!(through.out.0.len(), 2);
        through.out.0.clear();
        through.binned(&pass());
        assert_eq!(through.out.0, ["binned main"]);
    }

    #[test]
    fn closures_are_sinks_that_drop_binned_passes() {
        let mut n = 0;
        let mut f = |_: Record| n += 1;
        f.binned(&pass());
        RecordSink::record(&mut f, Record::Marker(Marker::PassEnd));
        assert_eq!(n, 1);
    }
}
