//! The footer's JSON: the totals a `.gtr` file promises, so that a reader
//! can announce them up front and prove at the end that nothing was lost.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::footprint::Footprint;
use crate::meta::{StreamTotals, Totals};
use crate::record::Stream;

#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FooterJson {
    pub(crate) records: u64,
    pub(crate) accesses: u64,
    pub(crate) markers: u64,
    pub(crate) chunks: u64,
    pub(crate) streams: BTreeMap<String, StreamTotals>,
    /// From version 4 on: a hint, not checked against the chunks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) footprint: Option<Footprint>,
    /// CRC-32 of the header JSON, which has no checksum of its own.
    pub(crate) header_crc32: u32,
}

impl FooterJson {
    pub(crate) fn new(
        totals: &Totals,
        chunks: u64,
        footprint: Footprint,
        header_crc32: u32,
    ) -> FooterJson {
        FooterJson {
            records: totals.records(),
            accesses: totals.accesses,
            markers: totals.markers,
            chunks,
            streams: totals
                .by_name()
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
            footprint: Some(footprint),
            header_crc32,
        }
    }

    /// The totals, if the JSON is self-consistent: known stream names, and
    /// records, accesses and per-stream counts that add up.
    pub(crate) fn totals(&self) -> Result<Totals, String> {
        let mut t = Totals {
            accesses: self.accesses,
            markers: self.markers,
            ..Totals::default()
        };
        let mut sum = 0u64;
        for (name, st) in &self.streams {
            let s: Stream = name.parse().map_err(|e| format!("footer: {e}"))?;
            t.per_stream[s.index()] = *st;
            sum = sum
                .checked_add(st.reads)
                .and_then(|x| x.checked_add(st.writes))
                .ok_or("footer: per-stream counts overflow")?;
        }
        if self.accesses.checked_add(self.markers) != Some(self.records) {
            return Err(format!(
                "footer: {} records is not {} accesses + {} markers",
                self.records, self.accesses, self.markers
            ));
        }
        if sum != self.accesses {
            return Err(format!(
                "footer: per-stream reads and writes add up to {sum}, not {} accesses",
                self.accesses
            ));
        }
        Ok(t)
    }
}
