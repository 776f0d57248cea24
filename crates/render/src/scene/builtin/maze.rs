//! `maze`: a 3D maze game (the class of Maze 3D and the rolling-ball
//! labyrinths) in three-quarter view. A seeded 12 x 12 maze of stone walls
//! on a tiled floor with posts at the joints, gems and coins along the
//! corridors, torches with flames on some posts, the player's ball with a
//! blob shadow, a glowing goal pad in the far corner, and a meadow with
//! low-poly pines around the maze. The camera follows the ball from above
//! and behind as it rolls along the way to the goal.
//!
//! Sizes from the class, not from any measurement: a maze of 12 x 12
//! cells of 4 m (such games' larger levels), every wall and post a box
//! (low-poly), the walls batched into four static meshes; pickups of tens
//! of triangles; a ball of a few hundred; textures of 64-256 texels a
//! side, block-compressed; no shadow map (a blob under the ball).

use super::atlas::{self, PALETTE};
use super::kit::{self, Kit};
use super::noise::Rng;
use super::props;
use super::shapes::MeshBuilder;
use super::texgen;
use crate::graph::Preset;
use crate::math::{Mat4, Vec2, Vec3};
use crate::scene::{AlphaMode, Light, Material, Scene};
use std::collections::VecDeque;

const SEED: u32 = 0x3a2e_5107;
/// Cells per side, cell size, wall thickness and height.
const N: u32 = 12;
const CELL: f32 = 4.0;
const WALL_T: f32 = 0.5;
const WALL_H: f32 = 2.0;

const CAP: u32 = 0;
const LEAF: u32 = 1;
const TRUNK: u32 = 2;
const GOLD: u32 = 3;
const GEMS: [u32; 3] = [4, 5, 6];
const IRON: u32 = 7;
const COLOURS: [[f32; 3]; 8] = [
    [0.72, 0.68, 0.60],
    [0.18, 0.42, 0.18],
    [0.40, 0.26, 0.14],
    [1.00, 0.80, 0.20],
    [0.90, 0.15, 0.25],
    [0.20, 0.55, 0.95],
    [0.25, 0.85, 0.40],
    [0.18, 0.18, 0.20],
];

fn v3(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

fn painted(mut b: MeshBuilder, swatch: u32) -> MeshBuilder {
    b.flat_uv(PALETTE.swatch(swatch));
    b
}

/// Walls of the maze: `east[c]` between cell `c` and its east
/// neighbour, `south[c]` between it and its south neighbour (cell `c` =
/// `j * N + i`); the outer walls are always there.
struct Maze {
    east: Vec<bool>,
    south: Vec<bool>,
}

impl Maze {
    /// A perfect maze by a depth-first walk from cell 0 (the recursive
    /// backtracker), neighbours in seeded order.
    fn carve(seed: u32) -> Maze {
        let n = (N * N) as usize;
        let mut m = Maze {
            east: vec![true; n],
            south: vec![true; n],
        };
        let mut seen = vec![false; n];
        let mut stack = vec![0u32];
        seen[0] = true;
        let mut rng = Rng::new(seed);
        while let Some(&c) = stack.last() {
            let (i, j) = (c % N, c / N);
            let mut next: Vec<u32> = Vec::with_capacity(4);
            if i > 0 && !seen[(c - 1) as usize] {
                next.push(c - 1);
            }
            if i + 1 < N && !seen[(c + 1) as usize] {
                next.push(c + 1);
            }
            if j > 0 && !seen[(c - N) as usize] {
                next.push(c - N);
            }
            if j + 1 < N && !seen[(c + N) as usize] {
                next.push(c + N);
            }
            if next.is_empty() {
                stack.pop();
                continue;
            }
            let d = next[rng.below(next.len() as u32) as usize];
            let (lo, hi) = (c.min(d), c.max(d));
            if hi == lo + 1 {
                m.east[lo as usize] = false;
            } else {
                m.south[lo as usize] = false;
            }
            seen[d as usize] = true;
            stack.push(d);
        }
        m
    }

    fn open(&self, a: u32, b: u32) -> bool {
        let (lo, hi) = (a.min(b), a.max(b));
        if hi == lo + 1 && lo % N + 1 < N {
            !self.east[lo as usize]
        } else if hi == lo + N {
            !self.south[lo as usize]
        } else {
            false
        }
    }

    /// The cells from `from` to `to` (breadth-first; the maze is perfect,
    /// so this is the one way).
    fn path(&self, from: u32, to: u32) -> Vec<u32> {
        let n = (N * N) as usize;
        let mut prev = vec![u32::MAX; n];
        let mut queue = VecDeque::from([from]);
        prev[from as usize] = from;
        while let Some(c) = queue.pop_front() {
            if c == to {
                break;
            }
            let around = [c.wrapping_sub(1), c + 1, c.wrapping_sub(N), c + N];
            for d in around {
                if (d as usize) < n && prev[d as usize] == u32::MAX && self.open(c, d) {
                    prev[d as usize] = c;
                    queue.push_back(d);
                }
            }
        }
        let mut way = vec![to];
        while *way.last().unwrap() != from {
            way.push(prev[*way.last().unwrap() as usize]);
        }
        way.reverse();
        way
    }
}

/// Centre of cell `c` on the floor.
fn centre(c: u32) -> Vec3 {
    let h = N as f32 * CELL * 0.5;
    v3(
        (c % N) as f32 * CELL + CELL * 0.5 - h,
        0.0,
        (c / N) as f32 * CELL + CELL * 0.5 - h,
    )
}

pub fn build() -> Scene {
    let mut k = Kit::new("maze");
    let palette = k.image_bc(atlas::palette(64, &COLOURS));
    let stone = k.image_bc(texgen::ashlar(256, SEED, [0.70, 0.64, 0.55]));
    let tiles = k.image_bc(texgen::pavement(256, SEED + 1, 2));
    let grass = k.image_bc(texgen::grass(256, SEED + 2));
    let checker = k.image_bc(texgen::checker(
        128,
        4,
        [0.95, 0.95, 0.95],
        [0.85, 0.2, 0.15],
    ));
    let flame = k.image_bc(texgen::puff(64, SEED + 3, [1.0, 0.65, 0.2]));
    let blob = k.image_bc(texgen::puff(64, SEED + 4, [0.0, 0.0, 0.0]));
    let m_palette = k.textured("palette", palette);
    let m_flame = k.material(Material {
        name: "flame".into(),
        texture: Some(flame),
        alpha: AlphaMode::Blend,
        double_sided: true,
        particle: true,
        emissive: [1.0, 0.55, 0.15],
        ..Material::default()
    });

    let maze = Maze::carve(SEED);
    let way = maze.path(0, N * N - 1);
    let m_stone = k.textured("maze_walls", stone);
    walls(&mut k, &maze, m_stone, m_palette);
    let m_tiles = k.textured("floor_tiles", tiles);
    let m_grass = k.textured("meadow", grass);
    ground(&mut k, m_tiles, m_grass, m_palette);
    pickups(&mut k, &way, m_palette, m_flame);
    let m_ball = k.textured("ball", checker);
    let m_blob = k.alpha("blob_shadow", blob, AlphaMode::Blend);
    // The ball is where the way to the goal passes nearest the middle of
    // the maze.
    let step = (2..way.len())
        .min_by(|&a, &b| centre(way[a]).length().total_cmp(&centre(way[b]).length()))
        .expect("a way of at least three cells");
    let ball = centre(way[step]) + v3(0.0, 0.8, 0.0);
    player(&mut k, ball, m_ball, m_blob);

    // From behind and above, the target moving with the way just walked.
    let keys = (0..3)
        .map(|s| {
            let c = centre(way[step - 2 + s]);
            let look = c * 0.4 + ball * 0.6;
            kit::look(look + v3(0.0, 17.0, 13.0), look, 55.0, 0.5, 200.0)
        })
        .collect();
    k.cameras(keys);
    k.scene.light = Light {
        direction: v3(-0.45, -0.75, -0.5).normalize(),
        color: [1.0, 0.93, 0.82],
        ambient: 0.42,
    };
    k.mobile_frame(Preset::MobileForward);
    k.scene.sky = [0.55, 0.75, 0.95];
    k.finish()
}

/// Every wall as a box with a cap, posts at the joints, batched into one
/// mesh per quarter of the maze (static batching).
fn walls(k: &mut Kit, maze: &Maze, m_stone: usize, m_palette: usize) {
    let h = N as f32 * CELL * 0.5;
    let mut stone: [MeshBuilder; 4] = Default::default();
    let mut caps: [MeshBuilder; 4] = Default::default();
    let quarter = |x: f32, z: f32| (x > 0.0) as usize + 2 * (z > 0.0) as usize;
    let t = WALL_T * 0.5;
    let mut wall = |lo: Vec3, hi: Vec3| {
        let q = quarter((lo.x + hi.x) * 0.5, (lo.z + hi.z) * 0.5);
        stone[q].cuboid(lo, hi, 0.5);
        caps[q].cuboid(
            v3(lo.x - 0.06, WALL_H, lo.z - 0.06),
            v3(hi.x + 0.06, WALL_H + 0.15, hi.z + 0.06),
            1.0,
        );
    };
    for j in 0..=N {
        for i in 0..N {
            // The wall north of cell (i, j): outer at j = 0 and j = N,
            // else open where the cell above opens south.
            let outer = j == 0 || j == N;
            let (entrance, exit) = (j == 0 && i == 0, j == N && i == N - 1);
            let closed = if outer {
                !entrance && !exit
            } else {
                maze.south[((j - 1) * N + i) as usize]
            };
            if closed {
                let (x0, z) = (i as f32 * CELL - h, j as f32 * CELL - h);
                wall(v3(x0 + t, 0.0, z - t), v3(x0 + CELL - t, WALL_H, z + t));
            }
        }
    }
    for i in 0..=N {
        for j in 0..N {
            let closed = i == 0 || i == N || maze.east[(j * N + i - 1) as usize];
            if closed {
                let (x, z0) = (i as f32 * CELL - h, j as f32 * CELL - h);
                wall(v3(x - t, 0.0, z0 + t), v3(x + t, WALL_H, z0 + CELL - t));
            }
        }
    }
    for j in 0..=N {
        for i in 0..=N {
            let (x, z) = (i as f32 * CELL - h, j as f32 * CELL - h);
            let q = quarter(x, z);
            stone[q].cuboid(
                v3(x - t - 0.05, 0.0, z - t - 0.05),
                v3(x + t + 0.05, WALL_H + 0.3, z + t + 0.05),
                0.5,
            );
        }
    }
    for (q, (s, c)) in stone.into_iter().zip(caps).enumerate() {
        let s = k.mesh(&format!("walls{q}"), s, m_stone);
        let c = k.mesh(&format!("wall_caps{q}"), painted(c, CAP), m_palette);
        k.place(s, Mat4::IDENTITY);
        k.place(c, Mat4::IDENTITY);
    }
}

/// The tiled floor of the maze, the meadow around it and pines on it.
fn ground(k: &mut Kit, m_tiles: usize, m_grass: usize, m_palette: usize) {
    let h = N as f32 * CELL * 0.5;
    let mut floor = MeshBuilder::new();
    floor.grid(
        v3(-h, 0.0, h),
        v3(2.0 * h, 0.0, 0.0),
        v3(0.0, 0.0, -2.0 * h),
        2 * N,
        2 * N,
        Vec2::new(N as f32, N as f32),
    );
    let floor = k.mesh("maze_floor", floor, m_tiles);
    k.place(floor, Mat4::IDENTITY);
    let mut meadow = MeshBuilder::new();
    let r = 90.0;
    for (x0, z0, w, d) in [
        (-r, -r, 2.0 * r, r - h),
        (-r, h, 2.0 * r, r - h),
        (-r, -h, r - h, 2.0 * h),
        (h, -h, r - h, 2.0 * h),
    ] {
        meadow.grid(
            v3(x0, -0.02, z0 + d),
            v3(w, 0.0, 0.0),
            v3(0.0, 0.0, -d),
            4,
            4,
            Vec2::new(w / 6.0, d / 6.0),
        );
    }
    let meadow = k.mesh("meadow", meadow, m_grass);
    k.place(meadow, Mat4::IDENTITY);
    let (trunk, crown) = props::pine(7.0, 6, 3);
    let trunk = k.mesh("pine_trunk", painted(trunk, TRUNK), m_palette);
    let crown = k.mesh("pine_crown", painted(crown, LEAF), m_palette);
    let mut rng = Rng::new(SEED ^ 0x7ee);
    let mut placed = 0;
    while placed < 48 {
        let p = v3(rng.range(-70.0, 70.0), 0.0, rng.range(-70.0, 70.0));
        if p.x.abs() < h + 4.0 && p.z.abs() < h + 4.0 {
            continue;
        }
        let (yaw, s) = (rng.range(0.0, 6.0), rng.range(0.7, 1.3));
        k.put(trunk, p, yaw, s);
        k.put(crown, p, yaw, s);
        placed += 1;
    }
}

/// Gems and coins along the corridors (more on the way to the goal),
/// torches on posts, and the goal pad.
fn pickups(k: &mut Kit, way: &[u32], m_palette: usize, m_flame: usize) {
    let mut gem = MeshBuilder::new();
    gem.sphere(v3(0.0, 0.0, 0.0), 0.35, 4, 2);
    let gems: Vec<usize> = GEMS
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let m = k.material(Material {
                name: format!("gem{i}"),
                texture: k.scene.materials[m_palette].texture,
                emissive: [0.15, 0.15, 0.15],
                ..Material::default()
            });
            let mut g = MeshBuilder::new();
            g.append(&gem, Mat4::IDENTITY);
            k.mesh(&format!("gem{i}"), painted(g, c), m)
        })
        .collect();
    let coin = k.mesh("coin", painted(props::coin(0.3, 12), GOLD), m_palette);
    let mut rng = Rng::new(SEED ^ 0x9e);
    for c in 0..N * N {
        let on_way = way.contains(&c);
        let p = centre(c) + v3(rng.range(-0.8, 0.8), 0.7, rng.range(-0.8, 0.8));
        if on_way && rng.unit() < 0.6 {
            k.put(coin, p, rng.range(0.0, 3.0), 1.0);
        } else if rng.unit() < 0.2 {
            k.put(gems[rng.below(3) as usize], p, rng.range(0.0, 3.0), 1.0);
        }
    }
    let mut torch = MeshBuilder::new();
    torch.cylinder(v3(0.0, WALL_H + 0.3, 0.0), 0.06, 0.6, 6, 1);
    torch.cone(v3(0.0, WALL_H + 0.9, 0.0), 0.08, 0.16, 0.2, 6, 1);
    let torch = k.mesh("torch", painted(torch, IRON), m_palette);
    let mut flames = MeshBuilder::new();
    let h = N as f32 * CELL * 0.5;
    for n in 0..20 {
        let (i, j) = (rng.below(N + 1), rng.below(N + 1));
        let p = v3(i as f32 * CELL - h, 0.0, j as f32 * CELL - h);
        k.put(torch, p, 0.0, 1.0);
        for f in 0..3 {
            let s = 0.45 - 0.1 * f as f32;
            flames.cross_cards(
                p + v3(0.0, WALL_H + 1.05 + 0.15 * f as f32, 0.0),
                s,
                s * 1.3,
                (n + f) as f32,
            );
        }
    }
    let mut pad = MeshBuilder::new();
    pad.cylinder(centre(N * N - 1), 1.4, 0.12, 16, 1);
    let pad_m = k.material(Material {
        name: "goal".into(),
        texture: k.scene.materials[m_palette].texture,
        emissive: [0.3, 0.9, 0.5],
        ..Material::default()
    });
    let pad = k.mesh("goal_pad", painted(pad, GEMS[2]), pad_m);
    k.place(pad, Mat4::IDENTITY);
    let flames = k.mesh("torch_flames", flames, m_flame);
    k.place(flames, Mat4::IDENTITY);
}

/// The ball and its blob shadow.
fn player(k: &mut Kit, at: Vec3, m_ball: usize, m_blob: usize) {
    let mut ball = MeshBuilder::new();
    ball.sphere(v3(0.0, 0.0, 0.0), 0.8, 20, 12);
    let ball = k.mesh("ball", ball, m_ball);
    k.put(ball, at, 0.7, 1.0);
    let mut blob = MeshBuilder::new();
    blob.quad(
        v3(-1.0, 0.0, 1.0),
        v3(2.0, 0.0, 0.0),
        v3(0.0, 0.0, -2.0),
        Vec2::new(1.0, 1.0),
    );
    let blob = k.mesh("blob_shadow", blob, m_blob);
    k.put(blob, v3(at.x, 0.03, at.z), 0.0, 1.0);
}
