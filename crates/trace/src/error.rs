//! Errors of reading and writing traces. Every one names the file, and where
//! in it: a byte offset for binary input, a line for text.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },

    /// Binary input that is not what the format says should be there.
    #[error("{}: corrupt at byte {offset}: {what}", path.display())]
    Corrupt {
        path: PathBuf,
        offset: u64,
        what: String,
    },

    /// Binary input that ends before the format says it may.
    #[error("{}: truncated at byte {offset}: {what}", path.display())]
    Truncated {
        path: PathBuf,
        offset: u64,
        what: String,
    },

    /// A text line that does not parse.
    #[error("{}:{line}: {what}", path.display())]
    Parse {
        path: PathBuf,
        line: u64,
        what: String,
    },

    /// A valid request the format cannot serve (unknown extension, a record
    /// the target format cannot hold, ...).
    #[error("{}: {what}", path.display())]
    Unsupported { path: PathBuf, what: String },
}

impl TraceError {
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> TraceError {
        TraceError::Io {
            path: path.into(),
            source,
        }
    }
}
