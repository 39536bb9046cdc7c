"""People for the realistic load run (``capacity.py``): accounts, sessions, tables.

``make_people``: players with an API token and a logged-in session each (signed with the
stack's secret, written in one query); ``seat_table``: one of them creates a game through
the API and the others join it; ``csrf_secret``: the CSRF cookie a browser would carry.
"""

from __future__ import annotations

import json
import secrets
import string

from tests.benchmarks.loadstack import make_players
from tests.benchmarks.people import Http
from tests.benchmarks.webstack import STACK_SECRET_KEY


def csrf_secret() -> str:
    return "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(32))


def make_people(count: int) -> list[tuple[str, str]]:
    """``count`` players: (API token, session key) each; the session is a logged-in one,
    as after a login on the site."""
    from datetime import timedelta

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.test import override_settings
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    keys = make_players(count)
    tokens = Token.objects.filter(key__in=keys).select_related("user")
    by_key = {token.key: token.user for token in tokens}
    expires = timezone.now() + timedelta(seconds=settings.SESSION_COOKIE_AGE)
    store = SessionStore()
    sessions = []
    for key in keys:
        user = by_key[key]
        with override_settings(SECRET_KEY=STACK_SECRET_KEY):  # the site's, not the runner's
            data = {
                SESSION_KEY: str(user.pk),
                BACKEND_SESSION_KEY: "games.auth.PlayerBackend",
                HASH_SESSION_KEY: user.get_session_auth_hash(),
            }
            encoded = store.encode(data)
        sessions.append(
            Session(
                session_key=secrets.token_hex(16),
                session_data=encoded,
                expire_date=expires,
            )
        )
    Session.objects.bulk_create(sessions)
    return [(key, session.session_key) for key, session in zip(keys, sessions, strict=True)]


async def seat_table(http: Http, tokens: list[str], seats: int) -> int | None:
    """The first creates a game through the API, the others join it; its id."""

    def auth(token: str) -> dict[str, str]:
        return {"Authorization": f"Token {token}", "Content-Type": "application/json"}

    body = json.dumps({"players": seats})
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
