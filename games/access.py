"""Access helpers used by every view: fetch what is asked for or refuse, in one place."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch
from django.http import Http404

from .models import Game, Seat


def game_for_viewer(pk: int, user: Any) -> tuple[Game, Seat | None]:
    """The game and the viewer's seat (None for a spectator); 404 if there is no such game.

    Games are public to read (as a spectator sees them: no secrets), like a club's
    tables; writes check the seat in ``games.services``.
    """
    try:
        game = Game.objects.prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("user__player"))
        ).get(pk=pk)
    except Game.DoesNotExist:
        raise Http404("No such game") from None
    seat = None
    if getattr(user, "is_authenticated", False):
        seat = next((s for s in game.seats.all() if s.user_id == user.pk), None)
    return game, seat
