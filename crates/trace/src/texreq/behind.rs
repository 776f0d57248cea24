//! A texture request sink that writes on a thread of its own, so that a
//! producer (the renderer) does not wait for encoding and compression.

use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::thread::JoinHandle;

use crate::TraceError;

use super::{TexReqRecord, TexReqSink};

/// Records handed to the writing thread at once.
const RUN: usize = 1 << 15;

/// Runs a [`TexReqSink`] on its own thread, fed runs of records through a
/// short queue (two runs ahead: a producer that outpaces the writer
/// waits rather than piling records up).
pub struct TexReqBehind {
    run: Vec<TexReqRecord>,
    /// Runs, then `None`: finish. A queue closed without it abandons the
    /// output (it is never put in place).
    to_writer: Option<SyncSender<Option<Vec<TexReqRecord>>>>,
    spare: Receiver<Vec<TexReqRecord>>,
    /// The writing thread: its sink's `finish`, or `None` if abandoned.
    writer: Option<JoinHandle<Option<Result<(), TraceError>>>>,
}

impl TexReqBehind {
    /// `inner` on a thread of its own.
    pub fn new(mut inner: Box<dyn TexReqSink>) -> TexReqBehind {
        let (to_writer, runs) = sync_channel::<Option<Vec<TexReqRecord>>>(2);
        let (give_back, spare) = sync_channel::<Vec<TexReqRecord>>(3);
        let writer = std::thread::spawn(move || {
            for message in runs {
                let Some(mut run) = message else {
                    return Some(inner.finish());
                };
                inner.records(&run);
                run.clear();
                let _ = give_back.try_send(run);
            }
            None
        });
        TexReqBehind {
            run: Vec::with_capacity(RUN),
            to_writer: Some(to_writer),
            spare,
            writer: Some(writer),
        }
    }

    fn send_run(&mut self) {
        let next = self
            .spare
            .try_recv()
            .unwrap_or_else(|_| Vec::with_capacity(RUN));
        let run = std::mem::replace(&mut self.run, next);
        if let Some(tx) = &self.to_writer {
            // A writer that stopped has its error for `finish`.
            let _ = tx.send(Some(run));
        }
    }
}

impl TexReqSink for TexReqBehind {
    fn records(&mut self, records: &[TexReqRecord]) {
        self.run.extend_from_slice(records);
        if self.run.len() >= RUN {
            self.send_run();
        }
    }

    fn finish(mut self: Box<Self>) -> Result<(), TraceError> {
        if !self.run.is_empty() {
            self.send_run();
        }
        if let Some(tx) = self.to_writer.take() {
            let _ = tx.send(None);
        }
        let writer = self.writer.take().expect("finished once");
        writer
            .join()
            .expect("the texture request writer does not panic")
            .expect("told to finish")
    }
}

impl Drop for TexReqBehind {
    fn drop(&mut self) {
        // Unfinished (an error elsewhere): let the thread end; its output
        // stays unfinished and so is never put in place.
        self.to_writer = None;
        if let Some(w) = self.writer.take() {
            let _ = w.join();
        }
    }
}
