"""The move limit on the shared cache (Redis, as with several web processes): counted in
one round trip, with DRF's sliding window and its refusal; open while Redis is gone."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from django.urls import reverse

from evergreen.tolerant_cache import TolerantRedisCache
from games import ratelimit
from games.models import Game
from tests.benchmarks.webstack import RedisServer
from tests.games.gamehelpers import api_client_for, user_at


@pytest.fixture
def shared_cache(redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch) -> TolerantRedisCache:
    cache = TolerantRedisCache(redis_server.url(3), {})
    cache.clear()
    monkeypatch.setattr(ratelimit.MoveThrottle, "cache", cache)
    return cache


@pytest.fixture(autouse=True)
def three_a_minute(settings: Any) -> None:
    settings.MOVE_RATE_LIMIT = "3/minute"


def api_pick(user: Any, game: Game, card: str) -> Any:
    return api_client_for(user).post(
        reverse("api:pick", args=[game.pk]), {"card": card}, format="json"
    )


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.mark.django_db
def test_the_fourth_move_in_a_minute_is_refused_saying_how_long_to_wait(
    shared_cache: TolerantRedisCache, two_player_game: Game
) -> None:
    me = user_at(two_player_game, two_player_game.engine_state().to_pick)
    for _ in range(3):  # refused moves count too: the limit is on submissions
        assert api_pick(me, two_player_game, "no-such-card").status_code == 400
    response = api_pick(me, two_player_game, "no-such-card")
    assert response.status_code == 429
    assert response.json()["code"] == "rate_limited"
    assert 1 <= int(response["Retry-After"]) <= 60


def test_the_window_slides_and_each_refusal_counts_nothing(
    shared_cache: TolerantRedisCache, redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock(1000.0)
    monkeypatch.setattr(ratelimit.MoveThrottle, "timer", clock)
    player = type("Request", (), {"user": type("User", (), {"pk": 7, "is_authenticated": True})})
    for second in (0, 10, 20):
        clock.now = 1000.0 + second
        assert ratelimit.MoveThrottle().allow_request(player, None)
    clock.now = 1030.0
    throttle = ratelimit.MoveThrottle()
    assert not throttle.allow_request(player, None)
    assert throttle.wait() == pytest.approx(30.0)  # the first hit leaves the window at 1060
    clock.now = 1060.0  # the hit of 1000 is out: one more may go, the refusal was not kept
    assert ratelimit.MoveThrottle().allow_request(player, None)
    assert not ratelimit.MoveThrottle().allow_request(player, None)
    other = type("Request", (), {"user": type("User", (), {"pk": 8, "is_authenticated": True})})
    assert ratelimit.MoveThrottle().allow_request(other, None)
    # Kept as one sorted set a player, written by the one script (not DRF's pickled list).
    server = redis.Redis.from_url(redis_server.url(3))
    assert server.type(shared_cache.make_key("window:throttle_moves_7")) == b"zset"
    assert server.zcard(shared_cache.make_key("window:throttle_moves_7")) == 3
    assert not server.exists(shared_cache.make_key("throttle_moves_7"))


def test_a_redis_that_is_gone_lets_moves_through(monkeypatch: pytest.MonkeyPatch) -> None:
    gone = TolerantRedisCache("redis://127.0.0.1:1/0", {})  # nothing listens on port 1
    monkeypatch.setattr(ratelimit.MoveThrottle, "cache", gone)
    player = type("Request", (), {"user": type("User", (), {"pk": 7, "is_authenticated": True})})
    for _ in range(5):
        assert ratelimit.MoveThrottle().allow_request(player, None)
