"""Stalled and timed-out games of an event: an organizer's adjudication, the event's
timeout policy (logged as a ``TimeoutDecision`` per seat) and the organizer's ruling
over it."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import services as games
from games.models import Game, Seat
from games.services import ServiceError

from ..models import Event, Table, TimeoutDecision
from .clubs import require_organizer
from .events import locked_event


@transaction.atomic
def adjudicate_table(table: Table, by: Any) -> Table:
    """End a stalled game of the event with its current scores (an organizer's ruling)."""
    event = table.round.event
    require_organizer(event.club, by)
    locked_event(event)
    table = Table.objects.select_for_update().get(pk=table.pk)
    games.adjudicate_game(table.game_id, by)
    table.adjudicated = True
    table.adjudicated_by = by
    table.adjudicated_at = timezone.now()
    table.save(update_fields=["adjudicated", "adjudicated_by", "adjudicated_at"])
    return table


def apply_timeout_policy(game_id: int, position: int, outcome: str = "timed out") -> str:
    """Log what the event's timeout policy decides for a seat that ran out of time.

    Once the seat has timed out ``timeouts_before_decision`` times in a row (or the games
    app handed it to the bot), the policy applies: the bot finishes the seat, and with
    the "ranks last" policy the player is ranked last at the table. Before that, the
    timeout is logged. Idempotent (one row per game and seat, decisions never taken
    twice); an organizer's override is kept. Returns the decision's outcome, or "" for a
    game outside events.
    """
    with transaction.atomic():
        table = (
            Table.objects.select_for_update()
            .select_related("round__event")
            .filter(game_id=game_id)
            .first()
        )
        if table is None:
            return ""
        event = table.round.event
        seat = Seat.objects.get(game_id=game_id, position=position)
        decision, _created = TimeoutDecision.objects.get_or_create(
            game_id=game_id,
            position=position,
            defaults={
                "table": table,
                "user_id": seat.user_id,
                "policy": event.timeout_policy,
                "outcome": TimeoutDecision.Outcome.TIMED_OUT,
                "timeouts": max(1, seat.timeouts_in_row),
            },
        )
        decision.timeouts = max(decision.timeouts, seat.timeouts_in_row)
        due = outcome == "handed to bot" or seat.timeouts_in_row >= event.timeouts_before_decision
        if due and decision.outcome == TimeoutDecision.Outcome.TIMED_OUT:
            decision.policy = event.timeout_policy
            if event.timeout_policy == Event.TimeoutPolicy.LAST:
                decision.outcome = TimeoutDecision.Outcome.RANKS_LAST
                decision.ranks_last = not decision.is_overridden or decision.ranks_last
            else:
                decision.outcome = TimeoutDecision.Outcome.BOT_FINISHES
            games.hand_seat_to_bot(game_id, position)
        decision.save()
        return str(decision.outcome)


@transaction.atomic
def override_timeout_decision(
    decision: TimeoutDecision, by: Any, ranks_last: bool, note: str = ""
) -> TimeoutDecision:
    """The organizer rules otherwise: the player is (or is not) ranked last at the table."""
    event = decision.table.round.event
    require_organizer(event.club, by)
    decision = TimeoutDecision.objects.select_for_update().get(pk=decision.pk)
    if len(note or "") > 2000:
        raise ServiceError(_("A note has at most 2000 characters."), "bad_note")
    decision.ranks_last = bool(ranks_last)
    decision.overridden_by = by
    decision.overridden_at = timezone.now()
    decision.note = note or ""
    decision.save(update_fields=["ranks_last", "overridden_by", "overridden_at", "note"])
    return decision


def pending_timeout_decisions() -> list[tuple[int, int]]:
    """(game, seat) of running events' games whose seat timed out often enough for the
    policy but has no decision yet (the beat safety net for a lost signal)."""
    seats = [
        (game_id, position)
        for game_id, position, timeouts, needed in Seat.objects.filter(
            game__event_table__round__event__status=Event.Status.RUNNING,
            game__status=Game.Status.ACTIVE,
            timeouts_in_row__gte=1,
        ).values_list(
            "game_id",
            "position",
            "timeouts_in_row",
            "game__event_table__round__event__timeouts_before_decision",
        )
        if timeouts >= needed
    ]
    decided = set(
        TimeoutDecision.objects.filter(game_id__in={game_id for game_id, _p in seats})
        .exclude(outcome=TimeoutDecision.Outcome.TIMED_OUT)
        .values_list("game_id", "position")
    )
    return [seat for seat in seats if seat not in decided]
