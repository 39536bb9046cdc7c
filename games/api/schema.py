"""What the OpenAPI schema says of every registered game (a drf-spectacular
postprocessing hook, ``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``).

The platform's endpoints take any game, but their decorators are written once, before any
game is known: this hook adds, when the schema is generated, each kind's request examples
(``GameKind.api_create_example``, ``api_move_examples``) to ``POST /api/games/`` and the
move endpoint, and lists the registered games (``x-game-kinds``) with their moves.
"""

from __future__ import annotations

from typing import Any

from games import kinds

# Loaded first: a game's view serializer builds on the platform's (never the reverse).
from . import serializers as _serializers  # noqa: F401

CREATE = ("/api/games/", "post")
MOVE = ("/api/games/{id}/move/", "post")


def _json_examples(operation: dict[str, Any]) -> dict[str, Any]:
    body = operation.setdefault("requestBody", {}).setdefault("content", {})
    return dict(body.setdefault("application/json", {}).setdefault("examples", {}))


def _set_examples(operation: dict[str, Any], examples: dict[str, Any]) -> None:
    operation["requestBody"]["content"]["application/json"]["examples"] = examples


def add_game_kinds(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """Each registered game's create and move examples, and ``x-game-kinds``."""
    paths = result.get("paths", {})
    create = paths.get(CREATE[0], {}).get(CREATE[1])
    move = paths.get(MOVE[0], {}).get(MOVE[1])
    listed = []
    create_examples = _json_examples(create) if create else {}
    move_examples = _json_examples(move) if move else {}
    for name, kind in kinds.kinds().items():
        title = str(kind.title)
        example = kind.api_create_example()
        if example is not None:
            create_examples[name] = {"summary": f"A game of {title}", "value": example}
        moves = kind.api_move_examples()
        for move_name, body in moves.items():
            move_examples[f"{name}-{move_name}"] = {
                "summary": f"{title}: {move_name}",
                "value": body,
            }
        listed.append(
            {
                "game": name,
                "title": title,
                "players": [kind.min_players, kind.max_players],
                "bots": list(kind.bots),
                "default_bot": kind.default_bot,
                "moves": sorted({body.get("type", key) for key, body in moves.items()}),
            }
        )
    _document_views(result)
    if create is not None:
        _set_examples(create, create_examples)
        create["x-game-kinds"] = listed
    if move is not None:
        _set_examples(move, move_examples)
        move["x-game-kinds"] = listed
        names = ", ".join(f"`{entry['game']}` ({', '.join(entry['moves'])})" for entry in listed)
        move["description"] = (
            move.get("description", "") + f" The games and their moves: {names}; "
            "each has an example below."
        )
    return result


def _view_components() -> dict[str, Any]:
    """Each registered kind's ``view_schema`` as components: name -> schema, with the
    components its serializer uses (drf-spectacular's own mapping, in a registry of its
    own, so nothing already generated changes)."""
    from django.utils.module_loading import import_string
    from drf_spectacular.openapi import AutoSchema
    from drf_spectacular.plumbing import ComponentRegistry
    from rest_framework.views import APIView

    auto = AutoSchema()
    auto.registry = ComponentRegistry()
    auto.method = "GET"
    auto.path = "/api/games/{id}/"
    view = APIView()  # the mapping asks its view for settings and a request only
    view.request = None  # type: ignore[assignment]  # no request: a schema of no one
    auto.view = view
    refs: dict[str, Any] = {}
    for name, kind in kinds.kinds().items():
        if kind.view_schema:
            serializer = import_string(kind.view_schema)
            refs[name] = auto.resolve_serializer(serializer(), "response").ref
    return {"refs": refs, "schemas": auto.registry.build({})}


def _document_views(result: dict[str, Any]) -> None:
    """A game's ``view`` is the view of its own kind: every registered kind's view schema,
    any of which a response's ``view`` matches (the decorators knew the default's only)."""
    built = _view_components()
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    for name, schema in built["schemas"].get("schemas", {}).items():
        schemas.setdefault(name, schema)  # one already there is the same serializer's
    refs = list(built["refs"].values())
    if len(refs) < 2:
        return
    for schema in schemas.values():
        view = schema.get("properties", {}).get("view")
        if isinstance(view, dict) and view.get("allOf", [None])[0] in refs:
            schema["properties"]["view"] = {
                "anyOf": refs,
                "nullable": True,
                "description": view.get("description", "")
                + " Its shape is the game's own: one of the games' views.",
            }
