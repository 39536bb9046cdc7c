"""Web benchmark: game page and turn submission next to minimal Django views.

Runs a real gunicorn on loopback against PostgreSQL (a scratch database
``evergreen_bench``), sends sequential requests and prints median and 95th-percentile
latencies side by side, with the targets of issue 16:

* game page from the page cache ≤ 2 x a minimal view (GET returning "ok");
* game page rendered afresh (page cache bypassed) ≤ 4 x that view. The parts of the page
  kept for the game's moves (``games.fragments``: the game log, the opponents' planets)
  are warm there, so the same target is printed beside it for the first render after a
  move: a real move (and its round revealed) made before each request, in games of the
  same two users in their second season, as the first viewer after a move finds it;
* turn submission (API: a whole turn that completes the round; revealing it is queued
  for a Celery worker, as in production) ≤ 3 x a minimal view that writes one row.

The cache (pages, sessions) is Redis, as in production with more than one web process.

Each timed request is also timed inside the gunicorn worker (``gunicorn_timing``: from
its ``pre_request`` to its ``post_request``), so a ratio splits into what Django spends
and what every request costs around it (the connection, parsing, the client), which no
change to a view removes.

The processes (gunicorn, a private redis-server as the broker) come from ``webstack``,
shared with the load run. ``BENCH_DATABASE_URL`` names the scratch database (dropped and
created again; default ``postgresql://postgres@127.0.0.1:5432/evergreen_bench``).

Usage: ``.venv/bin/python -m tests.benchmarks.bench_web [--requests N]`` (or ``make bench``).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.benchmarks.webstack import (
    RedisServer,
    gunicorn,
    percentiles,
    scratch_database,
    static_root,
    timed,
)

# The goals of issue 16, as multiples of the minimal views.
PAGE_TARGET = 2.0  # the game page from the page cache
RENDER_TARGET = 4.0  # the game page rendered afresh (what every viewer gets after a move)
SUBMIT_TARGET = 3.0  # a turn submitted through the API
SETTLE_SECONDS = 0.01  # the pause after a turn before the next timed request

DATABASE_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/evergreen_bench"
)


def prepare_database() -> None:
    import psycopg

    scratch_database(DATABASE_URL)
    with psycopg.connect(DATABASE_URL, autocommit=True) as conn:
        conn.execute("CREATE TABLE bench_row (id serial PRIMARY KEY, note text)")


def prepare_games(n_turns: int) -> dict[str, Any]:
    import django

    django.setup()
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.sessions.backends.cached_db import SessionStore
    from rest_framework.authtoken.models import Token

    from games import services
    from games.evergreen import rules
    from games.evergreen.rules.bots import RandomBot

    user = get_user_model().objects.create_user("bench", "bench@example.org", "bench-password")
    rival = get_user_model().objects.create_user("rival", "rival@example.org", "bench-password")
    token = Token.objects.create(user=user).key
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "games.auth.PlayerBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()

    # A long game for the page: two humans, played to the third season.
    page_game = services.create_game(user, players=2)
    services.join_game(page_game.pk, rival)
    play_on(page_game.pk, until_season=3)

    # Games against a computer player, each waiting for the bench user's turn.
    bot, turns = RandomBot(1), []
    for k in range(n_turns):
        game = services.create_game(user, players=2, computer_seats=1, bot="random")
        game.refresh_from_db()
        while game.engine_state().phase is not rules.Phase.ACTION:
            state = game.engine_state()
            services.submit_move(game.pk, user, bot.choose(state, 0))
            services.close_game_round(game.pk)
            game.refresh_from_db()
        turn = RandomBot(k).choose(game.engine_state(), 0).to_json()
        turns.append((game.pk, {k: v for k, v in turn.items() if k not in ("type", "seat")}))
    return {
        "token": token,
        "session": session.session_key,
        "page_game": page_game.pk,
        "moves_in_page_game": page_game.moves.count(),
        "users": (user.pk, rival.pk),
        "turns": turns,
    }


def play_on(
    game_id: int,
    *,
    until_season: int | None = None,
    moves: int | None = None,
    reached: Callable[[Any], bool] | None = None,
    bot: Any = None,
) -> bool:
    """Play game ``game_id`` on by ``bot`` (Evergreen's random bot unless told), as its
    seated humans, each round revealed at once (no worker here): to ``until_season`` (an
    Evergreen game's), to a state ``reached`` says it has reached, or ``moves`` moves.
    False once it ended."""
    from games import services
    from games.evergreen.rules.bots import RandomBot
    from games.models import Game

    bot, made = bot or RandomBot(game_id), 0
    while moves is None or made < moves:
        game = Game.objects.get(pk=game_id)
        if not game.is_playable:
            return False
        state = game.engine_state()
        if until_season is not None and state.season >= until_season:
            return True
        if reached is not None and reached(state):
            return True
        seat = state.awaiting[0]
        user = game.seats.get(position=seat).user
        services.submit_move(game_id, user, bot.choose(state, seat))
        services.close_game_round(game_id)
        made += 1
    return True


class MovesBetweenViews:
    """Games of the two bench users in their second season, each view preceded by a real
    move (what every viewer's next page follows): the log, the planets and the page are
    drawn anew, while what a move leaves alone (rounds closed before) stays kept."""

    def __init__(self, users: tuple[int, int]) -> None:
        self.users = users
        self.game_id = self._new_game()

    def _new_game(self) -> int:
        from django.contrib.auth import get_user_model

        from games import services

        user, rival = (get_user_model().objects.get(pk=pk) for pk in self.users)
        game = services.create_game(user, players=2)
        services.join_game(game.pk, rival)
        play_on(game.pk, until_season=2)
        return int(game.pk)

    def next_page(self) -> str:
        """A move made in the current game (a new game once it has ended): its page."""
        while not play_on(self.game_id, moves=1):
            self.game_id = self._new_game()
        return f"/games/{self.game_id}/"


def first_view_cookies(port: int, path: str, headers: dict[str, str]) -> dict[str, str]:
    """The cookies a browser holds after its first page view (``name=value`` by name):
    the CSRF cookie, and the hint of whom it is signed in as (``games.usersession``)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    response.read()
    conn.close()
    cookies = {}
    for name, value in response.getheaders():
        if name.lower() == "set-cookie":
            pair = value.split(";", 1)[0]
            cookies[pair.split("=", 1)[0]] = pair
    if "csrftoken" not in cookies:
        raise RuntimeError("the page set no CSRF cookie")
    return cookies


summary = percentiles


def kind(name: str, headers: dict[str, str] | None = None) -> dict[str, str]:
    """``headers`` naming the kind of request, for ``gunicorn_timing``'s figures."""
    return {**(headers or {}), "X-Bench-Kind": name}


def in_worker(folder: Path) -> dict[str, tuple[float, float]]:
    """The median wall and CPU ms of each kind inside the worker (``gunicorn_timing``)."""
    timed: dict[str, list[list[float]]] = {}
    for path in folder.glob("timing-*.json"):
        for name, samples in json.loads(path.read_text()).items():
            timed.setdefault(name, []).extend(samples)
    return {
        name: (
            statistics.median(wall for wall, *_ in samples),
            statistics.median(cpu for _, cpu, *_ in samples),
        )
        for name, samples in timed.items()
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    os.environ["DJANGO_SETTINGS_MODULE"] = "evergreen.settings"
    os.environ["DATABASE_URL"] = DATABASE_URL
    os.environ["ROOT_URLCONF"] = "evergreen.bench_urls"
    os.environ["DEBUG"] = "0"
    os.environ["SECRET_KEY"] = "bench-only-secret"
    os.environ["DB_CONN_MAX_AGE"] = "60"
    # collectstatic's output, served by WhiteNoise as in production (one per process).
    os.environ["STATIC_ROOT"] = static_root()
    # One bench user submits every measured turn in a burst: the per-player limit is
    # checked on each submission as in production, but set high enough not to refuse.
    os.environ["MOVE_RATE_LIMIT"] = "1000000/minute"
    workdir = Path(tempfile.mkdtemp(prefix="evergreen-bench-"))
    # Rounds completed by the measured submissions are queued for a worker that is not
    # running here (the reveal is asynchronous in production too): keep that queue apart.
    os.environ["CELERY_FILESYSTEM_DIR"] = str(workdir)
    # Each timed request also timed inside the worker (``gunicorn_timing``), by its kind.
    (workdir / "timing").mkdir()
    os.environ["BENCH_TIMING_DIR"] = str(workdir / "timing")
    # As in production, the broker is Redis: a private redis-server on a free port (never
    # the machine's shared one), or the folder broker when redis-server is not installed.
    broker: RedisServer | None = None
    try:
        broker = RedisServer(workdir / "redis.log")
        os.environ["CELERY_BROKER_URL"] = broker.url()
        # As in production with more than one web process (README, "Production"): the
        # cache (page cache, sessions, rate limits) in Redis too.
        os.environ["CACHE_URL"] = broker.url(1)
    except (FileNotFoundError, RuntimeError, TimeoutError) as exc:
        print(f"no private Redis ({exc}); the folder broker is used", file=sys.stderr)
    print("preparing database and games…", file=sys.stderr)
    prepare_database()
    data = prepare_games(args.requests)
    server, port = gunicorn(os.environ.copy(), workdir / "gunicorn.log", workers=1)
    try:
        for _ in range(100):
            try:
                timed(port, "GET", "/bench/read/", {})
                break
            except (OSError, RuntimeError):
                time.sleep(0.1)
        session = {"Cookie": f"sessionid={data['session']}"}
        api = {"Authorization": f"Token {data['token']}", "Content-Type": "application/json"}
        page = f"/games/{data['page_game']}/"
        for _ in range(20):  # warm up both
            timed(port, "GET", "/bench/read/", {})
            timed(port, "GET", page, session)
        held = first_view_cookies(port, page, session)
        # The renders come without the CSRF cookie (never from the page cache), with the
        # others a browser holds.
        cookie = {
            "Cookie": "; ".join(
                [session["Cookie"], *(v for k, v in held.items() if k != "csrftoken")]
            )
        }
        browser = {"Cookie": "; ".join([session["Cookie"], *held.values()])}
        reads, pages, renders, writes, submits = [], [], [], [], []
        for _ in range(args.requests):
            reads.append(timed(port, "GET", "/bench/read/", kind("read")))
            pages.append(timed(port, "GET", page, kind("page", browser)))
            # No CSRF cookie: never from the page cache.
            renders.append(timed(port, "GET", page, kind("render", cookie)))
        colds, moves = [], MovesBetweenViews(data["users"])
        for _ in range(args.requests):
            colds.append(timed(port, "GET", moves.next_page(), kind("cold", cookie)))
        for k, (game_id, turn) in enumerate(data["turns"]):
            writes.append(timed(port, "POST", "/bench/write/", kind("write"), b""))
            body = json.dumps(turn).encode()
            headers = kind("submit", {**api, "Idempotency-Key": f"bench-{k}"})
            submits.append(timed(port, "POST", f"/api/games/{game_id}/turn/", headers, body))
            # A turn's task is sent after its response (games.handoff): the worker finishes
            # that before the next request is timed, which would otherwise wait for it.
            time.sleep(SETTLE_SECONDS)
    finally:
        server.stop()
        if broker is not None:
            broker.stop()
    read, write = summary(reads)[0], summary(writes)[0]
    pages_name = f"game page ({data['moves_in_page_game']} moves)"
    rows = [  # each with the kind its requests were sent as (``kind``)
        ("minimal view (GET)", summary(reads), None, "read"),
        (pages_name, summary(pages), PAGE_TARGET * read, "page"),
        (
            "game page rendered afresh (cache bypassed)",
            summary(renders),
            RENDER_TARGET * read,
            "render",
        ),
        ("first render after a move (caches cold)", summary(colds), RENDER_TARGET * read, "cold"),
        ("minimal view writing one row (POST)", summary(writes), None, "write"),
        ("turn submission (API)", summary(submits), SUBMIT_TARGET * write, "submit"),
    ]
    print(
        f"Web benchmark: gunicorn (1 sync worker) + PostgreSQL + "
        f"{os.environ.get('CELERY_BROKER_URL', 'filesystem://').split('://')[0]} broker "
        f"on loopback, {args.requests} requests each; cache: "
        f"{'Redis' if os.environ.get('CACHE_URL') else 'process memory'}"
    )
    print(f"  {'':44} {'median':>9} {'p95':>9}   target")
    figures: dict[str, Any] = {}
    for name, (median, p95), limit, _ in rows:
        target = (
            "" if limit is None else f"<= {limit:.2f} ms  {'ok' if median <= limit else 'MISSED'}"
        )
        print(f"  {name:44} {median:7.2f}ms {p95:7.2f}ms   {target}")
        figures[name] = {"median_ms": round(median, 2), "p95_ms": round(p95, 2)}
    ratio_page = summary(pages)[0] / read
    ratio_render = summary(renders)[0] / read
    ratio_cold = summary(colds)[0] / read
    ratio_submit = summary(submits)[0] / write
    print(
        f"  game page / minimal view = {ratio_page:.2f}x (target {PAGE_TARGET:g}x); "
        f"rendered afresh / minimal view = {ratio_render:.2f}x (target {RENDER_TARGET:g}x); "
        f"first render after a move / minimal view = {ratio_cold:.2f}x "
        f"(target {RENDER_TARGET:g}x); "
        f"turn submission / minimal write = {ratio_submit:.2f}x (target {SUBMIT_TARGET:g}x)"
    )
    inside = in_worker(Path(os.environ["BENCH_TIMING_DIR"]))
    # post_request runs after the response's close(): what a request does once its
    # response has gone (games.handoff, games.keptafter) is in the worker's time, not in
    # the client's, so the difference can be below zero.
    print(
        "  inside the worker (gunicorn's pre_request to post_request, with what runs once"
        " the response has gone), median, and the client's median minus it:"
    )
    for name, (median, _), _, key in rows:
        if key in inside:
            wall, cpu = inside[key]
            print(
                f"  {name:44} {wall:7.2f}ms wall {cpu:6.2f}ms CPU; client {median - wall:+5.2f}ms"
            )
    print(
        json.dumps(
            {
                "bench_web": figures,
                "in_worker": {
                    k: {"wall_ms": round(w, 2), "cpu_ms": round(c, 2)}
                    for k, (w, c) in inside.items()
                },
                "page_ratio": round(ratio_page, 2),
                "render_ratio": round(ratio_render, 2),
                "cold_render_ratio": round(ratio_cold, 2),
                "submit_ratio": round(ratio_submit, 2),
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
