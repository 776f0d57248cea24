//! `render --texture-requests`: the `.gtq` beside the trace, which does not
//! change; `.gtq.zst` holds the same records compressed; immediate mode
//! refuses it with exit 1 and writes nothing. `--texture-filter`: a forced
//! filter is in the requests, the trace's header and the JSON, and
//! `as-authored` is no flag at all; a filter it does not know is refused
//! by clap, before anything is written.

use gfxcache_trace::texreq::{FilterKind, TexReqReader, TexReqRecord};

use crate::common::{gfxcache, json, ok};

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
    let tbr = [SCENE, &["--mode", "tbr", "--fragment-processors", "3"]].concat();
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
    let tbr = [SCENE, &["--mode", "tbr", "--fragment-processors", "3"]].concat();
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

/// Offsets of the records of a `.gtq` (version 3): each record's start
/// and tag, up to the footer.
fn records_at(b: &[u8]) -> Vec<(usize, u8)> {
    let mut at = 38;
    let mut out = Vec::new();
    while b[at] != 7 {
        let tag = b[at];
        out.push((at, tag));
        at += match tag {
            4 => 35 + 8 * usize::from(b[at + 10]),
            5 => 31,
            _ => 5,
        };
    }
    out
}

/// `nuca` and `nbtc` refuse a rendered `.gtq` with one request's processor
/// field 0xFFFF, or cut inside a record, at a record boundary, at a tile
/// boundary, after its header or inside its footer: exit 1, the file and
/// the byte named, no report. `nuca` refuses a trace rendered with other
/// fragment processors beside the requests, naming both files and `fps`.
#[test]
fn nuca_and_nbtc_refuse_damaged_requests_and_nuca_another_frames_trace() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n).display().to_string();
    let small = [
        "render", "--scene", "racer", "--width", "64", "--height", "48", "--mode", "tbr",
    ];
    ok(&[
        &small[..],
        &[
            "--fragment-processors",
            "3",
            "--out",
            &p("a.gtr"),
            "--texture-requests",
            &p("a.gtq"),
        ],
    ]
    .concat());
    ok(&[
        &small[..],
        &["--fragment-processors", "2", "--out", &p("b.gtr")],
    ]
    .concat());
    let whole = std::fs::read(p("a.gtq")).unwrap();
    let records = records_at(&whole);
    let first_request = records.iter().find(|r| r.1 == 4).unwrap().0;
    let first_tile_end = records.iter().find(|r| r.1 == 3).unwrap().0 + 5;
    let mut fp = whole.clone();
    fp[first_request + 1..first_request + 3].copy_from_slice(&[0xff, 0xff]);
    let cut = |n: usize| whole[..n].to_vec();
    let nuca = [
        "nuca",
        "--fragment-processors",
        "4",
        "--no-sweeps",
        "--scaling",
        "none",
        "--assignments",
        "none",
    ];
    let nbtc = ["nbtc", "--latencies", "300", "--no-sweeps"];
    for (what, bytes) in [
        ("processor 0xFFFF", fp),
        ("inside a record", cut(first_request + 20)),
        ("at a record boundary", cut(records[records.len() - 1].0)),
        ("at a tile boundary", cut(first_tile_end)),
        ("header only", cut(38)),
        ("inside the footer", cut(whole.len() - 3)),
    ] {
        let damaged = p("damaged.gtq");
        std::fs::write(&damaged, &bytes).unwrap();
        for (study, args) in [("nuca", &nuca[..]), ("nbtc", &nbtc[..])] {
            let out_dir = p(&format!("{study}-out"));
            let out = gfxcache(&[args, &[&damaged, "--out", &out_dir]].concat());
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{study}, {what}: {err}");
            assert!(
                err.contains("damaged.gtq") && err.contains("byte"),
                "{study}, {what}: {err}"
            );
            assert!(!err.contains("panicked"), "{err}");
            assert!(
                !std::path::Path::new(&out_dir)
                    .join(format!("{study}.json"))
                    .exists(),
                "{study}, {what}: a report"
            );
        }
    }
    let out = gfxcache(
        &[
            &nuca[..],
            &[&p("a.gtq"), "--trace", &p("b.gtr"), "--out", &p("m")],
        ]
        .concat(),
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("a.gtq") && err.contains("b.gtr") && err.contains("fps: 3"),
        "{err}"
    );
    // The same pair rendered alike is accepted.
    ok(&[
        &nuca[..],
        &[&p("a.gtq"), "--trace", &p("a.gtr"), "--out", &p("n")],
    ]
    .concat());
}
