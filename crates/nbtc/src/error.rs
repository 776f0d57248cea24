//! What can go wrong.

/// An unusable configuration or input.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NbtcError {
    /// A [`crate::NbtcConfig`] field (or group of fields) is unusable.
    #[error("nbtc config: {field} = {value}: expected {expected}")]
    Config {
        field: &'static str,
        value: String,
        expected: String,
    },
    /// The `index`-th event of a unit's input (from 0) is a request with
    /// `len` texels.
    #[error("nbtc input: event {index}: a request with {len} texels: expected 1 to 8")]
    Texels { index: usize, len: u8 },
    /// The `record`-th record of a frame's requests (from 0) has `len`
    /// texels.
    #[error("nbtc input: record {record}: a request with {len} texels: expected 1 to 8")]
    RecordTexels { record: u64, len: u8 },
    /// The `record`-th record names pixel processor `fp` of a frame
    /// replayed for `processors` of them.
    #[error("nbtc input: record {record}: pixel processor {fp}: the frame was replayed for {processors}")]
    Processor {
        record: u64,
        fp: usize,
        processors: usize,
    },
    /// The frame's other L2 traffic could not be read (its source's
    /// message, which names the file and what was expected).
    #[error("{0}")]
    OtherTraffic(String),
    /// Units that share a memory must all exist from the first cycle.
    #[error("nbtc replay: a shared memory needs the pixel processors' count before the frame (Replay::with_processors)")]
    SharedNeedsProcessors,
}
