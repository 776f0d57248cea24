//! A synthetic heavy scene for speed work: a 384x384-quad textured terrain
//! (about 295k triangles, 2048² texture), a reflective lake at y = 0 (the
//! mirror), 240 textured boxes (1024² textures), masked foliage cards and
//! blended glass panes, seen from a low camera. Deterministic.
#![allow(dead_code)]

use gfxcache_render::{
    AlphaMode, Camera, CameraPath, Image, Instance, Light, Mat4, Material, Mesh, Mirror, Passes,
    Scene, TexFormat, Vec2, Vec3,
};

fn image(n: u32, seed: u32) -> Image {
    Image {
        name: format!("tex{seed}"),
        width: n,
        height: n,
        format: TexFormat::Rgba8,
        texels: (0..n * n)
            .map(|i| {
                let (x, y) = (i % n, i / n);
                let h = (x.wrapping_mul(73_856_093) ^ y.wrapping_mul(19_349_663) ^ seed)
                    .wrapping_mul(2_654_435_761);
                let c = ((x / 16 + y / 16 + seed) % 2) as u8;
                let alpha = if (x / 32 + y / 32) % 3 == 0 { 0 } else { 255 };
                [
                    90 + 80 * c + (h & 31) as u8,
                    110 + (h >> 8 & 63) as u8,
                    60 + 60 * c,
                    alpha,
                ]
            })
            .collect(),
    }
}

fn grid(n: u32, size: f32, material: usize) -> Mesh {
    let mut m = Mesh {
        name: "terrain".into(),
        material,
        ..Mesh::default()
    };
    let h = |x: f32, z: f32| 0.6 * (x * 0.35).sin() * (z * 0.27).cos() + 0.25;
    for j in 0..=n {
        for i in 0..=n {
            let x = (i as f32 / n as f32 - 0.5) * size;
            let z = (j as f32 / n as f32 - 0.5) * size;
            let y = h(x, z);
            let e = 0.05;
            let nx = -(h(x + e, z) - h(x - e, z)) / (2.0 * e);
            let nz = -(h(x, z + e) - h(x, z - e)) / (2.0 * e);
            m.positions.push(Vec3::new(x, y, z));
            m.normals.push(Vec3::new(nx, 1.0, nz).normalize());
            m.uvs.push(Vec2::new(
                i as f32 / n as f32 * 8.0,
                j as f32 / n as f32 * 8.0,
            ));
        }
    }
    let row = n + 1;
    for j in 0..n {
        for i in 0..n {
            let a = j * row + i;
            let (b, c, d) = (a + 1, a + row, a + row + 1);
            m.indices.extend([a, c, d, a, d, b]);
        }
    }
    m
}

fn quad(s: f32, material: usize) -> Mesh {
    let p = [(-s, -s), (-s, s), (s, s), (s, -s)];
    Mesh {
        name: "quad".into(),
        positions: p.iter().map(|&(x, z)| Vec3::new(x, 0.0, z)).collect(),
        normals: vec![Vec3::new(0.0, 1.0, 0.0); 4],
        uvs: p.iter().map(|&(x, z)| Vec2::new(x / s, z / s)).collect(),
        indices: vec![0, 1, 2, 0, 2, 3],
        material,
    }
}

fn cube(material: usize) -> Mesh {
    let x = Vec3::new(1.0, 0.0, 0.0);
    let y = Vec3::new(0.0, 1.0, 0.0);
    let z = Vec3::new(0.0, 0.0, 1.0);
    let faces = [
        (x, y, z),
        (-x, z, y),
        (y, z, x),
        (-y, x, z),
        (z, x, y),
        (-z, y, x),
    ];
    let mut m = Mesh {
        name: "cube".into(),
        material,
        ..Mesh::default()
    };
    for (n, u, v) in faces {
        let c = n * 0.5;
        let (u, v) = (u * 0.5, v * 0.5);
        let base = m.positions.len() as u32;
        for (p, t) in [
            (c - u - v, (0.0, 0.0)),
            (c + u - v, (1.0, 0.0)),
            (c + u + v, (1.0, 1.0)),
            (c - u + v, (0.0, 1.0)),
        ] {
            m.positions.push(p);
            m.normals.push(n);
            m.uvs.push(Vec2::new(t.0, t.1));
        }
        m.indices
            .extend([base, base + 1, base + 2, base, base + 2, base + 3]);
    }
    m
}

/// The heavy scene; `grid` quads per terrain side (384 for the full load).
pub fn heavy_scene(grid_n: u32) -> Scene {
    let materials = vec![
        Material {
            name: "terrain".into(),
            texture: Some(0),
            ..Material::default()
        },
        Material {
            name: "water".into(),
            base_color: [0.2, 0.35, 0.5, 1.0],
            reflective: true,
            ..Material::default()
        },
        Material {
            name: "crate".into(),
            texture: Some(1),
            ..Material::default()
        },
        Material {
            name: "stone".into(),
            texture: Some(2),
            ..Material::default()
        },
        Material {
            name: "leaves".into(),
            texture: Some(1),
            alpha: AlphaMode::Mask,
            double_sided: true,
            ..Material::default()
        },
        Material {
            name: "glass".into(),
            base_color: [0.6, 0.8, 1.0, 0.4],
            alpha: AlphaMode::Blend,
            double_sided: true,
            emissive: [0.5, 0.5, 0.8],
            ..Material::default()
        },
    ];
    let meshes = vec![
        grid(grid_n, 120.0, 0),
        quad(30.0, 1),
        cube(2),
        cube(3),
        quad(1.0, 4),
        quad(1.5, 5),
    ];
    let mut instances = vec![
        Instance {
            mesh: 0,
            transform: Mat4::IDENTITY,
        },
        Instance {
            mesh: 1,
            transform: Mat4::translation(Vec3::new(0.0, 0.02, -15.0)),
        },
    ];
    for k in 0..240u32 {
        let x = ((k * 37) % 60) as f32 - 30.0;
        let z = -(((k * 53) % 50) as f32) + 10.0;
        let s = 0.6 + (k % 5) as f32 * 0.3;
        instances.push(Instance {
            mesh: 2 + (k % 2) as usize,
            transform: Mat4::translation(Vec3::new(x, 0.5 + s * 0.5, z))
                * Mat4::rotation_y(k as f32 * 0.7)
                * Mat4::scale(Vec3::new(s, s, s)),
        });
    }
    for k in 0..60u32 {
        let x = ((k * 29) % 50) as f32 - 25.0;
        let z = -(((k * 31) % 40) as f32);
        instances.push(Instance {
            mesh: 4,
            transform: Mat4::translation(Vec3::new(x, 1.5, z)) * Mat4::rotation_x(1.5),
        });
    }
    for k in 0..12u32 {
        instances.push(Instance {
            mesh: 5,
            transform: Mat4::translation(Vec3::new(k as f32 * 3.0 - 18.0, 2.0, 2.0 - k as f32))
                * Mat4::rotation_x(1.4),
        });
    }
    Scene {
        name: "heavy".into(),
        meshes,
        materials,
        images: vec![image(2048, 1), image(1024, 2), image(1024, 3)],
        instances,
        camera: CameraPath {
            keys: vec![
                Camera {
                    eye: Vec3::new(0.0, 6.0, 22.0),
                    target: Vec3::new(0.0, 1.0, -10.0),
                    up: Vec3::new(0.0, 1.0, 0.0),
                    fov_y: 60f32.to_radians(),
                    near: 0.3,
                    far: 200.0,
                },
                Camera {
                    eye: Vec3::new(10.0, 5.0, 18.0),
                    target: Vec3::new(0.0, 1.0, -10.0),
                    up: Vec3::new(0.0, 1.0, 0.0),
                    fov_y: 60f32.to_radians(),
                    near: 0.3,
                    far: 200.0,
                },
            ],
        },
        light: Light::default(),
        mirror: Some(Mirror { height: 0.02 }),
        passes: Passes::default(),
        sky: [0.35, 0.55, 0.9],
        warnings: vec![],
    }
}
