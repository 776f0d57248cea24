//! The limits of a sweep file: its size and kind when read, the frame
//! points and cache geometries its axes make (counted before any is
//! made), the lengths of what every point and job copies, and the jobs
//! counted without making them, as `jobs()` makes them.

use std::path::Path;
use std::time::{Duration, Instant};

use gfxcache_sweep::exp::{
    MAX_FRAME_POINTS, MAX_GEOMETRIES, MAX_SWEEP_FILE_BYTES, MAX_VALUE_BYTES,
};
use gfxcache_sweep::{Experiment, SweepError};

fn parse(text: &str) -> Result<Experiment, SweepError> {
    Experiment::parse(text, Path::new("exp.toml"))
}

fn refused(text: &str, line: usize, words: &[&str]) -> String {
    let start = Instant::now();
    let msg = match parse(text) {
        Ok(e) => panic!("accepted, {} frame points", e.frame_count()),
        Err(e) => e.to_string(),
    };
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "took {:?}",
        start.elapsed()
    );
    assert!(msg.starts_with(&format!("exp.toml:{line}:")), "{msg}");
    for w in words {
        assert!(msg.contains(w), "{w:?} not in {msg}");
    }
    msg
}

/// `n` distinct values for an axis: `"16x16", "16x17", ...`.
fn resolutions(n: u32) -> String {
    (0..n)
        .map(|i| format!("\"{}x{}\"", 16 + i / 1000, 16 + i % 1000))
        .collect::<Vec<_>>()
        .join(",")
}

fn numbers(range: std::ops::RangeInclusive<u32>) -> String {
    range.map(|i| i.to_string()).collect::<Vec<_>>().join(",")
}

#[test]
fn millions_of_frame_points_are_refused_before_they_are_made() {
    // 2 scenes x 2 modes x 20000 resolutions x 64 frame counts x 1 warm-up:
    // 5 120 000 frame points.
    let text = format!(
        "studies = [\"mrc\"]\n[frames]\nscenes = [\"city\", \"racer\"]\nmodes = [\"imr\", \"tbr\"]\n\
         resolutions = [{}]\nframes = [{}]\n",
        resolutions(20_000),
        numbers(1..=64)
    );
    let msg = refused(
        &text,
        2,
        &[
            "frames = 5120000 frame points",
            "2 scene(s) x 2 mode(s) x 20000 resolution(s) x 64 frame count(s)",
            &format!("at most {MAX_FRAME_POINTS} frame points"),
        ],
    );
    assert!(msg.contains("MAX_FRAME_POINTS"), "{msg}");
    // Repeated values count once, as the points are made: 1 x 2 x 1 x ...
    let repeated = format!(
        "studies = [\"mrc\"]\n[frames]\nscenes = [\"city\"]\nresolutions = [{}]\n",
        vec!["\"640x360\""; 50_000].join(",")
    );
    assert_eq!(parse(&repeated).unwrap().frame_count(), 1);
}

#[test]
fn the_last_frame_point_within_the_limit_is_made() {
    let n = u32::try_from(MAX_FRAME_POINTS / 2).unwrap();
    let sweep = |n: u32| {
        format!(
            "studies = [\"mrc\"]\n[frames]\nscenes = [\"city\"]\nmodes = [\"imr\", \"tbr\"]\nresolutions = [{}]\n",
            resolutions(n)
        )
    };
    let e = parse(&sweep(n)).unwrap();
    assert_eq!(e.frame_count() as u64, MAX_FRAME_POINTS);
    // One resolution more is two points more; one point more: imr alone.
    refused(&sweep(n + 1), 2, &["frame points"]);
    let one_more = sweep(2 * n + 1).replace("\"imr\", \"tbr\"", "\"imr\"");
    refused(
        &one_more,
        2,
        &[&format!("{} frame points", MAX_FRAME_POINTS + 1)],
    );
}

#[test]
fn too_many_cache_geometries_are_refused_before_they_are_made() {
    let sizes: Vec<String> = (1..=200).map(|i| format!("\"{}KiB\"", 64 * i)).collect();
    let text = format!(
        "studies = [\"sim\"]\npolicies = [\"lru\"]\n[frames]\nscenes = [\"city\"]\n\
         [cache]\nsizes = [{}]\nways = [{}]\nbanks = [1, 2, 4]\n",
        sizes.join(","),
        numbers(1..=64)
    );
    refused(
        &text,
        5,
        &[
            "cache = 38400 geometries",
            "200 size(s) x 64 way count(s) x 1 block size(s) x 3 bank count(s)",
            &format!("at most {MAX_GEOMETRIES} cache geometries"),
        ],
    );
}

#[test]
fn values_every_point_copies_are_bounded() {
    let long = "s".repeat(MAX_VALUE_BYTES + 1);
    refused(
        &format!("studies = [\"mrc\"]\n[frames]\nscenes = [\"{long}.obj\"]\n"),
        3,
        &["frames.scenes", "bytes", "MAX_VALUE_BYTES"],
    );
    refused(
        &format!(
            "studies = [\"mrc\"]\n[frames]\nscenes = [\"city\"]\n[flags.render]\nshadow-size = \"{long}\"\n"
        ),
        4,
        &["flags.render", "bytes of flags", "MAX_VALUE_BYTES"],
    );
    let many: Vec<String> = (0..400).map(|i| format!("\"random:seed={i}\"")).collect();
    refused(
        &format!(
            "studies = [\"sim\"]\npolicies = [{}]\n[frames]\nscenes = [\"city\"]\n[cache]\nsizes = [\"1MiB\"]\n",
            many.join(",")
        ),
        2,
        &["policies = 400 policies of", "MAX_VALUE_BYTES"],
    );
}

#[test]
fn a_warm_up_that_leaves_no_frame_is_refused_for_the_studies_that_count_after_it() {
    let text = |studies: &str, modes: &str| {
        format!(
            "studies = [{studies}]\n[frames]\nscenes = [\"city\"]\nmodes = [{modes}]\n\
             frames = [1, 4]\nwarmup = [0, 1]\n"
        )
    };
    refused(
        &text("\"gspc\"", "\"imr\""),
        6,
        &["frames.warmup = 1 with frames = 1", "for gspc"],
    );
    refused(
        &text("\"tcor\"", "\"tbr\""),
        6,
        &["frames.warmup = 1 with frames = 1", "for tcor"],
    );
    // sim and mrc read the whole trace: a warm-up is no study's there.
    assert_eq!(parse(&text("\"mrc\"", "\"imr\"")).unwrap().frame_count(), 4);
    // gspc runs on imr frames only: the tbr ones are no concern of it.
    let e = parse(&text("\"gspc\", \"mrc\"", "\"tbr\"")).unwrap_err();
    assert!(e.to_string().contains("mode imr"), "{e}");
}

/// `job_count` is the length of `jobs()`, on every mix of studies, modes
/// and geometries (with repeated values, which make one point).
#[test]
fn jobs_are_counted_as_they_are_made() {
    let studies = [
        "\"sim\"", "\"mrc\"", "\"gspc\"", "\"tcor\"", "\"nuca\"", "\"nbtc\"",
    ];
    let mut checked = 0;
    for mask in 1u32..64 {
        let chosen: Vec<&str> = (0..6)
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| studies[i])
            .collect();
        for modes in ["\"imr\"", "\"tbr\"", "\"imr\", \"tbr\", \"imr\""] {
            let text = format!(
                "studies = [{}]\npolicies = [\"lru\", \"drrip\"]\n[frames]\n\
                 scenes = [\"city\", \"racer\", \"city\"]\nmodes = [{modes}]\n\
                 resolutions = [\"640x360\", \"320x180\"]\n\
                 [cache]\nsizes = [\"1MiB\", \"2MiB\", \"1024KiB\"]\nways = [8, 16]\n",
                chosen.join(", ")
            );
            // Some mixes are refused (gspc without an imr frame, ...).
            let Ok(e) = parse(&text) else { continue };
            assert_eq!(e.job_count(), e.jobs().len() as u64, "{text}");
            assert_eq!(e.frame_count(), e.frames.len());
            checked += 1;
        }
    }
    assert!(checked > 60, "only {checked} sweeps counted");
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/sweeps");
    for entry in std::fs::read_dir(&examples).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|x| x == "toml") {
            let e = Experiment::read(&path).unwrap();
            assert_eq!(e.job_count(), e.jobs().len() as u64, "{}", path.display());
        }
    }
}

fn read_error(path: &Path) -> String {
    let start = Instant::now();
    let e = Experiment::read(path).expect_err("refused").to_string();
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "took {:?}",
        start.elapsed()
    );
    assert!(e.starts_with(&path.display().to_string()), "{e}");
    e
}

#[test]
fn a_sweep_file_that_is_no_small_regular_text_file_is_refused_unread() {
    let dir = tempfile::tempdir().unwrap();
    // An endless device: not read at all.
    #[cfg(unix)]
    {
        let e = read_error(Path::new("/dev/zero"));
        assert!(e.contains("not a regular file"), "{e}");
    }
    let e = read_error(dir.path());
    assert!(e.contains("not a regular file (a directory)"), "{e}");
    // A regular file past the cap: read no further than the cap.
    let big = dir.path().join("big.toml");
    let valid = "studies = [\"mrc\"]\n[frames]\nscenes = [\"city\"]\n";
    let mut text = valid.to_string();
    text.push_str(&"#".repeat(MAX_SWEEP_FILE_BYTES as usize));
    std::fs::write(&big, &text).unwrap();
    let e = read_error(&big);
    assert!(
        e.contains("larger than 1048576 bytes") && e.contains("MAX_SWEEP_FILE_BYTES"),
        "{e}"
    );
    // At the cap it is read.
    text.truncate(MAX_SWEEP_FILE_BYTES as usize);
    std::fs::write(&big, &text).unwrap();
    assert_eq!(Experiment::read(&big).unwrap().frame_count(), 1);
    // Not text.
    let binary = dir.path().join("binary.toml");
    std::fs::write(&binary, [b's', b't', 0xff, 0xfe, b'\n']).unwrap();
    let e = read_error(&binary);
    assert!(e.contains("not UTF-8 text (byte 2)"), "{e}");
    let e = read_error(&dir.path().join("missing.toml"));
    assert!(e.contains("cannot read"), "{e}");
}

/// A scene file (or a file a flag names) is hashed when the sweep is read:
/// one behind which is a device or a pipe, whose reading would not end
/// (a pipe's opening waits for a writer), is refused, not read.
#[cfg(unix)]
#[test]
fn an_input_that_is_a_device_or_a_pipe_is_refused_unread() {
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero.obj")).unwrap();
    let fifo = dir.path().join("pipe.obj");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    let mut scenes = vec!["zero.obj"];
    if made {
        scenes.push("pipe.obj");
    }
    for scene in scenes {
        let exp = dir.path().join("exp.toml");
        std::fs::write(
            &exp,
            format!("studies = [\"mrc\"]\n[frames]\nscenes = [\"{scene}\"]\n"),
        )
        .unwrap();
        let e = read_error(&exp);
        assert!(e.contains(scene) && e.contains("not a regular file"), "{e}");
        // And as the sweep file itself.
        let e = read_error(&dir.path().join(scene));
        assert!(e.contains("not a regular file"), "{e}");
    }
}
