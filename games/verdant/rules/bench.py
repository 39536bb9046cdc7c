"""``verdant-rules bench``: the engine's speed against its targets.

Everything is measured on one core (the process is pinned to one CPU while it runs,
where the system allows it), with the garbage collector off inside timing loops, and
reported as a median over repeats. The time is the CPU time of this process: the engine
does no I/O, and on a shared machine the wall clock would also count the neighbours'
work. The clock is read here, never in the engine.
"""

from __future__ import annotations

import gc
import json
import os
import platform
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, TextIO

from . import strong_bench
from .engine import apply, new_game
from .moves import Turn
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

    turn_games: int  # random 5-player games whose turns are timed
    turn_repeats: int  # calls of apply per (state, turn) pair
    random_games: int
    greedy_games: int
    view_repeats: int
    strong_games: int  # solo games of the strong player (its score distribution)
    strong_timing_games: int  # solo games whose every decision is timed on one core


FULL = Plan(6, 30, 40, 3, 20, 200, 3)
QUICK = Plan(1, 3, 3, 1, 2, 1, 1)


def one_core() -> Callable[[], None]:
    """Pin the process to one CPU (Linux); return the function that restores it."""
    import os

    get = getattr(os, "sched_getaffinity", None)
    put = getattr(os, "sched_setaffinity", None)
    if get is None or put is None:
        return lambda: None
    before = get(0)
    try:
        put(0, {min(before)})
    except OSError:
        return lambda: None
    return lambda: put(0, before)


def time_ns(fn: Callable[[], object], repeats: int = 1, warm_up: bool = True) -> float:
    """Mean CPU nanoseconds per call of ``fn`` over ``repeats`` calls, the collector off."""
    if warm_up:
        fn()
    enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.process_time_ns()
        for _ in range(repeats):
            fn()
        return (time.process_time_ns() - start) / repeats
    finally:
        if enabled:
            gc.enable()


def game_turns(games: int) -> list[tuple[GameState, Turn]]:
    """Real (state, turn) pairs from random 5-player games."""
    pairs: list[tuple[GameState, Turn]] = []
    for seed in range(games):
        bots = make_bots("random", 5, seed)
        state = new_game(5, seed)
        while not state.is_over:
            seat = state.awaiting[0]
            move = bots[seat].choose(state, seat)
            if isinstance(move, Turn):
                pairs.append((state, move))
            state = apply(state, move)
    return pairs


def view_round_trip(state: GameState) -> GameState:
    """What serving a page and saving a game cost: the view and the snapshot as JSON text."""
    json.dumps(player_view(state, 0))
    return state_from_json(json.loads(json.dumps(state_to_json(state))))


GAMES = (
    ("random_game_5p_ms", "whole 5-player game, random bots", 5, "random", 20.0),
    ("greedy_game_solo_ms", "whole solo game, greedy bot", 1, "greedy", None),
)


def measure(plan: Plan) -> list[Figure]:
    pairs = game_turns(plan.turn_games)
    per_turn = [time_ns(partial(apply, s, t), plan.turn_repeats) for s, t in pairs]
    figures = [
        Figure(
            "apply_turn_us",
            f"validate + apply a turn (median of {len(pairs)} turns)",
            statistics.median(per_turn) / 1000,
            "µs",
            100.0,
        )
    ]
    for key, label, players, bot, target in GAMES:
        games = plan.random_games if bot == "random" else plan.greedy_games
        per_game = [
            time_ns(partial(play_bot_game, players, seed, bot), 1, False) for seed in range(games)
        ]
        figures.append(
            Figure(
                key, f"{label} (median of {games})", statistics.median(per_game) / 1e6, "ms", target
            )
        )
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


def run(quick: bool, out: TextIO) -> list[Figure]:
    """Measure, print a table and one JSON line on ``out``; return the figures."""
    plan = QUICK if quick else FULL
    gc.collect()
    restore = one_core()
    try:
        figures = measure(plan)
    finally:
        restore()
    # The strong player's games are spread over every core: only their scores are figures.
    strong = strong_bench.measure(
        plan.strong_games, plan.strong_timing_games, 1, os.cpu_count() or 1, one_core
    )
    python = f"{platform.python_implementation()} {platform.python_version()}"
    print(
        f"Verdant rules engine benchmark ({'quick' if quick else 'full'} run, one core, "
        f"CPU time, {python})",
        file=out,
    )
    width = max(len(f.label) for f in figures)
    for f in figures:
        target = f"target <= {f.target:g} {f.unit}" if f.target is not None else "no target"
        print(
            f"  {f.label.ljust(width)}  {f.value:7.1f} {f.unit:<2}   {target:<20} {f.status}",
            file=out,
        )
    line = {"bench": {f.key: f.to_json() for f in figures}, "quick": quick, "python": python}
    print(json.dumps(line, ensure_ascii=False), file=out)
    strong_bench.report(strong, out)
    return figures
