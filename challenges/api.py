"""The daily challenge in the REST API: today's challenges, starting one, a leaderboard.

Thin views as in ``games.api``: they call ``challenges.services`` and answer in the same
error format (``{"code", "message"}``); a leaderboard is refused (403
``challenge_unfinished``) until the player has finished their own game of it.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.serializers import ErrorSerializer
from games.services import ServiceError

from . import days, presenters, services
from . import serializers as s
from .board import board

KIND = OpenApiParameter(
    "kind", OpenApiTypes.STR, OpenApiParameter.PATH, description="`evergreen`, `verdant`"
)
DAY = OpenApiParameter(
    "day",
    OpenApiTypes.DATE,
    OpenApiParameter.QUERY,
    required=False,
    description="A UTC day (YYYY-MM-DD); today by default.",
)


def _error(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description=description)


@extend_schema(
    operation_id="challenges_list",
    summary="Today's daily challenges",
    description="One solo deal per game for everyone each UTC day: its target (the computer "
    "player's score on it), your game of it and your streak.",
    responses={200: s.ChallengeSerializer(many=True), 401: _error("Not logged in.")},
    tags=["challenges"],
)
@api_view(["GET"])
def challenges(request: Request) -> Response:
    found = presenters.every_kind(request.user)
    return Response(s.ChallengeSerializer(found, many=True).data)


@extend_schema(
    operation_id="challenges_retrieve",
    summary="Today's daily challenge of one game",
    parameters=[KIND],
    responses={
        200: s.ChallengeSerializer,
        401: _error("Not logged in."),
        404: _error("No daily challenge for this game (no_such_challenge)."),
    },
    tags=["challenges"],
)
@api_view(["GET"])
def challenge(request: Request, kind: str) -> Response:
    return Response(s.ChallengeSerializer(presenters.today(kind, request.user)).data)


@extend_schema(
    operation_id="challenges_start",
    summary="Start today's daily challenge",
    description="Starts your solo game of today's deal (201), or answers the game you "
    "started earlier today (200, `created: false`): one game per player, game and day.",
    parameters=[KIND],
    request=None,
    responses={
        200: s.StartSerializer,
        201: s.StartSerializer,
        400: _error("The game refused to deal the day's solo game (the game's own code)."),
        401: _error("Not logged in."),
        404: _error("No daily challenge for this game (no_such_challenge)."),
    },
    tags=["challenges"],
)
@api_view(["POST"])
def start(request: Request, kind: str) -> Response:
    entry, created = services.start(request.user, kind)
    data = {
        "challenge": s.ChallengeSerializer(presenters.today(kind, request.user)).data,
        "created": created,
        "game_url": reverse("api:game", args=[entry.game_id]),
    }
    return Response(data, status=201 if created else 200)


@extend_schema(
    operation_id="challenges_leaderboard",
    summary="A day's leaderboard",
    description="The games finished within the day, best first, with their solo titles. "
    "Refused until you have finished your own game of that day's challenge (or, if you "
    "did not play it, until the day is over).",
    parameters=[KIND, DAY],
    responses={
        200: s.BoardSerializer,
        400: _error("A day that is not a date (bad_day)."),
        401: _error("Not logged in."),
        403: _error("Finish your own game first (challenge_unfinished)."),
        404: _error("No challenge that day (no_such_challenge)."),
    },
    tags=["challenges"],
)
@api_view(["GET"])
def leaderboard(request: Request, kind: str) -> Response:
    asked = request.query_params.get("day")
    if asked is not None:  # given, even empty: a day as the schema writes it, or refused
        day = days.from_iso(asked)
        if day is None:
            raise ServiceError(_("The day must be a date: YYYY-MM-DD."), "bad_day")
        found = services.on_day(day, kind)
        if found is None:
            raise services.no_such_challenge()
    else:
        found = services.todays(kind)
    services.require_sight(found, request.user)
    return Response(s.board_data(board(found, request.user)))
