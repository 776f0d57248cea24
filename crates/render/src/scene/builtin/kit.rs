//! A small assembler the built-in scenes share: it owns the [`Scene`]
//! being built and hands back indices for images, materials and meshes so
//! scene files read as "make this, place it there".

use super::shapes::MeshBuilder;
use crate::graph::Preset;
use crate::math::{Mat4, Vec3};
use crate::scene::{
    AlphaMode, Camera, CameraPath, Image, Instance, Light, Material, Passes, Scene,
};
use crate::texture::TexFormat;

pub struct Kit {
    pub scene: Scene,
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
            },
        }
    }

    pub fn image(&mut self, img: Image) -> usize {
        self.scene.images.push(img);
        self.scene.images.len() - 1
    }

    /// An image stored block-compressed, as desktop games ship their
    /// material textures: BC1 (DXT1) when every texel is opaque, else BC3
    /// (DXT5). The texels stay as generated (no encoder runs): the
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

    pub fn finish(self) -> Scene {
        self.scene
    }
}
