"""Access helpers used by every view: fetch what is asked for or refuse, in one place."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.core.signals import setting_changed
from django.db.models import Prefetch
from django.dispatch import receiver
from django.http import Http404
from django.utils.module_loading import import_string

from . import usercache
from .models import Game, Seat

ViewGuard = Callable[[Game, Any, "Seat | None"], None]


class GameHidden(PermissionDenied):
    """A game this viewer may not look at yet (answered 403): a stable ``code`` and a
    sentence in the viewer's language."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


@cache
def _guards() -> tuple[ViewGuard, ...]:
    return tuple(import_string(path) for path in getattr(settings, "GAME_VIEW_GUARDS", ()))


@receiver(setting_changed)
def _forget_guards(*, setting: str, **kwargs: object) -> None:
    if setting == "GAME_VIEW_GUARDS":
        _guards.cache_clear()


def game_for_viewer(pk: int, user: Any) -> tuple[Game, Seat | None]:
    """The game and the viewer's seat (None for a spectator); 404 if there is no such game.

    Games are public to read (as a spectator sees them: no secrets), like a club's
    tables; writes check the seat in ``games.services``. The apps named in
    ``settings.GAME_VIEW_GUARDS`` may hide a game from a viewer for a while (a daily
    challenge's game until the viewer has finished theirs): they raise ``GameHidden``.
    """
    try:
        # Ordered by position alone: Seat's default ordering starts with the game, which
        # joins the game's table to order by its own ordering (a join for nothing here).
        seats = usercache.seats_with_users(Seat.objects.order_by("position"))
        game = Game.objects.prefetch_related(Prefetch("seats", queryset=seats)).get(pk=pk)
    except Game.DoesNotExist:
        raise Http404("No such game") from None
    usercache.attach(game.seats.all(), known=[user])  # the viewer is loaded already
    seat = None
    if getattr(user, "is_authenticated", False):
        seat = next((s for s in game.seats.all() if s.user_id == user.pk), None)
    for guard in _guards():
        guard(game, user, seat)
    return game, seat
