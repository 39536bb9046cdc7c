"""SQL queries per request: the pages and API answers of a game, and the worker's tasks.

Counts the queries Django sends (``CaptureQueriesContext``) for each request, made with
Django's test client against the production settings on a scratch PostgreSQL database
(``BENCH_QUERIES_DATABASE_URL``, default ``…/evergreen_bench_queries``, dropped and
created again). As in production, Celery is not eager: a round completed by a turn is
closed by a separate call, counted as the worker's closing.

Usage: ``.venv/bin/python -m tests.benchmarks.bench_queries [--sql]`` (or ``make bench``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from typing import Any

from tests.benchmarks.webstack import collect_static, scratch_database, static_root

DATABASE_URL = os.environ.get(
    "BENCH_QUERIES_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/evergreen_bench_queries"
)


def setup() -> None:
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "evergreen.settings",
            "DATABASE_URL": DATABASE_URL,
            "DEBUG": "0",
            "SECRET_KEY": "bench-only-secret",
            "ALLOWED_HOSTS": "testserver",
            "CELERY_BROKER_URL": "memory://localhost/",  # tasks are sent, no worker runs them here
            "CELERY_TASK_ALWAYS_EAGER": "0",
            "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
            "STATIC_ROOT": static_root(),  # the pages name their static files by the manifest
        }
    )
    collect_static(dict(os.environ))
    scratch_database(DATABASE_URL)
    import django

    django.setup()


def measure(show_sql: bool) -> list[tuple[str, int]]:
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from games import services
    from games.evergreen import rules
    from games.evergreen.rules.bots import RandomBot
    from games.models import Game, Notification, Player

    def user(name: str) -> Any:
        made = get_user_model().objects.create_user(name, f"{name}@example.org", "x-password")
        Player.for_user(made)
        return made

    people = [user(name) for name in ("ann", "ben", "cat")]
    outsider = user("dan")
    game = services.create_game(people[0], players=3)
    for person in people[1:]:
        services.join_game(game.pk, person)
    bot = RandomBot(2)

    def state() -> rules.GameState:
        return Game.objects.get(pk=game.pk).engine_state()

    def move(seat: int) -> None:
        services.submit_move(game.pk, people[seat], bot.choose(state(), seat))
        services.close_game_round(game.pk)  # the worker's part, when a round is complete

    while (state().season, state().round) < (2, 2):  # some history: a season scored
        move(state().awaiting[0])

    rows: list[tuple[str, int]] = []

    def count(label: str, action: Callable[[], Any]) -> Any:
        with CaptureQueriesContext(connection) as queries:
            result = action()
        status = getattr(result, "status_code", 200)
        if status >= 400:
            raise RuntimeError(f"{label}: answered {status}")
        rows.append((label, len(queries)))
        if show_sql:
            for query in queries.captured_queries:
                print(f"    {label}: {query['sql'][:160]}", file=sys.stderr)
        return result

    me = people[state().awaiting[0]]
    page = f"/games/{game.pk}/"
    browser = Client()
    browser.force_login(me)
    browser.get(page)  # the CSRF cookie the cached page's token belongs to
    browser.get(page)  # rendered and kept
    count("game page, unchanged game (from the page cache)", lambda: browser.get(page))

    fresh = Client()  # no CSRF cookie yet: the page is rendered, never taken from the cache
    fresh.force_login(me)
    count("game page rendered afresh (player)", lambda: fresh.get(page))
    spectator = Client()
    spectator.force_login(outsider)
    count("game page rendered afresh (spectator)", lambda: spectator.get(page))
    version = Game.objects.get(pk=game.pk).version
    count(
        "page poll, nothing changed (204)",
        lambda: browser.get(f"{page}poll/?version={version}", HTTP_HX_REQUEST="true"),
    )
    count("lobby", lambda: browser.get("/lobby/"))
    count("my games", lambda: browser.get("/games/mine/"))

    tokens = {p.pk: Token.objects.create(user=p).key for p in people}

    def api(person: Any) -> Client:
        return Client(HTTP_AUTHORIZATION=f"Token {tokens[person.pk]}")

    count("API game state (GET /api/games/<id>/)", lambda: api(me).get(f"/api/games/{game.pk}/"))

    # The Draft: every pick; the Action phase: every turn, the last one completes the round.
    picks = turns = 0
    while True:
        current = state()
        if rules.round_complete(current):
            break
        seat = current.awaiting[0]
        client = api(people[seat])
        chosen = bot.choose(current, seat).to_json()
        body = {k: v for k, v in chosen.items() if k not in ("type", "seat")}
        if current.phase is rules.Phase.DRAFT:
            picks += 1
            label = f"API pick submission {picks}"
            url = f"/api/games/{game.pk}/pick/"
        else:
            turns += 1
            last = len(current.awaiting) == 1
            label = f"API turn submission {turns}" + (" (completes the round)" if last else "")
            url = f"/api/games/{game.pk}/turn/"
            if turns == 1:
                count(
                    "API legal targets (GET …/targets/?effect=plant)",
                    lambda c=client: c.get(f"/api/games/{game.pk}/targets/?effect=plant"),
                )
        count(
            label,
            lambda c=client, u=url, b=body: c.post(
                u, json.dumps(b), content_type="application/json"
            ),
        )
    count("round closing (the worker's close_round)", lambda: services.close_game_round(game.pk))
    # A "your move" mail still to be sent; the players are coalesced, so it may wait for its
    # window: it is made due, as the beat finds it once the window has passed.
    waiting = Notification.objects.filter(
        kind=Notification.Kind.YOUR_MOVE, status=Notification.Status.PENDING
    )
    note = waiting.order_by("pk").last()
    if note is not None:
        Notification.objects.filter(pk=note.pk).update(send_after=timezone.now())
        count("one mail delivered (the worker's deliver_notification)", lambda: _deliver(note.pk))
    return rows


def _deliver(note_id: int) -> str:
    from games import notifications

    outcome = notifications.deliver(note_id)
    if outcome != "sent":
        raise RuntimeError(f"the mail was not sent: {outcome}")
    return outcome


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sql", action="store_true", help="print every query (on stderr)")
    args = parser.parse_args()
    setup()
    rows = measure(args.sql)
    print("Queries per request (Django's test client, production settings, PostgreSQL)")
    for label, queries in rows:
        print(f"  {label:60} {queries:3d}")
    print(json.dumps({"queries": dict(rows)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
