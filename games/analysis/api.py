"""The analysis and the hint in the REST API: the same services as the pages, the same
data as the panel (``summary.present``); refusals are ``{"code", "message"}``."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from games.access import game_for_viewer
from games.api.serializers import ErrorSerializer
from games.ratelimit import check_move_rate
from games.services import not_a_player

from . import services
from .summary import present

GAME_ID = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The game.")


class ReviewSerializer(serializers.Serializer):  # type: ignore[type-arg]
    move = serializers.IntegerField(help_text="The move's number in the record (from 1).")
    kind = serializers.CharField(help_text='The decision: "pick" or "turn" in Evergreen.')
    round = serializers.CharField(help_text="The round it was made in (a key of the game's).")
    played = serializers.JSONField(help_text="The move played, as the record stores it.")
    best = serializers.JSONField(help_text="The strong player's move (the one played if best).")
    played_points = serializers.FloatField(help_text="Expected points to the end, as played.")
    best_points = serializers.FloatField(help_text="Expected points to the end, the best move.")
    loss = serializers.IntegerField(help_text="Whole points the move played gave away.")
    comment = serializers.CharField(help_text="One sentence in the reader's language.")


class RoundLossSerializer(serializers.Serializer):  # type: ignore[type-arg]
    round = serializers.CharField()
    name = serializers.CharField()
    points_lost = serializers.IntegerField()


class SummarySerializer(serializers.Serializer):  # type: ignore[type-arg]
    points_lost = serializers.IntegerField()
    by_round = RoundLossSerializer(many=True)
    mistakes = ReviewSerializer(many=True, help_text="The three biggest, most points first.")


class AnalysisSerializer(serializers.Serializer):  # type: ignore[type-arg]
    status = serializers.ChoiceField(["queued", "running", "done", "failed"])
    seat = serializers.IntegerField()
    done = serializers.IntegerField(help_text="Your moves reviewed so far.")
    total = serializers.IntegerField(help_text="Your moves to review.")
    reviews = ReviewSerializer(many=True)
    summary = SummarySerializer(allow_null=True, help_text="Once the status is done.")


class HintSerializer(serializers.Serializer):  # type: ignore[type-arg]
    move = serializers.JSONField(help_text="The move, as you would send it.")
    text = serializers.CharField(help_text="The move in words.")


def _errors(**codes: str) -> dict[int, OpenApiResponse]:
    return {
        int(code[1:]): OpenApiResponse(ErrorSerializer, description=text)
        for code, text in codes.items()
    }


ANALYSIS_ERRORS = _errors(
    e400="no_analysis: this game offers no analysis.",
    e401="No credentials, or a bad token.",
    e403="not_a_player: only the game's players have an analysis.",
    e404="There is no such game, or (code no_analysis_yet) you have not asked for one.",
    e409="game_not_over: the game is still being played.",
    e429="analysis_daily_limit: too many analyses asked for today (UTC).",
)


@extend_schema(
    methods=["GET"],
    operation_id="games_analysis_retrieve",
    summary="The analysis of my play in a finished game",
    description="Your analysis once asked for: its progress (`done` of `total`) while it "
    "runs, then each of your picks and turns reviewed by the strong player, from what you "
    "could see then, with a summary.",
    parameters=[GAME_ID],
    responses={200: AnalysisSerializer, **ANALYSIS_ERRORS},
    tags=["analysis"],
)
@extend_schema(
    methods=["POST"],
    operation_id="games_analysis_create",
    summary="Ask for the analysis of my play",
    description="Once the game is over. It runs in the background (202; read its progress "
    "with GET) and is stored: asking again answers the stored one (200). A player may ask "
    "for a limited number a day (UTC).",
    parameters=[GAME_ID],
    request=None,
    responses={200: AnalysisSerializer, 202: AnalysisSerializer, **ANALYSIS_ERRORS},
    tags=["analysis"],
)
@api_view(["GET", "POST"])
def analysis(request: Request, pk: int) -> Response:
    game, seat = game_for_viewer(pk, request.user)
    names = [s.name for s in game.seats_in_order()]
    if request.method == "POST":
        found, created = services.request_analysis(pk, request.user)
        found.refresh_from_db()
        return Response(present(found, names), status=202 if created else 200)
    if seat is None:
        raise not_a_player()
    stored = services.analysis_of(game, request.user)
    if stored is None:
        raise NotFound(_("You have not asked for an analysis of this game."), "no_analysis_yet")
    return Response(present(stored, names))


@extend_schema(
    operation_id="games_hint",
    summary="What would the computer do?",
    description="The strong player's suggestion for your current decision, from what you "
    "can see only. Only in unrated games that are not part of an event.",
    parameters=[GAME_ID],
    request=None,
    responses={
        200: HintSerializer,
        **_errors(
            e400="no_analysis: this game offers no hint.",
            e401="No credentials, or a bad token.",
            e403="not_a_player, or hint_not_allowed: a rated or event game.",
            e404="There is no such game.",
            e409="game_not_active, or no_decision: nothing for you to decide now.",
            e429="rate_limited: as many hints as moves, no more.",
        ),
    },
    tags=["analysis"],
)
@api_view(["POST"])
def hint(request: Request, pk: int) -> Response:
    game_for_viewer(pk, request.user)
    check_move_rate(request)
    return Response(services.hint(pk, request.user))
