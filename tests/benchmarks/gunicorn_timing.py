"""gunicorn settings that time each request inside the web worker (``bench_web``).

From gunicorn's ``pre_request`` (the request read and parsed) to its ``post_request``
(the response written and closed, so what runs once the response has gone is in it:
``games.handoff``, ``games.keptafter``): the wall and CPU time of Django's handling,
without the connection, the parsing and the client's side. For sync workers, which answer
one request at a time (as ``bench_web`` runs gunicorn). Requests are grouped by the
``X-Bench-Kind`` header the bench sends; each worker writes ``timing-<pid>.json`` into
``BENCH_TIMING_DIR`` when it exits (``kind -> [[wall ms, cpu ms, status], ...]``), and
the CPU of its whole life beside it (``process-<pid>.json``). With it, a
ratio of latencies can be split into what Django spends and what every request costs
around it, which a change in Django cannot remove; and a capacity run's web CPU split by
the kind of request (``kindcpu``).
"""

from __future__ import annotations

import json
import os
import time
from collections import defaultdict
from typing import Any

_started: dict[str, float] = {}
_timed: defaultdict[str, list[tuple[float, float]]] = defaultdict(list)


def pre_request(worker: Any, req: Any) -> None:
    _started["wall"], _started["cpu"] = time.perf_counter(), time.process_time()


def post_request(worker: Any, req: Any, environ: dict[str, Any], resp: Any) -> None:
    kind = environ.get("HTTP_X_BENCH_KIND")
    if kind and "wall" in _started:
        wall = (time.perf_counter() - _started["wall"]) * 1000
        cpu = (time.process_time() - _started["cpu"]) * 1000
        _timed[kind].append((wall, cpu, getattr(resp, "status_code", 0)))


def worker_exit(server: Any, worker: Any) -> None:
    folder = os.environ["BENCH_TIMING_DIR"]
    with open(os.path.join(folder, f"timing-{os.getpid()}.json"), "w") as out:
        json.dump(_timed, out)
    with open(os.path.join(folder, f"process-{os.getpid()}.json"), "w") as out:
        json.dump({"cpu_seconds": time.process_time()}, out)  # all the worker's life
