//! The texture units on a GPU machine ([`Replay::on_machine`]): against a
//! deliberately simple placement of private caches written here, on a
//! machine whose every miss takes the same cycles, each design equals its
//! own L1 on a memory of that latency; every texture access is accounted
//! for; chunks and windows of one cycle or many give well-formed runs.
//! With the tiles synchronised, a frame takes the sum over its tiles of
//! the slowest unit's time on the tile, each unit's time on a tile
//! reckoned on its own from the blocks of its earlier tiles.

use gfxcache_cache::run::Threads;
use gfxcache_cache::{Geometry, Ways};
use gfxcache_gpu::{
    BusConfig, ContextUnit, Flow, L2Attach, L2Config, Machine, MachineConfig, MeshConfig,
    OtherAccess, OtherTraffic, Outcome, Placement, Served, SideEvents, TextureCache, TileTraffic,
};
use gfxcache_nbtc::{
    MachineReplay, Mode, NbtcConfig, QuadGatherer, Replay, RequestUnit, RunResult, TextureUnit,
    UnitEvent, MACHINE_WINDOW_CYCLES,
};
use gfxcache_trace::texreq::{synth, TexReqRecord};
use gfxcache_trace::Stream;

/// One private texture cache per fragment processor, filled on a miss.
struct PrivateCaches {
    caches: Vec<TextureCache>,
    served: Served,
    evictions: u64,
}

impl PrivateCaches {
    fn new(fps: usize, bytes: u64, block: u32) -> PrivateCaches {
        let geom = Geometry::from_size(bytes, Ways::N(4), block).unwrap();
        PrivateCaches {
            caches: (0..fps).map(|_| TextureCache::new(&geom)).collect(),
            served: Served::default(),
            evictions: 0,
        }
    }
}

impl Placement for PrivateCaches {
    const FLOW: Flow = Flow::Private;

    fn access(&mut self, fp: usize, block: u64) -> Outcome {
        self.served.accesses += 1;
        if self.caches[fp].hit(block, true) {
            self.served.local_hits += 1;
            return Outcome::LocalHit;
        }
        self.served.l2_requests += 1;
        self.evictions += u64::from(self.caches[fp].fill(block).is_some());
        Outcome::L2 { owner: None }
    }

    fn side_events(&self) -> SideEvents {
        SideEvents {
            evictions: self.evictions,
            ..SideEvents::default()
        }
    }

    fn served(&self) -> Served {
        self.served.clone()
    }

    fn caches(&self) -> &[TextureCache] {
        &self.caches
    }
}

const BLOCK: u32 = 32;
const FPS: usize = 8;

/// A machine on which every L2 request takes 2 (texture cache) + 1 (the
/// request's one beat, no arbitration, no queueing) + 18 (the L2) + 1
/// (the block in one beat) = 22 cycles, hit or miss.
const FIXED_LATENCY: u64 = 22;

fn fixed_machine(placement: PrivateCaches) -> Machine<PrivateCaches> {
    let machine = machine_of_latency(placement, FIXED_LATENCY);
    assert_eq!(
        FIXED_LATENCY,
        2 + 1 + u64::from(L2Config::default().hit_cycles) + 1
    );
    machine
}

/// A machine on which every L2 request takes `latency` cycles, hit or
/// miss: the request's beat, the L2's `latency - 2` cycles (at most 2
/// of them in the texture cache) and the block's beat. Two cycles, the
/// two beats, is the least a request over the bus takes.
fn machine_of_latency(placement: PrivateCaches, latency: u64) -> Machine<PrivateCaches> {
    Machine::new(placement, &config_of_latency(latency)).unwrap()
}

/// The machine of [`machine_of_latency`].
fn config_of_latency(latency: u64) -> MachineConfig {
    assert!(latency >= 2, "a request and a block take a beat each");
    let tc_cycles = (latency - 2).min(2) as u32;
    MachineConfig {
        fps: FPS,
        block_bytes: BLOCK,
        mesh: MeshConfig::default(),
        l2: L2Config {
            bank_contention: false,
            hit_cycles: (latency - 2) as u32 - tc_cycles,
            ..L2Config::default()
        },
        bus: BusConfig {
            occupancy: false,
            arbitration_cycles: 0,
            width_bits: BLOCK * 8,
            ..BusConfig::default()
        },
        tc_cycles,
        table_cycles: 1,
        directory_cycles: 2,
        dram_cycles: 0,
        dram_banks: None,
        l2_attach: L2Attach::Bus,
        contexts: 1,
        context_unit: ContextUnit::Fragment,
        sync_tiles: false,
        other_traffic: OtherTraffic::Untimed,
        other_port_cycles: 1,
        dram_writes: false,
        tile_buffers: 0,
    }
}

fn modes() -> [Mode; 5] {
    [
        Mode::BTC,
        Mode::Blocking { serial: false },
        Mode::Nbtc,
        Mode::mshr(),
        Mode::prefetching(),
    ]
}

fn config(mode: Mode, l1_bytes: u64) -> NbtcConfig {
    NbtcConfig {
        l1_bytes,
        block_bytes: BLOCK,
        memory_latency: FIXED_LATENCY,
        mode,
        fragments_in_flight: 4,
        ..NbtcConfig::default()
    }
}

fn fed(mut r: Replay, records: &[TexReqRecord], chunk: usize) -> RunResult {
    for c in records.chunks(chunk) {
        r.feed(c, Threads::One).unwrap();
    }
    r.finish(Threads::One).unwrap().pop().unwrap()
}

fn how(window: u64, sync_tiles: bool) -> MachineReplay {
    MachineReplay {
        window,
        sync_tiles,
        request_unit: RequestUnit::Sample,
    }
}

fn on_machine(config: &NbtcConfig, records: &[TexReqRecord], how: MachineReplay) -> RunResult {
    let machine = fixed_machine(PrivateCaches::new(FPS, config.l1_bytes, BLOCK));
    let replay = Replay::on_machine(config, Box::new(machine), how).unwrap();
    fed(replay, records, 997)
}

/// Caches large enough that nothing is evicted: whether a block is filled
/// when it is sent (the placement) or when it returns (the unit's own L1)
/// then changes no lookup, since a block on its way is waited for either
/// way, and each design takes the same cycles on the machine as on its own
/// memory of the same latency.
///
/// So at every latency from the least a request over the bus takes (2
/// cycles; the units' own memory goes on to 0, the ideal memory on which
/// every design takes the same cycles: `modes.rs`) to the slides'
/// largest.
#[test]
fn private_caches_on_a_fixed_latency_machine_equal_the_units_own_l1() {
    let records = synth::frame(FPS as u16, 6, 7);
    for latency in [2, 3, FIXED_LATENCY, 300] {
        for mode in modes() {
            let c = NbtcConfig {
                memory_latency: latency,
                ..config(mode, 1 << 20)
            };
            let own = fed(
                Replay::with_processors(&[c], FPS).unwrap(),
                &records,
                records.len(),
            );
            let machine = machine_of_latency(PrivateCaches::new(FPS, c.l1_bytes, BLOCK), latency);
            let placed = fed(
                Replay::on_machine(&c, Box::new(machine), MachineReplay::default()).unwrap(),
                &records,
                997,
            );
            let what = format!("{} at {latency}", mode.name());
            assert_eq!(placed.units, own.units, "{what}");
            let m = placed.machine.expect("a run on a machine reports it");
            assert_eq!(m.l2.texture_requests, own.total.memory_requests, "{what}");
            assert_eq!(m.bus.queue_cycles, 0, "{what}");
        }
    }
}

/// Every texture access reaches the placement once: each block a request
/// found (once per request) and each block it sent; each is a local hit,
/// a remote hit or an L2 request, and the L2 saw every request.
#[test]
fn every_access_is_accounted_for_in_every_mode_and_window() {
    let records = synth::frame(FPS as u16, 8, 3);
    for mode in modes() {
        // Small caches: blocks are evicted and fetched again.
        let c = config(mode, 1024);
        for (window, sync) in [
            (1, false),
            (7, true),
            (MACHINE_WINDOW_CYCLES, false),
            (10_000, true),
        ] {
            let run = on_machine(&c, &records, how(window, sync));
            let m = run.machine.unwrap();
            let s = &m.served;
            assert_eq!(
                s.local_hits + s.remote_hits + s.l2_requests,
                s.accesses,
                "{} window {window}",
                mode.name()
            );
            assert_eq!(s.remote_hits, 0, "private caches have no remote hit");
            assert_eq!(s.l2_requests, m.l2.texture_requests);
            assert_eq!(m.l2.texture_hits + m.l2.texture_misses, s.l2_requests);
            // A send finds its block away (private caches fill only when
            // they send), so every send is an L2 request.
            assert_eq!(run.total.memory_requests, s.l2_requests, "{}", mode.name());
            assert!(s.local_hits > 0 && s.local_hits <= run.total.hits);
            assert!(run.units.iter().all(|u| u.requests > 0));
        }
    }
}

/// The same frame fed in chunks of any size gives the same run, with
/// the tiles synchronised or not.
#[test]
fn chunks_change_nothing_on_a_machine() {
    let records = synth::frame(FPS as u16, 6, 5);
    let c = config(Mode::Nbtc, 2048);
    let machine = || fixed_machine(PrivateCaches::new(FPS, c.l1_bytes, BLOCK));
    for sync in [false, true] {
        let whole = fed(
            Replay::on_machine(&c, Box::new(machine()), how(16, sync)).unwrap(),
            &records,
            records.len(),
        );
        for chunk in [1, 13, 400] {
            let r = Replay::on_machine(&c, Box::new(machine()), how(16, sync)).unwrap();
            assert_eq!(fed(r, &records, chunk), whole, "chunk {chunk}, sync {sync}");
        }
    }
}

/// Each fragment processor's events of each tile, in order.
fn events_by_tile(records: &[TexReqRecord]) -> Vec<Vec<Vec<UnitEvent>>> {
    let mut tiles = vec![vec![Vec::new(); FPS]];
    for r in records {
        if let TexReqRecord::TileEnd { .. } = r {
            tiles.push(vec![Vec::new(); FPS]);
        } else if let Some((fp, e)) = UnitEvent::of_record(r) {
            tiles.last_mut().unwrap()[fp].push(e);
        }
    }
    tiles
}

/// The reference of synchronised tiles, written from the rule alone: a
/// unit's time on a tile is a unit of its own running only that tile's
/// fragments, its cache warm with every block its earlier tiles touched
/// (caches that evict nothing, so their order does not matter); every
/// tile takes its slowest unit's time, and the others wait. On the fixed
/// machine, with every mode, the synchronised run equals it cycle for
/// cycle and wait for wait; and every unit ends with the frame.
#[test]
fn synchronised_tiles_take_the_slowest_units_time_on_each_tile() {
    let records = synth::frame(FPS as u16, 5, 11);
    let tiles = events_by_tile(&records);
    for mode in modes() {
        let c = config(mode, 1 << 20);
        let run = on_machine(&c, &records, how(MACHINE_WINDOW_CYCLES, true));
        let mut frame = 0;
        let mut waits = [0u64; FPS];
        let mut warm: Vec<Vec<u64>> = vec![Vec::new(); FPS];
        for tile in &tiles {
            let cycles: Vec<u64> = (0..FPS)
                .map(|fp| {
                    let mut unit = TextureUnit::new(&c).unwrap();
                    let s = unit.run_warm(&tile[fp], &warm[fp]).unwrap();
                    s.cycles
                })
                .collect();
            let slowest = *cycles.iter().max().unwrap();
            frame += slowest;
            for fp in 0..FPS {
                waits[fp] += slowest - cycles[fp];
                for e in &tile[fp] {
                    if let UnitEvent::Request(r) = e {
                        warm[fp].extend_from_slice(r.addresses());
                    }
                }
            }
        }
        let name = mode.name();
        assert_eq!(run.frame_cycles, frame, "{name}");
        for (fp, u) in run.units.iter().enumerate() {
            assert_eq!(u.cycles, frame, "{name}: unit {fp} ends with the frame");
            assert_eq!(
                u.tile_wait_cycles, waits[fp],
                "{name}: unit {fp}'s tile wait"
            );
            assert_eq!(u.accounted_cycles(), u.cycles, "{name}: unit {fp}");
        }
        assert!(run.total.tile_wait_cycles > 0, "{name}: some unit waited");
        let free = on_machine(&c, &records, MachineReplay::default());
        assert!(
            free.frame_cycles < run.frame_cycles,
            "{name}: waiting costs"
        );
        assert_eq!(free.total.tile_wait_cycles, 0);
    }
}

#[test]
fn a_block_other_than_the_machines_or_a_window_of_0_is_refused() {
    let machine = || Box::new(fixed_machine(PrivateCaches::new(FPS, 4096, BLOCK)));
    let c = NbtcConfig {
        block_bytes: 64,
        ..config(Mode::Nbtc, 4096)
    };
    let e = Replay::on_machine(&c, machine(), MachineReplay::default())
        .err()
        .unwrap();
    assert!(e.to_string().contains("block_bytes"), "{e}");
    let e = Replay::on_machine(&config(Mode::Nbtc, 4096), machine(), how(0, false))
        .err()
        .unwrap();
    assert!(e.to_string().contains("window"), "{e}");
}

/// A frame in the renderer's quad order: tiles of 8x8 quads, quad q on
/// processor q % 8, each of its pixels one bilinear sample near the
/// tile's texels with some work before it, then each pixel's end.
fn quad_frame(tiles: u32) -> Vec<TexReqRecord> {
    use gfxcache_trace::texreq::{FilterKind, TexRequest};
    use gfxcache_trace::ShaderOps;
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let mut out = Vec::new();
    for tile in 0..tiles {
        out.push(TexReqRecord::TileBegin { tile });
        for q in 0..64u16 {
            let fp = q % FPS as u16;
            let pixels = [(0, 0), (1, 0), (0, 1), (1, 1)]
                .map(|(dx, dy)| (2 * (q % 8) + dx, 2 * (q / 8) + dy));
            for &(x, y) in &pixels {
                let base = u64::from(tile) * 4096 + next(2048) * 4;
                let mut taps = [0; gfxcache_trace::texreq::MAX_TAPS];
                taps[..4].copy_from_slice(&[base, base + 4, base + 1024, base + 1028]);
                out.push(TexReqRecord::Request(TexRequest {
                    fp,
                    x,
                    y,
                    index: 0,
                    filter: FilterKind::Bilinear,
                    texel_bytes: 4,
                    ops: ShaderOps::alu(1, next(8) as u32),
                    taps,
                    len: 4,
                }));
            }
            for &(x, y) in &pixels {
                let ops = ShaderOps::alu(1, next(4) as u32);
                out.push(TexReqRecord::FragmentEnd { fp, x, y, ops });
            }
        }
        out.push(TexReqRecord::TileEnd { tile });
    }
    out
}

/// With quad requests each unit runs the quads its processor shaded, as
/// [`QuadGatherer`] makes them from the frame: on the fixed machine with
/// caches that evict nothing, each unit equals a unit of its own running
/// those events, in every mode, however the frame is cut.
#[test]
fn quad_requests_are_the_gathered_quads() {
    let records = quad_frame(4);
    for mode in modes() {
        let c = config(mode, 1 << 20);
        let mut gatherer = QuadGatherer::new(c.issue, c.block_bytes);
        let mut events = vec![Vec::new(); FPS];
        for r in &records {
            gatherer.record(r, &mut |fp, e| events[fp].push(e));
        }
        gatherer.flush(&mut |fp, e| events[fp].push(e));
        let quads = MachineReplay {
            request_unit: RequestUnit::Quad,
            ..MachineReplay::default()
        };
        let machine = || fixed_machine(PrivateCaches::new(FPS, c.l1_bytes, BLOCK));
        let whole = fed(
            Replay::on_machine(&c, Box::new(machine()), quads).unwrap(),
            &records,
            records.len(),
        );
        for (fp, u) in whole.units.iter().enumerate() {
            let own = TextureUnit::new(&c).unwrap().run(&events[fp]).unwrap();
            assert_eq!(*u, own, "{}: unit {fp}", mode.name());
        }
        let cut = fed(
            Replay::on_machine(&c, Box::new(machine()), quads).unwrap(),
            &records,
            7,
        );
        assert_eq!(cut, whole, "{}", mode.name());
        // With the tiles synchronised, each tile's quads stay in it.
        let synced = MachineReplay {
            sync_tiles: true,
            ..quads
        };
        let synced = fed(
            Replay::on_machine(&c, Box::new(machine()), synced).unwrap(),
            &records,
            7,
        );
        assert_eq!(synced.total.requests, whole.total.requests);
        assert!(synced.units.iter().all(|u| u.cycles == synced.frame_cycles));
        // A quad's request stands for its four pixels' samples, in pieces
        // of 8 blocks: at least one a quad, fewer than the samples.
        let samples = on_machine(&c, &records, MachineReplay::default());
        assert_eq!(samples.total.requests, 4 * 256);
        assert!(
            (256..1024).contains(&whole.total.requests),
            "{}",
            whole.total.requests
        );
    }
}

/// Quad requests need one issue model for every run: a quad's work is
/// its slowest pixel's under it.
#[test]
fn quad_requests_of_runs_with_other_issue_models_are_refused() {
    let machine = || Box::new(fixed_machine(PrivateCaches::new(FPS, 4096, BLOCK))) as Box<_>;
    let c = config(Mode::Nbtc, 4096);
    let other = NbtcConfig { issue: None, ..c };
    let quads = MachineReplay {
        request_unit: RequestUnit::Quad,
        ..MachineReplay::default()
    };
    let e = Replay::on_machines(vec![(c, machine()), (other, machine())], quads)
        .err()
        .unwrap();
    assert!(e.to_string().contains("issue"), "{e}");
}

/// Tile `k`'s other traffic in the tests below: a binning pass of 5
/// blocks, `7k mod 40 + 3` loads at the tile's start and `13k mod 90 + 1`
/// stores at its end, every block distinct.
fn traffic_of(k: usize) -> TileTraffic {
    let blocks = |n: usize, base: u64, write: bool| {
        (0..n)
            .map(|i| OtherAccess {
                block: (1 << 30) + base + i as u64,
                stream: if write { Stream::Rt } else { Stream::Z },
                write,
            })
            .collect()
    };
    let base = (k as u64) << 12;
    TileTraffic {
        binning: blocks(5, base, false),
        start: blocks(7 * k % 40 + 3, base + 1000, false),
        end: blocks(13 * k % 90 + 1, base + 2000, true),
    }
}

/// A source of [`traffic_of`] a tile, counting the tiles asked for, with
/// a binning pass of 2 blocks after the last.
fn synth_source() -> gfxcache_nbtc::TileTrafficSource {
    let mut k = 0;
    Box::new(move |tile| {
        Ok(match tile {
            Some(_) => {
                k += 1;
                traffic_of(k - 1)
            }
            None => TileTraffic {
                binning: traffic_of(99).binning[..2].to_vec(),
                ..TileTraffic::default()
            },
        })
    })
}

/// The fixed machine with the tiles synchronised and their other traffic
/// timed: a port of `port` cycles a block and `buffers` tile buffers.
fn traffic_machine(c: &NbtcConfig, port: u32, buffers: u32) -> Machine<PrivateCaches> {
    let config = MachineConfig {
        sync_tiles: true,
        other_traffic: OtherTraffic::Tiles,
        other_port_cycles: port,
        tile_buffers: buffers,
        ..config_of_latency(FIXED_LATENCY)
    };
    Machine::new(PrivateCaches::new(FPS, c.l1_bytes, BLOCK), &config).unwrap()
}

fn with_traffic(c: &NbtcConfig, port: u32, buffers: u32) -> Replay {
    Replay::on_machine(
        c,
        Box::new(traffic_machine(c, port, buffers)),
        how(16, true),
    )
    .unwrap()
    .with_other_traffic(synth_source())
    .unwrap()
}

/// The tile buffers, against the rule written out: on the fixed machine
/// (no bank contention, no DRAM) the other traffic delays no texture
/// access, so tile k's units take their time T_k of the run without it.
/// Tile k starts at s_k, its start traffic leaves the port from s_k and
/// its end traffic from its end d_k = s_k + T_k, `port` cycles a block,
/// and the port is done with it at P_k; tile k + 1 starts at max(d_k,
/// P_(k+1-buffers)) (at d_k with no buffer). Every tile access is timed,
/// the binning passes are not, and the waits are the buffers'.
#[test]
fn tile_buffers_hold_tiles_back_as_the_rule_says() {
    let records = synth::frame(FPS as u16, 5, 11);
    let c = config(Mode::Nbtc, 1 << 20);
    let tiles = records
        .iter()
        .filter(|r| matches!(r, TexReqRecord::TileBegin { .. }))
        .count();
    // Each tile's time with no other traffic: the units' cycles between
    // barriers, from the run's tile ends.
    let plain = on_machine(&c, &records, how(16, true));
    for (port, buffers) in [(1, 0), (1, 1), (1, 2), (3, 1), (3, 2), (20, 2), (9, 8)] {
        let run = fed(with_traffic(&c, port, buffers), &records, 997);
        let what = format!("port {port}, {buffers} buffers");
        let m = run.machine.as_ref().unwrap();
        let timed: u64 = (0..tiles)
            .map(|k| (traffic_of(k).start.len() + traffic_of(k).end.len()) as u64)
            .sum();
        assert_eq!(m.l2.other_timed, timed, "{what}");
        assert_eq!(m.l2.other_accesses, timed + 5 * tiles as u64 + 2, "{what}");
        assert_eq!(
            m.l2.texture_requests,
            plain.machine.as_ref().unwrap().l2.texture_requests
        );
        // The rule, over the tiles' own times.
        let times = tile_times(&c, &records);
        assert_eq!(times.len(), tiles);
        let (mut start, mut port_free, mut waited) = (0u64, 0u64, 0u64);
        let mut port_done = vec![0u64; tiles];
        for k in 0..tiles {
            let t = traffic_of(k);
            port_free = port_free.max(start) + u64::from(port) * t.start.len() as u64;
            let done = start + times[k];
            port_free = port_free.max(done) + u64::from(port) * t.end.len() as u64;
            port_done[k] = port_free;
            let free = match (buffers as usize, k + 1) {
                (0, _) => 0,
                (n, next) if next >= n => port_done[next - n],
                _ => 0,
            };
            waited += free.saturating_sub(done);
            start = done.max(free);
        }
        assert_eq!(run.frame_cycles, start, "{what}");
        assert_eq!(m.l2.tile_buffer_wait_cycles, waited, "{what}");
        // One buffer, or a slow port, makes this example's tiles wait.
        if buffers == 1 || (port, buffers) == (20, 2) {
            assert!(waited > 0, "{what}: the example makes tiles wait");
        }
        for u in &run.units {
            assert_eq!(u.cycles, run.frame_cycles, "{what}");
            assert_eq!(u.accounted_cycles(), u.cycles, "{what}");
        }
    }
}

/// Each tile's slowest unit's time, as
/// `synchronised_tiles_take_the_slowest_units_time_on_each_tile` reckons
/// it (caches that evict nothing).
fn tile_times(c: &NbtcConfig, records: &[TexReqRecord]) -> Vec<u64> {
    let tiles = events_by_tile(records);
    let mut warm: Vec<Vec<u64>> = vec![Vec::new(); FPS];
    let mut times = Vec::new();
    // The last entry holds what follows the last tile end: nothing.
    for tile in &tiles[..tiles.len() - 1] {
        let slowest = (0..FPS)
            .map(|fp| {
                let mut unit = TextureUnit::new(c).unwrap();
                unit.run_warm(&tile[fp], &warm[fp]).unwrap().cycles
            })
            .max()
            .unwrap();
        times.push(slowest);
        for (fp, events) in tile.iter().enumerate() {
            for e in events {
                if let UnitEvent::Request(r) = e {
                    warm[fp].extend_from_slice(r.addresses());
                }
            }
        }
    }
    times
}

/// The other traffic read a tile at a time changes nothing however the
/// input is cut: a barrier waits for the next tile's traffic.
#[test]
fn chunks_change_nothing_with_other_traffic() {
    let records = synth::frame(FPS as u16, 6, 5);
    let c = config(Mode::Nbtc, 2048);
    let whole = fed(with_traffic(&c, 2, 1), &records, records.len());
    assert!(whole.machine.as_ref().unwrap().l2.tile_buffer_wait_cycles > 0);
    for chunk in [1, 13, 400] {
        assert_eq!(
            fed(with_traffic(&c, 2, 1), &records, chunk),
            whole,
            "chunk {chunk}"
        );
    }
}

/// Other traffic needs the tiles synchronised on a machine, and a
/// source's error is the replay's.
#[test]
fn other_traffic_needs_synchronised_tiles_and_reports_its_source() {
    let c = config(Mode::Nbtc, 2048);
    let machine = Box::new(traffic_machine(&c, 1, 2));
    let Err(e) = Replay::on_machine(&c, machine, how(16, false))
        .unwrap()
        .with_other_traffic(synth_source())
    else {
        panic!("refused without synchronised tiles");
    };
    assert!(e.to_string().contains("sync_tiles"), "{e}");
    let Err(e) = Replay::with_processors(&[c], FPS)
        .unwrap()
        .with_other_traffic(synth_source())
    else {
        panic!("refused without a machine");
    };
    assert!(e.to_string().contains("GPU machines"), "{e}");
    let failing: gfxcache_nbtc::TileTrafficSource =
        Box::new(|tile| Err(format!("frame.gtr: no tile {tile:?}")));
    let mut r = Replay::on_machine(&c, Box::new(traffic_machine(&c, 1, 2)), how(16, true))
        .unwrap()
        .with_other_traffic(failing)
        .unwrap();
    let e = r
        .feed(&synth::frame(FPS as u16, 2, 1), Threads::One)
        .unwrap_err();
    assert_eq!(e.to_string(), "frame.gtr: no tile Some(0)");
}
