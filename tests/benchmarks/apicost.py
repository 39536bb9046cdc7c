"""The web CPU of an API player's requests, in one process, beside the minimal views.

``python -m tests.benchmarks.apicost [--requests N] [--profile]``: bench_web's games
(``BENCH_DATABASE_URL``, dropped and made again) and a private Redis as the cache and the
broker, the production settings (DEBUG off), as ``turncost``. The Django test client
sends, with the bench user's token, what a person playing through the API sends besides
the quiet poll (``quickpoll``'s 204): the game view (``GET /api/games/<id>/``) and the
poll that finds the game moved on (``?since=<an older version>``: the load's read after
a change), the legal targets of a turn being built
(``GET .../targets/?effect=plant&partial=...``), a pick in the Draft and a whole turn
(``POST .../pick/``, ``.../turn/``, each to a game of its own waiting for it). It prints
the CPU time (``time.process_time``) per request, warm, and each one's multiple of the
minimal read (reads) or write (writes); ``--profile`` adds cProfile's top functions of
each (``SORT``, ``PROFILE_FILTER``; ``PROFILE_OUT=prefix`` keeps each whole profile as
prefix.<kind>).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import time
from collections.abc import Callable
from typing import Any

from tests.benchmarks.oneprocess import bench_process, show_profile

PROFILED = 50
ROUNDS = 10  # the requests of each kind are sent in this many rounds, the kinds in turn


def pick_games(user_pk: int, n: int) -> list[tuple[int, str]]:
    """``n`` games against a computer player, each in the Draft waiting for the bench
    user's pick: the game and a card of its pool."""
    from django.contrib.auth import get_user_model

    from games import services
    from games.evergreen.rules.bots import RandomBot

    user = get_user_model().objects.get(pk=user_pk)
    found = []
    for k in range(n):
        game = services.create_game(user, players=2, computer_seats=1, bot="random")
        game.refresh_from_db()
        pick = RandomBot(k).choose(game.engine_state(), 0).to_json()
        found.append((game.pk, pick["card"]))
    return found


def requests(data: dict[str, Any], n: int) -> dict[str, tuple[Callable[[], Any], str]]:
    """Each kind of request: the call and the minimal view it is compared with."""
    from django.test import Client

    from games.models import Game

    header = {"Authorization": f"Token {data['token']}"}
    client, visitor = Client(headers=header), Client()
    turns = iter(enumerate(data["turns"]))
    picks = iter(enumerate(pick_games(data["users"][0], n)))
    # Legal targets: the first bench turn's game, never submitted (the turns start after it).
    target_game, target_turn = next(turns)[1]
    partial = json.dumps({"action": target_turn["action"], "effects": []})
    targets = f"/api/games/{target_game}/targets/?effect=plant&partial={partial}"

    view = f"/api/games/{data['page_game']}/"
    version = Game.objects.get(pk=data["page_game"]).version

    def ok(response: Any) -> Any:
        assert response.status_code == 200, (response.status_code, response.content[:300])
        return response

    def post(url: str, body: dict[str, Any], key: str) -> Any:
        return ok(
            client.post(
                url,
                json.dumps(body),
                content_type="application/json",
                headers={"Idempotency-Key": key},
            )
        )

    def pick() -> Any:
        k, (game_id, card) = next(picks)
        return post(f"/api/games/{game_id}/pick/", {"card": card}, f"apicost-pick-{k}")

    def turn() -> Any:
        k, (game_id, body) = next(turns)
        return post(f"/api/games/{game_id}/turn/", body, f"apicost-turn-{k}")

    return {
        "minimal view (GET)": (lambda: ok(visitor.get("/bench/read/")), "read"),
        "minimal write (POST)": (lambda: ok(visitor.post("/bench/write/")), "write"),
        "API game view (GET)": (lambda: ok(client.get(view)), "read"),
        "API poll, moved on (200)": (lambda: ok(client.get(f"{view}?since={version - 1}")), "read"),
        "API targets (GET)": (lambda: ok(client.get(targets)), "read"),
        "API pick (POST)": (pick, "write"),
        "API turn (POST)": (turn, "write"),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    with bench_process("apicost", MOVE_RATE_LIMIT="1000000/minute"):
        from tests.benchmarks import bench_web

        # warm-up, measured and profiled writes each need a game (one more for targets)
        n = 1 + args.requests + (PROFILED if args.profile else 0)
        data = bench_web.prepare_games(n + 1)
        print(f"web CPU per request, in one process (ms, mean of {args.requests}, warm):")
        kinds = requests(data, n)
        spent = dict.fromkeys(kinds, 0.0)
        for call, _versus in kinds.values():
            call()  # warm
        # In rounds, each kind in turn: a shared machine's load weighs on all alike.
        for _ in range(ROUNDS):
            for name, (call, _versus) in kinds.items():
                for _ in range(args.requests // ROUNDS):
                    start = time.process_time()
                    call()
                    spent[name] += time.process_time() - start
        minimal: dict[str, float] = {}
        for name, (_call, versus) in kinds.items():
            ms = spent[name] * 1000 / (args.requests // ROUNDS * ROUNDS)
            minimal.setdefault(versus, ms)
            print(f"  {name:28} {ms:7.2f}  {ms / minimal[versus]:5.1f}x {versus}")
        for name, (call, _versus) in kinds.items() if args.profile else ():
            profiler = cProfile.Profile(time.process_time)
            for _ in range(PROFILED):
                profiler.runcall(call)
            print(name)  # PROFILE_OUT: prefix.game, .poll, .targets, .pick, .turn
            suffix = "." + name.split()[1].strip(",")
            show_profile(profiler, os.environ.get("PROFILE_FILTER", "."), 50, suffix=suffix)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
