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

**What is written is the value as it was kept.** The request goes on using what it kept
(the game's rows it read are the page's rows: their seats get their users, the game its
parsed state), so a value is pickled when it is kept (``keep_pickled``, for a caller that
has pickled it already) and written as those bytes, which Django's cache pickles once more
in a wrapper that unpickles to the value itself (``Pickled``). Whatever the request sets on
an object afterwards (for its viewer, maybe) never reaches another request, and the
readers' unpickling is Django's as before.
"""

from __future__ import annotations

import pickle
import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.core.cache import cache

from . import handoff

# This thread's writes waiting for its response to be sent: timeout -> {key: Pickled}.
_waiting = threading.local()


class Pickled:
    """A value as it was pickled (``pickled``): pickling this gives the value's own bytes
    back, behind a call to ``pickle.loads``, so whoever unpickles it gets the value."""

    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        self.data = data

    def __reduce__(self) -> tuple[Any, tuple[bytes]]:
        return pickle.loads, (self.data,)


def pickled(value: Any) -> bytes:
    """``value`` as it is now, in the bytes ``keep_pickled`` takes."""
    return pickle.dumps(value, pickle.HIGHEST_PROTOCOL)


def keep(key: str, value: Any, timeout: int) -> None:
    """Keep ``value`` under ``key`` (``keep_many``)."""
    keep_many({key: value}, timeout)


def keep_many(values: Mapping[str, Any], timeout: int) -> None:
    """Keep each of ``values``, as it is now, under its key in the shared cache for
    ``timeout`` seconds: once this thread's response has been sent, or at once outside a
    request."""
    keep_pickled({key: pickled(value) for key, value in values.items()}, timeout)


def keep_pickled(values: Mapping[str, bytes], timeout: int) -> None:
    """``keep_many`` for values already pickled (``pickled``): key -> their bytes."""
    if not values:
        return
    batches = _batches()
    first = not batches
    batches.setdefault(timeout, {}).update((key, Pickled(data)) for key, data in values.items())
    if first:  # one write for all this request keeps; at once when it is no request
        handoff.after_response(_write)


def waiting(keys: Iterable[str]) -> dict[str, Any]:
    """Those of ``keys`` this thread keeps but has not written yet, with their values (as
    they were kept: each a copy of its own, as the cache would give)."""
    batches: dict[int, dict[str, Pickled]] | None = getattr(_waiting, "batches", None)
    if not batches:
        return {}
    asked = list(keys)
    found: dict[str, Any] = {}
    for values in batches.values():
        found.update((key, pickle.loads(values[key].data)) for key in asked if key in values)
    return found


def found(keys: Sequence[str]) -> dict[str, Any]:
    """Those of ``keys`` this thread keeps but has not written yet (``waiting``), or else
    the shared cache holds (one round trip for the rest, none when none is left)."""
    values = waiting(keys)
    missing = [key for key in keys if key not in values]
    if missing:
        values.update(cache.get_many(missing))
    return values


def _batches() -> dict[int, dict[str, Pickled]]:
    batches: dict[int, dict[str, Pickled]] | None = getattr(_waiting, "batches", None)
    if batches is None:
        batches = _waiting.batches = {}
    return batches


def _write() -> None:
    batches, _waiting.batches = _batches(), {}
    for timeout, values in batches.items():
        cache.set_many(values, timeout)
