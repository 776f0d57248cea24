//! TODO
use super::{Scene, SceneError};
use std::path::Path;
pub fn load(path: &Path) -> Result<Scene, SceneError> {
    Err(SceneError::Unsupported {
        path: path.to_path_buf(),
    })
}
