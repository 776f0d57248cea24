//! Notes about geometries a policy's name does not promise
//! (`gfxcache_llc::notes`, `CacheSim::notes`): set dueling without leader or
//! follower sets, table policies without enough sample sets. What a note
//! claims is checked by running the policy.

use crate::common;

use crate::common::{cache, geometry, Rng};
use gfxcache_cache::{CacheSim, Env, Geometry, PolicySpec};
use gfxcache_llc::counters::Counter;
use gfxcache_llc::policies::gspc::Gspc;
use gfxcache_llc::{build_cache, notes, registry};
use gfxcache_trace::Access;

fn notes_of(spec: &str, g: &Geometry) -> Vec<String> {
    notes(&spec.parse().unwrap(), g).unwrap()
}

fn run(spec: &str, g: &Geometry, trace: &[Access]) -> Box<dyn CacheSim> {
    let spec: PolicySpec = spec.parse().unwrap();
    let mut c = build_cache(&spec, g, &Env::default()).unwrap();
    c.access_batch(trace);
    c
}

/// Random reads and writes of the four stream classes over `blocks` blocks.
fn trace(seed: u64, blocks: u64) -> Vec<Access> {
    let mut rng = Rng::new(seed);
    (0..20_000)
        .map(|_| {
            let s = common::CLASSES[rng.below(5) as usize];
            let addr = rng.below(blocks) * 64;
            if rng.below(3) == 0 {
                Access::write(addr, s)
            } else {
                Access::read(addr, s)
            }
        })
        .collect()
}

const DUELING_AND_TABLES: [&str; 5] = ["drrip", "gs-drrip", "gspztc", "gspztc-tse", "gspc"];

#[test]
fn on_one_set_the_dueling_and_table_policies_say_they_are_srrip_and_are() {
    for ways in [4, 16, 128] {
        let g = geometry(1, ways, 1);
        let t = trace(u64::from(ways), 3 * u64::from(ways));
        let srrip = run("srrip", &g, &t);
        for spec in DUELING_AND_TABLES {
            let n = notes_of(spec, &g);
            assert_eq!(n.len(), 1, "{spec}: {n:?}");
            assert!(n[0].contains("exactly as srrip"), "{spec}: {n:?}");
            let c = run(spec, &g, &t);
            assert_eq!(c.notes(), n, "{spec}: the cache carries the same notes");
            assert_eq!(c.stats(), srrip.stats(), "{spec} on 1x{ways}");
            assert!(c.stats().total().hits > 0);
        }
    }
}

#[test]
fn the_study_geometry_has_no_notes() {
    let g = geometry(8192, 16, 4);
    for p in registry() {
        assert_eq!(notes_of(p.name, &g), Vec::<String>::new(), "{}", p.name);
    }
    // Nor DRRIP where the 2 x 32 leaders are at most a quarter of the sets.
    assert!(notes_of("drrip", &geometry(256, 4, 1)).is_empty());
}

#[test]
fn drrip_says_when_leaders_are_most_sets() {
    let most = notes_of("drrip", &geometry(65, 4, 1));
    assert_eq!(most.len(), 1, "{most:?}");
    assert!(
        most[0].starts_with("64 of 65 sets are leader sets (98%)")
            && most[0].contains("reaches only 1 follower set,"),
        "{most:?}"
    );
    let many = notes_of("drrip", &geometry(255, 4, 1));
    assert!(
        many[0].starts_with("64 of 255 sets are leader sets (25%)"),
        "{many:?}"
    );
    assert!(many[0].contains("only 191 follower sets"), "{many:?}");
}

#[test]
fn drrip_says_when_every_set_leads() {
    let all = notes_of("drrip", &geometry(64, 4, 1));
    assert_eq!(all.len(), 1, "{all:?}");
    assert!(all[0].starts_with("all 64 sets are leader sets (32 SRRIP and 32 BRRIP)"));
    let fewer = notes_of("drrip", &geometry(16, 4, 1));
    assert!(
        fewer[0].contains("(8 SRRIP and 8 BRRIP, fewer than the 32 asked)"),
        "{fewer:?}"
    );
    let odd = notes_of("drrip:leaders=4", &geometry(7, 4, 1));
    assert!(
        odd[0].contains("room for 3 leader sets per policy, fewer than the 4 asked")
            && odd[0].contains("only 1 follower set"),
        "{odd:?}"
    );
    assert!(notes_of("drrip:leaders=4", &geometry(32, 4, 1)).is_empty());
}

#[test]
fn gs_drrip_says_which_classes_have_no_duel_and_they_have_none() {
    // 4 sets: two leader pairs, Z's and TEX's; RT and other have none.
    let g = geometry(4, 4, 1);
    let n = notes_of("gs-drrip", &g);
    assert_eq!(n.len(), 2, "{n:?}");
    assert!(n[0].ends_with("z 1, tex 1, rt 0, other 0"), "{n:?}");
    assert!(
        n[1].starts_with("class(es) rt, other have no leader sets"),
        "{n:?}"
    );
    let c = run("gs-drrip", &g, &trace(5, 64));
    let report = c.report();
    let psel = |k: &str| report.iter().find(|(n, _)| *n == k).unwrap().1;
    // PSELs start at 511; Z's and TEX's moved, RT's and other's never.
    assert_ne!(psel("psel_z"), 511.0);
    assert_ne!(psel("psel_tex"), 511.0);
    assert_eq!(psel("psel_rt"), 511.0);
    assert_eq!(psel("psel_other"), 511.0);

    // 2 sets: Z leads in both.
    let n = notes_of("gs-drrip", &geometry(2, 4, 1));
    assert!(
        n.iter()
            .any(|x| x.starts_with("class(es) z lead in every set")),
        "{n:?}"
    );
    // 64 sets: 8 leader sets per class and policy instead of 32.
    let n = notes_of("gs-drrip", &geometry(64, 4, 1));
    assert_eq!(n.len(), 1, "{n:?}");
    assert!(
        n[0].ends_with("the 32 asked: z 8, tex 8, rt 8, other 8"),
        "{n:?}"
    );
}

#[test]
fn table_policies_say_which_banks_cannot_learn_and_they_do_not() {
    // 64 sets in 4 banks: the one sample set (0) is bank 0's.
    let g = geometry(64, 4, 4);
    let t = trace(9, 1024);
    for spec in ["gspztc", "gspztc-tse", "gspc"] {
        let n = notes_of(spec, &g);
        assert_eq!(n.len(), 2, "{spec}: {n:?}");
        assert!(n[1].starts_with("bank(s) 1, 2, 3 of 4 have no sample set"));
        let c = run(spec, &g, &t);
        let sum = |k: &str| c.report().iter().find(|(n, _)| *n == k).unwrap().1;
        assert!(sum("fill_z") > 0.0, "{spec}: bank 0 learns");
    }
    let mut e = cache::<Gspc>("gspc", g);
    e.access_all(&t);
    for bank in 1..4 {
        let c = e.policy().counters(bank);
        assert_eq!(
            (c.acc_all(), c.get(Counter::FillZ)),
            (0, 0),
            "bank {bank} never learns"
        );
    }
}

#[test]
fn bad_parameters_are_the_notes_errors_too() {
    let g = geometry(1, 4, 1);
    let e = notes(&"drrip:leaders=0".parse().unwrap(), &g).unwrap_err();
    assert!(e.to_string().contains("leaders=0"), "{e}");
    assert!(notes(&"nosuch".parse().unwrap(), &g).is_err());
}
