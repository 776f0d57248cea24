//! A sweep's tidy table as a Parquet file. Each column is typed from its
//! cells: INT64 when every value is an integer, DOUBLE when every value is
//! a number, else UTF-8 text; every column is optional, an empty cell a
//! null.

use anyhow::Result;
use gfxcache_report::{Mean, TableBuilder, Unit};

use super::table::{Cell, Table};

/// What a column's cells are.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Int,
    Num,
    Text,
}

/// A column of nulls only is text: nothing says it holds numbers.
fn kind_of<'a>(cells: impl Iterator<Item = &'a Cell>) -> Kind {
    let mut kind = None;
    for c in cells {
        kind = match (kind, c) {
            (_, Cell::Text(_)) => return Kind::Text,
            (None | Some(Kind::Int), Cell::Int(_)) => Some(Kind::Int),
            (_, Cell::Num(_) | Cell::Int(_)) => Some(Kind::Num),
            (k, Cell::Empty) => k,
        };
    }
    kind.unwrap_or(Kind::Text)
}

/// `table` as the bytes of a Parquet file, each column typed from its
/// cells ([`crate::report::parquet`] writes it).
pub fn to_parquet(table: &Table) -> Result<Vec<u8>> {
    crate::report::parquet::to_parquet(&typed(table)?)
}

/// `table` as a typed table: what [`kind_of`] finds in each column.
fn typed(table: &Table) -> Result<gfxcache_report::Table> {
    let mut b = TableBuilder::new("sweep", "a job of the sweep, or a row of its study's table");
    for (i, name) in table.columns.iter().enumerate() {
        let cells = table.rows.iter().map(|r| &r[i]);
        b = match kind_of(cells.clone()) {
            Kind::Int => b.i64(
                name,
                Unit::None,
                Mean::Blank,
                cells.map(|c| match c {
                    Cell::Int(x) => Some(*x),
                    _ => None,
                }),
            ),
            Kind::Num => b.f64(
                name,
                Unit::None,
                Mean::Blank,
                cells.map(|c| match c {
                    Cell::Int(x) => Some(*x as f64),
                    Cell::Num(x) => Some(*x),
                    _ => None,
                }),
            ),
            Kind::Text => b.text(
                name,
                Mean::Blank,
                cells.map(|c| (*c != Cell::Empty).then(|| c.to_field())),
            ),
        };
    }
    Ok(b.build()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::Field;

    #[test]
    fn a_table_reads_back_typed_with_its_nulls() {
        let mut t = Table::default();
        t.push(vec![
            ("scene".into(), Cell::Text("city".into())),
            ("size".into(), Cell::Int(1 << 20)),
            ("ratio".into(), Cell::Num(0.25)),
        ]);
        t.push(vec![
            ("scene".into(), Cell::Text("racer".into())),
            ("ratio".into(), Cell::Int(1)),
            ("note".into(), Cell::Text("x".into())),
        ]);
        t.push(vec![("nothing".into(), Cell::Empty)]);
        let bytes = to_parquet(&t).unwrap();
        let mut file = tempfile::tempfile().unwrap();
        std::io::Write::write_all(&mut file, &bytes).unwrap();
        let reader = SerializedFileReader::new(file).unwrap();
        assert_eq!(reader.metadata().file_metadata().num_rows(), 3);
        let rows: Vec<Vec<(String, Field)>> = reader
            .get_row_iter(None)
            .unwrap()
            .map(|r| r.unwrap().into_columns())
            .collect();
        assert_eq!(
            rows[0],
            vec![
                ("scene".into(), Field::Str("city".into())),
                ("size".into(), Field::Long(1 << 20)),
                ("ratio".into(), Field::Double(0.25)),
                ("note".into(), Field::Null),
                ("nothing".into(), Field::Null),
            ]
        );
        assert_eq!(
            rows[1],
            vec![
                ("scene".into(), Field::Str("racer".into())),
                ("size".into(), Field::Null),
                ("ratio".into(), Field::Double(1.0)),
                ("note".into(), Field::Str("x".into())),
                ("nothing".into(), Field::Null),
            ]
        );
        let schema = reader.metadata().file_metadata().schema_descr();
        let physical: Vec<_> = (0..5).map(|i| schema.column(i).physical_type()).collect();
        use parquet::basic::Type as P;
        assert_eq!(
            physical,
            [
                P::BYTE_ARRAY,
                P::INT64,
                P::DOUBLE,
                P::BYTE_ARRAY,
                P::BYTE_ARRAY
            ]
        );
    }
}
