"""The rematch in the API: where it stands (GET) and accepting it (POST), with the same
rules as the game page's button (``games.rematches.services``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from games.access import game_for_viewer
from games.rematches import services as rematches

from .serializers import ErrorSerializer

GAME_ID = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The game.")


if TYPE_CHECKING:
    _Serializer = serializers.Serializer[Any]
else:
    _Serializer = serializers.Serializer


class RematchSerializer(_Serializer):
    offered = serializers.BooleanField(help_text="Whether anyone has offered a rematch.")
    accepted = serializers.ListField(
        child=serializers.IntegerField(), help_text="Seats (of this game) that accepted."
    )
    waiting_for = serializers.ListField(
        child=serializers.IntegerField(), help_text="Seats whose players have not accepted yet."
    )
    game = serializers.IntegerField(
        allow_null=True, help_text="The new game, once every player accepted (it has started)."
    )
    url = serializers.CharField(allow_null=True, help_text="The new game in the API.")


def _answer(request: Request, standing: rematches.Standing | None) -> Response:
    new = standing.new_game if standing else None
    return Response(
        {
            "offered": standing is not None,
            "accepted": list(standing.accepted) if standing else [],
            "waiting_for": list(standing.waiting) if standing else [],
            "game": new,
            "url": request.build_absolute_uri(reverse("api:game", args=[new])) if new else None,
        }
    )


def _error(text: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description=text)


@extend_schema(
    methods=["GET"],
    operation_id="games_rematch_retrieve",
    summary="The rematch of a finished game",
    description="Who has accepted a rematch (the same players, a new game with the same "
    "settings) and the new game once everyone has.",
    parameters=[GAME_ID],
    responses={
        200: RematchSerializer,
        401: _error("No credentials, or a bad token."),
        404: _error("There is no such game."),
    },
    tags=["games"],
)
@extend_schema(
    methods=["POST"],
    operation_id="games_rematch_accept",
    summary="Offer or accept a rematch",
    description="Your one click: the new game starts when every player of this game has "
    "accepted. Accepting twice changes nothing.",
    parameters=[GAME_ID],
    request=None,
    responses={
        200: RematchSerializer,
        400: _error("A malformed body (the request needs none)."),
        401: _error("No credentials, or a bad token."),
        403: _error("You are not a player of this game (code not_a_player)."),
        404: _error("There is no such game."),
        409: _error("The game is not over yet (code game_not_over)."),
    },
    tags=["games"],
)
@api_view(["GET", "POST"])
def rematch(request: Request, pk: int) -> Response:
    game, _seat = game_for_viewer(pk, request.user)
    if request.method == "POST":
        request.data  # noqa: B018 - parsed, so a malformed body is refused (400)
        return _answer(request, rematches.accept(game.pk, request.user))
    return _answer(request, rematches.standing(game))
