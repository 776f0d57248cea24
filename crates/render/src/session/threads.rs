//! The frames of a session: everything on the calling thread, or the
//! renderer on a thread of its own, ahead of the consumer side by at most
//! a few batches of records (a bounded channel).
//!
//! Asked to stop ([`gfxcache_cache::progress::request_stop`]), the
//! renderer cuts its frame short ([`FrameRenderer::render`]) and the
//! consumer side drops what is still in flight rather than run it through
//! the caches, so a session ends within milliseconds with
//! [`FrameError::Interrupted`] either way.

use std::sync::mpsc;

use gfxcache_trace::binned::BinnedPass;
use gfxcache_trace::{Access, Marker, Record, RecordSink, RecordStage};

use crate::frame::{FrameError, FrameRenderer, FrameSummary};

use super::consumer::Consumer;
use super::progress::{RenderProgress, Tally, Watched};
use super::RenderRequest;

/// Records per batch handed to the consumer side.
const BATCH: usize = 1 << 16;
/// Batches (or binned passes) in flight: bounds how far the renderer runs
/// ahead of the consumer (a megabyte of accesses each, at most). The
/// consumer side's work comes in bursts (a round's records at once), and
/// with fewer a renderer waiting for room kept the back end's threads
/// idle while the caches caught up.
const IN_FLIGHT: usize = 16;

/// Frame `f` to `sink`: its summary, and its binned passes in `binned`
/// if the request asks for them (else they are dropped frame by frame).
fn frame(
    renderer: &mut FrameRenderer,
    request: &RenderRequest,
    f: u32,
    sink: &mut impl RecordSink,
    binned: &mut Vec<BinnedPass>,
) -> Result<FrameSummary, FrameError> {
    let summary = renderer.render(f, request.frames, sink)?;
    let passes = renderer.take_binned();
    if request.binning.is_some() {
        binned.extend(passes);
    }
    Ok(summary)
}

/// What the frames of a session made: each frame's summary, the consumer
/// side (to be finished) and the binned passes.
pub(super) type Frames<T, S> = (Vec<FrameSummary>, Consumer<T, S>, Vec<BinnedPass>);

/// Everything on the calling thread.
pub(super) fn render_inline<T: RecordStage, S: RecordSink>(
    renderer: &mut FrameRenderer,
    request: &RenderRequest,
    mut consumer: Consumer<T, S>,
    mut progress: impl FnMut(RenderProgress),
) -> Result<Frames<T, S>, FrameError> {
    let (mut frames, mut binned) = (Vec::new(), Vec::new());
    let mut tally = Tally::new(request.frames, renderer.graph().passes.len());
    for f in 0..request.frames {
        let mut watched = Watched {
            sink: &mut consumer,
            tally: &mut tally,
            progress: &mut progress,
        };
        frames.push(frame(renderer, request, f, &mut watched, &mut binned)?);
        progress(tally.frame_done());
    }
    Ok((frames, consumer, binned))
}

/// An item for the consumer side: records, a binned pass in its place
/// between them, or the end of a frame.
enum Item {
    Records(Chunk),
    Binned(Box<BinnedPass>),
    FrameDone(Box<FrameSummary>),
}

/// Records as the renderer hands them over: its accesses in order (16
/// bytes each, copied a run at a time), and each marker with the number
/// of accesses that come before it.
#[derive(Default)]
struct Chunk {
    accesses: Vec<Access>,
    markers: Vec<(usize, Marker)>,
}

impl Chunk {
    fn len(&self) -> usize {
        self.accesses.len() + self.markers.len()
    }

    /// The `PassEnd` markers it holds.
    fn pass_ends(&self) -> u64 {
        let ends = self
            .markers
            .iter()
            .filter(|(_, m)| matches!(m, Marker::PassEnd));
        ends.count() as u64
    }

    /// Every record to `sink`, in order, runs of accesses at once; the
    /// chunk is left empty.
    fn drain_into(&mut self, sink: &mut impl RecordSink) {
        let mut at = 0;
        for (before, m) in self.markers.drain(..) {
            sink.accesses(&self.accesses[at..before]);
            at = before;
            sink.record(Record::Marker(m));
        }
        sink.accesses(&self.accesses[at..]);
        self.accesses.clear();
    }
}

/// The renderer's sink when it has a thread of its own.
struct Batcher {
    chunk: Chunk,
    tx: mpsc::SyncSender<Item>,
    /// Chunks the consumer side has emptied, to be filled again (fresh
    /// ones would cost their pages' faults every time).
    empty: mpsc::Receiver<Chunk>,
    /// False once the consumer side is gone (it panicked).
    open: bool,
}

impl Batcher {
    fn send(&mut self, item: Item) {
        if self.open {
            self.open = self.tx.send(item).is_ok();
        }
    }

    fn flush(&mut self) {
        if self.chunk.len() > 0 {
            let next = self.empty.try_recv().unwrap_or_else(|_| Chunk {
                accesses: Vec::with_capacity(BATCH),
                markers: Vec::new(),
            });
            let full = std::mem::replace(&mut self.chunk, next);
            self.send(Item::Records(full));
        }
    }
}

impl RecordSink for Batcher {
    #[inline]
    fn record(&mut self, r: Record) {
        match r {
            Record::Access(a) => self.chunk.accesses.push(a),
            Record::Marker(m) => self.chunk.markers.push((self.chunk.accesses.len(), m)),
        }
        if self.chunk.len() >= BATCH {
            self.flush();
        }
    }

    #[inline]
    fn accesses(&mut self, accesses: &[Access]) {
        self.chunk.accesses.extend_from_slice(accesses);
        if self.chunk.len() >= BATCH {
            self.flush();
        }
    }

    fn binned(&mut self, pass: &BinnedPass) {
        self.flush();
        self.send(Item::Binned(Box::new(pass.clone())));
    }
}

/// The renderer on a thread of its own, the consumer side on the calling
/// thread (so neither the stage nor the sink has to be `Send`). A panic on
/// the renderer's thread is resumed here.
pub(super) fn render_beside<T: RecordStage, S: RecordSink>(
    renderer: &mut FrameRenderer,
    request: &RenderRequest,
    mut consumer: Consumer<T, S>,
    mut progress: impl FnMut(RenderProgress),
) -> Result<Frames<T, S>, FrameError> {
    let mut tally = Tally::new(request.frames, renderer.graph().passes.len());
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::sync_channel::<Item>(IN_FLIGHT);
        let (empty_tx, empty_rx) = mpsc::channel::<Chunk>();
        let worker = scope.spawn(move || {
            let mut batcher = Batcher {
                chunk: Chunk {
                    accesses: Vec::with_capacity(BATCH),
                    markers: Vec::new(),
                },
                tx,
                empty: empty_rx,
                open: true,
            };
            let mut binned = Vec::new();
            for f in 0..request.frames {
                let done = frame(renderer, request, f, &mut batcher, &mut binned)?;
                batcher.flush();
                batcher.send(Item::FrameDone(Box::new(done)));
                if !batcher.open {
                    break;
                }
            }
            Ok(binned)
        });
        let mut frames = Vec::new();
        // Set when the consumer side stops before the renderer's last
        // record: the sink did not get every record.
        let mut cut = false;
        for item in rx {
            if gfxcache_cache::progress::stop_requested() {
                // Leaving drops the channel: the renderer sends no more.
                cut = true;
                break;
            }
            match item {
                Item::Records(mut chunk) => {
                    let ends = chunk.pass_ends();
                    chunk.drain_into(&mut consumer);
                    if ends > 0 {
                        progress(tally.passes_ended(ends));
                    }
                    // The renderer may be gone already: then it is dropped.
                    let _ = empty_tx.send(chunk);
                }
                Item::Binned(pass) => consumer.binned(&pass),
                Item::FrameDone(summary) => {
                    frames.push(*summary);
                    progress(tally.frame_done());
                }
            }
        }
        let binned = worker
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
        if cut {
            return Err(FrameError::interrupted());
        }
        Ok((frames, consumer, binned))
    })
}
