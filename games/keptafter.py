"""What a request keeps in the shared cache for the requests after it (the game's rows it
read, the parts of the page it drew, the log it told), written once its response has gone,
in one round trip.

A first render after a move keeps four to six entries: the game's rows at their new
versions (``games.rowcache``), the parts of the page drawn for them (``games.fragments``),
the log's telling and the chapters it closed (``games.telling``), the page itself
(``games.pagecache``). Written one by one, each was a round trip to Redis before the
response could go: 1.1 to 1.4 ms of the 8 to 10 ms a viewer waited (five writes of
110-410 µs each, measured in one process on 2026-11-28). None of it is for that viewer.
So in a request they wait until its response has been sent (``games.handoff``'s
``after_response``) and go together: one ``set_many`` per timeout, which Django's Redis
cache sends as one transaction (MULTI … EXEC), so a telling's head is written with the
chapters it counts, never before them. Outside a request (a worker, a command, the
shell) they are written at once.

Until then the request that keeps them finds them where it looks (``waiting``);
another request finds them missing and makes them again, as it would have before they
were first made. Every key names what its value was made from, or (a telling's head) says
itself how far it was told, so a write that comes later never makes anything stale. The
rows and the chapters are also kept in the process at once (``games.nearcache``). A key
kept twice in one request keeps the later value, as two writes would.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.core.cache import cache

from . import handoff

# This thread's writes waiting for its response to be sent: timeout -> {key: value}.
_waiting = threading.local()


def keep(key: str, value: Any, timeout: int) -> None:
    """Keep ``value`` under ``key`` (``keep_many``)."""
    keep_many({key: value}, timeout)


def keep_many(values: Mapping[str, Any], timeout: int) -> None:
    """Keep each of ``values`` under its key in the shared cache for ``timeout`` seconds:
    once this thread's response has been sent, or at once outside a request."""
    if not values:
        return
    batches = _batches()
    first = not batches
    batches.setdefault(timeout, {}).update(values)
    if first:  # one write for all this request keeps; at once when it is no request
        handoff.after_response(_write)


def waiting(keys: Iterable[str]) -> dict[str, Any]:
    """Those of ``keys`` this thread keeps but has not written yet, with their values."""
    batches = getattr(_waiting, "batches", None)
    if not batches:
        return {}
    asked = list(keys)
    found: dict[str, Any] = {}
    for values in batches.values():
        found.update((key, values[key]) for key in asked if key in values)
    return found


def found(keys: Sequence[str]) -> dict[str, Any]:
    """Those of ``keys`` this thread keeps but has not written yet (``waiting``), or else
    the shared cache holds (one round trip for the rest, none when none is left)."""
    values = waiting(keys)
    missing = [key for key in keys if key not in values]
    if missing:
        values.update(cache.get_many(missing))
    return values


def _batches() -> dict[int, dict[str, Any]]:
    batches: dict[int, dict[str, Any]] | None = getattr(_waiting, "batches", None)
    if batches is None:
        batches = _waiting.batches = {}
    return batches


def _write() -> None:
    batches, _waiting.batches = _batches(), {}
    for timeout, values in batches.items():
        cache.set_many(values, timeout)
