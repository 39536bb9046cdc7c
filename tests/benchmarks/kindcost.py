"""The web CPU of each kind of request of the realistic load, measured in one process.

``python -m tests.benchmarks.kindcost [--profile]`` after a realistic run
(``make load ARGS=--realistic``), on the database it left (``LOAD_DATABASE_URL``) and
with the cache on a private Redis, as the stack runs: for a player seated at an active
game, the Django test client sends the requests a person sends (the page, a poll that
finds nothing new, a poll that finds the game moved on, the API's game view and its poll
with ``since``) and this prints the CPU time (``time.process_time``: on a crowded machine the wait for a core does
not count) per request of each kind, warm; ``--profile`` adds cProfile's top functions.
What a request costs on the wire and in gunicorn comes on top (the load runs see it).
"""

from __future__ import annotations

import cProfile
import os
import pstats
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.benchmarks.webstack import STACK_SECRET_KEY, RedisServer, collect_static, static_root

REPEAT = 200


def cpu_ms(call: Callable[[], Any], repeat: int = REPEAT) -> float:
    call()  # warm: templates compiled, caches filled
    start = time.process_time()
    for _ in range(repeat):
        call()
    return (time.process_time() - start) * 1000 / repeat


def requests_of_a_person() -> dict[str, Callable[[], Any]]:
    from django.conf import settings
    from django.contrib.sessions.models import Session
    from django.test import Client
    from rest_framework.authtoken.models import Token

    from games.models import Game, Seat

    game = Game.objects.filter(status=Game.Status.ACTIVE).order_by("-version").first()
    if game is None:
        raise SystemExit("no active game: run `make load ARGS=--realistic` first")
    seat = Seat.objects.filter(game=game).select_related("user").first()
    assert seat is not None and seat.user is not None
    session = next(
        s
        for s in Session.objects.all()
        if s.get_decoded().get("_auth_user_id") == str(seat.user.pk)
    )
    page = Client()
    page.cookies[settings.SESSION_COOKIE_NAME] = session.session_key
    api = Client(headers={"Authorization": f"Token {Token.objects.get(user=seat.user).key}"})
    poll = f"/games/{game.pk}/poll/?version="
    htmx = {"HX-Request": "true"}

    def ok(response: Any, status: int) -> Any:
        assert response.status_code == status, (response.status_code, response.content[:300])
        return response

    return {
        "game page, opened (GET)": lambda: ok(page.get(f"/games/{game.pk}/"), 200),
        "page poll, nothing new (204)": lambda: ok(
            page.get(f"{poll}{game.version}", headers=htmx), 204
        ),
        "page poll, new region (200)": lambda: ok(
            page.get(f"{poll}{game.version - 1}", headers=htmx), 200
        ),
        "API game view (GET)": lambda: ok(api.get(f"/api/games/{game.pk}/"), 200),
        "API poll, nothing new (204)": lambda: ok(
            api.get(f"/api/games/{game.pk}/?since={game.version}"), 204
        ),
    }


def main(argv: list[str]) -> int:
    redis = RedisServer(Path(tempfile.mkdtemp(prefix="evergreen-kindcost-")) / "redis.log")
    try:
        os.environ.update(
            DJANGO_SETTINGS_MODULE="evergreen.settings",
            DATABASE_URL=os.environ.get(
                "LOAD_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/evergreen_load"
            ),
            DB_CONN_MAX_AGE="600",
            DEBUG="0",
            SECRET_KEY=STACK_SECRET_KEY,  # the sessions the run wrote are signed with it
            ALLOWED_HOSTS="testserver",
            CACHE_URL=redis.url(1),
            CELERY_BROKER_URL="memory://",
            STATIC_ROOT=static_root(),
        )
        collect_static(dict(os.environ))  # production settings need the manifest
        import django

        django.setup()
        print(f"web CPU per request, in one process (ms, mean of {REPEAT}, warm):")
        for kind, call in requests_of_a_person().items():
            print(f"  {kind:<34} {cpu_ms(call):7.2f}")
            if "--profile" in argv:
                profiler = cProfile.Profile(time.process_time)
                profiler.runcall(lambda call=call: [call() for _ in range(50)])
                pstats.Stats(profiler).sort_stats("tottime").print_stats(12)
    finally:
        redis.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
