"""Ratings benchmark: rating games one by one (the task's work), rebuilding every rating
(``recompute_ratings``), the leaderboard and a player's chart, on PostgreSQL.

A scratch database ``evergreen_bench_ratings`` gets players and finished rated games of
2 to 4 seats with random scores (written directly: the benchmark is about ratings, not
about playing), then each game is rated in finish order as the tasks would, and the
whole history rebuilt; it checks that both give the same ratings and prints timings.

Usage: ``.venv/bin/python -m tests.benchmarks.bench_ratings [--games N] [--players N]``.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PG = os.environ.get("BENCH_PG", "postgresql://postgres@127.0.0.1:5432")
DB_NAME = "evergreen_bench_ratings"


def prepare_database() -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME}")
        conn.execute(f"CREATE DATABASE {DB_NAME}")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, check=True
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=200)
    args = parser.parse_args()

    os.environ["DATABASE_URL"] = f"{PG}/{DB_NAME}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "evergreen.settings")
    prepare_database()

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games import ratings
    from games.models import Game, Rating, Seat

    rng = random.Random(1)
    User = get_user_model()
    users = User.objects.bulk_create(
        User(username=f"bench{i}", email=f"bench{i}@example.org") for i in range(args.players)
    )
    start = timezone.now() - timedelta(hours=args.games)
    games = Game.objects.bulk_create(
        Game(
            players=rng.choice((2, 3, 4)),
            rated=True,
            status=Game.Status.FINISHED,
            finished_at=start + timedelta(hours=i),
        )
        for i in range(args.games)
    )
    Seat.objects.bulk_create(
        Seat(game=game, position=position, user=user, score=rng.randint(20, 80))
        for game in games
        for position, user in enumerate(rng.sample(users, game.players))
    )

    began = time.perf_counter()
    for game in games:
        ratings.rate_game(game.pk)
    one_by_one = time.perf_counter() - began
    incremental = set(Rating.objects.values_list("user_id", "mu", "sigma", "rating", "games"))

    began = time.perf_counter()
    rated, players = ratings.recompute()
    rebuild = time.perf_counter() - began
    rebuilt = set(Rating.objects.values_list("user_id", "mu", "sigma", "rating", "games"))

    began = time.perf_counter()
    ratings.leaderboard(limit=100)
    board = time.perf_counter() - began
    began = time.perf_counter()
    points = ratings.history(users[0])
    ratings.chart_svg(points)
    chart = time.perf_counter() - began

    print(f"{args.games} games, {args.players} players, load average {os.getloadavg()[0]:.1f}")
    print(f"rate_game one by one: {1000 * one_by_one / args.games:.1f} ms a game")
    print(f"recompute_ratings:    {rebuild:.2f} s for {rated} games, {players} players")
    print(f"same ratings both ways: {incremental == rebuilt}")
    print(f"leaderboard (100 rows): {1000 * board:.1f} ms")
    print(f"history + chart ({len(points)} games): {1000 * chart:.1f} ms")
    if incremental != rebuilt:
        sys.exit(1)


if __name__ == "__main__":
    main()
