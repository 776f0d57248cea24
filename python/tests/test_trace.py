"""Traces to and from NumPy: every field round-trips, in every format that
holds it; bad input is refused by name."""

import numpy as np
import pytest

import gfxcache


def random_trace(n=5000, seed=1):
    rng = np.random.default_rng(seed)
    return {
        "addr": rng.integers(0, 1 << 40, n, dtype=np.uint64),
        "size": rng.integers(1, 256, n).astype(np.uint32),
        "unit": rng.integers(0, 64, n).astype(np.uint16),
        "stream": rng.integers(0, len(gfxcache.STREAMS), n).astype(np.uint8),
        "op": rng.integers(0, 2, n).astype(np.uint8),
    }


@pytest.mark.parametrize("name", ["t.gtr", "t.gtr.zst", "t.csv"])
def test_arrays_round_trip(tmp_path, name):
    t = random_trace()
    assert gfxcache.write_trace(tmp_path / name, t) == len(t["addr"])
    back = gfxcache.read_trace(tmp_path / name)
    for k in ["addr", "size", "unit", "stream", "op"]:
        np.testing.assert_array_equal(back[k], t[k], err_msg=k)


def test_names_and_scalars(tmp_path):
    path = tmp_path / "t.gtr"
    gfxcache.write_trace(path, [0, 64, 128], stream=["tex", "rt", "z"], op=["r", "w", "r"])
    df = gfxcache.trace_frame(path)
    assert list(df["stream"].astype(str)) == ["tex", "rt", "z"]
    assert list(df["op"].astype(str)) == ["r", "w", "r"]
    assert list(df["size"]) == [64, 64, 64]
    # A DataFrame writes back as itself.
    gfxcache.write_trace(tmp_path / "u.gtr", df)
    again = gfxcache.trace_frame(tmp_path / "u.gtr")
    assert again.equals(df)


def test_a_rendered_frame_reads_with_its_header(frame):
    t = gfxcache.read_trace(frame["trace"])
    assert len(t["addr"]) > 0
    assert t["meta"]["scene"] == "atrium"
    assert set(np.unique(t["stream"])) <= set(range(len(gfxcache.STREAMS)))


def test_bad_input_is_refused_by_name(tmp_path):
    with pytest.raises(ValueError, match="unknown stream 'texture'"):
        gfxcache.write_trace(tmp_path / "t.gtr", [0], stream=["texture"])
    with pytest.raises(ValueError, match="expected 2 values"):
        gfxcache.write_trace(tmp_path / "t.gtr", [0, 1], size=[1, 2, 3])
    with pytest.raises(FileNotFoundError, match="nowhere.gtr"):
        gfxcache.read_trace(tmp_path / "nowhere.gtr")
    bad = tmp_path / "bad.gtr"
    bad.write_bytes(b"GTR?garbage")
    with pytest.raises(RuntimeError, match="bad.gtr"):
        gfxcache.read_trace(bad)
    assert not (tmp_path / "t.gtr").exists(), "nothing half-written"
