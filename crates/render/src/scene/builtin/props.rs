//! Props more than one built-in scene places: cars, trees, gabled houses,
//! crates and barrels. Each returns a [`MeshBuilder`] in its own local
//! space (standing on `y = 0`, facing +x for vehicles) with a detail
//! parameter, so a scene seen from far (a strategy map) can take a light
//! version of the prop a close-up scene takes in full.

use super::noise::{fbm, Rng};
use super::shapes::MeshBuilder;
use crate::math::{Mat4, Vec2, Vec3};
use std::f32::consts::{FRAC_PI_2, PI, TAU};

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

/// A first-person submachine gun of the 1920s-30s, in view-model scale
/// (metres; the muzzle along -z, the grip at the origin, x to the right):
/// its metal (receiver, finned barrel, compensator, drum magazine,
/// sights, screws) and its wood (fore grip, pistol grip, stock), about
/// ten thousand triangles, the detail of a view model, which fills a
/// fifth of the screen.
pub fn submachine_gun() -> (MeshBuilder, MeshBuilder) {
    let mut metal = MeshBuilder::new();
    metal.cuboid(v3(-0.024, -0.03, -0.06), v3(0.024, 0.034, 0.2), 20.0);
    metal.cuboid(v3(-0.018, 0.034, -0.04), v3(0.018, 0.045, 0.16), 20.0);
    let bore = |z: f32| v3(0.0, 0.012, z);
    metal.tube(bore(-0.06), bore(-0.44), 0.011, 48, 16);
    // Cooling fins along the barrel.
    for i in 0..16 {
        let z = -0.08 - i as f32 * 0.013;
        metal.tube(bore(z), bore(z - 0.005), 0.021, 48, 1);
    }
    // The compensator: a lathe along the barrel's axis (+y turned to -z).
    let mut comp = MeshBuilder::new();
    comp.lathe(
        v3(0.0, 0.0, 0.0),
        &[
            (0.0, 0.0),
            (0.016, 0.0),
            (0.016, 0.01),
            (0.014, 0.012),
            (0.014, 0.04),
            (0.017, 0.045),
            (0.017, 0.06),
            (0.006, 0.062),
        ],
        48,
    );
    metal.append(
        &comp,
        Mat4::translation(bore(-0.44)) * Mat4::rotation_x(-FRAC_PI_2),
    );
    // Drum magazine under the receiver, its axis across.
    metal.tube(
        v3(-0.023, -0.095, -0.02),
        v3(0.023, -0.095, -0.02),
        0.075,
        64,
        4,
    );
    metal.tube(
        v3(-0.026, -0.095, -0.02),
        v3(0.026, -0.095, -0.02),
        0.02,
        24,
        1,
    );
    // Sights, bolt knob, trigger guard and screws.
    metal.cuboid(v3(-0.012, 0.045, 0.12), v3(0.012, 0.07, 0.13), 20.0);
    metal.cuboid(v3(-0.002, 0.033, -0.43), v3(0.002, 0.048, -0.42), 20.0);
    metal.sphere(v3(0.0, 0.05, 0.05), 0.009, 16, 8);
    let guard: Vec<Vec3> = (0..=12)
        .map(|i| {
            let a = i as f32 / 12.0 * PI;
            v3(0.0, -0.03 - 0.03 * a.sin(), 0.1 + 0.035 * a.cos())
        })
        .collect();
    for w in guard.windows(2) {
        metal.tube(w[0], w[1], 0.003, 12, 1);
    }
    for i in 0..12 {
        let z = -0.05 + i as f32 * 0.022;
        for x in [-0.025f32, 0.025] {
            metal.tube(v3(x, 0.0, z), v3(x * 1.15, 0.0, z), 0.004, 12, 1);
        }
    }

    let mut wood = MeshBuilder::new();
    // Fore grip with finger grooves, below the barrel.
    let grip: Vec<(f32, f32)> = (0..=16)
        .map(|i| {
            let t = i as f32 / 16.0;
            (0.017 + 0.003 * (t * 4.0 * TAU).cos(), -0.11 * t)
        })
        .collect();
    wood.lathe(v3(0.0, -0.01, -0.16), &grip, 32);
    wood.disc(v3(0.0, -0.12, -0.16), 0.02, 32, false);
    // Pistol grip behind the trigger, raked back.
    let mut pistol = MeshBuilder::new();
    pistol.cylinder(v3(0.0, -0.1, 0.0), 0.02, 0.1, 32, 6);
    wood.append(
        &pistol,
        Mat4::translation(v3(0.0, -0.02, 0.17)) * Mat4::rotation_x(-0.3),
    );
    wood.cuboid(v3(-0.02, -0.05, 0.2), v3(0.02, 0.03, 0.45), 12.0);
    (metal, wood)
}

/// The player's gloved right hand and forearm in view-model scale, the
/// hand around a grip at the origin (pointing -z), the sleeve running
/// back towards +z.
pub fn gloved_hand() -> MeshBuilder {
    let mut b = MeshBuilder::new();
    let mut palm = MeshBuilder::new();
    palm.sphere(v3(0.0, 0.0, 0.0), 1.0, 32, 16);
    b.append(
        &palm,
        Mat4::translation(v3(0.035, -0.03, 0.0)) * Mat4::scale(v3(0.04, 0.04, 0.04)),
    );
    // Fingers curled round the grip: three phalanges each, with knuckles.
    for f in 0..4 {
        let z = -0.03 + f as f32 * 0.02;
        let pts = [
            v3(0.05, -0.01, z),
            v3(0.02, 0.02, z),
            v3(-0.015, 0.01, z),
            v3(-0.025, -0.02, z),
        ];
        for w in pts.windows(2) {
            b.tube(w[0], w[1], 0.009, 16, 2);
            b.sphere(w[1], 0.0095, 12, 6);
        }
    }
    b.tube(v3(0.04, 0.01, -0.04), v3(0.01, 0.03, -0.07), 0.011, 16, 2);
    // The sleeve: a lathe along +z, widening to the elbow.
    let sleeve: Vec<(f32, f32)> = (0..=12)
        .map(|i| {
            let t = i as f32 / 12.0;
            (0.035 + 0.02 * t + 0.004 * (t * 9.0).sin(), 0.3 * t)
        })
        .collect();
    let mut arm = MeshBuilder::new();
    arm.lathe(v3(0.0, 0.0, 0.0), &sleeve, 32);
    b.append(
        &arm,
        Mat4::translation(v3(0.05, -0.04, 0.03)) * Mat4::rotation_x(FRAC_PI_2),
    );
    b
}

/// A table with four chairs around it, standing on the origin.
pub fn table_and_chairs() -> MeshBuilder {
    let mut b = MeshBuilder::new();
    b.cuboid(v3(-0.8, 0.74, -0.45), v3(0.8, 0.79, 0.45), 1.0);
    for (x, z) in [(-0.7, -0.35), (0.7, -0.35), (-0.7, 0.35), (0.7, 0.35)] {
        b.tube(v3(x, 0.0, z), v3(x, 0.74, z), 0.03, 16, 2);
    }
    let mut chair = MeshBuilder::new();
    chair.cuboid(v3(-0.22, 0.43, -0.2), v3(0.22, 0.47, 0.2), 2.0);
    chair.cuboid(v3(-0.22, 0.47, -0.22), v3(0.22, 0.95, -0.18), 2.0);
    for (x, z) in [(-0.19, -0.17), (0.19, -0.17), (-0.19, 0.17), (0.19, 0.17)] {
        chair.cuboid(
            v3(x - 0.02, 0.0, z - 0.02),
            v3(x + 0.02, 0.43, z + 0.02),
            2.0,
        );
    }
    for (x, z, yaw) in [
        (-0.4, -0.7, 0.0),
        (0.4, -0.7, 0.0),
        (-0.4, 0.7, PI),
        (0.4, 0.7, PI),
    ] {
        b.append(
            &chair,
            Mat4::translation(v3(x, 0.0, z)) * Mat4::rotation_y(yaw),
        );
    }
    b
}

/// Shelving along x: two uprights and four boards, standing on the
/// origin, 2 m wide and 2.2 m tall.
pub fn shelf() -> MeshBuilder {
    let mut b = MeshBuilder::new();
    for x in [-1.0f32, 0.96] {
        b.cuboid(v3(x, 0.0, -0.2), v3(x + 0.04, 2.2, 0.2), 2.0);
    }
    for i in 0..4 {
        let y = 0.1 + i as f32 * 0.6;
        b.cuboid(v3(-1.0, y, -0.2), v3(1.0, y + 0.03, 0.2), 2.0);
    }
    b
}

/// `n` bottles in a row along x, 0.2 m apart, centred on the origin.
pub fn bottles(n: u32) -> MeshBuilder {
    let profile = [
        (0.0, 0.0),
        (0.035, 0.0),
        (0.035, 0.18),
        (0.012, 0.24),
        (0.012, 0.3),
    ];
    let mut b = MeshBuilder::new();
    for i in 0..n {
        let x = (i as f32 - (n - 1) as f32 * 0.5) * 0.2;
        b.lathe(v3(x, 0.0, 0.0), &profile, 16);
    }
    b
}

/// A puddle: a disc of `segments` stretched to `rx` by `rz` metres,
/// facing up at the origin.
pub fn puddle(segments: u32, rx: f32, rz: f32) -> MeshBuilder {
    let mut p = MeshBuilder::new();
    p.disc(v3(0.0, 0.0, 0.0), 1.0, segments, true);
    for q in &mut p.positions {
        q.x *= rx;
        q.z *= rz;
    }
    p
}

/// A particle system as one mesh (one draw): `n` sprites, each two
/// crossed upright cards and a level one (so it reads from the side and
/// from above), `size` metres square, centred where `at` puts sprite `i`
/// (`at` returns the centre and size and may draw from `rng`), turned at
/// random about the vertical.
pub fn sprites(
    rng: &mut Rng,
    n: u32,
    mut at: impl FnMut(&mut Rng, u32) -> (Vec3, f32),
) -> MeshBuilder {
    let mut b = MeshBuilder::new();
    for i in 0..n {
        let (c, s) = at(rng, i);
        let a = rng.range(0.0, PI);
        b.cross_cards(c - v3(0.0, s * 0.5, 0.0), s, s, a);
        let (d, e) = (
            v3(a.cos(), 0.0, a.sin()) * s,
            v3(-a.sin(), 0.0, a.cos()) * s,
        );
        b.quad(c - (d + e) * 0.5, e, d, Vec2::new(1.0, 1.0));
    }
    b
}

/// A rally car along +x (front at +x), 4.2 m long, standing on the
/// origin, in the detail of a racing game's own cars: the lofted body
/// with bonnet scoop, rear wing and mud flaps (`.0`, painted with a
/// livery), the glasshouse (`.1`), the tyres (`.2`) and the rims and
/// lamps (`.3`).
pub fn rally_car() -> (MeshBuilder, MeshBuilder, MeshBuilder, MeshBuilder) {
    let mut body = MeshBuilder::new();
    body.loft(
        &[
            [-2.12, 0.02, 0.02, 0.62],
            [-2.1, 0.78, 0.26, 0.62],
            [-1.85, 0.9, 0.34, 0.66],
            [-1.35, 0.92, 0.36, 0.68],
            [0.0, 0.9, 0.35, 0.68],
            [1.2, 0.9, 0.32, 0.66],
            [1.8, 0.86, 0.27, 0.62],
            [2.08, 0.76, 0.2, 0.56],
            [2.12, 0.02, 0.02, 0.54],
        ],
        6,
        64,
        4.0,
    );
    body.loft(
        &[
            [0.5, 0.02, 0.02, 1.04],
            [0.55, 0.18, 0.05, 1.05],
            [1.1, 0.2, 0.05, 1.04],
            [1.15, 0.02, 0.02, 1.03],
        ],
        4,
        24,
        3.0,
    );
    body.cuboid(v3(-2.25, 1.28, -0.8), v3(-1.95, 1.32, 0.8), 1.0);
    for z in [-0.7f32, 0.7] {
        body.cuboid(v3(-2.1, 0.98, z - 0.03), v3(-1.95, 1.28, z + 0.03), 1.0);
        body.cuboid(
            v3(-1.7, 0.1, z.signum() * 0.93 - 0.2),
            v3(-1.68, 0.45, z.signum() * 0.93 + 0.2),
            1.0,
        );
    }
    let mut glass = MeshBuilder::new();
    glass.loft(
        &[
            [-1.45, 0.02, 0.02, 1.0],
            [-1.4, 0.62, 0.3, 1.0],
            [-1.1, 0.72, 0.4, 1.02],
            [0.2, 0.74, 0.42, 1.02],
            [0.75, 0.7, 0.3, 1.0],
            [0.85, 0.02, 0.02, 0.98],
        ],
        6,
        48,
        4.0,
    );
    let mut tyres = MeshBuilder::new();
    let mut rims = MeshBuilder::new();
    for (x, z) in [(-1.35, 0.8), (1.35, 0.8), (-1.35, -0.8), (1.35, -0.8)] {
        let c = v3(x, 0.34, z);
        let out = v3(0.0, 0.0, z.signum() * 0.13);
        tyres.tube(c - out, c + out, 0.34, 48, 4);
        let mut rim = MeshBuilder::new();
        let spokes: Vec<(f32, f32)> = (0..=8)
            .map(|i| {
                let t = i as f32 / 8.0;
                (0.24 * t, 0.01 + 0.02 * (t * PI).sin())
            })
            .collect();
        rim.lathe(v3(0.0, 0.0, 0.0), &spokes, 48);
        let turn = Mat4::rotation_x(z.signum() * FRAC_PI_2);
        rims.append(&rim, Mat4::translation(c + out) * turn);
    }
    for z in [-0.55f32, 0.55] {
        let mut lamp = MeshBuilder::new();
        lamp.disc(v3(0.0, 0.0, 0.0), 0.11, 32, true);
        let at = Mat4::translation(v3(2.1, 0.66, z)) * Mat4::rotation_z(-FRAC_PI_2);
        rims.append(&lamp, at);
    }
    (body, glass, tyres, rims)
}

/// A boulder: a sphere pushed in and out by fbm (seeded), about a metre
/// across, resting on the origin.
pub fn boulder(seed: u32) -> MeshBuilder {
    let mut b = MeshBuilder::new();
    b.sphere(v3(0.0, 0.3, 0.0), 1.0, 20, 12);
    b.displace(|p| {
        let (u, w) = (p.x * 0.2 + 0.5 + p.y * 0.1, p.z * 0.2 + 0.5);
        (fbm(u, w, 4, 3, seed) - 0.5) * 0.9
    });
    b
}

/// A foot soldier 1.8 m tall standing on the origin, facing +x, in the
/// detail a strategy map gives its unit figures: body, head, shield
/// and spear.
pub fn soldier() -> MeshBuilder {
    let mut b = MeshBuilder::new();
    b.lathe(
        v3(0.0, 0.0, 0.0),
        &[
            (0.0, 0.0),
            (0.22, 0.0),
            (0.2, 0.8),
            (0.26, 1.3),
            (0.12, 1.5),
            (0.0, 1.5),
        ],
        12,
    );
    b.sphere(v3(0.0, 1.64, 0.0), 0.14, 10, 6);
    b.tube(v3(0.2, 0.0, 0.25), v3(0.2, 2.3, 0.25), 0.025, 6, 1);
    b.cuboid(v3(0.22, 0.6, -0.3), v3(0.28, 1.3, 0.15), 2.0);
    b
}

/// A sailing ship along +x, 12 m long, on the origin at its waterline:
/// a lofted hull and deck house (`.0`) and two masts with square sails
/// (`.1`, drawn with an alpha-masked cloth texture).
pub fn ship() -> (MeshBuilder, MeshBuilder) {
    let mut hull = MeshBuilder::new();
    hull.loft(
        &[
            [-6.0, 0.02, 0.02, 0.8],
            [-5.8, 1.2, 1.2, 0.6],
            [-3.0, 1.8, 1.5, 0.5],
            [2.0, 1.8, 1.5, 0.5],
            [5.0, 1.0, 1.2, 0.7],
            [6.2, 0.02, 0.02, 1.4],
        ],
        4,
        24,
        3.0,
    );
    hull.cuboid(v3(-5.0, 1.8, -1.0), v3(-3.0, 2.8, 1.0), 0.5);
    let mut sails = MeshBuilder::new();
    for x in [-1.5f32, 2.5] {
        hull.tube(v3(x, 1.5, 0.0), v3(x, 11.0, 0.0), 0.15, 8, 1);
        sails.quad(
            v3(x + 0.2, 10.0, -2.5),
            v3(0.0, 0.0, 5.0),
            v3(0.0, -6.5, 0.0),
            Vec2::new(1.0, 1.0),
        );
    }
    (hull, sails)
}

/// The trees of one forest tile of a strategy map: `n` small trees (two
/// to three metres) at random within `radius` of the origin, conifers
/// (`.0` trunks, `.1` needle cones) or broadleaves (`.1` leaf cards).
pub fn forest_clump(
    rng: &mut Rng,
    n: u32,
    radius: f32,
    conifer: bool,
) -> (MeshBuilder, MeshBuilder) {
    let (mut trunks, mut crowns) = (MeshBuilder::new(), MeshBuilder::new());
    let needles = conifer_needles(6, 1);
    let trunk = conifer_trunk(5);
    for _ in 0..n {
        let (a, d) = (rng.range(0.0, TAU), rng.range(0.0, radius));
        let s = rng.range(0.2, 0.28);
        let at = Mat4::translation(v3(a.cos() * d, 0.0, a.sin() * d))
            * Mat4::rotation_y(rng.range(0.0, TAU))
            * Mat4::scale(v3(s, s, s));
        trunks.append(&trunk, at);
        if conifer {
            crowns.append(&needles, at);
        } else {
            crowns.append(&leaf_crown(rng, 4, 1.8, (3.0, 6.0), 3.6), at);
        }
    }
    (trunks, crowns)
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
