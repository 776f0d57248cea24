//! AC3D `.ac` files (the text format of the AC3D modeller, used by
//! FlightGear, TORCS, CRRCsim...), parsed here without a crate.
//!
//! ```text
//! AC3Db
//! MATERIAL "red" rgb 1 0 0  amb 0.2 0.2 0.2  emis 0 0 0  spec 0.5 0.5 0.5  shi 10  trans 0
//! OBJECT world
//! kids 1
//! OBJECT poly
//! name "box"
//! texture "box.rgb"
//! loc 0 1 0
//! numvert 4
//! 0 0 0
//! ...
//! numsurf 1
//! SURF 0x10
//! mat 0
//! refs 4
//! 0 0 0
//! 1 1 0
//! ...
//! kids 0
//! ```
//!
//! Supported: the `AC3D` header of any version letter; `MATERIAL` lines
//! (`rgb` -> base colour, `trans` -> alpha `1 - trans` and
//! [`AlphaMode::Blend`] when above 0, or [`AlphaMode::Mask`] when its
//! texture has cut-out texels (see `has_cutout`), `emis` -> emissive, or
//! added to the base colour on a textured surface (see `fold_emission`);
//! `amb`, `spec`,
//! `shi` read and unused); `OBJECT world/poly/group/light` with `name`,
//! `data` (skipped, possibly several lines), `texture`, `texrep`, `texoff`,
//! `rot` (3x3, its three triples the images of the x, y and z axes, as
//! PLIB and OpenSceneGraph read it), `loc`, `url`, `crease`, `subdiv`,
//! `numvert` (a vertex line may carry a normal after the position: it is
//! ignored), `numsurf`, `SURF` flags (type 0 polygons are triangulated,
//! concave ones by ear clipping, see [`super::polygon`]; closed and open
//! lines are skipped; 0x10 smooth shading; 0x20 two-sided -> a double-sided
//! material), `mat`, `refs` with uvs, and `kids` with transforms composed
//! down the tree. Lights are read as groups (their light is not used).
//!
//! TORCS's `.acc` variant too: `texture "file" base|tiled|skids|shad`
//! layers (the base one is drawn, `empty_texture_no_mapping` is none),
//! `refs` lines with the other layers' uv pairs after the first (ignored),
//! and `SURF` type 4, triangle strips.
//!
//! Skipped without error: AC3Dc's `hidden`, `locked` and `folded` flags
//! (editor state) and `shader` lines. Any other token is an error naming
//! `file:line` and what was expected.
//!
//! Shading: vertices of smooth surfaces are shared (per position and uv)
//! and get smooth normals; flat surfaces get their own vertices, so their
//! normals are the face normal. The crease angle is not applied.
//! UVs: `texoff + uv * texrep`, then `v` flipped (AC3D's `v` points up).
//!
//! Textures are looked for next to the file, then in a `textures`
//! directory beside or above it (see `image_file::find_texture`); one
//! that cannot be read becomes a checkerboard with a warning.

use std::collections::BTreeMap;
use std::path::Path;

use super::geometry::{complete_mesh, empty_scene, frame};
use super::image_file::{find_texture, TextureCache};
use super::polygon::Triangulator;
use super::{AlphaMode, Instance, Material, Mesh, Scene, SceneError};
use crate::math::{Mat4, Vec2, Vec3, Vec4};

/// Deepest object nesting accepted (a guard against corrupt `kids`).
const MAX_DEPTH: usize = 128;

/// Loads an `.ac` file and the textures it names (relative to it; all in
/// [`Scene::sources`], the `.ac` file first).
pub fn load(path: &Path) -> Result<Scene, SceneError> {
    super::geometry::load_file(path, |bytes| {
        parse_str(&String::from_utf8_lossy(bytes), path)
    })
}

/// Parses AC3D text; `path` names the file in messages and locates the
/// textures (a texture that cannot be read becomes a checkerboard and a
/// warning, so this needs no files to succeed).
pub fn parse_str(text: &str, path: &Path) -> Result<Scene, SceneError> {
    let mut p = Parser {
        path,
        lines: text.lines().collect(),
        pos: 0,
        scene: empty_scene(path),
        textures: TextureCache::default(),
        ac_materials: Vec::new(),
        materials: BTreeMap::new(),
        cut_short: false,
    };
    p.file()?;
    let mut scene = p.scene;
    frame(&mut scene);
    Ok(scene)
}

/// Splits a line into words; a double-quoted string is one word (quotes
/// removed). An unterminated quote runs to the end of the line.
fn words(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line.trim_start();
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('"') {
            let end = r.find('"').unwrap_or(r.len());
            out.push(&r[..end]);
            rest = r.get(end + 1..).unwrap_or("").trim_start();
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            out.push(&rest[..end]);
            rest = rest[end..].trim_start();
        }
    }
    out
}

/// The `SURF` type (low four bits of the flags) TORCS gives its
/// triangle strips; 1 and 2 are AC3D's closed and open lines.
const STRIP: u32 = 4;

/// How a surface's corners make triangles.
#[derive(Clone, Copy, PartialEq)]
enum SurfaceKind {
    /// One polygon, triangulated (see [`super::polygon`]).
    Polygon,
    /// A triangle strip, as OpenGL draws one: triangle `i` is corners
    /// `i, i+1, i+2`, every other one turned so that all keep the
    /// winding of the first; triangles with a repeated vertex (TORCS's
    /// strips start with one to set the winding) are dropped.
    Strip,
}

/// One surface's triangles before they become mesh vertices.
struct Surface {
    kind: SurfaceKind,
    smooth: bool,
    /// (vertex index, uv) per corner, in the polygon's order.
    corners: Vec<(usize, Vec2)>,
}

struct Parser<'a> {
    path: &'a Path,
    lines: Vec<&'a str>,
    /// Index of the next line to read.
    pos: usize,
    scene: Scene,
    textures: TextureCache,
    ac_materials: Vec<Material>,
    /// (AC3D material, texture image, two-sided) -> scene material.
    materials: BTreeMap<(Option<usize>, Option<usize>, bool), usize>,
    /// The file ended inside a `kids` list (see `kids_cut_short`).
    cut_short: bool,
}

impl<'a> Parser<'a> {
    fn err(&self, line: usize, msg: impl Into<String>) -> SceneError {
        SceneError::line(self.path, line, msg)
    }

    /// The next non-blank line as (1-based line number, words).
    fn next(&mut self) -> Option<(usize, Vec<&'a str>)> {
        while self.pos < self.lines.len() {
            let line = self.lines[self.pos];
            self.pos += 1;
            let w = words(line);
            if !w.is_empty() {
                return Some((self.pos, w));
            }
        }
        None
    }

    /// The next line, which must exist (`what` says what was expected).
    fn expect(&mut self, what: &str) -> Result<(usize, Vec<&'a str>), SceneError> {
        let last = self.lines.len();
        self.next()
            .ok_or_else(|| self.err(last, format!("unexpected end of file: expected {what}")))
    }

    fn float(&self, line: usize, w: &[&str], i: usize, what: &str) -> Result<f32, SceneError> {
        w.get(i)
            .and_then(|s| s.parse::<f32>().ok())
            .filter(|v| v.is_finite())
            .ok_or_else(|| {
                self.err(
                    line,
                    format!(
                        "expected a number for {what}, found {:?}",
                        w.get(i).unwrap_or(&"")
                    ),
                )
            })
    }

    fn count(&self, line: usize, w: &[&str], what: &str) -> Result<usize, SceneError> {
        if w.len() != 2 {
            return Err(self.err(line, format!("expected '{what} <count>'")));
        }
        w[1].parse::<usize>().map_err(|_| {
            self.err(
                line,
                format!("expected a count after '{what}', found '{}'", w[1]),
            )
        })
    }

    fn file(&mut self) -> Result<(), SceneError> {
        let first = self.lines.first().copied().unwrap_or("").trim_end();
        let ok = first.starts_with("AC3D")
            && first.len() == 5
            && first.as_bytes()[4].is_ascii_alphanumeric();
        if !ok {
            return Err(self.err(1, "expected the header 'AC3Db' (AC3D and a version letter)"));
        }
        self.pos = 1;
        let mut objects = 0;
        while let Some((line, w)) = self.next() {
            match w[0] {
                "MATERIAL" => {
                    let m = self.material(line, &w)?;
                    self.ac_materials.push(m);
                }
                "OBJECT" => {
                    self.object(line, &w, Mat4::IDENTITY, 0)?;
                    objects += 1;
                }
                t => {
                    return Err(self.err(
                        line,
                        format!("unknown token '{t}': expected MATERIAL or OBJECT"),
                    ))
                }
            }
        }
        if objects == 0 {
            return Err(self.err(self.lines.len().max(1), "expected at least one OBJECT"));
        }
        Ok(())
    }

    fn material(&self, line: usize, w: &[&str]) -> Result<Material, SceneError> {
        let mut m = Material {
            name: w.get(1).copied().unwrap_or_default().to_string(),
            ..Material::default()
        };
        let mut i = 2;
        while i < w.len() {
            let n = match w[i] {
                "rgb" | "amb" | "emis" | "spec" => 3,
                "shi" | "trans" => 1,
                t => {
                    return Err(self.err(
                        line,
                        format!(
                        "unknown MATERIAL field '{t}': expected rgb, amb, emis, spec, shi or trans"
                    ),
                    ))
                }
            };
            let mut v = [0f32; 3];
            for (k, slot) in v.iter_mut().take(n).enumerate() {
                *slot = self.float(line, w, i + 1 + k, w[i])?;
            }
            match w[i] {
                "rgb" => m.base_color = [v[0], v[1], v[2], 1.0],
                "emis" => m.emissive = v,
                "trans" => {
                    let alpha = (1.0 - v[0]).clamp(0.0, 1.0);
                    m.base_color[3] = alpha;
                    m.alpha = if alpha < 1.0 {
                        AlphaMode::Blend
                    } else {
                        AlphaMode::Opaque
                    };
                }
                _ => {}
            }
            i += 1 + n;
        }
        // `trans` may come before `rgb`; keep the alpha it set.
        if m.alpha == AlphaMode::Blend && m.base_color[3] >= 1.0 {
            m.alpha = AlphaMode::Opaque;
        }
        Ok(m)
    }

    fn object(
        &mut self,
        line: usize,
        w: &[&str],
        parent: Mat4,
        depth: usize,
    ) -> Result<(), SceneError> {
        if depth > MAX_DEPTH {
            return Err(self.err(line, format!("objects nested more than {MAX_DEPTH} deep")));
        }
        match w.get(1).copied() {
            Some("world" | "poly" | "group" | "light") if w.len() == 2 => {}
            _ => {
                return Err(self.err(
                    line,
                    "expected 'OBJECT world', 'OBJECT poly', 'OBJECT group' or 'OBJECT light'",
                ))
            }
        }
        let mut name = String::new();
        let mut texture: Option<String> = None;
        let (mut texrep, mut texoff) = (Vec2::new(1.0, 1.0), Vec2::new(0.0, 0.0));
        let mut rot = Mat4::IDENTITY;
        let mut loc = Vec3::default();
        let mut verts: Vec<Vec3> = Vec::new();
        let mut surfaces: Vec<(Option<usize>, bool, Surface)> = Vec::new();
        loop {
            let (line, w) = self.expect("an object field or 'kids'")?;
            match w[0] {
                "name" => name = w.get(1).copied().unwrap_or_default().to_string(),
                "data" => {
                    let n = self.count(line, &w, "data")?;
                    self.skip_chars(n);
                }
                "texture" => {
                    if let Some(base) = self.texture_layer(line, &w)? {
                        texture = base;
                    }
                }
                "texrep" | "texoff" => {
                    let v = Vec2::new(self.float(line, &w, 1, w[0])?, self.float(line, &w, 2, w[0])?);
                    if w[0] == "texrep" {
                        texrep = v;
                    } else {
                        texoff = v;
                    }
                }
                "rot" => {
                    let mut r = [0f32; 9];
                    for (k, slot) in r.iter_mut().enumerate() {
                        *slot = self.float(line, &w, k + 1, "rot")?;
                    }
                    rot = Mat4::from_cols(
                        Vec4::new(r[0], r[1], r[2], 0.0),
                        Vec4::new(r[3], r[4], r[5], 0.0),
                        Vec4::new(r[6], r[7], r[8], 0.0),
                        Vec4::new(0.0, 0.0, 0.0, 1.0),
                    );
                }
                "loc" => {
                    loc = Vec3::new(
                        self.float(line, &w, 1, "loc")?,
                        self.float(line, &w, 2, "loc")?,
                        self.float(line, &w, 3, "loc")?,
                    );
                }
                "url" | "crease" | "subdiv" | "hidden" | "locked" | "folded" | "shader" => {}
                "numvert" => {
                    let n = self.count(line, &w, "numvert")?;
                    for _ in 0..n {
                        let (line, v) = self.expect("a vertex 'x y z'")?;
                        if v.len() != 3 && v.len() != 6 {
                            return Err(self.err(line, "expected a vertex 'x y z' (optionally followed by a normal)"));
                        }
                        verts.push(Vec3::new(
                            self.float(line, &v, 0, "x")?,
                            self.float(line, &v, 1, "y")?,
                            self.float(line, &v, 2, "z")?,
                        ));
                    }
                }
                "numsurf" => {
                    let n = self.count(line, &w, "numsurf")?;
                    for _ in 0..n {
                        if let Some(s) = self.surface(verts.len(), texrep, texoff)? {
                            surfaces.push(s);
                        }
                    }
                }
                "kids" => {
                    let kids = self.count(line, &w, "kids")?;
                    let world = parent * Mat4::translation(loc) * rot;
                    self.emit(&name, texture.as_deref(), &verts, surfaces, world);
                    for read in 0..kids {
                        let Some((line, w)) = self.next() else {
                            self.kids_cut_short(line, kids, read);
                            return Ok(());
                        };
                        if w[0] != "OBJECT" {
                            return Err(self.err(line, format!("unknown token '{}': expected a child 'OBJECT'", w[0])));
                        }
                        self.object(line, &w, world, depth + 1)?;
                    }
                    return Ok(());
                }
                t => {
                    return Err(self.err(
                        line,
                        format!("unknown token '{t}': expected an object field (name, data, texture, texrep, texoff, rot, loc, url, crease, subdiv, numvert, numsurf) or 'kids'"),
                    ))
                }
            }
        }
    }

    /// A `texture` line: `Some(name)` for the object's texture, `Some(None)`
    /// for none, `None` for a layer that is not drawn. TORCS's `.acc` files
    /// name up to four layers, `texture "name" base|tiled|skids|shad`,
    /// `empty_texture_no_mapping` for an empty one: only the base layer is
    /// drawn (the tiled detail, skid-mark and shadow layers are not).
    fn texture_layer(&self, line: usize, w: &[&str]) -> Result<Option<Option<String>>, SceneError> {
        let expected =
            "expected 'texture \"file\"' (TORCS: 'texture \"file\" base|tiled|skids|shad')";
        let name = match w.len() {
            2 => w[1],
            3 if w[2] == "base" => w[1],
            3 if matches!(w[2], "tiled" | "skids" | "shad") => return Ok(None),
            _ => return Err(self.err(line, expected)),
        };
        Ok(Some(
            (name != "empty_texture_no_mapping").then(|| name.to_string()),
        ))
    }

    /// The file ended after `read` of the `kids` children announced at
    /// `line`. TORCS's track files often announce more children than they
    /// hold, and TORCS reads them to the end of the file; so do we, with a
    /// warning (once: the objects above this one then end short too).
    fn kids_cut_short(&mut self, line: usize, kids: usize, read: usize) {
        if !self.cut_short {
            self.cut_short = true;
            self.scene.warnings.push(format!(
                "{}:{line}: 'kids {kids}' but the file ends after {read} of them; the objects read are kept",
                self.path.display()
            ));
        }
    }

    /// Skips `n` characters of `data` (newlines included) after its line.
    fn skip_chars(&mut self, n: usize) {
        let mut left = n;
        while left > 0 && self.pos < self.lines.len() {
            let len = self.lines[self.pos].len() + 1;
            self.pos += 1;
            left = left.saturating_sub(len);
        }
    }

    /// One `SURF` block; `None` for line surfaces (skipped).
    #[allow(clippy::type_complexity)]
    fn surface(
        &mut self,
        nverts: usize,
        texrep: Vec2,
        texoff: Vec2,
    ) -> Result<Option<(Option<usize>, bool, Surface)>, SceneError> {
        let (line, w) = self.expect("'SURF <flags>'")?;
        if w[0] != "SURF" || w.len() != 2 {
            return Err(self.err(
                line,
                format!("unknown token '{}': expected 'SURF <flags>'", w[0]),
            ));
        }
        let flags = match w[1].strip_prefix("0x").or_else(|| w[1].strip_prefix("0X")) {
            Some(h) => u32::from_str_radix(h, 16).ok(),
            None => w[1].parse().ok(),
        }
        .ok_or_else(|| {
            self.err(
                line,
                format!("expected SURF flags like 0x20, found '{}'", w[1]),
            )
        })?;
        let mut mat = None;
        loop {
            let (line, w) = self.expect("'mat' or 'refs'")?;
            match w[0] {
                "mat" => {
                    let m = self.count(line, &w, "mat")?;
                    if m >= self.ac_materials.len() {
                        return Err(self.err(
                            line,
                            format!(
                                "material {m} is out of range: {} MATERIAL lines precede it",
                                self.ac_materials.len()
                            ),
                        ));
                    }
                    mat = Some(m);
                }
                "refs" => {
                    let n = self.count(line, &w, "refs")?;
                    let mut corners = Vec::new();
                    for _ in 0..n {
                        let (line, r) = self.expect("a reference 'vertex u v'")?;
                        // TORCS adds the uvs of its other texture layers.
                        if !matches!(r.len(), 3 | 5 | 7 | 9) {
                            return Err(self.err(line, "expected a reference 'vertex u v' (TORCS: up to three more 'u v' pairs)"));
                        }
                        let vi = r[0].parse::<usize>().ok().filter(|&v| v < nverts).ok_or_else(|| {
                            self.err(line, format!("vertex reference '{}' is out of range: expected 0..{nverts}", r[0]))
                        })?;
                        let u = self.float(line, &r, 1, "u")?;
                        let v = self.float(line, &r, 2, "v")?;
                        let u = texoff.x + u * texrep.x;
                        let v = texoff.y + v * texrep.y;
                        corners.push((vi, Vec2::new(u, 1.0 - v)));
                    }
                    let kind = match flags & 0xF {
                        0 => SurfaceKind::Polygon,
                        STRIP => SurfaceKind::Strip,
                        _ => return Ok(None),
                    };
                    if corners.len() < 3 {
                        return Ok(None);
                    }
                    let surface = Surface {
                        kind,
                        smooth: flags & 0x10 != 0,
                        corners,
                    };
                    return Ok(Some((mat, flags & 0x20 != 0, surface)));
                }
                t => {
                    return Err(self.err(
                        line,
                        format!("unknown token '{t}': expected 'mat' or 'refs'"),
                    ))
                }
            }
        }
    }

    /// The scene material for an AC3D material, texture and sidedness.
    fn scene_material(
        &mut self,
        mat: Option<usize>,
        texture: Option<&str>,
        two_sided: bool,
    ) -> usize {
        let image = texture.map(|t| {
            let p = find_texture(self.path, t);
            self.textures.get(&mut self.scene, &p, self.path)
        });
        if let Some(&i) = self.materials.get(&(mat, image, two_sided)) {
            return i;
        }
        let mut base = mat
            .and_then(|m| self.ac_materials.get(m).cloned())
            .unwrap_or_else(|| Material {
                name: "default".into(),
                ..Material::default()
            });
        if let Some(i) = image {
            fold_emission(&mut base);
            if base.alpha == AlphaMode::Opaque && has_cutout(&self.scene.images[i]) {
                base.alpha = AlphaMode::Mask;
            }
        }
        self.scene.materials.push(Material {
            texture: image,
            double_sided: two_sided,
            ..base
        });
        let i = self.scene.materials.len() - 1;
        self.materials.insert((mat, image, two_sided), i);
        i
    }

    /// Turns an object's surfaces into one mesh per material, placed at `world`.
    fn emit(
        &mut self,
        name: &str,
        texture: Option<&str>,
        verts: &[Vec3],
        surfaces: Vec<(Option<usize>, bool, Surface)>,
        world: Mat4,
    ) {
        // Surfaces without `mat` use material 0, as AC3D does.
        let default_mat = (!self.ac_materials.is_empty()).then_some(0);
        let mut groups: BTreeMap<usize, Vec<Surface>> = BTreeMap::new();
        for (mat, two_sided, s) in surfaces {
            let m = self.scene_material(mat.or(default_mat), texture, two_sided);
            groups.entry(m).or_default().push(s);
        }
        for (material, surfaces) in groups {
            let mut mesh = Mesh {
                name: name.to_string(),
                material,
                ..Mesh::default()
            };
            // Smooth corners are shared by (vertex, uv); flat ones never.
            let mut shared: BTreeMap<(usize, u32, u32), u32> = BTreeMap::new();
            let mut triangulator = Triangulator::default();
            for s in &surfaces {
                let mut ids = Vec::with_capacity(s.corners.len());
                for &(vi, uv) in &s.corners {
                    let key = (vi, uv.x.to_bits(), uv.y.to_bits());
                    let id = match shared.get(&key) {
                        Some(&id) if s.smooth => id,
                        _ => {
                            mesh.positions.push(verts[vi]);
                            mesh.uvs.push(uv);
                            let id = (mesh.positions.len() - 1) as u32;
                            if s.smooth {
                                shared.insert(key, id);
                            }
                            id
                        }
                    };
                    ids.push(id);
                }
                match s.kind {
                    SurfaceKind::Polygon => {
                        let corners = s.corners.iter().map(|&(vi, _)| verts[vi]);
                        triangulator.triangulate_face(corners, &ids, &mut mesh.indices);
                    }
                    SurfaceKind::Strip => strip_triangles(&s.corners, &ids, &mut mesh.indices),
                }
            }
            complete_mesh(&mut mesh);
            self.scene.meshes.push(mesh);
            self.scene.instances.push(Instance {
                mesh: self.scene.meshes.len() - 1,
                transform: world,
            });
        }
    }
}

/// Appends the triangles of a strip (see [`SurfaceKind::Strip`]) whose
/// corners got the mesh vertices `ids`.
fn strip_triangles(corners: &[(usize, Vec2)], ids: &[u32], indices: &mut Vec<u32>) {
    for i in 0..corners.len().saturating_sub(2) {
        let (a, b, c) = (corners[i].0, corners[i + 1].0, corners[i + 2].0);
        if a == b || b == c || a == c {
            continue;
        }
        if i % 2 == 0 {
            indices.extend([ids[i], ids[i + 1], ids[i + 2]]);
        } else {
            indices.extend([ids[i + 1], ids[i], ids[i + 2]]);
        }
    }
}

/// AC3D's readers (PLIB, TORCS, FlightGear) draw a textured surface with
/// fixed-function OpenGL's modulate, which multiplies the texture by the
/// lit colour emission included; our shaders add the emission after the
/// texture. So a textured material's emission joins its colour (clamped
/// to 1) instead: TORCS's tracks (colour 0.4, emission 0.4) would
/// otherwise be washed in flat grey rather than showing their texture.
fn fold_emission(m: &mut Material) {
    for c in 0..3 {
        m.base_color[c] = (m.base_color[c] + m.emissive[c]).min(1.0);
    }
    m.emissive = [0.0; 3];
}

/// Whether a texture has texels the alpha test of a masked material would
/// discard (alpha below one half). The AC3D format has no alpha mode:
/// its readers draw a texture's alpha (PLIB blends any texture that has
/// one; TORCS alpha-tests its trees and blends its cars' windows), so
/// such a texture makes its opaque material [`AlphaMode::Mask`]: foliage,
/// fences and windows are cut out rather than drawn as solid cards.
fn has_cutout(image: &super::Image) -> bool {
    image.format == crate::texture::TexFormat::Rgba8 && image.texels.iter().any(|t| t[3] < 128)
}
