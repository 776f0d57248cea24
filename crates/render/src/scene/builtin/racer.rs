//! `racer`: a low-poly circuit racer (the class of Beach Buggy Racing,
//! Hot Wheels and the mobile kart and rally games). A closed loop of
//! asphalt about 900 m long with red and white kerbs and barrier walls,
//! grass around it, low-poly pines and bushes, billboards with lettering,
//! a grandstand with a crowd and a start gantry, and a field of six cars
//! with blob shadows and dust, the camera behind the player's car as it
//! weaves.
//!
//! Sizes from the class, not from any measurement: a track meshed every
//! 4 m with two triangles across (low-poly tracks are coarse), a few
//! hundred scenery props of tens of triangles each, cars of several
//! hundred triangles, each car and prop a draw; textures of 64-512
//! texels a side, block-compressed, most props coloured from one palette;
//! no shadow map. The one scene of the suite on the deferred-lite frame
//! (a thin G-buffer and one lighting pass), so that both mobile presets
//! have a workload.

use super::atlas::{self, PALETTE};
use super::kit::{self, Kit};
use super::noise::Rng;
use super::props;
use super::shapes::MeshBuilder;
use super::texgen;
use crate::graph::Preset;
use crate::math::{Mat4, Vec2, Vec3};
use crate::scene::{AlphaMode, Light, Scene};
use std::f32::consts::{FRAC_PI_2, TAU};

const SEED: u32 = 0x4ac3_e001;
/// Mean radius of the loop, road half width, kerb width, barrier offset.
const RADIUS: f32 = 125.0;
const ROAD: f32 = 6.0;
const KERB: f32 = 1.2;
const WALL: f32 = 11.0;
/// Track mesh spacing (m) and the player's place along the loop (m).
const STEP: f32 = 4.0;
const PLAYER: f32 = 90.0;

const GREEN: u32 = 0;
const GREEN_LIGHT: u32 = 1;
const TRUNK: u32 = 2;
const STEEL: u32 = 3;
const TYRE: u32 = 4;
const WHITE: u32 = 5;
const ROOF: u32 = 6;
/// Car paints, then billboard colours.
const PAINTS: [u32; 6] = [7, 8, 9, 10, 11, 12];
const BOARDS: [u32; 4] = [13, 14, 9, 8];
const COLOURS: [[f32; 3]; 15] = [
    [0.16, 0.42, 0.18],
    [0.35, 0.60, 0.22],
    [0.42, 0.28, 0.16],
    [0.60, 0.62, 0.65],
    [0.06, 0.06, 0.07],
    [0.95, 0.95, 0.95],
    [0.30, 0.32, 0.38],
    [0.90, 0.15, 0.10],
    [0.10, 0.35, 0.85],
    [0.95, 0.75, 0.10],
    [0.15, 0.70, 0.30],
    [0.85, 0.40, 0.80],
    [0.95, 0.50, 0.10],
    [0.10, 0.10, 0.30],
    [0.55, 0.10, 0.10],
];

fn v3(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

fn painted(mut b: MeshBuilder, swatch: u32) -> MeshBuilder {
    b.flat_uv(PALETTE.swatch(swatch));
    b
}

/// The loop's centreline, sampled finely, with distances along it.
struct Track {
    pts: Vec<Vec3>,
    dist: Vec<f32>,
    len: f32,
}

impl Track {
    fn new() -> Track {
        let n = 1440;
        let pts: Vec<Vec3> = (0..n)
            .map(|i| {
                let a = TAU * i as f32 / n as f32;
                let r = RADIUS * (1.0 + 0.22 * (2.0 * a).sin() + 0.12 * (3.0 * a).cos());
                v3(r * a.cos(), 0.0, -r * a.sin())
            })
            .collect();
        let mut dist = vec![0.0];
        for i in 1..=n {
            let d = (pts[i % n] - pts[i - 1]).length();
            dist.push(dist[i - 1] + d);
        }
        let len = dist[n];
        Track { pts, dist, len }
    }

    /// Position, direction of travel and right-hand side at `s` metres.
    fn at(&self, s: f32) -> (Vec3, Vec3, Vec3) {
        let s = s.rem_euclid(self.len);
        let i = self
            .dist
            .partition_point(|&d| d <= s)
            .clamp(1, self.pts.len())
            - 1;
        let n = self.pts.len();
        let (a, b) = (self.pts[i], self.pts[(i + 1) % n]);
        let f = (s - self.dist[i]) / (self.dist[i + 1] - self.dist[i]);
        let t = (b - a).normalize();
        (a + (b - a) * f, t, t.cross(v3(0.0, 1.0, 0.0)).normalize())
    }

    /// The centreline every [`STEP`] metres.
    fn resampled(&self) -> Vec<Vec3> {
        let n = (self.len / STEP).round() as u32;
        (0..n)
            .map(|i| self.at(i as f32 * self.len / n as f32).0)
            .collect()
    }

    /// Horizontal distance from `p` to the centreline.
    fn distance(&self, p: Vec3) -> f32 {
        self.pts
            .iter()
            .step_by(4)
            .map(|q| ((q.x - p.x).powi(2) + (q.z - p.z).powi(2)).sqrt())
            .fold(f32::INFINITY, f32::min)
    }
}

/// Yaw that turns local +z to face `d`.
fn facing(d: Vec3) -> f32 {
    d.x.atan2(d.z)
}

/// Yaw that turns local +x (a car's forward) along `d`.
fn heading(d: Vec3) -> f32 {
    (-d.z).atan2(d.x)
}

pub fn build() -> Scene {
    let mut k = Kit::new("racer");
    let palette = k.image_bc(atlas::palette(64, &COLOURS));
    let asphalt = k.image_bc(texgen::asphalt(512, SEED, 2));
    let kerb = k.image_bc(texgen::kerb(64, SEED + 1, 4));
    let grass = k.image_bc(texgen::grass(256, SEED + 2));
    let wall = k.image_bc(texgen::stripes(
        128,
        SEED + 3,
        2,
        [0.9, 0.9, 0.9],
        [0.15, 0.35, 0.8],
    ));
    let crowd = k.image_bc(texgen::grandstand(256, SEED + 4, 8));
    let checker = k.image_bc(texgen::checker(
        64,
        8,
        [0.05, 0.05, 0.05],
        [0.95, 0.95, 0.95],
    ));
    let font = k.image_bc(atlas::glyph_sheet(256));
    let dust = k.image_bc(texgen::puff(128, SEED + 5, [0.70, 0.66, 0.58]));
    let blob = k.image_bc(texgen::puff(64, SEED + 6, [0.0, 0.0, 0.0]));
    let m_palette = k.textured("palette", palette);
    let track = Track::new();

    circuit(&mut k, &track, [asphalt, kerb, wall, grass]);

    scenery(&mut k, &track, m_palette);
    let m_font = k.alpha("lettering", font, AlphaMode::Blend);
    billboards(&mut k, &track, m_palette, m_font);
    let m_crowd = k.textured("crowd", crowd);
    let m_checker = k.textured("checker", checker);
    grandstand(&mut k, &track, m_palette, m_crowd, m_checker);
    let m_dust = k.particle("dust", dust, [0.0; 3]);
    let m_blob = k.alpha("blob_shadow", blob, AlphaMode::Blend);
    cars(&mut k, &track, m_palette, m_blob, m_dust);

    // Behind the player's car, weaving across the road with it.
    let (p, _, side) = track.at(PLAYER - 8.5);
    let (q, _, _) = track.at(PLAYER + 14.0);
    let keys = [-1.2f32, 0.0, 1.0, 1.8]
        .iter()
        .map(|&l| {
            let eye = p + side * (2.0 + l) + v3(0.0, 3.0, 0.0);
            kit::look(
                eye,
                q + side * (2.0 + 0.5 * l) + v3(0.0, 1.0, 0.0),
                60.0,
                0.3,
                500.0,
            )
        })
        .collect();
    k.cameras(keys);
    k.scene.light = Light {
        direction: v3(-0.4, -0.75, 0.5).normalize(),
        color: [1.0, 0.96, 0.86],
        ambient: 0.4,
    };
    k.mobile_frame(Preset::MobileDeferredLite);
    k.scene.sky = [0.50, 0.72, 0.95];
    k.finish()
}

/// The loop's road, kerbs and barrier walls (ribbons along its
/// centreline) and the grass around it; `textures` are the asphalt, kerb,
/// wall and grass images.
fn circuit(k: &mut Kit, track: &Track, textures: [usize; 4]) {
    let [asphalt, kerb, wall, grass] = textures;
    let path = track.resampled();
    let mut road = MeshBuilder::new();
    road.ribbon(
        &path,
        true,
        (-ROAD, 0.1),
        (ROAD, 0.1),
        (0.0, 1.0),
        1.0 / 24.0,
    );
    let mut kerbs = MeshBuilder::new();
    kerbs.ribbon(
        &path,
        true,
        (ROAD, 0.1),
        (ROAD + KERB, 0.12),
        (0.0, 1.0),
        1.0 / 4.0,
    );
    kerbs.ribbon(
        &path,
        true,
        (-ROAD - KERB, 0.12),
        (-ROAD, 0.1),
        (1.0, 0.0),
        1.0 / 4.0,
    );
    let mut walls = MeshBuilder::new();
    walls.ribbon(&path, true, (WALL, 0.0), (WALL, 1.1), (0.0, 1.0), 1.0 / 6.0);
    walls.ribbon(
        &path,
        true,
        (-WALL, 1.1),
        (-WALL, 0.0),
        (0.0, 1.0),
        1.0 / 6.0,
    );
    let mut ground = MeshBuilder::new();
    ground.grid(
        v3(-320.0, 0.0, 320.0),
        v3(640.0, 0.0, 0.0),
        v3(0.0, 0.0, -640.0),
        16,
        16,
        Vec2::new(80.0, 80.0),
    );
    let pieces = [
        ("road", road, k.textured("asphalt", asphalt)),
        ("kerbs", kerbs, k.textured("kerbs", kerb)),
        ("walls", walls, k.textured("barrier_walls", wall)),
        ("ground", ground, k.textured("grass", grass)),
    ];
    for (name, b, m) in pieces {
        let mesh = k.mesh(name, b, m);
        k.place(mesh, Mat4::IDENTITY);
    }
}

/// Pines and bushes scattered off the track.
fn scenery(k: &mut Kit, track: &Track, m: usize) {
    let (trunk, crown) = props::pine(8.0, 6, 3);
    let trunk = k.mesh("pine_trunk", painted(trunk, TRUNK), m);
    let crown = k.mesh("pine_crown", painted(crown, GREEN), m);
    let mut bush = MeshBuilder::new();
    bush.sphere(v3(0.0, 0.8, 0.0), 1.4, 8, 5);
    let bush = k.mesh("bush", painted(bush, GREEN_LIGHT), m);
    let mut rng = Rng::new(SEED ^ 0x7ee5);
    let mut placed = 0;
    while placed < 220 {
        let p = v3(rng.range(-300.0, 300.0), 0.0, rng.range(-300.0, 300.0));
        if track.distance(p) < WALL + 6.0 {
            continue;
        }
        let (yaw, s) = (rng.range(0.0, TAU), rng.range(0.7, 1.3));
        if rng.unit() < 0.7 {
            k.put(trunk, p, yaw, s);
            k.put(crown, p, yaw, s);
        } else {
            k.put(bush, p, yaw, s);
        }
        placed += 1;
    }
}

/// Billboards outside the walls, facing the track, with lettering in
/// front of their boards.
fn billboards(k: &mut Kit, track: &Track, m_palette: usize, m_font: usize) {
    let mut frame = MeshBuilder::new();
    for x in [-3.0, 3.0] {
        frame.cuboid(v3(x - 0.12, 0.0, -0.3), v3(x + 0.12, 5.2, -0.1), 1.0);
    }
    frame.quad(
        v3(3.3, 2.4, -0.1),
        v3(-6.6, 0.0, 0.0),
        v3(0.0, 2.8, 0.0),
        Vec2::new(1.0, 1.0),
    );
    let frame = k.mesh("billboard_frame", painted(frame, STEEL), m_palette);
    let words = ["TURBO", "FUEL", "NITRO", "TYRES", "RACE", "GO GO"];
    let boards: Vec<(usize, usize)> = words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let mut board = MeshBuilder::new();
            board.quad(
                v3(-3.3, 2.4, 0.0),
                v3(6.6, 0.0, 0.0),
                v3(0.0, 2.8, 0.0),
                Vec2::new(1.0, 1.0),
            );
            let board = painted(board, BOARDS[i % BOARDS.len()]);
            let mut flat = MeshBuilder::new();
            let h = 1.5;
            let x0 = -(w.len() as f32 - 1.0) * h * 0.8 * 0.5;
            atlas::text(&mut flat, w, v3(x0, 0.0, 0.0), h);
            let mut text = MeshBuilder::new();
            text.append(
                &flat,
                Mat4::translation(v3(0.0, 3.8, 0.05)) * Mat4::rotation_x(FRAC_PI_2),
            );
            (
                k.mesh(&format!("billboard{i}"), board, m_palette),
                k.mesh(&format!("billboard{i}_text"), text, m_font),
            )
        })
        .collect();
    let n = 14;
    for i in 0..n {
        let (p, _, side) = track.at(track.len * i as f32 / n as f32 + 30.0);
        // Outside the loop: away from its centre.
        let out = if side.dot(p) > 0.0 { side } else { side * -1.0 };
        let pos = p + out * (WALL + 3.0);
        let yaw = facing(out * -1.0);
        let (board, text) = boards[i % boards.len()];
        for mesh in [frame, board, text] {
            k.put(mesh, pos, yaw, 1.0);
        }
    }
}

/// A grandstand outside the start straight and the start gantry over it.
fn grandstand(k: &mut Kit, track: &Track, m_palette: usize, m_crowd: usize, m_checker: usize) {
    let (p, t, side) = track.at(PLAYER + 40.0);
    let out = if side.dot(p) > 0.0 { side } else { side * -1.0 };
    let mut seats = MeshBuilder::new();
    seats.quad(
        v3(-20.0, 1.0, 0.0),
        v3(40.0, 0.0, 0.0),
        v3(0.0, 6.0, -10.0),
        Vec2::new(10.0, 3.0),
    );
    let seats = k.mesh("grandstand_crowd", seats, m_crowd);
    let mut shell = MeshBuilder::new();
    shell.cuboid(v3(-20.5, 0.0, -0.2), v3(20.5, 1.0, 0.3), 1.0);
    for x in [-20.5, 20.0] {
        shell.cuboid(v3(x, 0.0, -10.5), v3(x + 0.5, 8.0, 0.3), 1.0);
    }
    shell.cuboid(v3(-20.5, 7.0, -10.5), v3(20.5, 8.0, -9.5), 1.0);
    for x in [-20.0, -10.0, 0.0, 10.0, 20.0] {
        shell.cylinder(v3(x, 0.0, 2.0), 0.15, 11.0, 6, 1);
    }
    shell.cuboid(v3(-21.0, 11.0, -11.0), v3(21.0, 11.4, 2.5), 1.0);
    let shell = k.mesh("grandstand", painted(shell, ROOF), m_palette);
    let pos = p + out * (WALL + 4.0);
    for mesh in [seats, shell] {
        k.put(mesh, pos, facing(out * -1.0), 1.0);
    }
    // The gantry: pillars outside the kerbs, a chequered beam across.
    let (g, _, gs) = track.at(PLAYER + 30.0);
    let mut pillars = MeshBuilder::new();
    let mut beam = MeshBuilder::new();
    for l in [-(ROAD + KERB + 1.0), ROAD + KERB + 1.0] {
        let c = g + gs * l;
        pillars.cuboid(c + v3(-0.4, 0.0, -0.4), c + v3(0.4, 7.5, 0.4), 1.0);
    }
    let w = ROAD + KERB + 1.4;
    let mut b = MeshBuilder::new();
    b.cuboid(v3(-w, 6.5, -0.5), v3(w, 7.7, 0.5), 1.0);
    beam.append(&b, Mat4::translation(g) * Mat4::rotation_y(facing(t)));
    let pillars = k.mesh("gantry_pillars", painted(pillars, WHITE), m_palette);
    let beam = k.mesh("gantry_beam", beam, m_checker);
    k.place(pillars, Mat4::IDENTITY);
    k.place(beam, Mat4::IDENTITY);
}

/// A race car along +x: body, cabin, wheels and a rear wing, in `paint`.
fn race_car(paint: u32) -> MeshBuilder {
    let mut car = painted(props::car_body(12), paint);
    car.append(&painted(props::car_wheels(12), TYRE), Mat4::IDENTITY);
    let mut wing = MeshBuilder::new();
    wing.cuboid(v3(-2.3, 1.35, -0.85), v3(-1.8, 1.42, 0.85), 1.0);
    for z in [-0.6, 0.6] {
        wing.cuboid(v3(-2.1, 1.0, z - 0.04), v3(-1.95, 1.35, z + 0.04), 1.0);
    }
    car.append(&painted(wing, ROOF), Mat4::IDENTITY);
    car
}

/// The player's car and five ahead, each with a blob shadow; dust behind
/// the player's.
fn cars(k: &mut Kit, track: &Track, m: usize, m_blob: usize, m_dust: usize) {
    let mut blob = MeshBuilder::new();
    blob.quad(
        v3(-2.6, 0.0, 1.3),
        v3(5.2, 0.0, 0.0),
        v3(0.0, 0.0, -2.6),
        Vec2::new(1.0, 1.0),
    );
    let blob = k.mesh("blob_shadow", blob, m_blob);
    let field = [
        (0.0, 2.0),
        (12.0, -2.5),
        (21.0, 1.5),
        (33.0, -1.0),
        (47.0, 3.0),
        (62.0, -2.0),
    ];
    for (i, &(ahead, lateral)) in field.iter().enumerate() {
        let (p, t, side) = track.at(PLAYER + ahead);
        let pos = p + side * lateral + v3(0.0, 0.1, 0.0);
        let car = k.mesh(&format!("car{i}"), race_car(PAINTS[i]), m);
        k.put(car, pos, heading(t), 1.0);
        k.put(blob, pos + v3(0.0, 0.03, 0.0), heading(t), 1.0);
    }
    let (p, t, side) = track.at(PLAYER);
    let mut dust = MeshBuilder::new();
    let mut rng = Rng::new(SEED ^ 0xd057);
    for i in 0..24 {
        let back = 2.4 + i as f32 * 0.45;
        let s = 0.6 + 0.1 * i as f32;
        let c = p + side * (2.0 + rng.range(-1.0, 1.0)) - t * back + v3(0.0, 0.1, 0.0);
        dust.cross_cards(c, s, s, rng.range(0.0, 3.0));
    }
    let dust = k.mesh("dust", dust, m_dust);
    k.place(dust, Mat4::IDENTITY);
}
