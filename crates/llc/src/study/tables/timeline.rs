//! The timelines as tables: `passes`, a row per pass of each run with a
//! timeline (its span, `at`: the run's LLC accesses before its first,
//! where the timeline's figure marks its start, and what its intervals
//! counted), and `timeline`, a
//! row per point (the interval's counts and the policy's counters, a
//! column each, empty where a policy has none). One scene's trace's: a
//! suite leaves them in each scene's directory.

use gfxcache_report::{Mean, Table, TableBuilder, TableError, Unit};

use crate::study::report::GspcReport;
use crate::study::timeline::{Interval, PassSpan, Timeline, TimelinePoint};

/// The columns of an [`Interval`], after the run's and the row's own.
/// RRPV bands are named as two-bit RRPVs (the band below the largest is
/// `rrpv2`, ...), which they are for every policy that keeps a timeline
/// by default.
const INTERVAL: [&str; 17] = [
    "accesses",
    "read_misses",
    "write_misses",
    "rt_fills_rrpv3",
    "rt_fills_rrpv2",
    "rt_fills_rrpv1",
    "rt_fills_rrpv0",
    "tex_fills_rrpv3",
    "tex_fills_rrpv2",
    "tex_fills_rrpv1",
    "tex_fills_rrpv0",
    "z_fills_rrpv3",
    "z_fills_rrpv2",
    "z_fills_rrpv1",
    "z_fills_rrpv0",
    "rt_consumed",
    "rt_fills_at_max",
];

/// An interval's counts, in [`INTERVAL`]'s order (but the last).
fn interval_counts(i: &Interval) -> [u64; 16] {
    let mut out = [0; 16];
    out[0] = i.accesses;
    out[1] = i.read_misses;
    out[2] = i.write_misses;
    out[3..7].copy_from_slice(&i.rt_fills_by_rrpv);
    out[7..11].copy_from_slice(&i.tex_fills_by_rrpv);
    out[11..15].copy_from_slice(&i.z_fills_by_rrpv);
    out[15] = i.rt_consumed;
    out
}

/// The interval columns of `rows`.
fn intervals(mut b: TableBuilder, rows: &[&Interval]) -> TableBuilder {
    let counts: Vec<[u64; 16]> = rows.iter().map(|i| interval_counts(i)).collect();
    for (k, name) in INTERVAL[..16].iter().enumerate() {
        b = b.u64(
            name,
            Unit::Count,
            Mean::Blank,
            counts.iter().map(|c| Some(c[k])),
        );
    }
    b.f64(
        INTERVAL[16],
        Unit::Fraction,
        Mean::Blank,
        rows.iter().map(|i| Some(i.rt_fills_at_max())),
    )
}

/// The policy counters a timeline names: those of every timeline of the
/// report, in a column each, empty where a policy has no such one.
fn state_names(r: &GspcReport) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for n in r.timelines.iter().flat_map(|t| &t.state) {
        if !names.contains(&n.as_str()) {
            names.push(n);
        }
    }
    names
}

fn state_of(t: &Timeline, name: &str, values: &[f64]) -> Option<f64> {
    let i = t.state.iter().position(|s| s == name)?;
    values.get(i).copied()
}

/// A row per pass of every timeline: where it starts (`at`, as the
/// timeline's points count accesses: the last point's before the pass),
/// the pass's totals, and the policy's counters at its end and on
/// average over it.
pub fn passes(r: &GspcReport) -> Result<Table, TableError> {
    let rows: Vec<(&Timeline, &PassSpan)> = r
        .timelines
        .iter()
        .flat_map(|t| t.passes.iter().map(move |s| (t, s)))
        .collect();
    let mut b = TableBuilder::new(
        "passes",
        "a render pass of a run with a timeline: its totals and the policy's counters",
    )
    .key("policy", rows.iter().map(|(t, _)| t.policy.clone()))
    .key_u64("size", Unit::Bytes, rows.iter().map(|(t, _)| t.size))
    .key_u64(
        "frame",
        Unit::None,
        rows.iter().map(|(_, s)| u64::from(s.frame)),
    )
    .key("pass", rows.iter().map(|(_, s)| s.name.clone()))
    .text(
        "kind",
        Mean::Same,
        rows.iter().map(|(_, s)| Some(s.kind.clone())),
    )
    .u64(
        "points",
        Unit::Count,
        Mean::Blank,
        rows.iter().map(|(_, s)| Some(u64::from(s.points))),
    )
    .u64(
        "at",
        Unit::Count,
        Mean::Blank,
        rows.iter().map(|(t, s)| start(t, s)),
    );
    let totals: Vec<&Interval> = rows.iter().map(|(_, s)| &s.totals).collect();
    b = intervals(b, &totals);
    let names = state_names(r);
    for (suffix, pick) in [("end", 0), ("mean", 1)] {
        for n in &names {
            b = b.f64(
                &format!("{n}_{suffix}"),
                Unit::Count,
                Mean::Blank,
                rows.iter().map(|(t, s)| {
                    let values = if pick == 0 {
                        &s.state_end
                    } else {
                        &s.state_mean
                    };
                    state_of(t, n, values)
                }),
            );
        }
    }
    b.build()
}

/// Where pass `s` of `t` starts: the `at` of the point before its first
/// (a point closes the interval that ends at it), 0 for the run's first.
fn start(t: &Timeline, s: &PassSpan) -> Option<u64> {
    match (s.first_point as usize).checked_sub(1) {
        Some(before) => t.points.get(before).map(|p| p.at),
        None => Some(0),
    }
}

/// A row per point of every timeline.
pub fn timeline(r: &GspcReport) -> Result<Table, TableError> {
    let rows: Vec<(&Timeline, &TimelinePoint)> = r
        .timelines
        .iter()
        .flat_map(|t| t.points.iter().map(move |p| (t, p)))
        .collect();
    let mut b = TableBuilder::new(
        "timeline",
        "a point of a run's timeline: what happened since the last point, and the policy's counters",
    )
    .key("policy", rows.iter().map(|(t, _)| t.policy.clone()))
    .key_u64("size", Unit::Bytes, rows.iter().map(|(t, _)| t.size))
    .key_u64("frame", Unit::None, rows.iter().map(|(_, p)| u64::from(p.frame)))
    .key(
        "pass",
        rows.iter().map(|(t, p)| {
            t.passes
                .get(p.pass as usize)
                .map_or(String::new(), |s| s.name.clone())
        }),
    )
    .key_u64("at", Unit::Count, rows.iter().map(|(_, p)| p.at));
    let each: Vec<&Interval> = rows.iter().map(|(_, p)| &p.interval).collect();
    b = intervals(b, &each);
    for n in state_names(r) {
        b = b.f64(
            n,
            Unit::Count,
            Mean::Blank,
            rows.iter().map(|(t, p)| state_of(t, n, &p.state)),
        );
    }
    b.build()
}
