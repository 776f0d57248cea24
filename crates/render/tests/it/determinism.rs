//! Determinism: the same inputs give the same quads, colours and addresses,
//! in the same order, whether run twice in a row or on another thread.

use gfxcache_render::{
    Allocator, CullMode, Derivs, Filter, FrontFace, Mat4, Rasterizer, Sampler, TexFormat, Texture,
    Vec3, Viewport,
};
use gfxcache_trace::Access;

/// Everything a small frame produced: per pixel its position, depth bits
/// and colour bits, and every texture access.
#[derive(Debug, PartialEq)]
struct Frame {
    pixels: Vec<(u32, u32, u32, [u32; 4])>,
    accesses: Vec<Access>,
    clipped: u32,
    culled: u32,
}

fn render() -> Frame {
    let mut alloc = Allocator::default();
    let textures = [
        Texture::from_fn(64, 64, TexFormat::Rgba8, &mut alloc, |x, y| {
            [(x * 4) as u8, (y * 4) as u8, ((x ^ y) * 4) as u8, 255]
        }),
        Texture::from_fn(128, 32, TexFormat::Bc1, &mut alloc, |x, y| {
            [((x * y) % 256) as u8, x as u8, y as u8, 255]
        }),
    ];
    let samplers = [
        Sampler::new(Filter::Trilinear),
        Sampler::new(Filter::Anisotropic),
        Sampler::new(Filter::Bilinear),
    ];
    let proj = Mat4::perspective(70f32.to_radians(), 4.0 / 3.0, 0.5, 40.0);
    let view = Mat4::look_at(
        Vec3::new(0.5, 1.0, 2.0),
        Vec3::new(0.0, 0.0, -3.0),
        Vec3::new(0.0, 1.0, 0.0),
    );
    let m = proj * view;
    let vp = Viewport::new(64, 48);
    let r = Rasterizer::new(vp).with_cull(CullMode::Back, FrontFace::Ccw);
    // A floor reaching behind the camera (clipped by the near plane), a
    // tilted wall and a small triangle, each with uvs that repeat.
    let tris: [[(Vec3, [f32; 2]); 3]; 4] = [
        [
            (Vec3::new(-4.0, 0.0, 4.0), [0.0, 0.0]),
            (Vec3::new(4.0, 0.0, 4.0), [4.0, 0.0]),
            (Vec3::new(4.0, 0.0, -20.0), [4.0, 12.0]),
        ],
        [
            (Vec3::new(-4.0, 0.0, 4.0), [0.0, 0.0]),
            (Vec3::new(4.0, 0.0, -20.0), [4.0, 12.0]),
            (Vec3::new(-4.0, 0.0, -20.0), [0.0, 12.0]),
        ],
        [
            (Vec3::new(-2.0, 0.0, -5.0), [0.0, 1.0]),
            (Vec3::new(1.0, 0.0, -4.0), [1.0, 1.0]),
            (Vec3::new(-0.5, 2.0, -4.5), [0.5, 0.0]),
        ],
        [
            (Vec3::new(0.5, 0.2, -1.0), [0.0, 0.0]),
            (Vec3::new(0.8, 0.3, -1.2), [1.0, 0.0]),
            (Vec3::new(0.6, 0.6, -1.1), [0.0, 1.0]),
        ],
    ];
    let mut frame = Frame {
        pixels: vec![],
        accesses: vec![],
        clipped: 0,
        culled: 0,
    };
    for (k, tri) in tris.iter().enumerate() {
        let clip = tri.map(|(p, _)| m.transform_point(p));
        let uvs = tri.map(|(_, uv)| uv);
        let tex = &textures[k % 2];
        let sampler = &samplers[k % 3];
        // Try both windings: back faces are culled deterministically too.
        for order in [[0, 1, 2], [0, 2, 1]] {
            let clip = order.map(|i| clip[i]);
            let uvs = order.map(|i| uvs[i]);
            let stats = r.draw(clip, |q| {
                let quv: [[f32; 2]; 4] = std::array::from_fn(|i| q.interpolate(i, &uvs));
                let d = Derivs::from_quad(&quv);
                for (i, [u, v]) in quv.iter().enumerate() {
                    if q.covered(i) {
                        let s =
                            sampler.sample(tex, *u, *v, &d, k as u16, |a| frame.accesses.push(a));
                        let (x, y) = q.pixel(i);
                        frame
                            .pixels
                            .push((x, y, q.depth[i].to_bits(), s.color.map(f32::to_bits)));
                    }
                }
            });
            frame.clipped += stats.clipped as u32;
            frame.culled += stats.culled as u32;
        }
    }
    frame
}

#[test]
fn same_inputs_same_outputs() {
    let a = render();
    assert!(
        a.pixels.len() > 500,
        "frame drew only {} pixels",
        a.pixels.len()
    );
    assert!(a.accesses.len() > a.pixels.len());
    assert!(a.clipped >= 2, "the floor crosses the near plane");
    assert_eq!(a.culled, 4, "one winding of each triangle is a back face");
    let b = render();
    assert_eq!(a, b);
    let c = std::thread::spawn(render).join().expect("render thread");
    assert_eq!(a, c);
}
