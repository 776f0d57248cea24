//! What can go wrong: a configuration that cannot be built, or an input
//! access that names a fragment processor the configuration lacks.

/// Errors of the functional models.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NucaError {
    /// A [`crate::NucaConfig`] field (or group of fields) is unusable.
    #[error("nuca config: {field} = {value}: expected {expected}")]
    Config {
        field: &'static str,
        value: String,
        expected: String,
    },
    /// The `index`-th event of the input (from 0), a texture access, names
    /// fragment processor `fp`, but the configuration has only `fps`.
    #[error(
        "event {index}: a texture access by fragment processor {fp}, but the configuration has {fps} (0 to {})",
        fps.saturating_sub(1)
    )]
    FpOutOfRange { index: u64, fp: u32, fps: usize },
}
