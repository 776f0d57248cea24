//! A named tidy table: one row per observation, typed columns (an Arrow
//! [`RecordBatch`]), each column with its [`Unit`] and the rule by which
//! a suite's mean row gets its value ([`Mean`]), both kept in the
//! column's field metadata so that they travel with the batch (into
//! Parquet, into pyarrow).
//!
//! Tables are built a column at a time from one iterator of rows each
//! ([`TableBuilder`]), so a study states each column once: its name, unit,
//! mean rule and how a row gives its value.

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::{
    Array, ArrayRef, BooleanArray, Float64Array, Int64Array, RecordBatch, RecordBatchOptions,
    StringArray, UInt64Array,
};
use arrow_schema::{DataType, Field, Schema};
use serde::{Deserialize, Serialize};

/// The metadata key of a column's [`Unit`].
pub const UNIT_KEY: &str = "gfxcache.unit";
/// The metadata key of a column's [`Mean`] rule.
pub const MEAN_KEY: &str = "gfxcache.mean";

/// What a column's values are counted in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// Names, labels and other values without a unit.
    None,
    /// Events or things counted (requests, hits, entries).
    Count,
    Cycles,
    Bytes,
    Bits,
    /// A percentage (0-100, or a change in percent).
    Percent,
    /// A share between 0 and 1.
    Fraction,
    /// One quantity over another (e.g. a normalised miss count).
    Ratio,
    Seconds,
    /// Energy, in nanojoules (a run's) or picojoules (an access's).
    Nanojoules,
    Picojoules,
    /// A time per frame or per access.
    Milliseconds,
    Nanoseconds,
    /// A rate: frames per second.
    PerSecond,
    /// A bandwidth, in 10^9 bytes per second.
    GigabytesPerSecond,
}

impl Unit {
    /// Its name in metadata and in documentation.
    pub fn name(self) -> &'static str {
        match self {
            Unit::None => "none",
            Unit::Count => "count",
            Unit::Cycles => "cycles",
            Unit::Bytes => "bytes",
            Unit::Bits => "bits",
            Unit::Percent => "percent",
            Unit::Fraction => "fraction",
            Unit::Ratio => "ratio",
            Unit::Seconds => "seconds",
            Unit::Nanojoules => "nanojoules",
            Unit::Picojoules => "picojoules",
            Unit::Milliseconds => "milliseconds",
            Unit::Nanoseconds => "nanoseconds",
            Unit::PerSecond => "per_second",
            Unit::GigabytesPerSecond => "gigabytes_per_second",
        }
    }

    fn from_name(s: &str) -> Option<Unit> {
        ALL_UNITS.into_iter().find(|u| u.name() == s)
    }
}

const ALL_UNITS: [Unit; 15] = [
    Unit::None,
    Unit::Count,
    Unit::Cycles,
    Unit::Bytes,
    Unit::Bits,
    Unit::Percent,
    Unit::Fraction,
    Unit::Ratio,
    Unit::Seconds,
    Unit::Nanojoules,
    Unit::Picojoules,
    Unit::Milliseconds,
    Unit::Nanoseconds,
    Unit::PerSecond,
    Unit::GigabytesPerSecond,
];

/// How a suite's mean row ([`crate::suite`]) gets a column's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mean {
    /// A key of the observation (a design, a latency): mean rows are one
    /// per distinct combination of the keys.
    Key,
    /// The arithmetic mean of the scenes' values (those not empty).
    Average,
    /// The same in every scene (a setting, the paper's number): the first
    /// scene's value.
    Same,
    /// Not averaged (an absolute count that differs by scene): empty.
    Blank,
    /// Text naming the reference a row gives rather than measures (the
    /// paper's numbers: `paper`), empty on the scene's own rows. A
    /// reference row is the same in every scene: a suite's table lists it
    /// once (the first scene's), after the mean rows, with the reference
    /// as its `scene`, and takes no mean of it. A table has at most one
    /// such column.
    Reference,
    /// The arithmetic mean of the scenes' values if every scene of the
    /// suite has one; else empty (a figure one scene lacks, a run it did
    /// not make or a ratio over a baseline of 0, has no mean, where
    /// [`Mean::Average`] would average the scenes that have it).
    AverageAll,
}

impl Mean {
    pub fn name(self) -> &'static str {
        match self {
            Mean::Key => "key",
            Mean::Average => "average",
            Mean::Same => "same",
            Mean::Blank => "blank",
            Mean::Reference => "reference",
            Mean::AverageAll => "average_all",
        }
    }

    fn from_name(s: &str) -> Option<Mean> {
        [
            Mean::Key,
            Mean::Average,
            Mean::Same,
            Mean::Blank,
            Mean::Reference,
            Mean::AverageAll,
        ]
        .into_iter()
        .find(|m| m.name() == s)
    }
}

/// A table that cannot be built as asked: a study's bug, reported with
/// the table and column it is about.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum TableError {
    #[error("table {table}: column {column} has {got} rows, the table {want}")]
    Rows {
        table: String,
        column: String,
        got: usize,
        want: usize,
    },
    #[error("table {table}: column {column} twice")]
    Duplicate { table: String, column: String },
    #[error("table {table}: {detail}")]
    Arrow { table: String, detail: String },
    #[error("table {table} of scene {scene} has other columns than the first scene's")]
    Columns { table: String, scene: String },
}

/// A named tidy table.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    name: String,
    about: String,
    batch: RecordBatch,
}

impl Table {
    /// Its name: its files' stem (`runs` for `runs.csv`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What a row is, in a sentence.
    pub fn about(&self) -> &str {
        &self.about
    }

    pub fn batch(&self) -> &RecordBatch {
        &self.batch
    }

    pub fn rows(&self) -> usize {
        self.batch.num_rows()
    }

    /// The columns' names, in order.
    pub fn columns(&self) -> Vec<&str> {
        self.batch
            .schema_ref()
            .fields()
            .iter()
            .map(|f| f.name().as_str())
            .collect()
    }

    /// The index of column `name`.
    pub fn index(&self, name: &str) -> Option<usize> {
        self.batch.schema_ref().index_of(name).ok()
    }

    /// The unit of column `i`.
    pub fn unit(&self, i: usize) -> Unit {
        self.meta(i, UNIT_KEY)
            .and_then(Unit::from_name)
            .unwrap_or(Unit::None)
    }

    /// The mean rule of column `i`.
    pub fn mean(&self, i: usize) -> Mean {
        self.meta(i, MEAN_KEY)
            .and_then(Mean::from_name)
            .unwrap_or(Mean::Blank)
    }

    fn meta(&self, i: usize, key: &str) -> Option<&str> {
        let field = self.batch.schema_ref().fields().get(i)?;
        field.metadata().get(key).map(String::as_str)
    }

    /// The text of the cell at `row` of column `col`, as CSV writes it:
    /// integers and floats in Rust's shortest round-tripping form (`1`,
    /// `0.1`, `93.8232421875`), text as it is, `true`/`false`, and the
    /// empty string for an empty cell.
    pub fn cell(&self, row: usize, col: usize) -> String {
        cell_text(self.batch.column(col).as_ref(), row)
    }

    /// The value at `row` of column `col` as a number, if it is one.
    pub fn number(&self, row: usize, col: usize) -> Option<f64> {
        number(self.batch.column(col).as_ref(), row)
    }

    /// The rows whose cell in each named column reads as the value given.
    pub fn rows_where(&self, conditions: &[(&str, &str)]) -> Vec<usize> {
        let cols: Vec<Option<usize>> = conditions.iter().map(|(c, _)| self.index(c)).collect();
        (0..self.rows())
            .filter(|&r| {
                conditions.iter().zip(&cols).all(|((_, v), c)| match c {
                    Some(c) => self.cell(r, *c) == *v,
                    None => false,
                })
            })
            .collect()
    }

    /// Every row's cells as text, the header first (what CSV writes).
    pub fn text_rows(&self) -> Vec<Vec<String>> {
        let head = self.columns().into_iter().map(String::from).collect();
        let width = self.batch.num_columns();
        std::iter::once(head)
            .chain((0..self.rows()).map(|r| (0..width).map(|c| self.cell(r, c)).collect()))
            .collect()
    }

    /// The table built from `fields` and `arrays` (each field's metadata
    /// set), checked.
    pub(crate) fn from_parts(
        name: &str,
        about: &str,
        fields: Vec<Field>,
        arrays: Vec<ArrayRef>,
    ) -> Result<Table, TableError> {
        let schema = Arc::new(Schema::new(fields));
        // A table of no column (a sweep of studies only has no job of the
        // main table's) has no row either; Arrow asks for the count then.
        let options = RecordBatchOptions::new().with_row_count(arrays.is_empty().then_some(0));
        let batch = RecordBatch::try_new_with_options(schema, arrays, &options).map_err(|e| {
            TableError::Arrow {
                table: name.to_string(),
                detail: e.to_string(),
            }
        })?;
        Ok(Table {
            name: name.to_string(),
            about: about.to_string(),
            batch,
        })
    }
}

fn cell_text(a: &dyn Array, row: usize) -> String {
    if a.is_null(row) {
        return String::new();
    }
    let any = a.as_any();
    match a.data_type() {
        DataType::UInt64 => downcast::<UInt64Array>(any).value(row).to_string(),
        DataType::Int64 => downcast::<Int64Array>(any).value(row).to_string(),
        DataType::Float64 => downcast::<Float64Array>(any).value(row).to_string(),
        DataType::Utf8 => downcast::<StringArray>(any).value(row).to_string(),
        DataType::Boolean => downcast::<BooleanArray>(any).value(row).to_string(),
        // Only the builder makes tables, and it makes no other type.
        other => format!("<{other}>"),
    }
}

fn number(a: &dyn Array, row: usize) -> Option<f64> {
    if a.is_null(row) {
        return None;
    }
    let any = a.as_any();
    match a.data_type() {
        DataType::UInt64 => Some(downcast::<UInt64Array>(any).value(row) as f64),
        DataType::Int64 => Some(downcast::<Int64Array>(any).value(row) as f64),
        DataType::Float64 => Some(downcast::<Float64Array>(any).value(row)),
        _ => None,
    }
}

/// `any` as the array its data type says it is.
pub(crate) fn downcast<T: 'static>(any: &dyn std::any::Any) -> &T {
    any.downcast_ref::<T>()
        .expect("an array's data type names its concrete type")
}

/// Builds a [`Table`] a column at a time, each from its own iterator over
/// the same rows.
pub struct TableBuilder {
    name: String,
    about: String,
    fields: Vec<Field>,
    arrays: Vec<ArrayRef>,
    error: Option<TableError>,
}

impl TableBuilder {
    /// A table named `name` (its files' stem) whose row is `about`.
    pub fn new(name: &str, about: &str) -> TableBuilder {
        TableBuilder {
            name: name.to_string(),
            about: about.to_string(),
            fields: Vec::new(),
            arrays: Vec::new(),
            error: None,
        }
    }

    /// A key column of text (a design, a filter mode, a scene).
    pub fn key(self, name: &str, values: impl IntoIterator<Item = impl Into<String>>) -> Self {
        let a = StringArray::from_iter_values(values.into_iter().map(Into::into));
        self.push(name, Unit::None, Mean::Key, Arc::new(a))
    }

    /// A key column of whole numbers (a latency, a size).
    pub fn key_u64(self, name: &str, unit: Unit, values: impl IntoIterator<Item = u64>) -> Self {
        let a = UInt64Array::from_iter_values(values);
        self.push(name, unit, Mean::Key, Arc::new(a))
    }

    pub fn u64(
        self,
        name: &str,
        unit: Unit,
        mean: Mean,
        values: impl IntoIterator<Item = Option<u64>>,
    ) -> Self {
        let a: UInt64Array = values.into_iter().collect();
        self.push(name, unit, mean, Arc::new(a))
    }

    pub fn i64(
        self,
        name: &str,
        unit: Unit,
        mean: Mean,
        values: impl IntoIterator<Item = Option<i64>>,
    ) -> Self {
        let a: Int64Array = values.into_iter().collect();
        self.push(name, unit, mean, Arc::new(a))
    }

    pub fn f64(
        self,
        name: &str,
        unit: Unit,
        mean: Mean,
        values: impl IntoIterator<Item = Option<f64>>,
    ) -> Self {
        let a: Float64Array = values.into_iter().collect();
        self.push(name, unit, mean, Arc::new(a))
    }

    /// A column of text that is not a key (a note, a source).
    pub fn text(
        self,
        name: &str,
        mean: Mean,
        values: impl IntoIterator<Item = Option<String>>,
    ) -> Self {
        let a: StringArray = values.into_iter().collect();
        self.push(name, Unit::None, mean, Arc::new(a))
    }

    pub fn bool(self, name: &str, mean: Mean, values: impl IntoIterator<Item = bool>) -> Self {
        let a: BooleanArray = values.into_iter().map(Some).collect();
        self.push(name, Unit::None, mean, Arc::new(a))
    }

    /// Adds a column built elsewhere (the suite's).
    pub(crate) fn push(mut self, name: &str, unit: Unit, mean: Mean, array: ArrayRef) -> Self {
        if self.error.is_some() {
            return self;
        }
        if self.fields.iter().any(|f| f.name() == name) {
            self.error = Some(TableError::Duplicate {
                table: self.name.clone(),
                column: name.to_string(),
            });
            return self;
        }
        if let Some(first) = self.arrays.first() {
            if first.len() != array.len() {
                self.error = Some(TableError::Rows {
                    table: self.name.clone(),
                    column: name.to_string(),
                    got: array.len(),
                    want: first.len(),
                });
                return self;
            }
        }
        let metadata = HashMap::from([
            (UNIT_KEY.to_string(), unit.name().to_string()),
            (MEAN_KEY.to_string(), mean.name().to_string()),
        ]);
        self.fields
            .push(Field::new(name, array.data_type().clone(), true).with_metadata(metadata));
        self.arrays.push(array);
        self
    }

    pub fn build(self) -> Result<Table, TableError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        Table::from_parts(&self.name, &self.about, self.fields, self.arrays)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Table {
        TableBuilder::new("runs", "a run")
            .key("mode", ["btc", "nbtc"])
            .key_u64("latency", Unit::Cycles, [50, 50])
            .f64(
                "change",
                Unit::Percent,
                Mean::Average,
                [Some(0.0), Some(-91.92758175441168)],
            )
            .f64("paper", Unit::Percent, Mean::Same, [None, Some(-12.47)])
            .u64("cycles", Unit::Cycles, Mean::Blank, [Some(109199), None])
            .bool("main", Mean::Same, [true, false])
            .build()
            .unwrap()
    }

    #[test]
    fn cells_read_as_rust_prints_them() {
        let t = table();
        assert_eq!(
            t.text_rows(),
            [
                ["mode", "latency", "change", "paper", "cycles", "main"],
                ["btc", "50", "0", "", "109199", "true"],
                ["nbtc", "50", "-91.92758175441168", "-12.47", "", "false"],
            ]
        );
        assert_eq!(t.unit(2), Unit::Percent);
        assert_eq!(t.mean(0), Mean::Key);
        assert_eq!(t.mean(4), Mean::Blank);
        assert_eq!(t.number(1, 3), Some(-12.47));
        assert_eq!(t.number(0, 3), None);
        assert_eq!(t.rows_where(&[("mode", "nbtc"), ("latency", "50")]), [1]);
        assert!(t.rows_where(&[("nope", "x")]).is_empty());
    }

    /// A unit's name in the metadata reads back as the unit (Parquet and
    /// pyarrow keep only the name).
    #[test]
    fn every_unit_reads_back_by_its_name() {
        for u in ALL_UNITS {
            assert_eq!(Unit::from_name(u.name()), Some(u));
        }
    }

    #[test]
    fn a_short_or_repeated_column_is_refused() {
        let short = TableBuilder::new("t", "")
            .key("a", ["x", "y"])
            .u64("b", Unit::Count, Mean::Average, [Some(1)])
            .build();
        assert!(matches!(
            short,
            Err(TableError::Rows {
                got: 1,
                want: 2,
                ..
            })
        ));
        let twice = TableBuilder::new("t", "")
            .key("a", ["x"])
            .key("a", ["y"])
            .build();
        assert!(matches!(twice, Err(TableError::Duplicate { .. })));
    }

    /// A sweep of studies only has a main table of no job: no column, no
    /// row, and still a table (its CSV and Parquet are written).
    #[test]
    fn a_table_of_no_column_has_no_row() {
        let t = TableBuilder::new("sweep", "").build().unwrap();
        assert!(t.columns().is_empty());
        assert_eq!(t.rows(), 0);
    }
}
