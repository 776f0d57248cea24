//! The six runs of Section V-B: the baseline Tiling Engine, TCOR with an
//! LRU L2 and TCOR with the dead-line-aware L2, each at the 64 and
//! 128 KiB Tile Caches of Table I, and the energy of each.

use gfxcache_mem::MemoryEnergy;

use super::report::{OtherL1, ENGINES};
use super::TcorConfig;
use crate::{BaselineConfig, FrameL2Stats, L2Policy, TcorConfig as TcorEngineConfig, TilingEngine};
use gfxcache_cache::format_size;

/// One of the six runs before it has seen the trace.
pub(super) struct Plan {
    pub(super) engine: &'static str,
    pub(super) tile_cache: u64,
    pub(super) about: String,
    pub(super) l2_policy: L2Policy,
    /// Index into the Parameter Buffer traffics.
    pub(super) traffic: usize,
    /// The Tiling Engine's L1s: (bytes, which count).
    l1: Vec<(u64, L1Kind)>,
}

#[derive(Clone, Copy)]
enum L1Kind {
    /// Lists and attributes in one cache.
    Both,
    Lists,
    Attributes,
}

/// The six runs, TCOR's output queue `queue_depth` primitives deep.
pub(super) fn plans(queue_depth: usize) -> (Vec<TilingEngine>, Vec<Plan>) {
    let mut engines = Vec::new();
    let mut plans = Vec::new();
    for (base, tcor) in [
        (BaselineConfig::kib64(), TcorEngineConfig::kib64()),
        (BaselineConfig::kib128(), TcorEngineConfig::kib128()),
    ] {
        let tcor = TcorEngineConfig {
            queue_depth,
            ..tcor
        };
        let size = base.tile_cache_bytes;
        let label = format_size(size);
        let t = engines.len();
        engines.push(TilingEngine::Baseline(base));
        engines.push(TilingEngine::Tcor(tcor));
        // The Attribute Cache's share of the Tile Cache (48 or 112 KiB; its
        // entries are the 48-byte attributes that fit).
        let attr_bytes = size - tcor.list_cache_bytes;
        let tcor_l1 = vec![
            (tcor.list_cache_bytes, L1Kind::Lists),
            (attr_bytes, L1Kind::Attributes),
        ];
        let tcor_about = format!(
            "TCOR: {} Primitive List Cache (LRU) + {} Attribute Cache (OPT, {} lines), interleaved PB-Lists, \
             output queue of {queue_depth}",
            format_size(tcor.list_cache_bytes),
            format_size(attr_bytes),
            tcor.attribute_cache.lines
        );
        plans.push(Plan {
            engine: ENGINES[0],
            tile_cache: size,
            about: format!(
                "{label} 4-way LRU Tile Cache, baseline PB-Lists (overflow area past 1024 PMDs); LRU L2"
            ),
            l2_policy: L2Policy::Lru,
            traffic: t,
            l1: vec![(size, L1Kind::Both)],
        });
        plans.push(Plan {
            engine: ENGINES[1],
            tile_cache: size,
            about: format!("{tcor_about}; LRU L2"),
            l2_policy: L2Policy::Lru,
            traffic: t + 1,
            l1: tcor_l1.clone(),
        });
        plans.push(Plan {
            engine: ENGINES[2],
            tile_cache: size,
            about: format!("{tcor_about}; dead-line-aware L2"),
            l2_policy: L2Policy::DeadAware,
            traffic: t + 1,
            l1: tcor_l1,
        });
    }
    (engines, plans)
}

pub(super) fn energy(
    setup: &TcorConfig,
    p: &Plan,
    s: &FrameL2Stats,
    other_l1: &[OtherL1],
    frames: std::ops::Range<usize>,
) -> MemoryEnergy {
    let e = &s.engine;
    let mut l1: Vec<(u64, u64)> =
        p.l1.iter()
            .map(|&(bytes, kind)| {
                let n = match kind {
                    L1Kind::Both => e.lists_accesses + e.attribute_accesses,
                    L1Kind::Lists => e.lists_accesses,
                    L1Kind::Attributes => e.attribute_accesses,
                };
                (bytes, n)
            })
            .collect();
    l1.extend(
        other_l1
            .iter()
            .map(|c| (c.bytes, c.accesses(frames.clone()))),
    );
    let l2 = (setup.l2_bytes, s.l2.pb_accesses + s.l2.other_accesses);
    MemoryEnergy::of(&setup.energy, &l1, l2, s.memory_reads(), s.memory_writes())
}
