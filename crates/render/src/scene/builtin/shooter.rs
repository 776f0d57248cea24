//! `shooter`: a first-person shooter's arena (the class of Sniper 3D and
//! the mobile shooters). A walled compound: paved yard, brick walls, a
//! two-storey building, a watchtower, stacked crates, barrels, sandbag
//! walls, concrete blocks and a jeep; enemies holding rifles; a burning
//! barrel and drifting smoke; the player's rifle and hands close to the
//! camera with a muzzle flash; the touch interface (joystick, fire, scope
//! and reload buttons, health, ammunition, minimap, crosshair). The
//! player stands still and sweeps the yard with the sights.
//!
//! Sizes from the class, not from any measurement: an arena tens of
//! metres across; enemies of several hundred triangles; a first-person
//! weapon with hands of a few thousand (the most detailed model on a
//! shooter's screen); props of tens to a few hundred triangles, each a
//! draw; textures of 64-256 texels a side, block-compressed; no shadow
//! map. The weapon and the interface are placed for the middle of the
//! sweep (a static scene cannot carry them with the camera), which the
//! sweep's few degrees barely shows.

use super::atlas::{self, PALETTE, UI};
use super::kit::{self, Kit};
use super::noise::Rng;
use super::props::{self, Pose};
use super::shapes::{outline_ngon, MeshBuilder, OUTLINE_QUAD};
use super::texgen;
use crate::graph::Preset;
use crate::math::{Mat4, Vec2, Vec3};
use crate::scene::{AlphaMode, Light, Material, Scene};
use std::f32::consts::{FRAC_PI_2, PI};

const SEED: u32 = 0x5407_7e12;
/// Half size of the yard and the height of its walls.
const YARD: f32 = 24.0;
const WALL_H: f32 = 5.0;
/// The player's eye and where the middle of the sweep looks.
const EYE: Vec3 = Vec3::new(0.0, 1.7, 19.0);
const AIM: Vec3 = Vec3::new(0.0, 1.4, -12.0);

const SKIN: u32 = 0;
const CAMO: u32 = 1;
const CAMO_DARK: u32 = 2;
const BARREL_RED: u32 = 4;
const BARREL_BLUE: u32 = 5;
const SAND: u32 = 6;
const CONCRETE: u32 = 7;
const JEEP: u32 = 8;
const TYRE: u32 = 9;
const GLOVE: u32 = 10;
const LENS: u32 = 11;
const COLOURS: [[f32; 3]; 12] = [
    [0.80, 0.60, 0.45],
    [0.42, 0.45, 0.30],
    [0.28, 0.30, 0.22],
    [0.12, 0.12, 0.13],
    [0.65, 0.15, 0.10],
    [0.15, 0.30, 0.55],
    [0.72, 0.65, 0.48],
    [0.62, 0.62, 0.60],
    [0.35, 0.40, 0.28],
    [0.06, 0.06, 0.07],
    [0.20, 0.18, 0.15],
    [0.25, 0.45, 0.55],
];

fn v3(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

fn painted(mut b: MeshBuilder, swatch: u32) -> MeshBuilder {
    b.flat_uv(PALETTE.swatch(swatch));
    b
}

pub fn build() -> Scene {
    let mut k = Kit::new("shooter");
    let palette = k.image_bc(atlas::palette(64, &COLOURS));
    let pave = k.image_bc(texgen::pavement(256, SEED, 4));
    let bricks = k.image_bc(texgen::bricks(256, SEED + 1, 8, [0.60, 0.42, 0.32]));
    let wood = k.image_bc(texgen::planks(128, SEED + 2));
    let facade = k.image_bc(texgen::facade(256, SEED + 3, 2, 2, [0.72, 0.66, 0.55]));
    let metal = k.image_bc(texgen::painted(128, SEED + 4, [0.22, 0.23, 0.24]));
    let smoke = k.image_bc(texgen::puff(128, SEED + 5, [0.45, 0.45, 0.47]));
    let fire = k.image_bc(texgen::puff(64, SEED + 6, [1.0, 0.6, 0.15]));
    let ui = k.image_bc(atlas::ui_sheet(256));
    let font = k.image_bc(atlas::glyph_sheet(256));
    let m_palette = k.textured("palette", palette);

    yard(&mut k, pave, bricks, facade);
    cover(&mut k, m_palette, wood);
    enemies(&mut k, m_palette);
    let m_smoke = k.particle("smoke", smoke, [0.0; 3]);
    let m_fire = k.material(Material {
        name: "fire".into(),
        texture: Some(fire),
        alpha: AlphaMode::Blend,
        double_sided: true,
        particle: true,
        emissive: [1.2, 0.6, 0.15],
        ..Material::default()
    });
    effects(&mut k, m_smoke, m_fire);
    let m_metal = k.textured("gun_metal", metal);
    let view = kit::camera_to_world(EYE, AIM);
    weapon(&mut k, view, m_metal, m_palette, m_fire);
    let m_ui = k.interface("touch_ui", ui);
    let m_font = k.interface("hud_text", font);
    interface(&mut k, view, m_ui, m_font);

    // The eye stays put (the interface, centimetres away, would slide
    // off with it); the sights sweep a few degrees.
    let keys = [-2.6f32, -0.9, 0.9, 2.6]
        .iter()
        .map(|&dx| kit::look(EYE, AIM + v3(dx, 0.1 * dx.abs(), 0.0), 60.0, 0.05, 200.0))
        .collect();
    k.cameras(keys);
    k.scene.light = Light {
        direction: v3(0.5, -0.6, -0.62).normalize(),
        color: [1.0, 0.92, 0.8],
        ambient: 0.38,
    };
    k.mobile_frame(Preset::MobileForward);
    k.scene.sky = [0.70, 0.74, 0.78];
    k.finish()
}

/// The paved yard, its four walls with a cap, a building on the north
/// side and a watchtower in a corner.
fn yard(k: &mut Kit, pave: usize, bricks: usize, facade: usize) {
    let mut floor = MeshBuilder::new();
    floor.grid(
        v3(-YARD, 0.0, YARD),
        v3(2.0 * YARD, 0.0, 0.0),
        v3(0.0, 0.0, -2.0 * YARD),
        12,
        12,
        Vec2::new(YARD / 2.0, YARD / 2.0),
    );
    let mut walls = MeshBuilder::new();
    for a in 0..4 {
        let mut w = MeshBuilder::new();
        // The south wall's inner face, turned to each side.
        w.grid(
            v3(YARD, 0.0, YARD),
            v3(-2.0 * YARD, 0.0, 0.0),
            v3(0.0, WALL_H, 0.0),
            8,
            1,
            Vec2::new(2.0 * YARD / 4.0, WALL_H / 4.0),
        );
        w.cuboid(
            v3(-YARD, WALL_H, YARD - 0.1),
            v3(YARD, WALL_H + 0.3, YARD + 0.5),
            0.5,
        );
        walls.append(&w, Mat4::rotation_y(a as f32 * FRAC_PI_2));
    }
    let mut house = MeshBuilder::new();
    let (x0, x1, z0, z1, h) = (-14.0, 2.0, -YARD, -YARD + 9.0, 8.0);
    house.grid(
        v3(x0, 0.0, z1),
        v3(x1 - x0, 0.0, 0.0),
        v3(0.0, h, 0.0),
        4,
        2,
        Vec2::new(2.0, 1.0),
    );
    house.grid(
        v3(x1, 0.0, z1),
        v3(0.0, 0.0, z0 - z1),
        v3(0.0, h, 0.0),
        2,
        2,
        Vec2::new(1.0, 1.0),
    );
    house.grid(
        v3(x0, 0.0, z0),
        v3(0.0, 0.0, z1 - z0),
        v3(0.0, h, 0.0),
        2,
        2,
        Vec2::new(1.0, 1.0),
    );
    house.cuboid(v3(x0 - 0.3, h, z0), v3(x1 + 0.3, h + 0.5, z1 + 0.3), 0.5);
    let m_floor = k.textured("yard_paving", pave);
    let m_bricks = k.textured("bricks", bricks);
    let m_facade = k.textured("building", facade);
    for (name, b, m) in [
        ("yard", floor, m_floor),
        ("walls", walls, m_bricks),
        ("building", house, m_facade),
    ] {
        let mesh = k.mesh(name, b, m);
        k.place(mesh, Mat4::IDENTITY);
    }
}

/// Cover in the yard: stacked crates, barrels, sandbag walls, concrete
/// blocks, a jeep and a wooden watchtower.
fn cover(k: &mut Kit, m_palette: usize, wood: usize) {
    let m_wood = k.textured("crate_wood", wood);
    let mut crate_box = MeshBuilder::new();
    crate_box.cuboid(v3(-0.6, 0.0, -0.6), v3(0.6, 1.2, 0.6), 1.0 / 1.2);
    let crate_box = k.mesh("crate", crate_box, m_wood);
    let stacks = [
        (-7.0, 6.0, 3),
        (-5.8, 6.2, 2),
        (6.0, 2.0, 2),
        (9.0, -6.0, 3),
        (-10.0, -8.0, 2),
        (3.0, -9.0, 1),
        (12.0, 8.0, 2),
    ];
    let mut rng = Rng::new(SEED ^ 0xc7a7);
    for &(x, z, n) in &stacks {
        for level in 0..n {
            let yaw = rng.range(-0.3, 0.3);
            k.put(
                crate_box,
                v3(x + rng.range(-0.1, 0.1), level as f32 * 1.2, z),
                yaw,
                1.0,
            );
        }
        k.put(
            crate_box,
            v3(x + 1.25, 0.0, z + rng.range(-0.3, 0.3)),
            rng.range(-0.3, 0.3),
            1.0,
        );
    }
    let mut barrel = MeshBuilder::new();
    barrel.cylinder(v3(0.0, 0.0, 0.0), 0.4, 1.2, 10, 3);
    let barrels = [
        k.mesh("barrel_red", painted(clone(&barrel), BARREL_RED), m_palette),
        k.mesh("barrel_blue", painted(barrel, BARREL_BLUE), m_palette),
    ];
    for i in 0..12 {
        let (x, z) = (
            rng.range(-YARD + 2.0, YARD - 2.0),
            rng.range(-YARD + 11.0, 12.0),
        );
        k.put(barrels[i % 2], v3(x, 0.0, z), 0.0, 1.0);
    }
    // Sandbag walls: three courses of flattened bags in an arc.
    let mut bag = MeshBuilder::new();
    bag.sphere(v3(0.0, 0.0, 0.0), 1.0, 6, 4);
    let mut bags = MeshBuilder::new();
    for course in 0..3 {
        for i in 0..9 {
            let a = -0.8 + 0.2 * i as f32 + 0.1 * (course % 2) as f32;
            let p = v3(4.0 * a.sin(), 0.18 + 0.3 * course as f32, -4.0 * a.cos());
            bags.append(
                &bag,
                Mat4::translation(p) * Mat4::rotation_y(-a) * Mat4::scale(v3(0.45, 0.17, 0.28)),
            );
        }
    }
    let bags = k.mesh("sandbags", painted(bags, SAND), m_palette);
    for &(x, z, yaw) in &[(-2.0, 12.0, 0.0), (10.0, -2.0, 1.2), (-12.0, 2.0, -1.0)] {
        k.put(bags, v3(x, 0.0, z), yaw, 1.0);
    }
    let mut block = MeshBuilder::new();
    block.cuboid(v3(-1.5, 0.0, -0.35), v3(1.5, 0.3, 0.35), 0.5);
    block.cuboid(v3(-1.5, 0.3, -0.15), v3(1.5, 0.9, 0.15), 0.5);
    let block = k.mesh("concrete_block", painted(block, CONCRETE), m_palette);
    for &(x, z, yaw) in &[
        (3.0, 6.0, 0.1),
        (-4.0, -3.0, 0.3),
        (14.0, -12.0, 1.4),
        (-15.0, 10.0, 1.6),
    ] {
        k.put(block, v3(x, 0.0, z), yaw, 1.0);
    }
    let mut jeep = painted(props::car_body(8), JEEP);
    jeep.append(&painted(props::car_wheels(10), TYRE), Mat4::IDENTITY);
    let jeep = k.mesh("jeep", jeep, m_palette);
    k.put(jeep, v3(-16.0, 0.0, -4.0), 0.6, 1.15);
    let mut tower = MeshBuilder::new();
    for (x, z) in [(-1.5, -1.5), (1.5, -1.5), (-1.5, 1.5), (1.5, 1.5)] {
        tower.cuboid(
            v3(x - 0.15, 0.0, z - 0.15),
            v3(x + 0.15, 6.0, z + 0.15),
            0.5,
        );
    }
    tower.cuboid(v3(-2.0, 6.0, -2.0), v3(2.0, 6.3, 2.0), 0.5);
    for a in 0..4 {
        let mut rail = MeshBuilder::new();
        rail.cuboid(v3(-2.0, 6.3, 1.85), v3(2.0, 7.3, 2.0), 0.5);
        tower.append(&rail, Mat4::rotation_y(a as f32 * FRAC_PI_2));
    }
    let mut roof = MeshBuilder::new();
    roof.cone(v3(0.0, 8.8, 0.0), 3.0, 0.0, 1.4, 4, 1);
    tower.append(&roof, Mat4::rotation_y(PI / 4.0));
    let tower = k.mesh("watchtower", tower, m_wood);
    k.put(tower, v3(YARD - 4.0, 0.0, -YARD + 4.0), 0.0, 1.0);
}

fn clone(b: &MeshBuilder) -> MeshBuilder {
    let mut c = MeshBuilder::new();
    c.append(b, Mat4::IDENTITY);
    c
}

/// Enemies about the yard, rifles raised: on the ground, on the tower,
/// at the building.
fn enemies(k: &mut Kit, m: usize) {
    let aiming = Pose {
        left_arm: 1.3,
        right_arm: 1.0,
        ..Pose::STANDING
    };
    let (skin, cloth) = props::humanoid(10, aiming);
    let mut soldier = painted(skin, SKIN);
    soldier.append(&painted(cloth, CAMO), Mat4::IDENTITY);
    let mut kit = MeshBuilder::new();
    kit.sphere(v3(0.0, 1.67, 0.0), 0.15, 8, 4);
    kit.cuboid(v3(-0.2, 1.0, -0.18), v3(0.2, 1.4, -0.08), 4.0);
    // The rifle held across the chest, pointing forward.
    kit.cuboid(v3(0.05, 1.15, -0.1), v3(0.1, 1.25, 0.7), 4.0);
    soldier.append(&painted(kit, CAMO_DARK), Mat4::IDENTITY);
    let soldier = k.mesh("enemy", soldier, m);
    let spots = [
        (-6.0, 4.0),
        (5.0, -2.0),
        (-11.0, -6.0),
        (9.0, -10.0),
        (-2.0, -12.0),
        (14.0, 4.0),
    ];
    for &(x, z) in &spots {
        let to_player = EYE - v3(x, 0.0, z);
        k.put(soldier, v3(x, 0.0, z), to_player.x.atan2(to_player.z), 1.0);
    }
    k.put(soldier, v3(YARD - 4.0, 6.3, -YARD + 4.0), -0.6, 1.0);
    k.put(soldier, v3(-6.0, 0.0, -YARD + 9.5), 0.1, 1.0);
}

/// A burning barrel's flames and smoke column, and smoke drifting over
/// the yard.
fn effects(k: &mut Kit, m_smoke: usize, m_fire: usize) {
    let base = v3(-8.5, 1.2, -2.0);
    let mut can = MeshBuilder::new();
    can.cylinder(base - v3(0.0, 1.2, 0.0), 0.4, 1.2, 10, 1);
    let mut flames = MeshBuilder::new();
    let mut smoke = MeshBuilder::new();
    let mut rng = Rng::new(SEED ^ 0xf1e);
    for i in 0..8 {
        let s = 0.5 + 0.1 * i as f32;
        flames.cross_cards(
            base + v3(rng.range(-0.2, 0.2), 0.05 * i as f32, rng.range(-0.2, 0.2)),
            s * 0.7,
            s,
            rng.range(0.0, 3.0),
        );
    }
    for i in 0..24 {
        let y = 1.0 + 0.5 * i as f32;
        let s = 0.8 + 0.12 * i as f32;
        let c = base + v3(0.25 * y + rng.range(-0.3, 0.3), y, rng.range(-0.3, 0.3));
        smoke.cross_cards(c, s, s, rng.range(0.0, 3.0));
    }
    for _ in 0..10 {
        let c = v3(rng.range(-18.0, 18.0), 0.0, rng.range(-18.0, 8.0));
        let s = rng.range(3.0, 6.0);
        smoke.cross_cards(c, s, s * 0.6, rng.range(0.0, 3.0));
    }
    let flames = k.mesh("flames", flames, m_fire);
    let smoke = k.mesh("smoke", smoke, m_smoke);
    k.place(flames, Mat4::IDENTITY);
    k.place(smoke, Mat4::IDENTITY);
}

/// A cylinder of radius `r` from `z0` to `z1` (both <= 0) along -z.
fn tube(b: &mut MeshBuilder, x: f32, y: f32, z0: f32, z1: f32, r: f32, segments: u32) {
    let mut c = MeshBuilder::new();
    c.cylinder(v3(0.0, 0.0, 0.0), r, z0 - z1, segments, 2);
    b.append(
        &c,
        Mat4::translation(v3(x, y, z0)) * Mat4::rotation_x(-FRAC_PI_2),
    );
}

/// The player's rifle with a scope, the hands holding it and a muzzle
/// flash, in camera space (`view`).
fn weapon(k: &mut Kit, view: Mat4, m_metal: usize, m_palette: usize, m_fire: usize) {
    let mut gun = MeshBuilder::new();
    gun.cuboid(v3(-0.03, -0.05, -0.35), v3(0.03, 0.03, 0.0), 8.0);
    gun.cuboid(v3(-0.025, -0.09, 0.0), v3(0.025, 0.02, 0.28), 8.0);
    tube(&mut gun, 0.0, -0.01, -0.35, -0.68, 0.032, 12);
    tube(&mut gun, 0.0, -0.01, -0.68, -1.05, 0.012, 12);
    tube(&mut gun, 0.0, -0.01, -1.05, -1.11, 0.02, 12);
    // Scope on two mounts, its bells wider than the tube.
    tube(&mut gun, 0.0, 0.085, -0.08, -0.38, 0.022, 16);
    tube(&mut gun, 0.0, 0.085, -0.02, -0.08, 0.03, 16);
    tube(&mut gun, 0.0, 0.085, -0.38, -0.46, 0.036, 16);
    for z in [-0.12, -0.3] {
        gun.cuboid(v3(-0.012, 0.03, z - 0.015), v3(0.012, 0.07, z + 0.015), 8.0);
    }
    for i in 0..12 {
        let z = -0.37 - 0.025 * i as f32;
        gun.cuboid(
            v3(-0.012, 0.02, z - 0.008),
            v3(0.012, 0.034, z + 0.008),
            8.0,
        );
    }
    let mut mag = MeshBuilder::new();
    mag.cuboid(v3(-0.02, -0.2, -0.04), v3(0.02, 0.0, 0.04), 8.0);
    gun.append(
        &mag,
        Mat4::translation(v3(0.0, -0.04, -0.25)) * Mat4::rotation_x(0.25),
    );
    let mut grip = MeshBuilder::new();
    grip.cuboid(v3(-0.018, -0.12, -0.03), v3(0.018, 0.0, 0.03), 8.0);
    gun.append(
        &grip,
        Mat4::translation(v3(0.0, -0.04, -0.05)) * Mat4::rotation_x(-0.3),
    );
    let mut lens = MeshBuilder::new();
    lens.disc(v3(0.0, 0.0, 0.0), 0.028, 16, true);
    let mut glass = MeshBuilder::new();
    glass.append(
        &lens,
        Mat4::translation(v3(0.0, 0.085, -0.02)) * Mat4::rotation_x(FRAC_PI_2),
    );
    let mut hands = MeshBuilder::new();
    let mut sleeves = MeshBuilder::new();
    // Left hand under the handguard, right hand on the grip; forearms
    // reaching back and down out of the picture.
    for (hand, elbow) in [
        (v3(0.0, -0.06, -0.52), v3(-0.12, -0.3, -0.15)),
        (v3(0.0, -0.13, -0.1), v3(0.1, -0.35, 0.15)),
    ] {
        hands.sphere(hand, 0.045, 10, 6);
        for f in 0..4 {
            let mut finger = MeshBuilder::new();
            finger.cylinder(v3(0.0, 0.0, 0.0), 0.009, 0.06, 6, 1);
            hands.append(
                &finger,
                Mat4::translation(hand + v3(0.03, 0.0, -0.03 + 0.02 * f as f32))
                    * Mat4::rotation_z(-1.2),
            );
        }
        let d = elbow - hand;
        let len = d.length();
        let mut arm = MeshBuilder::new();
        arm.cone(v3(0.0, 0.0, 0.0), 0.05, 0.065, len, 12, 3);
        // Turn +y onto the forearm's direction.
        let pitch = (d.x * d.x + d.z * d.z).sqrt().atan2(d.y);
        let yaw = d.x.atan2(d.z);
        sleeves.append(
            &arm,
            Mat4::translation(hand) * Mat4::rotation_y(yaw) * Mat4::rotation_x(pitch),
        );
    }
    let mut skin = painted(hands, GLOVE);
    skin.append(&painted(sleeves, CAMO), Mat4::IDENTITY);
    skin.append(&painted(glass, LENS), Mat4::IDENTITY);
    let mut flash = MeshBuilder::new();
    for i in 0..3 {
        let mut card = MeshBuilder::new();
        card.cross_cards(v3(0.0, -0.06, 0.0), 0.12, 0.12, i as f32 * 0.5);
        flash.append(
            &card,
            Mat4::translation(v3(0.0, -0.01, -1.12 - 0.04 * i as f32))
                * Mat4::rotation_x(FRAC_PI_2),
        );
    }
    // The rifle sits right of and below the eye, turned a little in.
    let hold = view * Mat4::translation(v3(0.2, -0.2, -0.16)) * Mat4::rotation_y(0.03);
    let gun = k.mesh("rifle", gun, m_metal);
    let skin = k.mesh("hands", skin, m_palette);
    let flash = k.mesh("muzzle_flash", flash, m_fire);
    for mesh in [gun, skin, flash] {
        k.place(mesh, hold);
    }
}

/// Distance of the interface plane from the eye (just past the near
/// plane, so nothing in the world stands in front of it).
const HUD: f32 = 0.06;

/// The touch interface on a plane `HUD` in front of the eye, laid out in
/// screen units (`y` in `[-1, 1]` up the screen, `x` in `[-aspect,
/// aspect]`).
fn interface(k: &mut Kit, view: Mat4, m_ui: usize, m_font: usize) {
    let unit = HUD * 30f32.to_radians().tan();
    let at = |x: f32, y: f32| v3(x * unit, 0.0, -y * unit);
    let sq = |s: f32| Vec2::new(s * unit, s * unit);
    let round = outline_ngon(16, 0.45, 0.0);
    let mut base = MeshBuilder::new();
    let mut icons = MeshBuilder::new();
    let mut text = MeshBuilder::new();
    base.sprite(at(-1.85, -0.5), sq(0.75), &round, UI.cell(atlas::UI_RING));
    icons.sprite(at(-1.8, -0.55), sq(0.35), &round, UI.cell(atlas::UI_KNOB));
    base.sprite(
        at(1.7, -0.5),
        sq(0.6),
        &round,
        UI.cell(atlas::UI_BUTTON_RED),
    );
    icons.sprite(
        at(1.7, -0.5),
        sq(0.35),
        &OUTLINE_QUAD,
        UI.cell(atlas::UI_BULLET),
    );
    base.sprite(
        at(1.15, -0.72),
        sq(0.38),
        &round,
        UI.cell(atlas::UI_BUTTON_BLUE),
    );
    icons.sprite(
        at(1.15, -0.72),
        sq(0.3),
        &round,
        UI.cell(atlas::UI_CROSSHAIR),
    );
    base.sprite(
        at(1.75, 0.1),
        sq(0.34),
        &round,
        UI.cell(atlas::UI_BUTTON_BLUE),
    );
    icons.sprite(at(1.75, 0.1), sq(0.22), &round, UI.cell(atlas::UI_ARROW));
    icons.sprite(
        at(0.0, 0.0),
        sq(0.25),
        &OUTLINE_QUAD,
        UI.cell(atlas::UI_CROSSHAIR),
    );
    base.sprite(
        at(-1.6, 0.82),
        Vec2::new(1.1 * unit, 0.25 * unit),
        &OUTLINE_QUAD,
        UI.cell(atlas::UI_BAR),
    );
    icons.sprite(
        at(-1.7, 0.82),
        Vec2::new(0.88 * unit, 0.25 * unit),
        &OUTLINE_QUAD,
        UI.cell(atlas::UI_FILL_GREEN),
    );
    icons.sprite(
        at(-2.13, 0.82),
        sq(0.18),
        &OUTLINE_QUAD,
        UI.cell(atlas::UI_HEART),
    );
    // The minimap with enemies as red dots.
    atlas::nine_slice(
        &mut base,
        at(1.7, 0.66),
        sq(0.55),
        0.06 * unit,
        UI.cell(atlas::UI_PANEL),
        0.2,
    );
    let mut rng = Rng::new(SEED ^ 0x3a9);
    for _ in 0..8 {
        let p = at(1.7 + rng.range(-0.2, 0.2), 0.66 + rng.range(-0.2, 0.2));
        icons.sprite(p, sq(0.05), &OUTLINE_QUAD, UI.cell(atlas::UI_FILL_RED));
    }
    atlas::text(&mut text, "30/120", at(0.55, -0.85), 0.1 * unit);
    atlas::text(&mut text, "KILLS 3", at(-0.3, 0.84), 0.08 * unit);
    atlas::text(&mut text, "+100", at(0.15, 0.18), 0.07 * unit);
    // The plane faces the eye: the sprites' up (+y) to the camera's +z,
    // their screen-up (-z) to the camera's +y.
    let place = |d: f32| view * Mat4::translation(v3(0.0, 0.0, -d)) * Mat4::rotation_x(FRAC_PI_2);
    for (name, b, m, d) in [
        ("hud_base", base, m_ui, HUD),
        ("hud_icons", icons, m_ui, HUD * 0.99),
        ("hud_text", text, m_font, HUD * 0.98),
    ] {
        let mesh = k.mesh(name, b, m);
        k.place(mesh, place(d));
    }
}
