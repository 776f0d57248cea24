//! The frames of a session: everything on the calling thread, or the
//! renderer on a thread of its own, ahead of the consumer side by at most
//! a few batches of records (a bounded channel).

use std::sync::mpsc;

use gfxcache_trace::binned::BinnedPass;
use gfxcache_trace::{Record, RecordSink, RecordStage};

use crate::frame::{FrameRenderer, FrameSummary};

use super::consumer::Consumer;
use super::RenderRequest;

/// Records per batch handed to the consumer side.
const BATCH: usize = 1 << 16;
/// Batches (or binned passes) in flight: bounds how far the renderer runs
/// ahead of the consumer.
const IN_FLIGHT: usize = 4;

/// Frame `f` to `sink`: its summary, and its binned passes in `binned`
/// if the request asks for them (else they are dropped frame by frame).
fn frame(
    renderer: &mut FrameRenderer,
    request: &RenderRequest,
    f: u32,
    sink: &mut impl RecordSink,
    binned: &mut Vec<BinnedPass>,
) -> FrameSummary {
    let summary = renderer.render(f, request.frames, sink);
    let passes = renderer.take_binned();
    if request.binning.is_some() {
        binned.extend(passes);
    }
    summary
}

/// Everything on the calling thread.
pub(super) fn render_inline<T: RecordStage, S: RecordSink>(
    renderer: &mut FrameRenderer,
    request: &RenderRequest,
    mut consumer: Consumer<T, S>,
    mut progress: impl FnMut(u32),
) -> (Vec<FrameSummary>, Consumer<T, S>, Vec<BinnedPass>) {
    let (mut frames, mut binned) = (Vec::new(), Vec::new());
    for f in 0..request.frames {
        frames.push(frame(renderer, request, f, &mut consumer, &mut binned));
        progress(f + 1);
    }
    (frames, consumer, binned)
}

/// An item for the consumer side: records, a binned pass in its place
/// between them, or the end of a frame.
enum Item {
    Records(Vec<Record>),
    Binned(Box<BinnedPass>),
    FrameDone(Box<FrameSummary>),
}

/// The renderer's sink when it has a thread of its own.
struct Batcher {
    batch: Vec<Record>,
    tx: mpsc::SyncSender<Item>,
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
        if !self.batch.is_empty() {
            let full = std::mem::replace(&mut self.batch, Vec::with_capacity(BATCH));
            self.send(Item::Records(full));
        }
    }
}

impl RecordSink for Batcher {
    #[inline]
    fn record(&mut self, r: Record) {
        self.batch.push(r);
        if self.batch.len() >= BATCH {
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
    mut progress: impl FnMut(u32),
) -> (Vec<FrameSummary>, Consumer<T, S>, Vec<BinnedPass>) {
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::sync_channel::<Item>(IN_FLIGHT);
        let worker = scope.spawn(move || {
            let mut batcher = Batcher {
                batch: Vec::with_capacity(BATCH),
                tx,
                open: true,
            };
            let mut binned = Vec::new();
            for f in 0..request.frames {
                let done = frame(renderer, request, f, &mut batcher, &mut binned);
                batcher.flush();
                batcher.send(Item::FrameDone(Box::new(done)));
                if !batcher.open {
                    break;
                }
            }
            binned
        });
        let mut frames = Vec::new();
        for item in rx {
            match item {
                Item::Records(batch) => batch.into_iter().for_each(|r| consumer.record(r)),
                Item::Binned(pass) => consumer.binned(&pass),
                Item::FrameDone(summary) => {
                    frames.push(*summary);
                    progress(frames.len() as u32);
                }
            }
        }
        let binned = worker
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (frames, consumer, binned)
    })
}
