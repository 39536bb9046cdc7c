"""Redis stopped in the middle of a game, then started again, on the production wiring:
the cache (sessions read first, the game page cache, the rate limits) and the Celery
broker both on a private redis-server, a real Celery worker with its beat.

While Redis is down, logging in, the token endpoint, the game page and every move
answer as usual (the cache misses, the rate limit lets requests through with a logged
warning, a move is committed though its closing task cannot be sent). Once Redis is
back, the beat's safety nets close the rounds and send the mails: every game replays to
its stored state, every accepted move is stored once, every round closed once, every
mail arrives once.
"""

from __future__ import annotations

import logging
import time
import uuid
from typing import Any

import pytest
import redis
from django.test import Client
from django.urls import reverse

import tests.load.faultsite as faults
from evergreen.tolerant_cache import TolerantRedisCache
from games import services
from games.evergreen import rules
from games.evergreen.rules.bots import RandomBot
from games.models import Game
from tests.benchmarks.loadaudit import audit_game, audit_mails, settle
from tests.benchmarks.loadstack import mail_every_move
from tests.games.gamehelpers import PASSWORD, make_user

site = faults.site  # the private Redis, the SMTP sink and the worker with its beat
live = faults.live


class Table:
    """Two players, each with an API token and a signed-in browser session."""

    def __init__(self) -> None:
        tag = uuid.uuid4().hex[:6]
        self.accepted: list[str] = []
        self.statuses: list[tuple[str, int]] = []
        self.users = [make_user(f"outage-a-{tag}"), make_user(f"outage-b-{tag}")]
        mail_every_move(*self.users)
        self.game = services.create_game(self.users[0], players=2)
        services.join_game(self.game.pk, self.users[1])
        self.tokens = [self.token(user) for user in self.users]
        self.bot = RandomBot(5)

    def answered(self, what: str, response: Any) -> Any:
        self.statuses.append((what, response.status_code))
        return response

    def token(self, user: Any) -> str:
        response = self.answered(
            "token",
            Client().post(
                reverse("api:token"),
                {"email": user.email, "password": PASSWORD},
                content_type="application/json",
            ),
        )
        assert response.status_code == 200, response.content
        return str(response.json()["token"])

    def log_in_and_look(self, user: Any) -> None:
        client = Client()
        login = self.answered(
            "login",
            client.post(reverse("account_login"), {"login": user.email, "password": PASSWORD}),
        )
        assert login.status_code == 302, login.content[:300]
        for _twice in range(2):  # the second read would come from the page cache
            page = self.answered("page", client.get(f"/games/{self.game.pk}/"))
            assert page.status_code == 200

    def move_once(self) -> bool:
        """Every seat that must move moves (through the API, the example bot's choice);
        False when nobody must (the round waits for its closing, or the game is over)."""
        game = Game.objects.get(pk=self.game.pk)
        if game.status != Game.Status.ACTIVE or game.needs_closing:
            return False
        state = game.engine_state()
        for seat in state.awaiting:
            auth = {"HTTP_AUTHORIZATION": f"Token {self.tokens[seat]}"}
            version = self.answered(
                "view", Client().get(f"/api/games/{self.game.pk}/", **auth)
            ).json()["version"]
            body = rules.move_to_json(self.bot.choose(state, seat))
            kind = body.pop("type")
            body.pop("seat")
            key = uuid.uuid4().hex
            response = self.answered(
                kind,
                Client().post(
                    f"/api/games/{self.game.pk}/{kind}/",
                    body,
                    content_type="application/json",
                    HTTP_IF_MATCH=str(version),
                    HTTP_IDEMPOTENCY_KEY=key,
                    **auth,
                ),
            )
            assert response.status_code == 200, response.content
            self.accepted.append(key)
        return bool(state.awaiting)

    def play_until_a_round_is_complete(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not Game.objects.get(pk=self.game.pk).needs_closing:
            assert time.monotonic() < deadline, "no round completed"
            if not self.move_once():
                time.sleep(0.1)


def closed(game_id: int) -> bool:
    return not Game.objects.get(pk=game_id).needs_closing


def test_redis_stopped_mid_game_no_500_nothing_lost_nothing_twice(
    live: faults.Site,
    settings: Any,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The warning is given once a minute per process: an earlier test of this worker
    # (the move limit's, with Redis gone) must not have used this one up.
    monkeypatch.setattr(TolerantRedisCache, "warned_at", float("-inf"))
    settings.CACHES = {
        "default": {
            "BACKEND": "evergreen.tolerant_cache.TolerantRedisCache",
            "LOCATION": live.redis.url(1),
        }
    }
    settings.GAME_PAGE_CACHE_SECONDS = 60
    settings.MOVE_RATE_LIMIT = "600/minute"
    table = Table()
    table.log_in_and_look(table.users[0])
    table.play_until_a_round_is_complete()
    faults.wait(lambda: closed(table.game.pk), "the round closed by its task")
    cache_keys = redis.Redis.from_url(live.redis.url(1)).keys("*")
    assert cache_keys, "the cache was not on Redis: the test would prove nothing"

    live.redis.kill()
    killed_at_version = Game.objects.get(pk=table.game.pk).version
    with caplog.at_level(logging.WARNING, logger="evergreen.cache"):
        table.tokens = [table.token(user) for user in table.users]
        table.log_in_and_look(table.users[1])
        table.play_until_a_round_is_complete()  # its closing task cannot be sent
        assert Game.objects.get(pk=table.game.pk).version > killed_at_version
        time.sleep(2)  # the beat's safety net cannot run either: the round waits
        assert not closed(table.game.pk)
    assert any("cannot be reached" in r.getMessage() for r in caplog.records)

    live.redis.start()
    if live.worker is None or not live.worker.alive():
        # A worker that died anyway of Redis going (evergreen/broker.py keeps it alive where
        # kombu's own transport stopped it) is started again, as a process manager would.
        live.start_worker()
    # The round completed while Redis was down is closed by the beat's safety net; then
    # the game goes on.
    faults.wait(
        lambda: closed(table.game.pk),
        "the safety net to close the round played without Redis",
        faults.SETTLE_SECONDS,
    )
    table.play_until_a_round_is_complete()

    assert [what for what, status in table.statuses if status >= 500] == []
    left = settle([table.game.pk], faults.SETTLE_SECONDS)
    assert left is None, f"{left}\n--- worker log ---\n{live.worker_log()[-3000:]}"
    game = Game.objects.get(pk=table.game.pk)
    audit = audit_game(game, table.accepted)
    assert [*audit.replay, *audit.moves, *audit.closing] == []
    assert audit.closings == audit.rounds_to_close >= 3
    mails = audit_mails([game.pk], live.sink.message_id_counts())
    assert mails.problems == [] and mails.sent > 0
