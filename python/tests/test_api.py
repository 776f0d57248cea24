"""The Python API behaves as Python does: a missing file is a
FileNotFoundError, a mistyped keyword names itself (and the flag it
resembles), sim() rows carry their geometry, a frame rendered without a
directory leaves nothing behind, and help() lists every keyword."""

import gc
import pydoc

import pytest

import gfxcache


def test_a_missing_file_is_file_not_found(tmp_path, frame):
    missing = tmp_path / "nowhere.gtr"
    for call in (
        lambda: gfxcache.read_trace(missing),
        lambda: gfxcache.trace_frame(missing),
        lambda: gfxcache.sim(missing, size="1MiB", ways=16, policies="lru"),
        lambda: gfxcache.mrc(missing),
        lambda: gfxcache.study("gspc", tmp_path / "r", trace=missing),
        lambda: gfxcache.sweep(tmp_path / "nowhere.toml", tmp_path / "s"),
    ):
        with pytest.raises(FileNotFoundError, match="nowhere") as e:
            call()
        assert e.value.errno == 2
    with pytest.raises(FileNotFoundError, match="no built-in scene of that name"):
        gfxcache.render("nowhere.obj")
    # A file named by a flag, found missing by the Rust side.
    with pytest.raises(FileNotFoundError, match="nowhere-machine.toml") as e:
        gfxcache.study("nbtc", tmp_path / "n", scene="match3", machine=str(tmp_path / "nowhere-machine.toml"))
    assert e.value.errno == 2


def test_a_mistyped_keyword_names_itself_and_the_flag_it_resembles(frame):
    with pytest.raises(gfxcache.UnknownKeywordError) as e:
        gfxcache.sim(frame["trace"], size="1MiB", ways=16, policies="lru", bank=4)
    msg = str(e.value)
    assert "sim() got an unexpected keyword argument 'bank'" in msg, msg
    assert "did you mean 'banks'?" in msg, msg
    # As Python's own unexpected keyword, and as every other bad argument.
    assert isinstance(e.value, TypeError) and isinstance(e.value, ValueError)
    with pytest.raises(gfxcache.UnknownKeywordError, match=r"render\(\) .* 'widht'.*'width'"):
        gfxcache.render("atrium", widht=64)
    with pytest.raises(gfxcache.UnknownKeywordError, match=r"study\(\) .* 'l2_sise'.*'l2_size'"):
        gfxcache.study("tcor", "unused", scene="match3", l2_sise="1MiB")
    with pytest.raises(gfxcache.UnknownKeywordError, match=r"'zzz'"):
        gfxcache.mrc(frame["trace"], zzz=1)


def test_sim_rows_carry_the_geometry_and_policy(frame):
    df = gfxcache.sim(frame["trace"], size="512KiB", ways=8, policies=["lru", "drrip"], block=128)
    for col in ("policy", "stream", "size_bytes", "ways", "block", "sets", "banks", "misses", "miss_ratio"):
        assert col in df.columns, col
    assert set(df.policy) == {"lru", "drrip"}
    assert (df.size_bytes == 512 * 1024).all()
    assert (df.ways == 8).all() and (df.block == 128).all()
    assert (df.sets == 512 * 1024 // (8 * 128)).all()


def test_a_frame_without_a_directory_leaves_nothing_behind():
    with gfxcache.render("atrium", width=64, height=36) as f:
        d = f.directory
        assert (d / "frame.gtr").is_file() and f["picture"].shape == (36, 64, 4)
        # Its trace is usable while the frame is held.
        assert gfxcache.read_trace(f["trace"])["addr"].size > 0
    assert not d.exists()

    f = gfxcache.render("atrium", width=64, height=36)
    d = f.directory
    f.cleanup()
    assert not d.exists()

    f = gfxcache.render("atrium", width=64, height=36)
    d = f.directory
    del f
    gc.collect()
    assert not d.exists()


def test_a_frame_given_a_directory_keeps_it(tmp_path):
    with gfxcache.render("atrium", out_dir=tmp_path / "f", width=64, height=36) as f:
        pass
    assert (tmp_path / "f" / "frame.gtr").is_file() and f.directory == tmp_path / "f"


def test_a_failed_render_removes_its_temporary_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    # Refused by the command's own checks, before any work: a ValueError.
    with pytest.raises(ValueError, match="resolution 0x36 out of range"):
        gfxcache.render("atrium", width=0, height=36)
    assert list(tmp_path.iterdir()) == []


def test_help_lists_every_keyword():
    text = pydoc.render_doc(gfxcache.sim, renderer=pydoc.plaintext)
    for kw in ("banks:", "index:", "write:", "no_write_allocate:", "single_thread:"):
        assert kw in text, kw
    assert "Default: 1." in text.split("banks:")[1].splitlines()[0]
    study = pydoc.render_doc(gfxcache.study, renderer=pydoc.plaintext)
    for cmd, kw in (("gspc", "work_cycles:"), ("tcor", "l2_size:"), ("nuca", "tc_size:"), ("nbtc", "rb_entries:")):
        assert f"the flags of ``gfxcache {cmd}``" in study and kw in study, (cmd, kw)
    render = pydoc.render_doc(gfxcache.render, renderer=pydoc.plaintext)
    assert "width:" in render and "frames:" in render
