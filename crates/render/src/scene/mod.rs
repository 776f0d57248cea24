//! Scenes: what the frame renderer draws, independent of where it came from.
//!
//! A [`Scene`] is host-side content only (meshes, materials, decoded images,
//! instances, a camera path, a light and the pass list). It holds no
//! simulated addresses: the frame renderer allocates buffers and textures
//! from its [`crate::Allocator`] when it uploads a scene, as a driver would,
//! so the same scene always lands at the same addresses.
//!
//! Scenes come from the built-in procedural generators, from files (OBJ +
//! MTL, glTF 2.0 / GLB, AC3D) or from a scene TOML file placing several
//! models. Every source produces this one model; everything downstream
//! (passes, pipeline, render caches) sees nothing else.
//!
//! Files of this module:
//! - `mod.rs`: the model; `error.rs`: [`SceneError`]; `load.rs`: picks a
//!   built-in scene or a loader by extension.
//! - [`obj`] (OBJ + MTL), [`gltf`] (glTF 2.0 / GLB), [`ac3d`] (AC3D `.ac`),
//!   [`toml_scene`] (a TOML file placing several models): the loaders.
//! - [`image_file`] (PNG, JPEG, TGA, and the dispatch), [`dds`] (DXT1,
//!   DXT5, RGBA32 and a BC1/BC3 decoder), [`sgi`] (SGI `.rgb`): textures.
//! - `geometry.rs`: what loaders share (smooth normals, framing).
//!
//! Conventions of loaded content: [`Mesh::uvs`] put `(0, 0)` at the
//! top-left texel (row 0 of [`Image::texels`]), glTF's convention; loaders
//! of formats whose `v` points up (OBJ, AC3D) flip it. A file without a
//! camera gets [`Scene::framing_camera`], and [`Light::default`] unless it
//! has a light; the scene is named after the file stem.

pub mod ac3d;
pub mod builtin;
pub mod dds;
mod error;
mod geometry;
pub mod gltf;
pub mod image_file;
mod load;
pub mod obj;
mod polygon;
pub mod sgi;
mod toml_frame;
pub mod toml_scene;

pub use error::SceneError;
pub use image_file::{checkerboard, decode_image, read_image};
pub use load::{load, resolve};

use crate::math::{Mat4, Vec2, Vec3};
use crate::texture::TexFormat;

/// A triangle mesh with one material.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    pub name: String,
    pub positions: Vec<Vec3>,
    /// One per position (loaders compute flat or smooth normals when the
    /// file has none).
    pub normals: Vec<Vec3>,
    /// One per position (zero when the file has none).
    pub uvs: Vec<Vec2>,
    /// Triangle list, counter-clockwise front faces; every index is
    /// `< positions.len()` (loaders check this and report bad files).
    pub indices: Vec<u32>,
    /// Index into [`Scene::materials`].
    pub material: usize,
}

impl Mesh {
    pub fn triangle_count(&self) -> usize {
        self.indices.len() / 3
    }
}

/// How a material's alpha is used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum AlphaMode {
    /// Drawn in the opaque pass; alpha ignored.
    #[default]
    Opaque,
    /// Drawn in the opaque pass; pixels with alpha below the cutoff are
    /// discarded (foliage, fences).
    Mask,
    /// Drawn in the transparent pass, sorted back to front, blended.
    Blend,
}

/// Which class of fragment program draws a material in the world's
/// passes (`frame/code.rs` has each program).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Shading {
    /// The frame's own material programs: the preset's lighting
    /// (desktop-class: the sun with shadows, reflections, refraction).
    #[default]
    Standard,
    /// A sprite, a particle or an interface element: its texture times its
    /// colour, an alpha test where cut out (Unity's `Sprites-Default` and
    /// `Mobile/Particles/Alpha Blended`, Cocos2d-x's default program).
    Sprite,
    /// Lit per vertex: its texture times the light its vertices got
    /// (Unity's `Mobile/VertexLit`).
    VertexLit,
    /// One light per pixel: its texture lit by the sun's N.L and the
    /// ambient (Unity's `Mobile/Diffuse`, Lambert).
    PixelLit,
}

impl Shading {
    pub const ALL: [Shading; 4] = [
        Shading::Standard,
        Shading::Sprite,
        Shading::VertexLit,
        Shading::PixelLit,
    ];

    /// Its name in scene files and summaries.
    pub const fn name(self) -> &'static str {
        match self {
            Shading::Standard => "standard",
            Shading::Sprite => "sprite",
            Shading::VertexLit => "vertex-lit",
            Shading::PixelLit => "pixel-lit",
        }
    }
}

/// Surface appearance.
#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    pub name: String,
    /// Linear RGBA multiplier of the texture (or the colour when untextured).
    pub base_color: [f32; 4],
    /// Index into [`Scene::images`].
    pub texture: Option<usize>,
    pub alpha: AlphaMode,
    /// Cull nothing when true.
    pub double_sided: bool,
    /// Added to the lit colour (lamps, windows at night, particles).
    pub emissive: [f32; 3],
    /// Samples the reflection render-to-texture (water, mirrors) when the
    /// reflection pass is on.
    pub reflective: bool,
    /// A particle sprite (smoke, sparks, dust; blended, usually
    /// double-sided crossed cards): frame graphs draw these in their own
    /// particles pass, fading them by the scene depth where the pass is
    /// soft. Not a particle: drawn with its alpha class.
    pub particle: bool,
    /// Part of the game's interface (a 2D game's panels, buttons, score
    /// text, a shooter's touch controls): unlit, alpha-blended over the
    /// finished frame in its UI pass, in scene order, instead of the
    /// preset's generic HUD. Not interface: drawn in the world's passes.
    pub interface: bool,
    /// The class of program that draws it in the world's forward and
    /// transparent passes and the interface (a G-buffer pass draws every
    /// material with its own program).
    pub shading: Shading,
}

impl Default for Material {
    fn default() -> Material {
        Material {
            name: String::new(),
            base_color: [1.0; 4],
            texture: None,
            alpha: AlphaMode::Opaque,
            double_sided: false,
            emissive: [0.0; 3],
            reflective: false,
            particle: false,
            interface: false,
            shading: Shading::Standard,
        }
    }
}

/// A decoded texture image (level 0; the renderer builds the mip chain).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    pub name: String,
    pub width: u32,
    pub height: u32,
    /// Format in simulated memory: RGBA8, or BC1/BC3 for DDS files that
    /// carry them (the texels below are then the decoded colours).
    pub format: TexFormat,
    /// Row-major, sRGB-encoded RGBA8.
    pub texels: Vec<[u8; 4]>,
}

/// One placement of a mesh in the world.
#[derive(Clone, Debug, PartialEq)]
pub struct Instance {
    /// Index into [`Scene::meshes`].
    pub mesh: usize,
    /// Object to world.
    pub transform: Mat4,
}

/// A perspective camera.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    pub eye: Vec3,
    pub target: Vec3,
    pub up: Vec3,
    /// Vertical field of view, radians.
    pub fov_y: f32,
    pub near: f32,
    pub far: f32,
}

/// Camera key positions; frame `i` of `n` interpolates linearly between
/// them (a single key means a still camera).
#[derive(Clone, Debug, PartialEq)]
pub struct CameraPath {
    pub keys: Vec<Camera>,
}

impl CameraPath {
    pub fn still(camera: Camera) -> CameraPath {
        CameraPath { keys: vec![camera] }
    }

    /// The camera of frame `frame` of `frames` (the first frame is the first
    /// key, the last frame the last key).
    pub fn at(&self, frame: u32, frames: u32) -> Camera {
        let n = self.keys.len();
        if n == 1 || frames <= 1 {
            return self.keys[0];
        }
        let t = frame.min(frames - 1) as f32 / (frames - 1) as f32 * (n - 1) as f32;
        let i = (t.floor() as usize).min(n - 2);
        let f = t - i as f32;
        let (a, b) = (&self.keys[i], &self.keys[i + 1]);
        let lerp = |p: Vec3, q: Vec3| p + (q - p) * f;
        Camera {
            eye: lerp(a.eye, b.eye),
            target: lerp(a.target, b.target),
            up: lerp(a.up, b.up),
            fov_y: a.fov_y + (b.fov_y - a.fov_y) * f,
            near: a.near + (b.near - a.near) * f,
            far: a.far + (b.far - a.far) * f,
        }
    }
}

/// The sun: a directional light that casts the shadow map.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Light {
    /// Direction the light travels (from the light towards the scene).
    pub direction: Vec3,
    pub color: [f32; 3],
    /// Uniform ambient term.
    pub ambient: f32,
}

impl Default for Light {
    fn default() -> Light {
        Light {
            direction: Vec3::new(-0.4, -1.0, -0.3),
            color: [1.0, 0.97, 0.9],
            ambient: 0.25,
        }
    }
}

/// A horizontal mirror plane (a lake, a polished floor): the reflection
/// pass renders the scene mirrored about `y = height` into a reduced
/// render target that `reflective` materials sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mirror {
    pub height: f32,
}

/// The passes of a frame, each switchable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Passes {
    /// Depth-only shadow map from the light, sampled by the main pass.
    pub shadow: bool,
    /// Render-to-texture reflection at reduced resolution (needs a
    /// [`Mirror`]; without one the pass is skipped).
    pub reflection: bool,
    /// G-buffer main pass (multiple render targets) plus a deferred
    /// lighting pass; `false` means one forward main pass.
    pub deferred: bool,
    /// Blended transparent geometry, back to front.
    pub transparent: bool,
    /// Bloom down/up-sampling chain and tone mapping; the display write
    /// happens either way.
    pub post: bool,
}

impl Default for Passes {
    fn default() -> Passes {
        Passes {
            shadow: true,
            reflection: true,
            deferred: true,
            transparent: true,
            post: true,
        }
    }
}

/// Everything a frame draws.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    pub name: String,
    pub meshes: Vec<Mesh>,
    pub materials: Vec<Material>,
    pub images: Vec<Image>,
    pub instances: Vec<Instance>,
    pub camera: CameraPath,
    pub light: Light,
    pub mirror: Option<Mirror>,
    pub passes: Passes,
    /// The frame structure of the game class this scene stands for.
    pub preset: crate::graph::Preset,
    /// The scene file's own frame graph, which replaces the preset.
    pub graph: Option<crate::graph::FrameGraph>,
    /// Sky / clear colour (linear RGB).
    pub sky: [f32; 3],
    /// Problems a loader worked around (e.g. a missing texture replaced by
    /// a checkerboard); the CLI prints them as warnings.
    pub warnings: Vec<String>,
    /// The files the scene was built from, each once, in the order they
    /// were first read: the scene file, then what it names (MTL files,
    /// glTF buffers, textures; a scene TOML's model files and theirs).
    /// Recorded where the loaders open files, so it is exact: a file
    /// asked for that could not be read is listed too where the loader
    /// went on without it (a missing texture, a missing MTL file), since
    /// the scene depends on its absence. What a sweep keys a scene file's
    /// results by. Empty for a built-in scene; a scene parsed from memory
    /// (a loader's `parse_str`) lists only the files it read from disk.
    pub sources: Vec<std::path::PathBuf>,
}

impl Scene {
    /// The material instance `inst` is drawn with.
    pub fn material_of(&self, inst: &Instance) -> &Material {
        &self.materials[self.meshes[inst.mesh].material]
    }

    /// Whether the scene draws an interface of its own.
    pub fn has_interface(&self) -> bool {
        self.instances.iter().any(|i| self.material_of(i).interface)
    }

    /// Triangles drawn per view (every instance's mesh).
    pub fn triangle_count(&self) -> usize {
        self.instances
            .iter()
            .map(|i| self.meshes[i.mesh].triangle_count())
            .sum()
    }

    /// World-space bounding box of every instance, or `None` if empty.
    pub fn bounds(&self) -> Option<(Vec3, Vec3)> {
        let mut lo = Vec3::new(f32::INFINITY, f32::INFINITY, f32::INFINITY);
        let mut hi = Vec3::new(f32::NEG_INFINITY, f32::NEG_INFINITY, f32::NEG_INFINITY);
        let mut any = false;
        for inst in &self.instances {
            for &p in &self.meshes[inst.mesh].positions {
                let w = inst.transform.transform_point(p).truncate();
                lo = Vec3::new(lo.x.min(w.x), lo.y.min(w.y), lo.z.min(w.z));
                hi = Vec3::new(hi.x.max(w.x), hi.y.max(w.y), hi.z.max(w.z));
                any = true;
            }
        }
        any.then_some((lo, hi))
    }

    /// A camera looking at the whole scene from the front and above, with
    /// near/far planes around it: what a loaded model gets when its file
    /// has no camera.
    pub fn framing_camera(&self) -> Camera {
        let (lo, hi) = self
            .bounds()
            .unwrap_or((Vec3::new(-1.0, -1.0, -1.0), Vec3::new(1.0, 1.0, 1.0)));
        let center = (lo + hi) * 0.5;
        let radius = ((hi - lo).length() * 0.5).max(1e-3);
        let fov_y = 45f32.to_radians();
        let dist = radius / (fov_y * 0.5).sin();
        let dir = Vec3::new(0.35, 0.45, 1.0).normalize();
        Camera {
            eye: center + dir * dist,
            target: center,
            up: Vec3::new(0.0, 1.0, 0.0),
            fov_y,
            near: (dist - radius).max(dist * 0.01),
            far: dist + radius * 2.0,
        }
    }
}
