"""A local sweep's worker process: ``python .../gfxcache/_worker.py NATIVE
render DIR`` or ``... NATIVE job STORE``, the frame point or job as JSON on
stdin, NATIVE being the path of the package's native module. The sweep
(``gfxcache.sweep(..., backend="local")``) starts one per frame and per
job, so that one that aborts or is killed fails alone; this is the
``gfxcache sweep-worker`` subcommand run by the package's own native code.

It is run as a script and loads the native module from its file alone,
without the package (whose NumPy import would cost every job a few tenths
of a second).

Errors end as the command line's do: ``error: ...`` as the last line on
stderr and a non-zero exit. SIGTERM (sent by the sweep when it is asked to
stop, or when the sweep's process ends) stops the work as Ctrl-C does, so
that its unfinished outputs are removed."""

import importlib.machinery
import importlib.util
import signal
import sys


def native(path: str):
    loader = importlib.machinery.ExtensionFileLoader("gfxcache._native", path)
    spec = importlib.util.spec_from_file_location("gfxcache._native", path, loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def main() -> int:
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        native(sys.argv[1]).run(["sweep-worker", *sys.argv[2:]])
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # the reason the sweep reports for this job
        print("error: " + " ".join(str(e).split("\n")), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
