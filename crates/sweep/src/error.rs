//! What can be wrong with a sweep file.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SweepError {
    /// The file is not TOML of the expected shape.
    #[error("{}:{line}:{column}: {message}", file.display())]
    Toml {
        file: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    /// A value is not one the key takes.
    #[error("{}:{line}: {key} = {value}: expected {expected}", file.display())]
    Value {
        file: PathBuf,
        line: usize,
        key: String,
        value: String,
        expected: String,
    },
    /// An input file the sweep file names cannot be read.
    #[error("{}: {what} {}: {message}", file.display(), input.display())]
    Input {
        file: PathBuf,
        what: String,
        input: PathBuf,
        message: String,
    },
}
