//! What a frame did: per pass, the pipeline's counters and its accesses
//! by stream.

use gfxcache_trace::{Access, PassKind, Stream};

use crate::pipeline::Stats;

/// Accesses per stream, reads and writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StreamCounts {
    pub reads: [u64; Stream::COUNT],
    pub writes: [u64; Stream::COUNT],
}

impl StreamCounts {
    #[inline]
    pub fn add(&mut self, a: &Access) {
        if a.op.is_write() {
            self.writes[a.stream.index()] += 1;
        } else {
            self.reads[a.stream.index()] += 1;
        }
    }

    /// [`StreamCounts::add`] of every access of `accesses`, counted by
    /// runs of one stream and direction: a pipeline's accesses come in
    /// long runs (a quad's texture reads), and adding to one counter
    /// access after access waits for each addition before the next.
    #[inline]
    pub fn add_all(&mut self, accesses: &[Access]) {
        let Some(first) = accesses.first() else {
            return;
        };
        let key = |a: &Access| (a.stream, a.op.is_write());
        let (mut run_key, mut run) = (key(first), 0u64);
        for a in accesses {
            let k = key(a);
            if k != run_key {
                self.add_run(run_key, run);
                (run_key, run) = (k, 0);
            }
            run += 1;
        }
        self.add_run(run_key, run);
    }

    #[inline]
    fn add_run(&mut self, (stream, write): (Stream, bool), n: u64) {
        if write {
            self.writes[stream.index()] += n;
        } else {
            self.reads[stream.index()] += n;
        }
    }

    pub fn merge(&mut self, o: &StreamCounts) {
        for s in 0..Stream::COUNT {
            self.reads[s] += o.reads[s];
            self.writes[s] += o.writes[s];
        }
    }

    /// Reads plus writes of `s`.
    pub fn of(&self, s: Stream) -> u64 {
        self.reads[s.index()] + self.writes[s.index()]
    }

    pub fn total(&self) -> u64 {
        self.reads.iter().chain(&self.writes).sum()
    }
}

/// What one pass did.
#[derive(Clone, Debug, PartialEq)]
pub struct PassSummary {
    pub name: String,
    pub kind: PassKind,
    pub stats: Stats,
    /// Pipeline-side accesses (before the render caches).
    pub accesses: StreamCounts,
}

/// What one frame did.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameSummary {
    pub frame: u32,
    pub width: u32,
    pub height: u32,
    pub passes: Vec<PassSummary>,
}

impl FrameSummary {
    /// Pipeline counters summed over the passes.
    pub fn stats(&self) -> Stats {
        let mut t = Stats::default();
        for p in &self.passes {
            t.add(&p.stats);
        }
        t
    }

    /// Pipeline-side accesses summed over the passes.
    pub fn accesses(&self) -> StreamCounts {
        let mut t = StreamCounts::default();
        for p in &self.passes {
            t.merge(&p.accesses);
        }
        t
    }

    pub fn pass(&self, name: &str) -> Option<&PassSummary> {
        self.passes.iter().find(|p| p.name == name)
    }
}
