"""The README's Python example runs as written (in a scratch directory,
plotting to a file)."""

import re
from pathlib import Path

import matplotlib

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_example_runs(tmp_path, monkeypatch):
    text = README.read_text()
    m = re.search(r"<!-- python-example -->\s*```python\n(.*?)```\s*<!-- /python-example -->", text, re.S)
    assert m, "the README's example is marked"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    matplotlib.use("Agg")
    scope = {}
    exec(compile(m.group(1), "README.md", "exec"), scope)
    assert (tmp_path / "out" / "miss-ratios.png").stat().st_size > 0
    ratios = scope["ratios"]
    assert list(ratios.columns) == ["drrip", "gspc", "lru"]
    assert (ratios.values > 0).all() and (ratios.values <= 1).all()
    # LRU's miss ratio never rises with capacity: doubling the sets of a
    # 16-way cache (modulo index) keeps LRU's inclusion property.
    lru = ratios["lru"].tolist()
    assert lru == sorted(lru, reverse=True), lru
