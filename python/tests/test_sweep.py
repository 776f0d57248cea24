"""Sweeps from Python: locally and on Ray (a local Ray instance), the same
tables; a failing job reported while the others are kept; a resumed Ray
sweep runs only what has no result."""

import json
from pathlib import Path

import pytest

import gfxcache

SWEEP = """
studies = ["sim", "mrc", "gspc"]
policies = ["lru", "drrip", "gspc"]

[frames]
scenes = ["atrium", "city"]
resolutions = ["160x90"]

[cache]
sizes = ["64KiB", "256KiB"]

[flags.gspc]
size = "256KiB"
big-size = "none"
timeline = "none"
"""


def write(tmp_path, text, name="exp.toml"):
    p = tmp_path / name
    p.write_text(text)
    return p


def tables(out):
    out = Path(out)
    names = ["sweep.csv"] + sorted(str(p.relative_to(out)) for p in (out / "tables").glob("*.csv"))
    return {n: (out / n).read_bytes() for n in names}


@pytest.fixture(scope="module")
def ray_local():
    import ray  # the `test` extra installs it
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_local_sweep_and_its_table(tmp_path):
    exp = write(tmp_path, SWEEP)
    s = gfxcache.sweep(exp, out=tmp_path / "local")
    assert (s["jobs"], s["ran"], s["frames_rendered"]) == (2 * (2 + 1 + 1), 8, 2)
    df = gfxcache.sweep_table(tmp_path / "local")
    totals = df[(df.study == "sim") & (df.stream == "all")]
    assert len(totals) == 2 * 2 * 3
    assert set(totals.policy) == {"lru", "drrip", "gspc"}
    g = gfxcache.sweep_table(tmp_path / "local", "gspc-policies")
    assert set(g.scene) == {"atrium", "city"}


def test_ray_sweep_gives_the_local_tables(tmp_path, ray_local):
    exp = write(tmp_path, SWEEP)
    gfxcache.sweep(exp, out=tmp_path / "local")
    s = gfxcache.sweep(exp, out=tmp_path / "ray", backend="ray")
    assert (s["jobs"], s["ran"], s["already_done"]) == (8, 8, 0)
    a, b = tables(tmp_path / "local"), tables(tmp_path / "ray")
    assert a.keys() == b.keys()
    for name in a:
        assert a[name] == b[name], name


# tcor on tile-based frames; an Attribute Cache larger than the frame can
# use fails each tcor job once its frame is rendered (a value a command
# refuses before any work is refused before the sweep starts).
TBR_SWEEP = """
studies = ["sim", "mrc", "tcor"]
policies = ["lru", "drrip", "gspc"]

[frames]
scenes = ["atrium", "city"]
resolutions = ["160x90"]
modes = ["tbr"]

[cache]
sizes = ["64KiB", "256KiB"]

[flags.tcor]
sizes = ["4KiB"]
no-fetcher-sweep = true
"""


def test_ray_sweep_with_a_failing_job_keeps_the_others_and_resumes(tmp_path, ray_local):
    broken = TBR_SWEEP.replace('["4KiB"]', '["4KiB", "64GiB"]')
    exp = write(tmp_path, broken)
    out = tmp_path / "ray"
    with pytest.raises(RuntimeError, match=r"2 of 8 jobs failed.*tcor"):
        gfxcache.sweep(exp, out=out, backend="ray")
    results = sorted(out.glob("jobs/*/result.json"))
    assert len(results) == 6, "every other job kept"
    kept = {p: p.stat().st_mtime_ns for p in results}
    df = gfxcache.sweep_table(out)
    assert set(df.study) == {"sim", "mrc"}
    # Mended and started again: only the failed jobs run.
    exp = write(tmp_path, TBR_SWEEP)
    s = gfxcache.sweep(exp, out=out, backend="ray")
    assert (s["already_done"], s["ran"], s["frames_rendered"]) == (6, 2, 0)
    for p, t in kept.items():
        assert p.stat().st_mtime_ns == t, f"{p} ran again"
    assert tables(out) == tables(out)  # written whole
    local = tmp_path / "local"
    gfxcache.sweep(exp, out=local)
    assert tables(out) == tables(local)


def test_a_bad_sweep_file_names_line_and_key(tmp_path):
    exp = write(tmp_path, SWEEP.replace('"64KiB"', '"lots"'))
    with pytest.raises(Exception, match=r"exp.toml:10.*cache.sizes"):
        gfxcache.sweep(exp, out=tmp_path / "x")


def test_a_flag_a_job_refuses_and_too_many_jobs_are_refused_before_any_frame(tmp_path):
    exp = write(tmp_path, SWEEP.replace('size = "256KiB"', 'size = "3KiB"'))
    with pytest.raises(Exception, match=r"job atrium-.*-gspc-.*\[flags.gspc\].*3KiB"):
        gfxcache.sweep(exp, out=tmp_path / "x")
    exp = write(tmp_path, SWEEP)
    with pytest.raises(Exception, match=r"8 jobs \(2 frame points\).*--max-jobs 7"):
        gfxcache.sweep(exp, out=tmp_path / "x", max_jobs=7)
    assert not (tmp_path / "x").exists()


def test_ray_sweep_with_a_crashed_worker_lists_it_and_writes_the_rest(tmp_path, ray_local,
                                                                       monkeypatch):
    # Was WorkerCrashedError out of sweep(), no tables written.
    from gfxcache import _ray

    def crash_on_job_0(exp, out, index):
        import os

        from gfxcache import _native

        if index == 0:
            os._exit(3)  # the worker dies, as under an abort or the OOM killer
        _native.sweep_job(exp, out, index)
        return None

    crash_on_job_0.__module__ = "__main__"  # shipped to the workers by value
    monkeypatch.setattr(_ray, "_job", crash_on_job_0)
    exp = write(tmp_path, """
studies = ["sim"]
policies = ["lru"]

[frames]
scenes = ["atrium"]
resolutions = ["160x90"]

[cache]
sizes = ["64KiB", "256KiB"]
""")
    out = tmp_path / "ray"
    with pytest.raises(RuntimeError, match=r"1 of 2 jobs failed.*WorkerCrashedError"):
        gfxcache.sweep(exp, out=out, backend="ray")
    assert len(list(out.glob("jobs/*/result.json"))) == 1, "the other job kept"
    df = gfxcache.sweep_table(out)
    assert set(df.study) == {"sim"} and len(df) > 0


def test_local_sweep_with_an_aborting_job_lists_it_and_writes_the_rest(tmp_path, monkeypatch):
    # Each job runs in a worker process of its own: an abort there (as
    # under the out-of-memory killer) fails that job only.
    monkeypatch.setenv("GFXCACHE_TEST_ABORT_JOB", "-mrc-")
    exp = write(tmp_path, """
studies = ["sim", "mrc"]
policies = ["lru"]

[frames]
scenes = ["atrium"]
resolutions = ["160x90"]

[cache]
sizes = ["64KiB", "256KiB"]
""")
    out = tmp_path / "local"
    with pytest.raises(RuntimeError, match=r"1 of 3 jobs failed.*-mrc-.*aborted \(SIGABRT\)"):
        gfxcache.sweep(exp, out=out)
    assert len(list(out.glob("jobs/*/result.json"))) == 2, "the other jobs kept"
    df = gfxcache.sweep_table(out)
    assert set(df.study) == {"sim"} and len(df) > 0
    monkeypatch.delenv("GFXCACHE_TEST_ABORT_JOB")
    s = gfxcache.sweep(exp, out=out)
    assert (s["already_done"], s["ran"]) == (2, 1)
