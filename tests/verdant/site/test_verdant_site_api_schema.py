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


def test_the_schema_shows_every_games_moves_and_creation_with_examples(db):
    from drf_spectacular.generators import SchemaGenerator

    document = SchemaGenerator().get_schema(request=None, public=True)
    move = document["paths"]["/api/games/{id}/move/"]["post"]
    examples = move["requestBody"]["content"]["application/json"]["examples"]
    for name, kind in kinds.kinds().items():
        for move_name, body in kind.api_move_examples().items():
            assert examples[f"{name}-{move_name}"]["value"] == body
            # Each example is a move its game reads.
            assert kind.move_to_json(kind.move_from_json(body, 0))["type"] == body["type"]
    assert {"verdant-start", "verdant-turn", "evergreen-pick", "evergreen-turn"} <= set(examples)
    games = {entry["game"]: entry for entry in move["x-game-kinds"]}
    assert games["verdant"]["moves"] == ["start", "turn", "wipe"]
    assert games["verdant"]["bots"] == ["random", "greedy", "strong"]
    create = document["paths"]["/api/games/"]["post"]["requestBody"]["content"]
    assert create["application/json"]["examples"]["verdant"]["value"]["game"] == "verdant"
    view = document["components"]["schemas"]["GameDetail"]["properties"]["view"]
    assert {"$ref": "#/components/schemas/VerdantView"} in view["anyOf"]


def test_a_verdant_games_answer_matches_the_published_schema(db):
    from tests.games.apihelpers import ResponseSchema
    from tests.games.gamehelpers import api_client_for, make_user

    client = api_client_for(make_user("api-reader"))
    example = kinds.get("verdant").api_create_example()
    answer = client.post("/api/games/", example, format="json")
    assert answer.status_code == 201, answer.content
    schema = ResponseSchema()
    schema.check("/api/games/", "post", 201, answer.json())
    broken = answer.json()
    del broken["view"]["market"]
    with pytest.raises(Exception, match="is not valid under any of the given schemas"):
        schema.check("/api/games/", "post", 201, broken)


def test_the_choices_endpoint_answers_a_verdant_player_and_refuses_clearly(db):
    from games import services
    from tests.games.gamehelpers import api_client_for, make_user

    rowan, hazel, stranger = (make_user(n) for n in ("rowan", "hazel", "stranger"))
    game = services.create_game(rowan, kind="verdant", players=2)
    services.join_game(game.pk, hazel)
    services.submit_move(game.pk, rowan, {"type": "start", "side": "top"})
    services.submit_move(game.pk, hazel, {"type": "start", "side": "top"})
    game.refresh_from_db()
    mover = (rowan, hazel)[game.engine_state().to_play]
    client = api_client_for(mover)
    url = f"/api/games/{game.pk}/choices/"
    pairs = client.get(url, {"ask": "selections"}).json()
    assert pairs and set(pairs[0]) == {"take", "column", "token"}
    cells = client.get(url, {"ask": "cells", "take": pairs[0]["take"]}).json()
    assert cells and all(len(cell) == 2 for cell in cells)

    bad = client.get(url, {"ask": "everything"})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_question"
    not_a_boolean = client.get(url, {"ask": "selections", "free": "null"})
    assert not_a_boolean.status_code == 400 and not_a_boolean.json()["code"] == "bad_free"
    assert client.get(url, {"ask": "selections", "free": "false"}).json() == pairs
    outsider = api_client_for(stranger).get(url, {"ask": "selections"})
    assert outsider.status_code == 403
    evergreen = services.create_game(mover, players=1)
    other = client.get(f"/api/games/{evergreen.pk}/choices/", {"ask": "selections"})
    assert other.status_code == 404 and other.json()["code"] == "wrong_game"
