//! A render asked to stop (`gfxcache_cache::progress::request_stop`, what
//! the Python package does on Ctrl-C) ends with the interrupted error
//! within a round of the pipeline, not when its frames are done, in both
//! modes and on one thread or several; once the stop is lifted, rendering
//! works again.
//!
//! The stop is process-wide, so this file is a test binary of its own and
//! holds a single test: no other test runs beside it to be stopped (the
//! crate's other integration tests share one binary, `tests/it/`, whose
//! scenes module this one borrows).

#[path = "it/scenes.rs"]
mod scenes;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use gfxcache_cache::progress::{interrupted, request_stop};
use gfxcache_render::frame::{FrameConfig, FrameError, FrameRenderer};
use gfxcache_render::session::{render_plain, Mode, RenderRequest};
use gfxcache_render::TbrConfig;
use gfxcache_trace::Record;

/// As long as a render of many frames would take, the stop must end it
/// within this: the rounds between two looks at the stop take a few
/// milliseconds optimised, and ten times that in a debug build.
const PROMPT: Duration = Duration::from_secs(2);

/// A request that would render for minutes: 64 large frames.
fn long(mode: Mode, threads: usize) -> RenderRequest {
    RenderRequest {
        width: 1280,
        height: 720,
        frames: 64,
        threads,
        ..RenderRequest::new(mode)
    }
}

fn modes() -> [(Mode, usize); 4] {
    let tbr = Mode::Tbr(TbrConfig::default());
    [(Mode::Imr, 1), (Mode::Imr, 2), (tbr, 1), (tbr, 3)]
}

fn assert_interrupted(e: &FrameError, what: &str) {
    assert!(e.is_interrupted(), "{what}: {e}");
    assert_eq!(e.to_string(), interrupted().to_string(), "{what}");
}

#[test]
fn a_render_asked_to_stop_ends_at_once_with_the_interrupted_error() {
    let scene = scenes::full();

    // Asked before it starts: no frame at all.
    for (mode, threads) in modes() {
        let what = format!("{} on {threads} threads, stopped before", mode.name());
        request_stop(true);
        let start = Instant::now();
        let mut records = 0u64;
        let r = render_plain(
            &scene,
            &long(mode, threads),
            |_: Record| records += 1,
            |_| {},
        );
        request_stop(false);
        let e = r
            .err()
            .unwrap_or_else(|| panic!("{what}: rendered to the end"));
        assert_interrupted(&e, &what);
        assert!(start.elapsed() < PROMPT, "{what}: {:?}", start.elapsed());
        // A frame begun, then nothing drawn.
        assert!(records < 10, "{what}: {records} records");
    }

    // Asked while it renders, from another thread: it ends within a round.
    for (mode, threads) in modes() {
        let what = format!("{} on {threads} threads, stopped part way", mode.name());
        let seen = Arc::new(AtomicU64::new(0));
        let (tx, rx) = std::sync::mpsc::channel();
        let watch = Arc::clone(&seen);
        let stopper = std::thread::spawn(move || {
            // Well inside the first frame.
            while watch.load(Ordering::Relaxed) < 20_000 {
                std::thread::sleep(Duration::from_millis(1));
            }
            request_stop(true);
            tx.send(Instant::now()).unwrap();
        });
        let r = render_plain(
            &scene,
            &long(mode, threads),
            |_: Record| {
                seen.fetch_add(1, Ordering::Relaxed);
            },
            |_| {},
        );
        let ended = Instant::now();
        stopper.join().unwrap();
        request_stop(false);
        let asked = rx.recv().unwrap();
        let e = r
            .err()
            .unwrap_or_else(|| panic!("{what}: rendered to the end"));
        assert_interrupted(&e, &what);
        let late = ended.saturating_duration_since(asked);
        assert!(late < PROMPT, "{what}: ended {late:?} after the stop");
    }

    // The stop lifted, the same scene renders whole; a frame renderer
    // stopped part way renders its next frame whole too.
    let small = RenderRequest {
        width: 96,
        height: 64,
        frames: 2,
        ..RenderRequest::new(Mode::Imr)
    };
    let r = render_plain(&scene, &small, |_: Record| {}, |_| {}).unwrap();
    assert_eq!(r.summary.frames, 2);
    let mut f = FrameRenderer::new(&scene, FrameConfig::new(96, 64)).unwrap();
    let whole = f.render(0, 1, &mut |_: Record| {}).unwrap();
    request_stop(true);
    let e = f.render(0, 1, &mut |_: Record| {}).unwrap_err();
    request_stop(false);
    assert_interrupted(&e, "a frame renderer");
    assert_eq!(f.render(0, 1, &mut |_: Record| {}).unwrap(), whole);
}
