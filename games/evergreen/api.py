"""Evergreen's own endpoints of the REST API: a pick, a whole turn, and the legal targets
of the next effect of a turn being built. They answer like the platform's endpoints
(``games.api.views``) and read requests with its helpers (``games.api.requests``); the
registry adds them to the ``api`` URLs.
"""

from __future__ import annotations

import json

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from games import kinds
from games.access import game_and_seats_for_viewer
from games.api import serializers as platform_serializers
from games.api.requests import GAME_ID, IDEMPOTENCY_KEY, IF_MATCH, REPLAYED, _body, _errors, _query
from games.api.views import _submit
from games.kinds import Refusal
from games.services import Conflict, ServiceError, not_a_player

from . import api_serializers as es
from . import refusals, rules
from .rules.moves import ACTION_EFFECTS, POWER_EFFECTS


@extend_schema(
    operation_id="games_targets",
    summary="Legal spaces for the next effect of a turn",
    description="Where you may apply `effect` next, after the partly built turn `partial` "
    '(a JSON object as in the turn body, e.g. `{"action": "A", "effects": [{"plant": [2, 3]}]}`; '
    "without it, Action D with nothing applied yet). An empty list when the effect cannot be "
    "applied now.",
    parameters=[
        GAME_ID,
        OpenApiParameter(
            "effect",
            OpenApiTypes.STR,
            required=True,
            enum=[*ACTION_EFFECTS, *POWER_EFFECTS],
            description="`plant`, `grow` (Action effects) or a Power: `sprout`, `small`, "
            "`big`, `bush`, `lake`, `lake_grow` (around the Lake at `lake`).",
        ),
        OpenApiParameter("partial", OpenApiTypes.STR, description="The turn so far, as JSON."),
        OpenApiParameter(
            "lake",
            OpenApiTypes.STR,
            description='For `lake_grow`: the Lake\'s space as "row,column".',
        ),
    ],
    responses={
        200: OpenApiResponse(
            {"type": "array", "items": es.SPACE_SCHEMA}, description="[row, column] pairs."
        ),
        **_errors(400, 401, 403, 404, 409),
    },
    tags=["moves"],
)
@api_view(["GET"])
def targets(request: Request, pk: int) -> Response:
    # Only the asking player's seat is used: the others' users are not loaded.
    game, _seats, seat = game_and_seats_for_viewer(pk, request.user, with_users=False)
    if seat is None:
        raise not_a_player()
    if game.state is None:
        raise Conflict(_("This game has not started yet."), "game_not_started")
    effect = _query(request, "effect") or ""
    if effect not in ACTION_EFFECTS and effect not in POWER_EFFECTS:
        raise ServiceError(
            _("Unknown effect “%(effect)s”: use one of %(effects)s.")
            % {"effect": effect, "effects": ", ".join((*ACTION_EFFECTS, *POWER_EFFECTS))},
            "unknown_effect",
        )
    partial = _partial_turn(_query(request, "partial"), seat.position)
    lake = _space_param(_query(request, "lake"))
    if effect == "lake_grow" and lake is None:
        raise ServiceError(
            _('Growing around a Lake needs its space: lake="row,column".'), "no_lake"
        )
    question = {"effect": effect, "partial": partial, "lake": lake}
    try:
        spaces = kinds.of(game).legal_targets(game.engine_state(), seat.position, question)
    except Refusal as exc:
        raise ServiceError(exc.message, exc.code) from exc
    return Response(spaces)


@extend_schema(
    operation_id="games_pick",
    summary="Pick a card during the Draft",
    parameters=[GAME_ID, IDEMPOTENCY_KEY, IF_MATCH, REPLAYED],
    request=es.PickSerializer,
    responses={
        200: platform_serializers.MoveResultSerializer,
        **_errors(400, 401, 403, 404, 409, 429),
    },
    tags=["moves"],
)
@api_view(["POST"])
def pick(request: Request, pk: int) -> Response:
    body = _body(request)
    return _submit(request, pk, {"type": "pick", "card": body.get("card")}, body)


@extend_schema(
    operation_id="games_turn",
    summary="Submit a whole turn",
    description="The declared Action with its effects in order, and the card's Power "
    "(or null). Your seat is the one you play; the turn stays secret until every turn "
    "of the round is in.",
    parameters=[GAME_ID, IDEMPOTENCY_KEY, IF_MATCH, REPLAYED],
    request=es.TurnSerializer,
    responses={
        200: platform_serializers.MoveResultSerializer,
        **_errors(400, 401, 403, 404, 409, 429),
    },
    tags=["moves"],
)
@api_view(["POST"])
def turn(request: Request, pk: int) -> Response:
    body = _body(request)
    move = {
        "type": "turn",
        "action": body.get("action"),
        "effects": body.get("effects", []),
        "power": body.get("power"),
    }
    return _submit(request, pk, move, body)


def _partial_turn(raw: str | None, seat: int) -> rules.Turn | None:
    if not raw:
        return None
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: nested too deep to read
        raise ServiceError(_("The partial turn must be JSON."), "bad_partial") from None
    if not isinstance(data, dict):
        raise ServiceError(_("The partial turn must be a JSON object."), "bad_partial")
    try:
        move = rules.move_from_json({**data, "type": "turn", "seat": seat})
    except rules.RulesError as exc:
        raise ServiceError(refusals.message(exc), exc.code) from exc
    assert isinstance(move, rules.Turn)
    return move


def _space_param(raw: str | None) -> tuple[int, int] | None:
    if not raw:
        return None
    parts = raw.strip("[]() ").split(",")
    try:
        row, col = (int(part) for part in parts)
    except ValueError:
        raise ServiceError(_('A space is written "row,column", e.g. "3,4".'), "bad_space") from None
    return (row, col)
