//! `render --texture-requests`: the `.gtq` beside the trace, which does not
//! change; `.gtq.zst` holds the same records compressed; immediate mode
//! refuses it with exit 1 and writes nothing.

use gfxcache_trace::texreq::{TexReqReader, TexReqRecord};

mod common;
use common::{gfxcache, ok};

const SCENE: &[&str] = &[
    "render", "--scene", "racer", "--width", "128", "--height", "96",
];

fn read(path: &std::path::Path) -> Vec<TexReqRecord> {
    TexReqReader::open(path)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn the_record_comes_beside_an_unchanged_trace_plain_or_compressed() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n).display().to_string();
    let tbr = [SCENE, &["--mode", "tbr", "--fps", "3"]].concat();
    ok(&[&tbr[..], &["--out", &p("plain.gtr")]].concat());
    ok(&[
        &tbr[..],
        &["--out", &p("a.gtr"), "--texture-requests", &p("a.gtq")],
    ]
    .concat());
    let out = ok(&[
        &tbr[..],
        &["--out", &p("b.gtr"), "--texture-requests", &p("b.gtq.zst")],
    ]
    .concat());
    assert!(out.contains("wrote texture requests"), "{out}");
    let plain = std::fs::read(p("plain.gtr")).unwrap();
    assert_eq!(std::fs::read(p("a.gtr")).unwrap(), plain);
    assert_eq!(std::fs::read(p("b.gtr")).unwrap(), plain);
    let a = read(&dir.path().join("a.gtq"));
    assert!(a.len() > 10_000, "{} records", a.len());
    assert!(matches!(
        a.last(),
        Some(TexReqRecord::FrameEnd { frame: 0 })
    ));
    assert_eq!(read(&dir.path().join("b.gtq.zst")), a);
    let (za, zb) = (
        std::fs::metadata(p("a.gtq")).unwrap().len(),
        std::fs::metadata(p("b.gtq.zst")).unwrap().len(),
    );
    assert!(zb * 4 < za, "{zb} compressed of {za}");
}

#[test]
fn immediate_mode_refuses_texture_requests() {
    let dir = tempfile::tempdir().unwrap();
    let q = dir.path().join("f.gtq");
    let out = gfxcache(&[SCENE, &["--texture-requests", q.to_str().unwrap()]].concat());
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--texture-requests") && err.contains("--mode tbr"),
        "{err}"
    );
    assert!(!q.exists());
}
