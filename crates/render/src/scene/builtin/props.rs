//! Props several built-in scenes share, each a [`MeshBuilder`] in its own
//! space (standing on `y = 0`, facing +x or +z as said) at a detail the
//! caller chooses by segment counts: the same car is a desktop city's
//! parked car and, with fewer segments, a mobile racer's.

use super::shapes::MeshBuilder;
use crate::math::{Mat4, Vec3};
use std::f32::consts::FRAC_PI_2;

fn v3(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

/// A car body along +x (wheels separately, [`wheels`]): chassis, a cabin
/// of `cabin_segments` sides with a rounded roofline, bumpers. 4.3 m long.
pub fn car_body(cabin_segments: u32) -> MeshBuilder {
    let mut b = MeshBuilder::new();
    b.cuboid(v3(-2.1, 0.35, -0.9), v3(2.1, 1.0, 0.9), 0.5);
    // Cabin as a lathe-free tapered box: a squashed frustum for a rounded
    // roofline.
    let mut cab = MeshBuilder::new();
    cab.cone(v3(0.0, 0.0, 0.0), 1.0, 0.72, 0.6, cabin_segments, 2);
    cab.disc(v3(0.0, 0.6, 0.0), 0.72, cabin_segments, true);
    b.append(
        &cab,
        Mat4::translation(v3(-0.2, 1.0, 0.0)) * Mat4::scale(v3(1.25, 1.0, 0.85)),
    );
    for x in [-2.15, 2.05] {
        b.cuboid(v3(x, 0.35, -0.85), v3(x + 0.1, 0.6, 0.85), 0.5);
    }
    b
}

/// The four wheels of [`car_body`], `segments` around each.
pub fn wheels(segments: u32) -> MeshBuilder {
    let mut w = MeshBuilder::new();
    let mut one = MeshBuilder::new();
    one.cylinder(v3(0.0, -0.12, 0.0), 0.34, 0.24, segments, 1);
    for (x, z) in [(-1.35, 0.85), (1.35, 0.85), (-1.35, -0.85), (1.35, -0.85)] {
        w.append(
            &one,
            Mat4::translation(v3(x, 0.34, z)) * Mat4::rotation_x(FRAC_PI_2),
        );
    }
    w
}

/// How a [`humanoid`] stands: limbs swung forward (+) or back (-) about
/// the shoulders and hips, radians.
#[derive(Clone, Copy, Debug)]
pub struct Pose {
    pub left_arm: f32,
    pub right_arm: f32,
    pub left_leg: f32,
    pub right_leg: f32,
    /// Forward lean of the whole body (a runner's), radians.
    pub lean: f32,
}

impl Pose {
    pub const STANDING: Pose = Pose {
        left_arm: 0.0,
        right_arm: 0.0,
        left_leg: 0.0,
        right_leg: 0.0,
        lean: 0.0,
    };

    /// Mid-stride, as a runner is drawn.
    pub const RUNNING: Pose = Pose {
        left_arm: 0.9,
        right_arm: -0.9,
        left_leg: -0.7,
        right_leg: 0.8,
        lean: 0.25,
    };
}

/// A low-poly figure 1.8 m tall facing +z, standing on `y = 0`: head,
/// torso, arms and legs of `segments` sides, hands and feet. Returns
/// (skin: head and hands, clothes: torso, limbs and feet) so each can
/// take its own material or swatch.
pub fn humanoid(segments: u32, pose: Pose) -> (MeshBuilder, MeshBuilder) {
    let s = segments.max(4);
    let mut skin = MeshBuilder::new();
    let mut cloth = MeshBuilder::new();
    skin.sphere(v3(0.0, 1.62, 0.0), 0.13, s, s / 2);
    cloth.cone(v3(0.0, 0.95, 0.0), 0.17, 0.22, 0.5, s, 2);
    cloth.disc(v3(0.0, 1.45, 0.0), 0.22, s, true);
    skin.cylinder(v3(0.0, 1.43, 0.0), 0.06, 0.08, s / 2, 1);
    // A limb hangs from its joint along -y, swung about x.
    let limb = |b: &mut MeshBuilder, joint: Vec3, len: f32, r: f32, swing: f32| {
        let mut l = MeshBuilder::new();
        l.cone(v3(0.0, -len, 0.0), r * 0.8, r, len, s, 2);
        b.append(&l, Mat4::translation(joint) * Mat4::rotation_x(-swing));
    };
    let end =
        |joint: Vec3, len: f32, swing: f32| joint + v3(0.0, -len * swing.cos(), len * swing.sin());
    for (x, arm) in [(-0.27, pose.left_arm), (0.27, pose.right_arm)] {
        let shoulder = v3(x, 1.42, 0.0);
        limb(&mut cloth, shoulder, 0.62, 0.06, arm);
        skin.sphere(end(shoulder, 0.66, arm), 0.055, s / 2, s / 4);
    }
    for (x, leg) in [(-0.1, pose.left_leg), (0.1, pose.right_leg)] {
        let hip = v3(x, 0.95, 0.0);
        limb(&mut cloth, hip, 0.88, 0.085, leg);
        let foot = end(hip, 0.9, leg);
        cloth.cuboid(
            foot + v3(-0.05, -0.05, -0.05),
            foot + v3(0.05, 0.05, 0.16),
            4.0,
        );
    }
    let lean = Mat4::rotation_x(pose.lean);
    let mut a = MeshBuilder::new();
    a.append(&skin, lean);
    let mut b = MeshBuilder::new();
    b.append(&cloth, lean);
    (a, b)
}

/// A low-poly conifer `h` metres tall: a trunk and `tiers` stacked cones
/// of `segments` sides. Returns (trunk, crown).
pub fn pine(h: f32, segments: u32, tiers: u32) -> (MeshBuilder, MeshBuilder) {
    let mut trunk = MeshBuilder::new();
    trunk.cylinder(v3(0.0, 0.0, 0.0), 0.04 * h, 0.3 * h, segments, 1);
    let mut crown = MeshBuilder::new();
    for t in 0..tiers {
        let f = t as f32 / tiers as f32;
        let r = 0.28 * h * (1.0 - 0.6 * f);
        crown.cone(
            v3(0.0, h * (0.22 + 0.22 * t as f32), 0.0),
            r,
            0.0,
            h * (0.45 - 0.1 * f),
            segments,
            1,
        );
    }
    (trunk, crown)
}

/// A coin of radius `r` standing up, facing +z: a short cylinder of
/// `segments` sides.
pub fn coin(r: f32, segments: u32) -> MeshBuilder {
    let mut one = MeshBuilder::new();
    one.cylinder(v3(0.0, -0.04 * r, 0.0), r, 0.08 * r, segments, 1);
    let mut c = MeshBuilder::new();
    c.append(&one, Mat4::rotation_x(FRAC_PI_2));
    c
}
