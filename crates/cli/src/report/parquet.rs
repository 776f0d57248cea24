//! A table as a Parquet file (one row group, Snappy), for pandas, polars,
//! DuckDB or Spark: each Arrow column as its Parquet type (UInt64 as
//! INT64 marked unsigned, Int64, Float64 as DOUBLE, Utf8 as a UTF-8
//! BYTE_ARRAY, Boolean), every column optional, an empty cell a null; the
//! unit and mean rule of each column are kept as key-value metadata
//! (`gfxcache.unit.<column>`, `gfxcache.mean.<column>`).

use std::sync::Arc;

use anyhow::{bail, Context, Result};
use arrow_array::{Array, BooleanArray, Float64Array, Int64Array, StringArray, UInt64Array};
use arrow_schema::DataType;
use gfxcache_report::table::{MEAN_KEY, UNIT_KEY};
use gfxcache_report::Table;
use parquet::basic::{Compression, LogicalType, Repetition, Type as Physical};
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::Type;

fn downcast<T: 'static>(a: &dyn Array) -> Result<&T> {
    a.as_any()
        .downcast_ref::<T>()
        .context("an array that is not its data type")
}

/// `table` as the bytes of a Parquet file.
pub fn to_parquet(table: &Table) -> Result<Vec<u8>> {
    let batch = table.batch();
    let schema = batch.schema();
    let mut fields = Vec::new();
    let mut metadata = Vec::new();
    for field in schema.fields() {
        let name = field.name();
        let b = match field.data_type() {
            DataType::UInt64 => Type::primitive_type_builder(name, Physical::INT64)
                .with_logical_type(Some(LogicalType::Integer {
                    bit_width: 64,
                    is_signed: false,
                })),
            DataType::Int64 => Type::primitive_type_builder(name, Physical::INT64),
            DataType::Float64 => Type::primitive_type_builder(name, Physical::DOUBLE),
            DataType::Boolean => Type::primitive_type_builder(name, Physical::BOOLEAN),
            DataType::Utf8 => Type::primitive_type_builder(name, Physical::BYTE_ARRAY)
                .with_logical_type(Some(LogicalType::String)),
            other => bail!("table {}: column {name} of type {other}", table.name()),
        };
        fields.push(Arc::new(b.with_repetition(Repetition::OPTIONAL).build()?));
        for key in [UNIT_KEY, MEAN_KEY] {
            if let Some(v) = field.metadata().get(key) {
                metadata.push(KeyValue::new(format!("{key}.{name}"), v.clone()));
            }
        }
    }
    let root = Arc::new(
        Type::group_type_builder(table.name())
            .with_fields(fields)
            .build()?,
    );
    let props = Arc::new(
        WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_key_value_metadata((!metadata.is_empty()).then_some(metadata))
            .build(),
    );
    let mut bytes = Vec::new();
    let mut writer = SerializedFileWriter::new(&mut bytes, root, props)?;
    let mut group = writer.next_row_group()?;
    let mut i = 0;
    while let Some(mut col) = group.next_column()? {
        let a = batch.column(i).as_ref();
        let defs: Vec<i16> = (0..a.len()).map(|r| i16::from(a.is_valid(r))).collect();
        let valid = (0..a.len()).filter(|&r| a.is_valid(r));
        match a.data_type() {
            DataType::UInt64 => {
                let x = downcast::<UInt64Array>(a)?;
                // Stored as the INT64 of the same bits, as Parquet's
                // unsigned logical type asks.
                let v: Vec<i64> = valid.map(|r| x.value(r) as i64).collect();
                col.typed::<Int64Type>()
                    .write_batch(&v, Some(&defs), None)?;
            }
            DataType::Int64 => {
                let x = downcast::<Int64Array>(a)?;
                let v: Vec<i64> = valid.map(|r| x.value(r)).collect();
                col.typed::<Int64Type>()
                    .write_batch(&v, Some(&defs), None)?;
            }
            DataType::Float64 => {
                let x = downcast::<Float64Array>(a)?;
                let v: Vec<f64> = valid.map(|r| x.value(r)).collect();
                col.typed::<DoubleType>()
                    .write_batch(&v, Some(&defs), None)?;
            }
            DataType::Boolean => {
                let x = downcast::<BooleanArray>(a)?;
                let v: Vec<bool> = valid.map(|r| x.value(r)).collect();
                col.typed::<BoolType>().write_batch(&v, Some(&defs), None)?;
            }
            _ => {
                let x = downcast::<StringArray>(a)?;
                let v: Vec<ByteArray> = valid.map(|r| ByteArray::from(x.value(r))).collect();
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
    use gfxcache_report::{Mean, TableBuilder, Unit};
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::Field;

    #[test]
    fn a_table_reads_back_typed_with_its_nulls_and_units() -> Result<()> {
        let t = TableBuilder::new("runs", "a run")
            .key("mode", ["btc", "nbtc"])
            .u64("cycles", Unit::Cycles, Mean::Blank, [Some(u64::MAX), None])
            .f64("change", Unit::Percent, Mean::Average, [None, Some(-0.5)])
            .bool("main", Mean::Same, [true, false])
            .build()?;
        let mut file = tempfile::tempfile()?;
        std::io::Write::write_all(&mut file, &to_parquet(&t)?)?;
        let reader = SerializedFileReader::new(file)?;
        let rows: Vec<Vec<(String, Field)>> = reader
            .get_row_iter(None)?
            .map(|r| Ok(r?.into_columns()))
            .collect::<Result<_>>()?;
        assert_eq!(
            rows[0],
            vec![
                ("mode".into(), Field::Str("btc".into())),
                ("cycles".into(), Field::ULong(u64::MAX)),
                ("change".into(), Field::Null),
                ("main".into(), Field::Bool(true)),
            ]
        );
        assert_eq!(rows[1][2], ("change".into(), Field::Double(-0.5)));
        let kv = reader.metadata().file_metadata().key_value_metadata();
        let unit = kv
            .into_iter()
            .flatten()
            .find(|k| k.key == "gfxcache.unit.cycles")
            .and_then(|k| k.value.clone());
        assert_eq!(unit.as_deref(), Some("cycles"));
        Ok(())
    }
}
