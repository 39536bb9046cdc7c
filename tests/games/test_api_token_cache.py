"""API tokens kept in the cache (``games.api.tokencache``, with ``games.usercache``): a
request whose token was seen lately reads no row to know its user, and yet a token
replaced, a user deactivated or a player's language changed is heeded by the very next
request."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from games import usercache
from games.models import Game
from tests.games.apihelpers import api_url, fixed_seed  # noqa: F401
from tests.games.gamehelpers import (
    api_client_for,
    deactivated_between_reading_and_keeping,
    marks_gone,
    user_at,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fixed_seed")]


def rows_read(captured: Any, table: str) -> int:
    return sum(f'FROM "{table}"' in q["sql"] for q in captured.captured_queries)


@pytest.mark.usefixtures("kept_users")
class TestATokenSeenLately:
    def test_is_not_read_again_and_the_answer_is_the_same(
        self, action_game: Game, django_assert_max_num_queries: Any
    ) -> None:
        client = api_client_for(user_at(action_game, 0))
        marks_gone()
        first = client.get(api_url("game", action_game.pk))
        with django_assert_max_num_queries(3) as captured:
            again = client.get(api_url("game", action_game.pk))
        assert rows_read(captured, "authtoken_token") == rows_read(captured, "auth_user") == 0
        assert again.status_code == 200
        assert again.json() == first.json()
        assert again.json()["my_seat"] == 0

    def test_plays_a_turn_as_its_own_player(self, action_game: Game) -> None:
        alice = user_at(action_game, 0)
        client = api_client_for(alice)
        client.get(api_url("game", action_game.pk))
        turn = {"action": "D", "effects": [], "power": None}
        response = client.post(api_url("turn", action_game.pk), turn, format="json")
        assert response.status_code == 200
        assert action_game.moves.order_by("number").last().user == alice


@pytest.mark.usefixtures("kept_users")
class TestAChangeIsHeededAtOnce:
    def test_a_replaced_token_no_longer_works(self, action_game: Game) -> None:
        alice = user_at(action_game, 0)
        client = api_client_for(alice)
        assert client.get(api_url("game", action_game.pk)).status_code == 200
        Token.objects.filter(user=alice).delete()
        Token.objects.create(user=alice)
        assert client.get(api_url("game", action_game.pk)).status_code == 401

    def test_a_deactivated_user_is_refused(self, action_game: Game) -> None:
        alice = user_at(action_game, 0)
        client = api_client_for(alice)
        assert client.get(api_url("game", action_game.pk)).status_code == 200
        alice.is_active = False
        alice.save()
        response = client.get(api_url("game", action_game.pk))
        assert response.status_code == 401

    def test_the_language_chosen_on_the_site_is_the_apis_next_answer(
        self, action_game: Game
    ) -> None:
        alice = user_at(action_game, 0)
        client = api_client_for(alice)
        bad_turn = {"action": "Z", "effects": [], "power": None}
        english = client.post(api_url("turn", action_game.pk), bad_turn, format="json")
        browser = Client()
        browser.force_login(alice)
        browser.post(reverse("set_language"), {"language": "de", "next": "/"})
        german = client.post(api_url("turn", action_game.pk), bad_turn, format="json")
        assert english.status_code == german.status_code == 400
        assert english.json()["code"] == german.json()["code"]
        assert english.json()["message"] != german.json()["message"]


@pytest.mark.usefixtures("kept_users")
class TestOneCacheRead:
    def test_a_token_seen_lately_brings_its_user_and_player_with_it(
        self, action_game: Game, monkeypatch: Any
    ) -> None:
        client = api_client_for(user_at(action_game, 0))
        marks_gone()
        first = client.get(api_url("game", action_game.pk))
        looked_up = users_looked_up(monkeypatch)
        again = client.get(api_url("game", action_game.pk))
        assert again.json() == first.json()
        assert user_at(action_game, 0).pk not in looked_up  # it came with the token

    def test_a_turn_does_not_look_up_the_player_asking_again(
        self, action_game: Game, monkeypatch: Any
    ) -> None:
        alice = user_at(action_game, 0)
        client = api_client_for(alice)
        marks_gone()
        client.get(api_url("game", action_game.pk))
        looked_up = users_looked_up(monkeypatch)
        turn = {"action": "D", "effects": [], "power": None}
        assert client.post(api_url("turn", action_game.pk), turn, format="json").status_code == 200
        assert alice.pk not in looked_up
        assert user_at(action_game, 1).pk in looked_up  # the other seats' users are
        assert action_game.moves.order_by("number").last().user == alice

    def test_a_lookup_that_read_the_rows_before_a_change_does_not_keep_them(
        self, action_game: Game, monkeypatch: Any
    ) -> None:
        alice = user_at(action_game, 0)
        client = api_client_for(alice)
        marks_gone()
        with deactivated_between_reading_and_keeping(monkeypatch, alice):
            assert client.get(api_url("game", action_game.pk)).status_code == 200  # as read
        assert client.get(api_url("game", action_game.pk)).status_code == 401


def users_looked_up(monkeypatch: Any) -> list[int]:
    """The ids ``games.usercache.users`` is asked for from now on."""
    asked: list[int] = []
    real = usercache.users

    def users(ids: Any) -> dict[int, Any]:
        ids = list(ids)
        asked.extend(ids)
        return real(ids)

    monkeypatch.setattr(usercache, "users", users)
    return asked
