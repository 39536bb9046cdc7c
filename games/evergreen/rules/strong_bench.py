"""The strong player's benchmark, part of ``python -m games.evergreen.rules bench``.

It plays seeded games and prints, against the targets: the solo score distribution and
titles of the ``strong`` bot, its win rate with three ``greedy`` bots at a 4-player
table (it sits at seat ``game % 4``, so every seat is played), and the median time of
one decision at each level on one core. Games run in worker processes, each from its
own seed (game ``i`` uses ``seed + i`` and the bots' seeds ``enginekit.rng.bot_seed``), and the
results are gathered in seed order: the figures never depend on scheduling.
"""

from __future__ import annotations

import json
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any, TextIO, TypeVar

from games.enginekit import bench as kit
from games.enginekit.rng import bot_seed

from .bot import Bot
from .bots import GreedyBot, make_bot
from .edition import load_edition
from .engine import apply, new_game
from .strong import LEVELS

SOLO_MEAN_TARGET = 150.0
SOLO_HIGH = 160
SOLO_HIGH_SHARE_TARGET = 0.25
WIN_RATE_TARGET = 0.60
DECISION_TARGET_S = 2.0
STRONG = "strong"

T = TypeVar("T")
R = TypeVar("R")


def play(players: int, seed: int, bots: Sequence[Bot]) -> tuple[int, ...]:
    """Play one game from ``seed``; return the final scores and the winner last."""
    state = new_game(players, seed)
    while not state.is_over:
        seat = state.awaiting[0]
        state = apply(state, bots[seat].choose(state, seat))
    assert state.outcome is not None
    return (*state.outcome.scores, state.outcome.winner)


def solo_game(seed: int) -> int:
    """The strong bot's score in the solo game seeded ``seed``."""
    return play(1, seed, [make_bot(STRONG, bot_seed(seed, 0))])[0]


def table_game(seed: int) -> tuple[int, int, int]:
    """(strong bot won, its score, best greedy score) in a 4-player game seeded ``seed``."""
    strong_seat = seed % 4
    bots = [
        make_bot(STRONG, bot_seed(seed, s)) if s == strong_seat else GreedyBot(bot_seed(seed, s))
        for s in range(4)
    ]
    *scores, winner = play(4, seed, bots)
    best_other = max(score for s, score in enumerate(scores) if s != strong_seat)
    return int(winner == strong_seat), scores[strong_seat], best_other


def decision_times(level: str, games: int, seed: int) -> list[float]:
    """Seconds of every decision of a ``level`` bot over ``games`` solo games."""
    times = []
    for game in range(seed, seed + games):
        bot = make_bot(level, bot_seed(game, 0))
        state = new_game(1, game)
        while not state.is_over:
            started = time.perf_counter()
            move = bot.choose(state, 0)
            times.append(time.perf_counter() - started)
            state = apply(state, move)
    return times


def measure(
    games: int,
    timing_games: int,
    seed: int,
    workers: int,
    one_core: Callable[[], AbstractContextManager[None]] = nullcontext,
) -> dict[str, Any]:
    """Every figure of the strong player, as plain JSON (see the module docstring).

    Decisions are timed inside ``one_core()`` (the caller's CPU pinning), the games
    outside it, spread over ``workers`` processes.
    """
    started = time.perf_counter()
    with one_core():
        times = {level: decision_times(level, timing_games, seed) for level in LEVELS}
    solo = kit.in_workers(solo_game, range(seed, seed + games), workers)
    table = kit.in_workers(table_game, range(seed, seed + games), workers)
    titles = Counter(load_edition().solo_title(score) for score in solo)
    wins = sum(won for won, _, _ in table)
    return {
        "solo": {
            "games": games,
            "seeds": [seed, seed + games - 1],
            **kit.distribution(solo),
            "share_160_plus": round(sum(s >= SOLO_HIGH for s in solo) / games, 3),
            "titles": {name: titles[name] for _, name in load_edition().solo_titles},
        },
        "four_players": {
            "games": games,
            "wins": wins,
            "win_rate": round(wins / games, 3),
            "strong_mean": round(statistics.mean(s for _, s, _ in table), 2),
            "best_greedy_mean": round(statistics.mean(g for _, _, g in table), 2),
        },
        "decision_median_s": {level: round(statistics.median(t), 4) for level, t in times.items()},
        "decision_max_s": {level: round(max(t), 4) for level, t in times.items()},
        "workers": workers,
        "runtime_s": round(time.perf_counter() - started, 1),
    }


def report(figures: dict[str, Any], out: TextIO) -> bool:
    """Print the figures for people and as one JSON line; return whether every target is met."""
    solo, table = figures["solo"], figures["four_players"]
    decision = figures["decision_median_s"][STRONG]
    checks = {
        "solo_mean": solo["mean"] >= SOLO_MEAN_TARGET,
        "solo_160_plus": solo["share_160_plus"] >= SOLO_HIGH_SHARE_TARGET,
        "win_rate": table["win_rate"] >= WIN_RATE_TARGET,
        "decision": decision <= DECISION_TARGET_S,
    }
    print(
        f"Strong player ({solo['games']} solo and {table['games']} 4-player games, "
        f"{figures['workers']} worker(s), {figures['runtime_s']:.0f} s)",
        file=out,
    )
    print(kit.mean_line("solo", solo["mean"], SOLO_MEAN_TARGET), file=out)
    print(
        f"  solo at {SOLO_HIGH}+ {100 * solo['share_160_plus']:.1f} % "
        f"(target >= {100 * SOLO_HIGH_SHARE_TARGET:g} %)  {kit.verdict(checks['solo_160_plus'])}",
        file=out,
    )
    print(kit.distribution_line("solo", solo), file=out)
    print(kit.titles_line(solo["titles"]), file=out)
    print(
        f"  4 players, strong vs 3 greedy: won {table['wins']}/{table['games']} "
        f"= {100 * table['win_rate']:.1f} % (target >= {100 * WIN_RATE_TARGET:g} %)  "
        f"{kit.verdict(checks['win_rate'])}; mean {table['strong_mean']:.1f} "
        f"vs best greedy {table['best_greedy_mean']:.1f}",
        file=out,
    )
    medians = figures["decision_median_s"]
    print(
        "  decision median on one core: "
        + ", ".join(f"{level} {1000 * t:.0f} ms" for level, t in medians.items())
        + f" (strong target <= {DECISION_TARGET_S:g} s)  {kit.verdict(checks['decision'])}",
        file=out,
    )
    print(json.dumps({"strong_player": {**figures, "ok": checks}}), file=out)
    return all(checks.values())
