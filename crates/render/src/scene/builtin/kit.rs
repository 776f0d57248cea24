//! A small assembler the built-in scenes share: it owns the [`Scene`]
//! being built and hands back indices for images, materials and meshes so
//! scene files read as "make this, place it there".

use super::shapes::MeshBuilder;
use crate::graph::Preset;
use crate::math::{Mat4, Vec3};
use crate::scene::{
    AlphaMode, Camera, CameraPath, Image, Instance, Light, Material, Passes, Scene, Shading,
};
use crate::texture::TexFormat;

pub struct Kit {
    pub scene: Scene,
    /// The class of game, for the programs its materials get at
    /// [`Kit::finish`]: `None` for a desktop game (the frame's own).
    mobile: Option<MobileClass>,
}

/// A mobile game's class, by the programs its materials use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MobileClass {
    /// A 2D game: every material a sprite (Unity's 2D games draw with
    /// `Sprites-Default`).
    TwoD,
    /// A 3D game: opaque and cut-out materials lit per pixel by the sun
    /// (Unity's `Mobile/Diffuse`), blended ones, particles and the
    /// interface sprites.
    ThreeD,
}

impl Kit {
    pub fn new(name: &str) -> Kit {
        Kit {
            scene: Scene {
                name: name.to_string(),
                meshes: Vec::new(),
                materials: Vec::new(),
                images: Vec::new(),
                instances: Vec::new(),
                camera: CameraPath { keys: Vec::new() },
                light: Light::default(),
                mirror: None,
                passes: Passes::default(),
                preset: Default::default(),
                graph: None,
                sky: [0.5, 0.7, 1.0],
                warnings: Vec::new(),
                sources: Vec::new(),
            },
            mobile: None,
        }
    }

    pub fn image(&mut self, img: Image) -> usize {
        self.scene.images.push(img);
        self.scene.images.len() - 1
    }

    /// An image stored block-compressed, as games ship their textures:
    /// BC1 (DXT1, 4 bits per texel) when every texel is opaque, else BC3
    /// (DXT5, 8 bits per texel). On mobile scenes BC1 and BC3 stand in for
    /// ETC2 RGB / ASTC 8x8 and ETC2 RGBA / ASTC 4x4, which mobile GPUs
    /// sample: the same bits per texel, so the same bytes for a cache. The texels stay as generated (no encoder runs): the
    /// memory layout and traffic are BC's, the picture is the source's.
    pub fn image_bc(&mut self, mut img: Image) -> usize {
        img.format = if img.texels.iter().all(|t| t[3] == 255) {
            TexFormat::Bc1
        } else {
            TexFormat::Bc3
        };
        self.image(img)
    }

    /// An opaque textured material.
    pub fn textured(&mut self, name: &str, texture: usize) -> usize {
        self.material(Material {
            name: name.to_string(),
            texture: Some(texture),
            ..Material::default()
        })
    }

    /// A material with `alpha` mode, `double_sided` set for masked and
    /// blended cards (seen from both sides).
    pub fn alpha(&mut self, name: &str, texture: usize, alpha: AlphaMode) -> usize {
        self.material(Material {
            name: name.to_string(),
            texture: Some(texture),
            alpha,
            double_sided: alpha != AlphaMode::Opaque,
            ..Material::default()
        })
    }

    /// An opaque textured material tinted by `color` (one texture, many
    /// paints).
    pub fn tinted(&mut self, name: &str, texture: usize, color: [f32; 3]) -> usize {
        self.material(Material {
            name: name.to_string(),
            texture: Some(texture),
            base_color: [color[0], color[1], color[2], 1.0],
            ..Material::default()
        })
    }

    /// A material that glows with `emissive` (lamps, screens, lit panes)
    /// on top of its lit texture, if any.
    pub fn emissive(&mut self, name: &str, texture: Option<usize>, emissive: [f32; 3]) -> usize {
        self.material(Material {
            name: name.to_string(),
            texture,
            emissive,
            ..Material::default()
        })
    }

    /// An opaque material that samples the reflection (water, wet or
    /// polished floors), tinted by `color`.
    pub fn reflective(&mut self, name: &str, texture: usize, color: [f32; 3]) -> usize {
        self.material(Material {
            name: name.to_string(),
            texture: Some(texture),
            base_color: [color[0], color[1], color[2], 1.0],
            reflective: true,
            ..Material::default()
        })
    }

    /// A particle sprite (dust, smoke, sparks): blended, double-sided,
    /// drawn by frame graphs in their particles pass; `emissive` for
    /// sparks and flames.
    pub fn particle(&mut self, name: &str, texture: usize, emissive: [f32; 3]) -> usize {
        self.material(Material {
            name: name.to_string(),
            texture: Some(texture),
            alpha: AlphaMode::Blend,
            double_sided: true,
            emissive,
            particle: true,
            ..Material::default()
        })
    }

    /// An interface material (panels, icons, text of a game's UI): blended,
    /// double-sided, unlit, drawn by frame graphs in their UI pass.
    pub fn interface(&mut self, name: &str, texture: usize) -> usize {
        self.material(Material {
            name: name.to_string(),
            texture: Some(texture),
            alpha: AlphaMode::Blend,
            double_sided: true,
            interface: true,
            ..Material::default()
        })
    }

    pub fn material(&mut self, m: Material) -> usize {
        self.scene.materials.push(m);
        self.scene.materials.len() - 1
    }

    pub fn mesh(&mut self, name: &str, b: MeshBuilder, material: usize) -> usize {
        self.scene.meshes.push(b.build(name, material));
        self.scene.meshes.len() - 1
    }

    pub fn place(&mut self, mesh: usize, transform: Mat4) {
        self.scene.instances.push(Instance { mesh, transform });
    }

    /// Place `mesh` at `pos`, turned `yaw` radians about +Y, scaled `s`.
    pub fn put(&mut self, mesh: usize, pos: Vec3, yaw: f32, s: f32) {
        let m = Mat4::translation(pos) * Mat4::rotation_y(yaw) * Mat4::scale(Vec3::new(s, s, s));
        self.place(mesh, m);
    }

    /// The camera path through `(eye, target)` keys, 60 degrees vertical.
    pub fn camera_path(&mut self, keys: &[(Vec3, Vec3)], far: f32) {
        self.scene.camera = CameraPath {
            keys: keys
                .iter()
                .map(|&(eye, target)| Camera {
                    eye,
                    target,
                    up: Vec3::new(0.0, 1.0, 0.0),
                    fov_y: 60f32.to_radians(),
                    near: 0.1,
                    far,
                })
                .collect(),
        };
    }

    /// The frame structure of the scene's game class, and the classic
    /// pipeline's passes nearest to it (what the renderer runs until it
    /// runs presets): deferred shading for the deferred presets, one
    /// forward pass for the forward ones; every other pass on.
    pub fn preset(&mut self, preset: Preset) {
        self.scene.preset = preset;
        self.scene.passes = Passes {
            deferred: matches!(preset, Preset::Dx11Deferred | Preset::MobileDeferredLite),
            ..Passes::default()
        };
    }

    /// The camera path through `keys` as given.
    pub fn cameras(&mut self, keys: Vec<Camera>) {
        self.scene.camera = CameraPath { keys };
    }

    /// The frame of a mobile game: `preset`, and the passes such a frame
    /// has (the preset drops those switched off, and the classic preset
    /// runs them). No shadow map (these genres draw blob shadows), no
    /// reflection render-to-texture, no bloom chain; a G-buffer only on the
    /// deferred-lite frame; blended sprites and particles always.
    pub fn mobile_frame(&mut self, preset: Preset) {
        debug_assert!(matches!(
            preset,
            Preset::MobileForward | Preset::MobileDeferredLite
        ));
        self.scene.preset = preset;
        if self.mobile.is_none() {
            self.mobile = Some(MobileClass::ThreeD);
        }
        self.scene.passes = Passes {
            shadow: false,
            reflection: false,
            deferred: preset == Preset::MobileDeferredLite,
            transparent: true,
            post: false,
        };
    }

    /// Light for a 2D game: sprites show their texels as painted (the sun
    /// straight down on sprites facing up, no ambient term), and every
    /// material is a sprite.
    pub fn unlit_sprites(&mut self) {
        self.mobile = Some(MobileClass::TwoD);
        self.scene.light = Light {
            direction: Vec3::new(0.0, -1.0, 0.0),
            color: [1.0, 1.0, 1.0],
            ambient: 0.0,
        };
    }

    /// The scene, each material of a mobile game with the program its
    /// class uses ([`MobileClass`]).
    pub fn finish(mut self) -> Scene {
        if let Some(class) = self.mobile {
            for m in &mut self.scene.materials {
                let sprite = class == MobileClass::TwoD
                    || m.interface
                    || m.particle
                    || m.alpha == AlphaMode::Blend;
                m.shading = if sprite {
                    Shading::Sprite
                } else {
                    Shading::PixelLit
                };
            }
        }
        self.scene
    }
}

/// A camera at `eye` looking at `target` (world up), `fov_deg` vertical.
pub fn look(eye: Vec3, target: Vec3, fov_deg: f32, near: f32, far: f32) -> Camera {
    Camera {
        eye,
        target,
        up: Vec3::new(0.0, 1.0, 0.0),
        fov_y: fov_deg.to_radians(),
        near,
        far,
    }
}

/// Vertical field of view of [`overhead`] cameras.
const OVERHEAD_FOV_DEG: f32 = 6.0;

/// A camera looking straight down at `center`, showing `half_height`
/// metres of the ground above and below it (screen up is -z): the stand-in
/// for a 2D game's orthographic projection. It stands far away (about 19
/// times `half_height`) with a narrow field of view, so a metre of height
/// changes a sprite's size by 5 % / `half_height` (1 % for a view 10 m
/// high), and 2D scenes stack their layers within a metre.
pub fn overhead(center: Vec3, half_height: f32) -> Camera {
    let dist = half_height / (OVERHEAD_FOV_DEG.to_radians() * 0.5).tan();
    Camera {
        eye: center + Vec3::new(0.0, dist, 0.0),
        target: center,
        up: Vec3::new(0.0, 0.0, -1.0),
        fov_y: OVERHEAD_FOV_DEG.to_radians(),
        near: dist - 20.0,
        far: dist + 20.0,
    }
}

/// Camera space to world of a camera at `eye` looking at `target` (world
/// up): +x right, +y up, -z forward. Things a game draws attached to the
/// camera (a first-person weapon, touch controls) are placed with it.
pub fn camera_to_world(eye: Vec3, target: Vec3) -> Mat4 {
    let f = (target - eye).normalize();
    let s = f.cross(Vec3::new(0.0, 1.0, 0.0)).normalize();
    let u = s.cross(f);
    Mat4::from_cols(
        s.extend(0.0),
        u.extend(0.0),
        (-f).extend(0.0),
        eye.extend(1.0),
    )
}
