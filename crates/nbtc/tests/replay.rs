//! The streamed, parallel replay gives what each unit gives on its whole
//! input, however the frame is cut and whatever the thread count.

use gfxcache_cache::run::Threads;
use gfxcache_nbtc::{unit_events, Mode, NbtcConfig, NbtcError, Replay, RunResult, TextureUnit};
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

fn replay(records: &[TexReqRecord], chunk: usize, threads: Threads) -> Vec<RunResult> {
    let mut r = Replay::new(&configs()).unwrap();
    for c in records.chunks(chunk) {
        r.feed(c, threads).unwrap();
    }
    r.finish(threads)
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
