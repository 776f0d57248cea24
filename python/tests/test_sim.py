"""`sim` and `mrc` from Python against a deliberately simple LRU in Python
on random traces, and on a rendered frame."""

from collections import OrderedDict

import numpy as np
import pytest

import gfxcache


def lru_misses(blocks, capacity):
    """Fully associative LRU, one block at a time."""
    cache, misses = OrderedDict(), 0
    for b in blocks:
        if b in cache:
            cache.move_to_end(b)
        else:
            misses += 1
            cache[b] = True
            if len(cache) > capacity:
                cache.popitem(last=False)
    return misses


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sim_lru_equals_a_reference_on_random_arrays(seed):
    rng = np.random.default_rng(seed)
    addr = (rng.zipf(1.3, 20000) % 4096).astype(np.uint64) * 64
    df = gfxcache.sim({"addr": addr, "size": 1}, size=64 * 256, ways="full",
                      policies=["lru", "fifo", "opt"], by_stream=False)
    assert list(df["policy"]) == ["lru", "fifo", "opt"]
    lru = df[df.policy == "lru"].iloc[0]
    assert lru["misses"] == lru_misses((addr // 64).tolist(), 256)
    assert lru["accesses"] == len(addr)
    # OPT never misses more than any other policy.
    assert df.set_index("policy")["misses"]["opt"] <= df["misses"].min()


def test_mrc_equals_sim_lru_at_each_size(frame):
    curve = gfxcache.mrc(frame["trace"])
    total = curve[curve.stream == "all"].set_index("size_bytes")
    for size in [16384, 262144]:
        s = gfxcache.sim(frame["trace"], size=size, ways="full", policies="lru")
        all_ = s[s.stream == "all"].iloc[0]
        assert all_["misses"] == total.loc[size, "misses"], size


def test_per_stream_rows_add_up(frame):
    df = gfxcache.sim(frame["trace"], size="256KiB", ways=16,
                      policies=["lru", "drrip", "gspc"], banks=4)
    assert df.attrs["config"]["banks"] == 4
    for p, rows in df.groupby("policy"):
        total = rows[rows.stream == "all"].iloc[0]
        parts = rows[rows.stream != "all"]
        assert parts["accesses"].sum() == total["accesses"], p
        assert parts["misses"].sum() == total["misses"], p


def test_a_bad_policy_or_flag_is_a_clear_error(frame):
    with pytest.raises(Exception, match="belady2"):
        gfxcache.sim(frame["trace"], size="1MiB", ways=16, policies="belady2")
    with pytest.raises(ValueError, match="unexpected keyword argument 'no_such'"):
        gfxcache.sim(frame["trace"], size="1MiB", ways=16, policies="lru", no_such=1)


def test_sampled_curves_of_any_policy_carry_their_error_against_full_simulation(frame):
    df = gfxcache.mrc(frame["trace"], policy=["lru", "drrip"], ways=16,
                      sizes="16KiB,64KiB", sampling_rate=0.5, exact=True)
    total = df[df.stream == "all"]
    assert sorted(total["policy"].unique()) == ["drrip", "lru"]
    assert sorted(total["size_bytes"].unique()) == [16384, 65536]
    assert df.attrs["method"] == "shards"
    assert (total["abs_error"] - (total["miss_ratio"] - total["exact_miss_ratio"]).abs()).abs().max() < 1e-12
    # The exact value is a full simulation: sim's at the same geometry.
    s = gfxcache.sim(frame["trace"], size="64KiB", ways=16, policies="drrip", by_stream=False)
    drrip = total[(total.policy == "drrip") & (total.size_bytes == 65536)].iloc[0]
    assert drrip["exact_miss_ratio"] == pytest.approx(s.iloc[0]["miss_ratio"], abs=1e-12)


def test_a_hierarchy_of_one_level_is_sim(frame):
    h = gfxcache.hierarchy(frame["trace"], ["L1:64KiB:16"], ["lru", "drrip"])
    s = gfxcache.sim(frame["trace"], size="64KiB", ways=16, policies=["lru", "drrip"])
    for p in ["lru", "drrip"]:
        a = h[(h.policy == p) & (h.stream == "all")].iloc[0]
        b = s[(s.policy == p) & (s.stream == "all")].iloc[0]
        for k in ["accesses", "hits", "misses", "writebacks"]:
            assert a[k] == b[k], (p, k)
        assert h.attrs["memory"][p]["reads"] == b["misses"]


def test_a_hierarchy_from_a_file_and_from_specs_agree(frame, tmp_path):
    toml = tmp_path / "h.toml"
    toml.write_text('block = 64\n[[level]]\nname = "L1"\nsize = "16KiB"\nways = 4\n'
                    '[[level]]\nname = "L2"\nsize = "128KiB"\nways = 8\ninclusion = "exclusive"\n')
    a = gfxcache.hierarchy(frame["trace"], toml, "lru", by_stream=False)
    b = gfxcache.hierarchy(frame["trace"], "L1:16KiB:4,L2:128KiB:8:exclusive", "lru", by_stream=False)
    assert list(a["level"]) == ["L1", "L2"]
    cols = ["level", "accesses", "hits", "misses", "received", "back_invalidations"]
    assert a[cols].equals(b[cols])
    # The first level has nothing above it to include.
    assert a["inclusion"].isna().tolist() == [True, False]
    assert a["inclusion"].iloc[1] == "exclusive"
    with pytest.raises(FileNotFoundError):
        gfxcache.hierarchy(frame["trace"], tmp_path / "missing.toml", "lru")
    with pytest.raises(TypeError):
        gfxcache.hierarchy(frame["trace"], toml, "lru", levels="L1:1KiB:1")
