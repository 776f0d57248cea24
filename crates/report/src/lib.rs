//! A study's report as data: named tidy tables ([`Table`], an Arrow
//! record batch whose columns carry their [`Unit`] and [`Mean`] rule) and
//! figure specifications ([`Figure`]) that say which table, rows and
//! columns each chart draws. A design crate implements [`Report`] for its
//! study's report; the command line's one writer turns any report into
//! CSV and Parquet files, SVG figures and the page, and any suite of
//! reports into the suite's tables ([`suite::suite_table`]) without code
//! of the study's own.
//!
//! This crate only describes: it draws nothing, writes no file and knows
//! no terminal.

pub mod figure;
pub mod page;
pub mod suite;
pub mod table;

pub use figure::{Axis, Figure, Kind, Marks, Measure, Panel, Paper, Scale, Series};
pub use figure::{Level, Line, Lookup, Over, Phases, Stroke};
pub use page::{Column, Format, Page, Picture, Section, View};
pub use table::{Mean, Table, TableBuilder, TableError, Unit};

/// A study's report as tables and figures.
pub trait Report {
    /// The tables, in the order a reader meets them; each is written as
    /// `<name>.csv` and `<name>.parquet`.
    fn tables(&self) -> Result<Vec<Table>, TableError>;
    /// The figures over those tables, in the order the page shows them.
    fn figures(&self) -> Vec<Figure>;
    /// The page: by default a section per table, all its columns as they
    /// are, each figure after the table its first panel draws.
    fn page(&self) -> Result<Page, TableError> {
        Ok(Page::plain("Report", &self.tables()?, &self.figures()))
    }
    /// The page of a suite of its `scenes` (name, report) (the writer
    /// adds a section linking each scene's own page): by default as
    /// [`Report::page`] over the suite's tables and figures.
    fn suite_page(scenes: &[(&str, &Self)]) -> Result<Page, TableError>
    where
        Self: Sized,
    {
        let each = scenes
            .iter()
            .map(|(name, r)| Ok((*name, Self::suite_tables_of(r.tables()?))))
            .collect::<Result<Vec<_>, TableError>>()?;
        let reports: Vec<&Self> = scenes.iter().map(|(_, r)| *r).collect();
        Ok(Page::plain(
            "Suite",
            &suite_tables(&each)?,
            &Self::suite_figures(&reports),
        ))
    }
    /// Which of a scene's `tables` a suite has (by default all): a table
    /// of one scene's trace alone (a timeline along it) has no mean and
    /// stays in the scene's own directory.
    fn suite_tables_of(tables: Vec<Table>) -> Vec<Table>
    where
        Self: Sized,
    {
        tables
    }
    /// The figures of a suite of `scenes`' reports, over the suite's
    /// tables ([`suite_tables`]: a `scene` column, the `mean` rows).
    fn suite_figures(scenes: &[&Self]) -> Vec<Figure>
    where
        Self: Sized,
    {
        let _ = scenes;
        Vec::new()
    }
}

/// The suite's form of each table of the scenes' `tables` (each scene's
/// in the same order), by name: [`suite::suite_table`].
pub fn suite_tables(scenes: &[(&str, Vec<Table>)]) -> Result<Vec<Table>, TableError> {
    let Some((_, first)) = scenes.first() else {
        return Ok(Vec::new());
    };
    first
        .iter()
        .map(|t| {
            let each: Vec<(&str, &Table)> = scenes
                .iter()
                .filter_map(|(s, ts)| Some((*s, ts.iter().find(|u| u.name() == t.name())?)))
                .collect();
            suite::suite_table(&each)
        })
        .collect()
}
