//! A [`Scene`] turned into what the GPU reads: vertex and index buffers and
//! mipmapped textures at allocator addresses, as a driver uploads them, plus
//! the full-screen triangle the screen-space passes draw and the shader
//! heap. Uploading checks the scene (indices, material and image
//! references), so a bad scene is an error here, never a panic later.
//!
//! Vertices carry the object-space position and five attributes (normal
//! xyz, uv) in a 32-byte stride, the usual packed layout.

use crate::buffers::{IndexBuffer, IndexFormat, Vertex, VertexBuffer};
use crate::math::Vec3;
use crate::scene::Scene;
use crate::surface::Allocator;
use crate::texture::Texture;

use super::shaders::{Program, ShaderHeap};
use super::ui::Hud;
use super::FrameError;
use crate::graph::FrameGraph;

/// Attributes per vertex: normal xyz, uv.
pub const ATTRS: u32 = 5;
/// Bytes per vertex: position, normal (12 + 12) and uv (8).
pub const STRIDE: u32 = 32;

/// One mesh on the GPU.
pub struct GpuMesh {
    pub vertices: VertexBuffer,
    pub indices: IndexBuffer,
    /// Object-space centre of the bounding box (draw sorting).
    pub center: Vec3,
}

/// A scene on the GPU.
pub struct GpuScene {
    pub meshes: Vec<GpuMesh>,
    pub textures: Vec<Texture>,
    pub fullscreen_vb: VertexBuffer,
    pub fullscreen_ib: IndexBuffer,
    pub heap: ShaderHeap,
    /// The HUD of each UI pass (by quad count), after everything else.
    pub huds: Vec<super::ui::Hud>,
}

/// Extra constant slots after the instances' (full-screen and post draws).
pub const EXTRA_SLOTS: u64 = 64;

fn check(scene: &Scene) -> Result<(), FrameError> {
    let bad = |m: String| Err(FrameError::Scene(m));
    for (k, img) in scene.images.iter().enumerate() {
        if img.width == 0 || img.height == 0 {
            return bad(format!("image {k} ('{}') is empty", img.name));
        }
        if img.texels.len() != img.width as usize * img.height as usize {
            return bad(format!(
                "image {k} ('{}') has {} texels for {}x{}",
                img.name,
                img.texels.len(),
                img.width,
                img.height
            ));
        }
    }
    for (k, m) in scene.materials.iter().enumerate() {
        if let Some(t) = m.texture {
            if t >= scene.images.len() {
                return bad(format!(
                    "material {k} ('{}') uses missing image {t}",
                    m.name
                ));
            }
        }
    }
    for (k, m) in scene.meshes.iter().enumerate() {
        let n = m.positions.len();
        if m.material >= scene.materials.len() {
            return bad(format!(
                "mesh {k} ('{}') uses missing material {}",
                m.name, m.material
            ));
        }
        if m.indices.len() % 3 != 0 {
            return bad(format!(
                "mesh {k} ('{}'): index count not a multiple of 3",
                m.name
            ));
        }
        if let Some(i) = m.indices.iter().find(|&&i| i as usize >= n) {
            return bad(format!(
                "mesh {k} ('{}'): index {i} out of {n} vertices",
                m.name
            ));
        }
    }
    for (k, inst) in scene.instances.iter().enumerate() {
        if inst.mesh >= scene.meshes.len() {
            return bad(format!("instance {k} uses missing mesh {}", inst.mesh));
        }
    }
    if scene.camera.keys.is_empty() {
        return bad("the camera path has no keys".into());
    }
    for (k, c) in scene.camera.keys.iter().enumerate() {
        let finite = [c.eye, c.target, c.up]
            .iter()
            .all(|v| v.x.is_finite() && v.y.is_finite() && v.z.is_finite());
        let dir = c.target - c.eye;
        if !finite
            || dir.length() == 0.0
            || dir.cross(c.up).length() == 0.0
            || !(c.near > 0.0 && c.far > c.near && c.far.is_finite())
            || !(c.fov_y > 0.0 && c.fov_y < std::f32::consts::PI)
        {
            return bad(format!(
                "camera key {k} is degenerate (eye, target, up, near < far, fov)"
            ));
        }
    }
    Ok(())
}

impl GpuScene {
    /// Check and upload `scene` for frames of `graph`: meshes in order,
    /// then images, then the full-screen triangle, then the shader heap
    /// (with the code of the programs `graph` runs), then the HUDs of its
    /// UI passes for a `width` x `height` screen.
    pub fn upload(
        scene: &Scene,
        graph: &FrameGraph,
        (width, height): (u32, u32),
        alloc: &mut Allocator,
    ) -> Result<GpuScene, FrameError> {
        check(scene)?;
        let meshes = scene
            .meshes
            .iter()
            .map(|m| {
                let verts: Vec<Vertex> = (0..m.positions.len())
                    .map(|i| {
                        let n = m
                            .normals
                            .get(i)
                            .copied()
                            .unwrap_or(Vec3::new(0.0, 1.0, 0.0));
                        let uv = m.uvs.get(i).copied().unwrap_or_default();
                        Vertex::new(m.positions[i], &[n.x, n.y, n.z, uv.x, uv.y])
                    })
                    .collect();
                let format = if m.positions.len() <= 1 << 16 {
                    IndexFormat::U16
                } else {
                    IndexFormat::U32
                };
                let first = m.positions.first().copied().unwrap_or_default();
                let (mut lo, mut hi) = (first, first);
                for p in &m.positions {
                    lo = Vec3::new(lo.x.min(p.x), lo.y.min(p.y), lo.z.min(p.z));
                    hi = Vec3::new(hi.x.max(p.x), hi.y.max(p.y), hi.z.max(p.z));
                }
                GpuMesh {
                    vertices: VertexBuffer::with_stride(verts, ATTRS, STRIDE, alloc),
                    indices: IndexBuffer::new(m.indices.clone(), format, alloc),
                    center: (lo + hi) * 0.5,
                }
            })
            .collect();
        let textures = scene
            .images
            .iter()
            .map(|img| Texture::new(img.width, img.height, img.format, img.texels.clone(), alloc))
            .collect();
        // A triangle covering the whole screen in clip space (w = 1), so a
        // full-screen pass visits every stamp exactly once.
        let fs = [(-1.0, -1.0), (3.0, -1.0), (-1.0, 3.0)]
            .map(|(x, y)| Vertex::new(Vec3::new(x, y, 0.0), &[]));
        let fullscreen_vb = VertexBuffer::new(fs.to_vec(), 0, alloc);
        let fullscreen_ib = IndexBuffer::new(vec![0, 1, 2], IndexFormat::U16, alloc);
        let mut extra: Vec<Program> = graph
            .passes
            .iter()
            .flat_map(|p| Program::extra_of(&p.op))
            .collect();
        // The mobile programs of the scene's materials.
        extra.extend(
            scene
                .materials
                .iter()
                .map(|m| Program::for_material(m, Program::Forward))
                .filter(|&p| p != Program::Forward),
        );
        let heap = ShaderHeap::new(scene.instances.len() as u64 + EXTRA_SLOTS, &extra, alloc);
        let mut huds: Vec<Hud> = Vec::new();
        // A scene with an interface of its own draws it instead of the HUD.
        let own_interface = scene.has_interface();
        for p in graph.passes.iter().filter(|_| !own_interface) {
            if let Some(quads) = p.op.hud_quads() {
                if !huds.iter().any(|h| h.quads == quads) {
                    huds.push(Hud::upload(quads, width, height, alloc));
                }
            }
        }
        Ok(GpuScene {
            meshes,
            textures,
            fullscreen_vb,
            fullscreen_ib,
            heap,
            huds,
        })
    }
}
