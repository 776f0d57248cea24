//! Helpers every file loader shares: reading a file and recording it
//! among the scene's sources, an empty scene to fill, smooth normals for
//! files that have none, and the finishing step (camera and light
//! defaults) a loaded file gets.
//!
//! **Sources.** Every file a loader reads goes through [`read_source`],
//! which records its path in [`Scene::sources`] before it opens it, so
//! that list is exact by construction: it holds what was read (and what
//! was asked for and could not be, where the loader went on without it),
//! not what a second reading of the references guesses. A sweep keys
//! its results by those files' contents.

use std::path::{Path, PathBuf};

use super::{CameraPath, Light, Mesh, Passes, Scene, SceneError};
use crate::math::{Vec2, Vec3};

/// Largest file a loader reads (scene files and textures are read whole).
pub(crate) const MAX_FILE_BYTES: u64 = 1 << 30;

/// Adds `path` to `sources` unless it is there already (the order stays
/// that of first reads).
pub(crate) fn add_source(sources: &mut Vec<PathBuf>, path: &Path) {
    if !sources.iter().any(|s| s == path) {
        sources.push(path.to_path_buf());
    }
}

/// Reads a whole file ([`read_file`]) after recording it in `sources`
/// (recorded first, so a file that cannot be read is there too: a loader
/// that goes on without it depends on its absence).
pub(crate) fn read_source(path: &Path, sources: &mut Vec<PathBuf>) -> Result<Vec<u8>, SceneError> {
    add_source(sources, path);
    read_file(path)
}

/// Loads the scene file at `path` with `parse` (its bytes to a scene,
/// reading what they name through [`read_source`] into the scene's
/// sources): the scene, with `path` first among its sources.
pub(crate) fn load_file(
    path: &Path,
    parse: impl FnOnce(&[u8]) -> Result<Scene, SceneError>,
) -> Result<Scene, SceneError> {
    let mut sources = Vec::new();
    let bytes = read_source(path, &mut sources)?;
    let mut scene = parse(&bytes)?;
    for s in std::mem::take(&mut scene.sources) {
        add_source(&mut sources, &s);
    }
    scene.sources = sources;
    Ok(scene)
}

/// Reads a whole file, refusing what is not a regular file (a texture
/// named `/dev/zero` must not read forever) or is over [`MAX_FILE_BYTES`].
/// Loaders read through [`read_source`], which records the file.
pub(crate) fn read_file(path: &Path) -> Result<Vec<u8>, SceneError> {
    let io = |source| SceneError::Io {
        path: path.to_path_buf(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(SceneError::file(path, "not a regular file"));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(SceneError::file(
            path,
            format!(
                "file is {} bytes: larger than the {MAX_FILE_BYTES} accepted",
                meta.len()
            ),
        ));
    }
    std::fs::read(path).map_err(io)
}

/// Sky colour of a loaded file (files carry none): a pale blue, so a model
/// stands out from the clear colour.
pub(crate) const DEFAULT_SKY: [f32; 3] = [0.45, 0.6, 0.8];

/// An empty scene named after the file's stem; [`finish`] completes it.
pub(crate) fn empty_scene(path: &Path) -> Scene {
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    Scene {
        name,
        meshes: Vec::new(),
        materials: Vec::new(),
        images: Vec::new(),
        instances: Vec::new(),
        // Placeholder until `finish` frames the geometry.
        camera: CameraPath::still(super::Camera {
            eye: Vec3::new(0.0, 0.0, 1.0),
            target: Vec3::new(0.0, 0.0, 0.0),
            up: Vec3::new(0.0, 1.0, 0.0),
            fov_y: 45f32.to_radians(),
            near: 0.1,
            far: 100.0,
        }),
        light: Light::default(),
        mirror: None,
        passes: Passes::default(),
        preset: Default::default(),
        graph: None,
        sky: DEFAULT_SKY,
        warnings: Vec::new(),
        sources: Vec::new(),
    }
}

/// Gives a scene whose file had no camera the framing camera.
pub(crate) fn frame(scene: &mut Scene) {
    scene.camera = CameraPath::still(scene.framing_camera());
}

/// Area-weighted smooth normals: each triangle adds its (unnormalised)
/// face normal to its three vertices. A vertex no non-degenerate triangle
/// touches gets +Y rather than NaN. Indices must already be checked.
pub(crate) fn smooth_normals(positions: &[Vec3], indices: &[u32]) -> Vec<Vec3> {
    let mut acc = vec![Vec3::default(); positions.len()];
    for tri in indices.chunks_exact(3) {
        let (a, b, c) = (tri[0] as usize, tri[1] as usize, tri[2] as usize);
        let (Some(&pa), Some(&pb), Some(&pc)) =
            (positions.get(a), positions.get(b), positions.get(c))
        else {
            continue;
        };
        let n = (pb - pa).cross(pc - pa);
        for i in [a, b, c] {
            acc[i] = acc[i] + n;
        }
    }
    acc.into_iter().map(normalize_or_up).collect()
}

/// `v` normalised, or +Y when it is zero or not finite.
pub(crate) fn normalize_or_up(v: Vec3) -> Vec3 {
    let len = v.length();
    if len > 1e-20 && len.is_finite() {
        v / len
    } else {
        Vec3::new(0.0, 1.0, 0.0)
    }
}

/// Fills in what a mesh lacks (normals, uvs) so every attribute has one
/// entry per position, as [`Mesh`] promises.
pub(crate) fn complete_mesh(mesh: &mut Mesh) {
    if mesh.normals.len() != mesh.positions.len() {
        mesh.normals = smooth_normals(&mesh.positions, &mesh.indices);
    }
    if mesh.uvs.len() != mesh.positions.len() {
        mesh.uvs = vec![Vec2::default(); mesh.positions.len()];
    }
}

/// `true` when every index is in range (loaders turn `false` into an error
/// naming the file).
pub(crate) fn indices_valid(mesh: &Mesh) -> bool {
    let n = mesh.positions.len();
    mesh.indices.len().is_multiple_of(3) && mesh.indices.iter().all(|&i| (i as usize) < n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smooth_normals_of_a_flat_quad_point_up() {
        let p = vec![
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(0.0, 0.0, 1.0),
            Vec3::new(1.0, 0.0, 1.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(5.0, 5.0, 5.0), // unreferenced
        ];
        let n = smooth_normals(&p, &[0, 1, 2, 0, 2, 3]);
        for v in &n[..4] {
            assert!((v.y - 1.0).abs() < 1e-6 && v.x.abs() < 1e-6 && v.z.abs() < 1e-6);
        }
        assert_eq!(n[4], Vec3::new(0.0, 1.0, 0.0));
    }
}
