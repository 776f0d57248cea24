//! The lines of a curves or series panel: how each is drawn
//! ([`Stroke`]), what it reads ([`Line`], scaled or a ratio of its row's
//! columns, or flat at another table's value, [`Level`]), and the phases
//! a series panel marks along its x axis ([`Phases`]).

use serde::{Deserialize, Serialize};

use super::one;

/// How a line of a curves or series panel is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stroke {
    /// Solid, each point a dot (a series panel's points, too many to
    /// mark, are not).
    Solid,
    /// Dashed, each point a triangle (not a series panel's).
    Dashed,
    /// A bound: dashed and black, no markers (the colour is not used); a
    /// panel of bounds alone shows nothing measured and is not drawn.
    Bound,
}

/// A line of a curves or series panel: the values of `column` over the x
/// column on the panel's rows where each of `rows` also holds (an empty
/// cell makes no point), named `name` in the legend, in palette colour
/// `colour`.
/// How a line looks is the figure's, not the data's: two lines of one
/// colour and another stroke read as two views of one thing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Line {
    pub name: String,
    pub column: String,
    pub rows: Vec<(String, String)>,
    pub colour: usize,
    pub stroke: Stroke,
    /// The column holds changes in percent, drawn as the ratios they make
    /// (`1 + v / 100`): a suite's mean of changes against one size reads
    /// as a curve over that size's.
    #[serde(default)]
    pub change: bool,
    /// Drawn flat at this value, over every size of its rows, rather
    /// than at its column's (an organization's one figure across the
    /// sizes it compares with).
    #[serde(default)]
    pub level: Option<Level>,
    /// Each value multiplied by this before it is drawn (`8 CONS`: CONS
    /// times 8; a share as a percentage, with [`Line::per`]).
    #[serde(default = "one")]
    pub times: f64,
    /// The value (times [`Line::times`]) over the sum of these columns on
    /// its own row: a share of the row's total (render-target fills at an
    /// RRPV over all of them), a rate (read misses per access); no point
    /// where the sum is 0 or a cell is empty.
    #[serde(default)]
    pub per: Vec<String>,
}

/// A value of another table for a flat line: `column` on the first row of
/// `table` where each of `rows` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Level {
    pub table: String,
    pub rows: Vec<(String, String)>,
    pub column: String,
}

impl Line {
    pub fn new(name: &str, column: &str, colour: usize, stroke: Stroke) -> Line {
        Line {
            name: name.into(),
            column: column.into(),
            rows: Vec::new(),
            colour,
            stroke,
            change: false,
            level: None,
            times: 1.0,
            per: Vec::new(),
        }
    }

    /// Each value times `by` ([`Line::times`]).
    pub fn times(mut self, by: f64) -> Line {
        self.times = by;
        self
    }

    /// The value over the sum of `columns` on its row ([`Line::per`]).
    pub fn per(mut self, columns: &[&str]) -> Line {
        self.per = columns.iter().map(|c| c.to_string()).collect();
        self
    }

    /// Changes in percent drawn as ratios ([`Line::change`]).
    pub fn change(mut self) -> Line {
        self.change = true;
        self
    }

    /// Flat at `column` of the first row of `table` where each of `rows`
    /// holds ([`Line::level`]).
    pub fn level(mut self, table: &str, rows: &[(&str, &str)], column: &str) -> Line {
        self.level = Some(Level {
            table: table.into(),
            rows: rows
                .iter()
                .map(|(c, v)| (c.to_string(), v.to_string()))
                .collect(),
            column: column.into(),
        });
        self
    }

    /// A bound of `column` ([`Stroke::Bound`]).
    pub fn bound(name: &str, column: &str) -> Line {
        Line::new(name, column, 0, Stroke::Bound)
    }

    /// Only the rows whose column reads as the value.
    pub fn rows(mut self, column: &str, value: &str) -> Line {
        self.rows.push((column.into(), value.into()));
        self
    }
}

/// The phases of the rows a series panel draws (the passes of a frame),
/// marked across it: a light numbered mark where each phase starts, and
/// a strong one where a bigger phase (a frame) ends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Phases {
    /// The table with a row per phase, in the order they come.
    pub table: String,
    /// Only the rows of `table` where each column reads as its value (one
    /// run's passes); they are numbered from 1 in their order, as a
    /// page's table of them lists them.
    pub rows: Vec<(String, String)>,
    /// The column of where a phase starts, on the panel's x column's
    /// scale (divided as the axis is).
    pub at: String,
    /// A strong mark at the start of each row whose cell of this column
    /// reads otherwise than the row before's (a frame's first pass: the
    /// frame before has ended).
    pub ends: Option<String>,
}

impl Phases {
    /// A phase per row of `table`, starting at its `at` column's value.
    pub fn new(table: &str, at: &str) -> Phases {
        Phases {
            table: table.into(),
            rows: Vec::new(),
            at: at.into(),
            ends: None,
        }
    }

    /// Only the rows whose column reads as the value.
    pub fn rows(mut self, column: &str, value: &str) -> Phases {
        self.rows.push((column.into(), value.into()));
        self
    }

    /// A bigger phase ends where `column` changes ([`Phases::ends`]).
    pub fn ends(mut self, column: &str) -> Phases {
        self.ends = Some(column.into());
        self
    }
}
