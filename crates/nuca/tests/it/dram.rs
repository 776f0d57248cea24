//! DRAM's banks and buses behind the L2 in DTM-NUCA's replay: they change
//! when data comes back, never where an access is served (in trace
//! order); every texture L2 miss is a read at the banks; one processor
//! with one context never waits for them; one miss alone takes the stated
//! latency, and misses to one bank wait as worked by hand.

use crate::common::machine_and_stream;
use gfxcache_nuca::{
    replay, NucaConfig, OrgKind, ReplayEvent, ReplayOrder, ReplayReport, TextureAccess, Threads,
};
use proptest::prelude::*;

fn tex(fp: u32, block: u64, work: u32) -> ReplayEvent {
    ReplayEvent::Texture(TextureAccess::new(fp, block * 64, work))
}

/// One miss alone: 2 (probe) + 2 (request on the bus) + 18 (L2) + 75
/// (DRAM) + 5 (reply) = 102 cycles on private caches, with the banks or
/// without; in every organization it opens a row and waits for nothing.
#[test]
fn a_miss_alone_takes_the_stated_latency() {
    let events = [tex(0, 0, 0), ReplayEvent::TileEnd];
    let mut config = NucaConfig {
        fps: 4,
        ..NucaConfig::default()
    };
    config.timing.dram_banks = true;
    let r = replay(&config, events, Threads::One).unwrap();
    for x in &r.results {
        if matches!(x.organization, OrgKind::Private | OrgKind::IdealShared) {
            assert_eq!(x.timing.cycles, 102, "{}", x.organization.name());
        }
        assert_eq!(
            (x.dram.reads, x.dram.row_misses, x.dram.wait_cycles),
            (1, 1, 0)
        );
    }
}

/// Three processors miss at cycle 0 on blocks 0, 16 and 32: three L2
/// banks (of 8), one DRAM bank (block 16 is the next line of block 0's
/// row). The bus grants the requests at 3, 4, 5; the L2 looks them up at
/// 4, 5, 6 to 22, 23, 24: the DRAM gets them at 22, 23 and 24. The first
/// opens the row (12 cycles of LPDDR3-1600's tRCD at 600 MHz) and holds
/// the bank 22-39; the second, a row hit, takes it 40-45, its data at 49
/// where alone it would be at 32: waits 17; the third 46-51, data at 55
/// against 33: waits 22. Without the banks none waits.
#[test]
fn misses_to_one_bank_wait_for_each_other() {
    let events = [
        tex(0, 0, 0),
        tex(1, 16, 0),
        tex(2, 32, 0),
        ReplayEvent::TileEnd,
    ];
    let mut config = NucaConfig {
        fps: 4,
        ..NucaConfig::default()
    };
    config.timing.dram_banks = true;
    let r = replay(&config, events, Threads::One).unwrap();
    let private = r
        .results
        .iter()
        .find(|x| x.organization == OrgKind::Private)
        .unwrap();
    let d = &private.dram;
    assert_eq!(
        (d.reads, d.row_misses, d.row_hits, d.wait_cycles),
        (3, 1, 2, 17 + 22)
    );
}

/// `stream`'s accesses with `work` cycles of shader work before every
/// third one's second and third, each on processor `fp` of the stream or
/// on processor 0 (`one_processor`); and the replay of `config` on them
/// without the DRAM's banks and with them.
fn flat_and_banked(
    config: &NucaConfig,
    stream: &[(usize, u64)],
    work: u32,
    one_processor: bool,
) -> (ReplayReport, ReplayReport) {
    let events: Vec<ReplayEvent> = stream
        .iter()
        .enumerate()
        .map(|(i, &(fp, block))| {
            let fp = if one_processor { 0 } else { fp as u32 };
            tex(fp, block, work * (i as u32 % 3))
        })
        .collect();
    let mut config = config.clone();
    config.timing.dram_banks = false;
    let flat = replay(&config, events.clone(), Threads::One).unwrap();
    config.timing.dram_banks = true;
    (flat, replay(&config, events, Threads::One).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn banks_change_when_data_returns_not_where_it_is_served(
        (config, stream) in machine_and_stream(300),
        contexts in 1u32..=4,
        work in 0u32..4,
    ) {
        let mut config = config;
        config.timing.contexts = contexts;
        // In trace order where an access is served does not depend on time.
        config.timing.order = ReplayOrder::Trace;
        let (flat, banked) = flat_and_banked(&config, &stream, work, false);
        for (b, f) in banked.results.iter().zip(&flat.results) {
            let name = b.organization.name();
            prop_assert_eq!(&b.stats, &f.stats, "{}", name);
            prop_assert_eq!(&b.l2, &f.l2, "{}", name);
            prop_assert_eq!(f.dram.reads, 0, "{}", name);
            prop_assert_eq!(b.dram.reads, b.l2.texture_misses, "{}", name);
            prop_assert_eq!(
                b.dram.row_hits + b.dram.row_misses + b.dram.row_conflicts,
                b.dram.reads
            );
        }
    }

    /// One fragment processor with one context issues each access after
    /// the one before has its data, so no DRAM read finds its bank or bus
    /// held: the banks change no cycle. (With more, a miss that comes back
    /// later can find the bus free where it would have queued: the frame
    /// may even end sooner, so no order between the two is asserted.)
    #[test]
    fn one_processor_with_one_context_never_waits_for_dram(
        (config, stream) in machine_and_stream(300),
        work in 0u32..4,
    ) {
        let mut config = config;
        config.fps = 1;
        config.timing.contexts = 1;
        let (flat, banked) = flat_and_banked(&config, &stream, work, true);
        for (b, f) in banked.results.iter().zip(&flat.results) {
            let name = b.organization.name();
            prop_assert_eq!(b.dram.reads, b.l2.texture_misses, "{}", name);
            prop_assert_eq!(b.dram.wait_cycles, 0, "{}", name);
            prop_assert_eq!(&b.timing, &f.timing, "{}", name);
        }
    }
}
