//! The GSPC paper's published averages over its 52 DirectX frames (Gaur et
//! al. MICRO'13), to print beside ours. Each figure number is the paper's.
//! Values read from the text of Sections 2 and 5, and, where its text
//! gives none, from the words of the talk's slides (never read off a
//! chart); none of them feeds a model.

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

/// The paper's groups of graphics streams in its Figure 4, in its order:
/// a group's name, and our streams (`gfxcache_trace::Stream::name`) in it.
/// We count vertex indices in its vertex stream: the talk's slide 9 names
/// eight streams (vertex, HiZ, Z, render target, texture, stencil,
/// display, the rest), vertex indices not among them. Its rest is stencil,
/// display and "other accesses such as shader code, constants" (Section
/// 2.2), and ours adds the tile-based Parameter Buffer streams, which an
/// immediate-mode frame has none of.
pub const STREAM_GROUPS: &[(&str, &[&str])] = &[
    ("RT", &["rt"]),
    ("TEX", &["tex"]),
    ("Z", &["z"]),
    ("HiZ", &["hiz"]),
    ("vertex", &["vtx", "vidx"]),
    (
        "rest",
        &["stc", "display", "shader", "other", "pb-list", "pb-attr"],
    ),
];

/// The paper's share (percent) of the LLC accesses of each group of
/// [`STREAM_GROUPS`] at 8 MB (Figure 4). Section 2.2 gives render targets
/// 40, textures 34, HiZ 7, vertex 4 and the rest 5; of Z only "at least
/// 10%", which the talk's slide 10 gives as 10.
pub const STREAM_MIX: &[(&str, f64)] = &[
    ("RT", 40.0),
    ("TEX", 34.0),
    ("Z", 10.0),
    ("HiZ", 7.0),
    ("vertex", 4.0),
    ("rest", 5.0),
];

/// The group of [`STREAM_GROUPS`] our stream `stream` falls in.
pub fn stream_group(stream: &str) -> Option<&'static str> {
    STREAM_GROUPS
        .iter()
        .find(|(_, streams)| streams.contains(&stream))
        .map(|(group, _)| *group)
}

/// What Section 5.1 says of its Figure 11 (GSPZTC's misses at each `t`
/// relative to `t = 16`): no average (the four values of t "experience
/// almost the same number of LLC misses" on average), only bounds that
/// some of its twelve applications pass.
pub struct TBound {
    pub t: u32,
    /// The change in misses, percent, relative to `t = 16`.
    pub change: f64,
    /// Whether the applications' changes are above `change` ("at least"),
    /// or below it ("saving more than").
    pub above: bool,
    /// The applications the paper names.
    pub applications: &'static [&'static str],
}

/// The bounds of Figure 11 the paper states (Section 5.1).
pub const T_BOUNDS: &[TBound] = &[
    TBound {
        t: 2,
        change: 2.0,
        above: true,
        applications: &["3D Mark Vantage GT1", "Dirt", "HAWX", "Unigine"],
    },
    TBound {
        t: 2,
        change: -4.0,
        above: false,
        applications: &["Assassin's Creed"],
    },
    TBound {
        t: 4,
        change: 1.0,
        above: true,
        applications: &["Dirt", "Unigine"],
    },
];

/// GSPC+UCD's rates (percent) on the talk's slide 44 ("Where do we lose
/// against optimal"), the measures of Figure 13 in its order: texture hit
/// rate, render-target lines consumed by the sampler, render-target
/// (blending) hit rate, Z hit rate. The paper's text gives none of them.
pub const GSPC_UCD_RATES: [f64; 4] = [33.5, 40.4, 58.1, 59.0];

/// The paper's value of each of Figure 13's four measures (texture hit
/// rate, render-target lines consumed, render-target hit rate, Z hit
/// rate; percent) for `policy`, where it or its talk states one: OPT's,
/// DRRIP's and NRU's are Figures 5 and 6's (the same measures at the same
/// 8 MB), GSPC's render-target hit rate is Section 5.1's, GSPC+UCD's are
/// slide 44's ([`GSPC_UCD_RATES`]). Of the other policies the text gives
/// no value.
pub fn figure13(policy: &str) -> [Option<f64>; 4] {
    if policy == "gspc+ucd" {
        return GSPC_UCD_RATES.map(Some);
    }
    let hits = HIT_RATES
        .iter()
        .find(|(p, _)| *p == policy)
        .map_or([None; 3], |(_, rates)| *rates);
    [hits[0], lookup(RT_CONSUMED, policy), hits[1], hits[2]]
}

/// The paper's value for `policy` in `table`, if it gives one.
pub fn lookup(table: &[(&str, f64)], policy: &str) -> Option<f64> {
    table.iter().find(|(p, _)| *p == policy).map(|(_, v)| *v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figure13_takes_each_value_from_where_the_paper_states_it() {
        assert_eq!(
            figure13("drrip"),
            [Some(22.0), Some(16.0), Some(50.1), Some(58.0)]
        );
        assert_eq!(figure13("gspc"), [None, None, Some(57.7), None]);
        assert_eq!(figure13("gspc+ucd")[1], Some(40.4));
        assert_eq!(figure13("gspztc"), [None; 4]);
    }

    #[test]
    fn every_stream_has_one_group_and_the_shares_sum_to_100() {
        for s in gfxcache_trace::Stream::ALL {
            let in_groups = STREAM_GROUPS
                .iter()
                .filter(|(_, streams)| streams.contains(&s.name()))
                .count();
            assert_eq!(in_groups, 1, "{}", s.name());
        }
        let sum: f64 = STREAM_MIX.iter().map(|(_, v)| v).sum();
        assert!((sum - 100.0).abs() < 1e-9);
        let groups: Vec<&str> = STREAM_GROUPS.iter().map(|g| g.0).collect();
        let mix: Vec<&str> = STREAM_MIX.iter().map(|g| g.0).collect();
        assert_eq!(groups, mix);
    }
}
