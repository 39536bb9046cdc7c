"""Paired solo games of two strong-player levels, as docs/verdant-strong-player.md reports them.

``nice -n 19 .venv/bin/python -m tests.benchmarks.verdant_pair --seeds 3000 3039 --level learnt``
plays the solo games of the given seeds (the games of ``simulate --players 1 --bot strong``,
seeded the same way) with today's ``strong`` level changed by the options named, and prints
one JSON line a game (seed, score, CPU seconds); ``--compare a.jsonl b.jsonl`` prints the
means, the mean of the per-seed differences and its standard error.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from dataclasses import replace

from games.enginekit.rng import bot_seed
from games.verdant.rules.bots import play_game
from games.verdant.rules.engine import new_game
from games.verdant.rules.strong import LEVELS, StrongBot


def bot_class(options: list[str]) -> type[StrongBot]:
    """``StrongBot`` at today's level with each ``name=value`` option (``learnt``: true)."""
    level = LEVELS["strong"]
    for option in options:
        name, _, value = option.partition("=")
        level = replace(level, **{name: json.loads(value) if value else True})
    return type("PairBot", (StrongBot,), {"level": level})


def play(seeds: range, options: list[str]) -> None:
    cls = bot_class(options)
    for seed in seeds:
        started = time.process_time()
        final, _ = play_game(new_game(1, seed), [cls(bot_seed(seed, 0))])
        assert final.outcome is not None
        cpu = round(time.process_time() - started, 2)
        print(json.dumps({"seed": seed, "score": final.outcome.scores[0], "cpu": cpu}), flush=True)


def read(path: str) -> dict[int, dict[str, float]]:
    with open(path) as f:
        return {row["seed"]: row for row in map(json.loads, f) if row}


def compare(base_path: str, other_path: str) -> None:
    base, other = read(base_path), read(other_path)
    seeds = sorted(set(base) & set(other))
    diffs = [other[s]["score"] - base[s]["score"] for s in seeds]
    se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else float("nan")
    print(
        f"{len(seeds)} games: base {statistics.mean(base[s]['score'] for s in seeds):.2f}, "
        f"other {statistics.mean(other[s]['score'] for s in seeds):.2f}, "
        f"diff {statistics.mean(diffs):+.2f} (se {se:.2f}), "
        f"{sum(d != 0 for d in diffs)} differ; CPU a game "
        f"{statistics.mean(base[s]['cpu'] for s in seeds):.1f} s / "
        f"{statistics.mean(other[s]['cpu'] for s in seeds):.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs=2, default=[3000, 3039])
    parser.add_argument("--level", nargs="*", default=[], help="Level options: name[=json]")
    parser.add_argument("--compare", nargs=2, metavar=("BASE", "OTHER"))
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
    else:
        play(range(args.seeds[0], args.seeds[1] + 1), args.level)


if __name__ == "__main__":
    main()
