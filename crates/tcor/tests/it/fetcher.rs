//! The Tile Fetcher's timing (`gfxcache_tcor::fetcher`): a sequence worked
//! by hand cycle by cycle, closed forms, a plain cycle-by-cycle reference
//! on random inputs, and the primitive boundaries the engines mark.
//!
//! Not asserted, because it does not hold: that more MSHRs, targets or
//! FIFO entries are never slower. With 2 MSHRs (3 targets, a FIFO of 3,
//! L2 4 cycles, memory 1 more), p0 reading blocks 2 and 3 (L2 misses),
//! p1 nothing, p2 and p3 block 1 (L2 hits) take 11 cycles: p2's read of
//! block 1 waits for an MSHR until cycle 5 and p3's, issued at 7, joins
//! it. With 3 MSHRs p2's read goes out at 2 and is back at 6, so p3's is a
//! new request at 7 and the four take 12 cycles. (In a frame p3 would find
//! the block in its L1; here the caches, not the timing, decide the reads.)

use std::collections::VecDeque;

use gfxcache_gpu::{DramBanks, DramTiming};
use gfxcache_mem::DramPreset;
use gfxcache_tcor::fetcher::{self, FetchRead, FetchTrace, FetcherModel, FetcherTiming};
use gfxcache_tcor::{
    BaselineConfig, BinnedFrame, BinnedPrimitive, Binning, FetcherStats, FrameL2, L2Config,
    L2Policy, PassTraffic, TcorConfig, TileBuffers, TileOrder, TilingEngine,
};
use gfxcache_trace::{Batch, Marker};
use proptest::prelude::*;

fn timing(l2: u32, memory: u32, mshrs: u32, targets: u32, fifo: u32) -> FetcherTiming {
    FetcherTiming {
        model: FetcherModel::NonBlocking,
        l2_cycles: l2,
        memory_cycles: memory,
        mshrs,
        targets_per_mshr: targets,
        fifo_entries: fifo,
        dram_banks: None,
    }
}

fn trace(prims: &[Vec<(u64, bool)>]) -> FetchTrace {
    let mut t = FetchTrace::new();
    for p in prims {
        let reads: Vec<FetchRead> = p
            .iter()
            .map(|&(block, l2_hit)| FetchRead { block, l2_hit })
            .collect();
        t.push(&reads);
    }
    t
}

/// The model's stats and the cycle each primitive was output, in the
/// order output.
fn run(t: &FetchTrace, timing: &FetcherTiming) -> (FetcherStats, Vec<(usize, u64)>) {
    let mut out = Vec::new();
    let s = fetcher::time_with(t, timing, |p, at| out.push((p, at)));
    (s, out)
}

/// Three primitives, two MSHRs of two targets, a FIFO of four; an L2 hit
/// takes 4 cycles, a miss 4 + 6 = 10.
///
/// ```text
/// p0 reads A (L2 miss), B (hit); p1 reads C (hit); p2 reads A (hit), D (miss)
///
/// cycle  0: issue p0; A, B take both MSHRs; send A (back at 10)
/// cycle  1: issue p1; C finds no MSHR (stall); send B (back at 5)
///     2-4: stalled on the MSHRs (3 cycles)
/// cycle  5: B back (p0 waits for A); C takes B's MSHR; send C (back at 9)
/// cycle  6: issue p2; A is outstanding: a secondary miss, A's second
///           target; D finds no MSHR
///     7-8: stalled on the MSHRs (2 cycles)
/// cycle  9: C back (p1 complete, ready at 10); D takes C's MSHR; send D
///           (back at 19)
/// cycle 10: A back, for p0 and p2 (p0 ready at 11)
/// cycle 11: output p0
/// cycle 12: output p1 (ready since 10, behind p0)
/// cycle 19: D back (p2 ready at 20)
/// cycle 20: output p2: 20 cycles
/// ```
///
/// Requests in flight: A 0-9, B 1-4, C 5-8, D 9-18: 28 request-cycles
/// over the 19 cycles 0-18. The blocking fetcher: 3 + 5 * 4 + 2 * 6 = 35.
#[test]
fn three_primitives_worked_by_hand() {
    let (a, b, c, d) = (10, 11, 12, 13);
    let t = trace(&[
        vec![(a, false), (b, true)],
        vec![(c, true)],
        vec![(a, true), (d, false)],
    ]);
    let tm = timing(4, 6, 2, 2, 4);
    let (s, out) = run(&t, &tm);
    assert_eq!(out, [(0, 11), (1, 12), (2, 20)]);
    let want = FetcherStats {
        primitives: 3,
        l2_reads: 5,
        l2_read_misses: 2,
        l2_requests: 4,
        merged_reads: 1,
        cycles: 20,
        primitives_per_cycle: 3.0 / 20.0,
        fifo_stall_cycles: 0,
        mshr_stall_cycles: 5,
        target_stall_cycles: 0,
        request_cycles: 28,
        busy_cycles: 19,
        mlp: 28.0 / 19.0,
        dram_wait_cycles: 0,
    };
    assert_eq!(s, want);
    assert_eq!(fetcher::time(&t, &tm.blocking()).cycles, 35);
    assert_eq!(reference(&t, &tm), (s, out));
}

/// The same with one target per MSHR: p2's read of A cannot join A's
/// request, so the front end waits at cycle 6 until A is back at 10; then
/// A (an L2 hit now, 4 cycles) and D go in and out one after the other:
///
/// ```text
/// cycle  6: issue p2; A's MSHR has no free target (stall 6-9: 3 cycles
///           after the issue)
/// cycle  9: C back; D would be next but A comes first: still waiting
/// cycle 10: A back (p0 ready at 11); A again, a new request (back at 14);
///           D takes C's MSHR; ... D is sent at 11 (back at 21)
/// cycle 11: output p0; cycle 12: output p1
/// cycle 14: A back for p2; cycle 21: D back; cycle 22: output p2
/// ```
#[test]
fn a_read_that_finds_no_free_target_waits_for_the_block() {
    let t = trace(&[
        vec![(10, false), (11, true)],
        vec![(12, true)],
        vec![(10, true), (13, false)],
    ]);
    let tm = timing(4, 6, 2, 1, 4);
    let (s, out) = run(&t, &tm);
    assert_eq!(out, [(0, 11), (1, 12), (2, 22)]);
    assert_eq!((s.l2_requests, s.merged_reads), (5, 0));
    assert_eq!((s.mshr_stall_cycles, s.target_stall_cycles), (3, 3));
    assert_eq!(reference(&t, &tm), (s, out));
}

/// With one MSHR of one target and a FIFO of one, every read waits for the
/// one before and every primitive for the one before: the blocking sum,
/// one cycle per primitive and every read's latency, exactly.
fn serial_closed_form(prims: &[Vec<(u64, bool)>], l2: u32, memory: u32) -> u64 {
    prims
        .iter()
        .map(|p| {
            1 + p
                .iter()
                .map(|&(_, hit)| u64::from(l2) + if hit { 0 } else { u64::from(memory) })
                .sum::<u64>()
        })
        .sum()
}

/// No L2 read at all: one primitive a cycle, whatever the MSHRs.
#[test]
fn without_l2_reads_one_primitive_a_cycle() {
    let t = trace(&vec![Vec::new(); 100]);
    for tm in [timing(12, 75, 16, 20, 12), timing(12, 75, 1, 1, 1)] {
        let (s, out) = run(&t, &tm);
        assert_eq!(s.cycles, 100);
        assert_eq!(s.primitives_per_cycle, 1.0);
        assert_eq!(out.last(), Some(&(99, 100)));
        assert_eq!(s.fifo_stall_cycles + s.mshr_stall_cycles, 0);
    }
}

/// `k` reads per primitive, every one an L2 hit of `l` cycles, distinct
/// blocks, MSHRs enough for a request a cycle: the one request a cycle
/// bounds the fetcher, and the last block comes back `l` cycles after it
/// was sent, its primitive out one cycle later: `P * k + l` cycles.
#[test]
fn all_l2_hits_closed_form() {
    for (p, k, l) in [(50, 1, 12), (40, 3, 12), (30, 2, 5), (1, 4, 12)] {
        let prims: Vec<Vec<(u64, bool)>> = (0..p)
            .map(|i| (0..k).map(|j| ((i * k + j) as u64, true)).collect())
            .collect();
        let t = trace(&prims);
        let (s, _) = run(&t, &timing(l, 75, l + 1, 20, 4096));
        assert_eq!(s.cycles, (p * k + l) as u64, "P {p}, k {k}, l {l}");
        let expected = p as f64 / (p * k + l) as f64;
        assert!((s.primitives_per_cycle - expected).abs() < 1e-12);
        // Each request in flight for its latency.
        assert_eq!(s.request_cycles, (p * k * l) as u64);
    }
}

/// The DTM-NUCA and TCOR machines' DRAM, LPDDR3-1600, at their 600 MHz:
/// tRCD 12 cycles, tCAS 9, a line 6 (`crates/gpu/tests/it/dram.rs`).
fn lpddr3() -> Option<DramTiming> {
    Some(DramTiming::of(DramPreset::Lpddr3_1600, 600))
}

/// Two misses to one DRAM bank, with the banks: L2 4 cycles, memory 40
/// more (at least the DRAM's 39 of a row conflict's service), 2 MSHRs.
///
/// ```text
/// cycle 0: issue p0; send block 0, at DRAM at 4: it opens its row,
///          holds the bank 4-21 (12 + a line's 6), data at 25 (4 + 12 +
///          9): alone, it waits 0; back at 0 + 4 + 40 = 44
/// cycle 1: issue p1; send block 16 (bank 0, the same row), at DRAM at
///          5: the bank is free from 22, its data at 31 where alone it
///          would be at 14: waits 17, back at 1 + 4 + 40 + 17 = 62
/// cycle 45: output p0; cycle 63: output p1
/// ```
///
/// Without the banks p1's block is back at 45 and p1 goes out at 46.
#[test]
fn two_misses_to_one_bank_worked_by_hand() {
    let t = trace(&[vec![(0, false)], vec![(16, false)]]);
    let flat = timing(4, 40, 2, 1, 4);
    assert_eq!(run(&t, &flat).1, [(0, 45), (1, 46)]);
    let banked = FetcherTiming {
        dram_banks: lpddr3(),
        ..flat
    };
    let (s, out) = run(&t, &banked);
    assert_eq!(out, [(0, 45), (1, 63)]);
    assert_eq!((s.cycles, s.dram_wait_cycles), (63, 17));
    assert_eq!(reference(&t, &banked), (s, out));
    // The blocking fetcher has one read in flight: none waits (2 x (1 +
    // 4 + 40)).
    let blocking = fetcher::time(&t, &banked.blocking());
    assert_eq!((blocking.cycles, blocking.dram_wait_cycles), (90, 0));
}

fn primitives() -> impl Strategy<Value = Vec<Vec<(u64, bool)>>> {
    prop::collection::vec(prop::collection::vec((0u64..8, any::<bool>()), 0..5), 0..40)
}

fn timings() -> impl Strategy<Value = FetcherTiming> {
    (1u32..6, 0u32..12, 1u32..6, 1u32..4, 1u32..7)
        .prop_map(|(l2, memory, mshrs, targets, fifo)| timing(l2, memory, mshrs, targets, fifo))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn the_model_is_the_plain_cycle_by_cycle_reference(prims in primitives(), tm in timings()) {
        let t = trace(&prims);
        prop_assert_eq!(run(&t, &tm), reference(&t, &tm));
    }

    #[test]
    fn one_mshr_one_target_one_entry_is_the_blocking_sum(
        prims in primitives(), l2 in 1u32..20, memory in 0u32..100
    ) {
        let t = trace(&prims);
        let tm = timing(l2, memory, 1, 1, 1);
        let (s, out) = run(&t, &tm);
        prop_assert_eq!(s.cycles, serial_closed_form(&prims, l2, memory));
        let blocking = fetcher::time(&t, &tm.blocking());
        prop_assert_eq!(s.cycles, blocking.cycles);
        prop_assert_eq!(
            (s.l2_reads, s.l2_read_misses, s.l2_requests, s.request_cycles),
            (blocking.l2_reads, blocking.l2_read_misses, blocking.l2_requests, blocking.request_cycles)
        );
        // The blocking model outputs the primitives at the same cycles.
        let mut blocked = Vec::new();
        fetcher::time_with(&t, &tm.blocking(), |p, at| blocked.push((p, at)));
        prop_assert_eq!(out, blocked);
    }

    /// With the DRAM's banks, on blocks of one bank and one row (1 apart:
    /// 8 banks of two channels), rows of two banks (16 apart) or many
    /// rows (520 apart: row conflicts).
    #[test]
    fn with_dram_banks_the_model_is_the_reference(
        prims in primitives(),
        tm in timings(),
        apart in prop::sample::select(vec![1u64, 16, 520]),
    ) {
        let prims: Vec<Vec<(u64, bool)>> = prims
            .iter()
            .map(|p| p.iter().map(|&(b, hit)| (b * apart, hit)).collect())
            .collect();
        let t = trace(&prims);
        // The latency covers the DRAM's own service (39 cycles: a row
        // conflict's), as a configuration must.
        let service = lpddr3().unwrap().service_cycles(64) as u32;
        prop_assert_eq!(service, 12 + 12 + 9 + 6);
        let tm = FetcherTiming {
            dram_banks: lpddr3(),
            memory_cycles: service + tm.memory_cycles,
            ..tm
        };
        prop_assert!(tm.check().is_ok());
        let short = FetcherTiming { memory_cycles: service - 1, ..tm };
        prop_assert!(short.check().is_err());
        prop_assert_eq!(run(&t, &tm), reference(&t, &tm));
        // One read in flight never waits for a bank.
        let serial = FetcherTiming { mshrs: 1, targets_per_mshr: 1, fifo_entries: 1, ..tm };
        let (s, _) = run(&t, &serial);
        prop_assert_eq!(s.dram_wait_cycles, 0);
        prop_assert_eq!(s.cycles, serial_closed_form(&prims, tm.l2_cycles, tm.memory_cycles));
    }

    #[test]
    fn every_primitive_is_output_once_in_order(prims in primitives(), tm in timings()) {
        let t = trace(&prims);
        let (s, out) = run(&t, &tm);
        prop_assert_eq!(out.len(), prims.len());
        for (i, &(p, _)) in out.iter().enumerate() {
            prop_assert_eq!(p, i);
        }
        // At most one a cycle, none before cycle 1, the last at the end.
        prop_assert!(out.windows(2).all(|w| w[0].1 < w[1].1));
        prop_assert!(out.first().is_none_or(|&(_, at)| at >= 1));
        prop_assert_eq!(out.last().map_or(0, |&(_, at)| at), s.cycles);
        prop_assert_eq!(s.l2_requests + s.merged_reads, s.l2_reads);
        prop_assert!(s.primitives_per_cycle <= 1.0);
        // Never slower than waiting for every read in turn.
        prop_assert!(s.cycles <= serial_closed_form(&prims, tm.l2_cycles, tm.memory_cycles));
    }
}

/// A plain cycle-by-cycle Tile Fetcher: every cycle visited, its own MSHR
/// list, nothing skipped. The rules are those of `gfxcache_tcor::fetcher`.
fn reference(t: &FetchTrace, tm: &FetcherTiming) -> (FetcherStats, Vec<(usize, u64)>) {
    struct Mshr {
        block: u64,
        order: u64,
        l2_hit: bool,
        latency: u64,
        sent: Option<u64>,
        targets: u32,
    }
    struct Slot {
        prim: usize,
        pending: u32,
        registered: bool,
        ready: u64,
    }
    let n = t.primitives();
    let mut s = FetcherStats {
        primitives: n as u64,
        l2_reads: t.reads().len() as u64,
        l2_read_misses: t.reads().iter().filter(|r| !r.l2_hit).count() as u64,
        ..FetcherStats::default()
    };
    let mut mshrs: Vec<Mshr> = Vec::new();
    let mut dram = tm.dram_banks.as_ref().map(DramBanks::new);
    let mut waiting: Vec<(u64, usize)> = Vec::new();
    let mut fifo: VecDeque<Slot> = VecDeque::new();
    let mut out = Vec::new();
    let (mut next, mut registering, mut order) = (0, None::<(usize, usize)>, 0);
    let mut now = 0u64;
    loop {
        // 1. Returns.
        while let Some(k) = mshrs
            .iter()
            .position(|m| m.sent.is_some_and(|at| at + m.latency == now))
        {
            let block = mshrs.remove(k).block;
            for &(b, p) in waiting.iter().filter(|w| w.0 == block) {
                let slot = fifo.iter_mut().find(|f| f.prim == p).unwrap();
                slot.pending -= 1;
                slot.ready = slot.ready.max(now + 1);
                let _ = b;
            }
            waiting.retain(|w| w.0 != block);
        }
        // 2. Output.
        if fifo
            .front()
            .is_some_and(|h| h.registered && h.pending == 0 && h.ready <= now)
        {
            out.push((fifo.pop_front().unwrap().prim, now));
        }
        // 3. Front end.
        let has_work = registering.is_some() || next < n;
        let mut progress = false;
        let mut stall = "";
        if registering.is_none() && next < n {
            if fifo.len() < tm.fifo_entries as usize {
                fifo.push_back(Slot {
                    prim: next,
                    pending: 0,
                    registered: false,
                    ready: now + 1,
                });
                registering = Some((next, 0));
                next += 1;
                progress = true;
            } else {
                stall = "fifo";
            }
        }
        if let Some((p, mut i)) = registering {
            let reads = t.primitive(p);
            while i < reads.len() {
                let r = reads[i];
                let full = mshrs.len() == tm.mshrs as usize;
                match mshrs.iter_mut().find(|m| m.block == r.block) {
                    Some(m) if m.targets < tm.targets_per_mshr => {
                        m.targets += 1;
                        s.merged_reads += 1;
                    }
                    Some(_) => {
                        stall = "target";
                        break;
                    }
                    None if !full => {
                        mshrs.push(Mshr {
                            block: r.block,
                            order,
                            l2_hit: r.l2_hit,
                            latency: 0,
                            sent: None,
                            targets: 1,
                        });
                        order += 1;
                    }
                    None => {
                        stall = "mshr";
                        break;
                    }
                }
                waiting.push((r.block, p));
                fifo.iter_mut().find(|f| f.prim == p).unwrap().pending += 1;
                progress = true;
                i += 1;
            }
            if i == reads.len() {
                fifo.iter_mut().find(|f| f.prim == p).unwrap().registered = true;
                registering = None;
            } else {
                registering = Some((p, i));
            }
        }
        if has_work && !progress {
            match stall {
                "fifo" => s.fifo_stall_cycles += 1,
                "mshr" => s.mshr_stall_cycles += 1,
                "target" => s.target_stall_cycles += 1,
                _ => unreachable!("no progress without a reason"),
            }
        }
        // 4. Send.
        if let Some(m) = mshrs
            .iter_mut()
            .filter(|m| m.sent.is_none())
            .min_by_key(|m| m.order)
        {
            m.sent = Some(now);
            m.latency = tm.read_cycles(m.l2_hit);
            if let (false, Some(d)) = (m.l2_hit, dram.as_mut()) {
                let waited = d.read(m.block, 64, now + u64::from(tm.l2_cycles));
                m.latency += waited;
                s.dram_wait_cycles += waited;
            }
            s.l2_requests += 1;
        }
        let in_flight = mshrs.iter().filter(|m| m.sent.is_some()).count() as u64;
        s.request_cycles += in_flight;
        s.busy_cycles += u64::from(in_flight > 0);
        if next == n && registering.is_none() && fifo.is_empty() {
            break;
        }
        now += 1;
    }
    s.cycles = out.last().map_or(0, |&(_, at)| at);
    s.primitives_per_cycle = if s.cycles == 0 {
        0.0
    } else {
        s.primitives as f64 / s.cycles as f64
    };
    s.mlp = if s.busy_cycles == 0 {
        0.0
    } else {
        s.request_cycles as f64 / s.busy_cycles as f64
    };
    (s, out)
}

/// A render pass binned into `tiles_x * tiles_y` tiles.
fn binning(prims: u32, tiles_x: u32, tiles_y: u32) -> Binning {
    let tiles = tiles_x * tiles_y;
    Binning::new(&BinnedFrame {
        tiles_x,
        tiles_y,
        tile_size: 32,
        order: TileOrder::ZOrder,
        primitives: (0..prims)
            .map(|p| BinnedPrimitive {
                attributes: 1 + p % 5,
                tiles: (0..1 + p % 7).map(|k| (p * 13 + k * 31) % tiles).collect(),
            })
            .collect(),
    })
    .unwrap()
}

/// A trace of two frames of the render pass `b`, tiles in its traversal
/// order, with no accesses of its own.
fn frames(b: &Binning) -> Batch {
    let mut batch = Batch::default();
    for frame in 0..2 {
        for &tile in b.sequence() {
            batch.markers.push((0, Marker::TileBegin { tile }));
            batch.markers.push((0, Marker::TileEnd { tile }));
        }
        batch.markers.push((0, Marker::FrameEnd { frame }));
    }
    batch
}

/// Both engines mark one primitive per tile use, and `FrameL2` times what
/// they read: the blocking model is the old serial sum, and the sweep's
/// timings see the same reads as the main one.
#[test]
fn frame_l2_times_each_engines_primitives() {
    let b = binning(3000, 62, 24);
    let l2 = L2Config {
        bytes: 256 * 1024,
        ways: 8,
        policy: L2Policy::Lru,
    };
    let blocking = FetcherTiming::default().blocking();
    for engine in [
        TilingEngine::Baseline(BaselineConfig::kib64()),
        TilingEngine::Tcor(TcorConfig::kib64()),
    ] {
        let pass = [
            PassTraffic::new(&b, &engine).unwrap(),
            PassTraffic::new(&b, &engine).unwrap(),
        ];
        let starts = pass[0].fetch_primitives();
        assert_eq!(starts.len() as u64, b.total_uses());
        assert!(starts.windows(2).all(|w| w[0] <= w[1]));
        let sweep = [blocking, timing(12, 75, 1, 1, 1), FetcherTiming::default()];
        let mut f = FrameL2::new(
            &pass[..1],
            l2,
            TileBuffers::Memory,
            FetcherTiming::default(),
        )
        .unwrap()
        .with_fetcher_sweep(&sweep);
        // One render pass per frame: the binned passes of both frames.
        let mut f2 = FrameL2::new(&pass, l2, TileBuffers::Memory, FetcherTiming::default())
            .unwrap()
            .with_fetcher_sweep(&sweep);
        f2.batch(&frames(&b)).unwrap();
        let ends = f2.frame_ends().to_vec();
        let sweep_ends = f2.sweep_ends().to_vec();
        let total = f2.finish().unwrap();
        assert_eq!(ends.len(), 2);
        let old = &sweep_ends[1][0];
        let reads = pass[0].fetch_blocks().filter(|(_, blk)| !blk.write).count() as u64;
        assert_eq!(old.primitives, 2 * b.total_uses());
        assert_eq!(old.l2_reads, 2 * reads);
        assert_eq!(
            old.cycles,
            old.primitives + 12 * old.l2_reads + 75 * old.l2_read_misses,
            "the blocking fetcher is the serial sum"
        );
        assert_eq!(total.fetcher, ends[1].fetcher);
        assert_eq!(
            sweep_ends[1][1].cycles, old.cycles,
            "1 MSHR, 1 target, 1 entry"
        );
        assert_eq!(
            sweep_ends[1][2], total.fetcher,
            "the sweep's default is the main"
        );
        assert!(
            total.fetcher.cycles < old.cycles,
            "outstanding reads overlap"
        );
        assert_eq!(total.fetcher.primitives, total.engine.primitives_fetched);
        // The second frame alone, as a difference of snapshots.
        let second = ends[1].fetcher.since(&ends[0].fetcher);
        assert_eq!(second.primitives, b.total_uses());
        assert!(
            f.batch(&frames(&b)).is_err(),
            "one binned pass for two frames"
        );
    }
}
