"""What the engines' benchmarks (``python -m games.<game>.rules bench``) measure alike.

A figure is measured on one core (the process is pinned to one CPU while it runs, where
the system allows it), with the garbage collector off inside timing loops, and reported
as a median over repeats; games of a bot spread over worker processes are gathered in
seed order, so the figures never depend on scheduling. The clock is read here and in
the engines' bench modules, never in a game.
"""

from __future__ import annotations

import gc
import json
import os
import platform
import statistics
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from multiprocessing import get_context
from typing import Any, TextIO, TypeVar

T = TypeVar("T")
R = TypeVar("R")
S = TypeVar("S")  # a game state
M = TypeVar("M")  # a move


@dataclass(frozen=True)
class Figure:
    """One measured figure and, when it has one, its target (the same unit, at most)."""

    key: str
    label: str
    value: float
    unit: str
    target: float | None = None

    @property
    def ok(self) -> bool | None:
        return None if self.target is None else self.value <= self.target

    @property
    def status(self) -> str:
        return {None: "", True: "ok", False: "MISSED"}[self.ok]

    def to_json(self) -> dict[str, Any]:
        return {
            "value": round(self.value, 2),
            "unit": self.unit,
            "target": self.target,
            "ok": self.ok,
        }


@contextmanager
def one_core() -> Iterator[None]:
    """Pin the process to one CPU for the duration (Linux), then restore."""
    get = getattr(os, "sched_getaffinity", None)
    put = getattr(os, "sched_setaffinity", None)
    if get is None or put is None:
        yield
        return
    before = get(0)
    try:
        put(0, {min(before)})
    except OSError:
        yield
        return
    try:
        yield
    finally:
        put(0, before)


@contextmanager
def no_gc() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def time_ns(
    fn: Callable[[], object],
    repeats: int = 1,
    warm_up: bool = True,
    clock: Callable[[], int] = time.perf_counter_ns,
) -> float:
    """Mean nanoseconds of ``clock`` per call of ``fn`` over ``repeats`` calls, the
    collector off.

    With ``warm_up`` one untimed call comes first (caches, first-call lookups).
    """
    if warm_up:
        fn()
    with no_gc():
        start = clock()
        for _ in range(repeats):
            fn()
        return (clock() - start) / repeats


SCALE = {"µs": 1e3, "ms": 1e6}  # nanoseconds per unit


def median_figure(
    key: str, label: str, times_ns: Sequence[float], unit: str, target: float | None = None
) -> Figure:
    """The median of ``times_ns`` in ``unit`` as a figure."""
    return Figure(key, label, statistics.median(times_ns) / SCALE[unit], unit, target)


def turn_figure(
    pairs: Sequence[tuple[S, M]],
    apply: Callable[[S, M], object],
    repeats: int,
    target: float,
    what: str = "turns",
    timer: Callable[..., float] = time_ns,
) -> Figure:
    """Checking and applying each (state, turn) of ``pairs``: the median, in µs."""
    per_turn = [timer(partial(apply, state, turn), repeats) for state, turn in pairs]
    label = f"validate + apply a turn (median of {len(pairs)} {what})"
    return median_figure("apply_turn_us", label, per_turn, "µs", target)


def game_figure(
    key: str,
    label: str,
    games: int,
    play: Callable[[int], object],
    target: float | None,
    timer: Callable[..., float] = time_ns,
) -> Figure:
    """Whole games ``play(seed)`` for seeds 0 to ``games - 1``: the median, in ms."""
    per_game = [timer(partial(play, seed), 1, False) for seed in range(games)]
    return median_figure(key, f"{label} (median of {games})", per_game, "ms", target)


def json_round_trip(
    state: S,
    view: Callable[[S, int], object],
    to_json: Callable[[S], object],
    from_json: Callable[[Any], S],
) -> S:
    """What serving a page and saving a game cost: the view and the snapshot as JSON text."""
    json.dumps(view(state, 0))
    return from_json(json.loads(json.dumps(to_json(state))))


def view_figure(
    states: Sequence[S],
    round_trip: Callable[[S], object],
    repeats: int,
    timer: Callable[..., float] = time_ns,
) -> Figure:
    """``round_trip`` of about 20 of ``states``, evenly spread: the median, in µs."""
    sample = states[:: max(1, len(states) // 20)]
    per_view = [timer(partial(round_trip, state), repeats) for state in sample]
    label = "player_view + state JSON round trip"
    return median_figure("view_json_round_trip_us", label, per_view, "µs")


def in_workers(fn: Callable[[T], R], items: Iterable[T], workers: int) -> list[R]:
    """``fn`` over ``items`` in ``workers`` processes, results in the items' order."""
    items = list(items)
    if workers <= 1 or not items:  # no processes started for nothing
        return [fn(item) for item in items]
    with get_context("fork").Pool(workers) as pool:
        return list(pool.imap(fn, items, chunksize=1))


def percentile(values: Sequence[int], share: float) -> float:
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, int(share * len(ordered)))])


DISTRIBUTION = ("min", "p10", "p25", "median", "p75", "p90", "max")


def distribution(scores: Sequence[int]) -> dict[str, Any]:
    """The mean of ``scores``, and the points of ``DISTRIBUTION`` from lowest to highest."""
    return {
        "mean": round(statistics.mean(scores), 2),
        "min": min(scores),
        "p10": percentile(scores, 0.10),
        "p25": percentile(scores, 0.25),
        "median": statistics.median(scores),
        "p75": percentile(scores, 0.75),
        "p90": percentile(scores, 0.90),
        "max": max(scores),
    }


def distribution_line(what: str, figures: dict[str, Any]) -> str:
    """``figures``' distribution on one line: ``  solo min/p10/…/max 12/40/…/171``."""
    return f"  {what} {'/'.join(DISTRIBUTION)} " + "/".join(f"{figures[k]:g}" for k in DISTRIBUTION)


def mean_line(what: str, mean: float, target: float) -> str:
    """``  solo mean 151.2 (target >= 150)  ok``: a mean score against its target."""
    return f"  {what} mean {mean:.1f} (target >= {target:g})  {verdict(mean >= target)}"


def titles_line(titles: dict[str, int]) -> str:
    """``  titles Seedling 3, Gardener 12, ...``: how many games earned each title."""
    return "  titles " + ", ".join(f"{name} {count}" for name, count in titles.items())


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def python() -> str:
    """The Python that ran the figures, e.g. ``CPython 3.11.9``."""
    return f"{platform.python_implementation()} {platform.python_version()}"


def _number(value: float) -> str:
    return f"{value:.1f}" if value < 1000 else f"{value:.0f}"


def report(title: str, figures: Sequence[Figure], quick: bool, out: TextIO) -> None:
    """Print ``title``, the figures as a table against their targets, then one JSON line."""
    print(title, file=out)
    width = max(len(f.label) for f in figures)
    for f in figures:
        target = f"target <= {f.target:g} {f.unit}" if f.target is not None else "no target"
        print(
            f"  {f.label.ljust(width)}  {_number(f.value):>7} {f.unit:<2}   {target:<20} {f.status}",
            file=out,
        )
    line = {"bench": {f.key: f.to_json() for f in figures}, "quick": quick, "python": python()}
    print(json.dumps(line, ensure_ascii=False), file=out)
