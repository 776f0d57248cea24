"""gfxcache: a memory-hierarchy simulator for graphics GPUs, driven by the
frames it renders itself, from Python.

The functions here run the same Rust code as the ``gfxcache`` command line,
in this process (no subprocess): traces come back as NumPy arrays, cache
results as pandas DataFrames, studies as plain Python data. Every knob of a
command is a keyword argument here: ``flag_name=value`` is ``--flag-name
value``, ``True`` is the bare flag, a list is ``a,b,c``.

    >>> import gfxcache
    >>> t = gfxcache.render("atrium", width=320, height=180, out_dir="frame")
    >>> gfxcache.sim(t["trace"], size="1MiB", ways=16, policies=["lru", "drrip", "gspc"])
"""

from __future__ import annotations

import difflib as _difflib
import errno as _errno
import functools as _functools
import json as _json
import os
import re as _re
import sys as _sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, Iterable, Mapping, Optional, Sequence, Union

import numpy as np

if TYPE_CHECKING:
    import pandas as pd

from . import _native

# A local sweep runs each frame and job in a worker process: this
# interpreter with the worker script beside the native module.
_native.set_worker_command(
    _sys.executable,
    str(Path(_native.__file__).with_name("_worker.py")),
    _native.__file__,
)

__version__ = _native.__version__

#: The streams' names, indexed by their ids (``stream`` arrays hold ids).
STREAMS: list = list(_native.stream_names())

PathLike = Union[str, os.PathLike]

__all__ = [
    "STREAMS",
    "Frame",
    "UnknownKeywordError",
    "command",
    "hierarchy",
    "mrc",
    "read_trace",
    "render",
    "run",
    "sim",
    "study",
    "study_tables",
    "sweep",
    "sweep_table",
    "trace_frame",
    "write_trace",
]


def flags(**kw: Any) -> list:
    """Keyword arguments as command-line words: ``fetcher_mshrs=16`` is
    ``--fetcher-mshrs=16``, ``True`` the bare flag, ``False``/``None``
    nothing, a list or tuple ``a,b,c``. A value is joined to its flag
    with ``=``, so that a negative number is read (and refused) as the
    flag's value, not as another flag."""
    words = []
    for key, value in kw.items():
        name = "--" + key.replace("_", "-")
        if value is None or value is False:
            continue
        if value is True:
            words.append(name)
        elif isinstance(value, (list, tuple)):
            words.append(f"{name}={','.join(str(v) for v in value)}")
        else:
            words.append(f"{name}={value}")
    return words


# clap's words for a flag's bad value: "invalid value '-5' for '--width <PX>'".
_INVALID = _re.compile(r"invalid value '(?P<value>[^']*)' for '--(?P<flag>[A-Za-z0-9-]+)")


def _usage_error(e: ValueError) -> ValueError:
    """A usage error of the command line, led by the keyword argument and
    the value it refused (``width=-5: ...``) when it names one."""
    text = str(e)
    m = _INVALID.search(text)
    if m is None:
        return e
    head = f"{m['flag'].replace('-', '_')}={m['value']}: "
    return ValueError(head + text.removeprefix("error: "))


def run(*argv: Any) -> None:
    """Runs a command line as ``gfxcache`` would (its tables on stdout):
    ``gfxcache.run("sim", "t.gtr", "--size", "8MiB", "--ways", 16, "--policy", "lru")``.
    ``run("--version")`` and ``--help`` print what the command prints.
    Ctrl-C stops the run and raises ``KeyboardInterrupt``."""
    try:
        _native.run([str(a) for a in argv])
    except ValueError as e:
        raise _usage_error(e) from None


class UnknownKeywordError(TypeError, ValueError):
    """A keyword argument that names no flag of the command: a
    ``TypeError``, as Python's own for an unexpected keyword, and a
    ``ValueError``, as every other bad argument here."""


@_functools.lru_cache(maxsize=None)
def _flags_of(cmd: str) -> Dict[str, dict]:
    """The flags of ``gfxcache CMD`` by keyword: help text, default,
    possible values, whether it takes a value."""
    return {f["keyword"]: f for f in _json.loads(_native.command_flags(cmd))}


def _check_keywords(caller: str, cmd: str, kw: Mapping[str, Any]) -> None:
    """Refuses, before any work, a keyword that is no flag of ``cmd``,
    with the nearest flag's keyword if one is close."""
    known = _flags_of(cmd)
    for key in kw:
        if key in known:
            continue
        near = _difflib.get_close_matches(key, list(known), n=1)
        hint = f"; did you mean {near[0]!r}?" if near else ""
        raise UnknownKeywordError(
            f"{caller}() got an unexpected keyword argument {key!r}{hint} "
            f"(its keywords are the flags of `gfxcache {cmd}`: help(gfxcache.{caller}))"
        )


def _keywords_doc(cmd: str, skip: Iterable[str] = ()) -> str:
    """The flags of ``gfxcache CMD`` as a docstring section, one keyword a
    line with its help, values and default."""
    skip = set(skip)
    lines = [f"Keyword arguments, the flags of ``gfxcache {cmd}``:", ""]
    for f in _flags_of(cmd).values():
        if f["keyword"] in skip or f["hidden"]:
            continue
        text = " ".join((f["help"] or "").split())
        if f["values"]:
            text += f" One of: {', '.join(f['values'])}."
        if f["default"]:
            text += f" Default: {', '.join(f['default'])}."
        if not f["takes_value"]:
            text += " (True for the flag.)"
        lines.append(f"    {f['keyword']}: {text}")
    return "\n".join("    " + line if line else "" for line in lines)


def _document(func: Any, sections: Sequence[str]) -> None:
    """Appends the keyword sections to ``func``'s docstring, so that
    ``help(func)`` lists every keyword it takes."""
    func.__doc__ = (func.__doc__ or "").rstrip() + "\n\n" + "\n\n".join(sections) + "\n"


def command(*argv: Any, **kw: Any) -> Any:
    """What a command's ``--json`` prints, as Python data, printing nothing:
    ``sim``, ``mrc``, ``render``, ``gspc``, ``tcor``, ``nuca``, ``nbtc``,
    ``compose``, ``sweep``. Keyword arguments are the command's flags; a keyword that
    is none of them is an :class:`UnknownKeywordError`, a flag's bad value
    a ``ValueError`` naming the keyword and the value, a file that is not
    there a ``FileNotFoundError``. Ctrl-C stops the command and raises
    ``KeyboardInterrupt``."""
    if argv and kw:
        _check_keywords("command", str(argv[0]), kw)
    try:
        text = _native.output([str(a) for a in argv] + flags(**kw))
    except ValueError as e:
        raise _usage_error(e) from None
    return _json.loads(text)


# ---------------------------------------------------------------- checks


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _count(name: str, value: Any, what: str, low: int = 1) -> int:
    """``value`` as an int of at least ``low``, or a ``ValueError`` naming
    the argument, the value and ``what`` was expected."""
    if not _is_int(value) or int(value) < low:
        raise ValueError(f"{name}={value!r}: expected {what}")
    return int(value)


def _size_or_word(name: str, value: Any, what: str, word: str = r"\d+\s*[A-Za-z]*") -> str:
    """A size or count given as a positive int or as a word of the form
    ``word`` that the command line reads (``"1MiB"``, ``"full"``; it
    checks the unit), as a word."""
    if isinstance(value, str):
        if _re.fullmatch(r"\s*(?:" + word + r")\s*", value):
            return value
        raise ValueError(f"{name}={value!r}: expected {what}")
    return str(_count(name, value, what))


def _int_array(name: str, value: Any, n: int, dtype: str, high: int, what: str) -> np.ndarray:
    """``value`` (a scalar or ``n`` values) as an array of ``dtype`` after
    checking that every value is an integer from 0 to ``high``: a
    ``ValueError`` names the argument, the first bad value and its index,
    and what was expected (nothing wraps, nothing is truncated)."""
    a = np.asarray(value)
    if a.ndim > 1:
        raise ValueError(f"{name}: expected one value per access, found an array of shape {a.shape}")
    if a.ndim == 1 and len(a) != n:
        raise ValueError(f"{name}: expected {n} values, found {len(a)}")

    def bad(i: Optional[int], v: Any) -> ValueError:
        at = f" at index {i}" if i is not None and a.ndim else ""
        return ValueError(f"{name}={v!r}{at}: expected {what}")

    flat = a.reshape(-1)
    if a.dtype.kind == "O":
        for i, v in enumerate(flat.tolist()):
            if not _is_int(v) or not 0 <= int(v) <= high:
                raise bad(i, v)
        ints = np.array([int(v) for v in flat.tolist()], dtype="u8")
    elif a.dtype.kind in "iu":
        ints = flat
        low_bad = np.flatnonzero(ints < 0) if a.dtype.kind == "i" else ()
        if len(low_bad):
            i = int(low_bad[0])
            raise bad(i, flat[i].item())
        if high < np.iinfo(a.dtype).max:
            high_bad = np.flatnonzero(ints > high)
            if len(high_bad):
                i = int(high_bad[0])
                raise bad(i, flat[i].item())
    else:
        # Floats, booleans, strings: the first value, whatever it is.
        raise bad(0, flat[0].item() if len(flat) else value)
    out = ints.astype(dtype)
    return np.full(n, out[0], dtype=dtype) if a.ndim == 0 else out


# ---------------------------------------------------------------- traces


def read_trace(path: PathLike) -> dict:
    """A trace (``.gtr``, ``.csv``, ``.din``, optionally ``.zst``) as NumPy
    arrays of one length: ``addr`` (uint64), ``size`` (uint32), ``unit``
    (uint16), ``stream`` (uint8 ids into :data:`STREAMS`), ``op`` (uint8, 0
    read, 1 write); ``meta`` is the header (dict). A file that is not there
    is a ``FileNotFoundError``."""
    cols, meta = _native.read_trace(_existing(path, "trace"))
    dtypes = ["<u8", "<u4", "<u2", "u1", "u1"]
    names = ["addr", "size", "unit", "stream", "op"]
    out = {n: np.frombuffer(c, dtype=d) for n, c, d in zip(names, cols, dtypes)}
    out["meta"] = _json.loads(meta)
    return out


def trace_frame(path: PathLike) -> "pd.DataFrame":
    """A trace as a pandas DataFrame: ``addr``, ``size``, ``unit``,
    ``stream`` (categorical, by name), ``op`` (categorical, ``r``/``w``)."""
    import pandas as pd

    t = read_trace(path)
    return pd.DataFrame(
        {
            "addr": t["addr"],
            "size": t["size"],
            "unit": t["unit"],
            "stream": pd.Categorical.from_codes(t["stream"], categories=STREAMS),
            "op": pd.Categorical.from_codes(t["op"], categories=["r", "w"]),
        }
    )


def _stream_ids(stream: Any, n: int) -> np.ndarray:
    what = f"a stream name ({', '.join(STREAMS)}) or id 0 to {len(STREAMS) - 1}"
    if isinstance(stream, str):
        if stream not in STREAMS:
            raise ValueError(f"stream={stream!r}: unknown stream {stream!r}; expected {what}")
        return np.full(n, STREAMS.index(stream), dtype="u1")
    if hasattr(stream, "cat"):  # a pandas categorical Series of names
        return _stream_ids(np.asarray(stream.astype(str)), n)
    s = np.asarray(stream)
    if s.dtype.kind in "US" or (s.dtype.kind == "O" and any(isinstance(x, str) for x in s.reshape(-1).tolist())):
        index = {name: i for i, name in enumerate(STREAMS)}
        for i, x in enumerate(s.reshape(-1).tolist()):
            if x not in index:
                raise ValueError(f"stream={x!r} at index {i}: unknown stream {x!r}; expected {what}")
        ids = np.array([index[x] for x in s.reshape(-1).tolist()], dtype="u1")
        return _int_array("stream", ids if s.ndim else ids[0], n, "u1", len(STREAMS) - 1, what)
    return _int_array("stream", stream, n, "u1", len(STREAMS) - 1, what)


def _op_ids(op: Any, n: int) -> np.ndarray:
    what = "'r' or 'w', 0 (read) or 1 (write), or booleans (write)"
    if isinstance(op, str):
        if op not in ("r", "w"):
            raise ValueError(f"op={op!r}: expected {what}")
        return np.full(n, 1 if op == "w" else 0, dtype="u1")
    o = np.asarray(op)
    if o.dtype.kind in "OUS" or hasattr(op, "cat"):
        names = np.asarray(o.astype(str)).reshape(-1)
        for i, x in enumerate(names.tolist()):
            if x not in ("r", "w"):
                raise ValueError(f"op={x!r} at index {i}: expected {what}")
        return _int_array("op", (names == "w").astype("u1") if o.ndim else int(names[0] == "w"),
                          n, "u1", 1, what)
    if o.dtype == bool:
        return _int_array("op", o.astype("u1"), n, "u1", 1, what)
    return _int_array("op", op, n, "u1", 1, what)


def write_trace(
    path: PathLike,
    addr: Any,
    stream: Any = "other",
    op: Any = "r",
    size: Any = 64,
    unit: Any = 0,
) -> int:
    """Writes a trace (format by extension: ``.gtr``, ``.csv``, ``.din``,
    ``+ .zst``) from arrays of one length, or from a DataFrame or dict with
    those columns as ``addr``; scalars apply to every access. ``stream``:
    names or ids; ``op``: ``r``/``w``, 0/1 or booleans (write). Returns the
    accesses written. The file is written whole or not at all. Every value
    is checked, not wrapped: a negative or float address, a ``unit`` past
    65535 or an unknown stream is a ``ValueError`` naming the argument, the
    value and its index."""
    if isinstance(addr, Mapping) or hasattr(addr, "columns"):
        t = addr
        keys = t.keys() if isinstance(t, Mapping) else t.columns
        stream = t["stream"] if "stream" in keys else stream
        op = t["op"] if "op" in keys else op
        size = t["size"] if "size" in keys else size
        unit = t["unit"] if "unit" in keys else unit
        addr = t["addr"]
    n = np.asarray(addr).reshape(-1).shape[0]
    a = _int_array("addr", np.asarray(addr).reshape(-1) if np.ndim(addr) else [addr], n,
                   "<u8", 2**64 - 1, "byte addresses, integers 0 to 2**64-1")
    return _native.write_trace(
        os.fspath(path),
        a.tobytes(),
        _int_array("size", size, n, "<u4", 2**32 - 1,
                   "access sizes in bytes, integers 0 to 2**32-1").tobytes(),
        _int_array("unit", unit, n, "<u2", 2**16 - 1, "unit ids, integers 0 to 65535").tobytes(),
        _stream_ids(stream, n).tobytes(),
        _op_ids(op, n).tobytes(),
        f"gfxcache {__version__} python",
    )


def _existing(path: PathLike, what: str) -> str:
    """``path`` as a string, or a ``FileNotFoundError`` naming it."""
    p = os.fspath(path)
    if not os.path.exists(p):
        raise FileNotFoundError(_errno.ENOENT, f"{what} {p}: no such file", p)
    return p


class _TracePath:
    """A trace given as a path, or as arrays written to a temporary
    ``.gtr`` for the length of a ``with``."""

    def __init__(self, trace: Any):
        self.trace = trace
        self.tmp: Optional[tempfile.TemporaryDirectory] = None

    def __enter__(self) -> str:
        if isinstance(self.trace, (str, os.PathLike)):
            return _existing(self.trace, "trace")
        self.tmp = tempfile.TemporaryDirectory(prefix="gfxcache-")
        path = os.path.join(self.tmp.name, "trace.gtr")
        try:
            write_trace(path, self.trace)
        except ValueError as e:
            self.tmp.cleanup()
            raise ValueError(f"trace: {e}") from None
        return path

    def __exit__(self, *exc: Any) -> None:
        if self.tmp is not None:
            self.tmp.cleanup()


# ---------------------------------------------------------------- caches

_COUNTS = ["accesses", "hits", "misses", "fills", "bypasses", "evictions", "writebacks"]


def _count_row(d: Mapping) -> dict:
    row = {k: d[k] for k in _COUNTS if k in d}
    acc = d.get("accesses", 0)
    row["miss_ratio"] = d.get("miss_ratio", d["misses"] / acc if acc else float("nan"))
    return row


def sim(
    trace: Any,
    size: Union[str, int],
    ways: Union[str, int],
    policies: Union[str, Sequence[str]],
    block: int = 64,
    by_stream: bool = True,
    **kw: Any,
) -> "pd.DataFrame":
    """Simulates ``trace`` (a path, or arrays / a DataFrame as
    :func:`write_trace` takes them) through one cache geometry under each
    policy (specs as ``gfxcache sim --policy`` takes them, e.g.
    ``"gspc:t=4"``). Returns a DataFrame with one row per policy x stream
    (``all`` first; only ``all`` with ``by_stream=False``): the policy,
    the stream, the geometry (``size_bytes``, ``ways``, ``block``,
    ``sets``, ``banks``), the counts and the miss ratio; ``df.attrs``
    holds the whole configuration. Other flags of ``gfxcache sim`` as
    keywords (``banks=4``, ``index="xor"``, ``write="through"``). A bad
    size, way count, block or trace value is a ``ValueError`` naming the
    argument and the value, an unknown keyword an
    :class:`UnknownKeywordError`, a trace file that is not there a
    ``FileNotFoundError``; Ctrl-C stops the simulation
    (``KeyboardInterrupt``)."""
    import pandas as pd

    _check_keywords("sim", "sim", kw)
    size = _size_or_word("size", size, "a positive size in bytes (an int, or a string such as '1MiB')")
    ways = _size_or_word("ways", ways, "a positive way count (an int, or 'full')", r"\d+|full")
    block = _count("block", block, "a positive block size in bytes (an int)")
    if isinstance(policies, str):
        policies = [policies]
    with _TracePath(trace) as path:
        words = ["sim", path, f"--size={size}", f"--ways={ways}", f"--block={block}"]
        for p in policies:
            words.append(f"--policy={p}")
        out = command(*words, **kw)
    config = out["config"]
    geometry = {
        "size_bytes": config["size"],
        "ways": config["ways"],
        "block": config["block"],
        "sets": config["sets"],
        "banks": config["banks"],
    }
    rows = []
    for r in out["results"]:
        head = {"policy": r["policy"]}
        rows.append({**head, "stream": "all", **geometry, **_count_row(r)})
        if by_stream:
            for name, s in r["per_stream"].items():
                rows.append({**head, "stream": name, **geometry, **_count_row(s)})
    df = pd.DataFrame(rows)
    df.attrs["config"] = out["config"]
    return df


def mrc(trace: Any, block: int = 64, sets: Optional[int] = None, **kw: Any) -> "pd.DataFrame":
    """Miss-ratio curves of ``trace``. Without ``policy``, LRU's from one
    pass: every fully associative size, or with ``sets`` every way count
    up to ``max_ways``; one row per size x stream (``all`` first):
    ``size_bytes``, ``blocks``, ``ways``, ``stream``, ``accesses``,
    ``misses``, ``miss_ratio``.

    With ``policy`` (specs as ``gfxcache sim --policy`` takes them, a
    string or a list), each policy's curve by SHARDS spatial sampling
    (``sampling_rate``, ``sizes``, ``ways``, ``exact``, ...: the flags of
    ``gfxcache mrc``): one row per policy x size x stream, with
    ``policy``, ``sets``, ``resolved`` (the mini-cache is large enough to
    trust), the sampled ``accesses`` and ``misses``, the estimated
    ``miss_ratio`` and, where the exact value is known (``exact=True``,
    or LRU's one-pass curve), ``exact_miss_ratio`` and ``abs_error``.

    ``df.attrs`` holds the trace's totals (and the sampling)."""
    import pandas as pd

    _check_keywords("mrc", "mrc", kw)
    block = _count("block", block, "a positive block size in bytes (an int)")
    if sets is not None:
        sets = _count("sets", sets, "a positive set count (an int) or None")
    policy = kw.pop("policy", None)
    if policy is not None and not isinstance(policy, str):
        policy = ",".join(policy)
    with _TracePath(trace) as path:
        out = command("mrc", path, f"--block={block}", sets=sets, policy=policy, **kw)
    if "curves" in out:
        df = pd.DataFrame(_sampled_rows(out))
        df.attrs.update({k: v for k, v in out.items() if k != "curves"})
        return df
    rows = []
    for p in out["curve"]:
        head = {"size_bytes": p["size"], "blocks": p["blocks"], "ways": p["ways"]}
        rows.append({**head, "stream": "all", "accesses": out["block_accesses"],
                     "misses": p["misses"], "miss_ratio": p["miss_ratio"]})
        for s in p["per_stream"]:
            rows.append({**head, "stream": s["stream"], "accesses": s["accesses"],
                         "misses": s["misses"], "miss_ratio": s["miss_ratio"]})
    df = pd.DataFrame(rows)
    df.attrs.update({k: v for k, v in out.items() if k != "curve"})
    return df


def _sampled_rows(out: Mapping) -> list:
    """The rows of a SHARDS ``mrc --json`` document (see :func:`mrc`)."""
    rows = []
    for curve in out["curves"]:
        for p in curve["points"]:
            exact = p.get("exact") or {}
            head = {
                "policy": curve["policy"],
                "size_bytes": p["size"],
                "blocks": p["blocks"],
                "sets": p["sets"],
                "ways": p["ways"],
                "resolved": p["resolved"],
            }
            rows.append({**head, "stream": "all", "accesses": p["sampled_accesses"],
                         "misses": p["misses"], "miss_ratio": p["miss_ratio"],
                         "exact_miss_ratio": exact.get("miss_ratio", float("nan")),
                         "abs_error": exact.get("abs_error", float("nan"))})
            for s in p["per_stream"]:
                rows.append({**head, "stream": s["stream"], "accesses": s["accesses"],
                             "misses": s["misses"], "miss_ratio": s["miss_ratio"],
                             "exact_miss_ratio": float("nan"), "abs_error": float("nan")})
    return rows


_LEVEL_COUNTS = _COUNTS + ["received", "back_invalidations"]


def hierarchy(
    trace: Any,
    levels: Union[str, Sequence[str], PathLike],
    policies: Union[str, Sequence[str]],
    by_stream: bool = True,
    **kw: Any,
) -> "pd.DataFrame":
    """Simulates ``trace`` through a hierarchy of caches under each policy
    (``gfxcache sim --levels`` or ``--hierarchy``). ``levels`` is a list
    of ``NAME:SIZE:WAYS[:INCLUSION]`` specs (``inclusive``,
    ``non-inclusive``, the default, or ``exclusive``), the same
    comma-separated, or the path of a hierarchy TOML file (``.toml``).
    Returns one row per policy x level x stream (``all`` first; only
    ``all`` with ``by_stream=False``): ``policy``, ``level``, its
    geometry (``size_bytes``, ``ways``, ``sets``, ``block``), its
    ``level_policy`` and ``inclusion`` (missing at the first level), the counts (``accesses``,
    ``hits``, ``misses``, ``fills``, ``bypasses``, ``evictions``,
    ``writebacks``, ``received`` from above, ``back_invalidations``) and
    the miss ratio; ``df.attrs["memory"]`` holds each policy's memory
    reads and writes. Other flags of ``gfxcache sim`` as keywords."""
    import pandas as pd

    _check_keywords("hierarchy", "sim", kw)
    for flag in ("levels", "hierarchy", "size", "ways"):
        if flag in kw:
            raise TypeError(f"hierarchy() takes the levels as its `levels` argument, not `{flag}=`")
    if isinstance(policies, str):
        policies = [policies]
    if isinstance(levels, (str, os.PathLike)) and str(levels).endswith(".toml"):
        spec = ["--hierarchy", _existing(levels, "hierarchy file")]
    elif isinstance(levels, str):
        spec = [f"--levels={levels}"]
    else:
        spec = [f"--levels={','.join(levels)}"]
    with _TracePath(trace) as path:
        words = ["sim", path, *spec] + [f"--policy={p}" for p in policies]
        out = command(*words, **kw)
    rows = []
    memory = {}
    for r in out["results"]:
        memory[r["policy"]] = r["memory"]
        for level in r["levels"]:
            head = {
                "policy": r["policy"],
                "level": level["name"],
                "size_bytes": level["size"],
                "ways": level["ways"],
                "sets": level["sets"],
                "block": level["block"],
                "level_policy": level["policy"],
                "inclusion": level["inclusion"],
            }
            counts = {k: level[k] for k in _LEVEL_COUNTS}
            rows.append({**head, "stream": "all", **counts, "miss_ratio": level["miss_ratio"]})
            if by_stream:
                for name, c in level["per_stream"].items():
                    counts = {k: c[k] for k in _LEVEL_COUNTS}
                    acc = c["accesses"]
                    ratio = c["misses"] / acc if acc else float("nan")
                    rows.append({**head, "stream": name, **counts, "miss_ratio": ratio})
    df = pd.DataFrame(rows)
    df.attrs["memory"] = memory
    return df


# ---------------------------------------------------------------- frames


def read_png(path: PathLike) -> np.ndarray:
    """A PNG as an array of shape (height, width, 4), RGBA bytes."""
    w, h, data = _native.read_png(os.fspath(path))
    return np.frombuffer(data, dtype="u1").reshape(h, w, 4)


class Frame(dict):
    """What :func:`render` gives: ``trace`` (the path of ``frame.gtr``),
    ``picture`` (an array, height x width x 4) and ``summary`` (what
    ``gfxcache render --json`` prints); ``directory`` is where its files
    are. Rendered without ``out_dir``, its files are in a temporary
    directory that goes with the Frame, as a ``tempfile.TemporaryDirectory``
    does: at the end of a ``with`` block, on :meth:`cleanup`, or when the
    Frame is garbage-collected. Keep the Frame while you use its trace."""

    _tmp: Optional[tempfile.TemporaryDirectory] = None

    @property
    def directory(self) -> Path:
        return Path(self["trace"]).parent

    def cleanup(self) -> None:
        """Removes the temporary directory of a frame rendered without
        ``out_dir`` (nothing otherwise)."""
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    def __enter__(self) -> "Frame":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.cleanup()


@_functools.lru_cache(maxsize=None)
def _builtin_scenes() -> frozenset:
    return frozenset(_native.builtin_scenes())


def render(
    scene: str,
    out_dir: Optional[PathLike] = None,
    mode: str = "imr",
    **kw: Any,
) -> Frame:
    """Renders a built-in scene (``gfxcache scenes``) or a scene file
    (``.obj``, ``.gltf``, ``.glb``, ``.ac``, ``.toml``) into ``out_dir``:
    ``frame.gtr`` (the LLC stream; with ``mode="tbr"``, tile by tile, the
    L2's) and ``frame.png``. Without ``out_dir`` they go to a temporary
    directory removed with the returned :class:`Frame` (``with
    gfxcache.render(...) as frame:``). A scene that is neither built in nor
    a file is a ``FileNotFoundError``; flags of ``gfxcache render`` as
    keywords: ``width=``, ``height=``, ``frames=``, ``preset=``,
    ``fragment_processors=``, ``texture_requests="frame.gtq.zst"``, ..."""
    _check_keywords("render", "render", kw)
    scene = os.fspath(scene)
    if scene not in _builtin_scenes() and not os.path.exists(scene):
        names = ", ".join(sorted(_builtin_scenes()))
        raise FileNotFoundError(
            _errno.ENOENT, f"scene {scene}: no such file, and no built-in scene of that name ({names})", scene
        )
    frame = Frame()
    if out_dir is None:
        frame._tmp = tempfile.TemporaryDirectory(prefix="gfxcache-frame-")
        out = Path(frame._tmp.name)
    else:
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
    trace, png = out / "frame.gtr", out / "frame.png"
    try:
        summary = command("render", "--scene", scene, "--mode", mode,
                          "--out", trace, "--png", png, **kw)
        frame.update(trace=str(trace), picture=read_png(png), summary=summary)
    except BaseException:
        frame.cleanup()
        raise
    return frame


_STUDIES = ("gspc", "tcor", "nuca", "nbtc", "compose")


def study(name: str, out: PathLike, trace: Optional[PathLike] = None, **kw: Any) -> Any:
    """Runs a paper's study (``gspc``, ``tcor``, ``nuca``, ``nbtc``) or the
    designs composed on one machine (``compose``) into the report
    directory ``out`` and returns its report as plain data (its
    ``<name>.json``). The input is ``trace=`` (a ``.gtr``; ``.gtq`` for
    nuca, nbtc and compose), ``scene=`` or ``suite=``; every other flag of
    the command as a keyword (``size="4MiB"``, ``latencies=[50, 300]``,
    ``placements=["private", "dtm-nuca"]``)."""
    if name not in _STUDIES:
        raise ValueError(f"study {name!r}: expected gspc, tcor, nuca, nbtc or compose")
    _check_keywords("study", name, kw)
    words = [name] + ([_existing(trace, "trace")] if trace is not None else [])
    return command(*words, out=os.fspath(out), **kw)


def study_tables(out: PathLike) -> Dict[str, "pd.DataFrame"]:
    """Every table of a study's report directory ``out`` (a scene's, or a
    suite's with its ``scene`` column and ``mean`` rows) as a pandas
    DataFrame, by name (``runs``, ``sweeps``, ``paper``, ...). A table
    written as Parquet is read from it with pyarrow when pyarrow is
    installed: typed columns, and each column's unit and suite-mean rule
    in ``df.attrs["units"]`` and ``df.attrs["mean"]``; otherwise, and for
    a table written only as CSV, from the CSV (the same values)."""
    import pandas as pd

    base = Path(_existing(out, "report directory"))
    try:
        import pyarrow.parquet as pq
    except ImportError:
        pq = None
    tables: Dict[str, "pd.DataFrame"] = {}
    for csv in sorted(base.glob("*.csv")):
        parquet = csv.with_suffix(".parquet")
        if pq is not None and parquet.is_file():
            t = pq.read_table(parquet)
            df = t.to_pandas()
            meta = {k.decode(): v.decode() for k, v in (t.schema.metadata or {}).items()}
            for attr, key in (("units", "gfxcache.unit."), ("mean", "gfxcache.mean.")):
                df.attrs[attr] = {c: meta[key + c] for c in df.columns if key + c in meta}
        else:
            df = pd.read_csv(csv)
        tables[csv.stem] = df
    return tables


# ---------------------------------------------------------------- sweeps


def sweep(
    experiment: PathLike,
    out: Optional[PathLike] = None,
    backend: str = "local",
    jobs: Optional[int] = None,
    address: Optional[str] = None,
    oversubscribe: bool = False,
    max_jobs: Optional[int] = None,
) -> dict:
    """Runs a sweep file (see ``examples/sweeps/README.md``) into ``out``:
    every job without a result, each kept as it finishes, then the tidy
    table and the page. ``backend="local"`` runs the jobs on this machine
    (``jobs`` side by side: at most the machine's cores unless
    ``oversubscribe``); ``backend="ray"`` runs each frame and each job
    as a Ray task on the cluster at ``address`` (or the one this process is
    connected to, or a local one), sharing ``out`` as the store: it must be
    a directory every worker sees. Returns what ``gfxcache sweep --json``
    prints; raises ``RuntimeError`` naming the failed jobs after writing
    the tables of every other one. Ctrl-C stops the sweep (no frame or job
    starts, those running stop at their next batch) and raises
    ``KeyboardInterrupt``; every finished job's result is kept, and the
    sweep run again goes on from there. A sweep file whose axes make more
    than ``max_jobs`` jobs (default 200 000, as ``gfxcache sweep
    --max-jobs``; on Ray always the default) is refused before anything
    runs, as is one whose jobs' flags their commands refuse."""
    if jobs is not None:
        jobs = _count("jobs", jobs, "a positive number of jobs side by side (an int) or None")
    if max_jobs is not None:
        max_jobs = _count("max_jobs", max_jobs, "a number of jobs (an int) or None", low=0)
    experiment = _existing(experiment, "sweep file")
    if backend == "local":
        words = ["sweep", experiment]
        if out is not None:
            words += ["--out", os.fspath(out)]
        if jobs is not None:
            words += ["--jobs", str(jobs)]
        if oversubscribe:
            words += ["--oversubscribe"]
        if max_jobs is not None:
            words += ["--max-jobs", str(max_jobs)]
        return command(*words)
    if backend == "ray":
        from ._ray import sweep_on_ray

        if out is None:
            raise ValueError("backend='ray' needs out=: a directory every worker sees")
        if max_jobs is not None:
            raise ValueError("max_jobs=: backend='ray' takes the default limit (200 000 jobs)")
        return sweep_on_ray(os.path.abspath(experiment), os.path.abspath(out), address)
    raise ValueError(f"backend {backend!r}: expected 'local' or 'ray'")


def sweep_table(out: PathLike, table: str = "sweep") -> "pd.DataFrame":
    """A finished sweep's tidy table as a DataFrame: ``sweep`` (sim and
    mrc), or a study's, e.g. ``gspc-policies`` (``tables/<name>``). Reads
    the Parquet file with pyarrow when it is installed, else the CSV."""
    import pandas as pd

    base = Path(out) if table == "sweep" else Path(out) / "tables"
    try:
        import pyarrow  # noqa: F401

        return pd.read_parquet(base / f"{table}.parquet")
    except ImportError:
        return pd.read_csv(base / f"{table}.csv")


_document(sim, [_keywords_doc("sim", skip=("size", "ways", "block", "policy", "json", "levels", "hierarchy"))])
_document(hierarchy, [_keywords_doc("sim", skip=("size", "ways", "block", "policy", "json", "levels", "hierarchy"))])
_document(mrc, [_keywords_doc("mrc", skip=("block", "sets", "json", "policy"))])
_document(render, [_keywords_doc("render", skip=("scene", "mode", "out", "png", "json"))])
_document(study, [_keywords_doc(s, skip=("out", "json")) for s in _STUDIES])
