"""A seat's own settings: standing orders, vacations, and handing it to a computer player."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .. import kinds
from ..kinds import Refusal
from ..models import Game, Move, Player, Seat, Seats
from .errors import Conflict, ServiceError, not_a_player, refused
from .writes import commit, lock_game_and_seats, progress

VACATION_DAYS_PER_YEAR = 30


def set_standing_order(game_id: int, user: Any, ranking: list[str]) -> Seat:
    """Rank the cards of this round's pool: at this seat's pick, the first one still there is
    taken at once (no wait, no mail). Private; replaceable until used; an empty list clears it.
    """
    with transaction.atomic():
        game, seats = lock_game_and_seats(game_id)
        seat = next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)
        if seat is None:
            raise not_a_player()
        if game.status != Game.Status.ACTIVE:
            raise Conflict(_("This game is not being played."), "game_not_active")
        state = game.engine_state()
        kind = kinds.of(game)
        try:
            kind.check_standing_order(state, seat.position, ranking)
        except Refusal as exc:
            raise refused(exc) from exc
        seats.change(
            seat,
            standing_order=list(ranking),
            standing_order_round=kind.round_key(state) if ranking else "",
        )
        moves: list[Move] = []
        after = progress(game, state, seats, moves)
        if moves:
            commit(game, state, after, seats, moves)
        else:
            seats.save()
        return seat


def start_vacation(user: Any, days: int, now: Any = None) -> Player:
    """Pause the player's clocks for ``days`` (at most 30 days a year in all)."""
    now = now or timezone.now()
    with transaction.atomic():
        player = Player.objects.select_for_update().get(user=user)
        if player.vacation_year != now.year:
            player.vacation_year, player.vacation_days_used = now.year, 0
        if days < 1:
            raise ServiceError(_("A vacation lasts at least one day."), "bad_vacation")
        left = VACATION_DAYS_PER_YEAR - player.vacation_days_used
        if days > left:
            raise ServiceError(
                ngettext(
                    "You have %(left)d vacation day left this year.",
                    "You have %(left)d vacation days left this year.",
                    left,
                )
                % {"left": left},
                "vacation_exhausted",
            )
        if player.vacation_until and player.vacation_until > now:
            raise Conflict(_("You are already on vacation."), "already_on_vacation")
        until = now + timedelta(days=days)
        player.vacation_until = until
        player.vacation_days_used += days
        player.save(update_fields=["vacation_until", "vacation_year", "vacation_days_used"])
        for seats, seat in _running_clocks(user):
            assert seat.deadline is not None
            seats.change(seat, deadline=until + max(seat.deadline - now, timedelta(0)))
            seats.save()
        return player


def end_vacation(user: Any, now: Any = None) -> Player:
    """Come back early: unused days are given back, clocks restart from now."""
    now = now or timezone.now()
    with transaction.atomic():
        player = Player.objects.select_for_update().get(user=user)
        until = player.vacation_until
        if until is None or until <= now:
            raise Conflict(_("You are not on vacation."), "not_on_vacation")
        unused = (until - now).days
        player.vacation_days_used = max(0, player.vacation_days_used - unused)
        player.vacation_until = None
        player.save(update_fields=["vacation_until", "vacation_days_used"])
        for seats, seat in _running_clocks(user):
            assert seat.deadline is not None
            seats.change(seat, deadline=now + max(seat.deadline - until, timedelta(0)))
            seats.save()
        return player


def _running_clocks(user: Any) -> Iterator[tuple[Seats, Seat]]:
    """The user's seats whose clock runs, each with its game's seats, locked as every write
    to a game locks them (``lock_game_and_seats``: the game row, then its seats), game after
    game in the order of their ids, so a move submitted meanwhile cannot deadlock with this
    transaction, and neither writes a deadline from a value the other changed."""
    game_ids = (
        Seat.objects.filter(user=user, deadline__isnull=False)
        .order_by("game_id")
        .values_list("game_id", flat=True)
        .distinct()
    )
    for game_id in list(game_ids):
        _game, seats = lock_game_and_seats(game_id)
        for seat in seats:
            if seat.user_id == user.pk and seat.deadline is not None:
                yield seats, seat


# --- Events: seats handed to the bot, adjudication ------------------------------------------


def hand_seat_to_bot(game_id: int, position: int, bot: str = "") -> bool:
    """A computer player takes over the seat for the rest of the game (its user stays
    the seat's player: the result counts as theirs). Returns False, changing nothing, when
    the game is over or a computer player already plays the seat."""
    with transaction.atomic():
        game, seats = lock_game_and_seats(game_id)
        if game.status != Game.Status.ACTIVE:
            return False
        seat = seats[position]
        if seat.bot:
            return False
        seats.change(
            seat, bot=bot or kinds.of(game).default_bot, handed_to_bot=True, awaiting_since=None
        )
        before = game.engine_state()
        moves: list[Move] = []
        state = progress(game, before, seats, moves)
        commit(game, before, state, seats, moves)
        return True
