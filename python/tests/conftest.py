import pytest


@pytest.fixture(scope="session")
def frame(tmp_path_factory):
    """One small rendered frame, shared by the tests that read it."""
    import gfxcache

    out = tmp_path_factory.mktemp("frame")
    return gfxcache.render("atrium", out_dir=out, width=160, height=90)
