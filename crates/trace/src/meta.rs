//! What a trace says about itself: the header metadata and the totals.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::record::{Access, Stream};

/// Self-description carried in the `.gtr` header. Text formats have none;
/// their readers report a default with `generator` naming the format.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TraceMeta {
    /// Who wrote the trace, e.g. `gfxcache 0.1.0 render`.
    pub generator: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scene: Option<String>,
    /// `[width, height]` in pixels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolution: Option<[u32; 2]>,
    /// Pipeline mode: `imr` or `tbr`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// Block size in bytes the producer worked at (its render caches' line size).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_size: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frames: Option<u32>,
    /// Anything else a producer wants to record.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub extra: BTreeMap<String, serde_json::Value>,
}

/// Totals of one stream.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamTotals {
    pub reads: u64,
    pub writes: u64,
    pub bytes: u64,
}

/// Totals of a whole trace: what the `.gtr` footer holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub accesses: u64,
    pub markers: u64,
    pub per_stream: [StreamTotals; Stream::COUNT],
}

impl Totals {
    #[inline]
    pub fn add_access(&mut self, a: &Access) {
        self.accesses += 1;
        let t = &mut self.per_stream[a.stream.index()];
        if a.op.is_write() {
            t.writes += 1;
        } else {
            t.reads += 1;
        }
        t.bytes += u64::from(a.size);
    }

    pub fn records(&self) -> u64 {
        self.accesses + self.markers
    }

    /// Per-stream totals keyed by stream name, streams with no access left out.
    pub fn by_name(&self) -> BTreeMap<&'static str, StreamTotals> {
        Stream::ALL
            .iter()
            .filter(|s| {
                let t = &self.per_stream[s.index()];
                t.reads + t.writes > 0
            })
            .map(|s| (s.name(), self.per_stream[s.index()]))
            .collect()
    }
}
