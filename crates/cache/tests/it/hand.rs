//! Short sequences traced by hand, one character per block access.
//!
//! Blocks are letters; within one test every letter maps to set 0 unless
//! said otherwise. Outcomes: `H` hit, `M` miss that filled a line, `B` miss
//! that was bypassed.

use gfxcache_cache::{build_cache, CacheSim, Env, Geometry, NextUseBuilder, PolicySpec};
use gfxcache_trace::{Access, Stream};
use std::sync::Arc;

/// Byte address of block `c` ('A' = 0, ...) in a cache of 64-byte blocks.
fn addr(c: char) -> u64 {
    (c as u64 - 'A' as u64) * 64
}

fn build(spec: &str, g: &Geometry, trace: &[Access]) -> Box<dyn CacheSim> {
    let spec: PolicySpec = spec.parse().unwrap();
    let mut b = NextUseBuilder::new(g.block);
    b.push_all(trace).unwrap();
    let env = Env {
        next_use: Some(Arc::new(b.finish())),
    };
    build_cache(&spec, g, &env).unwrap()
}

/// Outcome of every access of `trace`, one by one.
fn outcomes(spec: &str, g: &Geometry, trace: &[Access]) -> (String, Box<dyn CacheSim>) {
    let mut c = build(spec, g, trace);
    let mut out = String::new();
    for a in trace {
        let before = c.stats().total();
        c.access_batch(std::slice::from_ref(a));
        let after = c.stats().total();
        out.push(if after.hits > before.hits {
            'H'
        } else if after.fills > before.fills {
            'M'
        } else {
            assert_eq!(after.bypasses, before.bypasses + 1);
            'B'
        });
    }
    (out, c)
}

/// `seq` of letters, all reads of stream `tex`, on one set of `ways` ways.
fn run(spec: &str, ways: u32, seq: &str) -> String {
    let g = Geometry::new(64, 1, ways).unwrap();
    let trace: Vec<Access> = seq
        .chars()
        .map(|c| Access::read(addr(c), Stream::Tex))
        .collect();
    outcomes(spec, &g, &trace).0
}

#[test]
fn lru_fifo_mru_differ_on_a_classic_pattern() {
    // 3 ways. After ABC, A hits; D then evicts B (LRU), A (FIFO: oldest
    // fill) or A (MRU: the last touched).
    //   LRU : A B C A D(-B) A B(-C) E(-D)
    //   FIFO: A B C A D(-A) A(-B) B(-C) E(-D)
    //   MRU : A B C A D(-A) A(-D) B E(-B)
    assert_eq!(run("lru", 3, "ABCADABE"), "MMMHMHMM");
    assert_eq!(run("fifo", 3, "ABCADABE"), "MMMHMMMM");
    assert_eq!(run("mru", 3, "ABCADABE"), "MMMHMMHM");
    // A loop one block larger than the cache: LRU and FIFO always miss, MRU
    // keeps part of it.
    assert_eq!(run("lru", 2, "ABCABC"), "MMMMMM");
    assert_eq!(run("fifo", 2, "ABCABC"), "MMMMMM");
    assert_eq!(run("mru", 2, "ABCABC"), "MMMHMH");
}

#[test]
fn nru_is_one_bit_rrip() {
    // 2 ways; fills and hits clear the bit. C: no bit set -> set all,
    // evict way 0 (A): [C0,B1]. A evicts B: [C0,A0]. B: set all, evict C:
    // [B0,A1]. A hits.
    assert_eq!(run("nru", 2, "ABCABA"), "MMMMMH");
    assert_eq!(run("srrip:bits=1", 2, "ABCABA"), "MMMMMH");
}

#[test]
fn srrip_ages_the_set() {
    // 2 ways, 2 bits: insert 2, hit 0, victim 3.
    //   A[2,-] B[2,2] A hit [0,2] C: age+1 [1,3] -> evict B, [1,C2]
    //   B: age+1 [2,3] -> evict C, [2,B2]; A hit.
    assert_eq!(run("srrip", 2, "ABACBA"), "MMHMMH");
    // LRU evicts A for B instead.
    assert_eq!(run("lru", 2, "ABACBA"), "MMHMMM");
    // Hits at 0 age three times before eviction:
    //   A B A B: [0,0]; C: age+3 [3,3] -> evict A, [C2,B3]; A: evict B,
    //   [C2,A2]; B: age+1 [3,3] -> evict C.
    assert_eq!(run("srrip", 2, "ABABCAB"), "MMHHMMM");
    // 3 bits: insert 6. A B [6,6]; A hit [0,6]; C: age+1 -> evict B [1,C6];
    // D: age+1 -> evict C [2,D6]; A hit.
    assert_eq!(run("srrip:bits=3", 2, "ABACDA"), "MMHMMH");
}

#[test]
fn brrip_throttle() {
    // 2 ways, throttle 3: fills go in at 3, every third at 2.
    //   A#1[3] B#2[3,3] C#3: evict A, [C2,B3] D#4: evict B [C2,D3]
    //   E#5: evict D [C2,E3] F#6: evict E [C2,F2] C: hit.
    let (s, c) = {
        let g = Geometry::new(64, 1, 2).unwrap();
        let trace: Vec<Access> = "ABCDEFC"
            .chars()
            .map(|c| Access::read(addr(c), Stream::Tex))
            .collect();
        outcomes("brrip:throttle=3", &g, &trace)
    };
    assert_eq!(s, "MMMMMMH");
    assert_eq!(c.report(), vec![("fills_at_max", 4.0 / 6.0)]);
    // SRRIP: A B [2,2]; C: age -> evict A [C2,B3]; D: evict B [C2,D2];
    // E: age -> evict C ... C misses.
    assert_eq!(run("srrip", 2, "ABCDEFC"), "MMMMMMM");
    // Default throttle 32: C goes in at 3 and D evicts it.
    assert_eq!(run("brrip", 2, "ABCDEFC"), "MMMMMMM");
    // throttle=1: every fill at 2, SRRIP exactly.
    assert_eq!(
        run("brrip:throttle=1", 2, "ABACBA"),
        run("srrip", 2, "ABACBA")
    );
    // The 32nd BRRIP fill goes in at 2: 31 fills at 3 into a 2-way set
    // (each evicting way 0), then Y (#32, at 2, into way 0), Z (#33, at 3,
    // evicts X1 from way 1), Y hits.
    let g = Geometry::new(64, 1, 2).unwrap();
    let mut trace: Vec<Access> = (0..31u64)
        .map(|i| Access::read(1000 * 64 + i * 64, Stream::Tex))
        .collect();
    trace.push(Access::read(addr('Y'), Stream::Tex));
    trace.push(Access::read(addr('Z'), Stream::Tex));
    trace.push(Access::read(addr('Y'), Stream::Tex));
    let (s, c) = outcomes("brrip", &g, &trace);
    assert_eq!(&s[31..], "MMH");
    assert_eq!(c.report(), vec![("fills_at_max", 32.0 / 33.0)]);
}

#[test]
fn drrip_psel_moves() {
    // 4 sets x 2 ways, one leader per policy: L = 1, R = 4, set 0 leads for
    // SRRIP, set 2 for BRRIP, sets 1 and 3 follow. PSEL 3 bits, from 3.
    // Block n lives in set n % 4.
    //   1 (follower, PSEL 3: SRRIP, at 2)
    //   0 4 (SRRIP leader: PSEL 4, 5)
    //   5 (follower, PSEL 5 has its MSB set: BRRIP #1, at 3)
    //   2 6 10 (BRRIP leader: PSEL 4, 3, 2; BRRIP #2..#4 at 3)
    //   9 (follower, PSEL 2: SRRIP at 2; set 1 is [1:2, 5:3] -> evicts 5)
    //   1 hits; 5 misses (under SRRIP alone, 9 would have evicted 1).
    let g = Geometry::new(64, 4, 2).unwrap();
    let trace: Vec<Access> = [1u64, 0, 4, 5, 2, 6, 10, 9, 1, 5]
        .iter()
        .map(|&b| Access::read(b * 64, Stream::Tex))
        .collect();
    let spec = "drrip:leaders=1,psel=3";
    let mut c = build(spec, &g, &trace);
    c.access_batch(&trace[..4]);
    assert_eq!(c.report()[0], ("psel", 5.0));
    c.access_batch(&trace[4..7]);
    assert_eq!(c.report()[0], ("psel", 2.0));
    let (s, c) = outcomes(spec, &g, &trace);
    assert_eq!(s, "MMMMMMMMHM");
    // The final 5 goes in as SRRIP: 4 of 9 fills at 3.
    assert_eq!(c.report(), vec![("psel", 2.0), ("fills_at_max", 4.0 / 9.0)]);
    // Plain SRRIP: 9 evicts 1 ([1:2, 5:2] ages to [3,3]).
    let (s, _) = outcomes("srrip", &g, &trace);
    assert_eq!(&s[8..], "MM");

    // Saturation: 10 misses in the SRRIP leader take a 3-bit PSEL to 7, 20
    // in the BRRIP leader to 0.
    let up: Vec<Access> = (0..10u64)
        .map(|i| Access::read(i * 4 * 64, Stream::Tex))
        .collect();
    let down: Vec<Access> = (0..20u64)
        .map(|i| Access::read((i * 4 + 2) * 64, Stream::Tex))
        .collect();
    let mut c = build(spec, &g, &up);
    c.access_batch(&up);
    assert_eq!(c.report()[0], ("psel", 7.0));
    c.access_batch(&down);
    assert_eq!(c.report()[0], ("psel", 0.0));

    // `bits=4` works: SRRIP leaders insert at 14; hits in the sequence above
    // are the same, PSEL moves the same.
    let (s, c) = outcomes("drrip:bits=4,leaders=1,psel=3", &g, &trace);
    assert_eq!(s, "MMMMMMMMHM");
    assert_eq!(c.report()[0], ("psel", 2.0));
    // One set: no leaders, plain SRRIP, PSEL never moves from 511.
    let one = Geometry::new(64, 1, 2).unwrap();
    let t: Vec<Access> = "ABACBA"
        .chars()
        .map(|c| Access::read(addr(c), Stream::Tex))
        .collect();
    let (s, c) = outcomes("drrip", &one, &t);
    assert_eq!(s, "MMHMMH");
    assert_eq!(c.report()[0], ("psel", 511.0));
}

/// Region `r`, block `k` of it: 16 KB regions, 64-byte blocks.
fn region(r: u64, k: u64) -> Access {
    Access::read(r * 16384 + k * 64, Stream::Tex)
}

#[test]
fn ship_mem_trains_its_counters() {
    // One set of 2 ways. X1..X5 stream through region 1, A lives in
    // region 0. Counters start at 1 (init).
    //   X1 [2] X2 [2,2]  (counter 1: insert at 2)
    //   X3: age [3,3] -> evict X1 unreused: ctr1 = 0; X3 in at 3.
    //   A: evict X3 (3, unreused, ctr1 stays 0); A at 2 (ctr0 = 1). [A2, X2 3]
    //   X4: evict X2 -> X4 at 3. X5: evict X4 -> X5 at 3. A hits.
    let g = Geometry::new(64, 1, 2).unwrap();
    let trace = vec![
        region(1, 1),
        region(1, 2),
        region(1, 3),
        region(0, 0),
        region(1, 4),
        region(1, 5),
        region(0, 0),
    ];
    let (s, c) = outcomes("ship-mem", &g, &trace);
    assert_eq!(s, "MMMMMMH");
    assert_eq!(c.report(), vec![("fills_at_max", 3.0 / 6.0)]);
    // SRRIP (= untrained SHiP) loses A: X4 [X4 2, A 3], X5 evicts A.
    assert_eq!(outcomes("srrip", &g, &trace).0, "MMMMMMM");
    // Counters starting at 0: every fill at 3, A is evicted by X4.
    assert_eq!(outcomes("ship-mem:init=0", &g, &trace).0, "MMMMMMM");

    // Training up (init 0): Y1 in at 3; its hit makes ctr2 = 1, so Y2 goes
    // in at 2 while Z (region 3, ctr 0) goes in at 3.
    //   Y1 [3] Y1 hit [0] (ctr2 1) Z1 [0, Z1 3] Y2: evict Z1 (ctr3 stays 0)
    //   -> Y2 at 2 [0, 2]; Z2: age [1,3] -> evict Y2 unreused (ctr2 0) ->
    //   Z2 at 3; Y2: evict Z2 -> at 3 (ctr2 0); Y1 hits.
    let trace = vec![
        region(2, 1),
        region(2, 1),
        region(3, 1),
        region(2, 2),
        region(3, 2),
        region(2, 2),
        region(2, 1),
    ];
    let (s, c) = outcomes("ship-mem:init=0", &g, &trace);
    assert_eq!(s, "MHMMMMH");
    assert_eq!(c.report(), vec![("fills_at_max", 4.0 / 5.0)]);
}

#[test]
fn ship_mem_tables_are_per_bank() {
    // 2 sets in 2 banks, 1 way each. Region 1 is trained dead in bank 0
    // only (block k of a region lives in set k % 2).
    //   bank 0: R1 k0 [2], R1 k2 evicts it unreused: ctr(b0, R1) = 0, k2 at 3.
    //   bank 1: R1 k1 goes in at 2: its counter is untouched.
    let g = Geometry::new(64, 2, 1).unwrap().with_banks(2).unwrap();
    let trace = vec![region(1, 0), region(1, 2), region(1, 1), region(1, 4)];
    let (s, c) = outcomes("ship-mem", &g, &trace);
    assert_eq!(s, "MMMM");
    // Fills at 3: k2 and k4 (bank 0), not k1 (bank 1).
    assert_eq!(c.report(), vec![("fills_at_max", 2.0 / 4.0)]);
}

#[test]
fn opt_bypass_or_not() {
    // 2 ways: A B C A B. C is never used again.
    //   bypass: C is bypassed, A and B hit.
    //   bypass=false: C evicts B (next use 4 > A's 3); A hits; B misses.
    assert_eq!(run("opt", 2, "ABCAB"), "MMBHH");
    assert_eq!(run("opt:bypass=false", 2, "ABCAB"), "MMMHM");
    // The textbook string 1 2 3 4 1 2 5 1 2 3 4 5 with 3 frames: MIN without
    // bypass takes 7 faults; with bypass, 7 misses of which 4 bypass.
    assert_eq!(run("opt:bypass=false", 3, "ABCDABEABCDE"), "MMMMHHMHHMMH");
    assert_eq!(run("opt", 3, "ABCDABEABCDE"), "MMMBHHBHHHBB");
    // Ties among lines never used again: the lowest way goes. A (rt, way 0)
    // and B (z, way 1) are both dead when C arrives: A is evicted.
    let g = Geometry::new(64, 1, 2).unwrap();
    let trace = vec![
        Access::read(addr('A'), Stream::Rt),
        Access::read(addr('B'), Stream::Z),
        Access::read(addr('C'), Stream::Tex),
        Access::read(addr('C'), Stream::Tex),
    ];
    let (s, c) = outcomes("opt:bypass=false", &g, &trace);
    assert_eq!(s, "MMMH");
    assert_eq!(c.stats().stream(Stream::Rt).evictions, 1);
    assert_eq!(c.stats().stream(Stream::Z).evictions, 0);
    // With bypass, C (used again at 3) beats both dead lines all the same.
    assert_eq!(outcomes("opt", &g, &trace).0, "MMMH");
    // Fully associative (heap path): a loop of 100 blocks over 80 ways.
    let g = Geometry::new(64, 1, 80).unwrap();
    let trace: Vec<Access> = (0..1000u64)
        .map(|i| Access::read(i % 100 * 64, Stream::Tex))
        .collect();
    let (s, _) = outcomes("opt", &g, &trace);
    let misses = s.chars().filter(|&c| c != 'H').count();
    // Blocks 80..99 are each used again no sooner than every resident (block
    // 80 at 180, the residents by 179), so they are bypassed and blocks 0..79
    // stay: 100 misses in the first pass, 20 in each of the nine others.
    assert_eq!(misses, 280);
    let lru_misses = outcomes("lru", &g, &trace)
        .0
        .chars()
        .filter(|&c| c != 'H')
        .count();
    assert_eq!(lru_misses, 1000);
}

#[test]
fn ucd_does_not_allocate_display() {
    // Display misses are bypassed, display hits still hit.
    let g = Geometry::new(64, 1, 2).unwrap();
    let trace = vec![
        Access::read(0, Stream::Display),
        Access::read(0, Stream::Rt),
        Access::read(0, Stream::Display),
        Access::read(64, Stream::Display),
    ];
    assert_eq!(outcomes("lru+ucd", &g, &trace).0, "BMHB");
    assert_eq!(outcomes("lru", &g, &trace).0, "MHHM");
    assert_eq!(outcomes("drrip+ucd:bits=4", &g, &trace).0, "BMHB");
}
