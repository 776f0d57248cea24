//! Small hand-built scenes for the frame tests (built-in scenes and file
//! loaders live elsewhere), and helpers to cut a record stream into passes.
#![allow(dead_code)]

use gfxcache_render::frame::{FrameConfig, FrameRenderer};
use gfxcache_render::{
    AlphaMode, Camera, CameraPath, Image, Instance, Light, Mat4, Material, Mesh, Mirror, Passes,
    Scene, TexFormat, Vec2, Vec3,
};
use gfxcache_trace::{Access, Marker, PassKind, Record};

/// A `2s` x `2s` plane at `y = 0`, normal up, counter-clockwise from above.
pub fn plane(s: f32, material: usize) -> Mesh {
    let p = [(-s, -s), (-s, s), (s, s), (s, -s)];
    Mesh {
        name: "plane".into(),
        positions: p.iter().map(|&(x, z)| Vec3::new(x, 0.0, z)).collect(),
        normals: vec![Vec3::new(0.0, 1.0, 0.0); 4],
        uvs: p
            .iter()
            .map(|&(x, z)| Vec2::new(x / (2.0 * s) + 0.5, z / (2.0 * s) + 0.5))
            .collect(),
        indices: vec![0, 1, 2, 0, 2, 3],
        material,
    }
}

/// A unit cube centred on the origin, outward faces counter-clockwise.
pub fn cube(material: usize) -> Mesh {
    let x = Vec3::new(1.0, 0.0, 0.0);
    let y = Vec3::new(0.0, 1.0, 0.0);
    let z = Vec3::new(0.0, 0.0, 1.0);
    // (normal, u, v) with u x v = normal.
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

pub fn checker(n: u32) -> Image {
    Image {
        name: "checker".into(),
        width: n,
        height: n,
        format: TexFormat::Rgba8,
        texels: (0..n * n)
            .map(|i| {
                let (x, y) = (i % n, i / n);
                if (x / 4 + y / 4) % 2 == 0 {
                    [230, 200, 160, 255]
                } else {
                    [60, 90, 120, 255]
                }
            })
            .collect(),
    }
}

pub const SKY: [f32; 3] = [0.2, 0.4, 0.8];

/// Camera high above the origin looking straight down (`-z` up on screen).
pub fn top_camera() -> Camera {
    Camera {
        eye: Vec3::new(0.0, 10.0, 0.0),
        target: Vec3::new(0.0, 0.0, 0.0),
        up: Vec3::new(0.0, 0.0, -1.0),
        fov_y: 60f32.to_radians(),
        near: 1.0,
        far: 30.0,
    }
}

/// A grey plane (base 0.5) under a sun travelling along `light_dir`, with a
/// small cube floating at `(0, 2, 0)`; nothing else.
pub fn lit_plane(light_dir: Vec3) -> Scene {
    Scene {
        name: "lit-plane".into(),
        meshes: vec![plane(10.0, 0), cube(0)],
        materials: vec![Material {
            name: "grey".into(),
            base_color: [0.5, 0.5, 0.5, 1.0],
            ..Material::default()
        }],
        images: vec![],
        instances: vec![
            Instance {
                mesh: 0,
                transform: Mat4::IDENTITY,
            },
            Instance {
                mesh: 1,
                transform: Mat4::translation(Vec3::new(0.0, 2.0, 0.0)),
            },
        ],
        camera: CameraPath::still(top_camera()),
        light: Light {
            direction: light_dir,
            color: [1.0, 1.0, 1.0],
            ambient: 0.25,
        },
        mirror: None,
        passes: Passes::default(),
        preset: Default::default(),
        graph: None,
        sky: SKY,
        warnings: vec![],
        sources: vec![],
    }
}

/// Everything at once: a reflective textured ground (the mirror at y = 0),
/// textured boxes, a masked box, a blended quad, seen at an angle.
pub fn full() -> Scene {
    let materials = vec![
        Material {
            name: "ground".into(),
            texture: Some(0),
            reflective: true,
            ..Material::default()
        },
        Material {
            name: "box".into(),
            texture: Some(0),
            emissive: [0.0, 0.0, 0.0],
            ..Material::default()
        },
        Material {
            name: "glass".into(),
            base_color: [0.3, 0.6, 1.0, 0.5],
            alpha: AlphaMode::Blend,
            double_sided: true,
            ..Material::default()
        },
        Material {
            name: "lamp".into(),
            emissive: [4.0, 3.0, 2.0],
            alpha: AlphaMode::Mask,
            texture: Some(0),
            ..Material::default()
        },
    ];
    let mut glass = plane(1.5, 2);
    glass.name = "glass".into();
    let mut instances = vec![Instance {
        mesh: 0,
        transform: Mat4::IDENTITY,
    }];
    for k in 0..4 {
        let x = -3.0 + 2.0 * k as f32;
        instances.push(Instance {
            mesh: 1,
            transform: Mat4::translation(Vec3::new(x, 0.6, -1.0 - k as f32))
                * Mat4::rotation_y(0.3 * k as f32),
        });
    }
    instances.push(Instance {
        mesh: 3,
        transform: Mat4::translation(Vec3::new(2.0, 1.2, 1.0)),
    });
    instances.push(Instance {
        mesh: 2,
        transform: Mat4::translation(Vec3::new(0.0, 1.0, 1.5)) * Mat4::rotation_x(1.2),
    });
    Scene {
        name: "full".into(),
        meshes: vec![plane(8.0, 0), cube(1), glass, cube(3)],
        materials,
        images: vec![checker(64)],
        instances,
        camera: CameraPath {
            keys: vec![
                Camera {
                    eye: Vec3::new(0.0, 4.0, 9.0),
                    target: Vec3::new(0.0, 0.5, 0.0),
                    up: Vec3::new(0.0, 1.0, 0.0),
                    fov_y: 55f32.to_radians(),
                    near: 0.5,
                    far: 40.0,
                },
                Camera {
                    eye: Vec3::new(3.0, 3.0, 8.0),
                    target: Vec3::new(0.0, 0.5, 0.0),
                    up: Vec3::new(0.0, 1.0, 0.0),
                    fov_y: 55f32.to_radians(),
                    near: 0.5,
                    far: 40.0,
                },
            ],
        },
        light: Light::default(),
        mirror: Some(Mirror { height: 0.0 }),
        passes: Passes::default(),
        preset: Default::default(),
        graph: None,
        sky: SKY,
        warnings: vec![],
        sources: vec![],
    }
}

pub fn config(w: u32, h: u32) -> FrameConfig {
    FrameConfig {
        shadow_size: Some(256),
        bloom_levels: 3,
        ..FrameConfig::new(w, h)
    }
}

/// Render frame 0 of 1: the records and the renderer (for its targets).
pub fn render<'s>(scene: &'s Scene, cfg: FrameConfig) -> (Vec<Record>, FrameRenderer<'s>) {
    let mut r = FrameRenderer::new(scene, cfg).expect("renderer");
    let mut recs = Vec::new();
    r.render(0, 1, &mut |x| recs.push(x)).unwrap();
    (recs, r)
}

/// One pass of a record stream.
pub struct PassRecords {
    pub name: String,
    pub kind: PassKind,
    pub accesses: Vec<Access>,
}

/// The passes of a stream, in order; panics on unbalanced markers.
pub fn passes(recs: &[Record]) -> Vec<PassRecords> {
    let mut out: Vec<PassRecords> = Vec::new();
    let mut open = false;
    for r in recs {
        match r {
            Record::Marker(Marker::PassBegin { name, kind }) => {
                assert!(!open, "nested pass {name}");
                open = true;
                out.push(PassRecords {
                    name: name.clone(),
                    kind: *kind,
                    accesses: Vec::new(),
                });
            }
            Record::Marker(Marker::PassEnd) => {
                assert!(open, "PassEnd outside a pass");
                open = false;
            }
            Record::Access(a) => {
                assert!(open, "access outside a pass: {a:?}");
                out.last_mut().expect("open pass").accesses.push(*a);
            }
            _ => {}
        }
    }
    assert!(!open, "unterminated pass");
    out
}
