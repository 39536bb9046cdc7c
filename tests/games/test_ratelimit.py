"""The per-player limit on move submissions: 429 with a clear sentence, nothing played."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse

from games.models import Game, Move
from tests.games.gamehelpers import api_client_for, client_for, user_at


@pytest.fixture(autouse=True)
def three_a_minute(settings: Any) -> Any:
    settings.MOVE_RATE_LIMIT = "3/minute"
    cache.clear()
    yield
    cache.clear()


def awaiting(game: Game) -> tuple[Any, Any]:
    state = game.engine_state()
    return user_at(game, state.to_pick), user_at(game, 1 - state.to_pick)


def api_pick(user: Any, game: Game, card: str) -> Any:
    return api_client_for(user).post(
        reverse("api:pick", args=[game.pk]), {"card": card}, format="json"
    )


def frozen(game: Game) -> tuple[int, int]:
    game.refresh_from_db()
    return game.version, Move.objects.filter(game=game).count()


def test_the_api_answers_429_with_a_clear_message_and_plays_nothing(two_player_game):
    game = two_player_game
    me, _ = awaiting(game)
    for _ in range(3):  # refused moves count too: the limit is on submissions
        assert api_pick(me, game, "no-such-card").status_code == 400
    before = frozen(game)
    response = api_pick(me, game, game.engine_state().pool[0])
    assert response.status_code == 429
    body = response.json()
    assert body["code"] == "rate_limited"
    assert "3 moves a minute" in body["message"]
    assert "wait" in body["message"]
    assert 1 <= int(response["Retry-After"]) <= 60
    assert frozen(game) == before


def test_the_limit_is_each_players_own(two_player_game):
    game = two_player_game
    me, other = awaiting(game)
    for _ in range(4):
        api_pick(me, game, "no-such-card")
    assert api_pick(me, game, "no-such-card").status_code == 429
    # The other player is not slowed down by it.
    assert api_pick(other, game, "no-such-card").status_code in (400, 409)


def test_the_page_shows_the_limit_and_plays_nothing(two_player_game):
    game = two_player_game
    me, _ = awaiting(game)
    client = client_for(me)
    url = reverse("games:pick", args=[game.pk])
    for _ in range(3):
        client.post(url, {"card": "no-such-card", "version": game.version, "key": ""})
    before = frozen(game)
    response = client.post(
        url,
        {"card": game.engine_state().pool[0], "version": game.version, "key": "p1"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 429
    assert "faster than this site allows" in response.content.decode()
    assert response["Retry-After"]
    assert frozen(game) == before


def test_an_empty_setting_means_no_limit(two_player_game, settings):
    settings.MOVE_RATE_LIMIT = ""
    game = two_player_game
    me, _ = awaiting(game)
    for _ in range(6):
        assert api_pick(me, game, "no-such-card").status_code == 400
