//! What the frame's shaders share: matrix helpers, the lighting model, the
//! shadow-map lookup, and the memory model of shader code and constants.
//!
//! **Lighting.** One directional sun with Lambert diffuse plus a uniform
//! ambient term: `albedo * (ambient + sun * max(N.L, 0) * shadow) +
//! emissive`. Texels are sRGB-encoded; the filtered colour is linearized by
//! squaring (gamma 2, cheap and monotonic) and the display pass encodes
//! with a square root.
//!
//! **Shadows.** A pixel's world position is reconstructed from its screen
//! position and depth (inverse view-projection), taken to the light's clip
//! space, and compared with one point-sampled texel of the shadow map (a
//! `tex` read of the shadow map's depth surface) with a small bias.
//!
//! **Shader code and constants** ([`ShaderHeap`]): every program has its
//! code at a fixed allocator address, and every draw has a 64 B constant
//! block (its matrices and material) at a fixed slot. Each draw reads its
//! program's whole code (an instruction-cache refill, since consecutive
//! draws switch programs) and its constant block, right after its
//! `DrawBegin`, as `shader`-stream reads of unit 0. Scene draws use the
//! slot of their instance, so the same object reads the same constants in
//! every pass and frame; full-screen draws use slots after the instances.

use gfxcache_trace::{Access, Op, Record, RecordSink, Stream};

pub use super::program::{Program, ShaderCode, ShaderWork};
use super::Samplers;
use crate::math::{Mat4, Vec3, Vec4};
use crate::pipeline::{Fragments, Opt, Options};
use crate::sampler::TexView;
use crate::scene::{Light, Shading};
use crate::surface::{Allocator, BLOCK_BYTES};
use crate::target::DepthTarget;

/// Bytes of the frame's light constants (four lights of 32 B).
pub const LIGHT_BYTES: u64 = 128;

/// Where shader code and per-draw constants live.
#[derive(Clone, Debug)]
pub struct ShaderHeap {
    /// The code address of each program that has code.
    code: Vec<(Program, u64)>,
    constants: u64,
    slots: u64,
    /// The frame's light constants, when a program reads them.
    lights: Option<u64>,
}

impl ShaderHeap {
    /// Code for every classic program, then `slots` constant blocks, then
    /// code for each of `extra` (the presets' programs a frame runs) and
    /// the light constants if one of them reads them. The classic frame's
    /// addresses do not depend on the presets.
    pub fn new(slots: u64, extra: &[Program], alloc: &mut Allocator) -> ShaderHeap {
        let mut code: Vec<(Program, u64)> = Program::CLASSIC
            .iter()
            .map(|&p| (p, alloc.alloc(p.code_bytes(), BLOCK_BYTES)))
            .collect();
        let constants = alloc.alloc(slots.max(1) * BLOCK_BYTES, BLOCK_BYTES);
        for &p in Program::EXTRA.iter().filter(|p| extra.contains(p)) {
            code.push((p, alloc.alloc(p.code_bytes(), BLOCK_BYTES)));
        }
        let lights = extra
            .iter()
            .any(|p| p.reads_lights())
            .then(|| alloc.alloc(LIGHT_BYTES, BLOCK_BYTES));
        ShaderHeap {
            code,
            constants,
            slots: slots.max(1),
            lights,
        }
    }

    /// The records a draw of `program` with constants in `slot` reads: its
    /// code, its constant block, and the light constants if it reads them.
    /// A program the heap has no code for reads no code.
    pub fn fetch(&self, program: Program, slot: u64, sink: &mut impl RecordSink) {
        let code = self.code.iter().find(|(p, _)| *p == program);
        debug_assert!(code.is_some(), "{program:?} is not in the shader heap");
        if let Some(&(_, base)) = code {
            for k in 0..program.code_bytes() / BLOCK_BYTES {
                sink.record(read(base + k * BLOCK_BYTES));
            }
        }
        sink.record(read(self.constants + (slot % self.slots) * BLOCK_BYTES));
        if let (true, Some(base)) = (program.reads_lights(), self.lights) {
            for k in 0..LIGHT_BYTES / BLOCK_BYTES {
                sink.record(read(base + k * BLOCK_BYTES));
            }
        }
    }
}

fn read(addr: u64) -> Record {
    Record::Access(Access {
        addr,
        size: BLOCK_BYTES as u32,
        unit: 0,
        stream: Stream::Shader,
        op: Op::Read,
    })
}

/// General 4x4 inverse (cofactors in f64, so it is the same everywhere);
/// the identity for a singular matrix.
pub fn inverse(m: &Mat4) -> Mat4 {
    let a: [[f64; 4]; 4] = std::array::from_fn(|r| std::array::from_fn(|c| m.cols[c][r] as f64));
    // Gauss-Jordan with partial pivoting.
    let mut aug = [[0.0f64; 8]; 4];
    for r in 0..4 {
        aug[r][..4].copy_from_slice(&a[r]);
        aug[r][4 + r] = 1.0;
    }
    for col in 0..4 {
        let piv = (col..4)
            .max_by(|&x, &y| aug[x][col].abs().total_cmp(&aug[y][col].abs()))
            .unwrap_or(col);
        if aug[piv][col].abs() < 1e-300 {
            return Mat4::IDENTITY;
        }
        aug.swap(col, piv);
        let p = aug[col][col];
        for v in aug[col].iter_mut() {
            *v /= p;
        }
        for r in 0..4 {
            if r != col {
                let f = aug[r][col];
                if f != 0.0 {
                    let row = aug[col];
                    for (v, w) in aug[r].iter_mut().zip(row) {
                        *v -= f * w;
                    }
                }
            }
        }
    }
    let col = |c: usize| {
        Vec4::new(
            aug[0][4 + c] as f32,
            aug[1][4 + c] as f32,
            aug[2][4 + c] as f32,
            aug[3][4 + c] as f32,
        )
    };
    Mat4::from_cols(col(0), col(1), col(2), col(3))
}

/// The matrix taking object normals to world normals (inverse transpose of
/// the upper 3x3), as rows.
pub fn normal_matrix(model: &Mat4) -> [[f32; 3]; 3] {
    let inv = inverse(model);
    // (M^-1)^T: row r of the result is column r of M^-1.
    std::array::from_fn(|r| [inv.cols[r].x, inv.cols[r].y, inv.cols[r].z])
}

pub fn mul3(m: &[[f32; 3]; 3], v: [f32; 3]) -> Vec3 {
    Vec3::new(
        m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2],
        m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
        m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2],
    )
}

/// Normalized, or zero for a zero vector.
pub fn unit(v: Vec3) -> Vec3 {
    let l = v.length();
    if l > 0.0 {
        v * (1.0 / l)
    } else {
        v
    }
}

/// The world position of pixel `(x, y)` at viewport depth `depth` on a
/// `w` x `h` screen, given the inverse view-projection.
pub fn world_of(inv_vp: &Mat4, x: u32, y: u32, depth: f32, w: u32, h: u32) -> Vec3 {
    let nx = (x as f32 + 0.5) / w as f32 * 2.0 - 1.0;
    let ny = 1.0 - (y as f32 + 0.5) / h as f32 * 2.0;
    let p = inv_vp.transform(Vec4::new(nx, ny, depth, 1.0));
    let iw = if p.w != 0.0 { 1.0 / p.w } else { 0.0 };
    Vec3::new(p.x * iw, p.y * iw, p.z * iw)
}

/// The shadow map and how to reach it from world space.
#[derive(Clone, Copy)]
pub struct ShadowLookup<'a> {
    pub map: &'a DepthTarget,
    pub light_vp: Mat4,
}

impl ShadowLookup<'_> {
    /// Depth bias of the compare, in light clip depth: two shadow-map
    /// texels' worth of world distance (the fitted projection is `2r` wide
    /// and `3r` deep), enough against acne on slopes up to 45 degrees
    /// without detaching shadows from their casters.
    fn bias(&self) -> f32 {
        4.0 / (3.0 * self.map.width() as f32)
    }
}

/// Per live pixel: 1 when lit, 0 in shadow; one point sample of a shadow
/// map per pixel (a `tex` read). With cascades (`shadows` nearest first)
/// each pixel uses the first whose map holds it, and a pixel outside all
/// of them is lit; with one map every live pixel samples it. Without a
/// shadow map everything is lit (and the draw's program has no lookup:
/// [`Opt::Shadowed`](crate::pipeline::Opt::Shadowed)).
pub fn shadow_factor(
    frag: &mut Fragments<'_>,
    shadows: &[ShadowLookup<'_>],
    world: &[Vec3; 4],
) -> [f32; 4] {
    let mut lit = [1.0; 4];
    if shadows.is_empty() {
        // The program's variant without a shadow map: no lookup at all.
        return lit;
    }
    let live = frag.mask;
    let mut sampled = 0u8;
    for (k, s) in shadows.iter().enumerate() {
        let mut uv = [[0.0f32; 2]; 4];
        let mut z = [0.0f32; 4];
        let mut inside = 0u8;
        for i in 0..4 {
            let c = s.light_vp.transform_point(world[i]);
            let iw = if c.w != 0.0 { 1.0 / c.w } else { 0.0 };
            uv[i] = [c.x * iw * 0.5 + 0.5, 0.5 - c.y * iw * 0.5];
            z[i] = c.z * iw;
            if (0.0..=1.0).contains(&uv[i][0]) && (0.0..=1.0).contains(&uv[i][1]) {
                inside |= 1 << i;
            }
        }
        let last = k + 1 == shadows.len();
        let mine = if shadows.len() == 1 {
            frag.mask
        } else {
            frag.mask & inside
        };
        if mine != 0 {
            // A depth comparison: never filtered (`FilterOverride`).
            let sampler = Samplers::exact();
            let rest = frag.mask;
            frag.mask = mine;
            let stored = frag.sample_view(TexView::Depth(s.map), &sampler, &uv);
            frag.mask = rest;
            sampled |= mine;
            for i in 0..4 {
                if inside & (1 << i) != 0 && z[i] - s.bias() > stored[i][0] {
                    lit[i] = 0.0;
                }
            }
        }
        // A pixel is done with the first cascade that holds it.
        frag.mask &= !inside;
        if last || frag.mask == 0 {
            break;
        }
    }
    // The pixels no cascade holds make no shadow request.
    frag.mask = live & !sampled;
    if frag.mask != 0 {
        frag.skip_request();
    }
    frag.mask = live;
    lit
}

/// Lambert + ambient: the lit colour of `albedo` with world normal `n`.
pub fn light(l: &Light, albedo: [f32; 3], n: Vec3, shadow: f32, emissive: [f32; 3]) -> [f32; 3] {
    let to_light = unit(-l.direction);
    let ndl = n.dot(to_light).max(0.0) * shadow;
    std::array::from_fn(|c| albedo[c] * (l.ambient + l.color[c] * ndl) + emissive[c])
}

/// sRGB-ish texel value to linear (gamma 2).
pub fn linear(c: f32) -> f32 {
    c * c
}

/// What a material shader writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Albedo, normal and emissive (+ reflection) to three targets.
    GBuffer,
    /// Lit colour with shadow, alpha 1.
    Forward,
    /// Lit colour with shadow and the material's alpha (blended).
    Transparent,
    /// Lit colour without shadow, discarding what lies beyond the mirror.
    Reflection,
    /// The interface: the texture times the base colour plus emissive,
    /// unlit, with the material's alpha (blended).
    Interface,
}

/// Share of a reflective surface's colour that comes from the reflection.
pub const REFLECTIVITY: f32 = 0.5;

/// How far (in screen widths) a refractive surface displaces what it
/// shows, per unit of its normal.
pub const REFRACTION_SHIFT: f32 = 0.02;

/// The material shader of every geometry pass.
pub struct MaterialShader<'a> {
    pub mode: Mode,
    pub material: &'a crate::scene::Material,
    pub texture: Option<&'a crate::texture::Texture>,
    /// Its texture's sampler ([`Samplers::material`]) and the one of its
    /// reflection and refraction reads ([`Samplers::screen`]).
    pub samplers: Samplers,
    /// Object normals to world normals.
    pub normal_m: [[f32; 3]; 3],
    pub light: &'a Light,
    /// Inverse view-projection of the target being drawn, and its size.
    pub inv_vp: Mat4,
    pub width: u32,
    pub height: u32,
    /// Shadow maps, nearest cascade first (see [`shadow_factor`]).
    pub shadows: &'a [ShadowLookup<'a>],
    /// The reflection target, sampled at the pixel's screen position by
    /// reflective materials.
    pub reflection: Option<&'a crate::target::ColorTarget>,
    /// A copy of the scene colour that blended (glass-like) materials
    /// sample, displaced by their normal, and show through their tint.
    pub refraction: Option<&'a crate::target::ColorTarget>,
    /// Reflection pass: the mirror height; pixels whose (mirrored) world
    /// position lies above it came from below the mirror and are discarded.
    pub mirror: Option<f32>,
    /// Soft particles: the scene depth they fade against.
    pub soft: Option<SoftDepth<'a>>,
    /// The G-buffer's normal target is unorm: store `n / 2 + 1 / 2`.
    pub pack_normal: bool,
    /// Lit colour goes out gamma-encoded (drawing into the display).
    pub encode: bool,
}

/// The scene depth a soft particle fades against, and the camera's depth
/// range to linearize it.
#[derive(Clone, Copy)]
pub struct SoftDepth<'a> {
    pub depth: &'a DepthTarget,
    pub near: f32,
    pub far: f32,
}

/// World distance over which a soft particle fades in front of the scene.
pub const SOFT_RANGE: f32 = 0.5;

impl SoftDepth<'_> {
    /// View distance of viewport depth `d` (perspective projection).
    fn linear(&self, d: f32) -> f32 {
        let (n, f) = (self.near, self.far);
        n * f / (f - d.clamp(0.0, 1.0) * (f - n)).max(1e-6)
    }

    /// Per pixel, how much of the particle shows: 0 where it meets the
    /// scene, 1 from [`SOFT_RANGE`] in front of it (a `tex` load of the
    /// depth surface).
    fn fade(&self, frag: &mut Fragments<'_>) -> [f32; 4] {
        let px = frag.pixels();
        let scene = frag.load(TexView::Depth(self.depth), &px);
        std::array::from_fn(|i| {
            let gap = self.linear(scene[i][0]) - self.linear(frag.quad.depth[i]);
            (gap / SOFT_RANGE).clamp(0.0, 1.0)
        })
    }
}

/// Gamma-2 encoding of a linear colour channel, clamped to `[0, 1]`.
pub fn encode(c: f32) -> f32 {
    c.clamp(0.0, 1.0).sqrt()
}

impl<'a> MaterialShader<'a> {
    /// The shader of instance `inst` in `mode`, drawing into a target of
    /// `size` whose inverse view-projection is `inv_vp`; no shadow,
    /// reflection or mirror (each pass adds those it uses).
    pub fn for_instance(
        mode: Mode,
        scene: &'a crate::scene::Scene,
        gpu: &'a super::upload::GpuScene,
        samplers: Samplers,
        inst: &crate::scene::Instance,
        inv_vp: Mat4,
        size: (u32, u32),
    ) -> MaterialShader<'a> {
        let material = scene.material_of(inst);
        MaterialShader {
            mode,
            material,
            texture: material.texture.map(|t| &gpu.textures[t]),
            samplers,
            normal_m: normal_matrix(&inst.transform),
            light: &scene.light,
            inv_vp,
            width: size.0,
            height: size.1,
            shadows: &[],
            reflection: None,
            refraction: None,
            mirror: None,
            soft: None,
            pack_normal: false,
            encode: false,
        }
    }
}

impl MaterialShader<'_> {
    /// Whether a mobile program ([`Shading`]) draws it: in the world's
    /// forward and transparent passes and the interface; a G-buffer or a
    /// reflection pass draws every material with its own.
    fn mobile(&self) -> bool {
        self.material.shading != Shading::Standard
            && matches!(
                self.mode,
                Mode::Forward | Mode::Transparent | Mode::Interface
            )
    }

    /// The mobile programs (`Program::Sprite`, `VertexLit`, `PixelLit`;
    /// `code.rs`), in gamma space as a GLES 2 game draws: the texel times
    /// the colour, the alpha test (discarding at once), then the light.
    /// The picture adds a material's emission to a sprite (the colour its
    /// vertices carry) and lights a vertex-lit one from its interpolated
    /// normal, which a GPU does per vertex; neither changes a request.
    fn shade_mobile(&self, frag: &mut Fragments<'_>, out: &mut crate::pipeline::FragmentOutput) {
        let m = self.material;
        let mut c = [m.base_color; 4];
        match self.texture {
            Some(t) => {
                let uv = frag.uv(3);
                let s = frag.sample(t, &self.samplers.material, &uv);
                for (ci, si) in c.iter_mut().zip(s) {
                    *ci = std::array::from_fn(|k| ci[k] * si[k]);
                }
            }
            None => frag.skip_request(),
        }
        if m.alpha == crate::scene::AlphaMode::Mask {
            let cut = (0..4)
                .filter(|&i| c[i][3] < 0.5)
                .fold(0u8, |acc, i| acc | 1 << i);
            out.kill |= frag.discard(cut);
        }
        let alpha = |i: usize| match self.mode {
            Mode::Forward => 1.0,
            _ => c[i][3],
        };
        if m.shading == Shading::Sprite {
            for (i, o) in out.color[0].iter_mut().enumerate() {
                *o = [
                    c[i][0] + m.emissive[0],
                    c[i][1] + m.emissive[1],
                    c[i][2] + m.emissive[2],
                    alpha(i),
                ];
            }
            return;
        }
        let flip = if frag.quad.front_facing { 1.0 } else { -1.0 };
        let normals: [Vec3; 4] = std::array::from_fn(|i| {
            let a = &frag.attrs[i];
            unit(mul3(&self.normal_m, [a[0], a[1], a[2]])) * flip
        });
        let shadow = if m.shading == Shading::PixelLit && !self.shadows.is_empty() {
            let px = frag.pixels();
            let world: [Vec3; 4] = std::array::from_fn(|i| {
                world_of(
                    &self.inv_vp,
                    px[i][0],
                    px[i][1],
                    frag.quad.depth[i],
                    self.width,
                    self.height,
                )
            });
            shadow_factor(frag, self.shadows, &world)
        } else {
            [1.0; 4]
        };
        for (i, o) in out.color[0].iter_mut().enumerate() {
            let lit = light(
                self.light,
                [c[i][0], c[i][1], c[i][2]],
                normals[i],
                shadow[i],
                m.emissive,
            );
            *o = [lit[0], lit[1], lit[2], alpha(i)];
        }
    }
}

/// The optional requests of a material shader's program (its
/// `Program::fragment_work` rows) past the albedo, which every one has:
/// those it skips where it makes none.
struct OptionalRequests {
    reflection: bool,
    scene_depth: bool,
}

impl MaterialShader<'_> {
    /// What its program's table row lists: the G-buffer, forward and
    /// transparent programs sample the reflection; the transparent and
    /// particle programs load the scene depth.
    fn requests(&self) -> OptionalRequests {
        let transparent = self.mode == Mode::Transparent;
        let particle = transparent && self.material.particle;
        OptionalRequests {
            reflection: matches!(self.mode, Mode::GBuffer | Mode::Forward)
                || (transparent && !particle),
            scene_depth: transparent,
        }
    }
}

impl crate::pipeline::FragmentShader for MaterialShader<'_> {
    fn discards(&self) -> bool {
        self.material.alpha == crate::scene::AlphaMode::Mask || self.mirror.is_some()
    }

    fn options(&self) -> Options {
        let lit = !matches!(
            self.mode,
            Mode::GBuffer | Mode::Reflection | Mode::Interface
        );
        Options::NONE
            .with(
                Opt::AlphaTest,
                self.material.alpha == crate::scene::AlphaMode::Mask,
            )
            .with(Opt::Encode, self.encode)
            .with(Opt::PackNormal, self.pack_normal)
            .with(Opt::Shadowed, lit && !self.shadows.is_empty())
            .with(Opt::Cascades, lit && self.shadows.len() > 1)
    }

    fn shade(&self, frag: &mut Fragments<'_>, out: &mut crate::pipeline::FragmentOutput) {
        if self.mobile() {
            return self.shade_mobile(frag, out);
        }
        let m = self.material;
        let mut base = [m.base_color; 4];
        if self.texture.is_none() {
            frag.skip_request();
        }
        if let Some(t) = self.texture {
            let uv = frag.uv(3);
            let s = frag.sample(t, &self.samplers.material, &uv);
            for (b, c) in base.iter_mut().zip(s) {
                *b = [
                    b[0] * linear(c[0]),
                    b[1] * linear(c[1]),
                    b[2] * linear(c[2]),
                    b[3] * c[3],
                ];
            }
        }
        if m.alpha == crate::scene::AlphaMode::Mask {
            for (i, b) in base.iter().enumerate() {
                if b[3] < 0.5 {
                    out.kill |= 1 << i;
                }
            }
        }
        if self.mode == Mode::Interface {
            for (o, b) in out.color[0].iter_mut().zip(base) {
                let mut c: [f32; 3] = std::array::from_fn(|k| b[k] + m.emissive[k]);
                if self.encode {
                    c = c.map(encode);
                }
                *o = [c[0], c[1], c[2], b[3]];
            }
            return;
        }
        let flip = if frag.quad.front_facing { 1.0 } else { -1.0 };
        let normals: [Vec3; 4] = std::array::from_fn(|i| {
            let a = &frag.attrs[i];
            unit(mul3(&self.normal_m, [a[0], a[1], a[2]])) * flip
        });
        let px = frag.pixels();
        let refl = match (self.reflection, m.reflective) {
            (Some(r), true) => {
                let uv = px.map(|[x, y]| {
                    [
                        (x as f32 + 0.5) / self.width as f32,
                        (y as f32 + 0.5) / self.height as f32,
                    ]
                });
                Some(frag.sample_view(TexView::Color(r), &self.samplers.screen, &uv))
            }
            _ => {
                if self.requests().reflection {
                    frag.skip_request();
                }
                None
            }
        };
        let albedo = |i: usize| {
            let k = if refl.is_some() {
                1.0 - REFLECTIVITY
            } else {
                1.0
            };
            [base[i][0] * k, base[i][1] * k, base[i][2] * k]
        };
        let extra = |i: usize| -> [f32; 3] {
            let r = refl.map_or([0.0; 4], |r| r[i]);
            std::array::from_fn(|c| m.emissive[c] + r[c] * REFLECTIVITY)
        };
        if self.mode == Mode::GBuffer {
            for (i, n) in normals.iter().enumerate() {
                let a = albedo(i);
                let e = extra(i);
                out.color[0][i] = [a[0], a[1], a[2], 1.0];
                out.color[1][i] = if self.pack_normal {
                    [n.x * 0.5 + 0.5, n.y * 0.5 + 0.5, n.z * 0.5 + 0.5, 0.0]
                } else {
                    [n.x, n.y, n.z, 0.0]
                };
                out.color[2][i] = [e[0], e[1], e[2], 0.0];
            }
            return;
        }
        let world: [Vec3; 4] = std::array::from_fn(|i| {
            world_of(
                &self.inv_vp,
                px[i][0],
                px[i][1],
                frag.quad.depth[i],
                self.width,
                self.height,
            )
        });
        let shadow = if self.mode == Mode::Reflection {
            [1.0; 4]
        } else {
            shadow_factor(frag, self.shadows, &world)
        };
        if let Some(h) = self.mirror {
            for (i, w) in world.iter().enumerate() {
                if w.y > h + 1e-3 {
                    out.kill |= 1 << i;
                }
            }
        }
        let fade = match &self.soft {
            Some(s) => s.fade(frag),
            None => {
                if self.requests().scene_depth {
                    frag.skip_request();
                }
                [1.0; 4]
            }
        };
        let behind = self.refraction.map(|t| {
            let uv: [[f32; 2]; 4] = std::array::from_fn(|i| {
                let [x, y] = px[i];
                [
                    (x as f32 + 0.5) / self.width as f32 + normals[i].x * REFRACTION_SHIFT,
                    (y as f32 + 0.5) / self.height as f32 - normals[i].y * REFRACTION_SHIFT,
                ]
            });
            frag.sample_view(TexView::Color(t), &self.samplers.screen, &uv)
        });
        for i in 0..4 {
            let mut c = light(self.light, albedo(i), normals[i], shadow[i], extra(i));
            let mut a = if self.mode == Mode::Transparent {
                base[i][3] * fade[i]
            } else {
                1.0
            };
            if let Some(b) = &behind {
                // The glass shows the displaced scene through its tint:
                // drawn opaque over what lies behind it.
                c = std::array::from_fn(|k| c[k] * a + b[i][k] * (1.0 - a));
                a = 1.0;
            }
            if self.encode {
                c = c.map(encode);
            }
            out.color[0][i] = [c[0], c[1], c[2], a];
        }
    }
}
