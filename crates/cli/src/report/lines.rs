//! The lines of a figure's specification: a curves panel's over sizes in
//! bytes ([`super::curves`]) and a series panel's along a trace, its
//! phases marked ([`super::series`]); each line's values from its column,
//! its rows, its level, its factor and its ratio
//! ([`gfxcache_report::Line`]). [`super::panels`] calls them for a panel
//! of those kinds.

use anyhow::Result;
use gfxcache_report::{Line, Phases, Stroke, Table};

use super::curves::{self, CurvePanel};
use super::panels::{column, pairs, table};
use super::series::SeriesPanel;

/// The points of `line` among `rows` of `t` (those where each of its own
/// conditions also holds), each row with its value: the line's column's
/// (or its level's), times its factor, over the sum of its `per` columns
/// on the row, as a ratio if it holds changes; a row with an empty cell
/// or a sum of 0 has none.
fn line_values(
    line: &Line,
    tables: &[Table],
    t: &Table,
    rows: &[usize],
) -> Result<Vec<(usize, f64)>> {
    // A flat line reads its one value elsewhere.
    let y = match line.level {
        Some(_) => None,
        None => Some(column(t, &line.column)?),
    };
    let per = line
        .per
        .iter()
        .map(|c| column(t, c))
        .collect::<Result<Vec<_>>>()?;
    let on = pairs(&line.rows);
    let only = t.rows_where(&on);
    let level = match &line.level {
        Some(l) => {
            let other = table(tables, &l.table)?;
            let c = column(other, &l.column)?;
            let on = pairs(&l.rows);
            Some(
                other
                    .rows_where(&on)
                    .first()
                    .and_then(|&r| other.number(r, c)),
            )
        }
        None => None,
    };
    let ratio = |v: f64| if line.change { 1.0 + v / 100.0 } else { v };
    Ok(rows
        .iter()
        // `rows_where` gives rows in order.
        .filter(|r| only.binary_search(r).is_ok())
        .filter_map(|&r| {
            let v = match level {
                Some(v) => v?,
                None => t.number(r, y?)?,
            };
            let v = line.times * v;
            let v = if per.is_empty() {
                v
            } else {
                let sum: f64 = per.iter().map(|&c| t.number(r, c)).sum::<Option<f64>>()?;
                if sum == 0.0 {
                    return None;
                }
                v / sum
            };
            Some((r, ratio(v)))
        })
        .collect())
}

/// A panel that draws a specification's lines: curves over sizes in
/// bytes, series along a trace.
trait LinePanel: Sized {
    /// The x of a point.
    type X;
    fn line(self, name: String, colour: usize, s: curves::Stroke, p: Vec<(Self::X, f64)>) -> Self;
    fn bound(self, name: String, points: Vec<(Self::X, f64)>) -> Self;
}

impl LinePanel for CurvePanel {
    type X = u64;
    fn line(self, name: String, colour: usize, s: curves::Stroke, p: Vec<(u64, f64)>) -> Self {
        CurvePanel::line(self, name, colour, s, p)
    }
    fn bound(self, name: String, points: Vec<(u64, f64)>) -> Self {
        CurvePanel::bound(self, name, points)
    }
}

impl LinePanel for SeriesPanel {
    type X = f64;
    fn line(self, name: String, colour: usize, s: curves::Stroke, p: Vec<(f64, f64)>) -> Self {
        SeriesPanel::line(self, name, colour, s, p)
    }
    fn bound(self, name: String, points: Vec<(f64, f64)>) -> Self {
        SeriesPanel::bound(self, name, points)
    }
}

/// `panel` with `line`'s `points` drawn as its stroke says.
fn drawn<P: LinePanel>(panel: P, line: &Line, points: Vec<(P::X, f64)>) -> P {
    let name = line.name.clone();
    match line.stroke {
        Stroke::Solid => panel.line(name, line.colour, curves::Stroke::Solid, points),
        Stroke::Dashed => panel.line(name, line.colour, curves::Stroke::Dashed, points),
        Stroke::Bound => panel.bound(name, points),
    }
}

/// The curves of `p` on `rows` of `t`, over the sizes in column `x`.
pub(super) fn curve_panel(
    p: &gfxcache_report::Panel,
    tables: &[Table],
    t: &Table,
    rows: &[usize],
    x: usize,
    subtitle: &str,
) -> Result<CurvePanel> {
    let mut panel = CurvePanel::new(subtitle, &p.y_label);
    for line in &p.lines {
        let points = line_values(line, tables, t, rows)?
            .into_iter()
            .filter_map(|(r, v)| Some((t.number(r, x)? as u64, v)))
            .collect();
        panel = drawn(panel, line, points);
    }
    Ok(panel)
}

/// The lines of `p` on `rows` of `t` over its linear x axis, its phases
/// marked.
pub(super) fn series_panel(
    p: &gfxcache_report::Panel,
    tables: &[Table],
    t: &Table,
    rows: &[usize],
    subtitle: &str,
) -> Result<SeriesPanel> {
    let x = column(t, &p.x.column)?;
    let along = |r: usize| t.number(r, x).map(|v| v / p.x.divide);
    let mut panel = SeriesPanel::new(subtitle, &p.x.label, &p.y_label);
    for line in &p.lines {
        let points = line_values(line, tables, t, rows)?
            .into_iter()
            .filter_map(|(r, v)| Some((along(r)?, v)))
            .collect();
        panel = drawn(panel, line, points);
    }
    match &p.phases {
        Some(phases) => marked(panel, phases, tables, p.x.divide),
        None => Ok(panel),
    }
}

/// `panel` with where each phase of `phases` starts (on an x axis
/// divided by `divide`) marked and numbered from 1, and where each bigger
/// phase ends.
fn marked(
    panel: SeriesPanel,
    phases: &Phases,
    tables: &[Table],
    divide: f64,
) -> Result<SeriesPanel> {
    let t = table(tables, &phases.table)?;
    let at = column(t, &phases.at)?;
    let ends = phases.ends.as_deref().map(|c| column(t, c)).transpose()?;
    let on = pairs(&phases.rows);
    let rows = t.rows_where(&on);
    let start = |r: usize| t.number(r, at).map(|v| v / divide);
    // Numbered by the row's place, so that a mark's number is its row's
    // in the page's table even where a start is missing.
    let starts = rows
        .iter()
        .enumerate()
        .filter_map(|(k, &r)| Some((start(r)?, (k + 1).to_string())))
        .collect();
    let ends = match ends {
        Some(c) => rows
            .windows(2)
            .filter(|w| t.cell(w[0], c) != t.cell(w[1], c))
            .filter_map(|w| start(w[1]))
            .collect(),
        None => Vec::new(),
    };
    Ok(panel.marks(starts, ends))
}

#[cfg(test)]
mod series_tests {
    use gfxcache_report::{Axis, Figure, Line, Mean, Phases, Scale, Stroke, TableBuilder, Unit};

    use super::*;
    use crate::report::data::write_figures;
    use crate::report::figure::svg_text::{has, svg};
    use crate::report::panels::{panels, AnyPanel};

    /// Two runs' points along a trace (`a` has an interval of no access),
    /// and `a`'s three phases over two frames.
    fn tables() -> [Table; 2] {
        let points = TableBuilder::new("points", "a point of a run")
            .key("run", ["a", "a", "a", "a", "b", "b"])
            .key_u64("at", Unit::Count, [1000, 2000, 3000, 4000, 1000, 2000])
            .u64(
                "accesses",
                Unit::Count,
                Mean::Blank,
                [10, 10, 0, 10, 5, 5].map(Some),
            )
            .u64(
                "misses",
                Unit::Count,
                Mean::Blank,
                [1, 2, 0, 3, 1, 1].map(Some),
            )
            .f64(
                "counter",
                Unit::Count,
                Mean::Blank,
                [Some(1.5), Some(2.0), Some(2.5), Some(3.0), None, None],
            )
            .build()
            .unwrap();
        let phases = TableBuilder::new("phases", "a phase of a run")
            .key("run", ["a", "a", "a", "b"])
            .key_u64("frame", Unit::None, [0, 0, 1, 0])
            .u64("at", Unit::Count, Mean::Blank, [0, 2000, 3000, 0].map(Some))
            .build()
            .unwrap();
        [points, phases]
    }

    /// A rate with no point where its denominator is 0, a scaled line, a
    /// line of another run's rows, every x divided for the axis, and the
    /// phases of one run numbered from 1 with the frame's end marked.
    #[test]
    fn a_series_panel_draws_ratios_scaled_lines_and_numbered_phases() -> Result<()> {
        let x = Axis::of("at").label("accesses (thousands)").divide(1e3);
        let rate = |run: &str| {
            Line::new(&format!("{run} per 1000"), "misses", 0, Stroke::Solid)
                .rows("run", run)
                .per(&["accesses"])
                .times(1000.0)
        };
        let panel = gfxcache_report::Panel::series(
            "points",
            x,
            vec![
                rate("a"),
                rate("b"),
                Line::new("8 counters", "counter", 1, Stroke::Dashed)
                    .rows("run", "a")
                    .times(8.0),
            ],
        )
        .subtitle("Along the trace")
        .y_label("misses / 1000 accesses", Scale::Ratio)
        .phases(Phases::new("phases", "at").rows("run", "a").ends("frame"));
        let fig = Figure::new("s.svg", "S", "", vec![panel]);
        let tables = tables();
        let drawn = panels(&fig, &tables)?;
        let AnyPanel::Series(p) = &drawn[0] else {
            panic!("not a series panel");
        };
        assert_eq!(
            p.points_of("a per 1000"),
            Some(&[(1.0, 100.0), (2.0, 200.0), (4.0, 300.0)][..]),
            "no point at 3: no access"
        );
        assert_eq!(
            p.points_of("b per 1000"),
            Some(&[(1.0, 200.0), (2.0, 200.0)][..])
        );
        assert_eq!(
            p.points_of("8 counters"),
            Some(&[(1.0, 12.0), (2.0, 16.0), (3.0, 20.0), (4.0, 24.0)][..])
        );
        let (starts, ends) = p.marked();
        let numbered: Vec<(f64, &str)> = starts.iter().map(|(x, n)| (*x, n.as_str())).collect();
        assert_eq!(numbered, [(0.0, "1"), (2.0, "2"), (3.0, "3")]);
        assert_eq!(
            ends,
            [3.0],
            "frame 0 ends where frame 1's first phase starts"
        );
        let dir = tempfile::tempdir()?;
        write_figures(dir.path(), &tables, std::slice::from_ref(&fig))?;
        let text = svg(dir.path(), "s.svg")?;
        for label in ["a per 1000", "8 counters", "accesses (thousands)", "1", "3"] {
            assert!(has(&text, label), "{label} missing");
        }
        Ok(())
    }

    /// A series panel with no line that has a point is not drawn, nor a
    /// figure of only such panels.
    #[test]
    fn a_series_panel_without_points_is_not_drawn() -> Result<()> {
        let nothing = Line::new("c", "counter", 0, Stroke::Solid).rows("run", "b");
        let panel = gfxcache_report::Panel::series("points", Axis::of("at"), vec![nothing]);
        let fig = Figure::new("n.svg", "N", "", vec![panel]);
        let dir = tempfile::tempdir()?;
        assert!(write_figures(dir.path(), &tables(), &[fig])?.is_empty());
        Ok(())
    }
}
