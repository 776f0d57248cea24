//! Outputs that never lie: two runs writing one file leave one whole file,
//! an interrupt leaves nothing half-written, colliding or unwritable outputs
//! are refused before any work, an OS error is said once, and a conversion
//! that loses something says what.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{gfxcache, ok};

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The `*.partial` files in `dir`.
fn partials(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .expect("dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.to_string_lossy().ends_with(".partial"))
        .collect()
}

/// A run that must fail with status 1 and an error naming every `needle`.
fn refused(args: &[&str], needles: &[&str]) -> String {
    let out = gfxcache(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?} printed a result");
    for n in needles {
        assert!(
            err.contains(n),
            "{args:?}: stderr should mention {n:?}: {err}"
        );
    }
    err
}

#[test]
fn two_renders_to_one_out_leave_one_whole_trace() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("f.gtr");
    let spawn = |scene: &str| {
        Command::new(env!("CARGO_BIN_EXE_gfxcache"))
            .args([
                "render", "--scene", scene, "--width", "160", "--height", "90",
            ])
            .args(["--out", s(&out)])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn")
    };
    let a = spawn("city");
    let b = spawn("atrium");
    for child in [a, b] {
        let o = child.wait_with_output().expect("wait");
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let info = ok(&["trace", "info", s(&out), "--json"]);
    let v: serde_json::Value = serde_json::from_str(&info).expect("json");
    let scene = v["meta"]["scene"].as_str().expect("scene");
    assert!(scene == "city" || scene == "atrium", "{scene}");
    assert!(
        partials(dir.path()).is_empty(),
        "{:?}",
        partials(dir.path())
    );
}

/// Starts a render that takes seconds, waits for its trace's temporary file,
/// sends `signal`, and checks that nothing is left and the exit is 130.
#[cfg(unix)]
fn interrupt_render(signal: libc::c_int) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("f.gtr");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gfxcache"))
        .args([
            "render", "--scene", "city", "--width", "1920", "--height", "1080",
        ])
        .args(["--frames", "2", "--out", s(&out)])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let start = Instant::now();
    while partials(dir.path()).is_empty() {
        assert!(
            child.try_wait().expect("try_wait").is_none(),
            "the render ended before writing"
        );
        assert!(start.elapsed() < Duration::from_secs(120), "no .partial");
        std::thread::sleep(Duration::from_millis(10));
    }
    let pid = libc::pid_t::try_from(child.id()).expect("pid");
    // SAFETY: kill(2) on our own child's pid has no memory effects.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
    let o = child.wait_with_output().expect("wait");
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(stderr(&o).contains("interrupted"), "{}", stderr(&o));
    assert!(
        partials(dir.path()).is_empty(),
        "{:?}",
        partials(dir.path())
    );
    assert!(!out.exists());
}

#[cfg(unix)]
#[test]
fn sigterm_while_rendering_leaves_no_partial_file() {
    interrupt_render(libc::SIGTERM);
}

#[cfg(unix)]
#[test]
fn sigint_while_rendering_leaves_no_partial_file() {
    interrupt_render(libc::SIGINT);
}

#[test]
fn colliding_outputs_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let x = dir.path().join("x.gtr");
    let render = [
        "render", "--scene", "city", "--width", "64", "--height", "48",
    ];
    let args = [&render[..], &["--out", s(&x), "--png", s(&x)]].concat();
    refused(&args, &["--out", "--png", "x.gtr", "same file"]);
    let other = dir.path().join(".").join("x.gtr");
    let args = [&render[..], &["--out", s(&x), "--binned", s(&other)]].concat();
    refused(&args, &["--out", "--binned", "same file"]);
    assert!(!x.exists());

    let a = dir.path().join("a.gtr");
    ok(&["trace", "synth", s(&a), "--accesses", "1000"]);
    let before = std::fs::read(&a).unwrap();
    refused(
        &["trace", "convert", s(&a), s(&a)],
        &["OUTPUT", "INPUT", "a.gtr", "same file"],
    );
    assert_eq!(std::fs::read(&a).unwrap(), before);

    // A scene file is an input too.
    let obj = dir.path().join("tri.obj");
    std::fs::write(&obj, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
    let args = [
        "render",
        "--scene",
        s(&obj),
        "--width",
        "64",
        "--height",
        "48",
        "--png",
        s(&obj),
    ];
    refused(&args, &["--png", "--scene", "tri.obj", "same file"]);
    assert!(std::fs::read_to_string(&obj)
        .unwrap()
        .starts_with("v 0 0 0"));
    assert!(partials(dir.path()).is_empty());
}

#[test]
fn unwritable_outputs_are_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("f.gtr");
    // The trace would be written before the picture: that it does not
    // exist shows that the missing directory was found before rendering.
    let png = dir.path().join("no/such/dir/f.png");
    let args = [
        "render",
        "--scene",
        "city",
        "--width",
        "64",
        "--height",
        "48",
        "--out",
        s(&trace),
        "--png",
        s(&png),
    ];
    refused(&args, &["--png", "no/such/dir/f.png"]);
    assert!(!trace.exists());
    // A regular file where the directory should be (unwritable even for root).
    let file = dir.path().join("plain");
    std::fs::write(&file, b"").unwrap();
    let binned = file.join("b.json");
    let args = [
        "render",
        "--scene",
        "city",
        "--width",
        "64",
        "--height",
        "48",
        "--out",
        s(&trace),
        "--binned",
        s(&binned),
    ];
    refused(&args, &["--binned", "plain/b.json"]);
    assert!(!trace.exists());
    let a = dir.path().join("a.gtr");
    ok(&["trace", "synth", s(&a), "--accesses", "1000"]);
    refused(
        &["trace", "convert", s(&a), s(&file.join("b.csv"))],
        &["OUTPUT", "b.csv"],
    );
    refused(
        &["trace", "synth", s(&dir.path().join("no/t.gtr"))],
        &["OUTPUT", "t.gtr"],
    );
    refused(&["trace", "synth", s(dir.path())], &["is a directory"]);
    assert!(partials(dir.path()).is_empty());
}

#[test]
fn an_os_error_is_said_once() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.gtr");
    let enoent = std::io::Error::from_raw_os_error(libc::ENOENT).to_string();
    let out_csv = dir.path().join("out.csv");
    let cases: Vec<Vec<&str>> = vec![
        vec!["trace", "convert", s(&missing), s(&out_csv)],
        vec!["trace", "info", s(&missing)],
        vec![
            "sim",
            s(&missing),
            "--size",
            "1MiB",
            "--ways",
            "4",
            "--policy",
            "lru",
        ],
        vec!["mrc", s(&missing)],
        vec![
            "render",
            "--scene",
            "city",
            "--out",
            "/nonexistent-gfxcache/x.gtr",
        ],
    ];
    for args in &cases {
        let err = refused(args, &[&enoent]);
        assert_eq!(err.matches(&enoent).count(), 1, "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    // Reading a directory as a trace fails while reading, not opening.
    let d = dir.path().join("d.csv");
    std::fs::create_dir(&d).unwrap();
    let eisdir = std::io::Error::from_raw_os_error(libc::EISDIR).to_string();
    let err = refused(&["trace", "info", s(&d)], &[&eisdir]);
    assert_eq!(err.matches(&eisdir).count(), 1, "{err}");
}

/// `1234567` as the tables print it: `1,234,567`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[test]
fn converting_to_din_says_which_streams_and_units_are_lost() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n);
    // A small rendered frame: every graphics stream, and units.
    ok(&[
        "render",
        "--scene",
        "city",
        "--width",
        "32",
        "--height",
        "24",
        "--no-shadow",
        "--no-reflection",
        "--out",
        s(&p("t.gtr")),
    ]);
    ok(&["trace", "convert", s(&p("t.gtr")), s(&p("t.csv"))]);
    let out = gfxcache(&["trace", "convert", s(&p("t.gtr")), s(&p("t.din"))]);
    assert!(out.status.success(), "{}", stderr(&out));
    let warning = stderr(&out);
    ok(&["trace", "convert", s(&p("t.din")), s(&p("back.csv"))]);
    // What was lost, line by line: op,addr,stream,unit,size.
    let before = std::fs::read_to_string(p("t.csv")).unwrap();
    let after = std::fs::read_to_string(p("back.csv")).unwrap();
    let mut lost = std::collections::BTreeMap::<String, u64>::new();
    let mut units = 0;
    for (a, b) in before.lines().zip(after.lines()).skip(1) {
        let (a, b): (Vec<&str>, Vec<&str>) = (a.split(',').collect(), b.split(',').collect());
        assert_eq!(
            (a[0], a[1], a[4]),
            (b[0], b[1], b[4]),
            "op, addr, size are kept"
        );
        if a[2] != b[2] {
            *lost.entry(a[2].to_string()).or_default() += 1;
        }
        units += u64::from(a[3] != b[3]);
    }
    assert_eq!(before.lines().count(), after.lines().count());
    let total: u64 = lost.values().sum();
    assert!(
        total > 0 && units > 0,
        "a rendered frame has streams and units"
    );
    let lost_line = warning
        .lines()
        .find(|l| l.contains("lost their stream"))
        .unwrap_or_else(|| panic!("no stream warning: {warning}"));
    assert!(
        lost_line.contains(&format!(
            "; {} accesses lost their stream",
            thousands(total)
        )),
        "{lost_line}"
    );
    for (stream, n) in &lost {
        assert!(
            lost_line.contains(&format!("{stream} {}", thousands(*n))),
            "{stream} {n}: {lost_line}"
        );
    }
    assert!(
        warning.contains(&format!(
            "{} accesses with a unit other than 0",
            thousands(units)
        )),
        "{warning}"
    );
    assert!(
        warning.contains("cannot hold the trace header"),
        "{warning}"
    );
    // CSV holds every field of an access: no stream or unit warning.
    let out = gfxcache(&["trace", "convert", s(&p("t.gtr")), s(&p("u.csv"))]);
    let err = stderr(&out);
    assert!(
        !err.contains("lost their stream") && !err.contains("units"),
        "{err}"
    );
}
