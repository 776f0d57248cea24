//! The four policies through the registry: names, `+ucd`, parameters and
//! the errors bad parameters give.

mod common;

use common::geometry;
use gfxcache_cache::{CacheError, Env, PolicySpec};
use gfxcache_llc::{build_cache, build_observed, find, registry, POLICIES};
use gfxcache_trace::{Access, Stream};

fn build(text: &str) -> Result<Box<dyn gfxcache_cache::CacheSim>, CacheError> {
    let spec: PolicySpec = text.parse().unwrap();
    build_cache(&spec, &geometry(1024, 4, 4), &Env::default())
}

fn trace() -> Vec<Access> {
    let mut rng = common::Rng::new(7);
    let streams = [
        Stream::Z,
        Stream::Tex,
        Stream::Rt,
        Stream::Display,
        Stream::Vtx,
    ];
    (0..4000)
        .map(|_| {
            let s = streams[rng.below(5) as usize];
            Access::read(rng.below(400) * 13 * 64, s)
        })
        .collect()
}

#[test]
fn the_four_names_are_registered() {
    let names: Vec<&str> = POLICIES.iter().map(|p| p.name).collect();
    assert_eq!(names, ["gs-drrip", "gspztc", "gspztc-tse", "gspc"]);
    for n in names {
        assert_eq!(find(n).unwrap().name, n);
    }
    assert!(find("drrip").is_some(), "the engine's policies stay");
    assert_eq!(registry().count(), gfxcache_cache::POLICIES.len() + 4);
}

#[test]
fn every_spec_builds_and_runs() {
    let tr = trace();
    for spec in [
        "gs-drrip",
        "gs-drrip+ucd",
        "gs-drrip:bits=4",
        "gspztc",
        "gspztc+ucd",
        "gspztc:t=4",
        "gspztc-tse",
        "gspztc-tse+ucd:t=16",
        "gspc",
        "gspc+ucd",
        "gspc:t=4,rt-hi=32,rt-lo=4,counter-bits=10,acc-bits=9",
    ] {
        let mut c = build(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert_eq!(c.label(), spec);
        c.access_batch(&tr);
        let total = c.stats().total();
        assert_eq!(total.accesses, tr.len() as u64);
        assert!(total.hits > 0, "{spec}");
        let d = c.stats().stream(Stream::Display);
        if spec.contains("+ucd") {
            assert_eq!(d.fills, 0, "{spec}: display never allocated");
            assert_eq!(d.bypasses, d.misses);
        } else {
            assert!(d.fills > 0, "{spec}");
        }
        let report = c.report();
        assert!(!report.is_empty());
        if spec.starts_with("gspc") {
            assert!(
                report.iter().any(|(k, v)| *k == "prod" && *v > 0.0),
                "{report:?}"
            );
        }
        if spec.starts_with("gs-drrip") {
            assert!(report.iter().any(|(k, _)| *k == "psel_tex"));
        }
    }
}

#[test]
fn observed_builds_read_the_rrpvs() {
    let spec: PolicySpec = "gspc".parse().unwrap();
    let mut c = build_observed(&spec, &geometry(1024, 4, 1), &Env::default()).unwrap();
    c.access_batch(&trace());
    assert!(c.reuse().is_some());
}

fn error(text: &str) -> String {
    match build(text) {
        Ok(_) => panic!("{text} built"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bad_parameters_name_the_problem() {
    let e = error("gspztc:t=0");
    assert!(e.contains("t=0") && e.contains("1 to 1024"), "{e}");
    let e = error("gspztc:t=2000");
    assert!(e.contains("t=2000"), "{e}");
    let e = error("gspc:bits=4");
    assert!(e.contains("unknown") && e.contains("bits"), "{e}");
    let e = error("gspztc-tse:bits=2");
    assert!(e.contains("bits"), "{e}");
    // rt-hi/rt-lo are GSPC's only.
    let e = error("gspztc-tse:rt-hi=4");
    assert!(e.contains("rt-hi"), "{e}");
    let e = error("gspc:rt-lo=0");
    assert!(e.contains("rt-lo=0"), "{e}");
    let e = error("gspc:counter-bits=17");
    assert!(e.contains("counter-bits=17"), "{e}");
    let e = error("gspc:acc-bits=0");
    assert!(e.contains("acc-bits=0"), "{e}");
    let e = error("gs-drrip:bits=9");
    assert!(e.contains("bits=9"), "{e}");
    let e = error("gs-drrip:t=8");
    assert!(e.contains("unknown") && e.contains('t'), "{e}");
    let e = error("gs-drrip:psel=0");
    assert!(e.contains("psel=0"), "{e}");
    let e = error("gspcc");
    assert!(
        e.contains("no such policy") && e.contains("gspztc-tse"),
        "{e}"
    );
}
