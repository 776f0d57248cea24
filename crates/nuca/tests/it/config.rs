//! The configuration: the paper's values by default, and clear errors.

use gfxcache_nuca::{
    AnnouncedCount, BusChannels, CountedAccesses, EpochReset, NucaConfig, NucaError,
};

#[test]
fn defaults_are_the_papers() {
    let c = NucaConfig::default();
    assert_eq!(c.fps, 32);
    assert_eq!((c.tc_bytes, c.tc_ways, c.block_bytes), (16384, 4, 64));
    assert_eq!((c.buckets, c.page_blocks, c.counter_bits), (32, 8, 4));
    assert_eq!(c.epoch, 20_000);
    assert_eq!(c.margin_percent, 25);
    assert_eq!(c.epoch_reset, EpochReset::Halve);
    assert_eq!(c.counted, CountedAccesses::Every);
    assert_eq!(c.announced_count, AnnouncedCount::AsAnnounced);
    c.check().unwrap();
    let g = c.tc_geometry().unwrap();
    assert_eq!((g.sets, g.ways), (64, 4));
    let s = c.shared_geometry().unwrap();
    assert_eq!((s.sets, s.ways), (64, 128));
}

#[test]
fn serde_round_trip_and_partial_documents() {
    let c = NucaConfig {
        fps: 4,
        epoch_reset: EpochReset::Clear,
        counted: CountedAccesses::LocalMisses,
        ..NucaConfig::default()
    };
    let json = serde_json::to_string(&c).unwrap();
    assert!(json.contains("\"epoch_reset\":\"clear\""), "{json}");
    assert!(json.contains("\"counted\":\"local-misses\""), "{json}");
    assert_eq!(serde_json::from_str::<NucaConfig>(&json).unwrap(), c);
    let partial: NucaConfig = serde_json::from_str(r#"{"fps": 8}"#).unwrap();
    assert_eq!(
        partial,
        NucaConfig {
            fps: 8,
            ..NucaConfig::default()
        }
    );
    let unknown = serde_json::from_str::<NucaConfig>(r#"{"fpz": 8}"#).unwrap_err();
    assert!(unknown.to_string().contains("fpz"), "{unknown}");
}

fn field_of(c: NucaConfig) -> (&'static str, String) {
    match c.check() {
        Err(e @ NucaError::Config { field, .. }) => (field, e.to_string()),
        other => panic!("expected a config error, got {other:?}"),
    }
}

#[test]
fn each_bad_field_is_named() {
    let d = NucaConfig::default;
    let cases: Vec<(NucaConfig, &str)> = vec![
        (NucaConfig { fps: 0, ..d() }, "fps"),
        (NucaConfig { fps: 5000, ..d() }, "fps"),
        (
            NucaConfig {
                tc_bytes: 1000,
                ..d()
            },
            "tc_bytes, tc_ways, block_bytes",
        ),
        (
            NucaConfig { tc_ways: 3, ..d() },
            "tc_bytes, tc_ways, block_bytes",
        ),
        (
            NucaConfig {
                block_bytes: 48,
                ..d()
            },
            "tc_bytes, tc_ways, block_bytes",
        ),
        (NucaConfig { buckets: 0, ..d() }, "buckets"),
        (
            NucaConfig {
                page_blocks: 0,
                ..d()
            },
            "page_blocks",
        ),
        (
            NucaConfig {
                counter_bits: 0,
                ..d()
            },
            "counter_bits",
        ),
        (
            NucaConfig {
                counter_bits: 9,
                ..d()
            },
            "counter_bits",
        ),
        (NucaConfig { epoch: 0, ..d() }, "epoch"),
        (
            NucaConfig {
                margin_percent: 100_001,
                ..d()
            },
            "margin_percent",
        ),
    ];
    for (c, want) in cases {
        let (field, text) = field_of(c);
        assert_eq!(field, want, "{text}");
        assert!(
            text.starts_with(&format!("nuca config: {want} = ")),
            "{text}"
        );
        assert!(text.contains("expected"), "{text}");
    }
    let (_, text) = field_of(NucaConfig {
        counter_bits: 9,
        ..d()
    });
    assert_eq!(
        text,
        "nuca config: counter_bits = 9: expected 1 to 8 bits per counter"
    );
}

#[test]
fn the_machine_defaults_and_bad_knobs() {
    use gfxcache_nuca::{Contention, L2Attach};
    let c = NucaConfig::default();
    assert_eq!((c.l2.bytes, c.l2.ways, c.l2.banks), (1 << 20, 8, 8));
    assert_eq!(c.l2.hit_cycles, 18);
    assert_eq!((c.mesh.hop_cycles, c.mesh.flit_bits), (1, 128));
    assert_eq!(c.mesh.contention, Contention::Data);
    assert_eq!(c.timing.tc_cycles, 2);
    assert_eq!(c.timing.dram_cycles, 75);
    assert!(!c.timing.dram_banks);
    assert_eq!(c.timing.dram, gfxcache_mem::DramPreset::Lpddr3_1600);
    assert_eq!(c.timing.clock_mhz, 600);
    assert_eq!(c.timing.l2_attach, L2Attach::Bus);
    assert_eq!(c.timing.contexts, 1);
    assert!(c.timing.bus_occupancy);
    assert_eq!(
        (c.timing.bus_arbitration_cycles, c.timing.bus_width_bits),
        (1, 128)
    );
    assert_eq!(c.timing.bus_channels, BusChannels::Shared);
    let nested: NucaConfig = serde_json::from_str(
        r#"{"mesh": {"contention": "all"}, "timing": {"l2_attach": "corner", "bus_channels": "split", "bus_occupancy": false, "dram_banks": true, "dram": "ddr3-1867"}, "announced_count": "halved"}"#,
    )
    .unwrap();
    assert_eq!(nested.timing.bus_channels, BusChannels::Split);
    assert!(!nested.timing.bus_occupancy);
    assert!(nested.timing.dram_banks);
    assert_eq!(nested.timing.dram, gfxcache_mem::DramPreset::Ddr3_1867);
    assert_eq!(nested.announced_count, AnnouncedCount::Halved);
    assert_eq!(nested.mesh.contention, Contention::All);
    assert_eq!(nested.timing.l2_attach, L2Attach::Corner);
    assert_eq!(nested.mesh.flit_bits, 128);

    let bad = |edit: fn(&mut NucaConfig), field: &str| {
        let mut c = NucaConfig::default();
        edit(&mut c);
        assert_eq!(field_of(c).0, field);
    };
    bad(|c| c.l2.ways = 3, "l2.bytes, l2.ways");
    bad(|c| c.l2.banks = 0, "l2.banks");
    bad(|c| c.mesh.cols = 33, "mesh.cols");
    bad(|c| c.mesh.hop_cycles = 0, "mesh.hop_cycles");
    bad(|c| c.mesh.flit_bits = 0, "mesh.flit_bits");
    bad(|c| c.timing.tc_cycles = 0, "timing.tc_cycles");
    bad(|c| c.timing.contexts = 0, "timing.contexts");
    bad(|c| c.timing.clock_mhz = 0, "timing.clock_mhz");
    // With the banks the latency covers LPDDR3's 39 cycles of a row
    // conflict's service at 600 MHz (12 + 12 + 9 + 6).
    bad(
        |c| {
            c.timing.dram_banks = true;
            c.timing.dram_cycles = 38;
        },
        "timing.dram_cycles",
    );
    let mut covered = NucaConfig::default();
    covered.timing.dram_banks = true;
    covered.timing.dram_cycles = 39;
    assert!(covered.check().is_ok());
    bad(|c| c.timing.clock_mhz = 10_001, "timing.clock_mhz");
    bad(|c| c.timing.bus_width_bits = 0, "timing.bus_width_bits");
    bad(
        |c| {
            c.block_bytes = 1024;
            c.timing.bus_width_bits = 1;
        },
        "timing.bus_width_bits",
    );
    let mut narrow = NucaConfig::default();
    narrow.timing.bus_width_bits = 1;
    narrow.check().unwrap();
    bad(|c| c.energy.router_pj_per_flit = f64::NAN, "energy");
    let mut wide = NucaConfig::default();
    wide.mesh.cols = 32;
    wide.check().unwrap();
}
