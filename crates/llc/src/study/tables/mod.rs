//! The study's report as tidy tables ([`gfxcache_report::Table`]), the
//! data every file of the report is written from: the CSV and Parquet
//! files, the figures and the page.
//!
//! - `policies`: a row per run (policy, LLC size): its misses, hit rates,
//!   reuse, frame rate on the baseline machine, the mean of its counted
//!   frames (`frame_mean_*`, which `frames.csv` had as rows whose `frame`
//!   was `mean`), and the paper's averages beside (`paper_*`, measured at
//!   8 MB, on every size's row of the policy; its frame rates per size).
//! - `timing`: a row per run and machine of Figures 15-17 (the
//!   `fps_<config>` columns `policies.csv` had, and the baseline's), the
//!   paper's frame rate beside; `drrip_rrpv3`: DRRIP's fills at the
//!   largest RRPV per size (Figure 8).
//! - `frames`: a row per counted frame of every run (baseline machine).
//! - `stream_mix`: a row per stream; `stream_groups`: a row per group of
//!   the paper's Figure 4, ours summed beside the paper's share.
//! - `opt_epochs`: a row per (stream, epoch) of OPT's epoch analyses
//!   (Figures 7, 9), the paper's beside.
//! - `t_sensitivity`: a row per threshold `t` (Figure 11); `t_bounds`: the
//!   paper's bounds for single applications (a scene's only: the same in
//!   every scene, with nothing to average).
//! - `passes` and `timeline`: the timelines, a row per pass (with `at`,
//!   the run's LLC accesses where it starts) and per point (a policy's
//!   counters in a column each, empty where it has none).
//!
//! A suite's mean ([`Mean`] of each column) is the arithmetic mean of the
//! scenes' values where every scene has one ([`Mean::AverageAll`]), as
//! [`crate::study::GspcMean`] averages the runs every scene made; a
//! count of a share (a stream's accesses, GSPZTC's misses at a `t`, an
//! epoch's hits) has no mean, as the suite's CSV files had none. The
//! timelines and the frames are one scene's trace's and stay in its
//! directory.

use gfxcache_cache::format_size;
use gfxcache_report::{Mean, Table, TableBuilder, TableError, Unit};

use super::paper;
use super::report::{Epochs, GspcReport, HitRates, PolicyResult};

mod timeline;
pub use timeline::{passes, timeline};

/// The size the paper's averages were measured at (Figures 4 to 15, 17).
pub const PAPER_SIZE: u64 = 8 * 1024 * 1024;

/// The epochs' names, as the paper writes them.
pub const EPOCHS: [&str; 4] = ["E0", "E1", "E2", "E>=3"];

/// The tables a suite has: the others are one trace's.
pub const SUITE_TABLES: &[&str] = &[
    "policies",
    "timing",
    "stream_mix",
    "stream_groups",
    "opt_epochs",
    "t_sensitivity",
    "machine",
];

/// The result of `policy` at LLC size `size`, if the study ran it.
pub fn find<'a>(report: &'a GspcReport, policy: &str, size: u64) -> Option<&'a PolicyResult> {
    report
        .policies
        .iter()
        .find(|p| p.policy == policy && p.size == size)
}

/// The main LLC size (the first studied), if any size was studied.
pub fn main_size(report: &GspcReport) -> Option<u64> {
    report.sizes.first().copied()
}

/// The paper's frame rate relative to DRRIP for `policy` under configuration
/// `config` (a size label such as `8MiB`, or a timing configuration name).
pub fn paper_fps(config: &str, policy: &str) -> Option<f64> {
    paper::FPS_VS_DRRIP
        .iter()
        .find(|(c, _)| *c == config)
        .and_then(|(_, table)| paper::lookup(table, policy))
}

/// The paper's Figure 5 rate (percent) of stream `k` (tex, rt, z) for
/// `policy`.
pub fn paper_hit_rate(policy: &str, k: usize) -> Option<f64> {
    paper::HIT_RATES
        .iter()
        .find(|(p, _)| *p == policy)
        .and_then(|(_, rates)| rates[k])
}

/// Our share of the LLC accesses (percent) in the paper's stream group
/// `group` ([`paper::STREAM_GROUPS`]).
pub fn group_share(r: &GspcReport, group: &str) -> f64 {
    r.stream_mix
        .iter()
        .filter(|s| paper::stream_group(&s.stream) == Some(group))
        .map(|s| 100.0 * s.fraction)
        .sum()
}

type RunF64 = fn(&PolicyResult) -> f64;
type RunU64 = fn(&PolicyResult) -> u64;
type Rate = fn(&HitRates) -> f64;

/// The four hit-rate columns' names after `prefix`, and their values.
fn hit_rates(prefix: &str) -> [(String, Rate); 4] {
    [
        (format!("{prefix}hit_rate_tex"), |h| h.tex),
        (format!("{prefix}hit_rate_rt"), |h| h.rt),
        (format!("{prefix}hit_rate_z"), |h| h.z),
        (format!("{prefix}hit_rate_all"), |h| h.all),
    ]
}

/// A row per run.
pub fn policies(r: &GspcReport) -> Result<Table, TableError> {
    let p = &r.policies;
    let mut b = TableBuilder::new(
        "policies",
        "a run: a policy at an LLC size, its counted frames (after the warm-up)",
    )
    .key("policy", p.iter().map(|x| x.policy.clone()))
    .key_u64("size", Unit::Bytes, p.iter().map(|x| x.size))
    .text(
        "size_label",
        Mean::Same,
        p.iter().map(|x| Some(format_size(x.size))),
    );
    let counts: [(&str, RunU64); 4] = [
        ("accesses", |x| x.accesses),
        ("misses", |x| x.misses),
        ("read_misses", |x| x.read_misses),
        ("write_misses", |x| x.write_misses),
    ];
    let u = |b: TableBuilder, (name, of): (&str, RunU64)| {
        b.u64(
            name,
            Unit::Count,
            Mean::AverageAll,
            p.iter().map(|x| Some(of(x))),
        )
    };
    let f = |b: TableBuilder, name: &str, unit: Unit, of: RunF64| {
        b.f64(name, unit, Mean::AverageAll, p.iter().map(|x| Some(of(x))))
    };
    b = u(b, counts[0]);
    b = u(b, counts[1]);
    b = f(b, "misses_vs_drrip", Unit::Ratio, |x| x.misses_vs_drrip);
    b = u(b, counts[2]);
    b = u(b, counts[3]);
    b = f(b, "read_misses_vs_drrip", Unit::Ratio, |x| {
        x.read_misses_vs_drrip
    });
    for (name, of) in hit_rates("") {
        b = b.f64(
            &name,
            Unit::Fraction,
            Mean::AverageAll,
            p.iter().map(|x| Some(of(&x.hit_rate))),
        );
    }
    b = u(b, ("tex_hits_inter", |x| x.tex_hits_inter));
    b = u(b, ("tex_hits_intra", |x| x.tex_hits_intra));
    b = b.f64(
        "tex_hits_inter_share",
        Unit::Fraction,
        Mean::AverageAll,
        p.iter().map(|x| {
            let all = x.tex_hits_inter + x.tex_hits_intra;
            (all > 0).then(|| x.tex_hits_inter as f64 / all as f64)
        }),
    );
    // Over OPT's texture hits at the same size (Figure 6), where OPT ran
    // and hit.
    let opt_hits = |x: &PolicyResult| {
        let o = find(r, "opt", x.size)?;
        let all = (o.tex_hits_inter + o.tex_hits_intra) as f64;
        (all > 0.0).then_some(all)
    };
    b = b
        .f64(
            "tex_hits_inter_vs_opt",
            Unit::Ratio,
            Mean::AverageAll,
            p.iter()
                .map(|x| Some(x.tex_hits_inter as f64 / opt_hits(x)?)),
        )
        .f64(
            "tex_hits_intra_vs_opt",
            Unit::Ratio,
            Mean::AverageAll,
            p.iter()
                .map(|x| Some(x.tex_hits_intra as f64 / opt_hits(x)?)),
        );
    b = f(b, "rt_consumed_fraction", Unit::Fraction, |x| {
        x.rt_consumed_fraction
    });
    b = b
        .f64(
            "rt_fills_at_max_rrpv",
            Unit::Fraction,
            Mean::AverageAll,
            p.iter().map(|x| x.rt_fills_at_max_rrpv),
        )
        .f64(
            "tex_fills_at_max_rrpv",
            Unit::Fraction,
            Mean::AverageAll,
            p.iter().map(|x| x.tex_fills_at_max_rrpv),
        );
    b = u(b, ("writebacks", |x| x.writebacks));
    b = f(b, "fps", Unit::PerSecond, |x| x.fps);
    b = f(b, "fps_vs_drrip", Unit::Ratio, |x| x.fps_vs_drrip);
    // The mean of the counted frames, as `frames` has each.
    b = f(b, "frame_mean_accesses", Unit::Count, |x| {
        x.mean_per_frame.accesses
    });
    b = f(b, "frame_mean_misses", Unit::Count, |x| {
        x.mean_per_frame.misses
    });
    for (name, of) in hit_rates("frame_mean_") {
        b = b.f64(
            &name,
            Unit::Fraction,
            Mean::AverageAll,
            p.iter().map(|x| Some(of(&x.mean_per_frame.hit_rate))),
        );
    }
    b = f(b, "frame_mean_frame_ms", Unit::Milliseconds, |x| {
        x.mean_per_frame.frame_ms
    });
    b = f(b, "frame_mean_fps", Unit::PerSecond, |x| {
        x.mean_per_frame.fps
    });
    // The paper's averages (8 MB), beside each of the policy's runs.
    let paper =
        |b: TableBuilder, name: &str, unit: Unit, of: &dyn Fn(&PolicyResult) -> Option<f64>| {
            b.f64(name, unit, Mean::Same, p.iter().map(of))
        };
    b = paper(b, "paper_misses_vs_drrip", Unit::Ratio, &|x| {
        paper::lookup(paper::MISSES_VS_DRRIP, &x.policy)
    });
    // Figure 13's: Figures 5 and 6's values, and the talk's for GSPC+UCD.
    for (k, stream) in [(0, "tex"), (2, "rt"), (3, "z")] {
        let name = format!("paper_hit_rate_{stream}_percent");
        b = paper(b, &name, Unit::Percent, &|x| paper::figure13(&x.policy)[k]);
    }
    b = paper(b, "paper_rt_consumed_percent", Unit::Percent, &|x| {
        paper::figure13(&x.policy)[1]
    });
    // Of OPT's texture hits, the paper's inter- and intra-stream shares,
    // beside ours where ours has them.
    let inter = paper::OPT_TEX_INTER_SHARE / 100.0;
    for (name, share) in [
        ("paper_tex_hits_inter_vs_opt", inter),
        ("paper_tex_hits_intra_vs_opt", 1.0 - inter),
    ] {
        b = paper(b, name, Unit::Ratio, &|x| {
            (x.policy == "opt" && opt_hits(x).is_some()).then_some(share)
        });
    }
    b = paper(
        b,
        "paper_rt_fills_at_max_rrpv_percent",
        Unit::Percent,
        &|x| (x.policy == "drrip").then_some(paper::DRRIP_RRPV3.0),
    );
    b = paper(
        b,
        "paper_tex_fills_at_max_rrpv_percent",
        Unit::Percent,
        &|x| (x.policy == "drrip").then_some(paper::DRRIP_RRPV3.1),
    );
    b = paper(b, "paper_fps_vs_drrip", Unit::Ratio, &|x| {
        paper_fps(&format_size(x.size), &x.policy)
    });
    b.build()
}

/// What a run's counted frames took on one machine.
struct Timed<'a> {
    run: &'a PolicyResult,
    config: &'a str,
    fps: f64,
    fps_vs_drrip: f64,
    timing: Option<&'a super::report::Timing>,
}

/// The baseline machine's name.
pub const BASELINE: &str = "baseline";

/// A row per run and machine of Figures 15-17: the baseline's at every
/// size, then each other machine's at every size, a size's runs in the
/// order run (the order of Figure 15-17's groups).
pub fn timing(r: &GspcReport) -> Result<Table, TableError> {
    let mut rows: Vec<Timed> = Vec::new();
    for &size in &r.sizes {
        for p in r.policies.iter().filter(|p| p.size == size) {
            rows.push(Timed {
                run: p,
                config: BASELINE,
                fps: p.fps,
                fps_vs_drrip: p.fps_vs_drrip,
                timing: p.timing.get(BASELINE),
            });
        }
    }
    for c in r.timing_configs.iter().filter(|c| c.name != BASELINE) {
        for &size in &r.sizes {
            for p in r.policies.iter().filter(|p| p.size == size) {
                if let Some(t) = p.timing.get(&c.name) {
                    rows.push(Timed {
                        run: p,
                        config: &c.name,
                        fps: t.fps,
                        fps_vs_drrip: t.fps_vs_drrip,
                        timing: Some(t),
                    });
                }
            }
        }
    }
    let of = |f: fn(&super::report::Timing) -> f64| {
        rows.iter()
            .map(move |x| x.timing.map(f))
            .collect::<Vec<_>>()
    };
    let count = |f: fn(&super::report::Timing) -> u64| {
        rows.iter()
            .map(move |x| x.timing.map(f))
            .collect::<Vec<_>>()
    };
    TableBuilder::new(
        "timing",
        "a run's counted frames timed on a machine of Figures 15-17 (the baseline's frame rates are policies')",
    )
    .key("policy", rows.iter().map(|x| x.run.policy.clone()))
    .key_u64("size", Unit::Bytes, rows.iter().map(|x| x.run.size))
    .key("config", rows.iter().map(|x| x.config.to_string()))
    .text(
        "config_size",
        Mean::Same,
        rows.iter()
            .map(|x| Some(format!("{} {}", x.config, format_size(x.run.size)))),
    )
    .f64("frame_ms", Unit::Milliseconds, Mean::AverageAll, of(|t| t.frame_ms))
    .f64(
        "fps",
        Unit::PerSecond,
        Mean::AverageAll,
        rows.iter().map(|x| Some(x.fps)),
    )
    .f64(
        "fps_vs_drrip",
        Unit::Ratio,
        Mean::AverageAll,
        rows.iter().map(|x| Some(x.fps_vs_drrip)),
    )
    .u64("dram_reads", Unit::Count, Mean::AverageAll, count(|t| t.dram_reads))
    .u64("dram_writes", Unit::Count, Mean::AverageAll, count(|t| t.dram_writes))
    .f64(
        "dram_bandwidth_gbps",
        Unit::GigabytesPerSecond,
        Mean::AverageAll,
        of(|t| t.dram_bandwidth_gbps),
    )
    .f64(
        "mean_read_latency_ns",
        Unit::Nanoseconds,
        Mean::AverageAll,
        of(|t| t.mean_read_latency_ns),
    )
    // The paper's: on the baseline at each size it gives (Figures 15,
    // 16), on the machines of Figure 17 at 8 MB only.
    .f64(
        "paper_fps_vs_drrip",
        Unit::Ratio,
        Mean::Same,
        rows.iter().map(|x| {
            let p = x.run;
            if x.config == BASELINE {
                paper_fps(&format_size(p.size), &p.policy)
            } else {
                (p.size == PAPER_SIZE)
                    .then(|| paper_fps(x.config, &p.policy))
                    .flatten()
            }
        }),
    )
    .build()
}

/// DRRIP's render-target and texture fills at RRPV 3 (Figure 8): a row
/// per size and stream, empty where DRRIP did not run, the paper's at 8
/// MB beside.
pub fn drrip_rrpv3(r: &GspcReport) -> Result<Table, TableError> {
    let (rt, tex) = paper::DRRIP_RRPV3;
    let rows: Vec<(u64, &str, Option<f64>, f64)> = r
        .sizes
        .iter()
        .flat_map(|&size| {
            let d = find(r, "drrip", size);
            [
                ("RT fills", d.and_then(|p| p.rt_fills_at_max_rrpv), rt),
                ("TEX fills", d.and_then(|p| p.tex_fills_at_max_rrpv), tex),
            ]
            .map(|(fills, v, paper)| (size, fills, v.map(|f| 100.0 * f), paper))
        })
        .collect();
    TableBuilder::new(
        "drrip_rrpv3",
        "DRRIP's render-target or texture fills at the largest RRPV, at a size (Figure 8)",
    )
    .key_u64("size", Unit::Bytes, rows.iter().map(|x| x.0))
    .text(
        "size_label",
        Mean::Same,
        rows.iter().map(|x| Some(format_size(x.0))),
    )
    .key("fills", rows.iter().map(|x| x.1))
    .f64(
        "percent",
        Unit::Percent,
        Mean::AverageAll,
        rows.iter().map(|x| x.2),
    )
    .f64(
        "paper_percent",
        Unit::Percent,
        Mean::Same,
        rows.iter().map(|x| Some(x.3)),
    )
    .build()
}

/// A row per counted frame of every run.
pub fn frames(r: &GspcReport) -> Result<Table, TableError> {
    let rows: Vec<(&PolicyResult, &super::report::FrameResult)> = r
        .policies
        .iter()
        .flat_map(|p| p.per_frame.iter().map(move |f| (p, f)))
        .collect();
    let mut b = TableBuilder::new(
        "frames",
        "a counted frame of a run, timed on the baseline machine (the mean of a run's frames is in policies)",
    )
    .key("policy", rows.iter().map(|(p, _)| p.policy.clone()))
    .key_u64("size", Unit::Bytes, rows.iter().map(|(p, _)| p.size))
    .key_u64("frame", Unit::None, rows.iter().map(|(_, f)| u64::from(f.frame)))
    .u64(
        "accesses",
        Unit::Count,
        Mean::AverageAll,
        rows.iter().map(|(_, f)| Some(f.accesses)),
    )
    .u64(
        "misses",
        Unit::Count,
        Mean::AverageAll,
        rows.iter().map(|(_, f)| Some(f.misses)),
    );
    for (name, of) in hit_rates("") {
        b = b.f64(
            &name,
            Unit::Fraction,
            Mean::AverageAll,
            rows.iter().map(|(_, f)| Some(of(&f.hit_rate))),
        );
    }
    b.f64(
        "frame_ms",
        Unit::Milliseconds,
        Mean::AverageAll,
        rows.iter().map(|(_, f)| Some(f.frame_ms)),
    )
    .f64(
        "fps",
        Unit::PerSecond,
        Mean::AverageAll,
        rows.iter().map(|(_, f)| Some(f.fps)),
    )
    .build()
}

/// A row per stream the trace accesses.
pub fn stream_mix(r: &GspcReport) -> Result<Table, TableError> {
    let s = &r.stream_mix;
    TableBuilder::new("stream_mix", "a stream's LLC accesses (Figure 4)")
        .key("stream", s.iter().map(|x| x.stream.clone()))
        .text(
            "group",
            Mean::Same,
            s.iter()
                .map(|x| paper::stream_group(&x.stream).map(String::from)),
        )
        .u64(
            "accesses",
            Unit::Count,
            Mean::Blank,
            s.iter().map(|x| Some(x.accesses)),
        )
        .f64(
            "fraction",
            Unit::Fraction,
            Mean::AverageAll,
            s.iter().map(|x| Some(x.fraction)),
        )
        .build()
}

/// A row per group of streams of the paper's Figure 4, ours summed; none
/// if the trace has no stream tags.
pub fn stream_groups(r: &GspcReport) -> Result<Table, TableError> {
    let groups: Vec<&str> = if r.stream_mix.is_empty() {
        Vec::new()
    } else {
        paper::STREAM_GROUPS.iter().map(|(g, _)| *g).collect()
    };
    TableBuilder::new(
        "stream_groups",
        "a group of streams of the paper's Figure 4: our share of the LLC accesses beside the paper's at 8 MB",
    )
    .key("group", groups.iter().copied())
    .f64(
        "percent",
        Unit::Percent,
        Mean::AverageAll,
        groups.iter().map(|g| Some(group_share(r, g))),
    )
    .f64(
        "paper_percent",
        Unit::Percent,
        Mean::Same,
        groups
            .iter()
            .map(|g| paper::lookup(paper::STREAM_MIX, g)),
    )
    .build()
}

/// A row per (stream, epoch) of OPT's epoch analyses; E>=3 has no death
/// ratio, as the paper tracks death only out of E0, E1 and E2.
pub fn opt_epochs(r: &GspcReport) -> Result<Table, TableError> {
    let e = &r.opt_epochs;
    let rows: Vec<(&str, &Epochs, usize)> = [("tex", &e.tex), ("z", &e.z)]
        .into_iter()
        .flat_map(|(s, e)| (0..4).map(move |k| (s, e, k)))
        .collect();
    let count = |name: &str, of: fn(&Epochs, usize) -> u64| {
        (
            name.to_string(),
            rows.iter().map(move |&(_, e, k)| Some(of(e, k))),
        )
    };
    let (hits, hits_v) = count("hits", |e, k| e.hits_by_epoch[k]);
    let (entries, entries_v) = count("entries", |e, k| e.entries[k]);
    let (resident, resident_v) = count("resident", |e, k| e.resident[k]);
    TableBuilder::new(
        "opt_epochs",
        "an epoch of texture or Z lines under OPT at the main size (Figures 7, 9): E0 from the fill to the first hit, E1 to the second, ...",
    )
    .key("stream", rows.iter().map(|(s, _, _)| s.to_string()))
    .key("epoch", rows.iter().map(|(_, _, k)| EPOCHS[*k]))
    .u64(&hits, Unit::Count, Mean::Blank, hits_v)
    .f64(
        "hit_share",
        Unit::Fraction,
        Mean::AverageAll,
        rows.iter().map(|(_, e, k)| Some(e.hit_share_by_epoch[*k])),
    )
    .u64(&entries, Unit::Count, Mean::Blank, entries_v)
    .u64(&resident, Unit::Count, Mean::Blank, resident_v)
    .f64(
        "death_ratio",
        Unit::Fraction,
        Mean::AverageAll,
        rows.iter().map(|(_, e, k)| e.death_ratios.get(*k).copied()),
    )
    .f64(
        "paper_hit_share_percent",
        Unit::Percent,
        Mean::Same,
        rows.iter()
            .map(|(s, _, k)| (*s == "tex").then_some(paper::OPT_TEX_HITS_BY_EPOCH[*k])),
    )
    .f64(
        "paper_death_ratio",
        Unit::Fraction,
        Mean::Same,
        rows.iter().map(|(s, _, k)| {
            let death = if *s == "tex" {
                &paper::OPT_TEX_DEATH
            } else {
                &paper::OPT_Z_DEATH
            };
            death.get(*k).copied()
        }),
    )
    .build()
}

/// A row per threshold `t` GSPZTC ran with.
pub fn t_sensitivity(r: &GspcReport) -> Result<Table, TableError> {
    let t = &r.t_sensitivity;
    TableBuilder::new(
        "t_sensitivity",
        "GSPZTC at a threshold t, at the main size (Figure 11)",
    )
    .key_u64("t", Unit::None, t.iter().map(|p| u64::from(p.t)))
    .u64(
        "misses",
        Unit::Count,
        Mean::Blank,
        t.iter().map(|p| Some(p.misses)),
    )
    .f64(
        "change_vs_t16",
        Unit::Percent,
        Mean::AverageAll,
        t.iter().map(|p| Some(p.change_vs_t16)),
    )
    .build()
}

/// The bounds of Figure 11 the paper states for single applications.
pub fn t_bounds() -> Result<Table, TableError> {
    let b = paper::T_BOUNDS;
    TableBuilder::new(
        "t_bounds",
        "a bound the paper states of GSPZTC's change in misses at a t for some of its applications (Section 5.1)",
    )
    .key_u64("t", Unit::None, b.iter().map(|x| u64::from(x.t)))
    .f64(
        "paper_change_vs_t16",
        Unit::Percent,
        Mean::Same,
        b.iter().map(|x| Some(x.change)),
    )
    .key("label", b.iter().map(t_bound_label))
    .bool("above", Mean::Same, b.iter().map(|x| x.above))
    .text(
        "applications",
        Mean::Same,
        b.iter().map(|x| Some(x.applications.join("; "))),
    )
    .build()
}

/// A bound as the figure marks it: `at least +2 % in 4 apps`, `below -4 %
/// in Assassin's Creed`.
pub fn t_bound_label(b: &paper::TBound) -> String {
    let apps = match b.applications {
        [one] => one.to_string(),
        many => format!("{} apps", many.len()),
    };
    let side = if b.above { "at least" } else { "below" };
    format!("{side} {:+.0} % in {apps}", b.change)
}

/// Every table of the report, in the order a reader meets them.
pub fn all(r: &GspcReport) -> Result<Vec<Table>, TableError> {
    let mut tables = vec![
        policies(r)?,
        timing(r)?,
        drrip_rrpv3(r)?,
        frames(r)?,
        stream_mix(r)?,
        stream_groups(r)?,
        opt_epochs(r)?,
        t_sensitivity(r)?,
        t_bounds()?,
        passes(r)?,
        timeline(r)?,
    ];
    if let Some(m) = &r.machine {
        tables.push(m.table()?);
    }
    Ok(tables)
}

impl gfxcache_report::Report for GspcReport {
    fn tables(&self) -> Result<Vec<Table>, TableError> {
        all(self)
    }

    fn figures(&self) -> Vec<gfxcache_report::Figure> {
        super::figures::figures(self)
    }

    fn page(&self) -> Result<gfxcache_report::Page, TableError> {
        Ok(super::page::page(self))
    }

    fn suite_tables_of(tables: Vec<Table>) -> Vec<Table> {
        tables
            .into_iter()
            .filter(|t| SUITE_TABLES.contains(&t.name()))
            .collect()
    }

    fn suite_figures(scenes: &[&Self]) -> Vec<gfxcache_report::Figure> {
        super::figures::suite_figures(scenes)
    }

    fn suite_page(scenes: &[(&str, &Self)]) -> Result<gfxcache_report::Page, TableError> {
        Ok(super::page::suite_page(scenes))
    }
}
