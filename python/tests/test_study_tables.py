"""A study's tables as DataFrames: the Parquet and the CSV of each table
read back by pandas hold the same values, and the Parquet carries each
column's unit."""

import pandas as pd
import pytest

import gfxcache

pytest.importorskip("pyarrow")


@pytest.fixture(scope="module")
def nbtc_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("nbtc") / "report"
    gfxcache.study("nbtc", out, scene="match3", width=160, height=96, filters="nearest",
                   latencies=[50, 300], sweep_wlb=[8])
    return out


def test_parquet_and_csv_of_each_table_are_equal(nbtc_report):
    tables = gfxcache.study_tables(nbtc_report)
    assert {"runs", "sweeps", "paper", "storage", "machine"} <= set(tables)
    for name, df in tables.items():
        csv = pd.read_csv(nbtc_report / f"{name}.csv")
        assert list(df.columns) == list(csv.columns), name
        assert len(df) == len(csv) > 0, name
        pd.testing.assert_frame_equal(df, csv, check_dtype=False, obj=name)
    runs = tables["runs"]
    assert runs.attrs["units"]["cycles"] == "cycles"
    assert runs.attrs["units"]["cycles_change_percent"] == "percent"
    assert runs.attrs["mean"]["mode"] == "key"
    nbtc = runs[(runs["mode"] == "nbtc") & (runs["latency"] == 300)]
    assert nbtc["paper_cycles_change_percent"].tolist() == [-41.64]
    assert str(runs["cycles"].dtype) == "uint64"


def test_a_directory_that_is_not_there_is_an_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        gfxcache.study_tables(tmp_path / "nowhere")
