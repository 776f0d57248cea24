//! The texture units on a GPU machine ([`Replay::on_machine`]): against a
//! deliberately simple placement of private caches written here, on a
//! machine whose every miss takes the same cycles, each design equals its
//! own L1 on a memory of that latency; every texture access is accounted
//! for; chunks and windows of one cycle or many give well-formed runs.

use gfxcache_cache::run::Threads;
use gfxcache_cache::{Geometry, Ways};
use gfxcache_gpu::{
    BusConfig, Flow, L2Attach, L2Config, Machine, MachineConfig, MeshConfig, Outcome, Placement,
    Served, SideEvents, TextureCache,
};
use gfxcache_nbtc::{Mode, NbtcConfig, Replay, RunResult, MACHINE_WINDOW_CYCLES};
use gfxcache_trace::texreq::{synth, TexReqRecord};

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
    let config = MachineConfig {
        fps: FPS,
        block_bytes: BLOCK,
        mesh: MeshConfig::default(),
        l2: L2Config {
            bank_contention: false,
            ..L2Config::default()
        },
        bus: BusConfig {
            occupancy: false,
            arbitration_cycles: 0,
            width_bits: BLOCK * 8,
            ..BusConfig::default()
        },
        tc_cycles: 2,
        table_cycles: 1,
        directory_cycles: 2,
        dram_cycles: 0,
        l2_attach: L2Attach::Bus,
        contexts: 1,
        sync_tiles: false,
    };
    Machine::new(placement, &config).unwrap()
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
    r.finish(Threads::One).pop().unwrap()
}

fn on_machine(config: &NbtcConfig, records: &[TexReqRecord], window: u64) -> RunResult {
    let machine = fixed_machine(PrivateCaches::new(FPS, config.l1_bytes, BLOCK));
    let replay = Replay::on_machine(config, Box::new(machine), window).unwrap();
    fed(replay, records, 997)
}

/// Caches large enough that nothing is evicted: whether a block is filled
/// when it is sent (the placement) or when it returns (the unit's own L1)
/// then changes no lookup, since a block on its way is waited for either
/// way, and each design takes the same cycles on the machine as on its own
/// memory of the same latency.
#[test]
fn private_caches_on_a_fixed_latency_machine_equal_the_units_own_l1() {
    let records = synth::frame(FPS as u16, 6, 7);
    for mode in modes() {
        let c = config(mode, 1 << 20);
        let own = fed(
            Replay::with_processors(&[c], FPS).unwrap(),
            &records,
            records.len(),
        );
        let placed = on_machine(&c, &records, MACHINE_WINDOW_CYCLES);
        assert_eq!(placed.units, own.units, "{}", mode.name());
        let m = placed.machine.expect("a run on a machine reports it");
        assert_eq!(m.l2.texture_requests, own.total.memory_requests);
        assert_eq!(m.bus.queue_cycles, 0);
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
        for window in [1, 7, MACHINE_WINDOW_CYCLES, 10_000] {
            let run = on_machine(&c, &records, window);
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

/// The same frame fed in chunks of any size gives the same run.
#[test]
fn chunks_change_nothing_on_a_machine() {
    let records = synth::frame(FPS as u16, 6, 5);
    let c = config(Mode::Nbtc, 2048);
    let machine = || fixed_machine(PrivateCaches::new(FPS, c.l1_bytes, BLOCK));
    let whole = fed(
        Replay::on_machine(&c, Box::new(machine()), 16).unwrap(),
        &records,
        records.len(),
    );
    for chunk in [1, 13, 400] {
        let r = Replay::on_machine(&c, Box::new(machine()), 16).unwrap();
        assert_eq!(fed(r, &records, chunk), whole, "chunk {chunk}");
    }
}

#[test]
fn a_block_other_than_the_machines_or_a_window_of_0_is_refused() {
    let machine = || Box::new(fixed_machine(PrivateCaches::new(FPS, 4096, BLOCK)));
    let c = NbtcConfig {
        block_bytes: 64,
        ..config(Mode::Nbtc, 4096)
    };
    let e = Replay::on_machine(&c, machine(), 64).err().unwrap();
    assert!(e.to_string().contains("block_bytes"), "{e}");
    let e = Replay::on_machine(&config(Mode::Nbtc, 4096), machine(), 0)
        .err()
        .unwrap();
    assert!(e.to_string().contains("window"), "{e}");
}
