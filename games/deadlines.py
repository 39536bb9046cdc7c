"""Deadlines: who must act by when, reminders, timeouts and the hand-over to a bot.

A seat that must act has ``deadline`` set (an indexed column); every other seat has
none. The sweep claims an overdue seat with a conditional UPDATE on that exact deadline,
so two workers never time out the same move twice.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from . import kinds
from .models import Game, Move, Seat
from .signals import seat_timed_out

HANDOVER_AFTER = 3  # timeouts in a row


def update(game: Game, state: Any, seats: list[Seat], now: datetime) -> None:
    """Start the clock for seats that now must act; stop it for the others."""
    hours = game.move_hours
    awaiting = set(kinds.of(game).awaiting(state)) if game.status == Game.Status.ACTIVE else set()
    for seat in seats:
        if seat.position in awaiting and not seat.bot:
            if seat.awaiting_since is None:
                seat.awaiting_since = now
                seat.deadline = deadline_from(now, hours, seat)
        else:
            seat.awaiting_since = None
            seat.deadline = None


def deadline_from(start: datetime, hours: int | None, seat: Seat) -> datetime | None:
    """``hours`` after ``start``, with a vacation of the player's pausing the clock."""
    if not hours:
        return None
    player = getattr(seat.user, "player", None) if seat.user_id else None
    vacation = getattr(player, "vacation_until", None)
    begin = max(start, vacation) if vacation else start
    return begin + timedelta(hours=hours)


def minimal_move(game: Game, state: Any, seat: Seat) -> Any:
    """The smallest legal move the seat's game makes for it (its standing order first)."""
    from .services import standing_order

    kind = kinds.of(game)
    return kind.timeout_move(state, seat.position, "minimal", 0, standing_order(kind, state, seat))


def overdue(now: datetime | None = None) -> list[tuple[int, datetime]]:
    now = now or timezone.now()
    return list(
        Seat.objects.filter(deadline__lte=now, game__status=Game.Status.ACTIVE)
        .order_by("deadline")
        .values_list("pk", "deadline")[:200]
    )


def time_out(seat_id: int, deadline: datetime, now: datetime | None = None) -> str:
    """Apply the game's timeout policy to one overdue seat; returns what happened.

    Claims the seat with ``UPDATE … WHERE deadline = <the deadline seen>`` first: a
    second worker (or a late retry) changes nothing.
    """
    from . import notifications, services

    now = now or timezone.now()
    with transaction.atomic():
        claimed = Seat.objects.filter(pk=seat_id, deadline=deadline).update(deadline=None)
        if claimed != 1:
            return "already handled"
        seat_row = Seat.objects.select_related("game").get(pk=seat_id)
        game, seats = services._locked(seat_row.game_id)
        seat = seats[seat_row.position]
        state = game.engine_state()
        kind = kinds.of(game)
        if game.status != Game.Status.ACTIVE or seat.position not in kind.awaiting(state):
            return "nothing to do"
        if seat.time_bank_seconds:
            # The time bank is spent once, all of it.
            seat.deadline = deadline + timedelta(seconds=seat.time_bank_seconds)
            seat.time_bank_seconds = 0
            Seat.objects.filter(pk=seat.pk).update(deadline=seat.deadline, time_bank_seconds=0)
            return "time bank"
        if game.timeout_policy == "bot":
            move = kind.timeout_move(state, seat.position, "bot", game.seed ^ game.moves_count)
        else:
            move = minimal_move(game, state, seat)
        before = state
        state = kind.apply(state, move)
        moves: list[Move] = [services._move_row(game, move)]
        seat.timeouts_in_row += 1
        seat.awaiting_since = None
        handed = seat.timeouts_in_row >= HANDOVER_AFTER and not seat.bot
        if handed:
            seat.bot = "greedy"
            seat.handed_to_bot = True
        state = services._progress(game, state, seats, moves)
        services._commit(game, before, state, seats, moves)
        if handed:
            notifications.handover(game, seat)
        outcome = "handed to bot" if handed else "timed out"
        services.after_commit(
            lambda: seat_timed_out.send(
                sender=Game, game_id=game.pk, position=seat.position, outcome=outcome
            )
        )
        return outcome


def sweep(now: datetime | None = None) -> dict[str, Any]:
    """Time out every overdue seat (the beat task calls this every minute)."""
    results: dict[str, int] = {}
    for seat_id, deadline in overdue(now):
        outcome = time_out(seat_id, deadline, now)
        results[outcome] = results.get(outcome, 0) + 1
    return results


def send_reminders(now: datetime | None = None) -> int:
    """Remind players whose deadline comes within one of their reminder thresholds.

    One notification per (seat, deadline, threshold): its key makes a second sweep a no-op.
    """
    from . import notifications

    now = now or timezone.now()
    created = 0
    seats = (
        Seat.objects.filter(deadline__gt=now, game__status=Game.Status.ACTIVE, user__isnull=False)
        .exclude(bot__gt="")
        .select_related("user__player", "game")
    )
    for seat in seats:
        assert seat.deadline is not None
        hours = getattr(seat.user.player, "reminder_hours", None) or [24, 2]
        due = [h for h in hours if seat.deadline - timedelta(hours=h) <= now]
        if not due:
            continue
        threshold = min(due)  # only the nearest threshold: no burst of stale reminders
        state = seat.game.engine_state()
        if notifications.reminder(seat.game, seat, state, threshold) is not None:
            created += 1
    return created
