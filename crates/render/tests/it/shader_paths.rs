//! The work each fragment is charged is its program's path as its shader
//! runs it (`pipeline/work.rs`): on a hand-built program and shader, a
//! skipped optional request costs nothing, a discarded pixel stops, an
//! option adds its block only where the draw has it, a loop runs once per
//! tap; in the pipeline's program tallies and, tile by tile, in the
//! texture request record.

use std::sync::{Arc, Mutex};

use gfxcache_render::pipeline::{
    tcor_attributes, Opt, Options, ShaderCode, ShaderWork, Step, When,
};
use gfxcache_render::{
    Allocator, ColorFormat, ColorTarget, Draw, Filter, FragmentOutput, FragmentShader, Fragments,
    IndexBuffer, IndexFormat, Mat4, Pipeline, Sampler, State, TbrConfig, TexFormat, TexView,
    Texture, Vec3, Vertex, VertexBuffer,
};
use gfxcache_trace::texreq::{TexReqRecord, TexReqSink};
use gfxcache_trace::{ShaderOps, TraceError};

const A: ShaderOps = ShaderOps::alu(4, 1);
const B: ShaderOps = ShaderOps::alu(3, 2);
const C: ShaderOps = ShaderOps::alu(1, 1).plus(ShaderOps::branch(1));
const D: ShaderOps = ShaderOps::special(2);
const E: ShaderOps = ShaderOps::alu(2, 1);
const TAP: ShaderOps = ShaderOps::alu(2, 3);

/// A, then (where the shader samples) a sample and B, then C and a
/// discard, then D, then E in the draws with `Encode`, then a loop of a
/// load and TAP per tap.
static CODE: ShaderCode = ShaderCode {
    name: "hand-built",
    steps: &[
        Step::Ops(A),
        Step::If {
            when: When::Requested,
            len: 2,
        },
        Step::Sample,
        Step::Ops(B),
        Step::Ops(C),
        Step::Discard,
        Step::Ops(D),
        Step::If {
            when: When::Option(Opt::Encode),
            len: 1,
        },
        Step::Ops(E),
        Step::Loop { len: 2 },
        Step::Load,
        Step::Ops(TAP),
    ],
};

/// Samples where x is even (skips elsewhere), discards where y is even,
/// then loads `taps` texels.
struct HandShader<'a> {
    texture: &'a Texture,
    taps: u32,
    options: Options,
}

impl FragmentShader for HandShader<'_> {
    fn shade(&self, f: &mut Fragments<'_>, o: &mut FragmentOutput) {
        let px = f.pixels();
        let even_x: u8 = (0..4)
            .filter(|&i| px[i][0].is_multiple_of(2))
            .map(|i| 1 << i)
            .sum();
        let even_y: u8 = (0..4)
            .filter(|&i| px[i][1].is_multiple_of(2))
            .map(|i| 1 << i)
            .sum();
        let live = f.mask;
        f.mask = live & !even_x;
        if f.mask != 0 {
            f.skip_request();
        }
        f.mask = live & even_x;
        if f.mask != 0 {
            let uv = f.uv(0);
            f.sample(self.texture, &Sampler::new(Filter::Point), &uv);
        }
        f.mask = live;
        o.kill = f.discard(even_y);
        for _ in 0..self.taps {
            f.load(TexView::Texture(self.texture), &px);
        }
    }
    fn discards(&self) -> bool {
        true
    }
    fn options(&self) -> Options {
        self.options
    }
}

/// What pixel (x, y) runs, by the program.
fn expected(x: u32, y: u32, taps: u32, encode: bool) -> ShaderOps {
    let mut o = A;
    if x.is_multiple_of(2) {
        o += B;
    }
    o += C;
    if y.is_multiple_of(2) {
        return o;
    }
    o += D;
    if encode {
        o += E;
    }
    o + TAP.times(taps)
}

#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<TexReqRecord>>>);

impl TexReqSink for Shared {
    fn records(&mut self, records: &[TexReqRecord]) {
        self.0.lock().unwrap().extend_from_slice(records);
    }
    fn finish(self: Box<Self>) -> Result<(), TraceError> {
        Ok(())
    }
}

const W: u32 = 16;
const H: u32 = 8;

/// One full-screen draw of the hand-built program; the pipeline's tally
/// and (tile by tile) the request record.
fn run(
    taps: u32,
    options: Options,
    tiled: bool,
) -> (gfxcache_render::pipeline::Stats, Vec<TexReqRecord>) {
    let mut alloc = Allocator::default();
    let mut p = Pipeline::new();
    let rt = p.add_color(ColorTarget::new(W, H, ColorFormat::Rgba8, &mut alloc));
    let texture = Texture::new(8, 8, TexFormat::Rgba8, vec![[9; 4]; 64], &mut alloc);
    let pts = [(-1.0, -1.0), (3.0, -1.0), (-1.0, 3.0)];
    let verts = pts
        .iter()
        .map(|&(x, y)| Vertex::new(Vec3::new(x, y, 0.5), &[0.25, 0.75]))
        .collect();
    let ib = IndexBuffer::new(vec![0, 1, 2], IndexFormat::U16, &mut alloc);
    let vb = VertexBuffer::new(verts, 2, &mut alloc);
    let shared = Shared::default();
    if tiled {
        p.set_tbr(Some(TbrConfig {
            fps: 2,
            ..TbrConfig::default()
        }));
        p.set_texture_requests(Some(Box::new(shared.clone())));
    }
    let shader = HandShader {
        texture: &texture,
        taps,
        options,
    };
    let color = [rt];
    let draw = Draw {
        indices: &ib,
        vertices: &vb,
        mvp: Mat4::IDENTITY,
        state: State {
            cull: gfxcache_render::CullMode::None,
            depth: gfxcache_render::DepthState::DISABLED,
            ..State::default()
        },
        color: &color,
        depth: None,
        shader: &shader,
        attributes: tcor_attributes(2),
        work: ShaderWork { code: &CODE, taps },
    };
    p.begin_pass("hand", gfxcache_trace::PassKind::Other, &mut |_| {});
    p.draw(&draw, &mut |_| {});
    p.end_pass(&mut |_| {});
    let stats = p.stats().clone();
    drop(p);
    let records = std::mem::take(&mut *shared.0.lock().unwrap());
    (stats, records)
}

#[test]
fn the_tally_is_each_pixels_path() {
    assert_eq!(CODE.check(), Ok(()));
    for (taps, encode) in [(0, false), (3, false), (2, true)] {
        let options = Options::NONE.with(Opt::Encode, encode);
        let (stats, _) = run(taps, options, false);
        let t = &stats.programs.programs;
        assert_eq!(t.len(), 1);
        let t = t[0];
        assert_eq!(t.program, "hand-built");
        assert_eq!(t.fragments, u64::from(W * H));
        assert_eq!(t.off_program, 0);
        let mut want = gfxcache_trace::OpCounts::default();
        let mut requests = 0;
        for y in 0..H {
            for x in 0..W {
                want.add(&expected(x, y, taps, encode), 1);
                requests += u64::from(x % 2 == 0);
                if y % 2 == 1 {
                    requests += u64::from(taps);
                }
            }
        }
        assert_eq!(t.ops, want, "{taps} taps, encode {encode}");
        assert_eq!(t.requests, requests);
    }
}

#[test]
fn each_request_carries_the_work_since_the_last_and_a_discard_stops_the_fragment() {
    let taps = 2;
    let (stats, records) = run(taps, Options::NONE, true);
    assert_eq!(stats.programs.total().off_program, 0);
    let mut seen = 0;
    let mut open: std::collections::BTreeMap<(u16, u16), (ShaderOps, Vec<ShaderOps>)> =
        Default::default();
    for r in &records {
        match *r {
            TexReqRecord::Request(q) => {
                let e = open.entry((q.x, q.y)).or_default();
                e.1.push(q.ops);
            }
            TexReqRecord::FragmentEnd { x, y, ops, .. } => {
                let (_, requests) = open.remove(&(x, y)).unwrap_or_default();
                let (x32, y32) = (u32::from(x), u32::from(y));
                let mut want = Vec::new();
                if x32 % 2 == 0 {
                    // The sample carries A; its block's B is after it.
                    want.push(A);
                }
                if y32 % 2 == 1 {
                    // The first load carries what ran since: B if sampled,
                    // C, D; each later load the previous tap's work.
                    let mut first = C + D;
                    if x32 % 2 == 0 {
                        first += B;
                    } else {
                        first += A;
                    }
                    want.push(first);
                    want.extend(std::iter::repeat_n(TAP, taps as usize - 1));
                }
                assert_eq!(requests, want, "pixel ({x}, {y})");
                let tail = if y32 % 2 == 1 {
                    TAP
                } else if x32 % 2 == 0 {
                    // Discarded after its sample: B and C, nothing more.
                    B + C
                } else {
                    A + C
                };
                assert_eq!(ops, tail, "pixel ({x}, {y}) after its last request");
                let sum = requests.iter().fold(ops, |s, &o| s + o);
                assert_eq!(sum, expected(x32, y32, taps, false));
                seen += 1;
            }
            _ => {}
        }
    }
    assert_eq!(seen, W * H);
}
