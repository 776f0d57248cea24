//! Running caches over a trace: one decode, every cache fed each batch, in
//! parallel when there are several ([`feed`], [`for_each_consumer`]).
//!
//! Decoding and simulating overlap: a reader thread decodes batches a few
//! ahead through a bounded channel whose buffers are recycled, so memory is a
//! handful of batches whatever the trace length, and the batches arrive in
//! trace order, so results are the same as reading inline. [`Threads::One`]
//! keeps everything on the calling thread, for single-thread measurements.

use std::sync::mpsc::{sync_channel, Receiver, SyncSender};

use gfxcache_trace::{Batch, TraceError, TraceRead, BATCH_RECORDS};
use rayon::prelude::*;

use crate::next_use::{NextUse, NextUseBuilder};
use crate::sim::CacheSim;

/// Why a run stopped early.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Trace(#[from] TraceError),
    #[error(transparent)]
    NextUse(#[from] crate::next_use::NextUseError),
}

/// How many threads a pass over a trace may use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Threads {
    /// Decode on a reader thread ahead of the work; run several caches in
    /// parallel (rayon).
    #[default]
    Many,
    /// Decode and simulate on the calling thread, one cache after another.
    One,
}

impl Threads {
    /// From a command's `--single-thread`.
    pub fn single_if(single: bool) -> Threads {
        if single {
            Threads::One
        } else {
            Threads::Many
        }
    }
}

/// A decoded batch with the reader's progress after it, or the reader's error.
type Decoded = Result<(Batch, (u64, u64)), TraceError>;

/// Batches decoded ahead of the consumer (plus the one it holds).
const READ_AHEAD: usize = 3;

/// Calls `work` on every batch of `reader`, in order, and `progress` after
/// each with the reader's `(bytes read, bytes total)`. Stops at the first
/// error, from the reader or from `work`, or before a batch once asked to
/// stop ([`crate::progress::request_stop`]).
pub fn for_each_batch<E: From<TraceError>>(
    reader: &mut dyn TraceRead,
    threads: Threads,
    mut work: impl FnMut(&Batch) -> Result<(), E>,
    mut progress: impl FnMut(u64, u64),
) -> Result<(), E> {
    if threads == Threads::One {
        let mut batch = Batch::with_capacity(BATCH_RECORDS);
        while reader.read_batch(&mut batch)? {
            stop_check()?;
            work(&batch)?;
            let (done, total) = reader.progress();
            progress(done, total);
        }
        return Ok(());
    }
    let (full_tx, full_rx) = sync_channel::<Decoded>(READ_AHEAD);
    let (empty_tx, empty_rx) = sync_channel::<Batch>(READ_AHEAD + 1);
    for _ in 0..=READ_AHEAD {
        let _ = empty_tx.send(Batch::with_capacity(BATCH_RECORDS));
    }
    std::thread::scope(|scope| {
        scope.spawn(move || read_ahead(reader, empty_rx, full_tx));
        // Leaving this closure drops `empty_tx`, which ends the reader
        // thread on an early return as well as at the end.
        let empty_tx = empty_tx;
        for decoded in full_rx {
            let (batch, (done, total)) = decoded?;
            stop_check()?;
            work(&batch)?;
            progress(done, total);
            let _ = empty_tx.send(batch);
        }
        Ok(())
    })
}

/// An error if the pass was asked to stop ([`crate::progress::request_stop`]).
fn stop_check() -> Result<(), TraceError> {
    if crate::progress::stop_requested() {
        return Err(TraceError::Io {
            path: std::path::PathBuf::new(),
            error: crate::progress::interrupted(),
        });
    }
    Ok(())
}

/// The reader thread: fills empty batches until the trace, or the
/// consumer's interest, ends.
fn read_ahead(reader: &mut dyn TraceRead, empty: Receiver<Batch>, full: SyncSender<Decoded>) {
    while let Ok(mut batch) = empty.recv() {
        match reader.read_batch(&mut batch) {
            Ok(true) => {
                if full.send(Ok((batch, reader.progress()))).is_err() {
                    return;
                }
            }
            Ok(false) => return,
            Err(e) => {
                let _ = full.send(Err(e));
                return;
            }
        }
    }
}

/// Runs `work` on every consumer: in parallel (rayon) with
/// [`Threads::Many`] and more than one consumer, else one after another
/// in slice order. The fan-out of a pass that feeds each batch to many
/// caches, studies' runs or timers ([`feed`]).
///
/// On errors: one after another, it stops at the first consumer that
/// fails; in parallel every consumer runs, and the error returned is that
/// of the failing consumer first in slice order. So the error is the same
/// whatever the thread count (what the other consumers hold after an error
/// is not: the pass is over).
pub fn for_each_consumer<C: Send, E: Send>(
    consumers: &mut [C],
    threads: Threads,
    work: impl Fn(&mut C) -> Result<(), E> + Sync,
) -> Result<(), E> {
    if threads == Threads::One || consumers.len() < 2 {
        return consumers.iter_mut().try_for_each(work);
    }
    consumers
        .par_iter_mut()
        .enumerate()
        .map(|(i, c)| work(c).map_err(|e| (i, e)))
        .reduce(
            || Ok(()),
            |a, b| match (a, b) {
                (Err(x), Err(y)) => Err(if x.0 <= y.0 { x } else { y }),
                (Err(x), _) | (_, Err(x)) => Err(x),
                _ => Ok(()),
            },
        )
        .map_err(|(_, e)| e)
}

/// One pass over `reader` that feeds every batch, in trace order, to every
/// consumer: [`for_each_batch`] (a reader thread decoding ahead with
/// [`Threads::Many`]) and, for each batch, [`for_each_consumer`]
/// (consumers in parallel with [`Threads::Many`]). `progress` is called
/// after each batch with the reader's `(bytes read, bytes total)`. Stops
/// at the first error, the reader's or a consumer's. Returns the number
/// of trace accesses read.
pub fn feed<C: Send, E: From<TraceError> + Send>(
    reader: &mut dyn TraceRead,
    consumers: &mut [C],
    threads: Threads,
    work: impl Fn(&mut C, &Batch) -> Result<(), E> + Sync,
    progress: impl FnMut(u64, u64),
) -> Result<u64, E> {
    let mut accesses = 0u64;
    for_each_batch(
        reader,
        threads,
        |batch| {
            accesses += batch.accesses.len() as u64;
            for_each_consumer(consumers, threads, |c| work(c, batch))
        },
        progress,
    )?;
    Ok(accesses)
}

/// Feeds every batch of `reader` to every cache ([`feed`]). `progress` is
/// called after each batch with the reader's `(bytes read, bytes total)`.
/// Returns the number of trace accesses.
pub fn simulate(
    reader: &mut dyn TraceRead,
    caches: &mut [Box<dyn CacheSim>],
    threads: Threads,
    progress: impl FnMut(u64, u64),
) -> Result<u64, TraceError> {
    feed(
        reader,
        caches,
        threads,
        |cache, batch| {
            cache.access_batch(&batch.accesses);
            Ok(())
        },
        progress,
    )
}

/// The next-use indices of a trace at `block` bytes per line, from one pass.
pub fn next_use(
    reader: &mut dyn TraceRead,
    block: u32,
    threads: Threads,
    progress: impl FnMut(u64, u64),
) -> Result<NextUse, RunError> {
    let mut builder = NextUseBuilder::new(block);
    builder.expect_announced(reader);
    for_each_batch(
        reader,
        threads,
        |batch| builder.push_all(&batch.accesses).map_err(RunError::from),
        progress,
    )?;
    Ok(builder.finish())
}
