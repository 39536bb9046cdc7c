"""``python -m games.evergreen.rules bench``: the engine's speed against its targets.

Everything is measured on one core (the process is pinned to one CPU while it runs,
where the system allows it), with the garbage collector off inside timing loops, and
reported as a median over repeats. The clock is read here, never in the engine.
"""

from __future__ import annotations

import gc
import json
import os
import platform
import random
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any, TextIO

from . import strong_bench
from .edition import Edition, load_edition
from .engine import apply, new_game
from .moves import Turn
from .pieces import BIG, BUSH, EMPTY, SMALL
from .planet import SUNS, Planet
from .scoring import biggest_forest, light_score
from .selfplay import make_bots, play_bot_game
from .state import GameState, state_from_json, state_to_json
from .view import player_view


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


@dataclass(frozen=True)
class Plan:
    """How much work each measurement does."""

    turn_games: int  # random 4-player games whose mid-game turns are timed
    turn_repeats: int  # calls of apply per (state, turn) pair
    score_boards: int
    score_repeats: int
    random_games: int
    greedy_games: int
    solo_games: int
    view_repeats: int


FULL = Plan(10, 50, 20, 200, 30, 3, 5, 20)
QUICK = Plan(2, 5, 4, 20, 3, 1, 1, 3)


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


def time_ns(fn: Callable[[], object], repeats: int = 1, warm_up: bool = True) -> float:
    """Mean nanoseconds per call of ``fn`` over ``repeats`` calls, the collector off.

    With ``warm_up`` one untimed call comes first (caches, first-call lookups).
    """
    if warm_up:
        fn()
    with no_gc():
        start = time.perf_counter_ns()
        for _ in range(repeats):
            fn()
        return (time.perf_counter_ns() - start) / repeats


def mid_game_turns(games: int) -> list[tuple[GameState, Turn]]:
    """Real (state, turn) pairs of seasons 2 and 3 from random 4-player games."""
    pairs: list[tuple[GameState, Turn]] = []
    for seed in range(games):
        bots = make_bots("random", 4, seed)
        state = new_game(4, seed)
        while not state.is_over:
            seat = state.awaiting[0]
            move = bots[seat].choose(state, seat)
            if isinstance(move, Turn) and state.season in (2, 3):
                pairs.append((state, move))
            state = apply(state, move)
    return pairs


def full_boards(ed: Edition, count: int) -> list[tuple[int, ...]]:
    """Boards with a Small Tree, Big Tree or Bush on every playable space, mixed."""
    chooser = random.Random(2024)
    boards = []
    for _ in range(count):
        board = [EMPTY] * ed.planet.size
        for i in ed.planet.playable:
            board[i] = chooser.choice((SMALL, BIG, BUSH))
        boards.append(tuple(board))
    return boards


def score_full(planet: Planet, board: tuple[int, ...], sun: str, ed: Edition) -> int:
    return light_score(planet, board, sun, ed) + biggest_forest(planet, board)


def view_round_trip(state: GameState) -> GameState:
    """What serving a page and saving a game cost: the view and the snapshot as JSON text."""
    json.dumps(player_view(state, 0))
    return state_from_json(json.loads(json.dumps(state_to_json(state))))


GAMES = (
    ("random_game_4p_ms", "whole 4-player game, random bots", 4, "random", 20),
    ("greedy_game_4p_ms", "whole 4-player game, greedy bots", 4, "greedy", None),
    ("greedy_game_solo_ms", "whole solo game, greedy bot", 1, "greedy", None),
)


def measure(plan: Plan) -> list[Figure]:
    """Take every figure; ``plan`` says how many repetitions."""
    ed = load_edition()
    planet = ed.planet
    pairs = mid_game_turns(plan.turn_games)
    per_turn = [time_ns(partial(apply, s, t), plan.turn_repeats) for s, t in pairs]
    per_score = [
        time_ns(partial(score_full, planet, board, sun, ed), plan.score_repeats)
        for board in full_boards(ed, plan.score_boards)
        for sun in SUNS
    ]
    figures = [
        Figure(
            "apply_turn_us",
            f"validate + apply a turn (median of {len(pairs)} mid-game turns)",
            statistics.median(per_turn) / 1000,
            "µs",
            100,
        ),
        Figure(
            "light_forest_full_planet_us",
            "Light + Biggest Forest of a full planet",
            statistics.median(per_score) / 1000,
            "µs",
            30,
        ),
    ]
    counts = {"random": plan.random_games, "greedy": plan.greedy_games}
    for key, label, players, bot, target in GAMES:
        games = plan.solo_games if players == 1 else counts[bot]
        per_game = [
            time_ns(partial(play_bot_game, players, seed, bot), 1, False) for seed in range(games)
        ]
        median_ms = statistics.median(per_game) / 1e6
        figures.append(Figure(key, f"{label} (median of {games})", median_ms, "ms", target))
    states = [s for s, _ in pairs[:: max(1, len(pairs) // 20)]]
    per_view = [time_ns(partial(view_round_trip, s), plan.view_repeats) for s in states]
    figures.append(
        Figure(
            "view_json_round_trip_us",
            "player_view + state JSON round trip",
            statistics.median(per_view) / 1000,
            "µs",
        )
    )
    return figures


def _number(value: float) -> str:
    return f"{value:.1f}" if value < 1000 else f"{value:.0f}"


def run(
    quick: bool, out: TextIO, strong_games: int | None = None, workers: int = 1
) -> list[Figure]:
    """Measure, print a table and one JSON line on ``out``; return the figures.

    Then the strong player's figures (``strong_bench``) over ``strong_games`` solo and
    4-player games each (default: 200, or 2 for a quick run) in ``workers`` processes.
    """
    plan = QUICK if quick else FULL
    gc.collect()
    with one_core():
        figures = measure(plan)
    python = f"{platform.python_implementation()} {platform.python_version()}"
    print(
        f"Evergreen rules engine benchmark ({'quick' if quick else 'full'} run, one core, {python})",
        file=out,
    )
    width = max(len(f.label) for f in figures)
    for f in figures:
        target = f"target <= {f.target:g} {f.unit}" if f.target is not None else "no target"
        print(
            f"  {f.label.ljust(width)}  {_number(f.value):>7} {f.unit:<2}   {target:<20} {f.status}",
            file=out,
        )
    line = {"bench": {f.key: f.to_json() for f in figures}, "quick": quick, "python": python}
    print(json.dumps(line, ensure_ascii=False), file=out)
    games = strong_games if strong_games is not None else (2 if quick else 200)
    if games:
        strong = strong_bench.measure(games, 1 if quick else 3, 1, workers, one_core)
        strong_bench.report(strong, out)
    return figures
