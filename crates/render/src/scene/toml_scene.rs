//! Scene TOML files: several model files placed in one scene, with a
//! camera path, a light, a sky colour, an optional mirror plane and the
//! pass list.
//!
//! ```toml
//! # Every key is optional except `path` of a model and `eye`/`target`
//! # of a camera key; unknown keys are errors.
//! name = "courtyard"          # default: the file stem
//! sky = [0.45, 0.6, 0.8]      # clear colour, linear RGB
//! mirror = 0.0                # height of a horizontal mirror plane
//!
//! [[model]]
//! path = "models/house.obj"   # .obj, .gltf, .glb, .ac or .acc (TORCS), relative
//!                             # to this file, or absolute
//! position = [0, 0, 0]
//! rotation = [0, 90, 0]       # degrees about x, then y, then z
//! scale = 2.0                 # or [sx, sy, sz]
//!
//! [[model]]
//! path = "models/pond.ac"
//! position = [4, 0, 1]
//! reflective = true           # its materials sample the mirror reflection
//!
//! [[model]]
//! path = "models/buttons.obj" # a game's interface, placed in front of the camera
//! interface = true            # drawn unlit and blended by the UI pass, in
//!                             # place of the preset's HUD
//! shading = "sprite"          # the program class of its materials:
//!                             # standard (the default: the frame's own),
//!                             # sprite, vertex-lit or pixel-lit (a mobile
//!                             # game's: `gfxcache programs`)
//!
//! # Camera keys: frame i of n interpolates linearly between them; none
//! # means the framing camera of the whole scene.
//! [[camera]]
//! eye = [0, 3, 10]
//! target = [0, 1, 0]
//! fov = 45                    # vertical, degrees (default 45)
//! near = 0.1                  # default 0.1
//! far = 200.0                 # default 1000
//! up = [0, 1, 0]              # default +y
//!
//! [[camera]]
//! eye = [8, 3, 6]
//! target = [0, 1, 0]
//!
//! [light]                     # the sun; defaults are Light::default()'s
//! direction = [-0.4, -1, -0.3]
//! color = [1, 0.97, 0.9]
//! ambient = 0.25
//!
//! preset = "dx11-deferred"    # the frame; or a frame graph of your own:
//!                             # see `toml_frame` (default: classic)
//!
//! [passes]                    # each defaults to true
//! shadow = true
//! reflection = true
//! deferred = false
//! transparent = true
//! post = true
//! ```
//!
//! The model files' own cameras and lights are not used: the TOML file's
//! (or the defaults) are. Every model becomes instances of its meshes
//! under the model's transform (translation * rotation * scale); a file
//! placed several times (with the same `reflective`, `interface` and `shading`) is loaded once, its
//! meshes, materials and textures shared by all its instances. Errors
//! name `file:line`, the line coming from the TOML parser's span or the
//! model or camera table concerned.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use super::geometry::{add_source, empty_scene, DEFAULT_SKY};
use super::image_file::relative_to;
use super::toml_frame::{self, AtLine, PassTable as FramePassTable, TargetTable};
use super::{Camera, CameraPath, Instance, Light, Mirror, Passes, Scene, SceneError, Shading};
use crate::math::{Mat4, Vec3};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    name: Option<String>,
    sky: Option<[f32; 3]>,
    mirror: Option<f32>,
    #[serde(default)]
    model: Vec<Spanned<Model>>,
    #[serde(default)]
    camera: Vec<Spanned<CameraKey>>,
    light: Option<LightTable>,
    passes: Option<PassTable>,
    preset: Option<Spanned<String>>,
    #[serde(default)]
    target: Vec<Spanned<TargetTable>>,
    #[serde(default)]
    pass: Vec<Spanned<FramePassTable>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Model {
    path: String,
    #[serde(default)]
    position: [f32; 3],
    #[serde(default)]
    rotation: [f32; 3],
    scale: Option<Scale>,
    #[serde(default)]
    reflective: bool,
    #[serde(default)]
    interface: bool,
    shading: Option<String>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Scale {
    Uniform(f32),
    Xyz([f32; 3]),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CameraKey {
    eye: [f32; 3],
    target: [f32; 3],
    fov: Option<f32>,
    near: Option<f32>,
    far: Option<f32>,
    up: Option<[f32; 3]>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LightTable {
    direction: Option<[f32; 3]>,
    color: Option<[f32; 3]>,
    ambient: Option<f32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PassTable {
    shadow: Option<bool>,
    reflection: Option<bool>,
    deferred: Option<bool>,
    transparent: Option<bool>,
    post: Option<bool>,
}

/// Loads a scene TOML file and the model files it places (the TOML file
/// first in [`Scene::sources`], then each model's sources in the order
/// the models are first placed).
pub fn load(path: &Path) -> Result<Scene, SceneError> {
    super::geometry::load_file(path, |bytes| from_bytes(bytes, path))
}

/// Parses scene TOML from bytes (which must be UTF-8); `path` names the
/// file in messages and locates the models (read from disk, relative to it).
pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<Scene, SceneError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        SceneError::file(
            path,
            format!(
                "not UTF-8 at byte {}: TOML files must be UTF-8",
                e.valid_up_to()
            ),
        )
    })?;
    parse_str(text, path)
}

fn v3(a: [f32; 3]) -> Vec3 {
    Vec3::new(a[0], a[1], a[2])
}

/// 1-based line of byte offset `at`.
pub(super) fn line_of(text: &str, at: usize) -> usize {
    text.as_bytes()[..at.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// Parses scene TOML text (see the module docs for the format).
pub fn parse_str(text: &str, path: &Path) -> Result<Scene, SceneError> {
    let file: File = toml::from_str(text).map_err(|e| {
        let line = e.span().map_or(1, |s| line_of(text, s.start));
        SceneError::line(path, line, e.message().trim_end().to_string())
    })?;
    let mut scene = empty_scene(path);
    if let Some(n) = file.name.clone() {
        scene.name = n;
    }
    let finite = |v: &[f32]| v.iter().all(|x| x.is_finite());

    // The frame and the cameras are checked before the models are read, so
    // a bad table is reported without loading anything.
    frame(&file, text, &mut scene).map_err(|e| SceneError::line(path, e.line, e.msg))?;

    let mut keys = Vec::new();
    for spanned in &file.camera {
        let line = line_of(text, spanned.span().start);
        let c = spanned.get_ref();
        let cam = Camera {
            eye: v3(c.eye),
            target: v3(c.target),
            up: c.up.map_or(Vec3::new(0.0, 1.0, 0.0), v3),
            fov_y: c.fov.unwrap_or(45.0).to_radians(),
            near: c.near.unwrap_or(0.1),
            far: c.far.unwrap_or(1000.0),
        };
        let ok = finite(&[cam.fov_y, cam.near, cam.far])
            && finite(&c.eye)
            && finite(&c.target)
            && cam.fov_y > 0.0
            && cam.fov_y < std::f32::consts::PI
            && cam.near > 0.0
            && cam.far > cam.near
            && c.eye != c.target;
        if !ok {
            return Err(SceneError::line(
                path,
                line,
                "camera key: expected 0 < fov < 180, 0 < near < far, finite values and eye != target",
            ));
        }
        keys.push(cam);
    }
    // A model file placed several times is loaded once and instanced, as
    // a game draws many copies of one car or tree from one set of buffers
    // and textures: its instances in the model's own space, by file.
    let mut placed: BTreeMap<(PathBuf, bool, bool, Option<Shading>), Vec<Instance>> =
        BTreeMap::new();
    for spanned in &file.model {
        let line = line_of(text, spanned.span().start);
        let m = spanned.get_ref();
        let err = |msg: String| SceneError::line(path, line, msg);
        let model_path = relative_to(path, &m.path);
        let ext = model_path
            .extension()
            .and_then(|e| e.to_str())
            .map(|e| e.to_ascii_lowercase())
            .unwrap_or_default();
        if !matches!(ext.as_str(), "obj" | "gltf" | "glb" | "ac" | "acc") {
            return Err(err(format!(
                "model '{}': expected an .obj, .gltf, .glb, .ac or .acc file",
                m.path
            )));
        }
        let scale = match m.scale {
            None => [1.0; 3],
            Some(Scale::Uniform(s)) => [s; 3],
            Some(Scale::Xyz(s)) => s,
        };
        if !finite(&m.position) || !finite(&m.rotation) || !finite(&scale) {
            return Err(err(format!(
                "model '{}': position, rotation and scale must be finite",
                m.path
            )));
        }
        let [rx, ry, rz] = m.rotation.map(f32::to_radians);
        let transform = Mat4::translation(v3(m.position))
            * Mat4::rotation_z(rz)
            * Mat4::rotation_y(ry)
            * Mat4::rotation_x(rx)
            * Mat4::scale(v3(scale));
        let shading = match &m.shading {
            None => None,
            Some(name) => Some(
                Shading::ALL
                    .into_iter()
                    .find(|s| s.name() == name)
                    .ok_or_else(|| {
                        err(format!(
                            "model '{}': shading \"{name}\": expected standard, sprite, vertex-lit or pixel-lit",
                            m.path
                        ))
                    })?,
            ),
        };
        let key = (model_path.clone(), m.reflective, m.interface, shading);
        if let Some(placed) = placed.get(&key) {
            place(&mut scene, placed, transform);
            continue;
        }
        let model =
            super::load(&model_path).map_err(|e| err(format!("model '{}': {e}", m.path)))?;
        let own = merge(&mut scene, model, (m.reflective, m.interface, shading));
        place(&mut scene, &own, transform);
        placed.insert(key, own);
    }
    if file.model.is_empty() {
        return Err(SceneError::line(path, 1, "expected at least one [[model]]"));
    }

    if let Some(sky) = file.sky {
        scene.sky = sky;
    } else {
        scene.sky = DEFAULT_SKY;
    }
    if let Some(height) = file.mirror {
        if !height.is_finite() {
            return Err(SceneError::line(path, 1, "mirror height must be finite"));
        }
        scene.mirror = Some(Mirror { height });
    }
    if let Some(l) = file.light {
        let d = Light::default();
        scene.light = Light {
            direction: l.direction.map_or(d.direction, v3),
            color: l.color.unwrap_or(d.color),
            ambient: l.ambient.unwrap_or(d.ambient),
        };
    }
    if let Some(p) = file.passes {
        let d = Passes::default();
        scene.passes = Passes {
            shadow: p.shadow.unwrap_or(d.shadow),
            reflection: p.reflection.unwrap_or(d.reflection),
            deferred: p.deferred.unwrap_or(d.deferred),
            transparent: p.transparent.unwrap_or(d.transparent),
            post: p.post.unwrap_or(d.post),
        };
    }
    scene.camera = if keys.is_empty() {
        CameraPath::still(scene.framing_camera())
    } else {
        CameraPath { keys }
    };
    Ok(scene)
}

/// The file's frame: its preset, or its own graph.
fn frame(file: &File, text: &str, scene: &mut Scene) -> Result<(), AtLine> {
    let targets = toml_frame::lines(text, &file.target);
    let passes = toml_frame::lines(text, &file.pass);
    if let Some(p) = &file.preset {
        let line = line_of(text, p.span().start);
        if !targets.is_empty() || !passes.is_empty() {
            return Err(AtLine {
                line,
                msg: "give a preset or [[target]] and [[pass]] tables, not both".into(),
            });
        }
        scene.preset = toml_frame::preset(p.get_ref(), line)?;
    } else if !targets.is_empty() || !passes.is_empty() {
        scene.graph = Some(toml_frame::graph(&targets, &passes)?);
    }
    Ok(())
}

/// Places a model's instances (`own`, in the model's space, on the scene's
/// meshes) under `transform`.
fn place(scene: &mut Scene, own: &[Instance], transform: Mat4) {
    scene.instances.extend(own.iter().map(|i| Instance {
        mesh: i.mesh,
        transform: transform * i.transform,
    }));
}

/// Appends `model`'s meshes, materials and images to `scene` and returns
/// its instances, on the scene's meshes, to [`place`].
fn merge(
    scene: &mut Scene,
    model: Scene,
    (reflective, interface, shading): (bool, bool, Option<Shading>),
) -> Vec<Instance> {
    let (mesh0, mat0, img0) = (
        scene.meshes.len(),
        scene.materials.len(),
        scene.images.len(),
    );
    scene.images.extend(model.images);
    scene
        .materials
        .extend(model.materials.into_iter().map(|mut m| {
            m.texture = m.texture.map(|t| t + img0);
            m.reflective |= reflective;
            m.interface |= interface;
            if let Some(s) = shading {
                m.shading = s;
            }
            m
        }));
    scene.meshes.extend(model.meshes.into_iter().map(|mut m| {
        m.material += mat0;
        m
    }));
    scene.warnings.extend(model.warnings);
    for s in &model.sources {
        add_source(&mut scene.sources, s);
    }
    model
        .instances
        .into_iter()
        .map(|i| Instance {
            mesh: i.mesh + mesh0,
            transform: i.transform,
        })
        .collect()
}
