//! A table on a workload suite: every scene's rows under a `scene` column,
//! then the mean rows (`scene` is [`MEAN`]), one per distinct combination
//! of the [`Mean::Key`] columns in the order first met, each other column
//! by its own rule; a last column `scenes` says how many scenes a row
//! stands for (1 for a scene's own). A row that gives a reference rather
//! than a measurement of the scene (the paper's, named in a
//! [`Mean::Reference`] column) is the same in every scene: it comes once,
//! last, with the reference as its `scene`.
//!
//! This one group-by is every study's suite mean: a study says how a
//! column is averaged when it declares the column, not in code of its own
//! ([`Mean::Average`] over the scenes that have a value, [`Mean::AverageAll`]
//! only where every scene has one).

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::{Array, ArrayRef, Float64Array, StringArray, UInt64Array};
use arrow_schema::DataType;

use crate::table::{Mean, Table, TableBuilder, TableError, Unit};

/// The `scene` of the mean rows.
pub const MEAN: &str = "mean";
/// The first column of a suite's table.
pub const SCENE: &str = "scene";
/// The last column: how many scenes a row stands for.
pub const SCENES: &str = "scenes";

/// The suite's form of one table, from each scene's (in the suite's
/// order, all with the first's columns).
pub fn suite_table(scenes: &[(&str, &Table)]) -> Result<Table, TableError> {
    let Some((_, first)) = scenes.first() else {
        return Err(TableError::Arrow {
            table: String::new(),
            detail: "a suite of no scene".into(),
        });
    };
    let schema = first.batch().schema();
    for (scene, t) in scenes {
        if t.batch().schema().fields() != schema.fields() {
            return Err(TableError::Columns {
                table: first.name().to_string(),
                scene: scene.to_string(),
            });
        }
    }
    let width = schema.fields().len();
    let keys: Vec<usize> = (0..width).filter(|&c| first.mean(c) == Mean::Key).collect();
    let reference = (0..width).find(|&c| first.mean(c) == Mean::Reference);
    let is_reference = |t: &Table, r: usize| reference.is_some_and(|c| !t.cell(r, c).is_empty());
    // The scenes' own rows, and the first scene's reference rows.
    let scene_rows: Vec<(usize, usize)> = scenes
        .iter()
        .enumerate()
        .flat_map(|(s, (_, t))| (0..t.rows()).map(move |r| (s, r)))
        .filter(|&(s, r)| !is_reference(scenes[s].1, r))
        .collect();
    let references: Vec<(usize, usize)> = (0..first.rows())
        .filter(|&r| is_reference(first, r))
        .map(|r| (0, r))
        .collect();
    // Each mean row: its key's text, and the (scene, row) it stands for.
    let mut groups: Vec<Vec<(usize, usize)>> = Vec::new();
    let mut group_of: HashMap<Vec<String>, usize> = HashMap::new();
    for &(s, r) in &scene_rows {
        let t = scenes[s].1;
        let key: Vec<String> = keys.iter().map(|&c| t.cell(r, c)).collect();
        let g = *group_of.entry(key).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push((s, r));
    }

    let scene_names = scene_rows
        .iter()
        .map(|&(s, _)| scenes[s].0.to_string())
        .chain(groups.iter().map(|_| MEAN.to_string()))
        .chain(
            references
                .iter()
                .map(|&(_, r)| reference.map_or_else(String::new, |c| first.cell(r, c))),
        );
    let mut b = TableBuilder::new(first.name(), first.about()).key(SCENE, scene_names);
    let rows = Rows {
        scenes: &scene_rows,
        groups: &groups,
        references: &references,
    };
    for c in 0..width {
        let field = &schema.fields()[c];
        let (unit, mean) = (first.unit(c), first.mean(c));
        let array = column(scenes, c, &rows, mean, field.data_type());
        b = b.push(field.name(), unit, mean, array);
    }
    let counts = scene_rows
        .iter()
        .map(|_| Some(1))
        .chain(groups.iter().map(|g| Some(g.len() as u64)))
        .chain(references.iter().map(|_| None));
    b.u64(SCENES, Unit::Count, Mean::Blank, counts).build()
}

/// The rows of a suite's table, as (scene, row) of the scenes' tables:
/// the scenes' own, each mean row's group, the reference rows.
struct Rows<'a> {
    scenes: &'a [(usize, usize)],
    groups: &'a [Vec<(usize, usize)>],
    references: &'a [(usize, usize)],
}

/// Column `c` of the suite's table: the scenes' cells, then each group's
/// by `mean`, then the reference rows' cells. An averaged column is a
/// float column (the mean of whole numbers is not one).
fn column(scenes: &[(&str, &Table)], c: usize, rows: &Rows, mean: Mean, ty: &DataType) -> ArrayRef {
    let array = |s: usize| scenes[s].1.batch().column(c).clone();
    let pick = |at: Option<(usize, usize)>| at.filter(|&(s, r)| !array(s).is_null(r));
    // The scene row standing for each mean row's cell, where one does.
    let chosen: Vec<Option<(usize, usize)>> = rows
        .groups
        .iter()
        .map(|g| match mean {
            Mean::Key => g.first().copied(),
            Mean::Same => g.iter().copied().find(|&at| pick(Some(at)).is_some()),
            Mean::Average | Mean::AverageAll | Mean::Blank | Mean::Reference => None,
        })
        .collect();
    let averaged = matches!(mean, Mean::Average | Mean::AverageAll);
    if averaged && matches!(ty, DataType::UInt64 | DataType::Int64 | DataType::Float64) {
        let num = |(s, r): (usize, usize)| scenes[s].1.number(r, c);
        let values: Float64Array = rows
            .scenes
            .iter()
            .map(|&at| num(at))
            .chain(rows.groups.iter().map(|g| {
                let at: Vec<(usize, f64)> =
                    g.iter().filter_map(|&at| Some((at.0, num(at)?))).collect();
                // Every scene of the suite, or none, for `AverageAll`.
                let every = (0..scenes.len()).all(|s| at.iter().any(|&(t, _)| t == s));
                let v: Vec<f64> = at.iter().map(|&(_, v)| v).collect();
                let wanted = !v.is_empty() && (mean == Mean::Average || every);
                wanted.then(|| v.iter().sum::<f64>() / v.len() as f64)
            }))
            .chain(rows.references.iter().map(|&at| num(at)))
            .collect();
        return Arc::new(values);
    }
    let cells = rows
        .scenes
        .iter()
        .map(|&at| Some(at))
        .chain(chosen)
        .chain(rows.references.iter().map(|&at| Some(at)))
        .collect::<Vec<_>>();
    match ty {
        DataType::UInt64 => Arc::new(
            cells
                .iter()
                .map(|at| {
                    let (s, r) = pick(*at)?;
                    let a = array(s);
                    Some(crate::table::downcast::<UInt64Array>(a.as_any()).value(r))
                })
                .collect::<UInt64Array>(),
        ),
        DataType::Float64 => Arc::new(
            cells
                .iter()
                .map(|at| {
                    let (s, r) = pick(*at)?;
                    scenes[s].1.number(r, c)
                })
                .collect::<Float64Array>(),
        ),
        _ => Arc::new(
            cells
                .iter()
                .map(|at| {
                    let (s, r) = pick(*at)?;
                    Some(scenes[s].1.cell(r, c))
                })
                .collect::<StringArray>(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scene(change: [f64; 2], cycles: [u64; 2]) -> Table {
        TableBuilder::new("runs", "a run")
            .key("mode", ["btc", "nbtc"])
            .f64("change", Unit::Percent, Mean::Average, change.map(Some))
            .u64("cycles", Unit::Cycles, Mean::Blank, cycles.map(Some))
            .f64("paper", Unit::Percent, Mean::Same, [None, Some(-12.47)])
            .build()
            .unwrap()
    }

    /// The mean rows are the hand-computed means, in the first scene's
    /// order, after every scene's rows.
    #[test]
    fn a_suites_mean_rows_are_the_scenes_means() {
        let a = scene([0.0, -90.0], [100, 10]);
        let b = scene([0.0, -60.0], [200, 50]);
        let t = suite_table(&[("a", &a), ("b", &b)]).unwrap();
        assert_eq!(
            t.text_rows(),
            [
                ["scene", "mode", "change", "cycles", "paper", "scenes"],
                ["a", "btc", "0", "100", "", "1"],
                ["a", "nbtc", "-90", "10", "-12.47", "1"],
                ["b", "btc", "0", "200", "", "1"],
                ["b", "nbtc", "-60", "50", "-12.47", "1"],
                ["mean", "btc", "0", "", "", "2"],
                ["mean", "nbtc", "-75", "", "-12.47", "2"],
            ]
        );
        assert_eq!(t.mean(0), Mean::Key);
        assert_eq!(t.unit(2), Unit::Percent);
    }

    /// A row only some scenes have is averaged over those.
    #[test]
    fn a_row_of_some_scenes_is_their_mean() {
        let a = scene([1.0, 2.0], [1, 1]);
        let b = TableBuilder::new("runs", "a run")
            .key("mode", ["nbtc"])
            .f64("change", Unit::Percent, Mean::Average, [Some(4.0)])
            .u64("cycles", Unit::Cycles, Mean::Blank, [Some(1)])
            .f64("paper", Unit::Percent, Mean::Same, [Some(-12.47)])
            .build()
            .unwrap();
        let t = suite_table(&[("a", &a), ("b", &b)]).unwrap();
        let rows = t.text_rows();
        assert_eq!(rows[4], ["mean", "btc", "1", "", "", "1"]);
        assert_eq!(rows[5], ["mean", "nbtc", "3", "", "-12.47", "2"]);
    }

    /// A reference row (the paper's) comes once, last, named by its
    /// reference, and is in no mean.
    #[test]
    fn a_reference_row_comes_once_after_the_means() {
        let scene = |share: f64| {
            TableBuilder::new("replication", "")
                .key_u64("fps", Unit::Count, [4, 4])
                .f64(
                    "share",
                    Unit::Percent,
                    Mean::Average,
                    [Some(share), Some(84.6)],
                )
                .text("reference", Mean::Reference, [None, Some("paper".into())])
                .build()
                .unwrap()
        };
        let (a, b) = (scene(10.0), scene(20.0));
        let t = suite_table(&[("a", &a), ("b", &b)]).unwrap();
        assert_eq!(
            t.text_rows(),
            [
                ["scene", "fps", "share", "reference", "scenes"],
                ["a", "4", "10", "", "1"],
                ["b", "4", "20", "", "1"],
                ["mean", "4", "15", "", "2"],
                ["paper", "4", "84.6", "paper", ""],
            ]
        );
        assert_eq!(t.mean(3), Mean::Reference);
    }

    /// `AverageAll` has a mean only where every scene of the suite has a
    /// value: not for a row one scene lacks, nor for an empty cell.
    #[test]
    fn average_all_needs_every_scene() {
        let t = |modes: &[&str], v: &[Option<f64>]| {
            TableBuilder::new("runs", "a run")
                .key("mode", modes.iter().copied())
                .f64("ratio", Unit::Ratio, Mean::AverageAll, v.iter().copied())
                .f64("some", Unit::Ratio, Mean::Average, v.iter().copied())
                .build()
                .unwrap()
        };
        let a = t(&["btc", "nbtc", "x"], &[Some(1.0), Some(0.5), Some(2.0)]);
        let b = t(&["btc", "nbtc"], &[Some(1.0), None]);
        let c = t(&["btc", "nbtc"], &[Some(4.0), Some(0.25)]);
        let s = suite_table(&[("a", &a), ("b", &b), ("c", &c)]).unwrap();
        let rows = s.text_rows();
        let mean: Vec<&Vec<String>> = rows.iter().filter(|r| r[0] == MEAN).collect();
        assert_eq!(mean[0], &["mean", "btc", "2", "2", "3"]);
        assert_eq!(mean[1], &["mean", "nbtc", "", "0.375", "3"]);
        assert_eq!(mean[2], &["mean", "x", "", "2", "1"]);
        assert_eq!(s.mean(2), Mean::AverageAll);
    }

    #[test]
    fn scenes_with_other_columns_are_refused() {
        let a = scene([1.0, 2.0], [1, 1]);
        let b = TableBuilder::new("runs", "")
            .key("mode", ["x"])
            .build()
            .unwrap();
        assert_eq!(
            suite_table(&[("a", &a), ("b", &b)]),
            Err(TableError::Columns {
                table: "runs".into(),
                scene: "b".into()
            })
        );
    }
}
