"""Entries of the shared cache that never change under their key, kept in this process
too: a page drawn again by the same process finds them without a round trip to Redis.

Only for keys that name all their value was made from: a game's rows at their ``xmin``
(``games.rowcache``), a part of a page at the game's version or under a digest of what it
was drawn from (``games.fragments.kept``, ``kept_together``), a closed chapter of the
game log (``games.telling``: Move rows are only ever added). Whatever a write changes
asks for another key next time, so nothing kept here can be staler than what Redis
holds under the same key. Never for a value kept under one key while it changes (a stamp,
the head of a telling told on, a user's rows): those go to the shared cache alone.

Three of the eight round trips of a game page drawn afresh were for these entries, and
a round trip made between a request's other work cost 0.3 to 0.9 ms of wall time on the
2-core machine (0.15 ms each in a tight loop of them, in the same process): without
them bench_web's fresh render went from 5.5-5.9x to 5.2-5.3x the minimal view. Values are
kept pickled, as Redis keeps them, and unpickled on every read: each reader gets a copy of
its own (the rows are model instances their reader changes). The memory is bounded: past
``MOST_BYTES`` everything is forgotten at once (as ``games.drawings`` does), and also when
a setting changes (tests switch the caches on and off; ``forget_all`` for a cache emptied
by hand).
"""

from __future__ import annotations

import pickle
import threading
from collections.abc import Iterable, Mapping
from typing import Any

from django.core.signals import setting_changed
from django.dispatch import receiver

from . import keptafter

# How much a process keeps, pickled, before it forgets it all (a game's rows are about
# 4 kB, a part of a page a few kB).
MOST_BYTES = 16 * 1024 * 1024

_kept: dict[str, bytes] = {}
_size = 0
_counting = threading.Lock()  # a threaded server's requests keep entries side by side


def find(key: str) -> Any:
    """The value kept under ``key`` (``find_many``); None when neither cache holds it."""
    return find_many([key]).get(key)


def find_many(keys: Iterable[str]) -> dict[str, Any]:
    """Those of ``keys`` kept, with their values: from this process, else from the shared
    cache (and then kept here too), with one round trip for all that this process does not
    hold, none when it holds them all. What this request kept but has not written yet
    (``games.keptafter``) is found too, should this process have forgotten it meanwhile."""
    found: dict[str, Any] = {}
    missing = []
    for key in keys:
        held = _kept.get(key)
        if held is None:
            missing.append(key)
        else:
            found[key] = pickle.loads(held)
    if missing:
        shared = keptafter.found(missing)
        for key, value in shared.items():
            _remember(key, value)
        found.update(shared)
    return found


def keep(key: str, value: Any, timeout: int) -> None:
    """Keep ``value`` under ``key`` (``keep_many``)."""
    keep_many({key: value}, timeout)


def keep_many(values: Mapping[str, Any], timeout: int) -> None:
    """Keep each of ``values``, as it is now, under its key here, and in the shared cache
    for ``timeout`` seconds (once the response has gone: ``games.keptafter``), pickled
    once for both."""
    pickled = {key: keptafter.pickled(value) for key, value in values.items()}
    keptafter.keep_pickled(pickled, timeout)
    for key, data in pickled.items():
        _remember_pickled(key, data)


def forget_all() -> None:
    """Forget everything this process keeps (the shared cache is left as it is)."""
    global _size
    with _counting:
        _kept.clear()
        _size = 0


def _remember(key: str, value: Any) -> None:
    _remember_pickled(key, keptafter.pickled(value))


def _remember_pickled(key: str, pickled: bytes) -> None:
    global _size
    with _counting:
        if _size + len(pickled) > MOST_BYTES:
            _kept.clear()
            _size = 0
        previous = _kept.get(key)
        _kept[key] = pickled
        _size += len(pickled) - (len(previous) if previous is not None else 0)


@receiver(setting_changed)
def _forget_on_setting_changed(**kwargs: object) -> None:
    forget_all()
