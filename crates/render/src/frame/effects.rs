//! The full-screen effects of the presets' frames: the sky, screen-space
//! ambient occlusion, separable blurs, copies, depth of field, camera
//! motion blur and FXAA. Each is one full-screen triangle into its pass's
//! first target, which it overwrites whole (a tile-based GPU loads
//! nothing), reading its inputs as textures: texel loads (`load`) where a
//! pixel reads its own texel, filtered samples where it reads between
//! texels or at another size.

use gfxcache_trace::RecordSink;

use crate::graph::{Axis, Role};
use crate::math::{Vec3, Vec4};
use crate::pipeline::{
    ColorId, DepthId, FragmentOutput, FragmentShader, Fragments, Opt, Options, Variant,
};
use crate::sampler::{Sampler, TexView};
use crate::state::{CompareFunc, StencilFace, StencilOp, StencilState};
use crate::target::{ColorTarget, DepthTarget};

use super::draws::Shading;
use super::shaders::{encode, world_of, Program};
use super::Samplers;
use super::{centres, fullscreen, screen_state, Counted, FrameRenderer, PassIo, View};

/// Constant slot of an effect's draws (after the bloom, luminance and
/// tone-mapping slots; the same effect reuses its constants).
fn slot_of(program: Program) -> u64 {
    52 + match program {
        Program::Sky => 0,
        Program::Ssao => 1,
        Program::Blur => 2,
        Program::Copy => 3,
        Program::DepthOfField => 4,
        Program::MotionBlur => 5,
        _ => 6,
    }
}

/// SSAO's depth and normal taps: exact reads, never filtered
/// ([`FilterOverride`](super::FilterOverride)).
fn point() -> Sampler {
    Samplers::exact()
}

/// One full-screen draw of `shader` over all of `target`.
fn overwrite<S: RecordSink>(
    r: &mut FrameRenderer<'_>,
    target: ColorId,
    shader: &dyn FragmentShader,
    shading: impl Into<Shading>,
    sink: &mut Counted<'_, S>,
) {
    let shading = shading.into();
    r.pipeline.discard_color(target);
    let slot = r.fullscreen_slot(slot_of(shading.program));
    fullscreen(
        &mut r.pipeline,
        &r.gpu,
        &[target],
        None,
        screen_state(),
        shader,
        shading,
        slot,
        sink,
    );
}

/// The size of colour target `id`.
fn size_of(r: &FrameRenderer<'_>, id: ColorId) -> (u32, u32) {
    let t = r.pipeline.color(id);
    (t.width(), t.height())
}

/// A pass's `source`, lent out of the pipeline.
fn lend_source(r: &mut FrameRenderer<'_>, io: &PassIo) -> (ColorId, ColorTarget) {
    let id = io.source();
    (id, r.lend_color(id))
}

/// A pass's scene depth, lent out of the pipeline.
fn lend_depth(r: &mut FrameRenderer<'_>, io: &PassIo) -> (DepthId, DepthTarget) {
    let id = io
        .depth_read(Role::Depth)
        .expect("checked graph: a depth read");
    (id, r.lend_depth(id))
}

/// View distance of viewport depth `d` for a camera's depth range.
fn linear_depth(d: f32, near: f32, far: f32) -> f32 {
    near * far / (far - d.clamp(0.0, 1.0) * (far - near)).max(1e-6)
}

/// Where the stencil marks no geometry: the sky, a vertical gradient from
/// the scene's sky colour at the top to a lighter horizon.
pub(super) fn sky<S: RecordSink>(
    r: &mut FrameRenderer<'_>,
    _v: &View,
    io: &PassIo,
    sink: &mut Counted<'_, S>,
) {
    let (target, depth) = (io.target(), io.depth.expect("checked graph: depth"));
    let (sky, h, enc) = (r.scene.sky, r.cfg.height as f32, io.encode);
    let shader = Variant(
        Options::NONE.with(Opt::Encode, enc),
        move |f: &mut Fragments<'_>, o: &mut FragmentOutput| {
            for (i, [_, y]) in f.pixels().into_iter().enumerate() {
                let k = 1.0 + 0.5 * (y as f32 / h);
                let c = sky.map(|s| if enc { encode(s * k) } else { s * k });
                o.color[0][i] = [c[0], c[1], c[2], 1.0];
            }
        },
    );
    let state = screen_state().with_stencil(StencilState::both(
        0,
        StencilFace::new(CompareFunc::Equal, StencilOp::Keep),
    ));
    let slot = r.fullscreen_slot(slot_of(Program::Sky));
    fullscreen(
        &mut r.pipeline,
        &r.gpu,
        &[target],
        Some(depth),
        state,
        &shader,
        Program::Sky,
        slot,
        sink,
    );
}

/// Radius of the occlusion kernel, in pixels of a 1080-line screen.
pub const SSAO_RADIUS_AT_1080P: f32 = 16.0;

/// Screen-space ambient occlusion: for each pixel, `taps` point samples of
/// the depth in a rotated disc around it (and its normal, when read); the
/// share of samples nearer the camera than the pixel by more than a small
/// bias, within range, darkens it.
pub(super) fn ssao<S: RecordSink>(
    r: &mut FrameRenderer<'_>,
    v: &View,
    io: &PassIo,
    taps: u32,
    sink: &mut Counted<'_, S>,
) {
    let target = io.target();
    let (w, h) = size_of(r, target);
    let (depth_id, depth) = lend_depth(r, io);
    let normal_id = io.color_read(Role::Normal);
    let normal = normal_id.map(|id| r.lend_color(id));
    let (near, far) = (v.camera.near, v.camera.far);
    let radius = SSAO_RADIUS_AT_1080P * r.cfg.height as f32 / 1080.0;
    let (sw, sh) = (r.cfg.width as f32, r.cfg.height as f32);
    let taps = taps.max(1);
    let shader = |f: &mut Fragments<'_>, o: &mut FragmentOutput| {
        let px = f.pixels();
        let uv = centres(&px, w, h);
        let centre = f.sample_view(TexView::Depth(&depth), &point(), &uv);
        match &normal {
            Some(n) => drop(f.sample_view(TexView::Color(n), &point(), &uv)),
            None => f.skip_request(),
        }
        let mut hidden = [0u32; 4];
        for k in 0..taps {
            // A spiral of taps, turned per pixel of a 4x4 pattern.
            let t = (k as f32 + 0.5) / taps as f32;
            let tap_uv: [[f32; 2]; 4] = std::array::from_fn(|i| {
                let turn =
                    ((px[i][0] & 3) * 4 + (px[i][1] & 3)) as f32 * std::f32::consts::FRAC_PI_8;
                let a = t * 12.566 + turn;
                let d = radius * t;
                [uv[i][0] + a.cos() * d / sw, uv[i][1] + a.sin() * d / sh]
            });
            let s = f.sample_view(TexView::Depth(&depth), &point(), &tap_uv);
            for i in 0..4 {
                let zc = linear_depth(centre[i][0], near, far);
                let zs = linear_depth(s[i][0], near, far);
                let gap = zc - zs;
                if gap > 0.02 * zc && gap < 0.5 * zc {
                    hidden[i] += 1;
                }
            }
        }
        for (out, n) in o.color[0].iter_mut().zip(hidden) {
            let ao = 1.0 - 0.8 * n as f32 / taps as f32;
            *out = [ao, 0.0, 0.0, 1.0];
        }
    };
    overwrite(r, target, &shader, Program::Ssao.with_taps(taps), sink);
    r.pipeline.replace_depth(depth_id, depth);
    if let (Some(id), Some(t)) = (normal_id, normal) {
        r.pipeline.replace_color(id, t);
    }
}

/// A separable Gaussian blur: `taps` bilinear samples of `source` along
/// `axis`, one source texel apart, weighted by a Gaussian of a third of
/// the kernel's width.
pub(super) fn blur<S: RecordSink>(
    r: &mut FrameRenderer<'_>,
    io: &PassIo,
    axis: Axis,
    taps: u32,
    sink: &mut Counted<'_, S>,
) {
    let target = io.target();
    let (w, h) = size_of(r, target);
    let (src_id, src) = lend_source(r, io);
    let (tw, th) = (1.0 / src.width() as f32, 1.0 / src.height() as f32);
    let taps = taps.max(1);
    let half = (taps - 1) as f32 / 2.0;
    let sigma = (taps as f32 / 3.0).max(0.5);
    let weights: Vec<f32> = (0..taps)
        .map(|k| (-(k as f32 - half).powi(2) / (2.0 * sigma * sigma)).exp())
        .collect();
    let total: f32 = weights.iter().sum();
    let screen = r.cfg.samplers().screen;
    let shader = |f: &mut Fragments<'_>, o: &mut FragmentOutput| {
        let uv = centres(&f.pixels(), w, h);
        let mut acc = [[0.0f32; 4]; 4];
        for (k, wk) in weights.iter().enumerate() {
            let d = k as f32 - half;
            let (dx, dy) = match axis {
                Axis::X => (d * tw, 0.0),
                Axis::Y => (0.0, d * th),
            };
            let at: [[f32; 2]; 4] = std::array::from_fn(|i| [uv[i][0] + dx, uv[i][1] + dy]);
            let s = f.sample_view(TexView::Color(&src), &screen, &at);
            for i in 0..4 {
                for c in 0..4 {
                    acc[i][c] += s[i][c] * wk / total;
                }
            }
        }
        o.color[0] = acc;
    };
    overwrite(r, target, &shader, Program::Blur.with_taps(taps), sink);
    r.pipeline.replace_color(src_id, src);
}

/// `source` resampled (bilinear) into the target.
pub(super) fn copy<S: RecordSink>(
    r: &mut FrameRenderer<'_>,
    io: &PassIo,
    sink: &mut Counted<'_, S>,
) {
    let target = io.target();
    let (w, h) = size_of(r, target);
    let (src_id, src) = lend_source(r, io);
    let screen = r.cfg.samplers().screen;
    let shader = |f: &mut Fragments<'_>, o: &mut FragmentOutput| {
        let uv = centres(&f.pixels(), w, h);
        o.color[0] = f.sample_view(TexView::Color(&src), &screen, &uv);
    };
    overwrite(r, target, &shader, Program::Copy, sink);
    r.pipeline.replace_color(src_id, src);
}

/// Largest circle of confusion, in pixels of a 1080-line screen.
pub const MAX_COC_AT_1080P: f32 = 12.0;

/// Gameplay depth of field (the far field only, as games blur the
/// background and keep the player's surroundings sharp): the circle of
/// confusion grows from nothing at the camera's target distance to its
/// largest at three times that distance; `taps` bilinear samples of
/// `source` on a ring of that radius plus the centre.
pub(super) fn depth_of_field<S: RecordSink>(
    r: &mut FrameRenderer<'_>,
    v: &View,
    io: &PassIo,
    taps: u32,
    sink: &mut Counted<'_, S>,
) {
    let target = io.target();
    let (w, h) = size_of(r, target);
    let (src_id, src) = lend_source(r, io);
    let (depth_id, depth) = lend_depth(r, io);
    let (near, far) = (v.camera.near, v.camera.far);
    let focus = (v.camera.target - v.camera.eye).length().max(near);
    let max_coc = MAX_COC_AT_1080P * r.cfg.height as f32 / 1080.0;
    let taps = taps.max(1);
    let screen = r.cfg.samplers().screen;
    let shader = |f: &mut Fragments<'_>, o: &mut FragmentOutput| {
        let px = f.pixels();
        let uv = centres(&px, w, h);
        let d = f.load(TexView::Depth(&depth), &px);
        let mut acc = f.sample_view(TexView::Color(&src), &screen, &uv);
        let coc: [f32; 4] = std::array::from_fn(|i| {
            let z = linear_depth(d[i][0], near, far);
            ((z - focus) / (2.0 * focus)).clamp(0.0, 1.0) * max_coc
        });
        for k in 0..taps {
            let a = k as f32 / taps as f32 * std::f32::consts::TAU;
            let at: [[f32; 2]; 4] = std::array::from_fn(|i| {
                [
                    uv[i][0] + a.cos() * coc[i] / w as f32,
                    uv[i][1] + a.sin() * coc[i] / h as f32,
                ]
            });
            let s = f.sample_view(TexView::Color(&src), &screen, &at);
            for i in 0..4 {
                for c in 0..4 {
                    acc[i][c] += s[i][c];
                }
            }
        }
        o.color[0] = acc.map(|c| c.map(|x| x / (taps + 1) as f32));
    };
    overwrite(
        r,
        target,
        &shader,
        Program::DepthOfField.with_taps(taps),
        sink,
    );
    r.pipeline.replace_color(src_id, src);
    r.pipeline.replace_depth(depth_id, depth);
}

/// Camera motion blur: each pixel's world position (from its depth) taken
/// to the last frame's screen gives its motion; `taps` bilinear samples of
/// `source` along it, centred on the pixel.
pub(super) fn motion_blur<S: RecordSink>(
    r: &mut FrameRenderer<'_>,
    v: &View,
    io: &PassIo,
    taps: u32,
    sink: &mut Counted<'_, S>,
) {
    let target = io.target();
    let (w, h) = size_of(r, target);
    let (src_id, src) = lend_source(r, io);
    let (depth_id, depth) = lend_depth(r, io);
    let (inv_vp, prev_vp) = (v.inv_vp, v.prev_vp);
    let taps = taps.max(1);
    let screen = r.cfg.samplers().screen;
    let shader = |f: &mut Fragments<'_>, o: &mut FragmentOutput| {
        let px = f.pixels();
        let uv = centres(&px, w, h);
        let d = f.load(TexView::Depth(&depth), &px);
        let motion: [[f32; 2]; 4] = std::array::from_fn(|i| {
            let p: Vec3 = world_of(&inv_vp, px[i][0], px[i][1], d[i][0], w, h);
            let c: Vec4 = prev_vp.transform_point(p);
            let iw = if c.w > 1e-6 { 1.0 / c.w } else { 0.0 };
            let prev = [c.x * iw * 0.5 + 0.5, 0.5 - c.y * iw * 0.5];
            let m = [uv[i][0] - prev[0], uv[i][1] - prev[1]];
            // At most a tenth of the screen: farther is a cut, not motion.
            let len = (m[0] * m[0] + m[1] * m[1]).sqrt();
            let k = if len > 0.1 { 0.1 / len } else { 1.0 };
            [m[0] * k, m[1] * k]
        });
        let mut acc = [[0.0f32; 4]; 4];
        for k in 0..taps {
            let t = if taps == 1 {
                0.0
            } else {
                k as f32 / (taps - 1) as f32 - 0.5
            };
            let at: [[f32; 2]; 4] =
                std::array::from_fn(|i| [uv[i][0] - motion[i][0] * t, uv[i][1] - motion[i][1] * t]);
            let s = f.sample_view(TexView::Color(&src), &screen, &at);
            for i in 0..4 {
                for c in 0..4 {
                    acc[i][c] += s[i][c] / taps as f32;
                }
            }
        }
        o.color[0] = acc;
    };
    overwrite(
        r,
        target,
        &shader,
        Program::MotionBlur.with_taps(taps),
        sink,
    );
    r.pipeline.replace_color(src_id, src);
    r.pipeline.replace_depth(depth_id, depth);
}

/// Luma of an encoded colour, FXAA's way (green weighs most).
fn luma(c: [f32; 4]) -> f32 {
    0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]
}

/// FXAA (after Lottes' FXAA 3.11 "quality" idea, reduced): the pixel and
/// its four neighbours are loaded; where their luma range says edge, two
/// bilinear samples along the edge are averaged in.
pub(super) fn fxaa<S: RecordSink>(
    r: &mut FrameRenderer<'_>,
    io: &PassIo,
    sink: &mut Counted<'_, S>,
) {
    let target = io.target();
    let (w, h) = size_of(r, target);
    let (src_id, src) = lend_source(r, io);
    let screen = r.cfg.samplers().screen;
    let shader = |f: &mut Fragments<'_>, o: &mut FragmentOutput| {
        let px = f.pixels();
        let at = |dx: i32, dy: i32| -> [[u32; 2]; 4] {
            px.map(|[x, y]| {
                [
                    x.saturating_add_signed(dx).min(w - 1),
                    y.saturating_add_signed(dy).min(h - 1),
                ]
            })
        };
        let m = f.load(TexView::Color(&src), &px);
        let n = f.load(TexView::Color(&src), &at(0, -1));
        let s = f.load(TexView::Color(&src), &at(0, 1));
        let e = f.load(TexView::Color(&src), &at(1, 0));
        let wv = f.load(TexView::Color(&src), &at(-1, 0));
        let uv = centres(&px, w, h);
        let mut edge = 0u8;
        let mut horizontal = [false; 4];
        for i in 0..4 {
            let l = [luma(m[i]), luma(n[i]), luma(s[i]), luma(e[i]), luma(wv[i])];
            let hi = l.iter().copied().fold(f32::MIN, f32::max);
            let lo = l.iter().copied().fold(f32::MAX, f32::min);
            if hi - lo >= (0.125 * hi).max(0.0312) {
                edge |= 1 << i;
                horizontal[i] =
                    (l[1] + l[2] - 2.0 * l[0]).abs() >= (l[3] + l[4] - 2.0 * l[0]).abs();
            }
        }
        o.color[0] = m;
        if edge == 0 {
            return;
        }
        let live = f.mask;
        f.mask &= edge;
        let along = |sign: f32| -> [[f32; 2]; 4] {
            std::array::from_fn(|i| {
                if horizontal[i] {
                    [uv[i][0] + sign * 1.5 / w as f32, uv[i][1]]
                } else {
                    [uv[i][0], uv[i][1] + sign * 1.5 / h as f32]
                }
            })
        };
        let a = f.sample_view(TexView::Color(&src), &screen, &along(-1.0));
        let b = f.sample_view(TexView::Color(&src), &screen, &along(1.0));
        f.mask = live;
        for i in 0..4 {
            if edge & (1 << i) != 0 {
                o.color[0][i] = std::array::from_fn(|c| (m[i][c] * 2.0 + a[i][c] + b[i][c]) / 4.0);
            }
        }
    };
    overwrite(r, target, &shader, Program::Fxaa, sink);
    r.pipeline.replace_color(src_id, src);
}
