//! Render sessions: the sink sees the same stream (records and binned
//! passes in place) for any thread count; the summary counts what the
//! pipeline and a stage sent and what reached the sink; the request's
//! checks; progress frame by frame.

use gfxcache_render::pipeline::{BinnedPass, BinningConfig, BinningMode};
use gfxcache_render::scene::{resolve, Scene};
use gfxcache_render::session::{
    render, render_plain, Mode, RenderProgress, RenderRequest, RenderSummary,
};
use gfxcache_render::TbrConfig;
use gfxcache_trace::{Access, Marker, Record, RecordSink, RecordStage, Stream};

/// The stream as the sink saw it.
#[derive(Default, PartialEq, Debug)]
struct Seen {
    records: Vec<Record>,
    /// Each binned pass with the number of records before it.
    binned: Vec<(usize, BinnedPass)>,
}

impl RecordSink for Seen {
    fn record(&mut self, r: Record) {
        self.records.push(r);
    }
    fn binned(&mut self, pass: &BinnedPass) {
        self.binned.push((self.records.len(), pass.clone()));
    }
}

impl Seen {
    fn accesses(&self) -> u64 {
        self.records
            .iter()
            .filter(|r| matches!(r, Record::Access(_)))
            .count() as u64
    }
}

/// Puts one `other` read at address 0 after every `TileBegin` and after
/// every binned pass, as a Tiling Engine model would.
#[derive(Default)]
struct Marking {
    added: u64,
}

impl RecordStage for Marking {
    fn record(&mut self, r: Record, out: &mut impl RecordSink) {
        let tile = matches!(r, Record::Marker(Marker::TileBegin { .. }));
        out.record(r);
        if tile {
            out.record(Record::Access(Access::read(0, Stream::Other)));
            self.added += 1;
        }
    }

    fn binned(&mut self, pass: &BinnedPass, out: &mut impl RecordSink) {
        out.binned(pass);
        out.record(Record::Access(Access::read(0, Stream::Other)));
        self.added += 1;
    }
}

fn scene() -> Scene {
    resolve("atrium").expect("built-in scene")
}

fn request(mode: Mode, threads: usize) -> RenderRequest {
    RenderRequest {
        width: 96,
        height: 64,
        frames: 2,
        threads,
        ..RenderRequest::new(mode)
    }
}

fn tbr() -> Mode {
    Mode::Tbr(TbrConfig::default())
}

/// The summary without what depends on the run (time, threads).
fn figures(s: &RenderSummary) -> RenderSummary {
    RenderSummary {
        seconds: 0.0,
        threads: 0,
        ..s.clone()
    }
}

#[test]
fn the_sink_sees_the_same_stream_for_any_thread_count() {
    let scene = scene();
    for mode in [Mode::Imr, tbr()] {
        let mut runs = Vec::new();
        for threads in [1, 2, 3] {
            let r = RenderRequest {
                binning: Some(BinningConfig::default()),
                ..request(mode, threads)
            };
            let mut told = Vec::new();
            let out = render(&scene, &r, Marking::default(), Seen::default(), |p| {
                told.push(p)
            })
            .unwrap();
            said_how_far(&told, r.frames);
            runs.push(out);
        }
        for r in &runs[1..] {
            assert!(r.sink == runs[0].sink, "{mode:?}: another stream");
            assert_eq!(figures(&r.summary), figures(&runs[0].summary));
            assert_eq!(r.picture, runs[0].picture);
            assert_eq!(r.binned, runs[0].binned);
        }
        let first = &runs[0];
        let handed: Vec<&BinnedPass> = first.sink.binned.iter().map(|b| &b.1).collect();
        assert!(!handed.is_empty());
        assert!(handed.into_iter().eq(first.binned.iter()), "{mode:?}");
        assert_eq!(first.summary.threads, 1);
        assert_eq!(runs[1].summary.threads, 2);
    }
}

/// The progress a session told: never backwards, frames in turn, passes
/// within a frame (a one-frame render is not a bar of one step), and
/// every pass of every frame at the end.
fn said_how_far(told: &[RenderProgress], frames: u32) {
    let last = told.last().expect("progress told");
    assert_eq!((last.frames_done, last.frames), (frames, frames));
    assert_eq!(last.passes_done, last.passes);
    assert_eq!(last.passes % u64::from(frames), 0);
    let per_frame = last.passes / u64::from(frames);
    assert!(per_frame >= 2, "{per_frame} passes a frame");
    for w in told.windows(2) {
        assert!(w[0].passes_done <= w[1].passes_done, "{w:?}");
        assert!(w[1].frames_done - w[0].frames_done <= 1, "{w:?}");
    }
    let mut frames_seen: Vec<u32> = told.iter().map(|p| p.frames_done).collect();
    frames_seen.dedup();
    assert_eq!(frames_seen, (0..=frames).collect::<Vec<_>>());
    assert!(
        told.iter().any(|p| p.passes_done % per_frame != 0),
        "no progress within a frame: {told:?}"
    );
}

#[test]
fn the_summary_counts_what_the_pipeline_and_the_stage_sent_and_the_sink_got() {
    let scene = scene();
    for (mode, raw) in [(Mode::Imr, false), (tbr(), false), (tbr(), true)] {
        // Immediate mode binned, so that the stage has passes to mark;
        // tile by tile it marks the tiles and no binned pass comes back.
        let r = RenderRequest {
            raw,
            binning: (mode == Mode::Imr).then(BinningConfig::default),
            ..request(mode, 2)
        };
        let out = render(&scene, &r, Marking::default(), Seen::default(), |_| {}).unwrap();
        let s = &out.summary;
        let plain = render_plain(&scene, &r, Seen::default(), |_| {}).unwrap();
        let what = format!("{mode:?} raw {raw}");
        // The stage's records are GPU traffic: counted on both sides (no
        // cache keeps `other`).
        assert_eq!(
            s.pipeline_accesses,
            plain.summary.pipeline_accesses + out.stage.added,
            "{what}"
        );
        assert_eq!(s.llc_accesses, out.sink.accesses(), "{what}");
        assert!(out.stage.added > 0, "{what}");
        assert_eq!(s.llc["other"].reads, out.stage.added, "{what}");
        assert_eq!(
            s.per_pass.iter().map(|p| p.llc_accesses).sum::<u64>(),
            s.llc_accesses,
            "{what}"
        );
        assert_eq!(
            s.per_pass.iter().map(|p| p.pipeline_accesses).sum::<u64>(),
            s.pipeline_accesses,
            "{what}"
        );
        if raw {
            assert_eq!(s.llc_accesses, s.pipeline_accesses);
            assert!(s.render_caches.is_empty());
        } else {
            assert!(s.llc_accesses < s.pipeline_accesses, "{what}");
            assert!(!s.render_caches.is_empty());
        }
        // Every cache's accesses, frame by frame: two frames, adding up.
        for c in &s.render_caches {
            assert_eq!(c.accesses_per_frame.len(), 2, "{what} {}", c.cache);
            assert_eq!(
                c.accesses_per_frame.iter().sum::<u64>(),
                c.accesses,
                "{what}"
            );
            assert!(
                c.accesses_per_frame.iter().all(|&n| n > 0),
                "{what} {}",
                c.cache
            );
        }
        assert_eq!(s.mode, mode.name());
        assert_eq!(s.tbr.is_some(), mode.tbr().is_some());
        assert_eq!(out.picture.rgba.len(), 96 * 64 * 4);
        assert_eq!(out.binned.is_empty(), r.binning.is_none(), "{what}");
    }
}

#[test]
fn bad_requests_are_errors_before_any_frame() {
    let scene = scene();
    let mut called = false;
    let mut bad = request(Mode::Imr, 2);
    bad.frames = 0;
    let e = render_plain(&scene, &bad, Seen::default(), |_| called = true)
        .err()
        .expect("an error");
    assert!(e.to_string().contains("at least one frame"), "{e}");
    bad.frames = 1;
    bad.binning = Some(BinningConfig {
        tile_size: 7,
        ..BinningConfig::default()
    });
    let e = render_plain(&scene, &bad, Seen::default(), |_| called = true)
        .err()
        .expect("an error");
    assert!(e.to_string().contains("tile size 7"), "{e}");
    bad.binning = None;
    bad.width = 0;
    assert!(render_plain(&scene, &bad, Seen::default(), |_| called = true).is_err());
    assert!(!called);
}

/// `RenderRequest::check` refuses, without a scene, what the renderer
/// refuses before any frame: the frame configuration too.
#[test]
fn a_request_is_checked_without_a_scene() {
    assert!(request(Mode::Imr, 2).check().is_ok());
    assert!(request(tbr(), 2).check().is_ok());
    let refused = |r: RenderRequest, words: &str| {
        let e = r.check().expect_err(words).to_string();
        assert!(e.contains(words), "{e}");
        let rendered = render_plain(&scene(), &r, Seen::default(), |_| {});
        assert!(rendered.is_err(), "the renderer refuses it too: {words}");
    };
    refused(
        RenderRequest {
            width: 16385,
            ..request(Mode::Imr, 2)
        },
        "resolution 16385x64",
    );
    let mut shadows = request(Mode::Imr, 2);
    shadows.passes.shadow_size = Some(0);
    refused(shadows, "shadow map size 0");
    let processors = |fps| {
        Mode::Tbr(TbrConfig {
            fps,
            ..TbrConfig::default()
        })
    };
    refused(request(processors(0), 2), "0 fragment processors");
    refused(
        request(processors(TbrConfig::MAX_FPS + 1), 2),
        "257 fragment processors",
    );
}

#[test]
fn trace_headers_name_the_stream() {
    let r = request(tbr(), 2);
    let m = r.trace_meta("atrium");
    assert_eq!(m.extra["stream"], "l2");
    assert_eq!(m.extra["tile_order"], "zorder");
    assert_eq!(m.mode.as_deref(), Some("tbr"));
    assert_eq!(m.resolution, Some([96, 64]));
    // Exact binning keeps the header it had before bounding boxes.
    assert!(!m.extra.contains_key("binning"));
    let bbox = request(
        Mode::Tbr(TbrConfig {
            binning_mode: BinningMode::BoundingBox,
            ..TbrConfig::default()
        }),
        2,
    );
    assert_eq!(bbox.trace_meta("atrium").extra["binning"], "bbox");
    let raw = RenderRequest {
        raw: true,
        ..request(Mode::Imr, 1)
    };
    assert_eq!(raw.trace_meta("x").extra["stream"], "pipeline");
    assert!(!raw.trace_meta("x").extra.contains_key("fps"));
    assert_eq!(RenderRequest::new(tbr()).width, 1960);
    assert_eq!(RenderRequest::new(Mode::Imr).height, 1080);
}
