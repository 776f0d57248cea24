//! A figure as data: which table, which rows and columns, how they are
//! drawn. The writer (`crates/cli/src/report/`) turns each [`Panel`]
//! into a chart; a study states its figures and writes no drawing code.
//!
//! A panel selects rows of one table ([`Panel::rows`]; a figure may
//! repeat its panels per value of a facet column, [`Figure::facet`]),
//! puts the values of its x column on the category axis ([`Axis`]), one
//! bar per value of its series column ([`Series`]), and reads its y
//! column (or, stacked, one segment per column of [`Panel::y`]; with more
//! than one y column and no stack, a bar per column). A curves panel
//! ([`Kind::Curves`]) instead draws [`Panel::lines`] over sizes in bytes;
//! a series panel ([`Kind::Series`]) draws them over a linear x axis, a
//! point per row (values along a trace), with the rows of another table
//! marked where each phase starts ([`Phases`]). A line's value may be its
//! column's times a constant, or a ratio of it over other columns of its
//! row ([`Line::times`], [`Line::per`]), so that a rate or a share is
//! stated rather than computed by the study.

mod line;

pub use line::{Level, Line, Phases, Stroke};

use serde::{Deserialize, Serialize};

/// A figure: an SVG file of panels under a title, and what it shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figure {
    /// Its file in the report (`miss_rate.svg`).
    pub file: String,
    pub title: String,
    /// What is plotted, in words that hold whatever the data.
    pub caption: String,
    /// What this report's numbers say, computed from them; after the
    /// caption.
    pub reading: Option<String>,
    /// The panels are drawn once per value of this column (in the order
    /// first met in the first panel's table), each facet's in turn, each
    /// panel's rows those of the facet's value.
    pub facet: Option<String>,
    /// The panels, top to bottom (each facet's in turn).
    pub panels: Vec<Panel>,
    /// Every curves panel on one y axis, the highest's, so that lines in
    /// different panels compare by height.
    #[serde(default)]
    pub same_y: bool,
}

impl Figure {
    /// A figure of `panels`, without facets or a reading.
    pub fn new(file: &str, title: &str, caption: &str, panels: Vec<Panel>) -> Figure {
        Figure {
            file: file.into(),
            title: title.into(),
            caption: caption.into(),
            reading: None,
            facet: None,
            panels,
            same_y: false,
        }
    }

    /// Its curves panels on one y axis ([`Figure::same_y`]).
    pub fn same_y(mut self) -> Figure {
        self.same_y = true;
        self
    }

    /// The panels once per value of `column`.
    pub fn facet(mut self, column: &str) -> Figure {
        self.facet = Some(column.into());
        self
    }

    pub fn reading(mut self, reading: String) -> Figure {
        self.reading = Some(reading);
        self
    }

    /// The caption and then the reading, as the page shows them.
    pub fn words(&self) -> String {
        match &self.reading {
            Some(r) if !r.is_empty() => format!("{} {r}", self.caption),
            _ => self.caption.clone(),
        }
    }
}

/// How a panel draws its values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A group of bars per category, a bar per series, labelled.
    Bars,
    /// A group per category, a bar per series, each bar a stack of one
    /// segment per y column.
    Stacked,
    /// Lines over sizes in bytes (the x column's values, on a log2 axis),
    /// one per [`Line`] of [`Panel::lines`].
    Curves,
    /// Lines over a linear x axis (the x column's values over
    /// [`Axis::divide`], named [`Axis::label`]), a point per row, one line
    /// per [`Line`] of [`Panel::lines`]; the phases of [`Panel::phases`]
    /// marked across.
    Series,
}

/// How a panel's values read on their labels: ratios (3 decimals) or
/// percentages (1 decimal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scale {
    Ratio,
    Percent,
}

/// The category axis: a column's values, in the order first met or in
/// numeric order, each written through `format` (`{}` is the value), and
/// marked with `marked` where the row's `mark` column is true; `except`
/// values left out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Axis {
    pub column: String,
    pub format: String,
    pub numeric_order: bool,
    pub mark: Option<String>,
    pub marked: String,
    #[serde(default)]
    pub except: Vec<String>,
    /// A category per value listed, in this order, rather than the values
    /// met (a value without a row has nothing to show and is dropped).
    #[serde(default)]
    pub only: Vec<String>,
    /// The axis's name under it (a series panel's: `LLC accesses
    /// (millions)`); a category axis's values name themselves.
    #[serde(default)]
    pub label: String,
    /// A series panel's x values are divided by this before they are
    /// drawn (accesses as millions), its phases' marks alike.
    #[serde(default = "one")]
    pub divide: f64,
}

impl Axis {
    /// The values of `column` as they are, in the order first met.
    pub fn of(column: &str) -> Axis {
        Axis {
            column: column.into(),
            format: "{}".into(),
            numeric_order: false,
            mark: None,
            marked: String::new(),
            except: Vec::new(),
            only: Vec::new(),
            label: String::new(),
            divide: 1.0,
        }
    }

    /// Named `label` under the axis ([`Axis::label`]).
    pub fn label(mut self, label: &str) -> Axis {
        self.label = label.into();
        self
    }

    /// The values divided by `by` before they are drawn ([`Axis::divide`]).
    pub fn divide(mut self, by: f64) -> Axis {
        self.divide = by;
        self
    }

    /// Each value written through `format` (`{}` is the value).
    pub fn format(mut self, format: &str) -> Axis {
        self.format = format.into();
        self
    }

    /// In numeric order, not the order first met.
    pub fn numeric(mut self) -> Axis {
        self.numeric_order = true;
        self
    }

    /// A value whose row's `column` is true written through `format`
    /// instead (`{}` is the value as the axis's format writes it).
    pub fn mark(mut self, column: &str, format: &str) -> Axis {
        self.mark = Some(column.into());
        self.marked = format.into();
        self
    }

    /// A category per value of `values`, in their order (a paper's list
    /// of policies, whatever order the study ran them in).
    pub fn only(mut self, values: &[&str]) -> Axis {
        self.only = values.iter().map(|v| v.to_string()).collect();
        self
    }

    /// The values `values` left out (no category, whatever the rows).
    pub fn except(mut self, values: &[&str]) -> Axis {
        self.except.extend(values.iter().map(|v| v.to_string()));
        self
    }
}

/// The bars of a group: one per value of `column` (in the order first
/// met, or `only`'s order), or a single unnamed series.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Series {
    /// One bar per value of the column; `except` values left out; in
    /// `order`'s order if it is not empty (only the values it lists).
    By {
        column: String,
        except: Vec<String>,
        #[serde(default)]
        order: Vec<String>,
    },
    /// One bar, named.
    One { name: String },
}

/// A y column and its name in the legend (a stack's segment).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measure {
    pub column: String,
    pub name: String,
}

/// The paper's values in a panel, from a column of the same rows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Paper {
    /// A light bar per category, named `name`: the column's value on the
    /// row of series value `of`.
    Series {
        name: String,
        column: String,
        of: String,
    },
    /// A last group named `name`: for each series, its first non-empty
    /// value of the column.
    Group { name: String, column: String },
    /// A light bar per series of ours and category, named `format` (`{}`
    /// is the series' value): the column's value on that series' row.
    /// They follow all of ours, in their order; one with no value is left
    /// out.
    Each { format: String, column: String },
    /// A light bar named `name` in every category: the column's value on
    /// the table's first row where each of `rows` holds (a row the
    /// panel's own rows leave out, such as a reference row of the
    /// paper's).
    Row {
        name: String,
        rows: Vec<(String, String)>,
        column: String,
    },
    /// A light bar named `name` per category that [`Lookup::columns`]
    /// names, read from another table; only beside a bar of ours of the
    /// panel's last y column (the one the paper's numbers compare with).
    Lookup { name: String, lookup: Lookup },
    /// A last group named `name`: each series' value that
    /// [`Lookup::columns`] names (by the series column's value), read
    /// from another table.
    GroupLookup { name: String, lookup: Lookup },
    /// A light bar right after each series of ours, named `format` (`{}`
    /// is the series' name as drawn): the column's value on that series'
    /// row, so that each of ours has the paper's beside it in the legend.
    Beside { format: String, column: String },
}

/// The paper's values kept in another table than the panel's (the
/// paper's averages by size beside ours by design and size): on the
/// first row of `table` where column `on`, if any, reads as it does on
/// the panel's rows (a facet's value) and each of `rows` holds, the
/// column `columns` names for a category or series.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lookup {
    pub table: String,
    pub on: Option<String>,
    pub rows: Vec<(String, String)>,
    /// (category or series value, column); one not named has no value.
    pub columns: Vec<(String, String)>,
    /// The value is a decrease in percent, drawn as what is left of the
    /// baseline's (`1 - v / 100`), so that it stands beside ours over the
    /// baseline.
    pub decrease: bool,
}

impl Lookup {
    /// The first row of `table`.
    pub fn new(table: &str) -> Lookup {
        Lookup {
            table: table.into(),
            on: None,
            rows: Vec::new(),
            columns: Vec::new(),
            decrease: false,
        }
    }

    /// The row whose `column` reads as it does on the panel's rows.
    pub fn on(mut self, column: &str) -> Lookup {
        self.on = Some(column.into());
        self
    }

    /// Only the rows whose column reads as the value.
    pub fn rows(mut self, column: &str, value: &str) -> Lookup {
        self.rows.push((column.into(), value.into()));
        self
    }

    /// The category or series `of` reads `column`.
    pub fn column(mut self, of: &str, column: &str) -> Lookup {
        self.columns.push((of.into(), column.into()));
        self
    }

    /// The values are decreases in percent ([`Lookup::decrease`]).
    pub fn decrease(mut self) -> Lookup {
        self.decrease = true;
        self
    }
}

/// Each value of a panel divided by the value of `column` on the first
/// of the panel's rows where each of `rows` holds (the baseline's, in the
/// same facet), so that bars of different columns share one baseline; no
/// value where that one is missing or not above 0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Over {
    pub column: String,
    pub rows: Vec<(String, String)>,
}

/// Values a paper gives only as bounds, drawn as dashed lines across the
/// group of their category: from `table`, the category is column `x`
/// written through the panel's axis format, the bound column `value`,
/// its label column `label`; `name` in the legend.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Marks {
    pub name: String,
    pub table: String,
    pub x: String,
    pub value: String,
    pub label: String,
}

fn one() -> f64 {
    1.0
}

/// One chart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Panel {
    pub kind: Kind,
    /// The table its rows come from.
    pub table: String,
    /// Only the rows whose column reads as the value.
    pub rows: Vec<(String, String)>,
    /// Above the chart; `{}` is the figure's facet's value.
    pub subtitle: String,
    pub x: Axis,
    pub series: Series,
    /// Each series' name as drawn: `{}` is the series column's value
    /// (`nbtc at {} cycles`).
    pub series_format: String,
    /// The value of a bar (one column), or a stack's segments.
    pub y: Vec<Measure>,
    pub y_label: String,
    pub scale: Scale,
    /// Each value divided by this before it is drawn (bytes as MiB).
    pub divide: f64,
    /// Each of our values multiplied by this before it is drawn (a
    /// fraction as a percentage); the paper's columns are as drawn.
    #[serde(default = "one")]
    pub times: f64,
    /// The paper's values, each in turn after ours.
    #[serde(default)]
    pub paper: Vec<Paper>,
    /// The paper's bounds, as dashed marks.
    #[serde(default)]
    pub marks: Option<Marks>,
    /// A horizontal line at this value.
    pub reference: Option<f64>,
    /// The bars rise or fall from this value (a ratio's 1) rather than
    /// from 0, and the y axis spans only the values and it: a difference
    /// of a few percent shows ([`Panel::around`]).
    #[serde(default)]
    pub baseline: Option<f64>,
    /// The study's designs or policies in the order of the palette: a
    /// series whose value (or [`Series::One`]'s name) is listed takes the
    /// colour of its place, so that one design has one colour in every
    /// figure of the study; one not listed takes a colour none listed in
    /// the panel has.
    #[serde(default)]
    pub colours: Vec<String>,
    /// A curves or series panel's lines, in the legend's order.
    #[serde(default)]
    pub lines: Vec<Line>,
    /// A bars panel of one y column: each bar also shows this column's
    /// value, compactly (`10.0k`), in parentheses after its own (the count
    /// behind a ratio).
    #[serde(default)]
    pub note: Option<String>,
    /// Each value over the baseline's ([`Over`]).
    #[serde(default)]
    pub over: Option<Over>,
    /// A series panel's phases, marked across it ([`Phases`]).
    #[serde(default)]
    pub phases: Option<Phases>,
}

impl Panel {
    /// Bars of `y` from `table`, a category per value of `x`, a bar per
    /// value of the `series` column.
    pub fn bars(table: &str, x: Axis, series: &str, y: &str) -> Panel {
        Panel {
            kind: Kind::Bars,
            table: table.into(),
            rows: Vec::new(),
            subtitle: String::new(),
            x,
            series: Series::By {
                column: series.into(),
                except: Vec::new(),
                order: Vec::new(),
            },
            series_format: "{}".into(),
            y: vec![Measure {
                column: y.into(),
                name: y.into(),
            }],
            y_label: y.into(),
            scale: Scale::Ratio,
            divide: 1.0,
            times: 1.0,
            paper: Vec::new(),
            marks: None,
            reference: None,
            baseline: None,
            colours: Vec::new(),
            lines: Vec::new(),
            note: None,
            over: None,
            phases: None,
        }
    }

    /// A bar per category of each group stacked from the `segments`
    /// columns (column, name).
    pub fn stacked(table: &str, x: Axis, series: &str, segments: &[(&str, &str)]) -> Panel {
        let mut p = Panel::bars(table, x, series, "");
        p.kind = Kind::Stacked;
        p.y = segments
            .iter()
            .map(|(c, n)| Measure {
                column: c.to_string(),
                name: n.to_string(),
            })
            .collect();
        p
    }

    /// Lines over the sizes in bytes of `x` (its column; the axis's
    /// format and order are the sizes'), from `table`.
    pub fn curves(table: &str, x: &str, lines: Vec<Line>) -> Panel {
        let mut p = Panel::bars(table, Axis::of(x), "", "").one("");
        p.kind = Kind::Curves;
        p.y = Vec::new();
        p.lines = lines;
        p
    }

    /// Lines over the linear axis `x` (its column, [`Axis::label`] and
    /// [`Axis::divide`]), a point per row of `table`.
    pub fn series(table: &str, x: Axis, lines: Vec<Line>) -> Panel {
        let mut p = Panel::bars(table, x, "", "").one("");
        p.kind = Kind::Series;
        p.y = Vec::new();
        p.lines = lines;
        p
    }

    pub fn rows(mut self, column: &str, value: &str) -> Panel {
        self.rows.push((column.into(), value.into()));
        self
    }

    pub fn subtitle(mut self, subtitle: &str) -> Panel {
        self.subtitle = subtitle.into();
        self
    }

    /// The series' values `except` left out.
    pub fn except(mut self, values: &[&str]) -> Panel {
        if let Series::By { except, .. } = &mut self.series {
            except.extend(values.iter().map(|v| v.to_string()));
        }
        self
    }

    /// The series in the order of `values` (and only those).
    pub fn order(mut self, values: &[&str]) -> Panel {
        if let Series::By { order, .. } = &mut self.series {
            *order = values.iter().map(|v| v.to_string()).collect();
        }
        self
    }

    /// Each series' name written through `format` (`{}` is the value).
    pub fn series_format(mut self, format: &str) -> Panel {
        self.series_format = format.into();
        self
    }

    /// A bar per column of `measures` (column, name), each a series named
    /// by it, instead of the one y column: one quantity's parts side by
    /// side (with [`Panel::one`], or each series' name before its own).
    pub fn measures(mut self, measures: &[(&str, &str)]) -> Panel {
        self.y = measures
            .iter()
            .map(|(c, n)| Measure {
                column: c.to_string(),
                name: n.to_string(),
            })
            .collect();
        self
    }

    /// A single series named `name`.
    pub fn one(mut self, name: &str) -> Panel {
        self.series = Series::One { name: name.into() };
        self
    }

    pub fn y_label(mut self, label: &str, scale: Scale) -> Panel {
        self.y_label = label.into();
        self.scale = scale;
        self
    }

    pub fn divide(mut self, by: f64) -> Panel {
        self.divide = by;
        self
    }

    /// The paper's values (after those given before).
    pub fn paper(mut self, paper: Paper) -> Panel {
        self.paper.push(paper);
        self
    }

    pub fn times(mut self, by: f64) -> Panel {
        self.times = by;
        self
    }

    pub fn marks(mut self, marks: Marks) -> Panel {
        self.marks = Some(marks);
        self
    }

    pub fn reference(mut self, at: f64) -> Panel {
        self.reference = Some(at);
        self
    }

    /// Bars from a line at `at` (a ratio's 1), up or down, on a y axis
    /// fit to the values ([`Panel::baseline`]).
    pub fn around(mut self, at: f64) -> Panel {
        self.reference = Some(at);
        self.baseline = Some(at);
        self
    }

    /// Each series' colour by its place in `names` ([`Panel::colours`]).
    pub fn colours(mut self, names: &[&str]) -> Panel {
        self.colours = names.iter().map(|n| n.to_string()).collect();
        self
    }

    /// Each bar noted with `column`'s value ([`Panel::note`]).
    pub fn note(mut self, column: &str) -> Panel {
        self.note = Some(column.into());
        self
    }

    /// The phases of [`Phases`] marked across a series panel.
    pub fn phases(mut self, phases: Phases) -> Panel {
        self.phases = Some(phases);
        self
    }

    /// Each value over `column`'s on the panel's row where `column_is`
    /// reads as `value` ([`Over`]).
    pub fn over(mut self, column: &str, column_is: &str, value: &str) -> Panel {
        self.over = Some(Over {
            column: column.into(),
            rows: vec![(column_is.into(), value.into())],
        });
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A specification written before series panels, ratios and scaled
    /// lines (without their fields) reads as one that uses none of them.
    #[test]
    fn a_specification_without_the_series_fields_still_reads() {
        let panel = Panel::curves(
            "t",
            "bytes",
            vec![Line::new("a", "a", 0, Stroke::Solid).rows("design", "new")],
        );
        let mut json = serde_json::to_value(&panel).unwrap();
        let old = json.as_object_mut().unwrap();
        old.remove("phases");
        for field in ["label", "divide"] {
            old["x"].as_object_mut().unwrap().remove(field);
        }
        for field in ["times", "per"] {
            old["lines"][0].as_object_mut().unwrap().remove(field);
        }
        let read: Panel = serde_json::from_value(json).unwrap();
        assert_eq!(read, panel);
    }
}
