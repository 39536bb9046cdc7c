"""gunicorn settings that profile each web worker with cProfile (``capacity.py --profile``).

Each worker profiles from its start to its exit and writes ``web-<pid>.prof`` into
``LOAD_PROFILE_DIR``; ``python -m pstats`` reads them. The clock is the process's CPU
time, so a crowded machine (the wait for a core) does not count. The profiler roughly
doubles the web CPU: for where the time goes, not for capacity figures.
"""

from __future__ import annotations

import cProfile
import os
import time
from typing import Any

_profiler: cProfile.Profile | None = None


def post_worker_init(worker: Any) -> None:
    global _profiler
    _profiler = cProfile.Profile(time.process_time)  # CPU, not the wait for a core
    _profiler.enable()


def worker_exit(server: Any, worker: Any) -> None:
    if _profiler is not None:
        _profiler.disable()
        path = os.path.join(os.environ["LOAD_PROFILE_DIR"], f"web-{os.getpid()}.prof")
        _profiler.dump_stats(path)
