"""The web CPU of a game page rendered afresh, in one process, beside a minimal view.

``python -m tests.benchmarks.rendercost [--requests N] [--profile]``: bench_web's games
(``BENCH_DATABASE_URL``, dropped and made again) and a private Redis as the cache, the
production settings (DEBUG off); the Django test client sends, as bench_web does, the
minimal view, the game page rendered afresh (no CSRF cookie: never from the page cache)
for one of its players and for a signed-in spectator, the htmx region the page's poller
fetches after a change, the poller's quiet answer (the status bar, the log and the score
table: the change was the rival's turn, hidden from the player), and the first render after
a move (a real move made before each request, not counted) and the region the page's
poller fetches after it (the capacity run's commonest render), a new player's first look
at a new game (four new users and their game made before, not counted: the capacity
run's newcomers), the first look of a player whose table sat down part-way through its
game (``LateTables``: the capacity run's played-ahead tables) and the new player's page
looked at again (the first look not counted: what is left is what being new costs). It prints the CPU time (``time.process_time``: the wait for
a core on a crowded machine does not count) per request, warm, and each one's multiple of
the minimal view; ``--only REGEX`` measures only the rows it finds (and the minimal view);
``--profile`` adds cProfile's top functions of each (``SORT``, ``PROFILE_FILTER``;
``PROFILE_OUT=prefix`` keeps each whole profile as prefix.<the row's name>). Issue 16's
target for a fresh render: at most 4x the minimal view.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import re
import time
from collections.abc import Callable
from typing import Any

from tests.benchmarks.oneprocess import bench_process, show_profile

RENDER_TARGET = 4.0
# What ``--profile`` prints by default: our own functions (``PROFILE_FILTER`` another regex,
# ``SORT`` another pstats order, e.g. ``tottime`` with ``PROFILE_FILTER=.`` for everything).
OUR_CODE = r"/(games|conversations|tournaments|challenges)/"


def cpu_ms(call: Callable[[], Any], repeat: int, between: Callable[[], Any] | None = None) -> float:
    """Mean CPU ms of ``call`` over ``repeat`` warm calls; ``between`` runs before each,
    uncounted."""
    if between is not None:
        between()
    call()
    spent = 0.0
    for _ in range(repeat):
        if between is not None:
            between()
        start = time.process_time()
        call()
        spent += time.process_time() - start
    return spent * 1000 / repeat


def spectator_session() -> str:
    """The session key of a signed-in user who has no seat in the bench games."""
    from django.contrib.auth import get_user_model

    watcher, _ = get_user_model().objects.get_or_create(
        username="watcher", defaults={"email": "watcher@example.org"}
    )
    return session_of(watcher)


class NewTables:
    """Brand-new players at brand-new tables, as the capacity run's newcomers: four new
    users (no password: nothing to hash), a 4-player game made and joined through the services, each player's session;
    ``next_page`` is the next player's first look at their game (nothing of theirs or of
    the game in the cache yet: the first of a table draws the game's shared parts too)."""

    def __init__(self) -> None:
        self.waiting: list[tuple[str, str]] = []
        self.made = 0

    def next_page(self) -> tuple[str, str]:
        from django.contrib.auth import get_user_model

        from games import services

        if not self.waiting:
            self.made += 1
            users = [get_user_model().objects.create_user(f"new{self.made}-{k}") for k in range(4)]
            game = services.create_game(users[0], players=4)
            for user in users[1:]:
                services.join_game(game.pk, user)
            self.waiting = [(session_of(user), f"/games/{game.pk}/") for user in users]
        return self.waiting.pop(0)


class LateTables:
    """Tables that sit down part-way through their game, as the capacity run's played-ahead
    ones (``playahead``): two new users, their game played on to the third season (as
    bench_web's page game) by the random bot as themselves, before anyone looked at it;
    ``next_page`` is one player's first look at it (nothing of the game kept yet: its log
    told from the first move, its board and panels drawn for the first time)."""

    def __init__(self) -> None:
        self.made = 0

    def next_page(self) -> tuple[str, str]:
        from django.contrib.auth import get_user_model

        from games import services
        from tests.benchmarks.bench_web import play_on

        self.made += 1
        users = [get_user_model().objects.create_user(f"late{self.made}-{k}") for k in range(2)]
        game = services.create_game(users[0], players=2)
        services.join_game(game.pk, users[1])
        play_on(game.pk, until_season=3)
        return session_of(users[0]), f"/games/{game.pk}/"


def session_of(user: Any) -> str:
    """The key of a new signed-in session of ``user``."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.cached_db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "games.auth.PlayerBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    assert session.session_key is not None
    return session.session_key


def quiet_poll(users: tuple[int, int]) -> str:
    """The poll of the first bench user's page in an Action phase of the second season,
    with the version before the rival's turn (hidden from the user: the quiet answer)."""
    from django.contrib.auth import get_user_model

    from games import services
    from games.evergreen import rules
    from games.evergreen.rules.bots import RandomBot
    from tests.benchmarks.bench_web import play_on

    user, rival = (get_user_model().objects.get(pk=pk) for pk in users)
    game = services.create_game(user, players=2)
    services.join_game(game.pk, rival)
    play_on(game.pk, until_season=2)
    game.refresh_from_db()
    while not (
        game.engine_state().phase is rules.Phase.ACTION and len(game.engine_state().awaiting) == 2
    ):
        play_on(game.pk, moves=1)
        game.refresh_from_db()
    shown, position = game.version, services.seat_of(game, rival).position  # type: ignore[union-attr]
    services.submit_move(game.pk, rival, RandomBot(0).choose(game.engine_state(), position))
    return f"/games/{game.pk}/poll/?version={shown}"


def requests(data: dict[str, Any]) -> dict[str, tuple[Callable[[], Any], Any]]:
    from django.conf import settings
    from django.test import Client

    from games.models import Game
    from tests.benchmarks.bench_web import MovesBetweenViews

    client, visitor, spectator, newcomer = Client(), Client(), Client(), Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = data["session"]
    spectator.cookies[settings.SESSION_COOKIE_NAME] = spectator_session()
    game = Game.objects.get(pk=data["page_game"])
    page, poll = f"/games/{game.pk}/", f"/games/{game.pk}/poll/?version={game.version - 1}"
    moves = MovesBetweenViews(data["users"])
    quiet = quiet_poll(data["users"])
    after: dict[str, str] = {}

    def ok(response: Any) -> Any:
        # No CSRF cookie, as bench_web's renders: the page cache never answers them.
        client.cookies.pop(settings.CSRF_COOKIE_NAME, None)
        spectator.cookies.pop(settings.CSRF_COOKIE_NAME, None)
        assert response.status_code == 200, (response.status_code, response.content[:300])
        return response

    def move() -> None:
        after["page"] = moves.next_page()

    def move_seen() -> None:
        # The version the poller showed before the move: its next poll fetches the region.
        shown = Game.objects.get(pk=moves.game_id).version
        after["poll"] = f"{moves.next_page()}poll/?version={shown}"

    tables, late = NewTables(), LateTables()

    def sit_down(at: NewTables | LateTables, where: str) -> None:
        """The newcomer as the next player of ``at``, their page under ``after[where]``."""
        session, after[where] = at.next_page()
        newcomer.cookies.clear()
        newcomer.cookies[settings.SESSION_COOKIE_NAME] = session

    def arrive() -> None:
        sit_down(tables, "new")

    def look_twice() -> None:
        arrive()
        ok(newcomer.get(after["new"]))
        newcomer.cookies.pop(settings.CSRF_COOKIE_NAME, None)  # never from the page cache

    return {
        # Without the session cookie, as bench_web's: no user loaded.
        "minimal view (GET)": (lambda: ok(visitor.get("/bench/read/")), None),
        "game page rendered afresh": (lambda: ok(client.get(page)), None),
        "the same for a spectator": (lambda: ok(spectator.get(page)), None),
        "htmx region after a change (poll)": (
            lambda: ok(client.get(poll, headers={"HX-Request": "true"})),
            None,
        ),
        "quiet poll: only hidden turns since": (
            lambda: ok(client.get(quiet, headers={"HX-Request": "true"})),
            None,
        ),
        "first render after a move": (lambda: ok(client.get(after["page"])), move),
        "region after a move (poll)": (
            lambda: ok(client.get(after["poll"], headers={"HX-Request": "true"})),
            move_seen,
        ),
        "first look: new player, new game": (
            lambda: ok(newcomer.get(after["new"])),
            arrive,
        ),
        "first look: a table played ahead": (
            lambda: ok(newcomer.get(after["late"])),
            lambda: sit_down(late, "late"),
        ),
        # The same page warm: what a first look costs beyond it is what being new costs.
        "again: the newcomer's page, afresh": (
            lambda: ok(newcomer.get(after["new"])),
            look_twice,
        ),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument(
        "--only", default="", help="a regex: only the rows it finds (and the minimal view)"
    )
    args = parser.parse_args()
    with bench_process("rendercost", broker="memory://"):
        from tests.benchmarks import bench_web

        data = bench_web.prepare_games(0)
        print(f"web CPU per request, in one process (ms, mean of {args.requests}, warm):")
        minimal = None
        for name, (call, between) in requests(data).items():
            if minimal is not None and not re.search(args.only, name):
                continue
            ms = cpu_ms(call, args.requests, between)
            minimal = minimal or ms
            print(f"  {name:36} {ms:7.2f}  {ms / minimal:5.1f}x")
            if args.profile:
                profiler = cProfile.Profile(time.process_time)
                for _ in range(50):
                    if between is not None:
                        between()
                    profiler.runcall(call)
                slug = re.sub(r"\W+", "-", name).strip("-")  # PROFILE_OUT: one file per kind
                show_profile(
                    profiler, os.environ.get("PROFILE_FILTER", OUR_CODE), 40, suffix=f".{slug}"
                )
        print(f"  (issue 16: a fresh render <= {RENDER_TARGET:g}x the minimal view)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
