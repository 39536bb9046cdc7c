"""Helpers shared by the API tests (``test_api_*.py``); this module holds no tests.

* ``fixed_seed``: every game started during a test gets the same seed, so the tests
  are deterministic (the services draw seeds with ``secrets.randbits``);
* ``api_url``: the URL of an API endpoint;
* ``ResponseSchema``: validates a response body against the OpenAPI schema the site
  publishes, strictly (no undocumented field, every required field present);
* ``walk``: every key and value of a JSON document, for the secrets tests.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator

from games import services
from games.evergreen.rules import GameState, Phase
from games.models import Game

SEED = 20240917


@pytest.fixture
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: SEED)
    return SEED


def api_url(name: str, *args: Any) -> str:
    return reverse(f"api:{name}", args=args)


def in_action_phase(state: GameState) -> bool:
    return state.phase is Phase.ACTION


def in_draft(state: GameState) -> bool:
    return state.phase is Phase.DRAFT


def refreshed(game: Game) -> Game:
    game.refresh_from_db()
    return game


def walk(document: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """(path, value) for every value of a JSON document, keys included as ``path.key``."""
    yield path, document
    if isinstance(document, dict):
        for key, value in document.items():
            yield from walk(value, f"{path}.{key}")
    elif isinstance(document, list):
        for index, value in enumerate(document):
            yield from walk(value, f"{path}[{index}]")


def _to_json_schema(node: Any) -> Any:
    """OpenAPI 3.0 schema → JSON Schema: ``nullable`` becomes a null alternative, and an
    object with listed properties admits no others (so undocumented fields fail)."""
    if isinstance(node, list):
        return [_to_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: _to_json_schema(value) for key, value in node.items()}
    if "properties" in converted and "additionalProperties" not in converted:
        converted["additionalProperties"] = False
    if converted.pop("nullable", False):
        return {"anyOf": [converted, {"type": "null"}]}
    return converted


class ResponseSchema:
    """The published OpenAPI document, to validate response bodies against."""

    def __init__(self) -> None:
        self.document = SchemaGenerator().get_schema(request=None, public=True)
        self.components = _to_json_schema(self.document["components"])

    def response_schema(self, path: str, method: str, status: int) -> dict[str, Any]:
        operation = self.document["paths"][path][method.lower()]
        content = operation["responses"][str(status)]["content"]["application/json"]
        return _to_json_schema(content["schema"])  # type: ignore[no-any-return]

    def check(self, path: str, method: str, status: int, body: Any) -> None:
        schema = {**self.response_schema(path, method, status), "components": self.components}
        jsonschema.Draft202012Validator(schema).validate(body)
