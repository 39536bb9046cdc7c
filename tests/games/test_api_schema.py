"""The OpenAPI schema: valid, complete, served, and true to the responses the API sends."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.urls import URLPattern
from rest_framework.test import APIClient

from games import services
from games.api import urls as api_urls
from games.models import Game
from tests.games.apihelpers import (  # noqa: F401
    ResponseSchema,
    api_url,
    fixed_seed,
    in_action_phase,
    refreshed,
)
from tests.games.gamehelpers import PASSWORD, api_client_for, play_until, user_at

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema(django_db_blocker: Any) -> ResponseSchema:
    with django_db_blocker.unblock():
        return ResponseSchema()


def api_paths() -> dict[str, set[str]]:
    """Every API route as the schema writes it, with its methods, read from the URLconf."""
    found: dict[str, set[str]] = {}
    for pattern in api_urls.urlpatterns:
        assert isinstance(pattern, URLPattern)
        route = "/api/" + str(pattern.pattern).replace("<int:pk>", "{id}")
        methods = {m.lower() for m in pattern.callback.cls.http_method_names} - {"options"}
        found[route] = methods & {"get", "post", "put", "patch", "delete"}
    return found


def test_the_schema_is_valid_openapi_without_a_single_warning(tmp_path: Path) -> None:
    target = tmp_path / "schema.json"
    call_command(
        "spectacular",
        "--validate",
        "--fail-on-warn",
        "--format",
        "openapi-json",
        "--file",
        str(target),
    )
    document = json.loads(target.read_text())
    assert document["openapi"].startswith("3.")
    assert document["info"]["title"] == "Evergreen API"


def test_every_endpoint_and_method_is_in_the_schema(schema: ResponseSchema) -> None:
    paths = schema.document["paths"]
    for route, methods in api_paths().items():
        assert route in paths, route
        assert set(paths[route]) == methods, route
    # The generic move endpoint, Evergreen's pick, turn, targets, Verdant's choices and
    # the rematch.
    assert len(api_paths()) == 15


def test_every_operation_documents_its_refusals(schema: ResponseSchema) -> None:
    for route, operations in schema.document["paths"].items():
        for method, operation in operations.items():
            codes = set(operation["responses"])
            assert "400" in codes or method == "get", (route, method)
            if route != "/api/token/":
                assert "401" in codes, (route, method)
                assert {"tokenAuth": []} in operation["security"]


def test_the_schema_and_the_documentation_are_served(alice: Any) -> None:
    response = APIClient().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    assert "/api/games/{id}/turn/" in json.loads(response.content)["paths"]
    docs = api_client_for(None).get("/api/docs/")
    assert docs.status_code == 200
    assert b"/api/schema/" in docs.content


@pytest.mark.usefixtures("fixed_seed")
def test_the_responses_are_what_the_schema_says(
    schema: ResponseSchema, alice: Any, bob: Any, carol: Any
) -> None:
    cache.clear()
    client = APIClient()
    token = client.post(api_url("token"), {"email": "alice@example.org", "password": PASSWORD})
    schema.check("/api/token/", "post", 200, token.json())
    refused = client.post(api_url("token"), {"email": "alice@example.org", "password": "no"})
    schema.check("/api/token/", "post", 400, refused.json())

    a, b, spectator = api_client_for(alice), api_client_for(bob), api_client_for(carol)
    created = a.post(api_url("games"), {"players": 2, "days_per_move": 3}, format="json")
    schema.check("/api/games/", "post", 201, created.json())
    game = Game.objects.get(pk=created.json()["id"])
    schema.check("/api/games/", "get", 200, b.get(api_url("games"), {"status": "open"}).json())
    schema.check("/api/games/{id}/", "get", 200, a.get(api_url("game", game.pk)).json())
    schema.check("/api/games/{id}/record/", "get", 200, a.get(api_url("record", game.pk)).json())
    joined = b.post(api_url("join", game.pk), {}, format="json")
    schema.check("/api/games/{id}/join/", "post", 200, joined.json())

    state = refreshed(game).engine_state()
    picker = a if user_at(game, state.awaiting[0]) == alice else b
    picked = picker.post(api_url("pick", game.pk), {"card": state.pool[0]}, format="json")
    schema.check("/api/games/{id}/pick/", "post", 200, picked.json())
    wrong = picker.post(api_url("pick", game.pk), {"card": state.pool[0]}, format="json")
    schema.check("/api/games/{id}/pick/", "post", 409, wrong.json())

    play_until(game, in_action_phase)
    targets = a.get(api_url("targets", game.pk), {"effect": "plant"})
    schema.check("/api/games/{id}/targets/", "get", 200, targets.json())
    space = targets.json()[0]
    turn = {
        "action": "D",
        "effects": [{"plant": space}],
        "power": {"power": "lake", "timing": "after", "targets": []},
    }
    played = a.post(api_url("turn", game.pk), turn, format="json")
    assert played.status_code in (200, 400)
    schema.check("/api/games/{id}/turn/", "post", played.status_code, played.json())
    simple = {"action": "D", "effects": [{"plant": space}], "power": None}
    played = a.post(api_url("turn", game.pk), simple, format="json", HTTP_IDEMPOTENCY_KEY="t")
    if played.status_code == 200:
        schema.check("/api/games/{id}/turn/", "post", 200, played.json())
    forbidden = spectator.post(api_url("turn", game.pk), simple, format="json")
    schema.check("/api/games/{id}/turn/", "post", 403, forbidden.json())
    for viewer in (a, b, spectator):
        schema.check("/api/games/{id}/", "get", 200, viewer.get(api_url("game", game.pk)).json())
        record = viewer.get(api_url("record", game.pk)).json()
        schema.check("/api/games/{id}/record/", "get", 200, record)

    play_until(game, lambda state: state.is_over, limit=2000)
    schema.check("/api/games/{id}/", "get", 200, b.get(api_url("game", game.pk)).json())
    schema.check("/api/games/{id}/record/", "get", 200, b.get(api_url("record", game.pk)).json())
    missing = a.get(api_url("game", 987654))
    schema.check("/api/games/{id}/", "get", 404, missing.json())
    anonymous = APIClient().get(api_url("games"))
    schema.check("/api/games/", "get", 401, anonymous.json())


def test_a_solo_game_view_matches_the_schema_too(schema: ResponseSchema, alice: Any) -> None:
    game = services.create_game(alice, players=1)
    play_until(game, lambda state: state.round == 3)
    body = api_client_for(alice).get(api_url("game", game.pk)).json()
    assert body["view"]["solo"] is True
    schema.check("/api/games/{id}/", "get", 200, body)
