"""The web CPU and queries of a pick submitted through the API, in a 4-player game of people.

``python -m tests.benchmarks.pickcost [--requests N] [--profile]``: like ``turncost`` (bench_web's
scratch database ``BENCH_DATABASE_URL``, a private Redis as the cache and the broker, the
production settings, Django's test client), with games of four people (new players: coalesced
mails, the default) each waiting for a pick. Two picks are measured, each in games of its own:
one that hands the draft to the next seat (one "your move" mail to record) and one that ends
the draft and starts the Action phase (a "your move" mail for each of the four). It prints
the CPU time (``time.process_time``) and the SQL queries per request beside the minimal view
writing one row; ``--profile`` adds cProfile's top functions of the pick that starts the
Action phase (``SORT``, ``PROFILE_OUT`` as in turncost).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import time
from collections.abc import Callable, Iterator
from typing import Any

from tests.benchmarks.oneprocess import bench_process, show_profile

PEOPLE = ("picker", "rival1", "rival2", "rival3")
WARM, COUNTED = 5, 5


def prepare_picks(n: int) -> dict[str, list[tuple[int, str, dict[str, Any]]]]:
    """``n`` games of four people waiting for a pick that hands the draft on, ``n`` waiting
    for the pick that ends it: (game, the picker's token, the pick's body) each."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from games import services
    from games.evergreen import rules
    from games.evergreen.rules.bots import RandomBot
    from games.models import Game

    users = [
        get_user_model().objects.create_user(name, f"{name}@example.org", "bench-password")
        for name in PEOPLE
    ]
    tokens = {u.pk: Token.objects.create(user=u).key for u in users}
    by_seat: dict[tuple[int, int], Any] = {}

    def new_game() -> Game:
        game = services.create_game(users[0], players=len(users))
        for user in users[1:]:
            services.join_game(game.pk, user)
        for seat in game.seats.all():
            by_seat[game.pk, seat.position] = seat.user
        return Game.objects.get(pk=game.pk)

    def waiting(game: Game, ends_draft: bool) -> tuple[int, str, dict[str, Any]]:
        bot = RandomBot(game.pk)
        while True:
            state = Game.objects.get(pk=game.pk).engine_state()
            seat = state.awaiting[0]
            pick = bot.choose(state, seat)
            ends = rules.apply(state, pick).phase is not rules.Phase.DRAFT
            if ends == ends_draft:
                body = {k: v for k, v in pick.to_json().items() if k not in ("type", "seat")}
                return game.pk, tokens[by_seat[game.pk, seat].pk], body
            services.submit_move(game.pk, by_seat[game.pk, seat], pick)

    games: dict[str, list[tuple[int, str, dict[str, Any]]]] = {"on": [], "ends": []}
    for _ in range(n):
        games["on"].append(waiting(new_game(), ends_draft=False))
        games["ends"].append(waiting(new_game(), ends_draft=True))
    return games


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    with bench_process("pickcost", MOVE_RATE_LIMIT="1000000/minute"):
        profiled = 50 if args.profile else 0
        games = prepare_picks(WARM + args.requests + COUNTED + profiled)
        report(args.requests, games)
        if args.profile:
            pick = picker(iter(games["ends"][WARM + args.requests + COUNTED :]))
            profiler = cProfile.Profile(time.process_time)
            for _ in range(profiled):
                profiler.runcall(pick)
            show_profile(profiler)
    return 0


def picker(games: Iterator[tuple[int, str, dict[str, Any]]]) -> Callable[[], None]:
    """A call that submits the next game's pick, through the API, as its picker."""
    from django.test import Client

    client = Client()

    def pick() -> None:
        game_id, token, body = next(games)
        response = client.post(
            f"/api/games/{game_id}/pick/",
            json.dumps(body),
            content_type="application/json",
            headers={"Authorization": f"Token {token}", "Idempotency-Key": f"pick-{game_id}"},
        )
        assert response.status_code == 200, response.content[:300]

    return pick


def report(requests: int, games: dict[str, list[tuple[int, str, dict[str, Any]]]]) -> None:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()

    def write() -> None:
        assert client.post("/bench/write/").status_code == 200

    calls = {
        "minimal view writing one row": write,
        "pick, the draft goes on (API)": picker(iter(games["on"])),
        "pick, the Action phase starts (API)": picker(iter(games["ends"])),
    }
    for call in calls.values():
        for _ in range(WARM):
            call()
    print(f"web CPU and queries per request, in one process (ms, mean of {requests}, warm):")
    minimal = 0.0
    for name, call in calls.items():
        start = time.process_time()
        for _ in range(requests):
            call()
        ms = (time.process_time() - start) * 1000 / requests
        with CaptureQueriesContext(connection) as captured:  # apart: it costs CPU itself
            for _ in range(COUNTED):
                call()
        minimal = minimal or ms
        queries = len(captured) / COUNTED
        print(f"  {name:36} {ms:7.2f}  {ms / minimal:5.1f}x  {queries:4.1f} queries")


if __name__ == "__main__":
    raise SystemExit(main())
