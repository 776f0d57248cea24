//! Per-frame values the passes share: the camera's and the sun's
//! transforms, the instances in drawing order; and the fixed-function
//! state and transforms passes derive from the scene.

use crate::math::{Mat4, Vec3};
use crate::raster::{CullMode, FrontFace};
use crate::scene::{AlphaMode, Material, Mirror, Scene};
use crate::state::State;

use super::shaders::{self, inverse};
use super::FrameRenderer;

/// Per-frame values the passes share.
pub(crate) struct View {
    pub vp: Mat4,
    pub inv_vp: Mat4,
    pub light_vp: Mat4,
    /// Opaque and masked instances, front to back.
    pub opaque: Vec<usize>,
    /// Blended instances, back to front.
    pub blended: Vec<usize>,
    pub reflection: bool,
}

impl FrameRenderer<'_> {
    pub(super) fn view(&self, frame: u32, frames: u32) -> View {
        let scene = self.scene;
        let cam = scene.camera.at(frame, frames);
        let aspect = self.cfg.width as f32 / self.cfg.height as f32;
        let vp = Mat4::perspective(cam.fov_y, aspect, cam.near, cam.far)
            * Mat4::look_at(cam.eye, cam.target, cam.up);
        let light_vp = light_matrix(scene);
        // View depth of each instance's centre: sort keys.
        let depth_of = |i: usize| {
            let inst = &scene.instances[i];
            let c = inst
                .transform
                .transform_point(self.gpu.meshes[inst.mesh].center);
            let v = Mat4::look_at(cam.eye, cam.target, cam.up).transform(c);
            -v.z
        };
        let mut opaque = Vec::new();
        let mut blended = Vec::new();
        for (i, inst) in scene.instances.iter().enumerate() {
            let m = &scene.materials[scene.meshes[inst.mesh].material];
            if m.alpha == AlphaMode::Blend {
                blended.push((depth_of(i), i));
            } else {
                opaque.push((depth_of(i), i));
            }
        }
        // Stable sorts on total orders: ties keep scene order.
        opaque.sort_by(|a, b| a.0.total_cmp(&b.0));
        blended.sort_by(|a, b| b.0.total_cmp(&a.0));
        View {
            vp,
            inv_vp: inverse(&vp),
            light_vp,
            opaque: opaque.into_iter().map(|x| x.1).collect(),
            blended: blended.into_iter().map(|x| x.1).collect(),
            reflection: self.passes.reflection && scene.mirror.is_some(),
        }
    }
}

/// The sun's view-projection: orthographic, looking along the light,
/// fitted around the scene's bounding sphere.
fn light_matrix(scene: &Scene) -> Mat4 {
    let (lo, hi) = scene
        .bounds()
        .unwrap_or((Vec3::new(-1.0, -1.0, -1.0), Vec3::new(1.0, 1.0, 1.0)));
    let center = (lo + hi) * 0.5;
    let r = ((hi - lo).length() * 0.5).max(1e-3);
    let dir = shaders::unit(scene.light.direction);
    let dir = if dir.length() == 0.0 {
        Vec3::new(0.0, -1.0, 0.0)
    } else {
        dir
    };
    let up = if dir.y.abs() > 0.99 {
        Vec3::new(0.0, 0.0, 1.0)
    } else {
        Vec3::new(0.0, 1.0, 0.0)
    };
    let eye = center - dir * (2.0 * r);
    Mat4::orthographic(-r, r, -r, r, r * 0.5, r * 3.5) * Mat4::look_at(eye, center, up)
}

/// The fixed-function state of a material's draws; `mirrored` flips the
/// winding (the reflection pass).
pub(crate) fn material_state(m: &Material, mirrored: bool) -> State {
    State {
        cull: if m.double_sided {
            CullMode::None
        } else {
            CullMode::Back
        },
        front_face: if mirrored {
            FrontFace::Cw
        } else {
            FrontFace::Ccw
        },
        ..State::default()
    }
}

/// The reflection about the horizontal plane `y = mirror.height`.
pub(crate) fn mirror_matrix(m: &Mirror) -> Mat4 {
    Mat4::translation(Vec3::new(0.0, m.height, 0.0))
        * Mat4::scale(Vec3::new(1.0, -1.0, 1.0))
        * Mat4::translation(Vec3::new(0.0, -m.height, 0.0))
}
