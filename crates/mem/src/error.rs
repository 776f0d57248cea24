//! Configuration errors: the only way this crate fails.

/// A configuration the model cannot run, naming the part and the field.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MemError {
    #[error("{part} config: {what}: {why}")]
    Config {
        /// "dram", "llc" or "gpu".
        part: &'static str,
        what: String,
        why: String,
    },
}
