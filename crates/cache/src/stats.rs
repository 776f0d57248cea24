//! Counters kept per policy and per stream.

use gfxcache_trace::Stream;
use serde::Serialize;

/// `a / b`, or 0 when `b` is 0: the share a report prints for an event
/// that never had a chance to happen.
pub fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

/// Block-level event counts. An access to a trace record that spans several
/// blocks counts once per block.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub accesses: u64,
    pub hits: u64,
    pub misses: u64,
    /// Misses that allocated a line.
    pub fills: u64,
    /// Misses that did not allocate a line (policy bypass, a stream that is
    /// not allocated, or a write miss under no-write-allocate).
    pub bypasses: u64,
    /// Lines evicted to make room, counted against the evicted line's stream.
    pub evictions: u64,
    /// Dirty lines written back on eviction, counted against the evicted line's stream.
    pub writebacks: u64,
    /// Writes sent straight to memory: every write under write-through, and
    /// bypassed write misses.
    pub write_throughs: u64,
}

impl Counts {
    pub fn add(&mut self, o: &Counts) {
        self.accesses += o.accesses;
        self.hits += o.hits;
        self.misses += o.misses;
        self.fills += o.fills;
        self.bypasses += o.bypasses;
        self.evictions += o.evictions;
        self.writebacks += o.writebacks;
        self.write_throughs += o.write_throughs;
    }

    /// The events since `earlier`, a snapshot of the same counters taken
    /// before: what happened in between (a frame, say).
    pub fn since(&self, earlier: &Counts) -> Counts {
        Counts {
            accesses: self.accesses - earlier.accesses,
            hits: self.hits - earlier.hits,
            misses: self.misses - earlier.misses,
            fills: self.fills - earlier.fills,
            bypasses: self.bypasses - earlier.bypasses,
            evictions: self.evictions - earlier.evictions,
            writebacks: self.writebacks - earlier.writebacks,
            write_throughs: self.write_throughs - earlier.write_throughs,
        }
    }

    pub fn hit_rate(&self) -> f64 {
        ratio(self.hits, self.accesses)
    }

    pub fn miss_ratio(&self) -> f64 {
        ratio(self.misses, self.accesses)
    }
}

/// Counts per stream.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub per_stream: [Counts; Stream::COUNT],
}

impl Stats {
    pub fn stream(&self, s: Stream) -> &Counts {
        &self.per_stream[s.index()]
    }

    /// The events since `earlier`, a snapshot taken before ([`Counts::since`]).
    pub fn since(&self, earlier: &Stats) -> Stats {
        Stats {
            per_stream: std::array::from_fn(|i| self.per_stream[i].since(&earlier.per_stream[i])),
        }
    }

    pub fn total(&self) -> Counts {
        let mut t = Counts::default();
        for c in &self.per_stream {
            t.add(c);
        }
        t
    }

    /// Streams that saw at least one access, with their counts.
    pub fn active_streams(&self) -> impl Iterator<Item = (Stream, &Counts)> {
        Stream::ALL
            .iter()
            .map(|s| (*s, &self.per_stream[s.index()]))
            .filter(|(_, c)| c.accesses > 0)
    }
}
