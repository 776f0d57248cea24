//! A figure's specification ([`gfxcache_report::Figure`]) made into the
//! panels the drawing modules draw ([`super::bars`], [`super::stacked`],
//! [`super::curves`], [`super::series`]): which rows of which table, each
//! category and series, each line's values, the paper's values, notes,
//! baselines and marks, each as the specification says.
//! [`super::data::write_figures`] writes them.

use std::collections::HashMap;

use anyhow::{Context, Result};
use gfxcache_report::{Figure, Kind, Lookup, Paper, Scale, Series, Table};
use plotters::coord::Shift;
use plotters::prelude::*;

use super::bars::{Panel, Unit};
use super::curves::{self, CurvePanel};
use super::figure::{compact, Legend, Plot};
use super::series::SeriesPanel;
use super::stacked::StackedPanel;

/// A panel of any kind, drawn alike.
pub enum AnyPanel {
    Bars(Panel),
    Stacked(StackedPanel),
    Curves(CurvePanel),
    Series(SeriesPanel),
}

impl Plot for AnyPanel {
    fn prune(&mut self) -> bool {
        match self {
            AnyPanel::Bars(p) => p.prune(),
            AnyPanel::Stacked(p) => p.prune(),
            AnyPanel::Curves(p) => p.prune(),
            AnyPanel::Series(p) => p.prune(),
        }
    }

    fn width(&self) -> u32 {
        match self {
            AnyPanel::Bars(p) => p.width(),
            AnyPanel::Stacked(p) => p.width(),
            AnyPanel::Curves(p) => p.width(),
            AnyPanel::Series(p) => p.width(),
        }
    }

    fn legend(&self) -> Legend {
        match self {
            AnyPanel::Bars(p) => p.legend(),
            AnyPanel::Stacked(p) => p.legend(),
            AnyPanel::Curves(p) => p.legend(),
            AnyPanel::Series(p) => p.legend(),
        }
    }

    fn fit(self, max: u32) -> Vec<Self> {
        match self {
            AnyPanel::Bars(p) => p.fit(max).into_iter().map(AnyPanel::Bars).collect(),
            AnyPanel::Stacked(p) => p.fit(max).into_iter().map(AnyPanel::Stacked).collect(),
            AnyPanel::Curves(p) => p.fit(max).into_iter().map(AnyPanel::Curves).collect(),
            AnyPanel::Series(p) => p.fit(max).into_iter().map(AnyPanel::Series).collect(),
        }
    }

    fn draw(&self, area: &DrawingArea<SVGBackend, Shift>) -> Result<()> {
        match self {
            AnyPanel::Bars(p) => p.draw(area),
            AnyPanel::Stacked(p) => p.draw(area),
            AnyPanel::Curves(p) => p.draw(area),
            AnyPanel::Series(p) => p.draw(area),
        }
    }
}

pub(super) fn table<'a>(tables: &'a [Table], name: &str) -> Result<&'a Table> {
    tables
        .iter()
        .find(|t| t.name() == name)
        .with_context(|| format!("no table {name}"))
}

/// The panels `fig` asks for, each facet's in turn, its curves on one y
/// axis if it says so.
pub fn panels(fig: &Figure, tables: &[Table]) -> Result<Vec<AnyPanel>> {
    let mut out = each_panel(fig, tables)?;
    if fig.same_y {
        curves::same_y(out.iter_mut().filter_map(|p| match p {
            AnyPanel::Curves(c) => Some(c),
            _ => None,
        }));
    }
    Ok(out)
}

fn each_panel(fig: &Figure, tables: &[Table]) -> Result<Vec<AnyPanel>> {
    let Some(facet) = &fig.facet else {
        return fig.panels.iter().map(|p| panel(p, tables, None)).collect();
    };
    let Some(first) = fig.panels.first() else {
        return Ok(Vec::new());
    };
    let t = table(tables, &first.table)?;
    let values = distinct(t, facet, &t.rows_where(&conditions(first)));
    let mut out = Vec::new();
    for v in &values {
        for p in &fig.panels {
            out.push(panel(p, tables, Some((facet, v)))?);
        }
    }
    Ok(out)
}

fn conditions(p: &gfxcache_report::Panel) -> Vec<(&str, &str)> {
    pairs(&p.rows)
}

/// A specification's (column, value) conditions as `Table::rows_where`
/// takes them.
pub(super) fn pairs(conditions: &[(String, String)]) -> Vec<(&str, &str)> {
    conditions
        .iter()
        .map(|(c, v)| (c.as_str(), v.as_str()))
        .collect()
}

/// The cells of `column` on `rows`, each once, in the order first met.
fn distinct(t: &Table, column: &str, rows: &[usize]) -> Vec<String> {
    let Some(c) = t.index(column) else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    for &r in rows {
        let v = t.cell(r, c);
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

pub(super) fn column(t: &Table, name: &str) -> Result<usize> {
    t.index(name)
        .with_context(|| format!("table {} has no column {name}", t.name()))
}

/// One panel of `p` on the rows of `facet`'s value, if any.
fn panel(
    p: &gfxcache_report::Panel,
    tables: &[Table],
    facet: Option<(&String, &String)>,
) -> Result<AnyPanel> {
    let t = table(tables, &p.table)?;
    let mut cond = conditions(p);
    if let Some((c, v)) = facet {
        cond.push((c.as_str(), v.as_str()));
    }
    let rows = t.rows_where(&cond);
    let subtitle = match facet {
        Some((_, v)) => p.subtitle.replace("{}", v),
        None => p.subtitle.clone(),
    };
    if p.kind == Kind::Series {
        // Thousands of rows along a trace, and no category among them.
        return Ok(AnyPanel::Series(super::lines::series_panel(
            p, tables, t, &rows, &subtitle,
        )?));
    }
    let x = column(t, &p.x.column)?;
    let mut xs = if p.x.only.is_empty() {
        distinct(t, &p.x.column, &rows)
    } else {
        p.x.only.clone()
    };
    xs.retain(|v| !p.x.except.contains(v));
    if p.x.numeric_order {
        xs.sort_by(|a, b| {
            let n = |s: &str| s.parse::<f64>().unwrap_or(f64::NAN);
            n(a).total_cmp(&n(b))
        });
    }
    let mark = p.x.mark.as_deref().map(|m| column(t, m)).transpose()?;
    let labels: Vec<String> = xs
        .iter()
        .map(|v| {
            let label = p.x.format.replace("{}", v);
            let marked = mark.is_some_and(|m| {
                rows.iter()
                    .any(|&r| t.cell(r, x) == *v && t.cell(r, m) == "true")
            });
            if marked {
                p.x.marked.replace("{}", &label)
            } else {
                label
            }
        })
        .collect();
    // The series' names and, per (x, series), the row that gives the bar.
    let (names, series_col) = match &p.series {
        Series::By {
            column: s,
            except,
            order,
        } => {
            let met = distinct(t, s, &rows);
            let names: Vec<String> = if order.is_empty() {
                met
            } else {
                order.iter().filter(|n| met.contains(n)).cloned().collect()
            };
            let names = names.into_iter().filter(|n| !except.contains(n)).collect();
            (names, Some(column(t, s)?))
        }
        Series::One { name } => (vec![name.clone()], None),
    };
    let mut at: HashMap<(String, String), usize> = HashMap::new();
    for &r in &rows {
        let s = series_col.map_or_else(|| names[0].clone(), |c| t.cell(r, c));
        at.entry((t.cell(r, x), s)).or_insert(r);
    }
    // The baseline's value each one is over, if the panel says.
    let base = match &p.over {
        Some(o) => {
            let c = column(t, &o.column)?;
            let on = pairs(&o.rows);
            let theirs = t.rows_where(&on);
            let first = rows.iter().find(|r| theirs.contains(r));
            Some(first.and_then(|&r| t.number(r, c)).filter(|b| *b > 0.0))
        }
        None => None,
    };
    let raw = |xv: &str, s: &str, col: usize| -> Option<f64> {
        let r = *at.get(&(xv.to_string(), s.to_string()))?;
        t.number(r, col)
    };
    // A column's values on series `s`'s rows, by category, as they are
    // (the paper's: not divided nor over a baseline).
    let of_series =
        |s: &str, col: usize| -> Vec<Option<f64>> { xs.iter().map(|xv| raw(xv, s, col)).collect() };
    let value = |xv: &str, s: &str, col: usize| -> Option<f64> {
        let v = raw(xv, s, col)?;
        let v = if p.times == 1.0 { v } else { p.times * v };
        let v = if p.divide == 1.0 { v } else { v / p.divide };
        match base {
            Some(b) => Some(v / b?),
            None => Some(v),
        }
    };
    let measures =
        p.y.iter()
            .map(|m| Ok((m.name.as_str(), column(t, &m.column)?)))
            .collect::<Result<Vec<_>>>()?;
    let shown = |s: &str| p.series_format.replace("{}", s);
    Ok(match p.kind {
        Kind::Series => unreachable!("a series panel is made before the categories"),
        Kind::Curves => AnyPanel::Curves(super::lines::curve_panel(
            p, tables, t, &rows, x, &subtitle,
        )?),
        Kind::Stacked => {
            let mut panel = StackedPanel::new(
                &subtitle,
                &p.y_label,
                labels,
                names.iter().map(|n| shown(n)).collect(),
            );
            for (name, col) in measures {
                let values = xs
                    .iter()
                    .map(|xv| names.iter().map(|s| value(xv, s, col)).collect())
                    .collect();
                panel = panel.segment(name, values);
            }
            AnyPanel::Stacked(panel)
        }
        Kind::Bars => {
            let unit = match p.scale {
                Scale::Ratio => Unit::Ratio,
                Scale::Percent => Unit::Percent,
            };
            let mut panel = Panel::new(&subtitle, &p.y_label, unit, labels);
            if measures.is_empty() {
                anyhow::bail!("a bar chart of no column");
            }
            let note = p.note.as_deref().map(|c| column(t, c)).transpose()?;
            let beside = p.paper.iter().find_map(|q| match q {
                Paper::Beside { format, column: c } => Some((format, c)),
                _ => None,
            });
            // A bar per series and, with several y columns, per column
            // (noted, if asked); the paper's beside each, if asked.
            for s in &names {
                for &(m, col) in &measures {
                    let name = match (measures.len(), series_col) {
                        (1, _) => shown(s),
                        (_, None) => m.to_string(),
                        (_, Some(_)) => format!("{} {m}", shown(s)),
                    };
                    let ours: Vec<Option<f64>> = xs.iter().map(|xv| value(xv, s, col)).collect();
                    let ran = ours.iter().any(Option::is_some);
                    let notes = match note {
                        Some(n) if measures.len() == 1 => {
                            xs.iter().map(|xv| raw(xv, s, n).map(compact)).collect()
                        }
                        _ => Vec::new(),
                    };
                    // A design's colour is its own only where it has one
                    // bar per category.
                    let key = (measures.len() == 1)
                        .then(|| p.colours.iter().position(|c| c == s))
                        .flatten();
                    panel = panel.ours(name.clone(), ours, notes, key);
                    if let (Some((format, c)), true) = (beside, ran) {
                        let values = of_series(s, column(t, c)?);
                        panel = panel.paper(format.replace("{}", &name), values);
                    }
                }
            }
            for paper in &p.paper {
                match paper {
                    Paper::Series {
                        name,
                        column: c,
                        of,
                    } => {
                        let values = of_series(of, column(t, c)?);
                        panel = panel.paper(name, values);
                    }
                    Paper::Group { name, column: c } => {
                        let c = column(t, c)?;
                        let raw: HashMap<String, &String> =
                            names.iter().map(|n| (shown(n), n)).collect();
                        let first = |name: &str| {
                            let s = raw.get(name)?;
                            rows.iter()
                                .filter(|&&r| series_col.is_none_or(|sc| t.cell(r, sc) == **s))
                                .find_map(|&r| t.number(r, c))
                        };
                        panel = panel.paper_group(name, first);
                    }
                    Paper::Each { format, column: c } => {
                        let c = column(t, c)?;
                        for s in &names {
                            panel = panel.paper(format.replace("{}", s), of_series(s, c));
                        }
                    }
                    Paper::Row {
                        name,
                        rows: on,
                        column: c,
                    } => {
                        let c = column(t, c)?;
                        let on = pairs(on);
                        let v = t.rows_where(&on).first().and_then(|&r| t.number(r, c));
                        panel = panel.paper(name, xs.iter().map(|_| v).collect());
                    }
                    Paper::Beside { .. } => {}
                    Paper::Lookup { name, lookup } => {
                        // Beside ours of the last column only: the paper's
                        // numbers compare with it (a total after its parts).
                        let last = measures.last().map(|m| m.1);
                        let ours = |xv: &str| {
                            last.is_some_and(|c| names.iter().any(|s| value(xv, s, c).is_some()))
                        };
                        let theirs = looked_up(lookup, tables, t, &rows)?;
                        let values = xs
                            .iter()
                            .map(|xv| theirs(xv).filter(|_| ours(xv)))
                            .collect();
                        panel = panel.paper(name, values);
                    }
                    Paper::GroupLookup { name, lookup } => {
                        let theirs = looked_up(lookup, tables, t, &rows)?;
                        let raw: HashMap<String, &String> =
                            names.iter().map(|n| (shown(n), n)).collect();
                        panel = panel.paper_group(name, |name| theirs(raw.get(name)?));
                    }
                }
            }
            if let Some(m) = &p.marks {
                let b = table(tables, &m.table)?;
                let (bx, bv, bl) = (column(b, &m.x)?, column(b, &m.value)?, column(b, &m.label)?);
                let marks = (0..b.rows())
                    .filter_map(|r| {
                        let category = p.x.format.replace("{}", &b.cell(r, bx));
                        Some((category, b.number(r, bv)?, b.cell(r, bl)))
                    })
                    .collect();
                panel = panel.marks(&m.name, marks);
            }
            if let Some(at) = p.reference {
                panel = panel.reference(at);
            }
            if let Some(at) = p.baseline {
                panel = panel.from_base(at);
            }
            AnyPanel::Bars(panel)
        }
    })
}

/// The values `lookup` reads for `rows` of `t`, by category or series
/// value.
fn looked_up<'a>(
    lookup: &'a Lookup,
    tables: &'a [Table],
    t: &Table,
    rows: &[usize],
) -> Result<impl Fn(&str) -> Option<f64> + 'a> {
    let other = table(tables, &lookup.table)?;
    let mut on = pairs(&lookup.rows);
    let key = match &lookup.on {
        Some(c) => {
            let here = column(t, c)?;
            rows.first().map(|&r| (c.as_str(), t.cell(r, here)))
        }
        None => None,
    };
    if let Some((c, v)) = &key {
        on.push((c, v.as_str()));
    }
    let keyed = lookup.on.is_none() || key.is_some();
    let row = keyed
        .then(|| other.rows_where(&on).first().copied())
        .flatten();
    let columns = lookup
        .columns
        .iter()
        .map(|(of, c)| Ok((of.as_str(), column(other, c)?)))
        .collect::<Result<Vec<_>>>()?;
    Ok(move |of: &str| {
        let c = columns.iter().find(|(o, _)| *o == of)?.1;
        let v = other.number(row?, c)?;
        Some(if lookup.decrease { 1.0 - v / 100.0 } else { v })
    })
}

#[cfg(test)]
mod tests {
    use gfxcache_report::{Axis, Line, Mean, Stroke, TableBuilder, Unit};

    use super::*;
    use crate::report::data::write_figures;
    use crate::report::figure::{
        self,
        svg_text::{has, svg},
    };

    /// Two designs' parts at two sizes, and the paper's row.
    fn table() -> Table {
        let design = ["base", "base", "new", "new", "paper"];
        TableBuilder::new("t", "a design at a size")
            .key("design", design)
            .key_u64("bytes", Unit::Bytes, [1024, 2048, 1024, 2048, 4096])
            .f64(
                "a",
                Unit::Percent,
                Mean::Average,
                [1.0, 2.0, 3.0, 4.0, 9.0].map(Some),
            )
            .f64(
                "b",
                Unit::Percent,
                Mean::Average,
                [5.0, 6.0, 7.0, 8.0].map(Some).into_iter().chain([None]),
            )
            .f64(
                "paper_a",
                Unit::Percent,
                Mean::Same,
                [None, None, Some(11.0), Some(12.0), None],
            )
            .text(
                "reference",
                Mean::Reference,
                design.map(|d| (d == "paper").then(|| d.to_string())),
            )
            .build()
            .unwrap()
    }

    /// A bar per y column, the paper's per series and from a reference
    /// row, a category left out, and curves with their own rows.
    #[test]
    fn every_kind_of_panel_draws_what_its_spec_names() -> Result<()> {
        let bars =
            gfxcache_report::Panel::bars("t", Axis::of("design").except(&["paper"]), "", "a")
                .one("ours")
                .measures(&[("a", "part a"), ("b", "part b")])
                .paper(Paper::Row {
                    name: "paper a".into(),
                    rows: vec![("reference".into(), "paper".into())],
                    column: "a".into(),
                });
        let each = gfxcache_report::Panel::bars("t", Axis::of("bytes"), "design", "a")
            .rows("reference", "")
            .paper(Paper::Each {
                format: "paper {}".into(),
                column: "paper_a".into(),
            });
        let curves = gfxcache_report::Panel::curves(
            "t",
            "bytes",
            vec![
                Line::new("all a", "a", 0, gfxcache_report::Stroke::Dashed),
                Line::new("new b", "b", 1, gfxcache_report::Stroke::Solid).rows("design", "new"),
            ],
        );
        let fig = Figure::new("f.svg", "F", "", vec![bars, each, curves]);
        let dir = tempfile::tempdir()?;
        write_figures(dir.path(), &[table()], std::slice::from_ref(&fig))?;
        let text = svg(dir.path(), "f.svg")?;
        for label in [
            "part a",
            "part b",
            "paper a",
            "9.000",
            "base",
            "paper new",
            "12.000",
            "all a",
            "new b",
            "4KiB",
        ] {
            assert!(has(&text, label), "{label} missing");
        }
        assert!(!has(&text, "paper base"), "base has no paper value");
        let panels = panels(&fig, &[table()])?;
        assert!(matches!(panels[2], AnyPanel::Curves(_)));
        Ok(())
    }
    /// A design listed in the panel's colours is drawn in its place's
    /// colour, the first listed absent; bars around 1 rise and fall from
    /// it.
    #[test]
    fn listed_designs_keep_their_colours_and_bars_go_around_a_base() -> Result<()> {
        let bars = gfxcache_report::Panel::bars("t", Axis::of("bytes"), "design", "a")
            .rows("reference", "")
            .colours(&["absent", "new", "base"])
            .around(2.5);
        let fig = Figure::new("c.svg", "C", "", vec![bars]);
        let dir = tempfile::tempdir()?;
        write_figures(dir.path(), &[table()], std::slice::from_ref(&fig))?;
        let text = svg(dir.path(), "c.svg")?.to_uppercase();
        let hex = |c: RGBColor| format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2);
        use super::super::bars::OURS;
        assert!(text.contains(&hex(OURS[1])) && text.contains(&hex(OURS[2])));
        assert!(
            !text.contains(&hex(OURS[0])),
            "the absent design's colour drawn"
        );
        // base's 1.0 falls from the line at 2.5; the axis starts above 0.
        assert!(has(&text, "1.000") && has(&text, "4.000"));
        assert!(!has(&text, "0.0"), "the axis runs from 0");
        Ok(())
    }

    /// The paper's averages by size, a table of their own.
    fn paper_table() -> Table {
        TableBuilder::new("p", "the paper's decreases by size")
            .key_u64("bytes", Unit::Bytes, [1024, 2048])
            .f64("cut", Unit::Percent, Mean::Same, [Some(25.0), Some(50.0)])
            .build()
            .unwrap()
    }

    /// Bars noted with a count and over the baseline's row, the paper's
    /// decrease from another table beside the last column (and as a
    /// group), a bound, and curves panels on one y axis.
    #[test]
    fn notes_baselines_lookups_bounds_and_one_y_axis() -> Result<()> {
        let tables = [table(), paper_table()];
        let lookup = Lookup::new("p").on("bytes").column("new", "cut").decrease();
        let over = gfxcache_report::Panel::bars("t", Axis::of("design"), "", "a")
            .rows("reference", "")
            .one("ours")
            .measures(&[("b", "part b"), ("a", "total")])
            .over("a", "design", "base")
            .paper(Paper::Lookup {
                name: "paper total".into(),
                lookup: lookup.clone(),
            })
            .subtitle("at {}");
        let noted = gfxcache_report::Panel::bars("t", Axis::of("design"), "", "a")
            .rows("reference", "")
            .one("ours")
            .note("b")
            .subtitle("noted at {}");
        let group = gfxcache_report::Panel::bars("t", Axis::of("bytes"), "design", "a")
            .rows("reference", "")
            .paper(Paper::GroupLookup {
                name: "theirs".into(),
                lookup,
            })
            .subtitle("grouped at {}");
        let fig = Figure::new("f.svg", "F", "", vec![over, noted, group]).facet("bytes");
        let dir = tempfile::tempdir()?;
        write_figures(dir.path(), &tables, std::slice::from_ref(&fig))?;
        let text = svg(dir.path(), "f.svg")?;
        // new over base at 1 KiB: a 3/1, b 7/1; the paper's 25 % cut as
        // 0.750, and 0.500 at 2 KiB; b's 5 noted after a's 1.000.
        for label in ["3.000", "7.000", "0.750", "0.500", "1.000 (5)", "theirs"] {
            assert!(text.contains(label), "{label} missing");
        }
        assert!(has(&text, "paper total") && has(&text, "at 2048"));
        let low = gfxcache_report::Panel::curves(
            "t",
            "bytes",
            vec![
                Line::new("new a", "a", 0, Stroke::Solid).rows("design", "new"),
                Line::bound("bound", "b").rows("design", "base"),
            ],
        );
        let high = gfxcache_report::Panel::curves(
            "t",
            "bytes",
            vec![Line::new("new b", "b", 1, Stroke::Solid).rows("design", "new")],
        );
        // The low panel drawn on the high one's axis reads otherwise.
        let apart = Figure::new("c.svg", "C", "", vec![low, high]);
        let shared = apart.clone().same_y();
        let low_of = |fig: &Figure| -> Result<String> {
            let mut p = panels(fig, &tables)?;
            assert!(p.iter_mut().all(Plot::prune));
            figure::render("C", &p[..1])
        };
        assert_ne!(low_of(&apart)?, low_of(&shared)?);
        let only_bound =
            gfxcache_report::Panel::curves("t", "bytes", vec![Line::bound("bound", "b")]);
        let fig = Figure::new("b.svg", "B", "", vec![only_bound]);
        assert!(
            write_figures(dir.path(), &tables, &[fig])?.is_empty(),
            "a bound alone"
        );
        Ok(())
    }
}

#[cfg(test)]
mod ordered_tests {
    use gfxcache_report::{Axis, Marks, Mean, TableBuilder, Unit};

    use super::*;
    use crate::report::data::write_figures;
    use crate::report::figure::svg_text::{has, svg};

    /// Listed categories and series in their order, scaled values, the
    /// paper's bar beside each of ours, and bounds as marks from a table.
    #[test]
    fn listed_orders_scaling_papers_beside_and_marks_draw_as_asked() -> Result<()> {
        let runs = TableBuilder::new("runs", "a policy at a size")
            .key("policy", ["b", "a", "b", "a"])
            .key("size", ["s1", "s1", "s2", "s2"])
            .f64(
                "share",
                Unit::Fraction,
                Mean::Average,
                [0.25, 0.5, 0.125, 0.75].map(Some),
            )
            .f64(
                "paper",
                Unit::Percent,
                Mean::Same,
                [Some(30.0), None, Some(20.0), None],
            )
            .build()
            .unwrap();
        let bounds = TableBuilder::new("bounds", "a bound")
            .key("size", ["s2", "s9"])
            .f64("at", Unit::Percent, Mean::Same, [Some(40.0), Some(1.0)])
            .text(
                "label",
                Mean::Same,
                ["at most 40", "elsewhere"].map(|l| Some(l.into())),
            )
            .build()
            .unwrap();
        let p = gfxcache_report::Panel::bars(
            "runs",
            Axis::of("size").only(&["s2", "s0", "s1"]),
            "policy",
            "share",
        )
        .order(&["a", "b", "c"])
        .times(100.0)
        .y_label("%", Scale::Percent)
        .paper(Paper::Beside {
            format: "{} paper".into(),
            column: "paper".into(),
        })
        .marks(Marks {
            name: "bounds".into(),
            table: "bounds".into(),
            x: "size".into(),
            value: "at".into(),
            label: "label".into(),
        });
        let fig = Figure::new("f.svg", "F", "", vec![p]);
        let dir = tempfile::tempdir()?;
        let tables = [runs, bounds];
        write_figures(dir.path(), &tables, std::slice::from_ref(&fig))?;
        let text = svg(dir.path(), "f.svg")?;
        for label in ["75.0", "12.5", "b paper", "30.0", "at most 40", "bounds"] {
            assert!(has(&text, label), "{label} missing");
        }
        assert!(!has(&text, "a paper"), "a has no paper value");
        assert!(!has(&text, "s0") && !has(&text, "elsewhere"));
        // s2 before s1, a before b, b's paper right after b.
        let at = |t: &str| text.find(&format!("\n{t}\n")).unwrap();
        assert!(at("s2") < at("s1"));
        Ok(())
    }
}
