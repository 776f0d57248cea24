"""Bad numbers are refused before any work, by name: a ValueError that
names the argument, the value given and what was expected, never a value
wrapped into another (issue 31)."""

import re

import numpy as np
import pytest

import gfxcache

ADDR = np.arange(16, dtype=np.uint64) * 64


def refused(match, f, *args, **kw):
    with pytest.raises(ValueError, match=match) as e:
        f(*args, **kw)
    return str(e.value)


@pytest.mark.parametrize("size", [-1, 0, 1.5, None])
def test_a_bad_cache_size_names_size(size):
    refused(rf"size={re.escape(repr(size))}: expected a positive size in bytes",
            gfxcache.sim, {"addr": ADDR}, size=size, ways=4, policies="lru")


@pytest.mark.parametrize("size", ["-1KiB", "", "1.5MiB"])
def test_a_bad_size_word_names_size(size):
    refused(rf"size={re.escape(repr(size))}: expected a positive size in bytes",
            gfxcache.sim, {"addr": ADDR}, size=size, ways=4, policies="lru")
    refused(r"ways='-4': expected a positive way count", gfxcache.sim, {"addr": ADDR},
            size="1KiB", ways="-4", policies="lru")


def test_bad_ways_and_block_name_themselves():
    refused(r"ways=-4: expected a positive way count", gfxcache.sim, {"addr": ADDR},
            size="1KiB", ways=-4, policies="lru")
    refused(r"block=-64: expected a positive block size", gfxcache.sim, {"addr": ADDR},
            size="1KiB", ways=4, policies="lru", block=-64)


def test_mrc_block_and_sets():
    # Was "unexpected argument '-6'".
    refused(r"block=-64: expected a positive block size", gfxcache.mrc, {"addr": ADDR}, block=-64)
    refused(r"sets=0: expected a positive set count", gfxcache.mrc, {"addr": ADDR}, sets=0)


def test_a_trace_access_size_of_minus_one_does_not_wrap():
    # Was 4294967295 bytes: 671,088,640 block accesses from 10 accesses.
    refused(r"trace: size=-1 at index 0: expected access sizes in bytes", gfxcache.sim,
            {"addr": ADDR[:10], "size": np.full(10, -1)}, size="1KiB", ways=4, policies="lru")
    refused(r"size=-1: expected access sizes in bytes", gfxcache.write_trace, "never.gtr", [0],
            size=-1)


@pytest.mark.parametrize(
    "addr, shown",
    [([0, 64, -64], r"addr=-64 at index 2"), ([0.0, 1.5], r"addr=0.0 at index 0"),
     ([2**64], r"addr=18446744073709551616 at index 0"), (np.array([-1]), r"addr=-1 at index 0")],
)
def test_negative_float_or_huge_addresses_are_refused(tmp_path, addr, shown):
    refused(shown + r": expected byte addresses", gfxcache.write_trace, tmp_path / "t.gtr", addr)
    assert not (tmp_path / "t.gtr").exists()


def test_unit_past_65535_is_refused(tmp_path):
    refused(r"unit=70000: expected unit ids, integers 0 to 65535", gfxcache.write_trace,
            tmp_path / "t.gtr", [0], unit=70000)
    refused(r"unit=70000 at index 1", gfxcache.write_trace, tmp_path / "t.gtr", [0, 64],
            unit=[1, 70000])


def test_stream_300_is_named_as_300(tmp_path):
    # Was "stream id 44" (300 wrapped to a byte).
    msg = refused(r"stream=300: expected a stream name .* or id 0 to \d+", gfxcache.write_trace,
                  tmp_path / "t.gtr", [0], stream=300)
    assert "44" not in msg
    refused(r"stream=-1 at index 0", gfxcache.write_trace, tmp_path / "t.gtr", [0], stream=[-1])


def test_op_out_of_range_is_refused(tmp_path):
    refused(r"op=257 at index 0: expected 'r' or 'w'", gfxcache.write_trace, tmp_path / "t.gtr",
            [0], op=[257])


def test_the_largest_values_still_round_trip(tmp_path):
    path = tmp_path / "t.gtr"
    gfxcache.write_trace(path, np.array([2**64 - 1, 0], dtype=np.uint64), unit=65535,
                         size=[2**32 - 1, 0], stream=len(gfxcache.STREAMS) - 1, op=[True, False])
    t = gfxcache.read_trace(path)
    assert t["addr"].tolist() == [2**64 - 1, 0]
    assert t["size"].tolist() == [2**32 - 1, 0]
    assert t["unit"].tolist() == [65535, 65535]
    assert t["op"].tolist() == [1, 0]


def test_a_bad_flag_value_names_the_keyword():
    msg = refused(r"^banks=-4: ", gfxcache.sim, {"addr": ADDR}, size="1KiB", ways=4,
                  policies="lru", banks=-4)
    assert "--banks" in msg


def test_sweep_jobs(tmp_path):
    refused(r"jobs=0: expected a positive number of jobs", gfxcache.sweep, tmp_path / "x.toml",
            jobs=0)


def test_run_version_prints_the_version(capfd):
    gfxcache.run("--version")
    out = capfd.readouterr().out.strip()
    # The version and the commit it was built from, then the hash of its
    # sources (which the sweep's keys hold).
    assert re.fullmatch(rf"gfxcache {re.escape(gfxcache.__version__)} \((unknown|[0-9a-f]{{12}})\)\n"
                        r"sources (unknown|[0-9a-f]{16})", out), out
    gfxcache.run("sim", "--help")
    assert "--policy" in capfd.readouterr().out
    with pytest.raises(ValueError, match="unexpected argument"):
        gfxcache.run("sim", "--no-such-flag")
