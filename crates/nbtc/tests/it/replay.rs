//! The streamed, parallel replay gives what each unit gives on its whole
//! input, however the frame is cut and whatever the thread count.

use crate::common;

use gfxcache_cache::run::Threads;
use gfxcache_mem::DramPreset;
use gfxcache_nbtc::{
    unit_events, MemoryPath, Mode, NbtcConfig, NbtcError, Replay, RunResult, TextureUnit,
};
use gfxcache_trace::texreq::{synth, TexReqRecord};

fn configs() -> Vec<NbtcConfig> {
    let small = |mode, memory_latency| NbtcConfig {
        l1_bytes: 2048,
        memory_latency,
        mode,
        fragments_in_flight: 4,
        ..NbtcConfig::default()
    };
    vec![
        small(Mode::Nbtc, 50),
        small(Mode::Blocking { serial: true }, 50),
        small(Mode::Nbtc, 300),
        NbtcConfig {
            wlb_entries: 1,
            ..small(Mode::Nbtc, 100)
        },
    ]
}

/// `r` fed `records` `chunk` at a time.
fn fed(mut r: Replay, records: &[TexReqRecord], chunk: usize, threads: Threads) -> Vec<RunResult> {
    for c in records.chunks(chunk) {
        r.feed(c, threads).unwrap();
    }
    r.finish(threads).unwrap()
}

fn replay(records: &[TexReqRecord], chunk: usize, threads: Threads) -> Vec<RunResult> {
    fed(Replay::new(&configs()).unwrap(), records, chunk, threads)
}

#[test]
fn chunks_and_threads_change_nothing_and_each_unit_is_its_whole_run() {
    let records = synth::frame(8, 6, 7);
    let whole = replay(&records, records.len(), Threads::One);
    for (chunk, threads) in [(1, Threads::Many), (17, Threads::One), (500, Threads::Many)] {
        assert_eq!(replay(&records, chunk, threads), whole, "chunk {chunk}");
    }
    let units = unit_events(records.iter().copied());
    for (run, config) in whole.iter().zip(configs()) {
        assert_eq!(run.units.len(), units.len());
        for (fp, events) in units.iter().enumerate() {
            let alone = TextureUnit::new(&config).unwrap().run(events).unwrap();
            assert_eq!(run.units[fp], alone, "fp {fp} {config:?}");
        }
        assert_eq!(
            run.total.cycles,
            run.units.iter().map(|u| u.cycles).sum::<u64>()
        );
        assert_eq!(
            run.frame_cycles,
            run.units.iter().map(|u| u.cycles).max().unwrap()
        );
        assert!(run.total.requests > 0);
    }
}

#[test]
fn a_bad_request_names_its_record() {
    let mut records = synth::frame(2, 1, 3);
    let i = records
        .iter()
        .position(|r| matches!(r, TexReqRecord::Request(_)))
        .unwrap();
    if let TexReqRecord::Request(r) = &mut records[i] {
        r.len = 0;
    }
    let mut replay = Replay::new(&configs()).unwrap();
    let e = replay.feed(&records, Threads::One).unwrap_err();
    assert_eq!(
        e,
        NbtcError::RecordTexels {
            record: i as u64,
            len: 0
        }
    );
    assert!(Replay::new(&[]).is_err());
}

/// The runs of `configs()` on a shared DRAM.
fn shared_configs() -> Vec<NbtcConfig> {
    configs()
        .into_iter()
        .map(|c| NbtcConfig {
            memory: MemoryPath::shared(),
            ..c
        })
        .collect()
}

fn replay_shared(records: &[TexReqRecord], chunk: usize, threads: Threads) -> Vec<RunResult> {
    let all = [configs(), shared_configs()].concat();
    fed(
        Replay::with_processors(&all, 8).unwrap(),
        records,
        chunk,
        threads,
    )
}

/// Units that share a DRAM run in step: however the frame is cut and
/// whatever the threads, the same counts; the private runs beside them
/// are what they are alone; the shared ones wait for memory and fetch
/// exactly what the private ones fetch.
#[test]
fn a_shared_memory_changes_nothing_with_the_chunks_or_threads() {
    let records = synth::frame(8, 6, 7);
    let whole = replay_shared(&records, records.len(), Threads::One);
    for (chunk, threads) in [(1, Threads::Many), (17, Threads::One), (500, Threads::Many)] {
        assert_eq!(
            replay_shared(&records, chunk, threads),
            whole,
            "chunk {chunk}"
        );
    }
    let n = configs().len();
    assert_eq!(whole[..n], replay(&records, records.len(), Threads::One));
    for (private, shared) in whole[..n].iter().zip(&whole[n..]) {
        assert_eq!(private.total.memory_wait_cycles, 0);
        assert!(shared.total.memory_wait_cycles > 0, "{:?}", shared.config);
        assert_eq!(
            shared.total.requests, private.total.requests,
            "{:?}",
            shared.config
        );
        assert_eq!(shared.total.accounted_cycles(), shared.total.cycles);
    }
}

fn request(fp: u16, alu: u32, addr: u64) -> TexReqRecord {
    common::record(fp, fp, alu, addr)
}

fn fragment_end(fp: u16) -> TexReqRecord {
    TexReqRecord::FragmentEnd {
        fp,
        x: fp,
        y: 0,
        ops: gfxcache_trace::ShaderOps::NONE,
    }
}

/// Worked by hand on LPDDR3-1600 (tCK 1.25 ns: tRCD = tRP = 18.75 ns,
/// RL = 15 ns, tRAS = 42.5 ns, a 64 B line 10 ns on a 4-byte bus) at
/// 500 MHz (2 ns a cycle). Two processors each miss one block in the same
/// cycle: byte 0 (line 0) and byte 65536 (line 1024), the same channel
/// and bank, rows 0 and 1. Processor 0's goes first (same cycle: lower
/// processor) and waits nothing. Processor 1's bank holds row 0 until
/// tRAS after its activate (42.5 ns), then precharges, activates and
/// reads: done at 105 ns against 62.5 ns of its own service, so it waits
/// 42.5 ns = 21.25 cycles, 22 whole. Far apart, they wait nothing.
#[test]
fn a_bank_conflict_between_two_processors_worked_by_hand() {
    let config = NbtcConfig {
        memory_latency: 50,
        ..NbtcConfig::default()
    };
    let run = |memory, gap: u32| {
        let records = [
            request(0, 3, 0),
            fragment_end(0),
            request(1, 3 + gap, 65536),
            fragment_end(1),
        ];
        let mut r = Replay::with_processors(&[NbtcConfig { memory, ..config }], 2).unwrap();
        r.feed(&records, Threads::One).unwrap();
        r.finish(Threads::One).unwrap().remove(0)
    };
    let private = run(MemoryPath::Private, 0);
    let shared = run(MemoryPath::shared(), 0);
    assert_eq!(shared.units[0], private.units[0]);
    let (p, s) = (&private.units[1], &shared.units[1]);
    assert_eq!(s.memory_wait_cycles, 22);
    assert_eq!(s.cycles, p.cycles + 22);
    assert_eq!(s.ps_stall_cycles, p.ps_stall_cycles + 22);
    // 200 cycles apart: the row has long been open for tRAS.
    let private = run(MemoryPath::Private, 200);
    let shared = run(MemoryPath::shared(), 200);
    assert_eq!(shared.units, private.units);
    // DDR3-1600 (tCAS = tRCD = 18.75 ns, a 64 B line 5 ns; 8 KiB rows): the
    // two lines share bank 0's row 0, so the second is a row hit that
    // waits for the bank's next column command, a line after the first's
    // (23.75 ns), and reads at 42.5 ns, right after the first's burst:
    // done at 47.5 ns against 23.75 ns of its own, 23.75 ns waited = 12
    // cycles.
    let ddr3 = run(
        MemoryPath::SharedDram {
            clock_mhz: 500,
            dram: DramPreset::Ddr3_1600,
        },
        0,
    );
    assert_eq!(ddr3.units[1].memory_wait_cycles, 12);
    assert_eq!(ddr3.units[0].memory_wait_cycles, 0);
}

#[test]
fn a_shared_memory_needs_every_processor_from_the_start() {
    let records = synth::frame(4, 1, 3);
    let mut r = Replay::new(&shared_configs()).unwrap();
    assert_eq!(
        r.feed(&records, Threads::One).unwrap_err(),
        NbtcError::SharedNeedsProcessors
    );
    let mut r = Replay::with_processors(&shared_configs(), 2).unwrap();
    let e = r.feed(&records, Threads::One).unwrap_err();
    assert!(
        matches!(
            e,
            NbtcError::Processor {
                fp: 2,
                processors: 2,
                ..
            }
        ),
        "{e:?}"
    );
}
