"""A local sweep's worker process: ``python -m gfxcache._worker render DIR``
or ``... job STORE``, the frame point or job as JSON on stdin. The sweep
(``gfxcache.sweep(..., backend="local")``) starts one per frame and per
job, so that one that aborts or is killed fails alone; this is the
``gfxcache sweep-worker`` subcommand run by the package's own native code.

Errors end as the command line's do: ``error: ...`` as the last line on
stderr and a non-zero exit. SIGTERM (sent by the sweep when it is asked to
stop, or when the sweep's process ends) stops the work as Ctrl-C does, so
that its unfinished outputs are removed."""

import signal
import sys


def main() -> int:
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        from gfxcache import _native

        _native.run(["sweep-worker", *sys.argv[1:]])
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # the reason the sweep reports for this job
        print("error: " + " ".join(str(e).split("\n")), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
