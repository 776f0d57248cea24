//! The organizations: hand-worked sequences for DTM-NUCA's rules, and
//! invariants on random streams.

use crate::common::{machine_and_stream, small};
use gfxcache_nuca::{
    AnnouncedCount, AnyOrganization, CountedAccesses, DNuca, Dtm, DtmDistributed, MergedLookups,
    NucaConfig, NucaStats, OrgKind, Organization, Outcome, Placement, Private, SNuca,
};
use proptest::prelude::*;

fn run<O: Organization>(o: &mut O, stream: &[(usize, u64)]) -> Vec<Outcome> {
    stream.iter().map(|&(fp, b)| o.access(fp, b)).collect()
}

/// The outcomes and counts of `kind` on `stream`.
fn outcomes(
    kind: OrgKind,
    config: &NucaConfig,
    stream: &[(usize, u64)],
) -> (Vec<Outcome>, NucaStats) {
    macro_rules! go {
        ($o:expr) => {{
            let mut o = $o;
            let out = run(&mut o, stream);
            (out, o.stats().clone())
        }};
    }
    match AnyOrganization::new(kind, config).unwrap() {
        AnyOrganization::Private(m) => go!(m.into_organization()),
        AnyOrganization::DNuca(m) => go!(m.into_organization()),
        AnyOrganization::Dtm(m) => go!(m.into_organization()),
        AnyOrganization::DtmDist(m) => go!(m.into_organization()),
        AnyOrganization::SNuca(m) => go!(m.into_organization()),
        AnyOrganization::IdealShared(m) => go!(m.into_organization()),
    }
}

/// The DTM rule (Section III-B): after fragment processor 1 takes bucket
/// 0 over, fragment processor 0's stale copy of block A is still served
/// locally, but the hit leaves it least recently used, so the next fill
/// of that set evicts it rather than the block 0 touched before it.
#[test]
fn local_hit_on_a_bucket_not_owned_keeps_its_lru_place() {
    // One set of 2 ways per cache; block a is in bucket a mod 2.
    let config = NucaConfig {
        buckets: 2,
        page_blocks: 1,
        epoch: 1_000_000,
        ..small(2, 1, 2, 1)
    };
    let (a, b, e) = (0u64, 1u64, 3u64);
    let mut dtm = Dtm::new(&config).unwrap();
    assert_eq!(dtm.access(0, a), Outcome::L2 { owner: None });
    // Fragment processor 1 reads A from 0's cache; its 2-bit counter
    // saturates at the third read, 3 > 1 x 1.25: it takes bucket 0.
    for _ in 0..3 {
        assert_eq!(dtm.access(1, a), Outcome::RemoteHit { owner: 0 });
    }
    assert_eq!(dtm.table().owner(0), Some(1));
    assert_eq!(dtm.access(0, b), Outcome::L2 { owner: None }); // bucket 1: 0 owns it
    assert_eq!(dtm.caches()[0].recency_order(a), [b, a]);
    assert_eq!(dtm.access(0, a), Outcome::LocalHit);
    assert_eq!(
        dtm.caches()[0].recency_order(a),
        [b, a],
        "the stale copy was not refreshed"
    );
    assert_eq!(dtm.access(0, e), Outcome::L2 { owner: None });
    assert!(!dtm.caches()[0].contains(a), "the stale copy aged out");
    assert!(dtm.caches()[0].contains(b));

    // The owner's own local hits refresh as usual: the private caches on
    // the same accesses keep A and evict B.
    let mut private = Private::new(&config).unwrap();
    for (fp, blk) in [(0, a), (1, a), (1, a), (1, a), (0, b), (0, a), (0, e)] {
        private.access(fp, blk);
    }
    assert!(private.caches()[0].contains(a) && !private.caches()[0].contains(b));
}

/// The remote path: a block of a bucket another fragment processor owns
/// is served from the owner's cache, or read by the owner into its own
/// cache; the requester keeps no copy.
#[test]
fn remote_owner_fills_its_own_cache() {
    let config = NucaConfig {
        buckets: 2,
        page_blocks: 1,
        epoch: 1_000_000,
        counter_bits: 4,
        ..small(3, 1, 2, 1)
    };
    let mut dtm = Dtm::new(&config).unwrap();
    assert_eq!(dtm.access(2, 0), Outcome::L2 { owner: None }); // 2 owns bucket 0
    assert_eq!(dtm.access(1, 2), Outcome::L2 { owner: Some(2) });
    assert!(dtm.caches()[2].contains(2) && !dtm.caches()[1].contains(2));
    assert_eq!(dtm.access(0, 2), Outcome::RemoteHit { owner: 2 });
    let s = dtm.stats();
    assert_eq!(
        (
            s.local_hits,
            s.remote_hits,
            s.l2_requests,
            s.l2_requests_by_owner
        ),
        (0, 1, 2, 1)
    );
    assert_eq!(s.at_lookups, 3);
    assert_eq!(s.replication, [0, 3, 0, 0]);
}

/// Epochs of the centralized organization: the owner is re-decided after
/// the `epoch`-th access.
#[test]
fn epoch_moves_ownership_to_the_most_frequent() {
    let config = NucaConfig {
        buckets: 1,
        page_blocks: 1,
        counter_bits: 4,
        epoch: 5,
        ..small(2, 4, 2, 5)
    };
    let mut dtm = Dtm::new(&config).unwrap();
    dtm.access(0, 0); // 0 owns the only bucket
    for blk in 1..4 {
        dtm.access(1, blk);
    }
    assert_eq!(dtm.table().owner(0), Some(0));
    assert_eq!(dtm.stats().epochs, 0);
    dtm.access(1, 4); // the fifth access: counts [1, 4]
    assert_eq!(dtm.stats().epochs, 1);
    assert_eq!(dtm.table().owner(0), Some(1));
    assert_eq!(dtm.table().counters(0), [0, 2]);
    assert_eq!(dtm.stats().ownership_changes, 1);
    // 1 owns the bucket now and reads what it lacks itself: block 1 is
    // then in both caches, the replication an ownership change allows.
    assert_eq!(dtm.access(1, 1), Outcome::L2 { owner: None });
    assert!(dtm.caches()[0].contains(1) && dtm.caches()[1].contains(1));
    assert_eq!(dtm.stats().replication[2], 1);
    assert_eq!(
        dtm.access(0, 2),
        Outcome::LocalHit,
        "0's copies still serve it"
    );
    assert_eq!(dtm.access(0, 9), Outcome::L2 { owner: Some(1) });
}

/// A lookup merged with a miss on its way (a non-blocking L1's
/// secondary miss): with [`MergedLookups::Counted`] the centralized
/// table counts it, under either [`CountedAccesses`], as the access it
/// is, and it is one of the epoch's accesses: fragment processor 1's
/// one miss and two merged lookups saturate its 2-bit counter, 3 > 1 x
/// 1.25, and it takes bucket 0 over; the epoch of 5 ends at the access
/// after them.
/// Unseen, they change nothing but their count. Nothing is served,
/// filled or evicted either way.
#[test]
fn merged_lookups_count_in_the_table_and_the_epoch_or_are_unseen() {
    for counted in [CountedAccesses::Every, CountedAccesses::LocalMisses] {
        for merged in [MergedLookups::Counted, MergedLookups::Unseen] {
            let config = NucaConfig {
                buckets: 2,
                page_blocks: 1,
                counter_bits: 2,
                epoch: 5,
                counted,
                merged,
                ..small(2, 1, 2, 1)
            };
            let what = format!("{counted:?} {merged:?}");
            let mut dtm = Dtm::new(&config).unwrap();
            assert_eq!(dtm.access(0, 0), Outcome::L2 { owner: None });
            // Block 2 is in bucket 0 too: its owner reads it for 1.
            assert_eq!(dtm.access(1, 2), Outcome::L2 { owner: Some(0) });
            let before = dtm.stats().clone();
            dtm.merged(1, 2);
            dtm.merged(1, 2);
            let s = dtm.stats();
            assert_eq!(s.merged_lookups, 2, "{what}");
            assert_eq!(
                (
                    s.texture_accesses,
                    s.local_hits,
                    s.remote_hits,
                    s.l2_requests
                ),
                (2, 0, 0, 2),
                "{what}: nothing served"
            );
            assert!(!dtm.caches()[1].contains(2), "{what}: nothing filled");
            if merged == MergedLookups::Counted {
                assert_eq!(s.at_updates, before.at_updates + 2, "{what}");
                assert_eq!(dtm.table().owner(0), Some(1), "{what}: taken over");
                assert_eq!(s.ownership_changes, 1, "{what}");
                assert_eq!(s.epochs, 0, "{what}");
                dtm.access(0, 4);
                assert_eq!(dtm.stats().epochs, 1, "{what}: the fifth access");
            } else {
                assert_eq!(s.at_updates, before.at_updates, "{what}");
                assert_eq!(dtm.table().owner(0), Some(0), "{what}");
                dtm.access(0, 4);
                assert_eq!(dtm.stats().epochs, 0, "{what}: the third access");
            }
        }
    }
}

/// The distributed tables count a merged lookup in the requester's own
/// table only (3-bit counters: 1 + 2 merged, none saturated).
#[test]
fn merged_lookups_count_in_the_requesters_own_table() {
    for merged in [MergedLookups::Counted, MergedLookups::Unseen] {
        let config = NucaConfig {
            buckets: 1,
            page_blocks: 1,
            counter_bits: 3,
            epoch: 1_000,
            merged,
            ..small(2, 4, 2, 4)
        };
        let mut dist = DtmDistributed::new(&config).unwrap();
        assert_eq!(dist.access(1, 0), Outcome::L2 { owner: None });
        for _ in 0..2 {
            dist.merged(1, 0);
        }
        let counted = merged == MergedLookups::Counted;
        assert_eq!(dist.tables()[1].count(0), if counted { 3 } else { 1 });
        assert_eq!(dist.stats().at_updates, if counted { 3 } else { 1 });
        assert_eq!(dist.stats().merged_lookups, 2);
        assert_eq!(dist.tables()[0].count(0), 0, "{merged:?}: not node 0's");
    }
}

/// The distributed table: everyone owns everything at first (private
/// behaviour, replication), a saturated counter claims a bucket in its own
/// table only, and the epoch's broadcasts settle one owner everywhere.
#[test]
fn distributed_tables_disagree_within_an_epoch() {
    // Block a is in bucket a mod 2; 2-bit counters; epochs of 4 accesses.
    let config = NucaConfig {
        buckets: 2,
        page_blocks: 1,
        counter_bits: 2,
        epoch: 4,
        ..small(2, 4, 2, 4)
    };
    let mut dist = DtmDistributed::new(&config).unwrap();
    assert_eq!(dist.access(0, 0), Outcome::L2 { owner: None });
    assert_eq!(
        dist.access(1, 0),
        Outcome::L2 { owner: None },
        "1 owns bucket 0 too"
    );
    assert_eq!(dist.stats().replication, [0, 1, 1]);
    dist.access(0, 1);
    dist.access(0, 3);
    // End of the first epoch. Each node announced its 2 buckets. Bucket 0:
    // node 0 counted 1, node 1 counted 1, the tie goes to node 0; bucket 1:
    // 2 against 0. Node 1's view of both buckets changed.
    let s = dist.stats();
    assert_eq!(
        (
            s.epochs,
            s.broadcasts,
            s.broadcast_buckets,
            s.ownership_changes
        ),
        (1, 2, 4, 2)
    );
    assert!(dist
        .tables()
        .iter()
        .all(|t| t.owner(0) == 0 && t.owner(1) == 0));
    assert_eq!(dist.tables()[1].count(0), 0, "1 halved to 0");
    assert_eq!(dist.access(1, 2), Outcome::L2 { owner: Some(0) });
    assert!(dist.caches()[0].contains(2) && !dist.caches()[1].contains(2));
    assert_eq!(
        dist.access(1, 0),
        Outcome::LocalHit,
        "the stale copy still serves"
    );
    // Node 1's third bucket-0 access saturates its counter: 3 beats the 1
    // node 0 announced (and the 0 it is halved to): it claims bucket 0 in
    // its own table, after this request went to node 0.
    assert_eq!(dist.access(1, 4), Outcome::L2 { owner: Some(0) });
    assert_eq!(dist.tables()[1].owner(0), 1, "node 1 claimed bucket 0");
    assert_eq!(dist.tables()[0].owner(0), 0, "node 0 does not know yet");
    assert_eq!(dist.stats().ownership_changes, 3);
    assert_eq!(
        dist.access(1, 6),
        Outcome::L2 { owner: None },
        "1 reads for itself now"
    );
    // End of the second epoch: node 0 (count 0) and node 1 (3 halved to 1,
    // then 2) both claim bucket 0; node 1 wins, node 0 adopts it.
    assert_eq!(dist.stats().epochs, 2);
    assert!(dist
        .tables()
        .iter()
        .all(|t| t.owner(0) == 1 && t.owner(1) == 0));
    assert_eq!(dist.stats().broadcasts, 4);
    assert_eq!(dist.stats().broadcast_buckets, 4 + 3);
    assert_eq!(dist.access(0, 8), Outcome::L2 { owner: Some(1) });
}

/// The readings of the count a claim between broadcasts must beat, on
/// one bucket, 2-bit counters (saturating at 3), a 50 % margin and epochs
/// of 4 accesses. Epoch 1: nodes 0 and 1 each count 2; the tie goes to
/// node 0, which announced 2 (halved: 1). Epoch 2 (counters halved to 1):
/// node 1's second access saturates its counter at 3, which must be more
/// than 1.5 times the kept count: not 2 x 1.5 = 3 as announced, but 1 x
/// 1.5 halved. So only the halved reading lets node 1 claim the bucket,
/// and only then does its next miss read the L2 for itself.
#[test]
fn the_announced_count_as_announced_or_halved() {
    for (announced, kept, claims) in [
        (AnnouncedCount::AsAnnounced, 2, false),
        (AnnouncedCount::Halved, 1, true),
    ] {
        let config = NucaConfig {
            buckets: 1,
            page_blocks: 1,
            counter_bits: 2,
            margin_percent: 50,
            epoch: 4,
            announced_count: announced,
            ..small(2, 4, 2, 4)
        };
        let mut dist = DtmDistributed::new(&config).unwrap();
        for (fp, block) in [(0, 0), (0, 1), (1, 2), (1, 3)] {
            assert_eq!(dist.access(fp, block), Outcome::L2 { owner: None });
        }
        assert_eq!(dist.stats().epochs, 1);
        for t in dist.tables() {
            assert_eq!((t.owner(0), t.owner_count(0)), (0, kept), "{announced:?}");
            assert_eq!(t.count(0), 1, "2 halved");
        }
        assert_eq!(dist.stats().ownership_changes, 1, "node 1's view");
        assert_eq!(dist.access(1, 4), Outcome::L2 { owner: Some(0) });
        // The saturating access still goes to node 0, then node 1 claims.
        assert_eq!(dist.access(1, 5), Outcome::L2 { owner: Some(0) });
        assert_eq!(dist.tables()[1].owner(0), if claims { 1 } else { 0 });
        assert_eq!(dist.tables()[0].owner(0), 0);
        assert_eq!(dist.stats().ownership_changes, 1 + u64::from(claims));
        let next = dist.access(1, 6);
        let owner = if claims { None } else { Some(0) };
        assert_eq!(next, Outcome::L2 { owner }, "{announced:?}");
    }
}

/// D-NUCA never holds a block in two caches, and its directory names
/// exactly the resident blocks and their holders, after every access.
#[test]
fn d_nuca_single_holder_hand_worked() {
    let config = small(2, 1, 1, 100);
    let mut d = DNuca::new(&config).unwrap();
    assert_eq!(d.access(0, 5), Outcome::L2 { owner: None });
    assert_eq!(d.access(1, 5), Outcome::RemoteHit { owner: 0 });
    assert_eq!(d.access(1, 6), Outcome::L2 { owner: None });
    assert_eq!(d.access(0, 7), Outcome::L2 { owner: None }); // evicts 5
    assert_eq!(d.access(1, 5), Outcome::L2 { owner: None }); // evicts 6
    assert_eq!(d.directory().holder(5), Some(1));
    assert_eq!(d.directory().holder(6), None);
    assert_eq!(d.stats().evictions, 2);
}

fn check_single_holder(d: &DNuca) -> Result<(), TestCaseError> {
    let mut resident = Vec::new();
    for (fp, c) in d.caches().iter().enumerate() {
        resident.extend(c.blocks().map(|b| (b, fp)));
    }
    resident.sort_unstable();
    for w in resident.windows(2) {
        prop_assert_ne!(w[0].0, w[1].0, "block {} in two caches", w[0].0);
    }
    let mut entries: Vec<(u64, usize)> = d.directory().entries().collect();
    entries.sort_unstable();
    prop_assert_eq!(entries, resident);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn d_nuca_never_replicates((config, stream) in machine_and_stream(400)) {
        let mut d = DNuca::new(&config).unwrap();
        for &(fp, b) in &stream {
            d.access(fp, b);
            check_single_holder(&d)?;
        }
        let s = d.stats();
        prop_assert_eq!(s.replication.iter().skip(2).sum::<u64>(), 0);
    }

    /// With one fragment processor every organization is the private cache:
    /// the same outcome for every access and the same counts.
    #[test]
    fn one_fp_is_private((config, stream) in machine_and_stream(300).prop_map(|(mut c, s)| {
        c.fps = 1;
        let s = s.into_iter().map(|(_, b)| (0, b)).collect::<Vec<_>>();
        (c, s)
    })) {
        let (want, base) = outcomes(OrgKind::Private, &config, &stream);
        for kind in OrgKind::ALL {
            let (got, s) = outcomes(kind, &config, &stream);
            prop_assert_eq!(&got, &want, "{}", kind.name());
            prop_assert_eq!(
                (s.local_hits, s.remote_hits, s.l2_requests, s.evictions, &s.replication),
                (base.local_hits, base.remote_hits, base.l2_requests, base.evictions, &base.replication),
                "{}", kind.name()
            );
        }
    }

    /// Every access is a local hit, a remote hit or an L2 request, and has
    /// one replication count; outcomes and counts agree.
    #[test]
    fn every_access_is_served_once((config, stream) in machine_and_stream(300)) {
        for kind in OrgKind::ALL {
            let (out, s) = outcomes(kind, &config, &stream);
            let n = stream.len() as u64;
            prop_assert_eq!(s.texture_accesses, n);
            prop_assert_eq!(s.local_hits + s.remote_hits + s.l2_requests, n, "{}", kind.name());
            prop_assert_eq!(s.replication.iter().sum::<u64>(), n);
            prop_assert_eq!(s.replication[0], 0, "{}: a served block is somewhere", kind.name());
            let count = |f: fn(&Outcome) -> bool| out.iter().filter(|o| f(o)).count() as u64;
            prop_assert_eq!(count(|o| *o == Outcome::LocalHit), s.local_hits);
            prop_assert_eq!(count(|o| matches!(o, Outcome::RemoteHit { .. })), s.remote_hits);
            prop_assert_eq!(count(|o| matches!(o, Outcome::L2 { owner: Some(_) })), s.l2_requests_by_owner);
            for (o, &(fp, _)) in out.iter().zip(&stream) {
                match *o {
                    Outcome::RemoteHit { owner } | Outcome::L2 { owner: Some(owner) } => {
                        prop_assert_ne!(owner, fp, "{}: a remote owner is another FP", kind.name());
                        prop_assert!(owner < config.fps);
                    }
                    _ => {}
                }
            }
            if matches!(kind, OrgKind::Private | OrgKind::IdealShared) {
                prop_assert_eq!(s.remote_hits + s.l2_requests_by_owner, 0);
            }
        }
    }

    /// S-NUCA keeps every block in its home cache only.
    #[test]
    fn s_nuca_blocks_live_at_home((config, stream) in machine_and_stream(300)) {
        let mut o = SNuca::new(&config).unwrap();
        run(&mut o, &stream);
        for (fp, c) in o.caches().iter().enumerate() {
            for b in c.blocks() {
                prop_assert_eq!(o.home(b), fp);
            }
        }
    }

    /// The ideal shared cache is the private cache of a machine with one
    /// fragment processor and all the capacity.
    #[test]
    fn ideal_shared_is_one_big_private_cache((config, stream) in machine_and_stream(300)) {
        let (_, shared) = outcomes(OrgKind::IdealShared, &config, &stream);
        let one = NucaConfig {
            fps: 1,
            tc_bytes: config.tc_bytes * config.fps as u64,
            tc_ways: config.tc_ways * config.fps as u32,
            ..config.clone()
        };
        let merged: Vec<(usize, u64)> = stream.iter().map(|&(_, b)| (0, b)).collect();
        let (_, private) = outcomes(OrgKind::Private, &one, &merged);
        prop_assert_eq!((shared.local_hits, shared.l2_requests, shared.evictions),
            (private.local_hits, private.l2_requests, private.evictions));
    }
}

/// Figure 1's measure: fragment processors reading the same blocks one
/// after another in private caches leave a block in one more cache at
/// each read.
#[test]
fn replication_counts_the_caches_holding_the_block() {
    let config = small(4, 4, 4, 100);
    let mut p = Private::new(&config).unwrap();
    for blk in 0..10 {
        for fp in 0..4 {
            p.access(fp, blk);
        }
    }
    assert_eq!(p.stats().replication, [0, 10, 10, 10, 10]);
}

/// Four fragment processors sweeping the same 512 blocks, each block read
/// by all four in turn, first by fragment processor (block / 64) mod 4:
/// 256-block private caches hold none of it by the next pass; the 1024
/// blocks of the four together hold all of it. D-NUCA (each block placed
/// where it is first read, 128 blocks per cache over all 64 sets) and the
/// ideal shared cache read each block from the L2 once; DTM-NUCA far
/// fewer than private.
///
/// S-NUCA shows what the paper's grouping does to set indices: the bucket
/// (address bits 9 to 13) overlaps the set index (bits 6 to 11), so the
/// 128 blocks a cache is home to fall in 16 of its 64 sets and thrash.
#[test]
fn shared_sweep_fits_in_the_nuca_not_in_a_private_cache() {
    let config = NucaConfig {
        fps: 4,
        ..NucaConfig::default()
    };
    let mut stream = Vec::new();
    for _ in 0..6 {
        for blk in 0..512u64 {
            let first = (blk / 64) as usize;
            for i in 0..4 {
                stream.push(((first + i) % 4, blk));
            }
        }
    }
    let l2 = |k| outcomes(k, &config, &stream).1.l2_requests;
    let private = l2(OrgKind::Private);
    assert_eq!(
        private,
        4 * 512 * 6,
        "every read misses in a 256-block cache"
    );
    assert_eq!(l2(OrgKind::DNuca), 512);
    assert_eq!(l2(OrgKind::IdealShared), 512);
    assert_eq!(
        l2(OrgKind::SNuca),
        512 * 6,
        "the home's read misses, the other three hit"
    );
    let dtm = l2(OrgKind::Dtm);
    assert!(dtm < private / 2, "dtm {dtm} vs private {private}");
}
