"""The same trace in both tools: a rendered frame written as libCacheSim's
oracleGeneral (`gfxcache trace convert`) and simulated by libCacheSim's
own LRU and Belady (the `libcachesim` wheel) and by ours, fully
associative at several capacities: the same misses."""

import pytest

import gfxcache

import libcachesim  # the `test` extra installs it


@pytest.fixture(scope="module")
def oracle(tmp_path_factory, frame):
    path = tmp_path_factory.mktemp("og") / "frame.oracleGeneral.bin"
    gfxcache.run("trace", "convert", frame["trace"], path)
    return path


def theirs(policy, path, blocks):
    reader = libcachesim.TraceReader(str(path), libcachesim.TraceType.ORACLE_GENERAL_TRACE)
    cache = getattr(libcachesim, policy)(cache_size=blocks * 64)
    miss_ratio, _byte_miss_ratio = cache.process_trace(reader)
    return miss_ratio


@pytest.mark.parametrize("blocks", [16, 256, 4096])
def test_lru_misses_match_libcachesim(oracle, blocks):
    ours = gfxcache.sim(oracle, size=blocks * 64, ways="full", policies="lru", by_stream=False)
    row = ours.iloc[0]
    assert row["accesses"] == len(gfxcache.read_trace(oracle)["addr"])
    assert row["miss_ratio"] == pytest.approx(theirs("LRU", oracle, blocks), abs=1e-12)


@pytest.mark.parametrize("blocks", [16, 256, 4096])
def test_opt_misses_match_libcachesims_belady(oracle, blocks):
    # libCacheSim's Belady reads the next_access_vtime our writer computed
    # and always allocates: our OPT without bypass. With bypass (our
    # default) MIN misses no more.
    ours = gfxcache.sim(oracle, size=blocks * 64, ways="full",
                       policies=["opt:bypass=false", "opt"], by_stream=False).set_index("policy")
    belady = theirs("Belady", oracle, blocks)
    assert ours.loc["opt:bypass=false", "miss_ratio"] == pytest.approx(belady, abs=1e-12)
    assert ours.loc["opt", "miss_ratio"] <= belady
