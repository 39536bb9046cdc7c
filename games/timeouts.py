"""Time-outs: what happens when a seat's deadline passes (the game's policy: a computer
player's move or the smallest legal move; after ``HANDOVER_AFTER`` in a row a computer
player takes the seat), written through the services' write path with the game row
locked first."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction

from . import kinds, mails
from .deadlines import overdue
from .models import Game, Move, Seat
from .services import writes
from .signals import seat_timed_out

HANDOVER_AFTER = 3  # timeouts in a row


def minimal_move(game: Game, state: Any, seat: Seat) -> Any:
    """The smallest legal move the seat's game makes for it (its standing order first)."""
    kind = kinds.of(game)
    return kind.timeout_move(
        state, seat.position, "minimal", 0, writes.standing_order(kind, state, seat)
    )


def time_out(seat_id: int, deadline: datetime, now: datetime | None = None) -> str:
    """Apply the game's timeout policy to one overdue seat; returns what happened.

    Locks the game row first, as every write of ``games.services`` does (the other order
    could deadlock against a move submitted at that moment), then claims the seat with
    ``UPDATE … WHERE deadline = <the deadline seen>``: a second worker (or a late retry)
    changes nothing.
    """
    with transaction.atomic():
        game_id = Seat.objects.filter(pk=seat_id).values_list("game_id", flat=True).first()
        if game_id is None:
            return "already handled"
        game, seats = writes.lock_game_and_seats(game_id)
        claimed = Seat.objects.filter(pk=seat_id, deadline=deadline).update(deadline=None)
        if claimed != 1:
            return "already handled"
        seat = next(s for s in seats if s.pk == seat_id)
        seat.deadline = None  # as the claim just wrote it: nothing left to save
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
        moves: list[Move] = [writes.move_row(game, move)]
        seats.change(seat, timeouts_in_row=seat.timeouts_in_row + 1, awaiting_since=None)
        handed = seat.timeouts_in_row >= HANDOVER_AFTER and not seat.bot
        if handed:
            seats.change(seat, bot=kind.default_bot, handed_to_bot=True)
        state = writes.progress(game, state, seats, moves)
        writes.commit(game, before, state, seats, moves)
        if handed:
            mails.handover(game, seat)
        outcome = "handed to bot" if handed else "timed out"
        writes.after_commit(
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
