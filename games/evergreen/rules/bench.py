"""``python -m games.evergreen.rules bench``: the engine's speed against its targets.

Everything is measured on one core (the process is pinned to one CPU while it runs,
where the system allows it), with the garbage collector off inside timing loops, and
reported as a median over repeats. The clock is read here, never in the engine.
"""

from __future__ import annotations

import gc
import random
from dataclasses import dataclass
from functools import partial
from typing import TextIO

from games.enginekit import bench as kit

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


view_round_trip = partial(
    kit.json_round_trip, view=player_view, to_json=state_to_json, from_json=state_from_json
)


GAMES = (
    ("random_game_4p_ms", "whole 4-player game, random bots", 4, "random", 20),
    ("greedy_game_4p_ms", "whole 4-player game, greedy bots", 4, "greedy", None),
    ("greedy_game_solo_ms", "whole solo game, greedy bot", 1, "greedy", None),
)


def measure(plan: Plan) -> list[kit.Figure]:
    """Take every figure; ``plan`` says how many repetitions."""
    ed = load_edition()
    planet = ed.planet
    pairs = mid_game_turns(plan.turn_games)
    per_score = [
        kit.time_ns(partial(score_full, planet, board, sun, ed), plan.score_repeats)
        for board in full_boards(ed, plan.score_boards)
        for sun in SUNS
    ]
    figures = [
        kit.turn_figure(pairs, apply, plan.turn_repeats, 100, "mid-game turns"),
        kit.median_figure(
            "light_forest_full_planet_us",
            "Light + Biggest Forest of a full planet",
            per_score,
            "µs",
            30,
        ),
    ]
    counts = {"random": plan.random_games, "greedy": plan.greedy_games}
    for key, label, players, bot, target in GAMES:
        games = plan.solo_games if players == 1 else counts[bot]
        play = partial(play_bot_game, players, bot=bot)
        figures.append(kit.game_figure(key, label, games, play, target))
    figures.append(kit.view_figure([s for s, _ in pairs], view_round_trip, plan.view_repeats))
    return figures


def run(
    quick: bool, out: TextIO, strong_games: int | None = None, workers: int = 1
) -> list[kit.Figure]:
    """Measure, print a table and one JSON line on ``out``; return the figures.

    Then the strong player's figures (``strong_bench``) over ``strong_games`` solo and
    4-player games each (default: 200, or 2 for a quick run) in ``workers`` processes.
    """
    plan = QUICK if quick else FULL
    gc.collect()
    with kit.one_core():
        figures = measure(plan)
    mode = "quick" if quick else "full"
    kit.report(
        f"Evergreen rules engine benchmark ({mode} run, one core, {kit.python()})",
        figures,
        quick,
        out,
    )
    games = strong_games if strong_games is not None else (2 if quick else 200)
    if games:
        strong = strong_bench.measure(games, 1 if quick else 3, 1, workers, kit.one_core)
        strong_bench.report(strong, out)
    return figures
