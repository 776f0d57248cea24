//! How the passes submit draws: one by one in immediate mode, as one
//! render pass tile by tile, each with its shader's code and constants
//! fetched after its `DrawBegin`; the sinks that count a pass's accesses
//! and put those fetches in place.

use gfxcache_trace::binned::BinnedPass;
use gfxcache_trace::{Access, Marker, Record, RecordSink};

use crate::math::Mat4;
use crate::pipeline::{ColorId, DepthId, Draw, Pipeline};
use crate::raster::CullMode;
use crate::scene::{Material, Scene};
use crate::state::State;

use super::shaders::{self, Program, ShaderHeap};
use super::summary::StreamCounts;
use super::upload::GpuScene;
use super::FrameRenderer;

impl FrameRenderer<'_> {
    /// One draw with its shader fetches after its `DrawBegin`.
    pub(crate) fn draw<S: RecordSink>(
        pipeline: &mut Pipeline,
        heap: &ShaderHeap,
        draw: &Draw,
        program: Program,
        slot: u64,
        sink: &mut Counted<'_, S>,
    ) {
        let programs = [(program, slot)];
        let mut fetches = ShaderFetches {
            heap,
            programs: programs.iter(),
            sink,
        };
        pipeline.draw(draw, &mut fetches);
    }
}

/// The draws of one pass into the same targets, each with its shader
/// program and constant slot (`programs[k]` for `draws[k]`): in immediate
/// mode [`FrameRenderer::draw`] one after the other; in tile-based mode one
/// render pass ([`Pipeline::draw_tiled`]), each draw's shader fetches after
/// its `DrawBegin` in the geometry phase.
pub(crate) fn submit<S: RecordSink>(
    pipeline: &mut Pipeline,
    heap: &ShaderHeap,
    draws: &[Draw],
    programs: &[(Program, u64)],
    sink: &mut Counted<'_, S>,
) {
    debug_assert_eq!(draws.len(), programs.len());
    if pipeline.tbr().is_none() {
        for (d, &(program, slot)) in draws.iter().zip(programs) {
            FrameRenderer::draw(pipeline, heap, d, program, slot, sink);
        }
        return;
    }
    let mut fetches = ShaderFetches {
        heap,
        programs: programs.iter(),
        sink,
    };
    pipeline.draw_tiled(draws, &mut fetches);
}

/// Where a pass draws its scene instances, and with what state.
pub(crate) struct InstancePass<'a, 'f> {
    pub vp: Mat4,
    pub color: &'a [ColorId],
    pub depth: Option<DepthId>,
    /// The program of an instance's draw, from its material.
    pub program: &'f dyn Fn(&Material) -> Program,
    /// The fixed-function state of an instance's draw, from its material.
    pub state: &'f dyn Fn(&Material) -> State,
}

/// [`submit`]s one draw per scene instance of `instances` (each with its
/// index as its constant slot) with `shaders[k]` for `instances[k]`: the
/// draws of the main, transparent and reflection passes.
pub(crate) fn submit_instances<S: RecordSink>(
    pipeline: &mut Pipeline,
    gpu: &GpuScene,
    scene: &Scene,
    instances: &[usize],
    shaders: &[shaders::MaterialShader<'_>],
    pass: InstancePass<'_, '_>,
    sink: &mut Counted<'_, S>,
) {
    let (draws, programs) = instance_draws(gpu, scene, instances, shaders, &pass);
    submit(pipeline, &gpu.heap, &draws, &programs, sink);
}

/// The draws [`submit_instances`] submits, and their programs and
/// constant slots.
pub(crate) fn instance_draws<'a>(
    gpu: &'a GpuScene,
    scene: &Scene,
    instances: &[usize],
    shaders: &'a [shaders::MaterialShader<'_>],
    pass: &InstancePass<'a, '_>,
) -> (Vec<Draw<'a>>, Vec<(Program, u64)>) {
    debug_assert_eq!(instances.len(), shaders.len());
    let programs: Vec<(Program, u64)> = shaders
        .iter()
        .zip(instances)
        .map(|(s, &i)| ((pass.program)(s.material), i as u64))
        .collect();
    let draws = instances
        .iter()
        .zip(shaders)
        .zip(&programs)
        .map(|((&i, shader), &(program, _))| {
            let inst = &scene.instances[i];
            let mesh = &gpu.meshes[inst.mesh];
            Draw {
                indices: &mesh.indices,
                vertices: &mesh.vertices,
                mvp: pass.vp * inst.transform,
                state: (pass.state)(shader.material),
                color: pass.color,
                depth: pass.depth,
                shader,
                attributes: program.attributes(),
                work: program.work(0),
            }
        })
        .collect();
    (draws, programs)
}

/// A sink that counts what goes through it.
pub(crate) struct Counted<'a, S: RecordSink> {
    sink: &'a mut S,
    pub counts: StreamCounts,
}

impl<'a, S: RecordSink> Counted<'a, S> {
    pub fn new(sink: &'a mut S) -> Self {
        Counted {
            sink,
            counts: StreamCounts::default(),
        }
    }
}

impl<S: RecordSink> RecordSink for Counted<'_, S> {
    #[inline]
    fn record(&mut self, r: Record) {
        if let Record::Access(a) = &r {
            self.counts.add(a);
        }
        self.sink.record(r)
    }

    #[inline]
    fn accesses(&mut self, accesses: &[Access]) {
        self.counts.add_all(accesses);
        self.sink.accesses(accesses)
    }

    fn binned(&mut self, pass: &BinnedPass) {
        self.sink.binned(pass)
    }
}

/// A sink that puts each draw's shader fetches right after its
/// `DrawBegin`: the next of `programs` for each.
struct ShaderFetches<'a, 'p, S: RecordSink, P: Iterator<Item = &'p (Program, u64)>> {
    heap: &'a ShaderHeap,
    programs: P,
    sink: &'a mut S,
}

impl<'p, S: RecordSink, P: Iterator<Item = &'p (Program, u64)>> RecordSink
    for ShaderFetches<'_, 'p, S, P>
{
    #[inline]
    fn record(&mut self, r: Record) {
        let begin = matches!(r, Record::Marker(Marker::DrawBegin { .. }));
        self.sink.record(r);
        if begin {
            if let Some(&(program, slot)) = self.programs.next() {
                self.heap.fetch(program, slot, self.sink);
            }
        }
    }

    /// Accesses are no `DrawBegin`: straight through.
    #[inline]
    fn accesses(&mut self, accesses: &[Access]) {
        self.sink.accesses(accesses)
    }

    fn binned(&mut self, pass: &BinnedPass) {
        self.sink.binned(pass)
    }
}

/// One full-screen triangle into `color` (and `depth`, for its stencil).
#[allow(clippy::too_many_arguments)]
pub(crate) fn fullscreen<S: RecordSink>(
    pipeline: &mut Pipeline,
    gpu: &GpuScene,
    color: &[ColorId],
    depth: Option<DepthId>,
    state: State,
    shader: &dyn crate::pipeline::FragmentShader,
    shading: impl Into<Shading>,
    slot: u64,
    sink: &mut Counted<'_, S>,
) {
    let Shading { program, taps } = shading.into();
    let draw = Draw {
        indices: &gpu.fullscreen_ib,
        vertices: &gpu.fullscreen_vb,
        mvp: Mat4::IDENTITY,
        state,
        color,
        depth,
        shader,
        attributes: program.attributes(),
        work: program.work(taps),
    };
    FrameRenderer::draw(pipeline, &gpu.heap, &draw, program, slot, sink);
}

/// A full-screen draw's program and the taps of its pass's loop.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shading {
    pub program: Program,
    pub taps: u32,
}

impl From<Program> for Shading {
    fn from(program: Program) -> Shading {
        Shading { program, taps: 0 }
    }
}

impl Program {
    /// This program with `taps` taps in its loop.
    pub(crate) fn with_taps(self, taps: u32) -> Shading {
        Shading {
            program: self,
            taps,
        }
    }
}

/// The state of full-screen passes: no depth test, no culling.
pub(crate) fn screen_state() -> State {
    State {
        depth: crate::state::DepthState::DISABLED,
        cull: CullMode::None,
        ..State::default()
    }
}

/// Normalized coordinates of the centres of a quad's pixels on a `w` x `h`
/// target.
pub(crate) fn centres(px: &[[u32; 2]; 4], w: u32, h: u32) -> [[f32; 2]; 4] {
    px.map(|[x, y]| [(x as f32 + 0.5) / w as f32, (y as f32 + 0.5) / h as f32])
}
