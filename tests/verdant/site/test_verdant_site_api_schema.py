"""Verdant's view documentation (the API's ``view`` for a Verdant game) matches real views."""

from __future__ import annotations

import pytest
from django.utils.module_loading import import_string

from games import kinds
from games.verdant import rules


def views_of_a_game(players: int, seed: int):
    state = rules.new_game(players, seed, goals=True)
    bot = rules.make_bot("greedy", seed)
    yield state
    while not state.is_over:
        state = rules.apply(state, bot.choose(state, state.awaiting[0]))
        yield state


@pytest.mark.parametrize("players", [1, 3])
def test_every_view_of_a_whole_game_matches_the_documented_shape(players):
    serializer = import_string(kinds.get("verdant").view_schema)
    for number, state in enumerate(views_of_a_game(players, 11)):
        if number % 7:
            continue
        for viewer in (None, 0):
            checked = serializer(data=rules.player_view(state, viewer))
            assert checked.is_valid(), checked.errors


def test_a_view_missing_its_market_does_not_match():
    serializer = import_string(kinds.get("verdant").view_schema)
    view = rules.player_view(rules.new_game(2, 1), None)
    del view["market"]
    assert not serializer(data=view).is_valid()


def test_the_documented_moves_are_moves_the_engine_reads():
    from games.verdant.api_schema import MOVE_EXAMPLES

    kind = kinds.get("verdant")
    for example in MOVE_EXAMPLES.values():
        assert kind.move_to_json(kind.move_from_json(example, 0))["type"] == example["type"]


def test_a_verdant_game_is_created_through_the_api_with_game_verdant(db):
    from games.models import Game
    from tests.games.gamehelpers import api_client_for, make_user

    client = api_client_for(make_user("api-gardener"))
    body = {"game": "verdant", "players": 2, "computer_seats": 1, "options": {"goals": True}}
    answer = client.post("/api/games/", body, format="json")
    assert answer.status_code == 201, answer.content
    game = Game.objects.get(pk=answer.json()["id"])
    assert game.kind == "verdant" and game.status == Game.Status.ACTIVE
    assert answer.json()["view"]["market"]  # the Verdant view, as the player sees it


def test_the_api_refuses_a_game_named_twice_differently(db):
    from tests.games.gamehelpers import api_client_for, make_user

    client = api_client_for(make_user("api-confused"))
    body = {"game": "verdant", "kind": "evergreen", "players": 2}
    answer = client.post("/api/games/", body, format="json")
    assert answer.status_code == 400
