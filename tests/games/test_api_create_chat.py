"""Creating a game through the API chooses, like the lobby's form, whether spectators may
read its chat; the field is in the OpenAPI schema."""

from __future__ import annotations

from conversations.access import spectators_read
from games.models import Game, Notification
from tests.games.apihelpers import ResponseSchema
from tests.games.gamehelpers import api_client_for


class TestTheChatSettingAtCreation:
    def test_spectators_may_read_when_the_creator_says_so(self, alice):
        answer = api_client_for(alice).post(
            "/api/games/", {"players": 2, "chat_spectators": True}, format="json"
        )
        assert answer.status_code == 201
        assert spectators_read(Game.objects.get(pk=answer.json()["id"]))

    def test_by_default_the_chat_is_the_players_own(self, alice):
        answer = api_client_for(alice).post("/api/games/", {"players": 2}, format="json")
        assert not spectators_read(Game.objects.get(pk=answer.json()["id"]))

    def test_a_value_that_is_no_boolean_is_refused_and_no_game_made(self, alice):
        answer = api_client_for(alice).post(
            "/api/games/", {"players": 2, "chat_spectators": "perhaps"}, format="json"
        )
        assert answer.status_code == 400 and "chat_spectators" in answer.json()["errors"]
        assert not Game.objects.exists()

    def test_a_refused_game_leaves_no_chat_setting(self, alice):
        answer = api_client_for(alice).post(
            "/api/games/", {"players": 9, "chat_spectators": True}, format="json"
        )
        assert answer.status_code == 400 and not Game.objects.exists()


def test_the_field_is_in_the_schema():
    document = ResponseSchema().document
    body = document["paths"]["/api/games/"]["post"]["requestBody"]["content"]["application/json"]
    name = body["schema"]["$ref"].rsplit("/", 1)[-1]
    field = document["components"]["schemas"][name]["properties"]["chat_spectators"]
    assert field["type"] == "boolean" and field["default"] is False


def test_new_messages_rematches_and_announcements_are_kinds_of_notification():
    kinds = dict(Notification.Kind.choices)
    assert {"chat", "rematch", "announcement"} <= set(kinds)
    assert Notification._meta.get_field("kind").max_length >= max(len(k) for k in kinds)
