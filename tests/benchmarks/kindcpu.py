"""The web server's CPU in a capacity run, split by the kind of request: which kinds the
site's CPU goes to, for whoever wants to cut it where it counts.

Every request of the run's people names its kind (``people.Http``'s ``X-Bench-Kind``
header), and each sync gunicorn worker times each request from gunicorn's
``pre_request`` to its ``post_request`` (``gunicorn_timing``: Django's handling and what
runs once the response has gone, not the reading and parsing of the request) and writes
what it timed when it exits. A poll is told apart by its answer, as the run's table does
(204: nothing new; 200: the new region or game view). The figures are for the whole run,
every step together; what the workers spent outside the timed requests (gunicorn
itself, the connections, the requests of the run's set-up, starting Django) is the rest
of their CPU (the master process's, which only watches them, is left out).
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from tests.benchmarks.people import KINDS

POLLS = ("poll", "api poll")  # told apart by their answer, as ``people.Http`` does


@dataclass(frozen=True)
class KindCpu:
    kind: str
    requests: int
    cpu_seconds: float

    @property
    def mean_ms(self) -> float:
        return self.cpu_seconds * 1000 / self.requests


def timing_into(workdir: Path, threads: int, profiled: bool) -> Path | None:
    """Have the web server time its requests by kind into a folder of ``workdir`` (read
    by ``webstack.gunicorn`` through the environment); the folder. None where it cannot:
    threaded workers (``gunicorn_timing`` times one request at a time) or a profiled run
    (``gunicorn_profile``'s settings take its place)."""
    if threads > 1 or profiled:
        return None
    folder = workdir / "timing"
    folder.mkdir(exist_ok=True)
    os.environ["BENCH_TIMING_DIR"] = str(folder)
    return folder


def by_kind(folder: Path) -> list[KindCpu]:
    """The CPU of each kind of request, from every worker's file, most first."""
    spent: defaultdict[str, list[float]] = defaultdict(list)
    for path in folder.glob("timing-*.json"):
        for kind, samples in json.loads(path.read_text()).items():
            for _wall, cpu, status in samples:
                shown = f"{kind} {status}" if kind in POLLS and status in (200, 204) else kind
                spent[shown].append(cpu)
    found = [KindCpu(kind, len(cpus), sum(cpus) / 1000) for kind, cpus in spent.items()]
    return sorted(found, key=lambda each: -each.cpu_seconds)


def workers_seconds(folder: Path) -> float:
    """The CPU the web workers used in all their lives (each wrote it when it exited)."""
    return sum(json.loads(p.read_text())["cpu_seconds"] for p in folder.glob("process-*.json"))


def table(folder: Path) -> str:
    """The kinds as lines: requests, mean CPU, CPU in all and its share of the web
    workers' CPU over the run; then what they spent outside the timed requests."""
    found, web_seconds = by_kind(folder), workers_seconds(folder)

    def share(seconds: float) -> str:
        return f"{seconds / web_seconds if web_seconds else 0.0:4.0%}"

    lines = ["Web CPU by kind of request, over the whole run (inside the workers):"]
    for each in found:
        lines.append(
            f"  {KINDS.get(each.kind, each.kind):42} {each.requests:7d} requests"
            f"  {each.mean_ms:6.2f} ms  {each.cpu_seconds:7.1f} s  {share(each.cpu_seconds)}"
        )
    rest = max(0.0, web_seconds - sum(each.cpu_seconds for each in found))
    lines.append(f"  {'outside the timed requests':42} {'':28} {rest:7.1f} s  {share(rest)}")
    return "\n".join(lines)
