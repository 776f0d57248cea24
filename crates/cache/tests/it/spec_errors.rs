//! Bad specs and parameters give a clear `CacheError`.

use std::sync::Arc;

use gfxcache_cache::{build_cache, CacheError, Env, Geometry, NextUseBuilder, PolicySpec};

/// The error of building `text`, with (empty) next-use information at hand.
fn error(text: &str) -> String {
    let env = Env {
        next_use: Some(Arc::new(NextUseBuilder::new(64).finish())),
    };
    error_in(text, &env)
}

fn error_in(text: &str, env: &Env) -> String {
    let g = Geometry::new(64, 16, 4).unwrap();
    let result = text
        .parse::<PolicySpec>()
        .and_then(|spec| build_cache(&spec, &g, env).map(|_| ()));
    match result {
        Err(e @ CacheError::Policy { .. }) => e.to_string(),
        Err(e) => panic!("{text}: unexpected error kind {e:?}"),
        Ok(()) => panic!("{text}: accepted"),
    }
}

#[test]
fn unknown_policy_lists_the_known_ones() {
    let e = error("lur");
    assert!(e.starts_with("policy 'lur': no such policy (known: lru, fifo, mru, random, nru, srrip, brrip, drrip, ship-mem, opt"), "{e}");
}

#[test]
fn unknown_keys_are_named() {
    assert_eq!(
        error("lru:bits=2"),
        "policy 'lru:bits=2': unknown parameter(s): bits"
    );
    assert_eq!(
        error("srrip:bits=2,throttle=4,x=1"),
        "policy 'srrip:bits=2,throttle=4,x=1': unknown parameter(s): throttle, x"
    );
    assert!(error("drrip:leader=4").ends_with("unknown parameter(s): leader"));
    assert!(error("ship-mem:bypass=true").ends_with("unknown parameter(s): bypass"));
}

#[test]
fn out_of_range_values_say_the_range() {
    assert_eq!(
        error("srrip:bits=9"),
        "policy 'srrip:bits=9': bits=9: expected a whole number from 1 to 8"
    );
    assert!(error("brrip:bits=0").ends_with("bits=0: expected a whole number from 1 to 8"));
    assert!(error("brrip:throttle=0").contains("throttle=0: expected a whole number from 1"));
    assert!(error("drrip:psel=0").ends_with("psel=0: expected a whole number from 1 to 31"));
    assert!(error("drrip:psel=32").ends_with("psel=32: expected a whole number from 1 to 31"));
    assert!(error("drrip:leaders=0").contains("leaders=0: expected a whole number from 1"));
    assert!(error("drrip:bits=four").ends_with("bits=four: expected a whole number from 1 to 8"));
    // init is bounded by the counter width.
    assert!(error("ship-mem:init=8").ends_with("init=8: expected a whole number from 0 to 7"));
    assert!(
        error("ship-mem:bits=2,init=4").ends_with("init=4: expected a whole number from 0 to 3")
    );
    assert!(error("random:seed=-1").contains("seed=-1: expected a whole number from 0 to"));
    assert!(error("opt:bypass=maybe").ends_with("bypass=maybe: expected true or false"));
}

#[test]
fn malformed_specs() {
    assert!(error("lru+foo").contains("unknown modifier '+foo'"));
    assert!(error("srrip:bits").contains("parameter 'bits': expected key=value"));
    assert!(error("srrip:bits=2,bits=3").contains("parameter 'bits' given twice"));
    assert!(error(":bits=2").contains("expected a policy name"));
}

#[test]
fn opt_needs_next_use() {
    assert_eq!(
        error_in("opt", &Env::default()),
        "policy 'opt': needs next-use information for the trace"
    );
    assert!(error_in("opt:bypass=false", &Env::default())
        .ends_with("needs next-use information for the trace"));
}

#[test]
fn good_specs_build() {
    let g = Geometry::new(64, 16, 4).unwrap();
    for s in [
        "lru",
        "lru+ucd",
        "fifo",
        "mru",
        "random:seed=0",
        "nru",
        "srrip:bits=8",
        "brrip:throttle=1",
        "drrip:bits=4",
        "drrip+ucd:psel=1,leaders=1000000,throttle=7",
        "ship-mem:bits=8,init=255",
    ] {
        let spec: PolicySpec = s.parse().unwrap();
        let c = build_cache(&spec, &g, &Env::default()).unwrap();
        assert_eq!(c.label(), s);
    }
}
