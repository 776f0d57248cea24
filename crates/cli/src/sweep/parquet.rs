//! A tidy table as a Parquet file (one row group, Snappy), for pandas,
//! polars, DuckDB or Spark. Each column is typed from its cells: INT64
//! when every value is an integer, DOUBLE when every value is a number,
//! else UTF-8 text; every column is optional, an empty cell a null.

use std::sync::Arc;

use anyhow::{Context, Result};
use parquet::basic::{Compression, LogicalType, Repetition, Type as Physical};
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::Type;

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

/// `table` as the bytes of a Parquet file.
pub fn to_parquet(table: &Table) -> Result<Vec<u8>> {
    let kinds: Vec<Kind> = (0..table.columns.len())
        .map(|i| kind_of(table.rows.iter().map(|r| &r[i])))
        .collect();
    let fields = table
        .columns
        .iter()
        .zip(&kinds)
        .map(|(name, kind)| {
            let b = match kind {
                Kind::Int => Type::primitive_type_builder(name, Physical::INT64),
                Kind::Num => Type::primitive_type_builder(name, Physical::DOUBLE),
                Kind::Text => Type::primitive_type_builder(name, Physical::BYTE_ARRAY)
                    .with_logical_type(Some(LogicalType::String)),
            };
            Ok(Arc::new(b.with_repetition(Repetition::OPTIONAL).build()?))
        })
        .collect::<Result<Vec<_>>>()?;
    let schema = Arc::new(
        Type::group_type_builder("sweep")
            .with_fields(fields)
            .build()?,
    );
    let props = Arc::new(
        WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .build(),
    );
    let mut bytes = Vec::new();
    let mut writer = SerializedFileWriter::new(&mut bytes, schema, props)?;
    let mut group = writer.next_row_group()?;
    let mut i = 0;
    while let Some(mut col) = group.next_column()? {
        let cells = table.rows.iter().map(|r| &r[i]);
        let defs: Vec<i16> = cells
            .clone()
            .map(|c| i16::from(*c != Cell::Empty))
            .collect();
        match kinds[i] {
            Kind::Int => {
                let v: Vec<i64> = cells
                    .filter_map(|c| match c {
                        Cell::Int(x) => Some(*x),
                        _ => None,
                    })
                    .collect();
                col.typed::<Int64Type>()
                    .write_batch(&v, Some(&defs), None)?;
            }
            Kind::Num => {
                let v: Vec<f64> = cells
                    .filter_map(|c| match c {
                        Cell::Int(x) => Some(*x as f64),
                        Cell::Num(x) => Some(*x),
                        _ => None,
                    })
                    .collect();
                col.typed::<DoubleType>()
                    .write_batch(&v, Some(&defs), None)?;
            }
            Kind::Text => {
                let v: Vec<ByteArray> = cells
                    .filter(|c| **c != Cell::Empty)
                    .map(|c| ByteArray::from(c.to_field().into_bytes()))
                    .collect();
                col.typed::<ByteArrayType>()
                    .write_batch(&v, Some(&defs), None)?;
            }
        }
        col.close()?;
        i += 1;
    }
    group.close()?;
    writer.close().context("finishing the Parquet file")?;
    Ok(bytes)
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
