//! Every policy of the registry against the reference simulator of
//! `common/mod.rs`: all statistics per stream, the policy's report where it
//! has one, and the final contents (block and dirty bit of every way), on
//! random traces over many geometries. A policy registered without a
//! reference model fails here, by name.

use crate::common::*;
use gfxcache_cache::policies::{
    brrip::Brrip, drrip::Drrip, fifo::Fifo, lru::Lru, mru::Mru, nru::Nru, opt::Opt, random::Random,
    ship_mem::ShipMem, srrip::Srrip,
};
use gfxcache_cache::{
    Cache, Env, Geometry, Params, Policy, PolicySpec, Stats, StreamMask, WritePolicy, POLICIES,
};
use gfxcache_trace::{Access, Stream};

type Contents = Vec<Vec<Option<(u64, bool)>>>;

fn typed<P: Policy>(spec: &str, g: &Geometry, env: &Env, trace: &[Access]) -> (Stats, Contents) {
    let spec: PolicySpec = spec.parse().unwrap();
    let mut params = Params::new(&spec);
    let policy = P::build(&mut params, g, env).unwrap();
    params.finish().unwrap();
    let mask = if spec.ucd {
        StreamMask::default().with(Stream::Display)
    } else {
        StreamMask::default()
    };
    let mut c = Cache::new(*g, policy, mask);
    c.access_all(trace);
    let contents = (0..g.sets as usize)
        .map(|s| (0..g.ways as usize).map(|w| c.line(s, w)).collect())
        .collect();
    (c.stats().clone(), contents)
}

fn run_typed(spec: &str, g: &Geometry, env: &Env, trace: &[Access]) -> (Stats, Contents) {
    let name: PolicySpec = spec.parse().unwrap();
    match name.name.as_str() {
        "lru" => typed::<Lru>(spec, g, env, trace),
        "fifo" => typed::<Fifo>(spec, g, env, trace),
        "mru" => typed::<Mru>(spec, g, env, trace),
        "random" => typed::<Random>(spec, g, env, trace),
        "nru" => typed::<Nru>(spec, g, env, trace),
        "srrip" => typed::<Srrip>(spec, g, env, trace),
        "brrip" => typed::<Brrip>(spec, g, env, trace),
        "drrip" => typed::<Drrip>(spec, g, env, trace),
        "ship-mem" => typed::<ShipMem>(spec, g, env, trace),
        "opt" => typed::<Opt>(spec, g, env, trace),
        other => panic!(
            "registered policy '{other}' has no typed run here: add its type to `run_typed` \
             (and a reference model to tests/it/common.rs)"
        ),
    }
}

/// Parameter variants run beside every registered policy's defaults.
const VARIANTS: &[&str] = &[
    "random:seed=987654321",
    "srrip:bits=1",
    "srrip:bits=3",
    "brrip:throttle=3,bits=3",
    "drrip:bits=4",
    "drrip:leaders=2,psel=4,throttle=4",
    "drrip:leaders=1,psel=3,bits=1",
    "ship-mem:init=0,bits=2",
    "ship-mem:init=7",
    "opt:bypass=false",
];

/// Every policy of the registry with its defaults, then [`VARIANTS`].
fn specs() -> Vec<String> {
    POLICIES
        .iter()
        .map(|p| p.name)
        .chain(VARIANTS.iter().copied())
        .map(String::from)
        .collect()
}

/// `spec` with `+ucd` after its name.
fn with_ucd(spec: &str) -> String {
    match spec.split_once(':') {
        Some((n, p)) => format!("{n}+ucd:{p}"),
        None => format!("{spec}+ucd"),
    }
}

struct Case {
    g: Geometry,
    ucd: bool,
    label: &'static str,
}

fn cases() -> Vec<Case> {
    use WritePolicy::{WriteBack as Wb, WriteThrough as Wt};
    let c = |label, block, sets, ways, banks, xor, write, alloc, ucd| Case {
        g: geometry(block, sets, ways, banks, xor, write, alloc),
        ucd,
        label,
    };
    vec![
        c("1x1", 64, 1, 1, 1, false, Wb, true, false),
        c("1x2", 64, 1, 2, 1, false, Wb, true, true),
        c("4x3", 64, 4, 3, 1, false, Wb, true, false),
        c("7x2 block 32", 32, 7, 2, 1, false, Wb, true, false),
        c("16x4 banks 4", 64, 16, 4, 4, false, Wb, true, false),
        c("64x16 xor banks 4", 64, 64, 16, 4, true, Wb, true, true),
        c("128x3 xor", 128, 128, 3, 4, true, Wb, true, false),
        c("1024x1", 64, 1024, 1, 1, false, Wb, true, false),
        c("256x4 write-through", 64, 256, 4, 1, false, Wt, true, false),
        c(
            "32x2 no-write-allocate",
            64,
            32,
            2,
            1,
            false,
            Wb,
            false,
            true,
        ),
        c(
            "12x4 write-through no-allocate",
            64,
            12,
            4,
            4,
            false,
            Wt,
            false,
            false,
        ),
        c("1x16 full", 64, 1, 16, 1, false, Wb, true, false),
        c("1x128 full", 64, 1, 128, 1, false, Wb, true, true),
        // The fully associative caches of `full` (LRU, FIFO, OPT).
        c(
            "1x100 full write-through no-allocate",
            64,
            1,
            100,
            1,
            false,
            Wt,
            false,
            true,
        ),
        c("1x65 full block 32", 32, 1, 65, 1, false, Wb, false, false),
        c("2x96 block 16", 16, 2, 96, 1, false, Wb, true, false),
        // Tiered RRPVs over five words of ways (`rrip::Tiers`).
        c("1x300 full", 64, 1, 300, 1, false, Wb, true, false),
        c("1024x16 banks 4", 64, 1024, 16, 4, false, Wb, true, false),
    ]
}

#[test]
fn every_policy_matches_the_reference() {
    let mut runs = 0;
    for case in cases() {
        let g = case.g;
        let blocks = g.blocks() as u64;
        for (t, footprint) in [blocks / 2 + 1, 3 * blocks + 2, 40 * blocks + 7]
            .into_iter()
            .enumerate()
        {
            let trace = random_trace(1000 + t as u64 * 77 + blocks, 2500, footprint, g.block);
            let env = env_for(&trace, &g);
            for base in &specs() {
                let mut specs = vec![base.to_string()];
                if case.ucd {
                    specs.push(with_ucd(base));
                }
                for spec in specs {
                    let what = format!("{spec} on {} (footprint {footprint})", case.label);
                    let mut r = RefCache::new(g, RefConfig::from_spec(&spec));
                    r.run(&trace);

                    let reg = run_registry(&spec, &g, &trace);
                    assert_eq!(reg.label(), spec);
                    assert_stats_eq(reg.stats(), &r.stats(), &what);

                    let (stats, contents) = run_typed(&spec, &g, &env, &trace);
                    assert_stats_eq(&stats, &r.stats(), &what);
                    assert_eq!(contents, r.contents(), "{what}: final contents");

                    let report = reg.report();
                    let get = |k: &str| report.iter().find(|(n, _)| *n == k).map(|x| x.1);
                    if spec.starts_with("drrip") {
                        assert_eq!(get("psel"), Some(r.psel() as f64), "{what}: PSEL");
                    }
                    if ["drrip", "brrip", "ship-mem"]
                        .iter()
                        .any(|p| spec.starts_with(p))
                    {
                        let want = if r.fills == 0 {
                            0.0
                        } else {
                            r.fills_at_max as f64 / r.fills as f64
                        };
                        assert_eq!(get("fills_at_max"), Some(want), "{what}: fills at max");
                    }
                    let total = stats.total();
                    assert_eq!(total.hits + total.misses, total.accesses, "{what}");
                    runs += 1;
                }
            }
        }
    }
    assert!(runs > 500);
}

/// The dueling counter really moves and followers really switch: on a
/// thrashing trace DRRIP's PSEL ends high (BRRIP wins) and on a
/// cache-friendly one low (SRRIP wins), and the reference agrees each time.
#[test]
fn drrip_dueling_goes_both_ways() {
    let g = geometry(64, 256, 4, 1, false, WritePolicy::WriteBack, true);
    let blocks = g.blocks() as u64;
    // A cyclic scan of twice the cache, repeated: thrashes SRRIP.
    let scan: Vec<Access> = (0..20_000u64)
        .map(|i| Access::read((i % (2 * blocks)) * 64, Stream::Tex))
        .collect();
    let reg = run_registry("drrip", &g, &scan);
    let psel = reg.report()[0].1;
    assert!(psel >= 512.0, "psel {psel} after a thrashing scan");
    let mut r = RefCache::new(g, RefConfig::from_spec("drrip"));
    r.run(&scan);
    assert_eq!(psel, r.psel() as f64);
    assert_stats_eq(reg.stats(), &r.stats(), "drrip scan");
    // BRRIP keeps part of the loop: DRRIP beats LRU (which misses every time).
    let lru = run_registry("lru", &g, &scan);
    assert_eq!(lru.stats().total().hits, 0);
    assert!(reg.stats().total().hits > 1000);

    // Phases that each read a new cache-sized working set four times over:
    // SRRIP takes each phase in within a pass, BRRIP (inserting at distant
    // RRPV) keeps evicting the newcomers against each other.
    let friendly: Vec<Access> = (0..20_000u64)
        .map(|i| Access::read((i / (4 * blocks) * blocks + i % blocks) * 64, Stream::Tex))
        .collect();
    let reg = run_registry("drrip", &g, &friendly);
    let psel = reg.report()[0].1;
    assert!(psel < 512.0, "psel {psel} on a friendly trace");
    let mut r = RefCache::new(g, RefConfig::from_spec("drrip"));
    r.run(&friendly);
    assert_eq!(psel, r.psel() as f64);
    assert_stats_eq(reg.stats(), &r.stats(), "drrip friendly");
    let brrip = run_registry("brrip", &g, &friendly);
    assert!(reg.stats().total().hits > 3 * brrip.stats().total().hits);
}
