"""Access helpers used by every view: fetch what is asked for or refuse, in one place."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.core.signals import setting_changed
from django.db.models import QuerySet
from django.dispatch import receiver
from django.http import Http404
from django.utils.module_loading import import_string

from . import rowcache, usercache
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
        # from the cache while none of its rows (nor its seated users') changed
        game = rowcache.read(pk)
    except Game.DoesNotExist:
        raise Http404("No such game") from None
    seats = game.seats_in_order()
    _as_loaded(seats, user)
    return game, _guarded(game, seats, user)


def with_seats(game: Game, user: Any) -> Game:
    """``game`` with its seats attached as ``game_for_viewer`` gives them (one query, none
    when they are there already): for a game a write has just left, whose seats it handed
    on instead (``SubmitResult.seats``)."""
    if not game.has_seats_attached():
        game.attach_seats(list(_seats_in_order().filter(game_id=game.pk)))
    usercache.attach(game.seats_in_order(), known=[user])
    return game


def _seats_in_order() -> QuerySet[Seat]:
    # Ordered by position alone: Seat's default ordering starts with the game, which
    # joins the game's table to order by its own ordering (a join for nothing here).
    return usercache.seats_with_users(Seat.objects.order_by("position"))


def game_and_seats_for_viewer(
    pk: int, user: Any, *, with_users: bool = True
) -> tuple[Game, list[Seat], Seat | None]:
    """As ``game_for_viewer`` (the same 404, the same guards), for a reader that uses only
    the seats it is given, in seat order (the API's game view and legal targets): the game
    and its seats in two plain queries, without a ``Prefetch``'s work: a quarter of the
    reading's CPU (0.88 -> 0.64 ms, bench_web's games; ``game.seats.all()`` would read
    them again). The seats are ordered by position alone, as ``game_for_viewer``'s (no join
    to the game's table). Each seat's ``game`` is the game read; ``with_users=False`` leaves
    the other seats' users unloaded where the rows are read rather than found kept (the
    viewer's own seat has the viewer)."""
    if rowcache.keeping():
        try:  # the game with its seats and their users, each seat's ``game`` the game
            game = rowcache.read(pk)
        except Game.DoesNotExist:
            raise Http404("No such game") from None
        seats = game.seats_in_order()
    else:
        game, seats = _read_game_and_seats(pk, with_users)
        if with_users:
            usercache.attach(seats, known=[user])
    _as_loaded(seats, user)
    return game, seats, _guarded(game, seats, user)


def _as_loaded(seats: Iterable[Seat], user: Any) -> None:
    """The viewer's own seat given the viewer as the request loaded it (not another copy
    of the same rows: what the request changes on its user, the page sees)."""
    if getattr(user, "is_authenticated", False):
        for each in seats:
            if each.user_id == user.pk:
                each.user = user


def _read_game_and_seats(pk: int, with_users: bool) -> tuple[Game, list[Seat]]:
    try:
        game = Game.objects.get(pk=pk)
    except Game.DoesNotExist:
        raise Http404("No such game") from None
    found = Seat.objects.filter(game_id=pk).order_by("position")
    if with_users:
        found = usercache.seats_with_users(found)
    seats = list(found)
    for each in seats:
        each.game = game
    return game, seats


def _guarded(game: Game, seats: Iterable[Seat], user: Any) -> Seat | None:
    """The viewer's seat among ``seats`` (None for a spectator), once every guard of
    ``GAME_VIEW_GUARDS`` let the viewer see the game."""
    seat = None
    if getattr(user, "is_authenticated", False):
        seat = next((s for s in seats if s.user_id == user.pk), None)
    for guard in _guards():
        guard(game, user, seat)
    return seat
