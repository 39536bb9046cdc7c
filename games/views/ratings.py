"""The site leaderboard and one player's rating (history chart and rated games).

Public pages: ratings are shown to everyone, as the games themselves are.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe

from .. import ratings

PER_PAGE = 50
CHANGES_SHOWN = 50


@require_safe
def leaderboard(request: HttpRequest) -> HttpResponse:
    # The paginator counts and numbers the pages; the rows come from ratings.leaderboard.
    page = Paginator(ratings.ranked().order_by("pk"), PER_PAGE).get_page(request.GET.get("page"))
    offset = (page.number - 1) * PER_PAGE
    rows = ratings.leaderboard(limit=PER_PAGE, offset=offset) if page.paginator.count else []
    mine = rank = None
    if request.user.is_authenticated:
        mine = ratings.rating_of(request.user)
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
        },
    )


@require_safe
def player(request: HttpRequest, user_id: int) -> HttpResponse:
    user = (
        get_user_model().objects.filter(pk=user_id, is_active=True).select_related("player").first()
    )
    if user is None:
        raise Http404("No such player")
    rating = ratings.rating_of(user)
    changes = list(ratings.changes_of(user).reverse()[:CHANGES_SHOWN])
    return render(
        request,
        "games/rating.html",
        {
            "player_user": user,
            "name": ratings.player_name(user),
            "rating": rating,
            "rank": ratings.rank_of(rating) if rating else None,
            "provisional": rating is not None and rating.games < ratings.PROVISIONAL_GAMES,
            "chart": mark_safe(ratings.chart_svg(ratings.history(user))),  # escaped inside
            "changes": changes,
            "changes_shown": CHANGES_SHOWN,
            "is_me": request.user.is_authenticated and request.user.pk == user.pk,
        },
    )
