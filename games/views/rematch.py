"""The rematch button of a finished game's page: one click offers or accepts."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from .. import services
from ..access import game_for_viewer
from ..rematches import services as rematches
from .play import refused


@require_POST
@login_required
def accept(request: HttpRequest, pk: int) -> HttpResponse:
    """Accept the rematch; the new game's page once it has started, else this game's."""
    game, _seat = game_for_viewer(pk, request.user)
    try:
        standing = rematches.accept(game.pk, request.user)
    except services.ServiceError as exc:
        return refused(request, pk, exc)
    if standing.new_game is not None:
        return redirect("games:detail", standing.new_game)
    return redirect("games:detail", pk)
