"""``verdant-rules bench``: the engine's speed against its targets.

Everything is measured on one core (the process is pinned to one CPU while it runs,
where the system allows it), with the garbage collector off inside timing loops, and
reported as a median over repeats. The time is the CPU time of this process: the engine
does no I/O, and on a shared machine the wall clock would also count the neighbours'
work. The clock is read here, never in the engine.
"""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TextIO

from games.enginekit import bench as kit

from . import strong_bench
from .engine import apply, new_game
from .moves import Turn
from .selfplay import make_bots, play_bot_game
from .state import GameState, state_from_json, state_to_json
from .view import player_view


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


def cpu_time_ns(fn: Callable[[], object], repeats: int = 1, warm_up: bool = True) -> float:
    """Mean CPU nanoseconds per call of ``fn`` over ``repeats`` calls, the collector off."""
    return kit.time_ns(fn, repeats, warm_up, time.process_time_ns)


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


view_round_trip = partial(
    kit.json_round_trip, view=player_view, to_json=state_to_json, from_json=state_from_json
)


GAMES = (
    ("random_game_5p_ms", "whole 5-player game, random bots", 5, "random", 20.0),
    ("greedy_game_solo_ms", "whole solo game, greedy bot", 1, "greedy", None),
)


def measure(plan: Plan) -> list[kit.Figure]:
    pairs = game_turns(plan.turn_games)
    figures = [kit.turn_figure(pairs, apply, plan.turn_repeats, 100.0, timer=cpu_time_ns)]
    for key, label, players, bot, target in GAMES:
        games = plan.random_games if bot == "random" else plan.greedy_games
        play = partial(play_bot_game, players, bot=bot)
        figures.append(kit.game_figure(key, label, games, play, target, cpu_time_ns))
    states = [s for s, _ in pairs]
    figures.append(kit.view_figure(states, view_round_trip, plan.view_repeats, cpu_time_ns))
    return figures


def run(quick: bool, out: TextIO) -> list[kit.Figure]:
    """Measure, print a table and one JSON line on ``out``; return the figures."""
    plan = QUICK if quick else FULL
    gc.collect()
    with kit.one_core():
        figures = measure(plan)
    # The strong player's games are spread over every core: only their scores are figures.
    strong = strong_bench.measure(
        plan.strong_games, plan.strong_timing_games, 1, os.cpu_count() or 1, kit.one_core
    )
    mode = "quick" if quick else "full"
    title = f"Verdant rules engine benchmark ({mode} run, one core, CPU time, {kit.python()})"
    kit.report(title, figures, quick, out)
    strong_bench.report(strong, out)
    return figures
