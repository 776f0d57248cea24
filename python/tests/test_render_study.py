"""Rendering and the studies from Python: the picture, the summary, a
study's report as plain data."""

import numpy as np

import gfxcache


def test_render_gives_trace_picture_and_summary(frame):
    assert frame["picture"].shape == (90, 160, 4)
    assert frame["picture"].dtype == np.uint8
    assert frame["picture"][..., :3].max() > 0, "something was drawn"
    s = frame["summary"]
    assert s["scene"] == "atrium" and (s["width"], s["height"]) == (160, 90)


def test_a_study_returns_its_report(tmp_path, frame):
    r = gfxcache.study("gspc", tmp_path / "g", trace=frame["trace"], size="256KiB",
                       big_size="none", timeline="none")
    assert isinstance(r, dict)
    assert (tmp_path / "g" / "gspc.json").is_file()
    assert (tmp_path / "g" / "index.html").is_file()
    policies = {p["policy"] for p in r["policies"]}
    assert {"lru", "gspc", "opt"} <= policies, policies


def test_run_prints_like_the_command_line(capfd, frame):
    gfxcache.run("sim", frame["trace"], "--size", "64KiB", "--ways", 4, "--policy", "lru")
    out = capfd.readouterr().out
    assert "miss ratio" in out and "lru" in out


def test_the_composed_study_returns_its_report(tmp_path):
    r = gfxcache.study("compose", tmp_path / "c", scene="racer", width=64, height=64,
                       fragment_processors=4, l1=["btc", "nbtc"],
                       placements=["private", "dtm-nuca-dist"])
    assert (tmp_path / "c" / "compose.json").is_file()
    assert (tmp_path / "c" / "runs.csv").is_file()
    pairs = [(x["mode"], x["placement"]) for x in r["runs"]]
    assert pairs == [("btc", "private"), ("btc", "dtm-nuca-dist"),
                     ("nbtc", "private"), ("nbtc", "dtm-nuca-dist")]
    assert r["runs"][0]["speedup"] == 1.0
