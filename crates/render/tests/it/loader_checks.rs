//! Helpers shared by the loader tests: fixture paths, temporary files,
//! float comparison and the promises every loaded scene keeps.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use gfxcache_render::scene::{self, SceneError};
use gfxcache_render::{Scene, Vec3};
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

pub fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

pub fn close(a: f32, b: f32) -> bool {
    (a - b).abs() < 1e-5
}

pub fn close3(a: Vec3, b: Vec3) -> bool {
    close(a.x, b.x) && close(a.y, b.y) && close(a.z, b.z)
}

/// Every mesh keeps the model's promises: one normal and uv per position,
/// indices in range.
pub fn assert_well_formed(s: &Scene) {
    for m in &s.meshes {
        assert_eq!(m.normals.len(), m.positions.len(), "{}", m.name);
        assert_eq!(m.uvs.len(), m.positions.len(), "{}", m.name);
        assert_eq!(m.indices.len() % 3, 0);
        assert!(m.indices.iter().all(|&i| (i as usize) < m.positions.len()));
        assert!(m.material < s.materials.len());
    }
    for i in &s.instances {
        assert!(i.mesh < s.meshes.len());
    }
    for img in &s.images {
        assert_eq!(img.texels.len(), (img.width * img.height) as usize);
    }
    for m in &s.materials {
        if let Some(t) = m.texture {
            assert!(t < s.images.len());
        }
    }
}

/// Mesh `m`, flat in the xy plane, covers `twice_area` once: every
/// triangle faces +z and their areas add up to it.
pub fn assert_covers_once(m: &gfxcache_render::Mesh, twice_area: f32) {
    let areas: Vec<f32> = m
        .indices
        .chunks(3)
        .map(|t| {
            let [a, b, c] = [0, 1, 2].map(|k| m.positions[t[k] as usize]);
            (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
        })
        .collect();
    assert!(areas.iter().all(|&a| a > 0.0), "{areas:?}");
    assert!(close(areas.iter().sum::<f32>(), twice_area), "{areas:?}");
}

/// The line and message of the error that AC3D `text`, read as file
/// `name`, must give.
pub fn ac3d_error_in(name: &str, text: &str) -> (usize, String) {
    match scene::ac3d::parse_str(text, Path::new(name)) {
        Err(SceneError::Line { path, line, msg }) => {
            assert_eq!(path, Path::new(name));
            (line, msg)
        }
        other => panic!("expected a line error, got {other:?}"),
    }
}
