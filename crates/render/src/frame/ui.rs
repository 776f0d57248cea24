//! The interface the presets draw last, alpha-blended onto the display
//! without depth: the scene's own ([`crate::scene::Material::interface`]
//! instances, unlit, in scene order, one draw each) when it has one, else
//! a generic HUD of textured quads from one UI atlas in one draw (engines
//! batch their UI). The HUD's layout is a game's usual one: a minimap at
//! the top right, health and energy bars at the top left, a row of
//! ability icons at the bottom centre, and the rest as glyphs of text
//! lines (a score, a chat log).
//!
//! The atlas is 512² RGBA8 (UI atlases stay uncompressed for crisp edges),
//! generated: a 16x16 grid of blocky glyphs, icons, bars and a minimap.
//! Its texels are sRGB values blended as they are, as a UI in gamma space
//! is.

use gfxcache_trace::RecordSink;

use crate::buffers::{IndexBuffer, IndexFormat, Vertex, VertexBuffer};
use crate::math::Vec3;
use crate::pipeline::{FragmentOutput, Fragments};
use crate::sampler::{Sampler, TexView};
use crate::scene::builtin::noise::hash;
use crate::state::Blend;
use crate::surface::Allocator;
use crate::texture::{TexFormat, Texture};

use super::shaders::{MaterialShader, Mode, Program};
use super::{material_state, screen_state, submit_instances, Counted, FrameRenderer};
use super::{InstancePass, PassIo, View};
use crate::math::Mat4;
use crate::pipeline::{ColorId, DepthId, Draw};
use crate::scene::{Material, Scene};

use super::upload::GpuScene;
use super::FrameConfig;
use crate::state::{DepthState, State};

/// Side of the UI atlas.
pub const ATLAS: u32 = 512;

/// The HUD's geometry and atlas on the GPU.
pub struct Hud {
    pub vertices: VertexBuffer,
    pub indices: IndexBuffer,
    pub atlas: Texture,
    /// Quads asked for (the layout's, even if it could place fewer).
    pub quads: u32,
}

/// An axis-aligned quad: screen rectangle (x0, y0, x1, y1) in normalized
/// device coordinates, atlas rectangle (u0, v0, u1, v1).
type UiQuad = ([f32; 4], [f32; 4]);

/// The layout of `n` quads on a screen of aspect `aspect`.
fn layout(n: u32, aspect: f32) -> Vec<UiQuad> {
    let cell = 1.0 / 16.0;
    let glyph = |k: u32| {
        let g = hash(k, 7, 0x0415) % 96;
        let (gx, gy) = ((g % 16) as f32 * cell * 0.5, (g / 16) as f32 * cell * 0.5);
        [gx, gy, gx + cell * 0.5, gy + cell * 0.5]
    };
    let sq = |h: f32| h / aspect;
    let mut q: Vec<UiQuad> = Vec::new();
    // Minimap, two bars, eight icons.
    q.push((
        [1.0 - 0.05 - sq(0.5), 0.45, 0.95 - 0.0, 0.95],
        [0.0, 0.5, 0.5, 1.0],
    ));
    q.push(([-0.95, 0.85, -0.45, 0.9], [0.5, 0.5, 1.0, 0.53]));
    q.push(([-0.95, 0.78, -0.55, 0.83], [0.5, 0.56, 1.0, 0.59]));
    for k in 0..8 {
        let x = -0.4 + k as f32 * (sq(0.12) + 0.01);
        let u = 0.5 + (k % 4) as f32 * 0.125;
        let v = (k / 4) as f32 * 0.125;
        q.push((
            [x, -0.95, x + sq(0.12), -0.83],
            [u, v, u + 0.125, v + 0.125],
        ));
    }
    // Text lines under the bars and at the bottom left.
    let (gw, gh) = (sq(0.05), 0.05);
    let mut k = 0;
    while q.len() < n as usize {
        let line = k / 24;
        let col = k % 24;
        let y = if line % 2 == 0 {
            0.7 - (line / 2) as f32 * gh * 1.3
        } else {
            -0.6 - (line / 2) as f32 * gh * 1.3
        };
        let x = -0.95 + col as f32 * gw * 0.9;
        q.push(([x, y, x + gw, y + gh], glyph(k)));
        k += 1;
    }
    q.truncate(n as usize);
    q
}

/// The atlas texels: glyphs top left, icons top right, a minimap bottom
/// left, bars bottom right; transparent between glyph strokes.
fn atlas() -> Vec<[u8; 4]> {
    let mut t = vec![[0u8; 4]; (ATLAS * ATLAS) as usize];
    for y in 0..ATLAS {
        for x in 0..ATLAS {
            let (u, v) = (x as f32 / ATLAS as f32, y as f32 / ATLAS as f32);
            let c = if u < 0.5 && v < 0.5 {
                // 16 px glyph cells of 4x4 blocks, set by a hash.
                let (cx, cy) = (x / 16, y / 16);
                let (bx, by) = ((x % 16) / 4, (y % 16) / 4);
                let on =
                    bx < 3 && by < 4 && !hash(cx * 4 + bx, cy * 4 + by, 0x0417).is_multiple_of(3);
                if on {
                    [235, 235, 225, 255]
                } else {
                    [0, 0, 0, 0]
                }
            } else if v < 0.5 {
                // Round icons of varied colours.
                let (cx, cy) = ((x - 256) / 64, y / 64);
                let (dx, dy) = ((x % 64) as f32 - 31.5, (y % 64) as f32 - 31.5);
                let h = hash(cx, cy, 0x0419);
                let inside = dx * dx + dy * dy < 28.0 * 28.0;
                let rim = dx * dx + dy * dy > 24.0 * 24.0;
                match (inside, rim) {
                    (true, true) => [220, 200, 120, 255],
                    (true, false) => [(h & 0xff) as u8, (h >> 8 & 0xff) as u8, 160, 230],
                    _ => [0, 0, 0, 0],
                }
            } else if u < 0.5 {
                // The minimap: terrain-like blotches, a dark frame.
                let border = x < 4 || y < 260 || x > 251 || y > 507;
                let g = (hash(x / 8, y / 8, 0x041b) & 0x3f) as u8;
                if border {
                    [20, 20, 20, 255]
                } else {
                    [40 + g, 90 + g, 50, 200]
                }
            } else {
                // Bars: red and blue gradients.
                let t = ((x - 256) * 255 / 256) as u8;
                if v < 0.54 {
                    [200, t / 4, 30, 240]
                } else {
                    [30, t / 3, 210, 240]
                }
            };
            t[(y * ATLAS + x) as usize] = c;
        }
    }
    t
}

impl Hud {
    /// The geometry of `quads` quads for a `width` x `height` screen and
    /// the atlas, at addresses from `alloc`.
    pub fn upload(quads: u32, width: u32, height: u32, alloc: &mut Allocator) -> Hud {
        let aspect = width as f32 / height.max(1) as f32;
        let q = layout(quads, aspect);
        let mut verts = Vec::with_capacity(q.len() * 4);
        let mut idx = Vec::with_capacity(q.len() * 6);
        for (k, ([x0, y0, x1, y1], [u0, v0, u1, v1])) in q.iter().enumerate() {
            let b = 4 * k as u32;
            for (x, y, u, v) in [
                (*x0, *y0, *u0, *v1),
                (*x1, *y0, *u1, *v1),
                (*x1, *y1, *u1, *v0),
                (*x0, *y1, *u0, *v0),
            ] {
                verts.push(Vertex::new(Vec3::new(x, y, 0.0), &[u, v]));
            }
            idx.extend_from_slice(&[b, b + 1, b + 2, b, b + 2, b + 3]);
        }
        Hud {
            vertices: VertexBuffer::new(verts, 2, alloc),
            indices: IndexBuffer::new(idx, IndexFormat::U16, alloc),
            atlas: Texture::new(ATLAS, ATLAS, TexFormat::Rgba8, atlas(), alloc),
            quads,
        }
    }
}

/// Constant slot of the HUD's draw.
const UI_SLOT: u64 = 60;

/// The HUD's shader: the atlas, bilinear as authored.
pub(super) struct HudShader<'a> {
    atlas: &'a Texture,
    sampler: Sampler,
}

impl crate::pipeline::FragmentShader for HudShader<'_> {
    fn shade(&self, f: &mut Fragments<'_>, o: &mut FragmentOutput) {
        let uv = f.uv(0);
        o.color[0] = f.sample_view(TexView::Texture(self.atlas), &self.sampler, &uv);
    }
}

impl Hud {
    /// The uploaded HUD of `quads` quads, if the frame has one.
    pub(super) fn of(gpu: &GpuScene, quads: u32) -> Option<&Hud> {
        gpu.huds.iter().find(|h| h.quads == quads)
    }

    /// Its shader, reading the atlas with `sampler` (the frame's
    /// [`Samplers::screen`](super::Samplers::screen)).
    pub(super) fn shader(&self, sampler: Sampler) -> HudShader<'_> {
        HudShader {
            atlas: &self.atlas,
            sampler,
        }
    }

    /// The HUD's one draw into `color` (with `depth` bound but neither
    /// tested nor written), and its program and constant slot.
    pub(super) fn draw<'a>(
        &'a self,
        shader: &'a HudShader<'a>,
        color: &'a [ColorId],
        depth: Option<DepthId>,
    ) -> Draw<'a> {
        Draw {
            indices: &self.indices,
            vertices: &self.vertices,
            mvp: Mat4::IDENTITY,
            state: screen_state().with_blend(Blend::Alpha),
            color,
            depth,
            shader,
            attributes: Program::Ui.attributes(),
            work: Program::Ui.work(0),
        }
    }
}

/// The program and constant slot of the HUD's draw.
pub(super) fn hud_program(r: &FrameRenderer<'_>) -> (Program, u64) {
    (Program::Ui, r.fullscreen_slot(UI_SLOT))
}

/// The shader of interface instance `inst`: unlit, gamma-encoded when the
/// pass draws into the display.
pub(super) fn interface_shader<'a>(
    scene: &'a Scene,
    gpu: &'a GpuScene,
    cfg: &'a FrameConfig,
    v: &View,
    io: &PassIo,
    inst: usize,
) -> MaterialShader<'a> {
    MaterialShader {
        encode: io.encode,
        ..MaterialShader::for_instance(
            Mode::Interface,
            scene,
            gpu,
            cfg.samplers(),
            &scene.instances[inst],
            v.inv_vp,
            (cfg.width, cfg.height),
        )
    }
}

/// The fixed-function state of an interface draw: blended over what is
/// there, depth neither tested nor written.
pub(super) fn interface_state(m: &Material) -> State {
    State {
        depth: DepthState::DISABLED,
        ..material_state(m, false)
    }
    .with_blend(Blend::Alpha)
}

/// The scene's interface, or else the first `quads` quads of the HUD,
/// blended onto the pass's target.
pub(super) fn run<S: RecordSink>(
    r: &mut FrameRenderer<'_>,
    v: &View,
    io: &PassIo,
    quads: u32,
    sink: &mut Counted<'_, S>,
) {
    let target = [io.target()];
    if v.interface.is_empty() {
        let (program, slot) = hud_program(r);
        let Some(hud) = Hud::of(&r.gpu, quads) else {
            return;
        };
        let shader = hud.shader(r.cfg.samplers().screen);
        let draw = hud.draw(&shader, &target, None);
        FrameRenderer::draw(&mut r.pipeline, &r.gpu.heap, &draw, program, slot, sink);
        return;
    }
    let shaders: Vec<MaterialShader> = v
        .interface
        .iter()
        .map(|&i| interface_shader(r.scene, &r.gpu, &r.cfg, v, io, i))
        .collect();
    submit_instances(
        &mut r.pipeline,
        &r.gpu,
        r.scene,
        &v.interface,
        &shaders,
        InstancePass {
            vp: v.vp,
            color: &target,
            depth: None,
            program: &|m| Program::for_material(m, Program::Ui),
            state: &interface_state,
        },
        sink,
    );
}
