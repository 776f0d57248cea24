//! Per-frame values the passes share: the camera's and the sun's
//! transforms, the instances in drawing order; and the fixed-function
//! state and transforms passes derive from the scene.

use crate::graph::Op;
use crate::math::{Mat4, Vec3};
use crate::raster::{CullMode, FrontFace};
use crate::scene::{AlphaMode, Camera, Material, Mirror, Scene};
use crate::state::State;

use super::shaders::{self, inverse};
use super::FrameRenderer;

/// Per-frame values the passes share.
pub(crate) struct View {
    pub camera: Camera,
    pub aspect: f32,
    pub vp: Mat4,
    pub inv_vp: Mat4,
    /// The last frame's view-projection (this frame's on the first).
    pub prev_vp: Mat4,
    /// The sun's view-projection fitted around the whole scene.
    pub light_vp: Mat4,
    /// Opaque and masked instances, front to back.
    pub opaque: Vec<usize>,
    /// Blended instances, back to front (particles too when the frame has
    /// no particles pass).
    pub blended: Vec<usize>,
    /// Particle instances, back to front, when the frame has a particles
    /// pass.
    pub particles: Vec<usize>,
    /// Interface instances, in scene order (a UI is drawn in the order it
    /// is laid out), drawn only by the UI pass.
    pub interface: Vec<usize>,
    pub reflection: bool,
    /// Centre and radius of the scene's bounding sphere.
    scene_sphere: (Vec3, f32),
    /// The direction the sunlight travels, unit length.
    sun_dir: Vec3,
}

impl FrameRenderer<'_> {
    pub(super) fn view(&self, frame: u32, frames: u32) -> View {
        let scene = self.scene;
        let cam = scene.camera.at(frame, frames);
        let aspect = self.cfg.width as f32 / self.cfg.height as f32;
        let view_projection = |c: &Camera| {
            Mat4::perspective(c.fov_y, aspect, c.near, c.far) * Mat4::look_at(c.eye, c.target, c.up)
        };
        let vp = view_projection(&cam);
        let prev_vp = view_projection(&scene.camera.at(frame.saturating_sub(1), frames));
        let light_vp = light_matrix(scene);
        let separate_particles = self.graph.passes.iter().any(|p| {
            matches!(
                p.op,
                Op::Particles
                    | Op::Forward { blended: true, .. }
                    | Op::Lighting { blended: true, .. }
            )
        });
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
        let mut particles = Vec::new();
        let mut interface = Vec::new();
        for (i, inst) in scene.instances.iter().enumerate() {
            let m = scene.material_of(inst);
            if m.interface {
                interface.push(i);
            } else if m.particle && separate_particles {
                particles.push((depth_of(i), i));
            } else if m.alpha == AlphaMode::Blend {
                blended.push((depth_of(i), i));
            } else {
                opaque.push((depth_of(i), i));
            }
        }
        // Stable sorts on total orders: ties keep scene order.
        opaque.sort_by(|a, b| a.0.total_cmp(&b.0));
        blended.sort_by(|a, b| b.0.total_cmp(&a.0));
        particles.sort_by(|a, b| b.0.total_cmp(&a.0));
        let ids = |v: Vec<(f32, usize)>| v.into_iter().map(|x| x.1).collect();
        let has_reflection = self.graph.passes.iter().any(|p| p.op == Op::Reflection);
        View {
            camera: cam,
            aspect,
            vp,
            inv_vp: inverse(&vp),
            prev_vp,
            light_vp,
            opaque: ids(opaque),
            blended: ids(blended),
            particles: ids(particles),
            interface,
            reflection: has_reflection && scene.mirror.is_some(),
            scene_sphere: bounding_sphere(scene),
            sun_dir: sun_direction(scene),
        }
    }
}

/// Share of the logarithmic split in the cascades' depth ranges (the
/// "practical split scheme" of parallel-split shadow maps; the rest is a
/// uniform split).
const LOG_SPLIT: f32 = 0.75;

impl View {
    /// The sun's view-projection for cascade `k` of `n`: the whole scene
    /// for one cascade; else an orthographic box around the part of the
    /// camera's frustum between the cascade's split depths, deep enough
    /// towards the sun to hold every caster of the scene.
    pub fn sun(&self, k: u32, n: u32) -> Mat4 {
        if n <= 1 {
            return self.light_vp;
        }
        let c = &self.camera;
        let split = |i: u32| {
            let f = i as f32 / n as f32;
            let log = c.near * (c.far / c.near).powf(f);
            let uni = c.near + (c.far - c.near) * f;
            LOG_SPLIT * log + (1.0 - LOG_SPLIT) * uni
        };
        let (d0, d1) = (split(k), split(k + 1));
        let fwd = shaders::unit(c.target - c.eye);
        let right = shaders::unit(fwd.cross(c.up));
        let up = right.cross(fwd);
        let ty = (c.fov_y * 0.5).tan();
        let tx = ty * self.aspect;
        let mut corners = Vec::with_capacity(8);
        for d in [d0, d1] {
            for (sx, sy) in [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)] {
                corners.push(c.eye + fwd * d + right * (sx * tx * d) + up * (sy * ty * d));
            }
        }
        let centre = corners.iter().fold(Vec3::new(0.0, 0.0, 0.0), |a, &p| a + p) * 0.125;
        let r = corners
            .iter()
            .map(|&p| (p - centre).length())
            .fold(1e-3f32, f32::max);
        let dir = self.sun_dir;
        let (sc, sr) = self.scene_sphere;
        let along = (sc - centre).dot(dir);
        let back = (sr - along).max(r) + 1.0;
        let depth = back + (along + sr).max(r);
        let eye = centre - dir * back;
        Mat4::orthographic(-r, r, -r, r, 0.0, depth) * Mat4::look_at(eye, centre, sun_up(dir))
    }
}

/// Centre and radius of the scene's bounding sphere (a unit sphere at the
/// origin for an empty scene).
fn bounding_sphere(scene: &Scene) -> (Vec3, f32) {
    let (lo, hi) = scene
        .bounds()
        .unwrap_or((Vec3::new(-1.0, -1.0, -1.0), Vec3::new(1.0, 1.0, 1.0)));
    ((lo + hi) * 0.5, ((hi - lo).length() * 0.5).max(1e-3))
}

/// The direction the sunlight travels (straight down for a zero vector).
fn sun_direction(scene: &Scene) -> Vec3 {
    let dir = shaders::unit(scene.light.direction);
    if dir.length() == 0.0 {
        Vec3::new(0.0, -1.0, 0.0)
    } else {
        dir
    }
}

/// An up vector for a camera looking along `dir`.
fn sun_up(dir: Vec3) -> Vec3 {
    if dir.y.abs() > 0.99 {
        Vec3::new(0.0, 0.0, 1.0)
    } else {
        Vec3::new(0.0, 1.0, 0.0)
    }
}

/// The sun's view-projection: orthographic, looking along the light,
/// fitted around the scene's bounding sphere.
fn light_matrix(scene: &Scene) -> Mat4 {
    let (center, r) = bounding_sphere(scene);
    let dir = sun_direction(scene);
    let eye = center - dir * (2.0 * r);
    Mat4::orthographic(-r, r, -r, r, r * 0.5, r * 3.5) * Mat4::look_at(eye, center, sun_up(dir))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn view(camera: Camera) -> View {
        View {
            camera,
            aspect: 16.0 / 9.0,
            vp: Mat4::IDENTITY,
            inv_vp: Mat4::IDENTITY,
            prev_vp: Mat4::IDENTITY,
            light_vp: Mat4::IDENTITY,
            opaque: vec![],
            blended: vec![],
            particles: vec![],
            interface: vec![],
            reflection: false,
            scene_sphere: (Vec3::new(0.0, 0.0, 0.0), 150.0),
            sun_dir: shaders::unit(Vec3::new(-0.4, -1.0, -0.3)),
        }
    }

    /// Every corner of each cascade's slice of the view (the practical
    /// split scheme's depths) lands inside that cascade's map and depth
    /// range; the slices tile the view from near to far.
    #[test]
    fn each_cascade_holds_its_slice_of_the_view() {
        let cam = Camera {
            eye: Vec3::new(3.0, 2.0, 40.0),
            target: Vec3::new(0.0, 1.0, 0.0),
            up: Vec3::new(0.0, 1.0, 0.0),
            fov_y: 1.0,
            near: 0.1,
            far: 200.0,
        };
        let v = view(cam);
        let n = 4;
        let fwd = shaders::unit(cam.target - cam.eye);
        let right = shaders::unit(fwd.cross(cam.up));
        let up = right.cross(fwd);
        let ty = (cam.fov_y * 0.5).tan();
        let tx = ty * v.aspect;
        let split = |i: u32| {
            let f = i as f32 / n as f32;
            0.75 * cam.near * (cam.far / cam.near).powf(f)
                + 0.25 * (cam.near + (cam.far - cam.near) * f)
        };
        assert!((split(0) - cam.near).abs() < 1e-4 && (split(n) - cam.far).abs() < 1e-2);
        for k in 0..n {
            let m = v.sun(k, n);
            for step in 0..=8 {
                let d = split(k) + (split(k + 1) - split(k)) * step as f32 / 8.0;
                for (sx, sy) in [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)] {
                    let p = cam.eye + fwd * d + right * (sx * tx * d) + up * (sy * ty * d);
                    let c = m.transform_point(p);
                    assert!(
                        c.x.abs() <= 1.0 && c.y.abs() <= 1.0 && (0.0..=1.0).contains(&c.z),
                        "cascade {k}: view point at depth {d} outside: {c:?}"
                    );
                }
            }
            // A cascade is no bigger than its slice needs: the next
            // cascade's far end is outside it (except the last).
            if k + 2 <= n {
                let d = split(k + 2);
                let p = cam.eye + fwd * d + right * (tx * d) + up * (ty * d);
                let c = m.transform_point(p);
                assert!(c.x.abs() > 1.0 || c.y.abs() > 1.0, "cascade {k} holds {d}");
            }
        }
        // One cascade is the whole-scene matrix.
        assert_eq!(v.sun(0, 1), v.light_vp);
    }
}
