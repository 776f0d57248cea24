//! The LLC timing, the GPU front and the frame timer: latencies worked out
//! by hand, latency hiding by thread contexts, and properties on random
//! traces (more hits never lengthen a frame; same inputs, same timing).

use gfxcache_mem::{DramConfig, FrameTimer, FrameTiming, GpuConfig, Llc, LlcTiming, Scheduler};
use gfxcache_trace::Stream;
use proptest::prelude::*;

const NS: u64 = 1000;

/// One access as the timer takes it.
#[derive(Clone, Copy, Debug)]
struct Acc {
    line: u64,
    stream: Stream,
    write: bool,
    hit: bool,
}

fn read(line: u64, hit: bool) -> Acc {
    Acc {
        line,
        stream: Stream::Z,
        write: false,
        hit,
    }
}

fn gpu(contexts: u32, work_cycles: u32) -> GpuConfig {
    GpuConfig {
        cores: 1,
        threads_per_core: contexts,
        work_cycles,
        ..GpuConfig::high_end()
    }
}

fn time(gpu: &GpuConfig, dram: &DramConfig, accesses: &[Acc]) -> FrameTiming {
    let mut t = FrameTimer::new(gpu, &LlcTiming::gspc(), dram).unwrap();
    for a in accesses {
        t.access(a.line, a.stream, a.write, a.hit);
    }
    t.finish()
}

/// Distinct lines spread over LLC banks, DRAM channels, banks and rows.
fn scattered(n: usize, hit: bool) -> Vec<Acc> {
    (0..n as u64)
        .map(|i| read(i.wrapping_mul(0x9e37_79b9) & 0xff_ffff, hit))
        .collect()
}

#[test]
fn an_llc_hit_costs_20_cycles_at_4_ghz() {
    // 20 cycles * 250 ps = 5 ns, from issue at 0 with every bank free.
    let t = time(&gpu(1, 0), &DramConfig::ddr3_1600(), &[read(0, true)]);
    assert_eq!(t.frame_ps, 5 * NS);
    assert_eq!(t.mean_read_latency_ns, 5.0);
    assert_eq!((t.llc_hits, t.llc_misses, t.dram_reads), (1, 0, 0));
}

#[test]
fn an_llc_bank_takes_one_request_per_cycle() {
    let mut llc = Llc::new(&LlcTiming::gspc()).unwrap();
    assert_eq!(llc.lookup(0, 0), 0);
    // Line 4 is bank 0 again: one LLC cycle (250 ps) later.
    assert_eq!(llc.lookup(0, 4), 250);
    assert_eq!(llc.lookup(0, 8), 500);
    // Line 1 is bank 1, free.
    assert_eq!(llc.lookup(0, 1), 0);
    assert_eq!(llc.load_to_use_ps(), 5 * NS);
}

#[test]
fn one_context_pays_every_miss_in_full() {
    // Per miss: LLC round trip 5 ns + DRAM 100 ns; then 100 GPU cycles of
    // work at 1.6 GHz = 62.5 ns before the next. The frame ends at the last
    // completion, so it holds n latencies and n - 1 works.
    let n = 1000u64;
    let t = time(
        &gpu(1, 100),
        &DramConfig::fixed(100.0),
        &scattered(n as usize, false),
    );
    assert_eq!(t.frame_ps, n * 105 * NS + (n - 1) * 62_500);
    let about = (n * (5 * NS + 100 * NS + 62_500)) as f64;
    assert!((t.frame_ps as f64 / about - 1.0).abs() < 0.01);
    assert_eq!(t.mean_read_latency_ns, 105.0);
    assert_eq!((t.llc_misses, t.dram_reads), (n, n));
}

#[test]
fn contexts_hide_latency() {
    let dram = DramConfig::fixed(100.0);
    let trace = scattered(8000, false);
    let one = time(&gpu(1, 100), &dram, &trace);
    let eight = time(&gpu(8, 100), &dram, &trace);
    let ratio = one.frame_ps as f64 / eight.frame_ps as f64;
    assert!((7.8..=8.1).contains(&ratio), "ratio {ratio}");

    // 768 contexts, 20 misses each (105 ns, then 625 ns of work): each
    // context's chain is 20 * 105 + 19 * 625 ns, the last one starting
    // late by the first round's queue at the LLC: 768 requests over 4 banks
    // that take one per 250 ps, so 191 * 250 ps. One context would chain
    // all 15 360 misses.
    let n = 768 * 20;
    let many = time(&GpuConfig::high_end(), &dram, &scattered(n, false));
    let chain = 20 * 105 * NS + 19 * 625 * NS;
    assert!(
        (chain..=chain + 191 * 250 + 250).contains(&many.frame_ps),
        "{}",
        many.frame_ps
    );
    let one = time(&gpu(1, 1000), &dram, &scattered(n, false));
    assert_eq!(
        one.frame_ps,
        n as u64 * 105 * NS + (n as u64 - 1) * 625 * NS
    );
}

#[test]
fn contexts_do_not_beat_the_dram_bus() {
    // 768 contexts with no work want far more than 25.6 GB/s: the frame
    // is bounded by two channels each moving one line per 5 ns.
    let n = 100_000u64;
    let t = time(
        &gpu(768, 0),
        &DramConfig::ddr3_1600(),
        &scattered(n as usize, false),
    );
    assert!(t.frame_ps >= n * 5 * NS / 2, "{}", t.frame_ps);
    assert!(
        t.dram_bandwidth_gbps <= 25.6 + 1e-9,
        "{}",
        t.dram_bandwidth_gbps
    );
    assert!(t.dram_busy_fraction <= 1.0 && t.dram_busy_fraction > 0.3);
    assert_eq!(t.row_hits + t.row_misses + t.row_conflicts, n);
}

#[test]
fn bank_parallel_keeps_the_bus_busier_than_fcfs() {
    // A saturated frame (768 contexts, no work, all misses) of random lines
    // under both schedulers: FCFS leaves a channel's bus idle behind every
    // row conflict; serving each bank on its own fills those gaps. (Not
    // `scattered`: its lines visit the 16 banks in strict rotation, an
    // order in which FCFS never waits behind a busy bank.)
    let trace: Vec<Acc> = (0..100_000u64)
        .map(|i| read(i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40, false))
        .collect();
    let run = |scheduler| {
        let dram = DramConfig {
            scheduler,
            ..DramConfig::ddr3_1600()
        };
        time(&gpu(768, 0), &dram, &trace)
    };
    let (fcfs, parallel) = (run(Scheduler::Fcfs), run(Scheduler::BankParallel));
    eprintln!(
        "busy fraction fcfs {:.3} bank-parallel {:.3}; read latency {:.0} / {:.0} ns; \
         frame {} / {} ns",
        fcfs.dram_busy_fraction,
        parallel.dram_busy_fraction,
        fcfs.mean_read_latency_ns,
        parallel.mean_read_latency_ns,
        fcfs.frame_ns,
        parallel.frame_ns,
    );
    assert!(
        parallel.dram_busy_fraction > fcfs.dram_busy_fraction,
        "{} vs {}",
        parallel.dram_busy_fraction,
        fcfs.dram_busy_fraction
    );
    assert!(parallel.frame_ps < fcfs.frame_ps);
    assert!(parallel.mean_read_latency_ns < fcfs.mean_read_latency_ns);
    // The same accesses reached the same banks and rows in the same order
    // per bank, so only the bus order differs.
    assert_eq!(
        (
            parallel.dram_reads,
            parallel.row_hits,
            parallel.row_conflicts
        ),
        (fcfs.dram_reads, fcfs.row_hits, fcfs.row_conflicts)
    );
}

#[test]
fn fewer_misses_make_a_shorter_frame() {
    // The same frame with half its misses turned into hits, on the paper's
    // GPU and DRAM.
    let mut trace = scattered(200_000, false);
    let all = time(&GpuConfig::high_end(), &DramConfig::ddr3_1600(), &trace);
    // Not every other access: `scattered` alternates DRAM channels, so that
    // would leave one channel's load as it was.
    for (i, a) in trace.iter_mut().enumerate() {
        a.hit = (i as u64).wrapping_mul(0x2545_f491_4f6c_dd1d) >> 63 == 1;
    }
    let half = time(&GpuConfig::high_end(), &DramConfig::ddr3_1600(), &trace);
    assert!(half.frame_ps < all.frame_ps);
    assert!(half.fps > all.fps);
    let ratio = half.dram_reads as f64 / all.dram_reads as f64;
    assert!((0.45..0.55).contains(&ratio), "{ratio}");
    assert!(half.frame_ps as f64 <= 0.8 * all.frame_ps as f64);
}

#[test]
fn writes_are_posted() {
    // One context, writes only: it never waits for the LLC or DRAM, so the
    // accesses are one work (62.5 ns) apart and the last write is in the
    // LLC 5 ns after its issue.
    let n = 100u64;
    let writes: Vec<Acc> = (0..n)
        .map(|i| Acc {
            line: i,
            stream: Stream::Rt,
            write: true,
            hit: false,
        })
        .collect();
    let t = time(&gpu(1, 100), &DramConfig::fixed(100.0), &writes);
    assert_eq!(t.frame_ps, (n - 1) * 62_500 + 5 * NS);
    assert_eq!((t.writes, t.llc_misses, t.dram_reads), (n, n, 0));
}

#[test]
fn writebacks_use_the_dram_but_nobody_waits() {
    // One context reading channel 0; each miss evicts a dirty line of
    // channel `wb_channel`, at another row of the same bank.
    let run = |wb_channel: Option<u64>| {
        let dram = DramConfig::ddr3_1600();
        let mut t = FrameTimer::new(&gpu(1, 0), &LlcTiming::gspc(), &dram).unwrap();
        for i in 0..1000u64 {
            t.access(i * 2, Stream::Tex, false, false);
            if let Some(c) = wb_channel {
                t.writeback((1 << 20) + i * 2 + c);
            }
        }
        t.finish()
    };
    let (plain, same, other) = (run(None), run(Some(0)), run(Some(1)));
    assert_eq!((same.dram_reads, same.dram_writes), (1000, 1000));
    assert_eq!(plain.dram_writes, 0);
    // On the other channel the write-backs cost the reads nothing (the last
    // one may end a little after the last read).
    assert!(other.frame_ps <= plain.frame_ps + 100 * NS);
    assert!(other.dram_bandwidth_gbps > 1.9 * plain.dram_bandwidth_gbps);
    // On the reads' channel and banks they take bus and bank time.
    assert!(same.frame_ps > plain.frame_ps + 1000 * 5 * NS);
}

#[test]
fn samplers_limit_texture_issue() {
    // Many idle contexts, all hits: only the issue limits bind. One sampler
    // issues one texture request per GPU cycle (625 ps); other streams are
    // limited by the 16 issues per cycle (39 ps) and the LLC banks.
    let cfg = GpuConfig {
        samplers: 1,
        ..gpu(1024, 0)
    };
    let tex: Vec<Acc> = (0..1000)
        .map(|i| Acc {
            line: i,
            stream: Stream::Tex,
            write: false,
            hit: true,
        })
        .collect();
    let z: Vec<Acc> = (0..1000).map(|i| read(i, true)).collect();
    let tex = time(&cfg, &DramConfig::ddr3_1600(), &tex);
    let z = time(&cfg, &DramConfig::ddr3_1600(), &z);
    assert_eq!(tex.frame_ps, 999 * 625 + 5 * NS);
    // Z requests issue 39 ps apart, faster than the four LLC banks take
    // them (one per 250 ps each): access 999, the 250th on bank 3, whose
    // first arrived at 3 * 39 ps, starts 249 bank cycles after that one.
    assert_eq!(z.frame_ps, 3 * 39 + 249 * 250 + 5 * NS);
}

#[test]
fn fps_is_one_second_over_the_frame() {
    let t = time(
        &GpuConfig::high_end(),
        &DramConfig::ddr3_1600(),
        &scattered(10_000, false),
    );
    assert!(t.frame_ns > 0.0);
    assert_eq!(t.fps, 1e9 / t.frame_ns);
    assert_eq!(t.frame_ns, t.frame_ps as f64 / 1000.0);
    let empty = time(&GpuConfig::high_end(), &DramConfig::ddr3_1600(), &[]);
    assert_eq!((empty.frame_ps, empty.fps), (0, 0.0));
}

#[test]
fn presets_have_the_papers_numbers() {
    let hi = GpuConfig::high_end();
    assert_eq!((hi.contexts(), hi.samplers, hi.clock_ghz), (768, 12, 1.6));
    let lo = GpuConfig::less_aggressive();
    assert_eq!((lo.contexts(), lo.samplers), (512, 8));
    let t = FrameTimer::new(&lo, &LlcTiming::gspc(), &DramConfig::ddr3_1600()).unwrap();
    assert_eq!(t.contexts(), 512);
    let d = DramConfig::ddr3_1867();
    assert_eq!((d.t_cas, d.t_rcd, d.t_rp, d.clock_mhz), (10, 10, 10, 933));
    assert_eq!((d.channels, d.banks_per_channel), (2, 8));
    let d = DramConfig::ddr3_1600();
    assert_eq!((d.t_cas, d.t_rcd, d.t_rp, d.clock_mhz), (15, 15, 15, 800));
    assert_eq!((d.channels, d.banks_per_channel, d.burst_length), (2, 8, 8));
    let l = LlcTiming::gspc();
    assert_eq!(
        (l.banks, l.bank_bytes, l.load_to_use_cycles),
        (4, 2 << 20, 20)
    );
}

#[test]
fn bad_configs_are_errors() {
    let llc = LlcTiming::gspc();
    let dram = DramConfig::ddr3_1600();
    assert!(FrameTimer::new(&gpu(0, 0), &llc, &dram).is_err());
    let odd_llc = LlcTiming {
        banks: 3,
        ..llc.clone()
    };
    assert!(FrameTimer::new(&GpuConfig::high_end(), &odd_llc, &dram).is_err());
    let zero_clock = GpuConfig {
        clock_ghz: 0.0,
        ..GpuConfig::high_end()
    };
    assert!(FrameTimer::new(&zero_clock, &llc, &dram).is_err());
}

fn arb_trace() -> impl Strategy<Value = Vec<Acc>> {
    prop::collection::vec(
        (
            0u64..1 << 16,
            0usize..Stream::COUNT,
            prop::bool::weighted(0.2),
            any::<bool>(),
        ),
        1..400,
    )
    .prop_map(|v| {
        v.into_iter()
            .map(|(line, s, write, hit)| Acc {
                line,
                stream: Stream::ALL[s],
                write,
                hit,
            })
            .collect()
    })
}

fn arb_dram() -> impl Strategy<Value = DramConfig> {
    prop_oneof![
        Just(DramConfig::ddr3_1600()),
        Just(DramConfig::ddr3_1867()),
        Just(DramConfig::lpddr3_1600()),
        Just(DramConfig::fixed(80.0)),
    ]
}

proptest! {
    #[test]
    fn all_hits_never_slower_than_all_misses(
        trace in arb_trace(), dram in arb_dram(), contexts in 1u32..64, work in 0u32..300,
    ) {
        let gpu = gpu(contexts, work);
        let hits: Vec<Acc> = trace.iter().map(|a| Acc { hit: true, ..*a }).collect();
        let misses: Vec<Acc> = trace.iter().map(|a| Acc { hit: false, ..*a }).collect();
        let h = time(&gpu, &dram, &hits);
        let m = time(&gpu, &dram, &misses);
        prop_assert!(h.frame_ps <= m.frame_ps, "hits {} misses {}", h.frame_ps, m.frame_ps);
        prop_assert_eq!(h.dram_reads, 0);
    }

    /// With a fixed-latency DRAM nothing is shared below the LLC, so turning
    /// any misses into hits can only shorten the frame.
    #[test]
    fn more_hits_never_lengthen_a_fixed_latency_frame(
        trace in arb_trace(), flip in prop::collection::vec(any::<bool>(), 400),
        contexts in 1u32..64, work in 0u32..300,
    ) {
        let gpu = gpu(contexts, work);
        let dram = DramConfig::fixed(120.0);
        let better: Vec<Acc> = trace
            .iter()
            .zip(&flip)
            .map(|(a, &f)| Acc { hit: a.hit || f, ..*a })
            .collect();
        let before = time(&gpu, &dram, &trace);
        let after = time(&gpu, &dram, &better);
        prop_assert!(after.frame_ps <= before.frame_ps);
    }

    #[test]
    fn same_inputs_same_timing(trace in arb_trace(), dram in arb_dram(), contexts in 1u32..1000) {
        let gpu = gpu(contexts, 500);
        let run = || {
            let mut t = FrameTimer::new(&gpu, &LlcTiming::gspc(), &dram).unwrap();
            for (i, a) in trace.iter().enumerate() {
                t.access(a.line, a.stream, a.write, a.hit);
                if !a.hit && i % 3 == 0 {
                    t.writeback(a.line ^ 0x5555);
                }
            }
            t.finish()
        };
        let (a, b) = (run(), run());
        prop_assert_eq!(&a, &b);
        prop_assert_eq!(a.llc_hits + a.llc_misses, a.accesses);
        prop_assert_eq!(a.reads + a.writes, a.accesses);
        prop_assert!(a.dram_busy_fraction <= 1.0);
    }

    /// Each frame of a sequence is timed on its own: ending a frame leaves
    /// the timer as a new one, whatever the frame before did.
    #[test]
    fn each_frame_is_timed_from_an_idle_machine(
        first in arb_trace(), second in arb_trace(), dram in arb_dram(), contexts in 1u32..200,
    ) {
        let gpu = gpu(contexts, 300);
        let mut t = FrameTimer::new(&gpu, &LlcTiming::gspc(), &dram).unwrap();
        for a in &first {
            t.access(a.line, a.stream, a.write, a.hit);
        }
        let one = t.end_frame();
        for a in &second {
            t.access(a.line, a.stream, a.write, a.hit);
        }
        let two = t.finish();
        prop_assert_eq!(one, time(&gpu, &dram, &first));
        prop_assert_eq!(two, time(&gpu, &dram, &second));
    }
}
