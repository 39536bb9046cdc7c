"""Deadlines: who must act by when, and the reminders before them.

A seat that must act has ``deadline`` set (an indexed column); every other seat has
none. What happens when one passes is ``games.timeouts``.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, cast

from django.utils import timezone

from . import kinds, mails
from .models import Game, Seat, Seats


def update(game: Game, state: Any, seats: Seats, now: datetime) -> None:
    """Start the clock for seats that now must act; stop it for the others."""
    hours = game.move_hours
    awaiting = set(kinds.of(game).awaiting(state)) if game.status == Game.Status.ACTIVE else set()
    for seat in seats:
        if seat.position in awaiting and not seat.bot:
            if seat.awaiting_since is None:
                seats.change(seat, awaiting_since=now, deadline=deadline_from(now, hours, seat))
        else:
            seats.change(seat, awaiting_since=None, deadline=None)


def deadline_from(start: datetime, hours: int | None, seat: Seat) -> datetime | None:
    """``hours`` after ``start``, with a vacation of the player's pausing the clock."""
    if not hours:
        return None
    player = getattr(seat.user, "player", None) if seat.user_id else None
    vacation = getattr(player, "vacation_until", None)
    begin = max(start, vacation) if vacation else start
    return begin + timedelta(hours=hours)


def overdue(now: datetime | None = None) -> list[tuple[int, datetime]]:
    now = now or timezone.now()
    rows = (
        Seat.objects.filter(deadline__lte=now, game__status=Game.Status.ACTIVE)
        .order_by("deadline")
        .values_list("pk", "deadline")[:200]
    )
    return cast("list[tuple[int, datetime]]", list(rows))  # deadline__lte: none is None


def send_reminders(now: datetime | None = None) -> int:
    """Remind players whose deadline comes within one of their reminder thresholds.

    One notification per (seat, deadline, threshold): its key makes a second sweep a no-op.
    A reminder that would repeat what the player was just told is not sent
    (``mails.reminder_repeats``).
    """
    now = now or timezone.now()
    created = 0
    seats = (
        Seat.objects.filter(deadline__gt=now, game__status=Game.Status.ACTIVE, user__isnull=False)
        .exclude(bot__gt="")
        .select_related("user__player", "game")
    )
    for seat in seats:
        assert seat.deadline is not None and seat.user is not None
        hours = getattr(seat.user.player, "reminder_hours", None) or [24, 2]
        due = [h for h in hours if seat.deadline - timedelta(hours=h) <= now]
        if not due:
            continue
        threshold = min(due)  # only the nearest threshold: no burst of stale reminders
        state = seat.game.engine_state()
        if mails.reminder(seat.game, seat, state, threshold, now) is not None:
            created += 1
    return created
