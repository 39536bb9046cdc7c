"""The strong player's figures, part of ``verdant-rules bench``.

It plays seeded solo games with the ``strong`` bot (game ``i`` from seed ``seed + i``,
the bot seeded as ``selfplay`` seeds it, so the games are those of ``verdant-rules
simulate --players 1 --seed 1 --bot strong``) and prints the score distribution, the
titles and the median CPU time of one decision, against the targets. The first games
are played on one core, each decision timed, and their scores count; the others run in
worker processes and are gathered in seed order: the figures never depend on scheduling.
"""

from __future__ import annotations

import json
import statistics
import time
from collections import Counter
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import Any, TextIO

from games.enginekit import bench as kit
from games.enginekit.rng import bot_seed

from .bots import make_bot
from .edition import load_edition
from .engine import apply, new_game
from .moves import Turn
from .selfplay import play_bot_game

SOLO_MEAN_TARGET = 85.0
DECISION_TARGET_S = 2.0
STRONG = "strong"


def solo_score(seed: int) -> int:
    """The strong bot's score in the solo game seeded ``seed``."""
    state, _ = play_bot_game(1, seed, STRONG)
    assert state.outcome is not None
    return state.outcome.scores[0]


def decision_times(games: int, seed: int) -> tuple[list[float], list[int]]:
    """CPU seconds of every turn decision of the strong bot over ``games`` solo games, and
    each game's score: the games are ``solo_score``'s (the same seeds, the bot seeded as
    ``selfplay`` seeds it), so their scores count without playing them again."""
    times, scores = [], []
    for game in range(seed, seed + games):
        bot = make_bot(STRONG, bot_seed(game, 0))
        state = new_game(1, game)
        while not state.is_over:
            started = time.process_time()
            move = bot.choose(state, 0)
            if isinstance(move, Turn):
                times.append(time.process_time() - started)
            state = apply(state, move)
        assert state.outcome is not None
        scores.append(state.outcome.scores[0])
    return times, scores


def measure(
    games: int,
    timing_games: int,
    seed: int,
    workers: int,
    one_core: Callable[[], AbstractContextManager[None]] = nullcontext,
) -> dict[str, Any]:
    """Every figure, as plain JSON: decisions are timed inside ``one_core()`` (the
    caller's CPU pinning), the games spread over ``workers`` processes."""
    started = time.perf_counter()
    timed = min(timing_games, games)
    with one_core():
        times, scores = decision_times(timing_games, seed)
    rest = kit.in_workers(solo_score, range(seed + timed, seed + games), workers)
    solo = [*scores[:timed], *rest]
    edition = load_edition()
    titles = Counter(edition.solo_title(score) for score in solo)
    return {
        "games": games,
        "seeds": [seed, seed + games - 1],
        **kit.distribution(solo),
        "titles": {
            str(name): titles[name] for name in [None, *(n for _, n in edition.solo_titles)]
        },
        "decision_median_s": round(statistics.median(times), 4),
        "decision_max_s": round(max(times), 4),
        "workers": workers,
        "runtime_s": round(time.perf_counter() - started, 1),
    }


def report(figures: dict[str, Any], out: TextIO) -> bool:
    """Print the figures for people and as one JSON line; return whether the targets are met."""
    checks = {
        "solo_mean": figures["mean"] >= SOLO_MEAN_TARGET,
        "decision": figures["decision_median_s"] <= DECISION_TARGET_S,
    }
    print(
        f"Strong player ({figures['games']} solo games, seeds {figures['seeds'][0]}-"
        f"{figures['seeds'][1]}, {figures['workers']} worker(s), {figures['runtime_s']:.0f} s)",
        file=out,
    )
    print(kit.mean_line("solo", figures["mean"], SOLO_MEAN_TARGET), file=out)
    print(kit.distribution_line("solo", figures), file=out)
    print(kit.titles_line(figures["titles"]), file=out)
    print(
        f"  decision median on one core {1000 * figures['decision_median_s']:.0f} ms "
        f"(target <= {DECISION_TARGET_S:g} s)  {kit.verdict(checks['decision'])}",
        file=out,
    )
    print(json.dumps({"strong_player": {**figures, "ok": checks}}), file=out)
    return all(checks.values())
