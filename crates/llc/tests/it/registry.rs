//! The four policies through the registry: names, `+ucd`, parameters and
//! the errors bad parameters give; every registered policy observed.

use crate::common;

use crate::common::geometry;
use std::sync::Arc;

use gfxcache_cache::{CacheError, Env, NextUseBuilder, PolicySpec};
use gfxcache_llc::{build_cache, build_observed, check, find, registry, POLICIES};
use gfxcache_trace::{Access, Stream};

fn build(text: &str) -> Result<Box<dyn gfxcache_cache::CacheSim>, CacheError> {
    let spec: PolicySpec = text.parse().unwrap();
    build_cache(&spec, &geometry(1024, 4, 4), &Env::default())
}

fn trace() -> Vec<Access> {
    let mut rng = common::Rng::new(7);
    (0..4000)
        .map(|_| {
            let s = common::CLASSES[rng.below(5) as usize];
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

/// Parameter variants run beside every registered policy's defaults.
const VARIANTS: &[&str] = &[
    "gs-drrip:bits=4",
    "gspztc:t=4",
    "gspztc-tse+ucd:t=16",
    "gspc:t=4,rt-hi=32,rt-lo=4,counter-bits=10,acc-bits=9",
];

#[test]
fn every_spec_builds_and_runs() {
    let tr = trace();
    let specs = POLICIES
        .iter()
        .flat_map(|p| [p.name.to_string(), format!("{}+ucd", p.name)])
        .chain(VARIANTS.iter().map(|v| v.to_string()));
    for spec in specs {
        let spec = spec.as_str();
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

/// Every registered policy, the engine's and this crate's, builds
/// observed, and watching changes none of its counts; this crate's (all of
/// the RRIP family) show the analyses their RRPVs.
#[test]
fn every_registered_policy_can_be_observed() {
    let tr = trace();
    let g = geometry(1024, 4, 4);
    let mut next_use = NextUseBuilder::new(g.block);
    next_use.push_all(&tr).unwrap();
    let env = Env {
        next_use: Some(Arc::new(next_use.finish())),
    };
    for p in registry() {
        let spec: PolicySpec = p.name.parse().unwrap();
        let mut plain = build_cache(&spec, &g, &env).unwrap();
        let mut watched = build_observed(&spec, &g, &env).unwrap();
        plain.access_batch(&tr);
        watched.access_batch(&tr);
        assert_eq!(watched.stats(), plain.stats(), "{}", p.name);
        let reuse = watched.reuse().expect("observed caches report reuse");
        if POLICIES.iter().any(|q| q.name == p.name) {
            assert!(reuse.has_rrpv, "{}", p.name);
        }
    }
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

/// `check` says of a spec what building its cache says (the same error,
/// or none), without the cache: what a sweep checks before its first frame.
#[test]
fn check_says_what_building_says() {
    let g = geometry(1024, 4, 4);
    let mut next_use = NextUseBuilder::new(g.block);
    next_use.push_all(&trace()).unwrap();
    let env = Env {
        next_use: Some(Arc::new(next_use.finish())),
    };
    let bad = [
        "gspztc:t=0",
        "gspztc:t=2000",
        "gspc:bits=4",
        "gspztc-tse:rt-hi=4",
        "gspc:rt-lo=0",
        "gspc:counter-bits=17",
        "gs-drrip:psel=0",
        "gspcc",
        "drrip:leaders=0",
        "ship-mem:bits=2,init=4",
        "opt:bypass=perhaps",
        "opt:t=1",
        "lru:bits=2",
    ];
    let names = registry().map(|p| p.name.to_string());
    let specs = names
        .chain(VARIANTS.iter().map(|v| v.to_string()))
        .chain(bad.iter().map(|b| b.to_string()));
    let mut refused = 0;
    for text in specs {
        let spec: PolicySpec = text.parse().unwrap();
        let built = build_cache(&spec, &g, &env).map(drop);
        let checked = check(&spec, &g);
        refused += usize::from(checked.is_err());
        assert_eq!(
            checked.map_err(|e| e.to_string()),
            built.map_err(|e| e.to_string()),
            "{text}"
        );
    }
    assert_eq!(refused, bad.len());
}

/// What `gfxcache policies` lists of each policy's parameters is what it
/// takes: a spec giving every listed parameter its listed default builds,
/// and a value past a listed range is refused.
#[test]
fn each_listed_parameter_is_taken_with_its_default_and_range() {
    let geom =
        gfxcache_cache::Geometry::from_size(1 << 20, gfxcache_cache::Ways::N(16), 64).unwrap();
    let env = gfxcache_cache::Env::default();
    let mut listed = 0;
    for p in gfxcache_llc::registry().filter(|p| !p.needs_next_use) {
        let params = p.params(&geom);
        let all: Vec<String> = params
            .iter()
            .map(|a| format!("{}={}", a.key, a.default))
            .collect();
        let spec = if all.is_empty() {
            p.name.to_string()
        } else {
            format!("{}:{}", p.name, all.join(","))
        };
        let spec: gfxcache_cache::PolicySpec = spec.parse().unwrap();
        assert!(
            gfxcache_llc::build_cache(&spec, &geom, &env).is_ok(),
            "{spec}"
        );
        for a in params
            .iter()
            .filter(|a| a.max.is_some_and(|m| m < u64::MAX))
        {
            listed += 1;
            let over: gfxcache_cache::PolicySpec =
                format!("{}:{}={}", p.name, a.key, a.max.unwrap() + 1)
                    .parse()
                    .unwrap();
            assert!(
                gfxcache_llc::build_cache(&over, &geom, &env).is_err(),
                "{over}"
            );
        }
    }
    assert!(listed >= 15, "only {listed} ranged parameters listed");
}
