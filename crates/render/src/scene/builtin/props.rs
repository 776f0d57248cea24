//! Props more than one built-in scene places: cars, trees, gabled houses,
//! crates and barrels. Each returns a [`MeshBuilder`] in its own local
//! space (standing on `y = 0`, facing +x for vehicles) with a detail
//! parameter, so a scene seen from far (a strategy map) can take a light
//! version of the prop a close-up scene takes in full.

use super::noise::Rng;
use super::shapes::MeshBuilder;
use crate::math::{Mat4, Vec2, Vec3};
use std::f32::consts::FRAC_PI_2;

fn v3(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

/// A car body along +x, 4.2 m long (wheels separately, see
/// [`car_wheels`]): chassis, a rounded cabin of `segments` sides,
/// bumpers.
pub fn car_body(segments: u32) -> MeshBuilder {
    let mut b = MeshBuilder::new();
    b.cuboid(v3(-2.1, 0.35, -0.9), v3(2.1, 1.0, 0.9), 0.5);
    // The cabin: a squashed frustum for a rounded roofline.
    let mut cab = MeshBuilder::new();
    cab.cone(v3(0.0, 0.0, 0.0), 1.0, 0.72, 0.6, segments, 2);
    cab.disc(v3(0.0, 0.6, 0.0), 0.72, segments, true);
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
pub fn car_wheels(segments: u32) -> MeshBuilder {
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

/// A conifer's trunk: 4 m tall, `segments` around.
pub fn conifer_trunk(segments: u32) -> MeshBuilder {
    let mut trunk = MeshBuilder::new();
    trunk.cylinder(v3(0.0, 0.0, 0.0), 0.25, 4.0, segments, 1);
    trunk
}

/// A conifer's needles: four stacked cones, 10 m tall in all, of
/// `segments` sides and `rings` rings each.
pub fn conifer_needles(segments: u32, rings: u32) -> MeshBuilder {
    let mut cones = MeshBuilder::new();
    for i in 0..4 {
        let f = i as f32;
        cones.cone(
            v3(0.0, 2.0 + f * 1.8, 0.0),
            2.6 - f * 0.5,
            0.0,
            3.6 - f * 0.4,
            segments,
            rings,
        );
    }
    cones
}

/// A broadleaf crown of `cards` crossed leaf cards, `size` metres square,
/// centred at random (from `rng`) within `half` metres of the axis and
/// between heights `y.0` and `y.1` (drawn with an alpha-masked leaf
/// texture).
pub fn leaf_crown(rng: &mut Rng, cards: u32, half: f32, y: (f32, f32), size: f32) -> MeshBuilder {
    let mut crown = MeshBuilder::new();
    for _ in 0..cards {
        let c = v3(
            rng.range(-half, half),
            rng.range(y.0, y.1),
            rng.range(-half, half),
        );
        crown.cross_cards(c, size, size, rng.range(0.0, 3.1));
    }
    crown
}

/// A box house with a gabled roof, in world space: walls from `o` (the
/// centre of the floor) `size.x` along x, `size.z` along z and `size.y`
/// tall (uvs half a tile per metre), the ridge along x `ridge` above the
/// eaves, the roof overhanging by `over`. One mesh: walls, two roof
/// slopes, two gables.
pub fn gabled_house(o: Vec3, size: Vec3, ridge: f32, over: f32) -> MeshBuilder {
    let (w, d, h) = (size.x, size.z, size.y);
    let mut b = MeshBuilder::new();
    b.cuboid(
        o + v3(-w / 2.0, 0.0, -d / 2.0),
        o + v3(w / 2.0, h, d / 2.0),
        0.5,
    );
    // Roof: two slopes meeting at a ridge along x.
    let top = o + v3(0.0, h + ridge, 0.0);
    for s in [1.0f32, -1.0] {
        let eave = o + v3(0.0, h - 0.2, s * (d / 2.0 + over));
        let (a, e) = (
            top - v3(w / 2.0 + over, 0.0, 0.0),
            eave - v3(w / 2.0 + over, 0.0, 0.0),
        );
        let du = v3(w + 2.0 * over, 0.0, 0.0);
        if s > 0.0 {
            b.quad(e, du, a - e, Vec2::new(2.0, 1.5));
        } else {
            b.quad(a, du, e - a, Vec2::new(2.0, 1.5));
        }
    }
    // Gables.
    for s in [1.0f32, -1.0] {
        let gx = o.x + s * w / 2.0;
        let p = [
            v3(gx, o.y + h, o.z - d / 2.0),
            v3(gx, o.y + h, o.z + d / 2.0),
            v3(gx, top.y, o.z),
        ];
        let n = v3(s, 0.0, 0.0);
        let i = [0, 1, 2].map(|j| b.vertex(p[j], n, (p[j].z * 0.5, p[j].y * 0.5)));
        if s > 0.0 {
            b.tri(i[1], i[0], i[2]);
        } else {
            b.tri(i[0], i[1], i[2]);
        }
    }
    b
}

/// A wooden crate of side `s` standing on the origin: a box with a frame
/// of battens proud of each side face and on the lid (the crate texture
/// carries the boards).
pub fn crate_box(s: f32) -> MeshBuilder {
    let mut b = MeshBuilder::new();
    let uv = 1.0 / s;
    b.cuboid(v3(-s / 2.0, 0.0, -s / 2.0), v3(s / 2.0, s, s / 2.0), uv);
    let (t, e) = (0.06 * s, s / 2.0 + 0.02 * s);
    // Vertical corner battens and top and bottom rims.
    for (x, z) in [(-1.0f32, -1.0f32), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
        let c = v3(x * (e - t / 2.0), 0.0, z * (e - t / 2.0));
        b.cuboid(
            c - v3(t / 2.0, 0.0, t / 2.0),
            c + v3(t / 2.0, s, t / 2.0),
            uv,
        );
    }
    for y in [0.0, s - t] {
        b.cuboid(v3(-e, y, -e), v3(e, y + t, -e + t), uv);
        b.cuboid(v3(-e, y, e - t), v3(e, y + t, e), uv);
        b.cuboid(v3(-e, y, -e + t), v3(-e + t, y + t, e - t), uv);
        b.cuboid(v3(e - t, y, -e + t), v3(e, y + t, e - t), uv);
    }
    b
}

/// A steel drum standing on the origin, 0.9 m tall: a lathe with rolled
/// hoops and lids, `segments` around.
pub fn barrel(segments: u32) -> MeshBuilder {
    let r = 0.3;
    let mut profile = vec![(0.0, 0.0), (r, 0.0)];
    for k in 0..=2 {
        let y = 0.06 + k as f32 * 0.39;
        profile.extend([(r, y), (r + 0.015, y + 0.02), (r, y + 0.04)]);
    }
    profile.extend([(r, 0.9), (0.0, 0.9)]);
    let mut b = MeshBuilder::new();
    b.lathe(v3(0.0, 0.0, 0.0), &profile, segments);
    b
}
