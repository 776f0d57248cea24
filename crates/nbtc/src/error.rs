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
}
