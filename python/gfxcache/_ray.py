"""A sweep on Ray: the jobs of a sweep file as Ray tasks, the frames each
rendered once (a task per frame) into the shared result store, each job's
result kept there as it finishes, exactly as a local sweep keeps it. A
sweep started again runs only what has no result; the tables and the page
at the end are the local sweep's (the same code makes them from the store).

The driver holds the store's lock for the whole run (a second sweep on it
waits, naming this one) and first removes what killed runs left in it.

The store (``out``) must be a directory every worker sees: the frames and
results pass through it, not through Ray's object store, so that a killed
driver loses nothing finished. A task whose worker crashes (after Ray's own
retries) fails its job only, as any other failure: it is listed with the
reason, and the tables of the other jobs are written."""

from __future__ import annotations

import json
import sys
import time
from typing import Optional

from . import _native


def _render(exp: str, out: str, index: int):
    from gfxcache import _native as native

    try:
        native.sweep_render(exp, out, index)
        return None
    except Exception as e:  # reported, the other frames go on
        return str(e)


def _job(exp: str, out: str, index: int):
    from gfxcache import _native as native

    try:
        native.sweep_job(exp, out, index)
        return None
    except Exception as e:  # reported, the other jobs go on
        return str(e)


def _outcome(ray, ref) -> Optional[str]:
    """A task's error (``None`` if it succeeded), whether the task said so
    itself or Ray did: a worker that crashed (an abort, an out-of-memory
    kill), a lost node, a cancelled task fail that task only."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayError as e:
        reason = str(e).strip().splitlines()
        return f"{type(e).__name__}: {reason[0] if reason else 'no reason given'}"


def sweep_on_ray(exp: str, out: str, address: Optional[str]) -> dict:
    import ray

    if not ray.is_initialized():
        ray.init(address=address)
    lock = _native.sweep_lock(exp, out)
    try:
        return _run(ray, exp, out)
    finally:
        lock.release()


def _run(ray, exp: str, out: str) -> dict:
    plan = json.loads(_native.sweep_plan(exp, out))
    jobs = plan["jobs"]
    pending = [j for j in jobs if not j["done"]]
    frames = sorted({j["frame"] for j in pending})
    render = ray.remote(_render)
    run = ray.remote(_job)
    start = time.monotonic()

    # Each frame once, on whichever worker; its jobs wait for it.
    rendering = {f: render.remote(exp, out, f) for f in frames}
    broken = {}
    frame_errors = {f: _outcome(ray, ref) for f, ref in rendering.items()}
    for f, e in frame_errors.items():
        if e is not None:
            broken[f] = e
    rendered = sum(1 for f, e in frame_errors.items() if e is None and not plan["frames"][f]["done"])

    failed = []
    running = {}
    for j in pending:
        if j["frame"] in broken:
            failed.append({"job": j["job"], "error": f"rendering its frame: {broken[j['frame']]}"})
        else:
            running[run.remote(exp, out, j["index"])] = j
    done = len(jobs) - len(pending)
    remaining = list(running)
    while remaining:
        ready, remaining = ray.wait(remaining, num_returns=1)
        for ref in ready:
            j = running[ref]
            error = _outcome(ray, ref)
            if error is not None:
                failed.append({"job": j["job"], "error": error})
            done += 1
            elapsed = time.monotonic() - start
            failures = f", {len(failed)} failed" if failed else ""
            print(f"sweep (ray): {done}/{len(jobs)} jobs ended{failures} ({elapsed:.0f}s elapsed)",
                  file=sys.stderr)
    summary = {
        "jobs": len(jobs),
        "already_done": len(jobs) - len(pending),
        "ran": len(pending) - len(failed),
        "frames_rendered": rendered,
        "failed": failed,
    }
    failures = (
        f"{len(failed)} of {len(jobs)} jobs failed ("
        + "; ".join(f"{f['job']}: {f['error']}" for f in failed)
        + f"); every other result is kept in {out}"
    )
    try:
        result = json.loads(_native.sweep_finish(exp, out, json.dumps(summary)))
    except Exception as e:
        if failed:
            raise RuntimeError(f"{failures}, but the tables could not be written: {e}") from e
        raise
    if failed:
        raise RuntimeError(failures)
    return result
