"""An API client polls its game with ``?since=<version>``: 204 with no body while nothing
has moved, answered before DRF and PostgreSQL (``games.api.quickpoll``), and the whole
view once the game has moved; refused as any read is for a bad token or a bad ``since``."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.authtoken.models import Token

from games.models import Game
from tests.games.apihelpers import api_url, fixed_seed  # noqa: F401
from tests.games.gamehelpers import api_client_for, marks_gone, user_at

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fixed_seed")]

TURN = {"action": "D", "effects": [], "power": None}


def poll(client: Any, game: Game, since: Any) -> Any:
    return client.get(api_url("game", game.pk), {"since": since})


@pytest.mark.usefixtures("kept_users")
class TestAPollWhileNothingMoved:
    def test_is_answered_204_with_no_body_and_no_query(
        self, action_game: Game, django_assert_num_queries: Any
    ) -> None:
        client = api_client_for(user_at(action_game, 0))
        marks_gone()
        seen = client.get(api_url("game", action_game.pk)).json()["version"]
        assert poll(client, action_game, seen).status_code == 204  # the version read and kept
        with django_assert_num_queries(0):
            answer = poll(client, action_game, seen)
        assert answer.status_code == 204
        assert answer.content == b""
        assert "no-cache" in answer["Cache-Control"]

    def test_is_answered_before_the_apis_views(self, action_game: Game, monkeypatch: Any) -> None:
        from rest_framework.views import APIView

        client = api_client_for(user_at(action_game, 0))
        seen = client.get(api_url("game", action_game.pk)).json()["version"]

        def no_view(*args: Any, **kwargs: Any) -> None:
            raise AssertionError("the poll reached DRF")

        monkeypatch.setattr(APIView, "initial", no_view)
        assert poll(client, action_game, seen).status_code == 204

    def test_gets_the_whole_view_once_a_move_was_made(self, action_game: Game) -> None:
        alice, bob = user_at(action_game, 0), user_at(action_game, 1)
        client = api_client_for(bob)
        seen = client.get(api_url("game", action_game.pk)).json()["version"]
        assert api_client_for(alice).post(api_url("turn", action_game.pk), TURN, format="json")
        answer = poll(client, action_game, seen)
        assert answer.status_code == 200
        assert answer.json()["version"] > seen
        assert answer.json()["my_seat"] == 1
        assert poll(client, action_game, answer.json()["version"]).status_code == 204

    def test_that_finds_the_game_moved_on_reads_its_version_once(
        self, action_game: Game, monkeypatch: Any
    ) -> None:
        from games import pollcache

        client = api_client_for(user_at(action_game, 0))
        reads: list[int] = []
        read = pollcache.cached_version
        monkeypatch.setattr(pollcache, "cached_version", lambda pk: reads.append(pk) or read(pk))
        answer = poll(client, action_game, action_game.version - 1)
        assert answer.status_code == 200
        assert reads == [action_game.pk]  # by the middleware; the view takes its answer

    def test_of_a_version_the_game_never_had_gets_the_view(self, action_game: Game) -> None:
        client = api_client_for(user_at(action_game, 0))
        answer = poll(client, action_game, action_game.version + 5)
        assert answer.status_code == 200
        assert answer.json()["version"] == action_game.version

    def test_is_answered_alike_by_the_view_when_no_version_is_kept(
        self, action_game: Game, settings: Any
    ) -> None:
        settings.MIDDLEWARE = [
            m for m in settings.MIDDLEWARE if not m.endswith("QuickApiPollMiddleware")
        ]
        client = api_client_for(user_at(action_game, 0))
        assert poll(client, action_game, action_game.version).status_code == 204
        assert poll(client, action_game, action_game.version - 1).status_code == 200

    def test_of_a_signed_in_browser_is_answered_by_the_view(self, action_game: Game) -> None:
        from django.test import Client

        browser = Client()
        browser.force_login(user_at(action_game, 0))
        assert poll(browser, action_game, action_game.version).status_code == 204


@pytest.mark.usefixtures("kept_users")
class TestAPollIsRefused:
    def test_with_a_bad_token_even_at_the_games_version(self, action_game: Game) -> None:
        client = api_client_for(None)
        client.credentials(HTTP_AUTHORIZATION="Token not-a-real-key")
        assert poll(client, action_game, action_game.version).status_code == 401

    def test_without_credentials(self, action_game: Game) -> None:
        assert poll(api_client_for(None), action_game, action_game.version).status_code == 401

    def test_for_a_deactivated_user(self, action_game: Game) -> None:
        alice = user_at(action_game, 0)
        client = api_client_for(alice)
        assert poll(client, action_game, action_game.version).status_code == 204
        alice.is_active = False
        alice.save()
        assert poll(client, action_game, action_game.version).status_code == 401

    def test_for_a_token_deleted_since(self, action_game: Game) -> None:
        alice = user_at(action_game, 0)
        client = api_client_for(alice)
        assert poll(client, action_game, action_game.version).status_code == 204
        Token.objects.filter(user=alice).delete()
        assert poll(client, action_game, action_game.version).status_code == 401

    @pytest.mark.parametrize("since", ["abc", "-1", "²", "1.0", "9" * 19, ""])
    def test_with_a_since_that_is_no_version(self, action_game: Game, since: str) -> None:
        answer = poll(api_client_for(user_at(action_game, 0)), action_game, since)
        assert answer.status_code == 400
        assert answer.json()["code"] == "bad_since"

    def test_with_since_given_twice(self, action_game: Game) -> None:
        client = api_client_for(user_at(action_game, 0))
        url = f"{api_url('game', action_game.pk)}?since={action_game.version}&since=1"
        assert client.get(url).json()["code"] == "bad_query"

    def test_for_a_game_that_does_not_exist(self, action_game: Game) -> None:
        client = api_client_for(user_at(action_game, 0))
        assert client.get(api_url("game", 999999), {"since": 1}).status_code == 404
