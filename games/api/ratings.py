"""Read-only ratings in the REST API: the site leaderboard and one player's rating.

Public like the leaderboard page (no token needed; a bad token is still refused with
401). The numbers come from ``games.ratings``, the same functions the pages use.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from games import kinds, ratings
from games.services import ServiceError

from .requests import GamePagination
from .serializers import ErrorSerializer

RATING_HELP = (
    "The rating shown on the site: 1000 + 40 * (mu - 3 * sigma), the OpenSkill "
    "(Plackett-Luce) skill the player has at least with 99.7 % certainty, on an Elo-like "
    "scale. New players start at 1000."
)


class RatingRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(help_text="1 = best; equal ratings share a rank.")
    user_id = serializers.IntegerField()
    name = serializers.CharField(help_text="The player's display name.")
    rating = serializers.IntegerField(help_text=RATING_HELP)
    mu = serializers.FloatField(help_text="OpenSkill skill estimate (mean).")
    sigma = serializers.FloatField(help_text="OpenSkill uncertainty (standard deviation).")
    games = serializers.IntegerField(help_text="Rated games played.")
    provisional = serializers.BooleanField(
        help_text=f"Fewer than {ratings.PROVISIONAL_GAMES} rated games: still settling."
    )
    updated = serializers.DateTimeField(help_text="When the rating last changed.")
    url = serializers.CharField(help_text="This player's rating in the API, with its history.")


class RatingPageSerializer(serializers.Serializer[Any]):
    count = serializers.IntegerField()
    next = serializers.CharField(allow_null=True)
    previous = serializers.CharField(allow_null=True)
    results = RatingRowSerializer(many=True)


class RatingChangeSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField(help_text="The game's id.")
    finished = serializers.DateTimeField(allow_null=True)
    place = serializers.IntegerField(help_text="1 = best; equal scores share a place.")
    players = serializers.IntegerField()
    rating_before = serializers.IntegerField()
    rating_after = serializers.IntegerField()
    mu_after = serializers.FloatField()
    sigma_after = serializers.FloatField()


class PlayerRatingSerializer(RatingRowSerializer):
    history = RatingChangeSerializer(
        many=True, help_text="Every rated game of the player, in the order they finished."
    )


class RatingPagination(GamePagination):
    """A limit or offset that is not a whole number in range is refused (400), as the
    games list does."""


def _errors(*codes: int) -> dict[int, OpenApiResponse]:
    descriptions = {
        400: "A limit or offset that is not a whole number in range, or an unknown game "
        "(code ``unknown_game``).",
        401: "A bad token (no token is needed to read ratings).",
        404: "No such player, or the player has no rated games yet.",
    }
    return {
        code: OpenApiResponse(ErrorSerializer, description=descriptions[code]) for code in codes
    }


def _game_parameter() -> OpenApiParameter:
    # Built when the schema is generated, so every registered kind is listed.
    return OpenApiParameter(
        "game",
        {"type": "string", "enum": list(kinds.kinds())},
        description="The game whose ratings are read: each game has its own rating. "
        f"The first game ({kinds.default_name()}) by default.",
    )


def _game(request: Request) -> str:
    """The game kind of ``?game=``: the default game without one; an unknown one is
    refused (400) rather than silently read as another game."""
    name = request.query_params.get("game", "")
    if not name:
        return kinds.default_name()
    if name not in kinds.kinds():
        raise ServiceError(
            _("There is no game called %(name)s here.") % {"name": name[:40]},
            "unknown_game",
            status=400,
        )
    return name


def _row(request: Request, row: ratings.LeaderRow, game: str) -> dict[str, Any]:
    url = request.build_absolute_uri(reverse("api:rating", args=[row.user_id]))
    return {
        "rank": row.rank,
        "user_id": row.user_id,
        "name": row.name,
        "rating": row.rating,
        "mu": row.mu,
        "sigma": row.sigma,
        "games": row.games,
        "provisional": row.provisional,
        "updated": serializers.DateTimeField().to_representation(row.updated),
        # The same game's rating: the default game's needs no parameter.
        "url": url if game == kinds.default_name() else f"{url}?game={game}",
    }


@extend_schema(
    operation_id="ratings_list",
    summary="The leaderboard",
    description="Rated players, best first. " + RATING_HELP,
    parameters=[
        OpenApiParameter(
            "limit",
            {"type": "integer", "minimum": 1, "maximum": 100},
            description="1 to 100; 50 by default.",
        ),
        OpenApiParameter("offset", {"type": "integer", "minimum": 0}),
        _game_parameter(),
    ],
    responses={200: RatingPageSerializer, **_errors(400, 401)},
    tags=["ratings"],
)
@api_view(["GET"])
@permission_classes([AllowAny])
def rating_list(request: Request) -> Response:
    game = _game(request)
    paginator = RatingPagination()
    paginator.request = request
    paginator.limit = paginator.get_limit(request)
    paginator.offset = paginator.get_offset(request)
    paginator.count = ratings.leaderboard_size(kind=game)
    # Past the end there is nothing to read (an offset beyond the database's integers too).
    rows = []
    if paginator.offset < paginator.count:
        rows = ratings.leaderboard(limit=paginator.limit, offset=paginator.offset, kind=game)
    return paginator.get_paginated_response([_row(request, row, game) for row in rows])


@extend_schema(
    operation_id="ratings_retrieve",
    summary="A player's rating and its history",
    parameters=[
        OpenApiParameter(
            "id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The player's user id."
        ),
        _game_parameter(),
    ],
    responses={200: PlayerRatingSerializer, **_errors(400, 401, 404)},
    tags=["ratings"],
)
@api_view(["GET"])
@permission_classes([AllowAny])
def rating_detail(request: Request, pk: int) -> Response:
    game = _game(request)
    user = get_user_model().objects.filter(pk=pk, is_active=True).select_related("player").first()
    if user is None:
        raise ServiceError(_("There is no such player."), "no_such_player", status=404)
    rating = ratings.rating_of(user, game)
    if rating is None:
        raise ServiceError(_("This player has no rated games yet."), "not_rated", status=404)
    row = ratings.LeaderRow(
        rank=ratings.rank_of(rating),
        user_id=user.pk,
        name=ratings.player_name(user),
        rating=rating.rating,
        mu=rating.mu,
        sigma=rating.sigma,
        games=rating.games,
        updated=rating.updated_at,
    )
    when = serializers.DateTimeField()
    history = [
        {
            "game": change.game_id,
            "finished": when.to_representation(change.game.finished_at)
            if change.game.finished_at
            else None,
            "place": change.place,
            "players": change.game.players,
            "rating_before": change.rating_before,
            "rating_after": change.rating_after,
            "mu_after": change.mu_after,
            "sigma_after": change.sigma_after,
        }
        for change in ratings.changes_of(user, game)
    ]
    return Response({**_row(request, row, game), "history": history})
