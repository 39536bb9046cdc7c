"""gunicorn settings that profile each web worker with cProfile (``capacity.py --profile``).

Only the requests of the steps' measured windows are profiled: ``capacity.py`` puts the
file ``measuring`` into ``LOAD_PROFILE_DIR`` while it measures, so the people's set-up
and the newcomers' ramp stay out (a profile of the whole run was mostly those). Each
worker writes ``web-<pid>.prof`` into that folder at its exit; ``python -m pstats``
reads them. The clock is the process's CPU time, so a crowded machine (the wait for a
core) does not count. The profiler roughly doubles the web CPU: for where the time goes,
not for capacity figures.
"""

from __future__ import annotations

import cProfile
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

MEASURING = "measuring"  # the flag's name in LOAD_PROFILE_DIR (capacity.py)

_profiler: cProfile.Profile | None = None


def post_worker_init(worker: Any) -> None:
    global _profiler
    _profiler = cProfile.Profile(time.process_time)  # CPU, not the wait for a core


def pre_request(worker: Any, req: Any) -> None:
    worker.log.debug("%s %s", req.method, req.path)  # what gunicorn's own hook does
    if _profiler is not None and os.path.exists(_flag()):
        _profiler.enable()


def post_request(worker: Any, req: Any, environ: Any, resp: Any) -> None:
    # After the response was sent and closed: the work handed off after it counts too.
    if _profiler is not None:
        _profiler.disable()


def worker_exit(server: Any, worker: Any) -> None:
    if _profiler is not None:
        path = os.path.join(os.environ["LOAD_PROFILE_DIR"], f"web-{os.getpid()}.prof")
        _profiler.dump_stats(path)


def _flag() -> str:
    return os.path.join(os.environ["LOAD_PROFILE_DIR"], MEASURING)


@contextmanager
def profiled_window() -> Iterator[None]:
    """The runner's side (``capacity.py``): with ``--profile`` (``LOAD_PROFILE_DIR``)
    the web workers profile the requests made meanwhile, and only those."""
    folder = os.environ.get("LOAD_PROFILE_DIR")
    if not folder:
        yield
        return
    flag = Path(folder, MEASURING)
    flag.touch()
    try:
        yield
    finally:
        flag.unlink(missing_ok=True)
