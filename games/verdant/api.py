"""Verdant's own endpoint of the REST API: what a player may choose now (the card +
token pairs on offer, the cells for a card, the green thumb actions, the targets of
items), so that an API client builds only legal turns. The moves themselves go to the
platform's move endpoint (``games.api.views.move``); the registry adds this one to the
``api`` URLs."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from games import kinds
from games.access import game_and_seats_for_viewer
from games.api.requests import GAME_ID, _errors, _query, _yes_or_no
from games.kinds import Refusal
from games.services import Conflict, ServiceError, not_a_player

ASKS = ("selections", "cells", "actions", "plants", "rooms", "all_rooms")


@extend_schema(
    operation_id="verdant_choices",
    summary="Verdant: what you may choose now",
    description="`ask=selections` (with `free=true` for a green thumb's free choice): the "
    'card + token pairs on offer, as `{"take", "column", "token"}`; `ask=cells&take=plant|room`: '
    "the cells of your home where that card may go, as `[row, column]`; `ask=actions`: the "
    "green thumb actions you can pay for; `ask=plants` / `ask=rooms`: the plants that may "
    "take verdancy, the rooms free for an item. Send the turn to the move endpoint.",
    parameters=[
        GAME_ID,
        OpenApiParameter("ask", OpenApiTypes.STR, required=True, enum=list(ASKS)),
        OpenApiParameter("take", OpenApiTypes.STR, enum=["plant", "room"]),
        OpenApiParameter("free", OpenApiTypes.BOOL),
    ],
    responses={
        200: OpenApiResponse(OpenApiTypes.ANY, description="A list, as described above."),
        **_errors(400, 401, 403, 404, 409),
    },
    tags=["moves"],
)
@api_view(["GET"])
def choices(request: Request, pk: int) -> Response:
    # Only the asking player's seat is used: the others' users are not loaded.
    game, _seats, seat = game_and_seats_for_viewer(pk, request.user, with_users=False)
    if seat is None:
        raise not_a_player()
    if game.kind != "verdant":
        raise ServiceError(_("This is not a game of Verdant."), "wrong_game", status=404)
    if game.state is None:
        raise Conflict(_("This game has not started yet."), "game_not_started")
    take = _query(request, "take")
    if take not in (None, "plant", "room"):
        raise ServiceError(_("Ask to take a plant or a room."), "bad_question")
    question = {
        "ask": _query(request, "ask") or "",
        "take": take,
        "free": bool(_yes_or_no(request, "free")),
    }
    try:
        answer = kinds.of(game).legal_targets(game.engine_state(), seat.position, question)
    except Refusal as exc:
        raise ServiceError(exc.message, exc.code) from exc
    return Response(answer)
