//! Wavefront OBJ + MTL through the `tobj` crate (one index per vertex;
//! faces of more than three corners triangulated here, concave ones by ear
//! clipping: see [`super::polygon`]).
//!
//! - One [`Mesh`] per OBJ object/group and material (tobj splits an object
//!   where `usemtl` changes), each placed once with the identity transform.
//! - Materials from the MTL files named by `mtllib` lines (relative to the
//!   OBJ; a line may name several, a later definition of a name wins):
//!   `Kd` is the base colour, `d` (or `1 - Tr`) its alpha, and an alpha
//!   below 1 makes the material [`AlphaMode::Blend`]; `Ke` is the emissive
//!   colour; `map_Kd` the texture, relative to the MTL file (or by its
//!   file name alone there, or in a `textures` directory beside or above
//!   it: see `image_file::find_texture`).
//! - UVs: OBJ's `v` points up the image, [`Mesh::uvs`] down it (glTF's
//!   convention, row 0 on top), so `v` is flipped.
//! - Normals from `vn` when every vertex has one, else computed smooth.
//!
//! tobj checks face indices only partly (a relative index reaching before
//! the first vertex can overflow, and a short `Kd` line panics), so
//! [`parse_str`] first checks every face index and colour line itself, and
//! that every number on `v`/`vt`/`vn` and colour lines is finite (tobj
//! takes `nan` and `inf`), and reports `file:line` with what was expected.
//!
//! Fallbacks, each with a warning in [`Scene::warnings`]: a missing or
//! unreadable MTL file gives its materials' meshes the default material
//! (white, opaque); a missing texture becomes a checkerboard
//! ([`super::image_file::checkerboard`]); a mesh whose vertices have UVs
//! only in part gets no UVs.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use super::geometry::{complete_mesh, empty_scene, frame, indices_valid};
use super::image_file::{find_texture, relative_to, TextureCache};
use super::polygon::Triangulator;
use super::{AlphaMode, Instance, Material, Mesh, Scene, SceneError, Shading};
use crate::math::{Mat4, Vec2, Vec3};

/// Loads an OBJ file and the MTL files and textures it names (all in
/// [`Scene::sources`], the OBJ file first).
pub fn load(path: &Path) -> Result<Scene, SceneError> {
    super::geometry::load_file(path, |bytes| {
        parse_str(&String::from_utf8_lossy(bytes), path)
    })
}

/// Parses OBJ text; `path` names the file in messages and locates the MTL
/// files (read from disk, relative to it).
pub fn parse_str(text: &str, path: &Path) -> Result<Scene, SceneError> {
    check_obj(text, path)?;
    let loaded = load_obj(text, path)?;
    let mut scene = empty_scene(path);
    scene.warnings = loaded.warnings;
    scene.sources = loaded.sources;
    let mut textures = TextureCache::default();
    for m in &loaded.materials {
        let mtl_path = loaded
            .mtl_of
            .get(&m.name)
            .cloned()
            .unwrap_or_else(|| path.to_path_buf());
        let material = material(m, &mtl_path, &mut scene, &mut textures);
        scene.materials.push(material);
    }
    let mut default_material = None;
    let mut triangulator = Triangulator::default();
    for model in loaded.models {
        if model.mesh.indices.is_empty() {
            continue;
        }
        let material = match model
            .mesh
            .material_id
            .filter(|&i| i < scene.materials.len())
        {
            Some(i) => i,
            None => *default_material.get_or_insert_with(|| {
                scene.materials.push(Material {
                    name: "default".into(),
                    ..Material::default()
                });
                scene.materials.len() - 1
            }),
        };
        let out = mesh(
            &model,
            material,
            path,
            &mut scene.warnings,
            &mut triangulator,
        )?;
        scene.meshes.push(out);
        scene.instances.push(Instance {
            mesh: scene.meshes.len() - 1,
            transform: Mat4::default(),
        });
    }
    frame(&mut scene);
    Ok(scene)
}

/// What `tobj` read of an OBJ file and its material libraries.
struct LoadedObj {
    models: Vec<tobj::Model>,
    materials: Vec<tobj::Material>,
    /// Material libraries that could not be read.
    warnings: Vec<String>,
    /// The material libraries asked for, in order, whether read or not.
    sources: Vec<PathBuf>,
    /// Which MTL file each material came from (texture paths are relative
    /// to it).
    mtl_of: BTreeMap<String, PathBuf>,
}

/// Reads the objects of `text` and the material libraries it names
/// (checked by [`check_mtl`] first; a missing one is a warning).
fn load_obj(text: &str, path: &Path) -> Result<LoadedObj, SceneError> {
    let warnings = RefCell::new(Vec::new());
    let mtl_error = RefCell::new(None);
    let mtl_of = RefCell::new(BTreeMap::<String, PathBuf>::new());
    let sources = RefCell::new(Vec::new());
    let load_library = |mtl_path: PathBuf| -> Result<Vec<tobj::Material>, tobj::LoadError> {
        let read = super::geometry::read_source(&mtl_path, &mut sources.borrow_mut());
        let text = match read {
            Ok(b) => String::from_utf8_lossy(&b).into_owned(),
            Err(e) => {
                warnings.borrow_mut().push(format!(
                    "{}: material library {}: {e}; its materials are replaced by the default material",
                    path.display(),
                    mtl_path.display()
                ));
                return Ok(Vec::new());
            }
        };
        if let Err(e) = check_mtl(&text, &mtl_path) {
            *mtl_error.borrow_mut() = Some(e);
            return Err(tobj::LoadError::MaterialParseError);
        }
        match tobj::load_mtl_buf(&mut text.as_bytes()) {
            Ok((mats, _)) => {
                for m in &mats {
                    mtl_of.borrow_mut().insert(m.name.clone(), mtl_path.clone());
                }
                Ok(mats)
            }
            Err(e) => {
                *mtl_error.borrow_mut() = Some(SceneError::file(&mtl_path, format!("MTL: {e}")));
                Err(e)
            }
        }
    };
    // tobj hands over everything after `mtllib` as one name; the format
    // allows several, so a name that is no file is split at white space.
    let loader = |name: &Path| -> tobj::MTLLoadResult {
        let line = name.to_string_lossy();
        let whole = relative_to(path, &line);
        let files: Vec<PathBuf> = if whole.is_file() || !line.contains(char::is_whitespace) {
            vec![whole]
        } else {
            line.split_whitespace()
                .map(|n| relative_to(path, n))
                .collect()
        };
        let (mut materials, mut index) = (Vec::new(), HashMap::new());
        for file in files {
            for m in load_library(file)? {
                index.insert(m.name.clone(), materials.len());
                materials.push(m);
            }
        }
        Ok((materials, index))
    };
    let options = tobj::LoadOptions {
        triangulate: false,
        single_index: true,
        ignore_points: true,
        ignore_lines: true,
    };
    let result = tobj::load_obj_buf(&mut text.as_bytes(), &options, loader);
    if let Some(e) = mtl_error.into_inner() {
        return Err(e);
    }
    let (models, materials) = result.map_err(|e| SceneError::file(path, format!("OBJ: {e}")))?;
    let materials = materials.map_err(|e| SceneError::file(path, format!("MTL: {e}")))?;

    Ok(LoadedObj {
        models,
        materials,
        warnings: warnings.into_inner(),
        sources: sources.into_inner(),
        mtl_of: mtl_of.into_inner(),
    })
}

/// The scene material of MTL material `m`, read from `mtl_path`; its
/// texture, if any, is loaded into `scene` once.
fn material(
    m: &tobj::Material,
    mtl_path: &Path,
    scene: &mut Scene,
    textures: &mut TextureCache,
) -> Material {
    let alpha = match (m.dissolve, m.unknown_param.get("Tr")) {
        (Some(d), _) => d,
        (None, Some(tr)) => tr
            .split_whitespace()
            .next()
            .and_then(|t| t.parse::<f32>().ok())
            .map_or(1.0, |t| 1.0 - t),
        (None, None) => 1.0,
    };
    let alpha = if alpha.is_finite() {
        alpha.clamp(0.0, 1.0)
    } else {
        1.0
    };
    let kd = m.diffuse.unwrap_or([1.0; 3]);
    let texture = m
        .diffuse_texture
        .as_deref()
        .and_then(map_file_name)
        .map(|name| {
            let tex_path = find_texture(mtl_path, name);
            textures.get(scene, &tex_path, mtl_path)
        });
    Material {
        name: m.name.clone(),
        base_color: [kd[0], kd[1], kd[2], alpha],
        texture,
        alpha: if alpha < 1.0 {
            AlphaMode::Blend
        } else {
            AlphaMode::Opaque
        },
        double_sided: false,
        emissive: m.emissive.unwrap_or([0.0; 3]),
        reflective: false,
        particle: false,
        interface: false,
        shading: Shading::Standard,
    }
}

/// The scene mesh of OBJ object `model` (which has faces), with material
/// `material`; a face index out of range is an error naming the object.
fn mesh(
    model: &tobj::Model,
    material: usize,
    path: &Path,
    warnings: &mut Vec<String>,
    triangulator: &mut Triangulator,
) -> Result<Mesh, SceneError> {
    let mesh = &model.mesh;
    let positions: Vec<Vec3> = mesh
        .positions
        .chunks_exact(3)
        .map(|p| Vec3::new(p[0], p[1], p[2]))
        .collect();
    let n = positions.len();
    let normals = if mesh.normals.len() == n * 3 {
        mesh.normals
            .chunks_exact(3)
            .map(|p| super::geometry::normalize_or_up(Vec3::new(p[0], p[1], p[2])))
            .collect()
    } else {
        Vec::new()
    };
    let uvs = if mesh.texcoords.len() == n * 2 {
        mesh.texcoords
            .chunks_exact(2)
            .map(|t| Vec2::new(t[0], 1.0 - t[1]))
            .collect()
    } else {
        if !mesh.texcoords.is_empty() {
            warnings.push(format!(
                "{}: object '{}' has texture coordinates on only some vertices; using none",
                path.display(),
                model.name
            ));
        }
        Vec::new()
    };
    let mut out = Mesh {
        name: model.name.clone(),
        positions,
        normals,
        uvs,
        indices: Vec::new(),
        material,
    };
    // No triangles (a face past the vertices) is the same error as an
    // index out of range: `mesh.indices` is not empty here.
    out.indices = triangles(&out.positions, mesh, triangulator).unwrap_or_default();
    if out.indices.is_empty() || !indices_valid(&out) {
        return Err(SceneError::file(
            path,
            format!("object '{}': a face index is out of range", model.name),
        ));
    }
    complete_mesh(&mut out);
    Ok(out)
}

/// The file name of a `map_Kd` statement, past any options (`-s 1 1 1
/// file.png` names `file.png`; options' arguments are never file names
/// ending the line).
fn map_file_name(spec: &str) -> Option<&str> {
    let spec = spec.trim();
    if spec.starts_with('-') {
        spec.split_whitespace().last()
    } else if spec.is_empty() {
        None
    } else {
        Some(spec)
    }
}

/// Whether `word` is a number that stays finite as an `f32` (tobj reads
/// `nan`, `inf` and `1e39` alike, and a vertex there has no place on screen).
fn finite(word: &str) -> bool {
    word.parse::<f32>().is_ok_and(f32::is_finite)
}

/// Checks what tobj would mis-handle: numbers on `v`/`vt`/`vn` lines and
/// every face index against the vertices defined so far (OBJ indices are
/// 1-based; negative ones count back from the last vertex).
fn check_obj(text: &str, path: &Path) -> Result<(), SceneError> {
    let (mut nv, mut nt, mut nn) = (0usize, 0usize, 0usize);
    for (i, line) in text.lines().enumerate() {
        let lineno = i + 1;
        let mut words = line.split_whitespace();
        let Some(keyword) = words.next() else {
            continue;
        };
        let need_floats = |count: usize, what: &str| -> Result<(), SceneError> {
            let ok = line
                .split_whitespace()
                .skip(1)
                .take(count)
                .filter(|w| finite(w))
                .count()
                == count;
            if ok {
                Ok(())
            } else {
                Err(SceneError::line(
                    path,
                    lineno,
                    format!("expected {count} finite numbers after '{what}'"),
                ))
            }
        };
        match keyword {
            "v" => {
                need_floats(3, "v")?;
                nv += 1;
            }
            "vt" => {
                need_floats(2, "vt")?;
                nt += 1;
            }
            "vn" => {
                need_floats(3, "vn")?;
                nn += 1;
            }
            "f" | "l" | "p" => {
                for word in words {
                    for (k, part) in word.split('/').enumerate() {
                        let (count, what) = match k {
                            0 => (nv, "vertex"),
                            1 => (nt, "texture coordinate"),
                            2 => (nn, "normal"),
                            _ => {
                                return Err(SceneError::line(
                                    path,
                                    lineno,
                                    format!("'{word}': expected v, v/vt, v//vn or v/vt/vn"),
                                ))
                            }
                        };
                        if part.is_empty() && k > 0 {
                            continue;
                        }
                        let idx: i64 = part.parse().map_err(|_| {
                            SceneError::line(
                                path,
                                lineno,
                                format!("'{word}': expected integer indices"),
                            )
                        })?;
                        let ok = if idx > 0 {
                            idx as u64 <= count as u64
                        } else {
                            idx != 0 && idx.unsigned_abs() <= count as u64
                        };
                        if !ok {
                            return Err(SceneError::line(
                                path,
                                lineno,
                                format!(
                                    "{what} index {idx} is out of range: {count} {what}s defined so far (expected 1..={count} or -{count}..=-1)"
                                ),
                            ));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Checks the MTL colour lines tobj expects three numbers on (it panics on
/// fewer).
fn check_mtl(text: &str, path: &Path) -> Result<(), SceneError> {
    for (i, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        let Some(keyword) = words.next() else {
            continue;
        };
        if matches!(keyword, "Ka" | "Kd" | "Ks" | "Ke") {
            let numbers = words.take(3).filter(|w| finite(w)).count();
            if numbers != 3 {
                return Err(SceneError::line(
                    path,
                    i + 1,
                    format!("expected 3 finite numbers after '{keyword}'"),
                ));
            }
        }
    }
    Ok(())
}

/// The triangles of `mesh`'s faces, three indices each; `None` when a face
/// names a vertex beyond `positions` or the faces do not add up to the
/// indices.
fn triangles(positions: &[Vec3], mesh: &tobj::Mesh, tri: &mut Triangulator) -> Option<Vec<u32>> {
    if mesh.face_arities.is_empty() {
        return Some(mesh.indices.clone());
    }
    let mut out = Vec::with_capacity(mesh.indices.len() * 2);
    let mut rest = mesh.indices.as_slice();
    for &arity in &mesh.face_arities {
        let (face, tail) = rest.split_at_checked(arity as usize)?;
        rest = tail;
        if face.iter().any(|&i| i as usize >= positions.len()) {
            return None;
        }
        tri.triangulate_face(face.iter().map(|&i| positions[i as usize]), face, &mut out);
    }
    rest.is_empty().then_some(out)
}
