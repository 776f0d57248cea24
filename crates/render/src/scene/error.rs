//! What can go wrong reading a scene: every error names the file (or the
//! built-in name) and what was expected.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum SceneError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A syntax or content error at a known place in a text file.
    #[error("{}:{line}: {msg}", path.display())]
    Line {
        path: PathBuf,
        line: usize,
        msg: String,
    },
    /// An error about the file as a whole (or a binary file).
    #[error("{}: {msg}", path.display())]
    File { path: PathBuf, msg: String },
    #[error("{}: unsupported scene file type (expected .obj, .gltf, .glb, .ac or .toml)", path.display())]
    Unsupported { path: PathBuf },
    #[error("unknown scene '{name}': not a built-in scene ({known}) and no such file")]
    Unknown { name: String, known: String },
}

impl SceneError {
    pub fn file(path: impl Into<PathBuf>, msg: impl Into<String>) -> SceneError {
        SceneError::File {
            path: path.into(),
            msg: msg.into(),
        }
    }

    pub fn line(path: impl Into<PathBuf>, line: usize, msg: impl Into<String>) -> SceneError {
        SceneError::Line {
            path: path.into(),
            line,
            msg: msg.into(),
        }
    }
}
