"""One HTTP request to the stack and latency figures (``webstack``'s site on loopback).

``request``/``timed``: one request on a new connection (gunicorn's sync workers close it
after each answer); ``percentiles``: the median and 95th percentile of latency samples.
"""

from __future__ import annotations

import http.client
import math
import statistics
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]  # by lower-case name, the last of each (see ``set_cookies``)
    body: bytes
    ms: float
    set_cookies: tuple[str, ...] = ()  # every Set-Cookie header: a page sets several


def request(
    port: int,
    method: str,
    path: str,
    headers: dict[str, str] | None = None,
    body: bytes | None = None,
    timeout: float = 30.0,
) -> Answer:
    """One request on a new connection; the answer, whatever its status, and its latency."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        start = time.perf_counter()
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        payload = response.read()
        elapsed = (time.perf_counter() - start) * 1000
        headers = response.getheaders()
        return Answer(
            response.status,
            {k.lower(): v for k, v in headers},
            payload,
            elapsed,
            tuple(v for k, v in headers if k.lower() == "set-cookie"),
        )
    finally:
        conn.close()


def timed(
    port: int, method: str, path: str, headers: dict[str, str], body: bytes | None = None
) -> float:
    """The latency in ms of a request that must succeed."""
    answer = request(port, method, path, headers, body)
    if answer.status >= 400:
        raise RuntimeError(f"{method} {path} answered {answer.status}: {answer.body[:300]!r}")
    return answer.ms


def percentiles(samples: list[float]) -> tuple[float, float]:
    """(median, 95th percentile) of the samples (0, 0 when there are none)."""
    if not samples:
        return 0.0, 0.0
    ordered = sorted(samples)
    # Nearest rank: the smallest sample at or above 95 % of them (never below the median).
    return statistics.median(ordered), ordered[max(0, math.ceil(len(ordered) * 0.95) - 1)]
