//! `render --texture-requests`: the `.gtq` beside the trace, which does not
//! change; `.gtq.zst` holds the same records compressed; immediate mode
//! refuses it with exit 1 and writes nothing. `--texture-filter`: a forced
//! filter is in the requests, the trace's header and the JSON, and
//! `as-authored` is no flag at all; a filter it does not know is refused
//! by clap, before anything is written.

use gfxcache_trace::texreq::{FilterKind, TexReqReader, TexReqRecord};

mod common;
use common::{gfxcache, json, ok};

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

#[test]
fn a_forced_filter_is_in_the_requests_the_trace_header_and_the_json() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n).display().to_string();
    let tbr = [SCENE, &["--mode", "tbr", "--fps", "3"]].concat();
    let with = |name: &str, filter: &[&str]| {
        let (trace, requests) = (p(&format!("{name}.gtr")), p(&format!("{name}.gtq")));
        let doc = json(
            &[
                &tbr[..],
                filter,
                &["--out", &trace, "--texture-requests", &requests, "--json"],
            ]
            .concat(),
        );
        (
            doc,
            std::fs::read(&trace).unwrap(),
            read(dir.path().join(format!("{name}.gtq")).as_path()),
        )
    };
    let (plain_doc, plain_trace, plain_requests) = with("plain", &[]);
    let (authored_doc, authored_trace, authored_requests) =
        with("authored", &["--texture-filter", "as-authored"]);
    assert_eq!(authored_trace, plain_trace, "as-authored changes the trace");
    assert!(
        authored_requests == plain_requests,
        "as-authored changes the requests"
    );
    assert!(plain_doc.get("texture_filter").is_none(), "{plain_doc}");
    assert!(authored_doc.get("texture_filter").is_none());
    let meta = |path: &str| {
        gfxcache_trace::open(std::path::Path::new(path))
            .unwrap()
            .meta()
            .clone()
    };
    assert!(!meta(&p("plain.gtr")).extra.contains_key("texture_filter"));

    let (doc, trace, requests) = with("bilinear", &["--texture-filter", "bilinear"]);
    assert_eq!(doc["texture_filter"], "bilinear", "{doc}");
    assert_eq!(meta(&p("bilinear.gtr")).extra["texture_filter"], "bilinear");
    assert_ne!(trace, plain_trace, "a forced filter reads other texels");
    let mut bilinear = 0;
    for r in &requests {
        if let TexReqRecord::Request(q) = r {
            match q.filter {
                FilterKind::Bilinear => {
                    assert_eq!(q.len, 4);
                    bilinear += 1;
                }
                // Loads, and the exact point reads of depth.
                FilterKind::Fetch | FilterKind::Nearest => assert_eq!(q.len, 1),
                FilterKind::Trilinear => {
                    panic!("a trilinear request under --texture-filter bilinear")
                }
            }
        }
    }
    assert!(bilinear > 10_000, "{bilinear} bilinear requests");
}

#[test]
fn a_texture_filter_it_does_not_know_is_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let (t, q) = (dir.path().join("f.gtr"), dir.path().join("f.gtq"));
    let out = gfxcache(
        &[
            SCENE,
            &["--mode", "tbr", "--texture-filter", "anisotropic"],
            &[
                "--out",
                t.to_str().unwrap(),
                "--texture-requests",
                q.to_str().unwrap(),
            ],
        ]
        .concat(),
    );
    assert_eq!(out.status.code(), Some(2), "clap's usage error");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("invalid value 'anisotropic' for '--texture-filter")
            && err.contains("as-authored, nearest, bilinear, trilinear"),
        "{err}"
    );
    assert!(!t.exists() && !q.exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}
