//! From a `--scene` argument to a [`Scene`]: a built-in name, or a file
//! whose extension picks the loader.

use std::path::Path;

use super::{builtin, Scene, SceneError};

/// A built-in scene by name, else the file at `spec`.
pub fn resolve(spec: &str) -> Result<Scene, SceneError> {
    if let Some(b) = builtin::find(spec) {
        return Ok((b.build)());
    }
    let path = Path::new(spec);
    if !path.exists() {
        let known: Vec<&str> = builtin::BUILTINS.iter().map(|b| b.name).collect();
        return Err(SceneError::Unknown {
            name: spec.to_string(),
            known: known.join(", "),
        });
    }
    load(path)
}

/// Load a scene file; the extension (case-insensitive) picks the format.
pub fn load(path: &Path) -> Result<Scene, SceneError> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "obj" => super::obj::load(path),
        "gltf" | "glb" => super::gltf::load(path),
        "ac" | "acc" => super::ac3d::load(path),
        "toml" => super::toml_scene::load(path),
        _ => Err(SceneError::Unsupported {
            path: path.to_path_buf(),
        }),
    }
}
