"""People for the realistic load run (``capacity.py``): accounts, sessions, tables.

``make_people``: players made as the site's sign-up makes them, with an API token and a
logged-in session each (signed with the stack's secret); ``site_cache``: the settings that
point the runner's cache at the site's; ``seat_table``: one of them creates a game through
the API and the others join it; ``csrf_secret``: the CSRF cookie a browser would carry;
``open_the_day``: the day's challenges opened before anyone arrives.
"""

from __future__ import annotations

import json
import secrets
import string
import uuid
from typing import Any

from tests.benchmarks.people import Http
from tests.benchmarks.webstack import STACK_SECRET_KEY


def csrf_secret() -> str:
    return "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(32))


def make_people(count: int) -> list[tuple[str, str]]:
    """``count`` players, made as the site's sign-up makes them, each with an API token
    and a logged-in session: (token, the cookies of a browser signed in as them) each.

    Each user is saved (not bulk-created) in a transaction of its own, so what the site
    does for a new account happens here too (``games.signals`` makes the player; the
    user cache and the "no chat choices yet" of ``conversations.shields`` are kept once
    it commits), in the cache the site shares when the caller points this process's
    cache at it (``site_cache``). The session is written as a login writes it (cached_db:
    the database and the shared cache). The password is unusable (tokens and sessions
    only), which saves the hashing a real sign-up spends in the web process."""
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.sessions.backends.cached_db import SessionStore
    from django.db import transaction
    from django.test import override_settings
    from rest_framework.authtoken.models import Token

    from games.models import Player
    from games.usersession import HINT_COOKIE

    User = get_user_model()
    tag = uuid.uuid4().hex[:6]
    people = []
    for i in range(count):
        with transaction.atomic():
            user = User.objects.create_user(f"load-{tag}-{i}", f"load-{tag}-{i}@example.org")
            # A mail for every move (a new player's mails are coalesced by default): the
            # checks count every mail of the run. Saved, as the profile page saves it.
            player = Player.objects.get(user=user)
            player.email_mode = Player.EmailMode.EVERY_MOVE
            player.save(update_fields=["email_mode"])
            token = Token.objects.create(user=user)
        session = SessionStore()
        with override_settings(SECRET_KEY=STACK_SECRET_KEY):  # the site's, not the runner's
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = "games.auth.PlayerBackend"
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.create()
        assert session.session_key is not None
        # What a signed-in browser holds besides the CSRF cookie: the session, and the
        # hint of whom it is signed in as (games.usersession) its first page left.
        people.append((token.key, f"sessionid={session.session_key}; {HINT_COOKIE}={user.pk}"))
    return people


def site_cache(redis_url: str) -> dict[str, Any]:
    """The settings that point this process's cache where the site's processes share
    theirs (``CACHE_URL`` in production), for ``override_settings``: what the runner
    makes for the site (``make_people``) is then kept where the site looks for it."""
    return {
        "CACHES": {
            "default": {
                "BACKEND": "evergreen.tolerant_cache.TolerantRedisCache",
                "LOCATION": redis_url,
            }
        },
        "USER_CACHE_SECONDS": 120,
    }


async def seat_table(
    http: Http, tokens: list[str], seats: int, kind: str = "evergreen"
) -> int | None:
    """The first creates a game of ``kind`` through the API, the others join it; its id."""

    def auth(token: str) -> dict[str, str]:
        return {"Authorization": f"Token {token}", "Content-Type": "application/json"}

    body = json.dumps({"kind": kind, "players": seats})
    created = await http.call("create", "POST", "/api/games/", auth(tokens[0]), body)
    if created is None or created[0] not in (200, 201):
        http.recorder.error(f"creating a game answered {created and created[0]}")
        return None
    game_id = int(json.loads(created[2])["id"])
    for token in tokens[1:]:
        joined = await http.call("join", "POST", f"/api/games/{game_id}/join/", auth(token), "{}")
        if joined is None or joined[0] != 200:
            http.recorder.error(f"joining game {game_id} answered {joined and joined[0]}")
    return game_id


def open_the_day() -> None:
    """The day's challenges opened, their targets computed, before anyone arrives: a club
    night falls in the middle of a day, long after the beat opened it. Left to the beat
    (every 5 minutes), the computer player's games for the targets (15-40 s of the
    worker's CPU) fell into a measured step and took every p95 with them (2026-11-28)."""
    from challenges import services, targets

    for kind in services.challenge_kinds():
        targets.compute_target(services.todays(kind.name).pk)  # in this process
