"""API tokens kept in the cache (``games.api.tokencache``): a request whose token was seen
lately reads no row to know its user, and yet a token replaced, a user deactivated, a
player's language changed or a password changed is heeded by the very next request."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from games.api import tokencache
from games.models import Game
from tests.games.apihelpers import api_url, fixed_seed  # noqa: F401
from tests.games.gamehelpers import api_client_for, user_at

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fixed_seed")]


@pytest.fixture
def kept_tokens(settings: Any) -> Any:
    """Tokens kept, as in production (the test settings keep none), in an empty cache."""
    settings.API_TOKEN_CACHE_SECONDS = 300
    cache.clear()
    yield
    cache.clear()


def token_reads(captured: Any) -> int:
    return sum('FROM "authtoken_token"' in q["sql"] for q in captured.captured_queries)


@pytest.mark.usefixtures("kept_tokens")
class TestATokenSeenLately:
    def test_is_not_read_again_and_the_answer_is_the_same(
        self, action_game: Game, django_assert_max_num_queries: Any
    ) -> None:
        client = api_client_for(user_at(action_game, 0))
        first = client.get(api_url("game", action_game.pk))
        with django_assert_max_num_queries(3) as captured:
            again = client.get(api_url("game", action_game.pk))
        assert token_reads(captured) == 0
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

    def test_keeps_no_password_hash_and_never_writes_one_back(self, alice: Any) -> None:
        token, _ = Token.objects.get_or_create(user=alice)
        tokencache.token_with_user(token.key)
        kept = tokencache.token_with_user(token.key)
        assert alice.password not in repr(cache.get(tokencache._cache_key(token.key)))
        alice.set_password("a new secret")
        alice.save()
        kept.user.first_name = "Alicia"
        kept.user.save()
        alice.refresh_from_db()
        assert alice.first_name == "Alicia"
        assert alice.check_password("a new secret")


@pytest.mark.usefixtures("kept_tokens")
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

    def test_a_lookup_that_read_the_rows_before_a_change_does_not_keep_them(
        self, alice: Any, monkeypatch: Any
    ) -> None:
        token, _ = Token.objects.get_or_create(user=alice)
        read = tokencache._read

        def read_then_change(key: str) -> Token:
            rows = read(key)
            alice.is_active = False
            alice.save()  # the change lands while the slow lookup is under way
            return rows

        monkeypatch.setattr(tokencache, "_read", read_then_change)
        assert tokencache.token_with_user(token.key).user.is_active  # what it had read
        monkeypatch.setattr(tokencache, "_read", read)
        assert not tokencache.token_with_user(token.key).user.is_active
