"""The API of conversations: the rules of the pages, the errors' codes, and responses that
are what the OpenAPI schema says."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from conversations import services
from conversations.models import Message
from tests.games.apihelpers import ResponseSchema
from tests.games.gamehelpers import api_client_for

GAME_PATH = "/api/games/{id}/messages/"
CLUB_PATH = "/api/clubs/{slug}/messages/{channel}/"


@pytest.fixture(scope="module")
def schema(django_db_blocker: Any) -> ResponseSchema:
    with django_db_blocker.unblock():
        return ResponseSchema()


class TestTheGamesChat:
    def test_a_player_posts_and_both_read_in_order(self, game, alice, bob, schema):
        url = f"/api/games/{game.pk}/messages/"
        posted = api_client_for(alice).post(url, {"text": "  gl hf  "}, format="json")
        assert posted.status_code == 201
        schema.check(GAME_PATH, "post", 201, posted.json())
        assert posted.json()["text"] == "gl hf"
        api_client_for(bob).post(url, {"text": "<b>you too</b>"}, format="json")
        read = api_client_for(bob).get(url)
        assert read.status_code == 200
        schema.check(GAME_PATH, "get", 200, read.json())
        assert [(m["author"], m["text"]) for m in read.json()["messages"]] == [
            ("Alice", "gl hf"),
            ("Bob", "<b>you too</b>"),  # plain text, as written: the client escapes it
        ]

    def test_a_spectator_is_refused_unless_the_game_allows_reading(self, game, alice, carol):
        services.post_to_game(alice, game, "hello")
        url = f"/api/games/{game.pk}/messages/"
        refused = api_client_for(carol).get(url)
        assert refused.status_code == 403
        assert refused.json()["code"] == "chat_private"
        services.set_spectators_read(game, True)
        assert api_client_for(carol).get(url).json()["messages"][0]["text"] == "hello"
        posted = api_client_for(carol).post(url, {"text": "me too"}, format="json")
        assert (posted.status_code, posted.json()["code"]) == (403, "not_a_player")

    def test_the_limits_are_those_of_the_page(self, game, alice, settings):
        url = f"/api/games/{game.pk}/messages/"
        client = api_client_for(alice)
        long = client.post(url, {"text": "x" * 1001}, format="json")
        empty = client.post(url, {"text": ""}, format="json")
        assert (long.status_code, long.json()["code"]) == (400, "message_too_long")
        assert (empty.status_code, empty.json()["code"]) == (400, "message_empty")
        settings.CHAT_RATE_LIMIT = "1/minute"
        cache.clear()
        assert client.post(url, {"text": "one"}, format="json").status_code == 201
        limited = client.post(url, {"text": "two"}, format="json")
        assert (limited.status_code, limited.json()["code"]) == (429, "rate_limited")
        assert int(limited["Retry-After"]) >= 1
        assert Message.objects.count() == 1

    def test_a_blocked_players_messages_are_not_listed(self, game, alice, bob):
        services.post_to_game(bob, game, "noise")
        services.shield(alice, bob.pk, "block")
        read = api_client_for(alice).get(f"/api/games/{game.pk}/messages/")
        assert read.json()["messages"] == []

    def test_without_a_token_nothing_is_read(self, game):
        assert api_client_for(None).get(f"/api/games/{game.pk}/messages/").status_code == 401

    def test_an_unknown_game_is_404(self, alice):
        assert api_client_for(alice).get("/api/games/999999/messages/").status_code == 404


class TestTheClubsChannels:
    def test_organizers_announce_members_discuss(self, club, alice, bob, carol, schema):
        base = f"/api/clubs/{club.slug}/messages/"
        assert (
            api_client_for(alice)
            .post(base + "announce/", {"text": "News"}, format="json")
            .status_code
            == 201
        )
        refused = api_client_for(bob).post(base + "announce/", {"text": "x"}, format="json")
        assert (refused.status_code, refused.json()["code"]) == (403, "not_an_organizer")
        assert (
            api_client_for(bob).post(base + "discuss/", {"text": "Hi"}, format="json").status_code
            == 201
        )
        news = api_client_for(carol).get(base + "announce/")
        schema.check(CLUB_PATH, "get", 200, news.json())
        assert [m["text"] for m in news.json()["messages"]] == ["News"]
        hidden = api_client_for(carol).get(base + "discuss/")
        assert (hidden.status_code, hidden.json()["code"]) == (403, "not_a_member")

    def test_an_unknown_channel_is_404(self, club, alice):
        answer = api_client_for(alice).get(f"/api/clubs/{club.slug}/messages/chat/")
        assert (answer.status_code, answer.json()["code"]) == (404, "no_such_channel")


def test_both_endpoints_are_in_the_schema_with_their_refusals(schema):
    for path in (GAME_PATH, CLUB_PATH):
        operations = schema.document["paths"][path]
        assert set(operations) == {"get", "post"}
        assert {"401", "403", "404"} <= set(operations["get"]["responses"])
        assert {"400", "401", "403", "429"} <= set(operations["post"]["responses"])
