//! The GSPC paper's published averages over its 52 DirectX frames (Gaur et
//! al. MICRO'13), to print beside ours. Each figure number is the paper's.
//! Values read from the text of Sections 2 and 5; none of them feeds a model.

/// The class of frames the paper measured, as a workload suite is named
/// (`gfxcache_render::scene::builtin::Suite`): DirectX 10/11 games and
/// benchmarks, rendered in immediate mode.
pub const SUITE: &str = "desktop";

/// LLC misses normalised to 2-bit DRRIP, 8 MB 16-way (Figure 12, and OPT
/// from the summary of the paper; Figure 14 for the iso-overhead set).
pub const MISSES_VS_DRRIP: &[(&str, f64)] = &[
    ("nru", 1.062),
    ("ship-mem", 1.00),
    ("gs-drrip", 0.971),
    ("gspztc", 0.952),
    ("gspztc-tse", 0.885),
    ("gspc", 0.882),
    ("gspc+ucd", 0.869),
    ("drrip+ucd", 1.00),
    ("opt", 0.634),
    ("lru", 1.072),
    ("drrip:bits=4", 0.996),
    ("gs-drrip:bits=4", 0.983),
];

/// Hit rates (percent) of texture, render-target and Z accesses (Figure 5;
/// GSPC's render-target rate from Section 5.1).
pub const HIT_RATES: &[(&str, [Option<f64>; 3])] = &[
    ("opt", [Some(53.4), Some(59.8), Some(77.1)]),
    ("drrip", [Some(22.0), Some(50.1), Some(58.0)]),
    ("nru", [Some(18.4), Some(41.5), Some(58.0)]),
    ("gspc", [None, Some(57.7), None]),
];

/// Render-target lines consumed by the sampler from the LLC, percent (Figure 6).
pub const RT_CONSUMED: &[(&str, f64)] = &[("opt", 51.0), ("drrip", 16.0), ("nru", 13.0)];

/// Share of OPT's texture hits that are inter-stream, percent (Figure 6).
pub const OPT_TEX_INTER_SHARE: f64 = 55.0;

/// OPT's texture hits by epoch E0, E1, E2, E>=3, percent (Figure 7).
pub const OPT_TEX_HITS_BY_EPOCH: [f64; 4] = [79.0, 15.0, 4.0, 2.0];
/// OPT's texture death ratios of E0, E1, E2 (Figure 7).
pub const OPT_TEX_DEATH: [f64; 3] = [0.81, 0.73, 0.53];
/// OPT's Z death ratios of E0, E1, E2 (Figure 9).
pub const OPT_Z_DEATH: [f64; 3] = [0.61, 0.38, 0.26];

/// Percent of RT and TEX fills 2-bit DRRIP inserts at RRPV 3 (Figure 8).
pub const DRRIP_RRPV3: (f64, f64) = (25.0, 36.0);

/// Frame rate relative to DRRIP (all with uncached display, Section 5.2):
/// configuration, then (policy, ratio) (Figures 15, 16, 17).
pub const FPS_VS_DRRIP: &[(&str, &[(&str, f64)])] = &[
    (
        "8MiB",
        &[
            ("nru+ucd", 0.93),
            ("gs-drrip+ucd", 1.008),
            ("gspc+ucd", 1.08),
        ],
    ),
    (
        "16MiB",
        &[
            ("nru+ucd", 0.97),
            ("gs-drrip+ucd", 1.04),
            ("gspc+ucd", 1.118),
        ],
    ),
    ("ddr3-1867", &[("nru+ucd", 0.93), ("gspc+ucd", 1.071)]),
    ("gpu-64", &[("nru+ucd", 0.947), ("gspc+ucd", 1.059)]),
];

/// The paper's value for `policy` in `table`, if it gives one.
pub fn lookup(table: &[(&str, f64)], policy: &str) -> Option<f64> {
    table.iter().find(|(p, _)| *p == policy).map(|(_, v)| *v)
}
