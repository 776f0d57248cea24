//! Where each pixel of a quad is in its draw's program as the shader runs
//! ([`QuadPath`]), what it ran since its last request, and the texture
//! request record made of that (`.gtq`, [`gfxcache_trace::texreq`]).
//!
//! Each pixel walks its draw's [`ShaderCode`] (`work.rs` says what runs
//! when) lazily: a request the shader makes takes the pixel to the
//! program's next request step, charging the operations of every step it
//! passes on its path; a skipped request takes it past its block; a
//! discard takes it to the program's next discard and stops it; the end of
//! the shader takes it to the end of the program. A request carries the
//! operations since the pixel's previous one, and the pixel's
//! [`TexReqRecord::FragmentEnd`] those after its last. Where the shader
//! and its program disagree (a request the program does not have at that
//! point, or a request of the program the shader passed without making
//! it), the quad counts it ([`ProgramTally::off_program`]) and goes on.

use gfxcache_trace::texreq::{FilterKind, TexReqRecord, TexRequest, MAX_TAPS};
use gfxcache_trace::{OpCounts, ShaderOps};

use crate::raster::Quad;

use super::work::{Options, ProgramTallies, ShaderWork, Step, When};

/// What a pixel is heading for in its program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    /// The request the shader makes (a sample, or a load).
    Request { load: bool },
    /// Past the next optional request's block.
    Skip,
    /// The next discard.
    Discard,
    /// The program's end.
    End,
}

const NO_LOOP: u16 = u16::MAX;

/// One quad's pixels in their draw's program, and the record of its
/// requests when one is kept.
pub(super) struct QuadPath<'a> {
    steps: &'static [Step],
    program: &'static str,
    taps: u32,
    options: Options,
    /// Per pixel: its next step, the loop it is in and the tap it is on.
    pos: [u16; 4],
    loop_at: [u16; 4],
    tap: [u32; 4],
    /// Per pixel: operations since its last request, requests made.
    pending: [ShaderOps; 4],
    made: [u8; 4],
    /// Pixels discarded (stopped).
    stopped: u8,
    /// The quad's requests, off-program requests and operations.
    requests: u64,
    off_program: u64,
    ops: OpCounts,
    /// The request record, when kept.
    out: Option<&'a mut Vec<TexReqRecord>>,
    fp: u16,
    pixels: [[u16; 2]; 4],
}

impl<'a> QuadPath<'a> {
    pub(super) fn new(
        work: ShaderWork,
        options: Options,
        out: Option<&'a mut Vec<TexReqRecord>>,
        fp: u16,
        quad: &Quad,
    ) -> QuadPath<'a> {
        QuadPath {
            steps: work.code.steps,
            program: work.code.name,
            taps: work.taps,
            options,
            pos: [0; 4],
            loop_at: [NO_LOOP; 4],
            tap: [0; 4],
            pending: [ShaderOps::NONE; 4],
            made: [0; 4],
            stopped: 0,
            requests: 0,
            off_program: 0,
            ops: OpCounts::default(),
            out,
            fp,
            pixels: std::array::from_fn(|i| {
                let (x, y) = quad.pixel(i);
                [x as u16, y as u16]
            }),
        }
    }

    /// Whether the quad's requests are recorded.
    pub(super) fn records(&self) -> bool {
        self.out.is_some()
    }

    /// Takes pixel `i` towards `target`, charging what it passes; whether
    /// it got there.
    fn advance(&mut self, i: usize, target: Target) -> bool {
        let steps = self.steps;
        let mut pos = self.pos[i] as usize;
        let found = loop {
            if self.loop_at[i] != NO_LOOP {
                let at = self.loop_at[i] as usize;
                let Step::Loop { len } = steps[at] else {
                    unreachable!("loop_at names a loop")
                };
                if pos == at + 1 + len as usize {
                    self.tap[i] += 1;
                    if self.tap[i] < self.taps {
                        pos = at + 1;
                    } else {
                        self.loop_at[i] = NO_LOOP;
                    }
                    continue;
                }
            }
            let Some(&step) = steps.get(pos) else {
                break false;
            };
            match step {
                Step::Ops(o) => {
                    self.pending[i] += o;
                    pos += 1;
                }
                Step::Sample | Step::Load => match target {
                    Target::Request { load } => {
                        if load != (step == Step::Load) {
                            self.off_program += 1;
                        }
                        pos += 1;
                        break true;
                    }
                    Target::End => {
                        // A request of the program the shader never made.
                        self.off_program += 1;
                        pos += 1;
                    }
                    Target::Skip | Target::Discard => break false,
                },
                Step::If { when, len } => {
                    let taken = match when {
                        When::Option(o) => self.options.has(o),
                        When::Requested => match target {
                            Target::Request { .. } => true,
                            Target::Skip => {
                                pos += 1 + len as usize;
                                break true;
                            }
                            Target::End | Target::Discard => false,
                        },
                    };
                    pos += if taken { 1 } else { 1 + len as usize };
                }
                Step::Loop { len } => {
                    if self.taps == 0 {
                        pos += 1 + len as usize;
                    } else {
                        self.loop_at[i] = pos as u16;
                        self.tap[i] = 0;
                        pos += 1;
                    }
                }
                Step::Discard => {
                    pos += 1;
                    if target == Target::Discard {
                        break true;
                    }
                }
            }
        };
        self.pos[i] = pos as u16;
        found
    }

    /// Pixel `i`'s operations since its last request, handed over.
    fn take(&mut self, i: usize) -> ShaderOps {
        let o = std::mem::take(&mut self.pending[i]);
        self.ops.add(&o, 1);
        o
    }

    /// Pixel `i` makes a request (a `load` or a sample): its index among
    /// its requests and the operations since its previous one.
    pub(super) fn request(&mut self, i: usize, load: bool) -> (u8, ShaderOps) {
        if self.stopped & (1 << i) != 0 || !self.advance(i, Target::Request { load }) {
            self.off_program += 1;
        }
        self.requests += 1;
        let index = self.made[i];
        self.made[i] = index.saturating_add(1);
        (index, self.take(i))
    }

    /// The pixels of `mask` make a request without a record of its taps.
    pub(super) fn request_all(&mut self, mask: u8, load: bool) {
        for i in 0..4 {
            if mask & (1 << i) != 0 {
                self.request(i, load);
            }
        }
    }

    /// The pixels of `mask` skip their next optional request: its block
    /// costs them nothing.
    pub(super) fn skip(&mut self, mask: u8) {
        for i in 0..4 {
            if mask & (1 << i) != 0
                && self.stopped & (1 << i) == 0
                && !self.advance(i, Target::Skip)
            {
                self.off_program += 1;
            }
        }
    }

    /// The pixels of `mask` are discarded at the program's next discard:
    /// they run nothing after it.
    pub(super) fn discard(&mut self, mask: u8) {
        for i in 0..4 {
            if mask & (1 << i) != 0 && self.stopped & (1 << i) == 0 {
                if !self.advance(i, Target::Discard) {
                    self.off_program += 1;
                }
                self.stopped |= 1 << i;
            }
        }
    }

    /// Records a request of pixel `i` (when the record is kept).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn record(
        &mut self,
        i: usize,
        index: u8,
        ops: ShaderOps,
        filter: FilterKind,
        bytes: u8,
        taps: &[u64],
    ) {
        let Some(out) = self.out.as_deref_mut() else {
            return;
        };
        let mut t = [0u64; MAX_TAPS];
        t[..taps.len()].copy_from_slice(taps);
        let [x, y] = self.pixels[i];
        out.push(TexReqRecord::Request(TexRequest {
            fp: self.fp,
            x,
            y,
            index,
            filter,
            texel_bytes: bytes,
            ops,
            taps: t,
            len: taps.len() as u8,
        }));
    }

    /// The shader is done: each pixel of `shaded` runs the rest of its
    /// path (nothing, if discarded) and ends; the quad's counts go to
    /// `tallies`.
    pub(super) fn end(mut self, shaded: u8, tallies: &mut ProgramTallies) {
        for i in 0..4 {
            if shaded & (1 << i) == 0 {
                continue;
            }
            if self.stopped & (1 << i) == 0 {
                self.advance(i, Target::End);
            }
            let ops = self.take(i);
            if let Some(out) = self.out.as_deref_mut() {
                let [x, y] = self.pixels[i];
                out.push(TexReqRecord::FragmentEnd {
                    fp: self.fp,
                    x,
                    y,
                    ops,
                });
            }
        }
        let t = tallies.of(self.program);
        t.fragments += u64::from(shaded.count_ones());
        t.requests += self.requests;
        t.off_program += self.off_program;
        t.ops.add_counts(&self.ops);
    }
}
