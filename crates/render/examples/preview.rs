//! Quick look at a scene: draws every instance once with the software
//! pipeline (textured, N·L sun plus ambient, alpha mask and blending, a
//! sky-tinted stand-in for reflections, no shadows or post) and writes a
//! PNG. A developer tool for judging the built-in scenes, not the frame
//! renderer.
//!
//! `cargo run --release -p gfxcache-render --example preview -- SCENE
//! [FRAME FRAMES] [OUT.png]` (default output `/tmp/preview-SCENE.png`).

use gfxcache_render::pipeline::tcor_attributes;
use std::time::Instant;

use gfxcache_render::{
    scene, Allocator, AlphaMode, Blend, ColorFormat, ColorTarget, CompareFunc, CullMode,
    DepthFormat, DepthTarget, Draw, Filter, FragmentOutput, Fragments, IndexBuffer, IndexFormat,
    Mat4, Pipeline, Sampler, State, TexFormat, Texture, Vec3, Vertex, VertexBuffer, WritesDepth,
};

const W: u32 = 640;
const H: u32 = 360;

fn linear(c: f32) -> f32 {
    c.powf(2.2)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map_or("terrain", |s| s.as_str());
    let (frame, frames) = match (args.get(1), args.get(2)) {
        (Some(f), Some(n)) => (f.parse().unwrap_or(0), n.parse().unwrap_or(1)),
        _ => (0, 1),
    };
    let out = args
        .get(3)
        .cloned()
        .unwrap_or_else(|| format!("/tmp/preview-{name}.png"));

    let t0 = Instant::now();
    let sc = scene::resolve(name).expect("unknown scene");
    eprintln!(
        "{name}: built in {:.0} ms, {} triangles, {} meshes, {} instances, {} images",
        t0.elapsed().as_secs_f64() * 1e3,
        sc.triangle_count(),
        sc.meshes.len(),
        sc.instances.len(),
        sc.images.len()
    );

    let mut alloc = Allocator::default();
    let textures: Vec<Texture> = sc
        .images
        .iter()
        .map(|i| {
            Texture::new(
                i.width,
                i.height,
                TexFormat::Rgba8,
                i.texels.clone(),
                &mut alloc,
            )
        })
        .collect();
    let buffers: Vec<(VertexBuffer, IndexBuffer)> = sc
        .meshes
        .iter()
        .map(|m| {
            let v = (0..m.positions.len())
                .map(|i| {
                    let (n, uv) = (m.normals[i], m.uvs[i]);
                    Vertex::new(m.positions[i], &[n.x, n.y, n.z, uv.x, uv.y])
                })
                .collect();
            (
                VertexBuffer::new(v, 5, &mut alloc),
                IndexBuffer::new(m.indices.clone(), IndexFormat::U32, &mut alloc),
            )
        })
        .collect();

    let mut p = Pipeline::new();
    let rt = p.add_color(ColorTarget::new(W, H, ColorFormat::Rgba8, &mut alloc));
    let ds = p.add_depth(DepthTarget::new(W, H, DepthFormat::D32F, &mut alloc));
    let mut sink = |_| {};
    let srgb = |c: f32| c.max(0.0).powf(1.0 / 2.2);
    p.clear_color(
        rt,
        [srgb(sc.sky[0]), srgb(sc.sky[1]), srgb(sc.sky[2]), 1.0],
        &mut sink,
    );
    p.clear_depth(ds, 1.0, 0, &mut sink);

    let cam = sc.camera.at(frame, frames);
    let vp = Mat4::perspective(cam.fov_y, W as f32 / H as f32, cam.near, cam.far)
        * Mat4::look_at(cam.eye, cam.target, cam.up);
    let to_light = -sc.light.direction.normalize();
    let sampler = Sampler::new(Filter::Trilinear);

    // Opaque and masked first, then blended back to front by instance
    // centre distance.
    let centre = |i: &scene::Instance| {
        let m = &sc.meshes[i.mesh];
        let c = m.positions.iter().fold(Vec3::default(), |a, &b| a + b)
            / m.positions.len().max(1) as f32;
        i.transform.transform_point(c).truncate()
    };
    let mut order: Vec<usize> = (0..sc.instances.len()).collect();
    let blended =
        |i: usize| sc.materials[sc.meshes[sc.instances[i].mesh].material].alpha == AlphaMode::Blend;
    let dist = |i: usize| (centre(&sc.instances[i]) - cam.eye).length();
    order.sort_by(|&a, &b| {
        blended(a).cmp(&blended(b)).then(if blended(a) {
            dist(b).total_cmp(&dist(a))
        } else {
            std::cmp::Ordering::Equal
        })
    });

    let t1 = Instant::now();
    for i in order {
        let inst = &sc.instances[i];
        let mesh = &sc.meshes[inst.mesh];
        let mat = &sc.materials[mesh.material];
        let tex = mat.texture.map(|t| &textures[t]);
        let model = inst.transform;
        let shade = |f: &mut Fragments<'_>, o: &mut FragmentOutput| -> [f32; 4] {
            let uv = f.uv(3);
            let s = tex.map(|t| f.sample(t, &sampler, &uv));
            let mut alphas = [1.0; 4];
            for px in 0..4 {
                let a = f.attrs[px];
                let mut n = model
                    .transform_vector(Vec3::new(a[0], a[1], a[2]))
                    .normalize();
                if mat.double_sided && !f.quad.front_facing {
                    n = -n;
                }
                let mut c = [mat.base_color[0], mat.base_color[1], mat.base_color[2]];
                let mut alpha = mat.base_color[3];
                if let Some(s) = s {
                    for k in 0..3 {
                        c[k] *= linear(s[px][k]);
                    }
                    alpha *= s[px][3];
                }
                let ndl = n.dot(to_light).max(0.0);
                let mut rgb = [0.0; 3];
                for k in 0..3 {
                    let lit = c[k] * (sc.light.ambient + ndl * sc.light.color[k]);
                    let lit = if mat.reflective {
                        lit * 0.5 + sc.sky[k] * 0.5
                    } else {
                        lit
                    };
                    rgb[k] = srgb(lit + mat.emissive[k]);
                }
                alphas[px] = alpha;
                o.color[0][px] = [rgb[0], rgb[1], rgb[2], alpha];
            }
            alphas
        };
        let mask_shader = WritesDepth(|f: &mut Fragments<'_>, o: &mut FragmentOutput| {
            let a = shade(f, o);
            for (d, alpha) in o.depth.iter_mut().zip(a) {
                if alpha < 0.5 {
                    // A depth at the far plane fails `Less`: a discard.
                    *d = 1.0;
                }
            }
        });
        let plain = |f: &mut Fragments<'_>, o: &mut FragmentOutput| {
            shade(f, o);
        };
        let cull = if mat.double_sided {
            CullMode::None
        } else {
            CullMode::Back
        };
        let mut state = State::default().with_cull(cull);
        if mat.alpha == AlphaMode::Blend {
            state = state
                .with_blend(Blend::Alpha)
                .with_depth(CompareFunc::Less, false);
        }
        let (vb, ib) = &buffers[inst.mesh];
        let shader: &dyn gfxcache_render::FragmentShader = if mat.alpha == AlphaMode::Mask {
            &mask_shader
        } else {
            &plain
        };
        p.draw(
            &Draw {
                indices: ib,
                vertices: vb,
                mvp: vp * model,
                state,
                color: &[rt],
                depth: Some(ds),
                shader,
                attributes: tcor_attributes(vb.attr_count),
                work: gfxcache_render::pipeline::ShaderWork::NONE,
            },
            &mut sink,
        );
    }
    eprintln!("drawn in {:.0} ms", t1.elapsed().as_secs_f64() * 1e3);
    let px: Vec<u8> = p
        .color(rt)
        .to_rgba8()
        .into_iter()
        .flat_map(|c| [c[0], c[1], c[2], 255])
        .collect();
    image::save_buffer(&out, &px, W, H, image::ExtendedColorType::Rgba8).expect("write png");
    eprintln!("wrote {out}");
}
