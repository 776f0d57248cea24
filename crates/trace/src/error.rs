//! Errors of reading and writing traces. Every one names the file, and where
//! in it: a byte offset for binary input, a line for text.

use std::path::{Path, PathBuf};

/// What went wrong reading or writing a trace, and in which file.
///
/// The message is whole on its own: an operating-system error's text is part
/// of it, and so is not also its `source()`, so that a chain printed cause
/// by cause (anyhow's `{:#}`) says it once.
#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    #[error("{}: {error}", path.display())]
    Io {
        path: PathBuf,
        error: std::io::Error,
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
    pub fn io(path: impl Into<PathBuf>, error: std::io::Error) -> TraceError {
        TraceError::Io {
            path: path.into(),
            error,
        }
    }

    pub fn corrupt(path: impl Into<PathBuf>, offset: u64, what: impl Into<String>) -> TraceError {
        TraceError::Corrupt {
            path: path.into(),
            offset,
            what: what.into(),
        }
    }

    pub fn truncated(path: impl Into<PathBuf>, offset: u64, what: impl Into<String>) -> TraceError {
        TraceError::Truncated {
            path: path.into(),
            offset,
            what: what.into(),
        }
    }

    pub fn parse(path: impl Into<PathBuf>, line: u64, what: impl Into<String>) -> TraceError {
        TraceError::Parse {
            path: path.into(),
            line,
            what: what.into(),
        }
    }

    pub fn unsupported(path: impl Into<PathBuf>, what: impl Into<String>) -> TraceError {
        TraceError::Unsupported {
            path: path.into(),
            what: what.into(),
        }
    }

    /// The file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            TraceError::Io { path, .. }
            | TraceError::Corrupt { path, .. }
            | TraceError::Truncated { path, .. }
            | TraceError::Parse { path, .. }
            | TraceError::Unsupported { path, .. } => path,
        }
    }

    /// The byte offset of binary damage, if this is such an error.
    pub fn offset(&self) -> Option<u64> {
        match self {
            TraceError::Corrupt { offset, .. } | TraceError::Truncated { offset, .. } => {
                Some(*offset)
            }
            _ => None,
        }
    }

    /// The line of a text error, if this is one.
    pub fn line(&self) -> Option<u64> {
        match self {
            TraceError::Parse { line, .. } => Some(*line),
            _ => None,
        }
    }
}
