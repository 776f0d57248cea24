//! `strategy`: a top-down strategy map in the manner of Civilization V.
//! A 48 x 40 hex map (5 m hexes) generated from seeded noise: ocean,
//! coast, grassland, plains, desert and snow, hills and mountains, a
//! river along hex edges (carved below the water, which is the mirror),
//! forests as many instanced clumps of trees, seven cities (houses with
//! tiled roofs, walls and towers, a palace) with farmland around them and
//! glowing culture borders (blended), units with banners and ships, and
//! clouds of the fog of war over the unexplored east (particles).
//! The camera looks down at the map at about 55 degrees and pans across
//! it.
//!
//! Sizes are those of the class, a DirectX 10/11 strategy game of
//! 2010-2011: a few hundred thousand triangles per view, most in the
//! tiled terrain and the forests, hundreds of draws (terrain chunks by
//! surface, a draw per forest hex, city and unit), and block-compressed
//! textures of 512-2048 texels a side (BC1 opaque, BC3 with alpha), as
//! such games ship them.

use super::hexgrid::{self, Hex, HexGrid};
use super::kit::Kit;
use super::noise::{fbm, value, Rng};
use super::props;
use super::shapes::MeshBuilder;
use super::texgen;
use crate::graph::Preset;
use crate::math::{Mat4, Vec2, Vec3};
use crate::scene::{AlphaMode, Light, Material, Mirror, Scene};
use std::f32::consts::{FRAC_PI_2, TAU};

const SEED: u32 = 0x5747_c1f5;
const GRID: HexGrid = HexGrid {
    r: 5.0,
    cols: 48,
    rows: 40,
};
/// Each hex tile's six triangles are cut `K` x `K`; chunks of `BLOCK` x
/// `BLOCK` hexes are one draw per surface.
const K: u32 = 3;
const BLOCK: u32 = 8;
/// Cities on the map, at most.
const CITIES: usize = 7;
/// Camera keys: (x, z) of the point looked at; the eye is above and
/// south of it.
const PAN: [(f32, f32); 4] = [(-5.0, 82.0), (45.0, 80.0), (95.0, 75.0), (140.0, 60.0)];

fn v3(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

/// A surface, and the index of its material.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Land {
    Ocean = 0,
    Coast = 1,
    Grass = 2,
    Plains = 3,
    Desert = 4,
    Snow = 5,
    Farm = 6,
}

#[derive(Clone, Copy)]
struct Cell {
    land: Land,
    hills: bool,
    mountain: bool,
    forest: bool,
}

impl Cell {
    fn dry(&self) -> bool {
        !matches!(self.land, Land::Ocean | Land::Coast)
    }
}

/// The generated map: cells, cities, and the river's course (hex
/// corners, from its source to the sea).
struct Map {
    cells: Vec<Cell>,
    cities: Vec<Hex>,
    river: Vec<Vec3>,
}

impl Map {
    fn cell(&self, (c, r): Hex) -> &Cell {
        &self.cells[(r * GRID.cols + c) as usize]
    }

    /// The ground at `d` metres from the centre of `h`, before blending.
    fn level(&self, h: Hex, d: f32) -> f32 {
        let c = self.cell(h);
        match c.land {
            Land::Ocean => -3.5,
            Land::Coast => -0.9,
            _ if c.hills || c.mountain => 0.6 + 2.4 * (1.0 - (d / GRID.r).powi(2)).max(0.0),
            _ => 0.6,
        }
    }

    /// Ground height: each hex's level blended with its neighbours' near
    /// the edges, a little noise, and the river's bed.
    fn height(&self, x: f32, z: f32) -> f32 {
        let h0 = GRID.at(x, z);
        let (mut sum, mut wsum) = (0.0, 0.0);
        for h in std::iter::once(h0).chain(GRID.neighbours(h0)) {
            let c = GRID.center(h);
            let d = ((c.x - x).powi(2) + (c.z - z).powi(2)).sqrt();
            let w = (1.1 * GRID.r - d).max(0.0).powi(2);
            sum += w * self.level(h, d);
            wsum += w;
        }
        let base = sum / wsum.max(1e-6) + 0.4 * (value(x / 9.0, z / 9.0, 64, SEED) - 0.5);
        let d = self.river_distance(x, z);
        if d < 2.2 {
            base.min(-0.7 + 0.25 * d * d)
        } else {
            base
        }
    }

    fn river_distance(&self, x: f32, z: f32) -> f32 {
        let p = v3(x, 0.0, z);
        self.river
            .windows(2)
            .map(|w| {
                let (a, b) = (w[0], w[1]);
                let ab = b - a;
                let t = ((p - a).dot(ab) / ab.dot(ab)).clamp(0.0, 1.0);
                (a + ab * t - p).length()
            })
            .fold(f32::INFINITY, f32::min)
    }
}

/// Surfaces, relief and forests from noise; then cities, farms and the
/// river.
fn generate() -> Map {
    let mut cells = Vec::with_capacity((GRID.cols * GRID.rows) as usize);
    for (c, r) in GRID.cells() {
        let (u, v) = (c as f32 / GRID.cols as f32, r as f32 / GRID.rows as f32);
        let edge = u.min(1.0 - u).min(v).min(1.0 - v);
        let land = fbm(u, v, 4, 5, SEED) * 0.7 + texgen::step(0.0, 0.2, edge) * 0.3;
        let wet = fbm(u, v, 4, 3, SEED ^ 2);
        let relief = fbm(u, v, 8, 3, SEED ^ 3);
        let land = if land < 0.47 {
            Land::Ocean
        } else if v < 0.12 {
            Land::Snow
        } else if wet < 0.42 {
            Land::Desert
        } else if wet < 0.52 {
            Land::Plains
        } else {
            Land::Grass
        };
        let dry = land != Land::Ocean;
        let forest = dry && land != Land::Desert && fbm(u, v, 8, 3, SEED ^ 4) > 0.54;
        cells.push(Cell {
            land,
            hills: dry && relief > 0.6,
            mountain: dry && relief > 0.71,
            forest: forest && relief <= 0.6,
        });
    }
    let mut map = Map {
        cells,
        cities: Vec::new(),
        river: Vec::new(),
    };
    // Shallow water along the shores.
    for h in GRID.cells().collect::<Vec<_>>() {
        let shore = GRID.neighbours(h).iter().any(|&n| map.cell(n).dry());
        if map.cell(h).land == Land::Ocean && shore {
            map.cells[(h.1 * GRID.cols + h.0) as usize].land = Land::Coast;
        }
    }
    map.river = river(&map);
    found_cities(&mut map);
    map
}

/// The river: from the hills hex farthest from the sea, corner to corner
/// along hex edges towards the nearest coast, until it reaches water.
fn river(map: &Map) -> Vec<Vec3> {
    let wet: Vec<Vec3> = GRID
        .cells()
        .filter(|&h| !map.cell(h).dry())
        .map(|h| GRID.center(h))
        .collect();
    let to_sea = |p: Vec3| {
        wet.iter()
            .map(|w| (*w - p).length())
            .fold(f32::INFINITY, f32::min)
    };
    let Some(source) = GRID
        .cells()
        .filter(|&h| map.cell(h).hills && !map.cell(h).mountain)
        .max_by(|&a, &b| to_sea(GRID.center(a)).total_cmp(&to_sea(GRID.center(b))))
    else {
        return Vec::new();
    };
    let mut p = GRID.corner(GRID.center(source), 0);
    let mut course = vec![p];
    for _ in 0..60 {
        // The three corners one edge away: corners of the hexes around p.
        let mut next: Option<(f32, Vec3)> = None;
        for a in 0..3 {
            let probe = (60.0 + 120.0 * a as f32).to_radians();
            let h = GRID.at(p.x + probe.cos() * 1.0, p.z + probe.sin() * 1.0);
            for i in 0..6 {
                let q = GRID.corner(GRID.center(h), i);
                let d = (q - p).length();
                let fresh = course.iter().all(|c| (*c - q).length() > 0.1);
                if (d - GRID.r).abs() < 0.05 && fresh {
                    let score = to_sea(q);
                    let better = match next {
                        Some((s, _)) => score < s,
                        None => true,
                    };
                    if better {
                        next = Some((score, q));
                    }
                }
            }
        }
        let Some((_, q)) = next else { break };
        course.push(q);
        p = q;
        if !map.cell(GRID.at(p.x, p.z)).dry() {
            break;
        }
    }
    course
}

/// Cities on flat dry land, at least six hexes apart, preferring the
/// coast and the river; the fields around them become farmland.
fn found_cities(map: &mut Map) {
    let mut rng = Rng::new(SEED ^ 0xc17);
    let mut sites: Vec<(f32, Hex)> = GRID
        .cells()
        .filter(|&h| {
            let c = map.cell(h);
            c.dry() && !c.hills && !c.mountain && c.land != Land::Snow
        })
        .map(|h| {
            let p = GRID.center(h);
            let shore = GRID.neighbours(h).iter().any(|&n| !map.cell(n).dry());
            let river = map.river_distance(p.x, p.z) < GRID.r * 2.0;
            let score = rng.unit() + f32::from(u8::from(shore)) + f32::from(u8::from(river));
            (score, h)
        })
        .collect();
    sites.sort_by(|a, b| b.0.total_cmp(&a.0));
    for &(_, h) in &sites {
        let p = GRID.center(h);
        let far = map
            .cities
            .iter()
            .all(|&c| (GRID.center(c) - p).length() > 6.0 * GRID.pitch());
        if far && map.cities.len() < CITIES {
            map.cities.push(h);
        }
    }
    for i in 0..map.cities.len() {
        for n in GRID.neighbours(map.cities[i]) {
            let cell = &mut map.cells[(n.1 * GRID.cols + n.0) as usize];
            if matches!(cell.land, Land::Grass | Land::Plains) && !cell.hills {
                cell.land = Land::Farm;
                cell.forest = false;
            }
        }
        let c = map.cities[i];
        map.cells[(c.1 * GRID.cols + c.0) as usize].forest = false;
    }
}

struct Mats {
    land: [usize; 7],
    rock: usize,
    water: usize,
    bark: usize,
    needles: usize,
    leaves: usize,
    house: usize,
    roof: usize,
    stone: usize,
    dome: usize,
    paint: [usize; CITIES],
    banner: usize,
    border: [usize; CITIES],
    fog: usize,
}

pub fn build() -> Scene {
    let mut k = Kit::new("strategy");
    let m = materials(&mut k);
    let map = generate();
    terrain(&mut k, &m, &map);
    forests(&mut k, &m, &map);
    cities(&mut k, &m, &map);
    units(&mut k, &m, &map);
    borders_and_fog(&mut k, &m, &map);

    let keys: Vec<(Vec3, Vec3)> = PAN
        .iter()
        .map(|&(x, z)| (v3(x, 62.0, z + 44.0), v3(x, 0.0, z)))
        .collect();
    k.camera_path(&keys, 400.0);
    k.scene.light = Light {
        direction: v3(-0.4, -0.8, -0.35).normalize(),
        color: [1.0, 0.96, 0.88],
        ambient: 0.35,
    };
    k.scene.mirror = Some(Mirror { height: 0.0 });
    k.scene.sky = [0.55, 0.68, 0.85];
    // A DX11 strategy title: the deferred preset of its class.
    k.preset(Preset::Dx11Deferred);
    k.finish()
}

/// Colours of the civilizations, one per city.
const CIVS: [[f32; 3]; CITIES] = [
    [0.85, 0.15, 0.10],
    [0.15, 0.35, 0.85],
    [0.95, 0.80, 0.15],
    [0.20, 0.70, 0.30],
    [0.65, 0.25, 0.75],
    [0.95, 0.55, 0.10],
    [0.90, 0.90, 0.90],
];

fn materials(k: &mut Kit) -> Mats {
    let ground = [
        k.image_bc(texgen::ground(
            512,
            SEED,
            [0.45, 0.42, 0.30],
            [0.60, 0.56, 0.42],
        )),
        k.image_bc(texgen::ground(
            1024,
            SEED + 1,
            [0.70, 0.64, 0.48],
            [0.85, 0.80, 0.62],
        )),
        k.image_bc(texgen::grass(2048, SEED + 2)),
        k.image_bc(texgen::ground(
            1024,
            SEED + 3,
            [0.52, 0.50, 0.24],
            [0.70, 0.64, 0.34],
        )),
        k.image_bc(texgen::ground(
            1024,
            SEED + 4,
            [0.78, 0.62, 0.38],
            [0.92, 0.80, 0.55],
        )),
        k.image_bc(texgen::snow(1024, SEED + 5)),
        k.image_bc(texgen::fields(1024, SEED + 6, 4)),
    ];
    let names = [
        "seabed",
        "shore",
        "grassland",
        "plains",
        "desert",
        "snow",
        "farmland",
    ];
    let land = std::array::from_fn(|i| k.textured(names[i], ground[i]));
    let rock = k.image_bc(texgen::rock(1024, SEED + 7));
    let water = k.image_bc(texgen::water(1024, SEED + 8));
    let bark = k.image_bc(texgen::bark(512, SEED + 9));
    let needles = k.image_bc(texgen::leaves(512, SEED + 10, [0.10, 0.24, 0.12]));
    let leaves = k.image_bc(texgen::leaves(1024, SEED + 11, [0.22, 0.42, 0.12]));
    let plaster = k.image_bc(texgen::plaster(512, SEED + 12, [0.85, 0.78, 0.62]));
    let roof = k.image_bc(texgen::roof_tiles(512, SEED + 13, [0.70, 0.32, 0.18]));
    let stone = k.image_bc(texgen::ashlar(512, SEED + 14, [0.70, 0.66, 0.58]));
    let paint = k.image_bc(texgen::painted(512, SEED + 15, [0.9, 0.9, 0.9]));
    let banner = k.image_bc(texgen::banner(
        512,
        SEED + 16,
        [0.8, 0.8, 0.8],
        [0.2, 0.2, 0.2],
    ));
    let fog = k.image_bc(texgen::puff(512, SEED + 17, [0.92, 0.93, 0.95]));
    Mats {
        land,
        rock: k.textured("mountain_rock", rock),
        water: k.reflective("water", water, [0.35, 0.5, 0.65]),
        bark: k.textured("bark", bark),
        needles: k.textured("needles", needles),
        leaves: k.alpha("leaves", leaves, AlphaMode::Mask),
        house: k.textured("houses", plaster),
        roof: k.textured("roofs", roof),
        stone: k.textured("city_walls", stone),
        dome: k.tinted("dome", paint, [0.35, 0.65, 0.55]),
        paint: std::array::from_fn(|i| k.tinted(&format!("civ{i}"), paint, CIVS[i])),
        banner: k.alpha("banners", banner, AlphaMode::Mask),
        border: std::array::from_fn(|i| {
            let c = CIVS[i];
            k.material(Material {
                name: format!("border{i}"),
                base_color: [c[0], c[1], c[2], 0.7],
                alpha: AlphaMode::Blend,
                double_sided: true,
                emissive: [c[0] * 0.8, c[1] * 0.8, c[2] * 0.8],
                ..Material::default()
            })
        }),
        fog: k.particle("fog_of_war", fog, [0.1, 0.1, 0.1]),
    }
}

/// The hex tiles, merged per block of hexes and surface (one draw
/// each), mountain peaks on their hexes, and the sea (the mirror).
fn terrain(k: &mut Kit, m: &Mats, map: &Map) {
    let h = |x: f32, z: f32| map.height(x, z);
    for by in (0..GRID.rows).step_by(BLOCK as usize) {
        for bx in (0..GRID.cols).step_by(BLOCK as usize) {
            let mut parts: [MeshBuilder; 7] = Default::default();
            for r in by..(by + BLOCK).min(GRID.rows) {
                for c in bx..(bx + BLOCK).min(GRID.cols) {
                    let land = map.cell((c, r)).land as usize;
                    hexgrid::tile(&mut parts[land], &GRID, GRID.center((c, r)), K, 0.08, &h);
                }
            }
            for (i, part) in parts.into_iter().enumerate() {
                if !part.indices.is_empty() {
                    let mesh = k.mesh(&format!("tiles_{bx}_{by}_{i}"), part, m.land[i]);
                    k.place(mesh, Mat4::IDENTITY);
                }
            }
        }
    }
    let peaks: Vec<usize> = (0..3)
        .map(|v| {
            let mut b = MeshBuilder::new();
            b.cone(v3(0.0, 0.0, 0.0), 3.8, 0.0, 6.0, 24, 6);
            // Crags, fading out at the tip and the foot, where vertices
            // that share a place have different normals.
            b.displace(|p| {
                let n = fbm(
                    p.x * 0.08 + 0.5,
                    p.z * 0.08 + p.y * 0.05 + 0.5,
                    4,
                    3,
                    SEED + v,
                );
                let fade = texgen::step(0.0, 0.8, p.y) * texgen::step(5.8, 4.2, p.y);
                (n - 0.5) * 1.6 * fade
            });
            k.mesh(&format!("peak{v}"), b, m.rock)
        })
        .collect();
    let mut rng = Rng::new(SEED ^ 0x9ea);
    for hex in GRID.cells().filter(|&x| map.cell(x).mountain) {
        let c = GRID.center(hex);
        let peak = peaks[rng.below(3) as usize];
        k.put(
            peak,
            v3(c.x, map.height(c.x, c.z) - 0.3, c.z),
            rng.range(0.0, TAU),
            rng.range(0.8, 1.2),
        );
    }
    // The sea runs on past the map's edges to the horizon.
    let (w, d) = (
        GRID.cols as f32 * GRID.pitch() + 400.0,
        GRID.rows as f32 * GRID.row_step() + 400.0,
    );
    let mut sea = MeshBuilder::new();
    sea.grid(
        v3(-w * 0.5, 0.0, d * 0.5),
        v3(w, 0.0, 0.0),
        v3(0.0, 0.0, -d),
        64,
        48,
        Vec2::new(w / 32.0, d / 32.0),
    );
    let sea = k.mesh("sea", sea, m.water);
    k.place(sea, Mat4::IDENTITY);
}

/// Forest hexes: one of four clumps each (conifers in the cold north and
/// on plains, broadleaves elsewhere), turned at random.
fn forests(k: &mut Kit, m: &Mats, map: &Map) {
    let mut rng = Rng::new(SEED ^ 0xf0e);
    let clumps: Vec<(usize, usize)> = (0..4)
        .map(|i| {
            let conifer = i < 2;
            let (t, c) = props::forest_clump(&mut rng, 7, 0.72 * GRID.r, conifer);
            let crown = if conifer { m.needles } else { m.leaves };
            (
                k.mesh(&format!("forest_trunks{i}"), t, m.bark),
                k.mesh(&format!("forest_crowns{i}"), c, crown),
            )
        })
        .collect();
    for hex in GRID.cells().filter(|&x| map.cell(x).forest) {
        let cell = map.cell(hex);
        let conifer = matches!(cell.land, Land::Snow | Land::Plains);
        let (t, c) = clumps[rng.below(2) as usize + if conifer { 0 } else { 2 }];
        let p = GRID.center(hex);
        let p = v3(p.x, map.height(p.x, p.z) - 0.1, p.z);
        let yaw = rng.range(0.0, TAU);
        k.put(t, p, yaw, 1.0);
        k.put(c, p, yaw, 1.0);
    }
}

/// The cities: houses with tiled roofs crowding the city hex and its
/// dry neighbours, a wall with towers round the city hex, a domed palace.
fn cities(k: &mut Kit, m: &Mats, map: &Map) {
    let mut rng = Rng::new(SEED ^ 0xc1f7);
    for (i, &city) in map.cities.iter().enumerate() {
        let c = GRID.center(city);
        let mut houses = MeshBuilder::new();
        let mut n = 0;
        while n < 40 {
            let (a, d) = (rng.range(0.0, TAU), rng.range(1.5, 1.7 * GRID.r));
            let (x, z) = (c.x + a.cos() * d, c.z + a.sin() * d);
            if !map.cell(GRID.at(x, z)).dry() || map.river_distance(x, z) < 2.5 {
                continue;
            }
            let (w, dd) = (rng.range(1.2, 2.4), rng.range(1.0, 1.6));
            let mut one =
                props::gabled_house(v3(0.0, 0.0, 0.0), v3(w, rng.range(0.9, 1.6), dd), 0.7, 0.15);
            one.positions.iter_mut().for_each(|p| p.y -= 0.3);
            let at = Mat4::translation(v3(x, map.height(x, z), z))
                * Mat4::rotation_y(rng.range(0.0, TAU));
            houses.append(&one, at);
            n += 1;
        }
        // Roof slopes face up; the rest is wall.
        let parts = houses.split(2, |p| {
            usize::from((p[1] - p[0]).cross(p[2] - p[0]).normalize().y > 0.3)
        });
        for (part, (mat, name)) in parts
            .into_iter()
            .zip([(m.house, "houses"), (m.roof, "roofs")])
        {
            let mesh = k.mesh(&format!("city{i}_{name}"), part, mat);
            k.place(mesh, Mat4::IDENTITY);
        }
        let mut walls = MeshBuilder::new();
        let y = map.height(c.x, c.z);
        for e in 0..6 {
            let (a, b) = (
                GRID.corner(c, e) * 0.92 + c * 0.08,
                GRID.corner(c, (e + 1) % 6) * 0.92 + c * 0.08,
            );
            let (a, b) = (v3(a.x, y - 0.5, a.z), v3(b.x, y - 0.5, b.z));
            let len = (b - a).length();
            let mut seg = MeshBuilder::new();
            seg.cuboid(v3(0.0, 0.0, -0.2), v3(len, 1.6, 0.2), 1.0);
            let yaw = (-(b.z - a.z)).atan2(b.x - a.x);
            walls.append(&seg, Mat4::translation(a) * Mat4::rotation_y(yaw));
            walls.cylinder(a, 0.55, 2.4, 12, 2);
            walls.cone(a + v3(0.0, 2.4, 0.0), 0.7, 0.0, 0.9, 12, 1);
        }
        walls.cuboid(
            v3(c.x - 1.2, y - 0.3, c.z - 1.2),
            v3(c.x + 1.2, y + 1.8, c.z + 1.2),
            0.5,
        );
        let mesh = k.mesh(&format!("city{i}_walls"), walls, m.stone);
        k.place(mesh, Mat4::IDENTITY);
        let mut dome = MeshBuilder::new();
        let profile: Vec<(f32, f32)> = (0..=8)
            .map(|j| {
                let a = j as f32 / 8.0 * FRAC_PI_2;
                (1.1 * a.cos() + 0.001, 1.1 * a.sin())
            })
            .collect();
        dome.lathe(v3(c.x, y + 1.8, c.z), &profile, 24);
        let mesh = k.mesh(&format!("city{i}_dome"), dome, m.dome);
        k.place(mesh, Mat4::IDENTITY);
    }
}

/// Units: a squad of four soldiers with a banner on a dry hex near each
/// city and a few in the field, in their civilization's colour; ships on
/// the coast.
fn units(k: &mut Kit, m: &Mats, map: &Map) {
    let figure = props::soldier();
    let (hull, sails) = props::ship();
    // Units stand taller than the houses, as on a strategy map: figures
    // 2 m tall, a banner pole 1.8 m off the squad's centre.
    let mut flag = MeshBuilder::new();
    flag.tube(v3(1.8, 0.0, 0.0), v3(1.8, 4.4, 0.0), 0.06, 6, 1);
    let mut cloth = MeshBuilder::new();
    cloth.quad(
        v3(1.8, 4.3, 0.0),
        v3(1.5, 0.0, 0.0),
        v3(0.0, -1.5, 0.0),
        Vec2::new(1.0, 1.0),
    );
    let cloth = k.mesh("unit_banners", cloth, m.banner);
    let sails = k.mesh("ship_sails", sails, m.banner);
    let mut rng = Rng::new(SEED ^ 0x0417);
    for (i, &city) in map.cities.iter().enumerate() {
        let squad = {
            let mut b = MeshBuilder::new();
            for (dx, dz) in [(-0.9, -0.9), (0.9, -0.9), (-0.9, 0.9), (0.9, 0.9)] {
                b.append(
                    &figure,
                    Mat4::translation(v3(dx, 0.0, dz)) * Mat4::scale(v3(1.1, 1.1, 1.1)),
                );
            }
            b.append(&flag, Mat4::IDENTITY);
            k.mesh(&format!("squad{i}"), b, m.paint[i])
        };
        let ship = k.mesh(&format!("ship{i}"), hull.clone(), m.paint[i]);
        let near = GRID.neighbours(city);
        for (j, &h) in near.iter().enumerate() {
            let cell = map.cell(h);
            let p = GRID.center(h);
            if cell.dry() && !cell.mountain && j % 2 == 0 {
                let at = v3(p.x, map.height(p.x, p.z), p.z);
                let yaw = rng.range(0.0, TAU);
                k.put(squad, at, yaw, 1.0);
                k.put(cloth, at, yaw, 1.0);
            } else if !cell.dry() && j % 2 == 1 {
                let yaw = rng.range(0.0, TAU);
                k.put(ship, p, yaw, 0.5);
                k.put(sails, p, yaw, 0.5);
            }
        }
    }
}

/// Each city's culture border, a glowing ribbon inside the edges of its
/// territory (the hexes within two of it), and the fog of war, clouds
/// over the unexplored east.
fn borders_and_fog(k: &mut Kit, m: &Mats, map: &Map) {
    for (i, &city) in map.cities.iter().enumerate() {
        let mut land = vec![city];
        for _ in 0..2 {
            let ring: Vec<Hex> = land.iter().flat_map(|&h| GRID.neighbours(h)).collect();
            for h in ring {
                if !land.contains(&h) && map.cell(h).land != Land::Ocean {
                    land.push(h);
                }
            }
        }
        let lift = |x: f32, z: f32| map.height(x, z).max(0.0) + 0.25;
        let ribbon = hexgrid::outline(&GRID, &land, 0.12, lift);
        let mesh = k.mesh(&format!("border{i}"), ribbon, m.border[i]);
        k.place(mesh, Mat4::IDENTITY);
    }
    let mut rng = Rng::new(SEED ^ 0xf06);
    let fog = props::sprites(&mut rng, 70, |rng, _| {
        let h = (GRID.cols - 1 - rng.below(8), 12 + rng.below(22));
        let p = GRID.center(h);
        (
            v3(p.x + rng.range(-4.0, 4.0), rng.range(5.0, 9.0), p.z),
            rng.range(10.0, 18.0),
        )
    });
    let mesh = k.mesh("fog_of_war", fog, m.fog);
    k.place(mesh, Mat4::IDENTITY);
}
