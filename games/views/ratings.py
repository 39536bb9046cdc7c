"""The site leaderboard and one player's rating (history chart and rated games).

Public pages: ratings are shown to everyone, as the games themselves are.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe

from .. import kinds, ratings

PER_PAGE = 50
CHANGES_SHOWN = 50


def game_of(request: HttpRequest) -> str:
    """The game whose ratings are shown (``?game=verdant``): each game has its own."""
    name = request.GET.get("game", "")
    return name if name in kinds.kinds() else kinds.default_name()


def game_links(request: HttpRequest, chosen: str) -> list[dict[str, Any]]:
    return [
        {"name": name, "title": kind.title, "chosen": name == chosen}
        for name, kind in kinds.kinds().items()
    ]


@require_safe
def leaderboard(request: HttpRequest) -> HttpResponse:
    game = game_of(request)
    # The paginator counts and numbers the pages; the rows come from ratings.leaderboard.
    page = Paginator(ratings.ranked(kind=game).order_by("pk"), PER_PAGE).get_page(
        request.GET.get("page")
    )
    offset = (page.number - 1) * PER_PAGE
    rows = (
        ratings.leaderboard(limit=PER_PAGE, offset=offset, kind=game)
        if page.paginator.count
        else []
    )
    mine = rank = None
    if request.user.is_authenticated:
        mine = ratings.rating_of(request.user, game)
        rank = ratings.rank_of(mine) if mine else None
    return render(
        request,
        "games/leaderboard.html",
        {
            "page": page,
            "rows": rows,
            "mine": mine,
            "my_rank": rank,
            "provisional_games": ratings.PROVISIONAL_GAMES,
            "game": game,
            "games": game_links(request, game),
        },
    )


@require_safe
def player(request: HttpRequest, user_id: int) -> HttpResponse:
    user = (
        get_user_model().objects.filter(pk=user_id, is_active=True).select_related("player").first()
    )
    if user is None:
        raise Http404("No such player")
    game = game_of(request)
    rating = ratings.rating_of(user, game)
    changes = list(ratings.changes_of(user, game).reverse()[:CHANGES_SHOWN])
    return render(
        request,
        "games/rating.html",
        {
            "player_user": user,
            "name": ratings.player_name(user),
            "rating": rating,
            "rank": ratings.rank_of(rating) if rating else None,
            "provisional": rating is not None and rating.games < ratings.PROVISIONAL_GAMES,
            "chart": mark_safe(ratings.chart_svg(ratings.history(user, game))),  # escaped inside
            "game": game,
            "games": game_links(request, game),
            "changes": changes,
            "changes_shown": CHANGES_SHOWN,
            "is_me": request.user.is_authenticated and request.user.pk == user.pk,
        },
    )
