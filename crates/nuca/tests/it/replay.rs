//! The replay: the same results whatever the thread count and however the
//! input is cut, and bad input named.

use crate::common::{small, synthetic};
use gfxcache_nuca::{
    replay, BusChannels, NucaConfig, NucaError, OrgKind, Replay, ReplayEvent, ReplayOrder,
    TextureAccess, Threads,
};

#[test]
fn results_do_not_depend_on_threads_or_chunks() {
    for (order, channels) in [
        (ReplayOrder::Clock, BusChannels::Shared),
        (ReplayOrder::Trace, BusChannels::Shared),
        (ReplayOrder::Clock, BusChannels::Split),
    ] {
        let mut config = NucaConfig {
            fps: 8,
            epoch: 1000,
            ..NucaConfig::default()
        };
        config.timing.order = order;
        config.timing.bus_channels = channels;
        // More than one replay chunk, so the chunks' boundaries are
        // crossed, and tiles of 1000 accesses, which chunks cut.
        let accesses = synthetic(8, 3000, 150_000, 7);
        let events: Vec<ReplayEvent> = accesses
            .chunks(1000)
            .flat_map(|tile| tile.iter().map(|&a| a.into()).chain([ReplayEvent::TileEnd]))
            .collect();
        let one = replay(&config, events.iter().copied(), Threads::One).unwrap();
        let many = replay(&config, events.iter().copied(), Threads::Many).unwrap();
        assert_eq!(one, many);
        let mut cut = Replay::new(&config, &OrgKind::ALL).unwrap();
        for piece in events.chunks(997) {
            cut.feed(piece, Threads::Many).unwrap();
        }
        cut.finish(Threads::Many);
        assert_eq!(cut.report(), one);
        assert_eq!(
            serde_json::to_string(&one).unwrap(),
            serde_json::to_string(&many).unwrap()
        );
        // Every organization ran, and did something.
        assert_eq!(one.texture_accesses, 150_000);
        for kind in OrgKind::ALL {
            let s = one.stats(kind).unwrap();
            assert_eq!(s.texture_accesses, 150_000, "{}", kind.name());
            assert!(s.local_hits > 0 && s.l2_requests > 0, "{}", kind.name());
            let r = one.results.iter().find(|r| r.organization == kind).unwrap();
            assert_eq!(r.timing.tiles, 150, "{}", kind.name());
            assert!(r.bus.queue_cycles > 0, "the bus was contended");
        }
        assert!(one.stats(OrgKind::Dtm).unwrap().epochs == 150);
    }
}

#[test]
fn the_block_is_the_address_over_the_block_size() {
    let config = small(2, 4, 2, 10);
    let at = |addr| TextureAccess::new(0, addr, 0);
    let r = replay(
        &config,
        [at(0), at(63), at(64), at(127), at(1 << 40)],
        Threads::One,
    )
    .unwrap();
    let s = r.stats(OrgKind::Private).unwrap();
    assert_eq!((s.local_hits, s.l2_requests), (2, 3));
}

#[test]
fn a_fragment_processor_out_of_range_is_named() {
    let config = small(4, 1, 1, 10);
    let ok = TextureAccess::new(3, 0, 0);
    let bad = TextureAccess { fp: 4, ..ok };
    let err = replay(&config, [ok, ok, bad, ok], Threads::One).unwrap_err();
    assert_eq!(
        err,
        NucaError::FpOutOfRange {
            index: 2,
            fp: 4,
            fps: 4
        }
    );
    assert_eq!(
        err.to_string(),
        "event 2: a texture access by fragment processor 4, but the configuration has 4 (0 to 3)"
    );
    // Fed in pieces, the index is still the input's; nothing of the
    // refused piece ran.
    let mut r = Replay::new(&config, &[OrgKind::Private]).unwrap();
    r.feed(&[ok.into(), ok.into(), ok.into()], Threads::One)
        .unwrap();
    let err = r
        .feed(&[ReplayEvent::TileEnd, bad.into()], Threads::One)
        .unwrap_err();
    assert!(
        matches!(err, NucaError::FpOutOfRange { index: 4, .. }),
        "{err}"
    );
    r.finish(Threads::One);
    assert_eq!(r.report().texture_accesses, 3);
    assert_eq!(r.report().results[0].stats.texture_accesses, 3);
}

#[test]
fn a_bad_config_is_refused_before_anything_runs() {
    let config = NucaConfig {
        fps: 0,
        ..NucaConfig::default()
    };
    assert!(matches!(
        replay(&config, std::iter::empty::<ReplayEvent>(), Threads::One),
        Err(NucaError::Config { field: "fps", .. })
    ));
}

/// Reports name an organization the same in JSON as in their tables.
#[test]
fn the_serde_name_is_the_reports_name() {
    for kind in OrgKind::ALL {
        let json = serde_json::to_string(&kind).unwrap();
        assert_eq!(json, format!("\"{}\"", kind.name()));
        assert_eq!(serde_json::from_str::<OrgKind>(&json).unwrap(), kind);
    }
}
