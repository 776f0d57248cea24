//! The baseline PB-Lists layout keeps its Figure-3 addresses in every
//! render pass; lists past their room of 1024 PMDs go on in the overflow
//! area, and every PMD written there is read back once, in list order.

use std::collections::BTreeMap;

use gfxcache_tcor::{
    BaselineConfig, BinnedFrame, BinnedPrimitive, Binning, ConfigError, ListOverflow,
    OverflowCounts, OverflowUsage, PassTraffic, PbAccess, PbLayout, Phase, Section, TileOrder,
    TilingEngine,
};
use proptest::prelude::*;

/// `lists[t]` one-attribute primitives on tile `t` alone, then `shared`
/// primitives on every tile; `tx` x `ty` tiles in Z-order.
fn frame(tx: u32, ty: u32, lists: &[u32], shared: u32) -> Binning {
    let mut primitives = Vec::new();
    for (t, &n) in lists.iter().enumerate() {
        for _ in 0..n {
            primitives.push(BinnedPrimitive {
                attributes: 1,
                tiles: vec![t as u32],
            });
        }
    }
    for _ in 0..shared {
        primitives.push(BinnedPrimitive {
            attributes: 2,
            tiles: (0..tx * ty).collect(),
        });
    }
    Binning::new(&BinnedFrame {
        tiles_x: tx,
        tiles_y: ty,
        tile_size: 32,
        order: TileOrder::ZOrder,
        primitives,
    })
    .unwrap()
}

/// The baseline's Figure-3 address of PMD `slot` of tile `tile`'s list:
/// the formula of the layout before the overflow area.
fn figure3(l: &PbLayout, tile: u32, slot: u32) -> u64 {
    l.lists_ptr + (u64::from(tile) * 64 + u64::from(slot / 16)) * 64 + u64::from(slot % 16) * 4
}

/// The baseline's stream as it was before the overflow area, for frames
/// whose lists fit their room: (section, write, phase, addr, prim).
fn old_stream(l: &PbLayout, b: &Binning) -> Vec<(Section, bool, Phase, u64, u32)> {
    let mut out = Vec::new();
    for p in 0..b.primitives() {
        for (&pos, &slot) in b.uses(p).iter().zip(b.slots(p)) {
            let addr = figure3(l, b.tile_at(pos), slot);
            out.push((Section::PbLists, true, Phase::Build, addr, p));
        }
        let id = l.primitive_id(b, p);
        out.push((Section::PbAttributes, true, Phase::Build, id, p));
    }
    for pos in 0..b.tiles() {
        for (k, e) in b.list(pos).iter().enumerate() {
            let addr = figure3(l, b.tile_at(pos), k as u32);
            out.push((Section::PbLists, false, Phase::Fetch(pos), addr, e.prim));
            let id = l.primitive_id(b, e.prim);
            out.push((Section::PbAttributes, false, Phase::Fetch(pos), id, e.prim));
        }
    }
    out
}

/// What the stream does with PB-Lists, checked against the binning: every
/// PMD written once at an address of its own and read back once there by
/// its tile, in list order; every pointer written once before it is read
/// once. Returns the PMDs' addresses by (position, slot) and the pointer
/// accesses (reads, writes).
fn check_lists(l: &PbLayout, b: &Binning) -> (BTreeMap<(u32, u32), u64>, u64, u64) {
    let s: Vec<PbAccess> = l.stream(b).collect();
    let mut written: BTreeMap<u64, (u32, u32)> = BTreeMap::new();
    let mut pmds: BTreeMap<(u32, u32), u64> = BTreeMap::new();
    let mut pointers: BTreeMap<u64, (u32, u32)> = BTreeMap::new();
    let mut next_slot: BTreeMap<u32, u32> = BTreeMap::new();
    let (mut pointer_writes, mut pointer_reads) = (0, 0);
    for a in s.iter().filter(|a| a.section == Section::PbLists) {
        let pos = a.last_tile;
        if a.pointer {
            let e = pointers.entry(a.addr).or_insert((0, 0));
            if a.write {
                assert_eq!(e.1, 0, "pointer {:#x} read before it was written", a.addr);
                e.0 += 1;
                pointer_writes += 1;
            } else {
                e.1 += 1;
                pointer_reads += 1;
            }
            continue;
        }
        if a.write {
            let slot = b.slots(a.prim)[b.uses(a.prim).iter().position(|&u| u == pos).unwrap()];
            assert!(
                written.insert(a.addr, (pos, a.prim)).is_none(),
                "two PMDs at {:#x}",
                a.addr
            );
            pmds.insert((pos, slot), a.addr);
        } else {
            assert_eq!(a.phase, Phase::Fetch(pos));
            let slot = next_slot.entry(pos).or_insert(0);
            assert_eq!(b.list(pos)[*slot as usize].prim, a.prim, "list order");
            assert_eq!(pmds.get(&(pos, *slot)), Some(&a.addr), "read where written");
            *slot += 1;
        }
    }
    for pos in 0..b.tiles() {
        let read = next_slot.get(&pos).copied().unwrap_or(0);
        assert_eq!(read as usize, b.list(pos).len(), "tile at {pos} read whole");
    }
    assert_eq!(written.len() as u64, b.total_uses());
    assert!(pointers.values().all(|&(w, r)| w == 1 && r == 1));
    for p in pointers.keys() {
        assert!(!written.contains_key(p), "a pointer on a PMD at {p:#x}");
    }
    (pmds, pointer_reads, pointer_writes)
}

#[test]
fn a_long_list_keeps_figure_3_for_1024_pmds_then_overflows() {
    // 2x2 tiles; tile 1 lists 1300 + 3 primitives.
    let b = frame(2, 2, &[10, 1300, 0, 5], 3);
    let l = PbLayout::baseline();
    assert_eq!(l.check(&b), Ok(()));
    let (pmds, reads, writes) = check_lists(&l, &b);
    let pos = b.position_of(1);
    let overflow_base = l.lists_ptr + 4 * 64 * 64;
    for (&(p, slot), &addr) in &pmds {
        let tile = b.tile_at(p);
        if slot < 1024 {
            assert_eq!(addr, figure3(&l, tile, slot), "tile {tile} PMD {slot}");
        } else {
            assert_eq!(p, pos);
            assert!(addr >= overflow_base && addr < l.attrs_ptr, "{addr:#x}");
        }
    }
    // 279 PMDs past the room: 127 per 512-byte chunk, 3 chunks, each with
    // its pointer (the tile's, then two links) written and read once.
    let o = ListOverflow::new(&l, &b).unwrap();
    let usage = OverflowUsage {
        tiles: 1,
        pmds: 279,
        chunks: 3,
    };
    assert_eq!(o.usage(), usage);
    assert_eq!((reads, writes), (3, 3));
    // The first overflowing PMD is the first slot of the first chunk,
    // after the pointer array (one block for 4 tiles).
    assert_eq!(pmds[&(pos, 1024)], overflow_base + 64);
    assert_eq!(pmds[&(pos, 1024 + 127)], overflow_base + 64 + 512);
    assert_eq!(o.last_reader(&b, overflow_base + 64), Some(pos));
    assert_eq!(o.last_reader(&b, overflow_base), Some(pos));
    assert_eq!(o.last_reader(&b, l.lists_ptr), None);

    let t = PassTraffic::new(&b, &TilingEngine::Baseline(BaselineConfig::kib64())).unwrap();
    assert_eq!(
        OverflowCounts {
            l2_blocks: 0,
            ..t.overflow
        },
        OverflowCounts::of_pass(&usage, 0)
    );
    assert_eq!(t.overflow.passes, 1);
    // The baseline's lists stay 64 blocks apart: no fallback to another
    // layout, so tile 0's PMDs are where Figure 3 has them in the traffic.
    let lists: Vec<u64> = t
        .build_blocks()
        .chain(t.fetch_blocks().map(|(_, b)| b))
        .filter(|b| b.section == Section::PbLists)
        .map(|b| b.block * 64)
        .collect();
    assert!(lists.iter().all(|&a| a < l.attrs_ptr && a >= l.lists_ptr));
    let in_overflow = lists.iter().filter(|&&a| o.contains(a)).count() as u64;
    assert_eq!(t.overflow.l2_blocks, in_overflow);
    // A pointer read belongs to the primitive whose PMD follows it: one
    // fetched primitive per tile use still.
    assert_eq!(t.fetch_primitives().len() as u64, b.total_uses());
}

#[test]
fn passes_without_overflow_give_the_old_stream() {
    for (lists, shared) in [
        (&[0, 0, 0, 0][..], 0),
        (&[10, 1000, 0, 3], 24),
        (&[1024, 0, 7, 1], 0),
    ] {
        let b = frame(2, 2, lists, shared);
        let l = PbLayout::baseline();
        assert!(ListOverflow::new(&l, &b).is_none());
        let ours: Vec<(Section, bool, Phase, u64, u32)> = l
            .stream(&b)
            .map(|a| {
                assert!(!a.pointer);
                (a.section, a.write, a.phase, a.addr, a.prim)
            })
            .collect();
        assert_eq!(ours, old_stream(&l, &b), "{lists:?}");
        let t = PassTraffic::new(&b, &TilingEngine::Baseline(BaselineConfig::kib64())).unwrap();
        assert_eq!(t.overflow, OverflowCounts::default());
    }
}

#[test]
fn only_what_cannot_be_held_is_rejected() {
    let b = frame(2, 2, &[0, 1100, 0, 0], 0);
    // PB-Attributes right after the four rooms: no space for the overflow.
    let tight = PbLayout {
        attrs_ptr: PbLayout::baseline().lists_ptr + 4 * 4096,
        ..PbLayout::baseline()
    };
    let e = tight.check(&b).unwrap_err();
    assert!(
        matches!(e, ConfigError::ListsOverlapAttributes { .. }),
        "{e}"
    );
    assert!(e.to_string().contains("PB-Attributes Pointer"), "{e}");
    assert_eq!(tight.check(&frame(2, 2, &[0, 1024, 0, 0], 0)), Ok(()));
    let one_slot = PbLayout {
        overflow_chunk_slots: 1,
        ..PbLayout::baseline()
    };
    assert!(matches!(one_slot.check(&b), Err(ConfigError::Layout(_))));
    assert_eq!(PbLayout::baseline().check(&b), Ok(()));
    assert_eq!(PbLayout::interleaved().check(&b), Ok(()));
}

/// Small grids with a few long lists.
fn binnings() -> impl Strategy<Value = (u32, u32, Vec<(u32, u32)>)> {
    (1u32..=3, 1u32..=3).prop_flat_map(|(tx, ty)| {
        let tiles = tx * ty;
        (
            Just(tx),
            Just(ty),
            // (first tile, how many tiles from it) per primitive.
            prop::collection::vec((0..tiles, 1..=tiles.min(2)), 0..2600),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn every_pmd_is_read_where_it_was_written(
        (tx, ty, prims) in binnings(),
        chunk_slots in 2u32..=40,
    ) {
        let tiles = tx * ty;
        let b = Binning::new(&BinnedFrame {
            tiles_x: tx,
            tiles_y: ty,
            tile_size: 32,
            order: TileOrder::Hilbert,
            primitives: prims
                .iter()
                .map(|&(t, n)| BinnedPrimitive {
                    attributes: 1,
                    tiles: (0..n).map(|k| (t + k) % tiles).collect(),
                })
                .collect(),
        })
        .unwrap();
        let l = PbLayout {
            overflow_chunk_slots: chunk_slots,
            ..PbLayout::baseline()
        };
        prop_assert_eq!(l.check(&b), Ok(()));
        let (pmds, reads, writes) = check_lists(&l, &b);
        let o = ListOverflow::new(&l, &b);
        let usage = o.as_ref().map(ListOverflow::usage).unwrap_or_default();
        let over: u64 = (0..tiles)
            .map(|p| (b.list(p).len() as u64).saturating_sub(1024))
            .sum();
        prop_assert_eq!(usage.pmds, over);
        prop_assert_eq!(reads, usage.chunks);
        prop_assert_eq!(writes, usage.chunks);
        for (&(pos, slot), &addr) in &pmds {
            if slot < 1024 {
                prop_assert_eq!(addr, figure3(&l, b.tile_at(pos), slot));
            } else {
                let o = o.as_ref().unwrap();
                prop_assert!(o.contains(addr) && addr < l.lists_end(&b));
                prop_assert!(o.last_reader(&b, addr).unwrap() >= pos);
            }
        }
    }
}
