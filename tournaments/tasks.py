"""Celery tasks of events. Each re-reads what it works on and does nothing if its work is
done, so a task that runs twice, late, or on two workers at once changes nothing the
second time; the beat tasks are the safety net for a message lost on the way."""

from __future__ import annotations

from celery import shared_task

from . import services, vacations


@shared_task(acks_late=True)
def advance_event(event_id: int) -> int | None:
    """Seat the next round of the event if its current round is over (or finish it)."""
    round_ = services.advance(event_id)
    return round_.number if round_ is not None else None


@shared_task(acks_late=True)
def timeout_decision(game_id: int, position: int, outcome: str) -> str:
    return services.apply_timeout_policy(game_id, position, outcome)


@shared_task(acks_late=True)
def vacation_limits(user_id: int) -> int:
    return vacations.enforce_vacation_limits(user_id)


@shared_task
def events_safety_net() -> dict[str, int]:
    """Every minute: rounds whose last game's task was lost, timeout decisions not yet
    taken, vacation pauses to keep within each event's limit."""
    seated = 0
    for event_id in services.events_ready_to_advance():
        seated += services.advance(event_id) is not None
    decided = 0
    for game_id, position in services.pending_timeout_decisions():
        services.apply_timeout_policy(game_id, position)
        decided += 1
    deadlines = 0
    for user_id in vacations.players_on_vacation_in_events():
        deadlines += vacations.enforce_vacation_limits(user_id)
    return {"rounds": seated, "timeout_decisions": decided, "deadlines": deadlines}
