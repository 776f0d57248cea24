//! glTF 2.0 (`.gltf` + buffers, or binary `.glb`) through the `gltf` crate.
//!
//! - The default scene's node hierarchy (or, without one, the first scene;
//!   or, without scenes, every root node), with each node's transform
//!   composed down the tree. A mesh used by several nodes is stored once
//!   and instanced.
//! - One [`Mesh`] per primitive: triangle lists only (points, lines, strips
//!   and fans are skipped with a warning); POSITION, NORMAL, TEXCOORD_0,
//!   and indices (or none: consecutive vertices). Missing normals are
//!   computed smooth; sparse accessors are an error.
//! - Materials: baseColorFactor, baseColorTexture (its image), alphaMode,
//!   doubleSided, emissiveFactor. Primitives without a material get glTF's
//!   default (white, opaque, single-sided).
//! - Buffers: the GLB's binary chunk, `data:` URIs, or files (relative
//!   to the glTF file, or `file:` URIs), read here rather than by the
//!   crate (`import_buffers`), so that each file read is in
//!   [`Scene::sources`]; a buffer that cannot be read is an error.
//! - Images embedded in a buffer view, in a `data:` URI or in an external
//!   PNG/JPEG file (relative to the glTF file); one that cannot be decoded
//!   becomes a checkerboard with a warning (a file that cannot be read is
//!   in [`Scene::sources`] all the same).
//! - The first node (in document order) carrying a perspective camera
//!   gives the camera (looking down its -Z, up its +Y; an infinite far
//!   plane becomes the framing camera's far plane); otherwise the framing
//!   camera. The first node carrying a KHR_lights_punctual directional
//!   light gives the light direction (its -Z) and colour (the intensity is
//!   not used: the renderer's light is unitless).
//!
//! The `gltf` crate trusts some header and accessor fields in arithmetic,
//! so this module checks the GLB header and every accessor it reads
//! against the buffers first: a truncated or inconsistent file is an error
//! naming the byte offset or the accessor, never a panic. A position or
//! texture coordinate that is not a finite number is an error naming the
//! primitive and the vertex.

use std::collections::BTreeMap;
use std::path::Path;

use gltf::mesh::Mode;

use super::geometry::{complete_mesh, empty_scene, frame, indices_valid, normalize_or_up};
use super::image_file::{checkerboard, decode_image, read_source_image, relative_to};
use super::{
    AlphaMode, Camera, CameraPath, Instance, Light, Material, Mesh, Scene, SceneError, Shading,
};
use crate::math::{Mat4, Vec2, Vec3, Vec4};

/// Deepest node nesting followed (a guard against cyclic hierarchies,
/// which the glTF spec forbids but a corrupt file may have).
const MAX_DEPTH: usize = 256;

/// Loads a `.gltf` or `.glb` file and the buffers and images it references
/// (all in [`Scene::sources`], the glTF file first).
pub fn load(path: &Path) -> Result<Scene, SceneError> {
    super::geometry::load_file(path, |bytes| parse_bytes(bytes, path))
}

/// Parses glTF JSON or GLB bytes; `path` names the file in messages and
/// locates external buffers and images (relative to it).
pub fn parse_bytes(bytes: &[u8], path: &Path) -> Result<Scene, SceneError> {
    let err = |msg: String| SceneError::file(path, msg);
    if bytes.starts_with(b"glTF") {
        check_glb_header(bytes).map_err(err)?;
    }
    let gltf::Gltf { document, blob } = gltf::Gltf::from_slice_without_validation(bytes)
        .map_err(|e| err(format!("invalid glTF: {e}")))?;
    // gltf-json's validation indexes the accessor list with the POSITION
    // attribute unchecked (a panic on a bad index), so check that first.
    let root = document.into_json();
    for (mi, mesh) in root.meshes.iter().enumerate() {
        for (pi, prim) in mesh.primitives.iter().enumerate() {
            for (semantic, acc) in &prim.attributes {
                if acc.value() >= root.accessors.len() {
                    return Err(err(format!(
                        "mesh {mi} primitive {pi}: attribute {semantic:?} names accessor {}, but there are {}",
                        acc.value(),
                        root.accessors.len()
                    )));
                }
            }
        }
    }
    let document =
        gltf::Document::from_json(root).map_err(|e| err(format!("invalid glTF: {e}")))?;
    let mut sources = Vec::new();
    let buffers = import_buffers(&document, path, blob, &mut sources)?;
    let buffers: Vec<&[u8]> = buffers.iter().map(|b| &b[..]).collect();

    let mut scene = empty_scene(path);
    scene.sources = sources;
    let mut loader = Loader {
        path,
        buffers: &buffers,
        images: BTreeMap::new(),
        meshes: BTreeMap::new(),
        default_material: None,
        camera: None,
        light: None,
        visited: vec![false; document.nodes().len()],
    };

    for m in document.materials() {
        let pbr = m.pbr_metallic_roughness();
        let texture = pbr
            .base_color_texture()
            .map(|info| loader.image(&mut scene, info.texture().source()));
        let alpha = match m.alpha_mode() {
            gltf::material::AlphaMode::Opaque => AlphaMode::Opaque,
            gltf::material::AlphaMode::Mask => AlphaMode::Mask,
            gltf::material::AlphaMode::Blend => AlphaMode::Blend,
        };
        scene.materials.push(Material {
            name: m.name().unwrap_or_default().to_string(),
            base_color: pbr.base_color_factor(),
            texture,
            alpha,
            double_sided: m.double_sided(),
            emissive: m.emissive_factor(),
            reflective: false,
            particle: false,
            interface: false,
            shading: Shading::Standard,
        });
    }

    let roots: Vec<gltf::Node> = match document
        .default_scene()
        .or_else(|| document.scenes().next())
    {
        Some(s) => s.nodes().collect(),
        None => {
            let mut is_child = vec![false; document.nodes().len()];
            for n in document.nodes() {
                for c in n.children() {
                    if let Some(f) = is_child.get_mut(c.index()) {
                        *f = true;
                    }
                }
            }
            document.nodes().filter(|n| !is_child[n.index()]).collect()
        }
    };
    for node in roots {
        loader.node(&mut scene, node, Mat4::IDENTITY, 0)?;
    }

    if let Some(l) = loader.light {
        scene.light = l;
    }
    match loader.camera {
        Some(mut cam) => {
            if !cam.far.is_finite() || cam.far <= cam.near {
                cam.far = scene.framing_camera().far.max(cam.near * 2.0);
            }
            scene.camera = CameraPath::still(cam);
        }
        None => frame(&mut scene),
    }
    Ok(scene)
}

/// Checks the 12-byte GLB header and the chunk headers against the file
/// length, so a truncated file is reported as such.
fn check_glb_header(b: &[u8]) -> Result<(), String> {
    let u32_at = |off: usize| -> Option<u32> {
        Some(u32::from_le_bytes(b.get(off..off + 4)?.try_into().ok()?))
    };
    let (Some(version), Some(length)) = (u32_at(4), u32_at(8)) else {
        return Err(format!(
            "truncated GLB: the file is {} bytes, expected a 12-byte header",
            b.len()
        ));
    };
    if version != 2 {
        return Err(format!("GLB version {version}: expected 2"));
    }
    if (length as usize) < 20 {
        return Err(format!(
            "GLB header gives a length of {length}: expected at least 20"
        ));
    }
    if b.len() < length as usize {
        return Err(format!(
            "truncated GLB: the header gives {length} bytes, the file has {}",
            b.len()
        ));
    }
    let mut off = 12usize;
    while off < length as usize {
        let Some(chunk_len) = u32_at(off) else {
            return Err(format!(
                "truncated GLB: chunk header at byte {off} is cut short"
            ));
        };
        let end = off + 8 + chunk_len as usize;
        if end > length as usize {
            return Err(format!(
                "truncated GLB: chunk at byte {off} needs {chunk_len} bytes, only {} remain",
                (length as usize).saturating_sub(off + 8)
            ));
        }
        off = end;
    }
    Ok(())
}

struct Loader<'a> {
    path: &'a Path,
    buffers: &'a [&'a [u8]],
    /// glTF image index -> scene image index.
    images: BTreeMap<usize, usize>,
    /// (glTF mesh, primitive) -> scene mesh index (None: skipped).
    meshes: BTreeMap<(usize, usize), Option<usize>>,
    default_material: Option<usize>,
    camera: Option<Camera>,
    light: Option<Light>,
    /// Nodes already placed: a node has one parent, so a second visit
    /// means a corrupt hierarchy (which could otherwise multiply the
    /// instances exponentially).
    visited: Vec<bool>,
}

impl Loader<'_> {
    fn node(
        &mut self,
        scene: &mut Scene,
        node: gltf::Node,
        parent: Mat4,
        depth: usize,
    ) -> Result<(), SceneError> {
        if depth > MAX_DEPTH {
            return Err(SceneError::file(
                self.path,
                format!(
                    "node {} is nested more than {MAX_DEPTH} deep (a cycle?)",
                    node.index()
                ),
            ));
        }
        match self.visited.get_mut(node.index()) {
            Some(v) if !*v => *v = true,
            _ => {
                return Err(SceneError::file(
                    self.path,
                    format!(
                        "node {} is reached twice: expected every node to have at most one parent",
                        node.index()
                    ),
                ))
            }
        }
        let m = node.transform().matrix();
        let local = Mat4::from_cols(
            Vec4::new(m[0][0], m[0][1], m[0][2], m[0][3]),
            Vec4::new(m[1][0], m[1][1], m[1][2], m[1][3]),
            Vec4::new(m[2][0], m[2][1], m[2][2], m[2][3]),
            Vec4::new(m[3][0], m[3][1], m[3][2], m[3][3]),
        );
        let world = parent * local;
        let origin = world.transform_point(Vec3::default()).truncate();
        let forward = normalize_or_up(world.transform_vector(Vec3::new(0.0, 0.0, -1.0)));

        if self.camera.is_none() {
            if let Some(cam) = node.camera() {
                if let gltf::camera::Projection::Perspective(p) = cam.projection() {
                    self.camera = Some(Camera {
                        eye: origin,
                        target: origin + forward,
                        up: normalize_or_up(world.transform_vector(Vec3::new(0.0, 1.0, 0.0))),
                        fov_y: p.yfov(),
                        near: p.znear(),
                        far: p.zfar().unwrap_or(f32::INFINITY),
                    });
                }
            }
        }
        if self.light.is_none() {
            if let Some(l) = node.light() {
                if matches!(l.kind(), gltf::khr_lights_punctual::Kind::Directional) {
                    self.light = Some(Light {
                        direction: forward,
                        color: l.color(),
                        ..Light::default()
                    });
                }
            }
        }
        if let Some(mesh) = node.mesh() {
            for prim in mesh.primitives() {
                let key = (mesh.index(), prim.index());
                let idx = match self.meshes.get(&key) {
                    Some(&i) => i,
                    None => {
                        let i = self.primitive(scene, &mesh, &prim)?;
                        self.meshes.insert(key, i);
                        i
                    }
                };
                if let Some(i) = idx {
                    scene.instances.push(Instance {
                        mesh: i,
                        transform: world,
                    });
                }
            }
        }
        for child in node.children() {
            self.node(scene, child, world, depth + 1)?;
        }
        Ok(())
    }

    /// Converts one primitive; `None` when it is skipped (not triangles).
    fn primitive(
        &mut self,
        scene: &mut Scene,
        mesh: &gltf::Mesh,
        prim: &gltf::Primitive,
    ) -> Result<Option<usize>, SceneError> {
        let what = format!("mesh {} primitive {}", mesh.index(), prim.index());
        if prim.mode() != Mode::Triangles {
            scene.warnings.push(format!(
                "{}: {what}: mode {:?} skipped (only triangle lists are drawn)",
                self.path.display(),
                prim.mode()
            ));
            return Ok(None);
        }
        // The crate's readers assume these types (and panic on others), so
        // check them with the bounds of every accessor that is read.
        use gltf::accessor::{DataType, Dimensions};
        use gltf::Semantic;
        for (semantic, acc) in prim.attributes() {
            let (types, dims): (&[DataType], _) = match semantic {
                Semantic::Positions | Semantic::Normals => (&[DataType::F32], Dimensions::Vec3),
                Semantic::TexCoords(0) => (
                    &[DataType::F32, DataType::U8, DataType::U16],
                    Dimensions::Vec2,
                ),
                _ => continue,
            };
            self.check_type(&acc, &what, &format!("{semantic:?}"), types, dims)?;
            self.check_accessor(&acc, &what)?;
        }
        if let Some(acc) = prim.indices() {
            let types = [DataType::U8, DataType::U16, DataType::U32];
            self.check_type(&acc, &what, "indices", &types, Dimensions::Scalar)?;
            self.check_accessor(&acc, &what)?;
        }
        let buffers = self.buffers;
        let reader = prim.reader(|b| buffers.get(b.index()).copied());
        let positions: Vec<Vec3> = reader
            .read_positions()
            .ok_or_else(|| {
                SceneError::file(self.path, format!("{what}: expected a POSITION attribute"))
            })?
            .map(|p| Vec3::new(p[0], p[1], p[2]))
            .collect();
        let normals: Vec<Vec3> = reader
            .read_normals()
            .map(|it| {
                it.map(|n| normalize_or_up(Vec3::new(n[0], n[1], n[2])))
                    .collect()
            })
            .unwrap_or_default();
        let uvs: Vec<Vec2> = reader
            .read_tex_coords(0)
            .map(|it| it.into_f32().map(|t| Vec2::new(t[0], t[1])).collect())
            .unwrap_or_default();
        let bad_position = positions
            .iter()
            .position(|p| !(p.x.is_finite() && p.y.is_finite() && p.z.is_finite()));
        let bad_uv = uvs
            .iter()
            .position(|t| !(t.x.is_finite() && t.y.is_finite()));
        for (attribute, bad) in [("POSITION", bad_position), ("TEXCOORD_0", bad_uv)] {
            if let Some(i) = bad {
                return Err(SceneError::file(
                    self.path,
                    format!("{what}: {attribute} of vertex {i} is not a finite number"),
                ));
            }
        }
        let indices: Vec<u32> = match reader.read_indices() {
            Some(it) => it.into_u32().collect(),
            None => (0..positions.len() as u32).collect(),
        };
        let material = match prim.material().index() {
            Some(i) if i < scene.materials.len() => i,
            _ => *self.default_material.get_or_insert_with(|| {
                scene.materials.push(Material {
                    name: "default".into(),
                    ..Material::default()
                });
                scene.materials.len() - 1
            }),
        };
        let mut out = Mesh {
            name: match mesh.name() {
                Some(n) => format!("{n}.{}", prim.index()),
                None => what.clone(),
            },
            positions,
            normals,
            uvs,
            indices,
            material,
        };
        // Trailing indices that do not make a whole triangle are dropped.
        out.indices.truncate(out.indices.len() / 3 * 3);
        if !indices_valid(&out) {
            return Err(SceneError::file(
                self.path,
                format!(
                    "{what}: an index is not below the vertex count {}",
                    out.positions.len()
                ),
            ));
        }
        complete_mesh(&mut out);
        scene.meshes.push(out);
        Ok(Some(scene.meshes.len() - 1))
    }

    /// Checks an accessor's component type and dimensions against what its
    /// use allows.
    fn check_type(
        &self,
        acc: &gltf::Accessor,
        what: &str,
        role: &str,
        types: &[gltf::accessor::DataType],
        dims: gltf::accessor::Dimensions,
    ) -> Result<(), SceneError> {
        if types.contains(&acc.data_type()) && acc.dimensions() == dims {
            return Ok(());
        }
        Err(SceneError::file(
            self.path,
            format!(
                "{what}: {role} accessor {} is {:?} {:?}: expected {dims:?} of {types:?}",
                acc.index(),
                acc.dimensions(),
                acc.data_type()
            ),
        ))
    }

    /// Checks that an accessor's elements lie inside its buffer view and the
    /// view inside its buffer (the crate reads without checking overflow).
    fn check_accessor(&self, acc: &gltf::Accessor, what: &str) -> Result<(), SceneError> {
        let bad = |msg: String| {
            SceneError::file(
                self.path,
                format!("{what}: accessor {}: {msg}", acc.index()),
            )
        };
        if acc.sparse().is_some() {
            return Err(bad("sparse accessors are not supported".into()));
        }
        let count = acc.count();
        let Some(view) = acc.view() else {
            return Err(bad(
                "expected a bufferView (accessors without data are not supported)".into(),
            ));
        };
        if count == 0 {
            return Ok(());
        }
        let size = acc.size();
        let stride = view.stride().unwrap_or(size);
        let end = stride
            .checked_mul(count - 1)
            .and_then(|v| v.checked_add(size))
            .and_then(|v| v.checked_add(acc.offset()));
        match end {
            Some(end) if end <= view.length() => {}
            _ => {
                return Err(bad(format!(
                    "{count} elements of {size} bytes (stride {stride}) at offset {} overrun its {}-byte bufferView {}",
                    acc.offset(),
                    view.length(),
                    view.index()
                )))
            }
        }
        let buf_len = self
            .buffers
            .get(view.buffer().index())
            .map_or(0, |b| b.len());
        match view.offset().checked_add(view.length()) {
            Some(e) if e <= buf_len => Ok(()),
            _ => Err(bad(format!(
                "bufferView {} (bytes {}..+{}) overruns its {buf_len}-byte buffer",
                view.index(),
                view.offset(),
                view.length()
            ))),
        }
    }

    /// The scene image of glTF image `img`, decoding it on first use.
    fn image(&mut self, scene: &mut Scene, img: gltf::Image) -> usize {
        if let Some(&i) = self.images.get(&img.index()) {
            return i;
        }
        let label = img
            .name()
            .map(str::to_string)
            .unwrap_or_else(|| format!("image {}", img.index()));
        let decoded = match img.source() {
            gltf::image::Source::View { view, .. } => {
                let data = self
                    .buffers
                    .get(view.buffer().index())
                    .and_then(|b| b.get(view.offset()..view.offset().checked_add(view.length())?));
                match data {
                    Some(d) => decode_image(d, Path::new(&label)).map_err(|e| e.to_string()),
                    None => Err(format!("bufferView {} is outside its buffer", view.index())),
                }
            }
            gltf::image::Source::Uri { uri, .. } => {
                if let Some(rest) = uri.strip_prefix("data:") {
                    match rest.split_once(";base64,") {
                        Some((_, data)) => base64_decode(data)
                            .ok_or_else(|| "bad base64 in data URI".to_string())
                            .and_then(|d| {
                                decode_image(&d, Path::new(&label)).map_err(|e| e.to_string())
                            }),
                        None => Err("data URI is not base64".to_string()),
                    }
                } else {
                    let file = relative_to(self.path, &percent_decode(uri));
                    read_source_image(&file, &mut scene.sources).map_err(|e| e.to_string())
                }
            }
        };
        let image = match decoded {
            Ok(mut i) => {
                if i.name.is_empty() {
                    i.name = label;
                }
                i
            }
            Err(e) => {
                scene.warnings.push(format!(
                    "{}: {label}: {e}; using a checkerboard",
                    self.path.display()
                ));
                checkerboard(&label)
            }
        };
        scene.images.push(image);
        let i = scene.images.len() - 1;
        self.images.insert(img.index(), i);
        i
    }
}

/// The document's buffers, in order: the GLB's binary chunk, a `data:`
/// URI's bytes, or a file (a relative URI from the glTF file's directory,
/// or a `file:` URI), read through `read_source` so that it is among the
/// scene's sources and held to the loaders' size limit. Instead of
/// `gltf::import_buffers`, which opens files where nobody sees, reads
/// any size and panics on a URI whose `%` escapes are not UTF-8. A
/// buffer that cannot be had, or is shorter than its `byteLength`, is an
/// error naming it.
fn import_buffers(
    document: &gltf::Document,
    path: &Path,
    mut blob: Option<Vec<u8>>,
    sources: &mut Vec<std::path::PathBuf>,
) -> Result<Vec<Vec<u8>>, SceneError> {
    let mut out = Vec::with_capacity(document.buffers().len());
    for buffer in document.buffers() {
        let bad = |msg: String| SceneError::file(path, format!("buffer {}: {msg}", buffer.index()));
        let mut data = match buffer.source() {
            gltf::buffer::Source::Bin => blob
                .take()
                .ok_or_else(|| bad("expected the GLB's binary chunk, but there is none".into()))?,
            gltf::buffer::Source::Uri(uri) => {
                if let Some(rest) = uri.strip_prefix("data:") {
                    let data = rest.split_once(";base64,").map_or(rest, |(_, d)| d);
                    base64_decode(data).ok_or_else(|| bad("bad base64 in its data URI".into()))?
                } else {
                    let file = match uri
                        .strip_prefix("file://")
                        .or_else(|| uri.strip_prefix("file:"))
                    {
                        Some(abs) => std::path::PathBuf::from(percent_decode(abs)),
                        None if uri.contains(':') => {
                            return Err(bad(format!(
                                "URI {uri:?}: expected a relative path, a file: or a data: URI"
                            )))
                        }
                        None => relative_to(path, &percent_decode(uri)),
                    };
                    super::geometry::read_source(&file, sources).map_err(|e| bad(e.to_string()))?
                }
            }
        };
        if data.len() < buffer.length() {
            return Err(bad(format!(
                "{} bytes, but its byteLength is {}",
                data.len(),
                buffer.length()
            )));
        }
        while data.len() % 4 != 0 {
            data.push(0);
        }
        out.push(data);
    }
    Ok(out)
}

/// `%20`-style escapes of a relative URI decoded (other text kept).
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%' && i + 2 < b.len() {
            if let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Standard base64 (padding optional, whitespace ignored); `None` on any
/// other character.
fn base64_decode(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' | b' ' | b'\n' | b'\r' | b'\t' => continue,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_and_percent_decoding() {
        assert_eq!(base64_decode("aGVsbG8=").unwrap(), b"hello");
        assert_eq!(base64_decode("aGVsbG8").unwrap(), b"hello");
        assert_eq!(base64_decode("AAEC/w==").unwrap(), vec![0, 1, 2, 255]);
        assert!(base64_decode("a*b").is_none());
        assert_eq!(percent_decode("my%20tex.png"), "my tex.png");
        assert_eq!(percent_decode("50%"), "50%");
    }
}
