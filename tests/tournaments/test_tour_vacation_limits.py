"""Vacations pause a player's event games too, but only within the event's limit."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from games import services as games
from games.models import Seat
from tests.games.gamehelpers import Clock, make_user
from tests.tournaments.tourhelpers import current_tables, event_with, finish_by_bots
from tournaments import services, tasks
from tournaments.models import Event, VacationUse

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


@pytest.fixture
def clock(monkeypatch: Any) -> Clock:
    return Clock.installed(monkeypatch, T0)


def _awaiting(game: Any) -> Seat:
    game.refresh_from_db()
    return Seat.objects.get(game=game, position=game.engine_state().awaiting[0])


def _event_seat(organizer: Any, limit: int, name: str = "Spring Open") -> tuple[Event, Seat]:
    """An event game of two players, 2 days per move; the seat that must move."""
    players = [make_user(f"{name[:3].lower()}{i}") for i in (1, 2)]
    event = event_with(
        organizer,
        players,
        name=name,
        rounds=1,
        table_size=2,
        min_table_size=2,
        days_per_move=2,
        vacation_limit_days=limit,
    )
    services.start_event(event, organizer)
    [table] = current_tables(event)
    return event, _awaiting(table.game)


def _friendly_seat(user: Any) -> Seat:
    """A game outside events where ``user`` must move, 2 days per move."""
    other = make_user(f"friend-of-{user.username}")
    game = games.create_game(other, players=2, days_per_move=2)
    games.join_game(game.pk, user)
    seat = _awaiting(game)
    if seat.user_id != user.pk:  # the other player picks first: let them
        from games.evergreen.rules.bots import RandomBot

        state = game.engine_state()
        games.submit_move(game.pk, other, RandomBot(1).choose(state, seat.position))
        seat = _awaiting(game)
    assert seat.user_id == user.pk
    return seat


def _deadline(seat: Seat) -> datetime:
    seat.refresh_from_db()
    assert seat.deadline is not None
    return seat.deadline


def test_a_vacation_pauses_event_games_only_up_to_the_event_limit(
    alice: Any, clock: Clock, django_capture_on_commit_callbacks: Any
) -> None:
    event, seat = _event_seat(alice, limit=3)
    user = seat.user
    assert _deadline(seat) == T0 + timedelta(days=2)
    friendly = _friendly_seat(user)
    friendly_deadline = _deadline(friendly)

    start = clock.advance(hours=1)
    with django_capture_on_commit_callbacks(execute=True):
        games.start_vacation(user, 10)
    # Outside events the whole vacation pauses the clock; in the event only 3 days.
    assert _deadline(friendly) == friendly_deadline + timedelta(days=10)
    assert _deadline(seat) == T0 + timedelta(days=2 + 3)
    use = VacationUse.objects.get(event=event, user=user)
    assert use.seconds == 3 * 86400 and use.paused_from == start
    # Idempotent: the safety net (and a retried task) change nothing.
    assert tasks.events_safety_net()["deadlines"] == 0
    assert _deadline(seat) == T0 + timedelta(days=5)

    # Back after one day: the unused two event days are given back.
    clock.advance(days=1)
    with django_capture_on_commit_callbacks(execute=True):
        games.end_vacation(user)
    assert _deadline(seat) == T0 + timedelta(days=2 + 1)
    assert _deadline(friendly) == friendly_deadline + timedelta(days=1)
    use.refresh_from_db()
    assert use.seconds == 86400 and use.vacation_until is None

    # A second vacation: two event days are left, added to the one already used.
    clock.advance(hours=1)
    with django_capture_on_commit_callbacks(execute=True):
        games.start_vacation(user, 5)
    assert _deadline(seat) == T0 + timedelta(days=2 + 1 + 2)
    use.refresh_from_db()
    assert use.seconds == 3 * 86400

    # A third, after the second ended: the allowance is spent, the event's clock runs on
    # (the deadline passed during the second vacation: the sweep times the seat out).
    clock.advance(days=5, minutes=1)
    with django_capture_on_commit_callbacks(execute=True):
        games.start_vacation(user, 3)
    assert _deadline(seat) == T0 + timedelta(days=5)


def test_a_zero_limit_means_vacations_do_not_pause_the_event(
    alice: Any, clock: Clock, django_capture_on_commit_callbacks: Any
) -> None:
    _event, seat = _event_seat(alice, limit=0, name="Strict Cup")
    clock.advance(hours=5)
    with django_capture_on_commit_callbacks(execute=True):
        games.start_vacation(seat.user, 7)
    assert _deadline(seat) == T0 + timedelta(days=2)


def test_the_safety_net_applies_the_limit_when_the_task_was_lost(alice: Any, clock: Clock) -> None:
    _event, seat = _event_seat(alice, limit=2, name="Net Cup")
    clock.advance(hours=1)
    games.start_vacation(seat.user, 10)  # commit callbacks never run: the task is lost
    assert _deadline(seat) > T0 + timedelta(days=10)
    assert tasks.events_safety_net()["deadlines"] == 1
    assert _deadline(seat) == T0 + timedelta(days=2 + 2)


def test_a_round_seated_during_a_vacation_starts_the_clock_within_the_limit(
    alice: Any, clock: Clock, django_capture_on_commit_callbacks: Any
) -> None:
    players = [make_user(f"away{i}") for i in range(4)]
    event = event_with(
        alice,
        players,
        name="Away Cup",
        rounds=2,
        table_size=2,
        min_table_size=2,
        days_per_move=2,
        vacation_limit_days=2,
    )
    services.start_event(event, alice)
    # Whoever must move in round 1 has an event clock when the vacation starts: the event's
    # pause starts then. The others' starts when round 2 gives them a clock.
    clock_running = {_awaiting(t.game).user_id for t in current_tables(event)}
    for player in players:
        with django_capture_on_commit_callbacks(execute=True):
            games.start_vacation(player, 10)
    seated_at = clock.advance(hours=3)
    for table in current_tables(event):
        finish_by_bots(table.game_id)
    services.advance(event.pk)  # round 2, everyone away
    for table in current_tables(event):
        seat = _awaiting(table.game)
        # Not the end of the vacation + 2 days: what is left of the 2 days the event
        # allows, then the 2 days to move.
        pause_left = timedelta(days=2) - (
            seated_at - T0 if seat.user_id in clock_running else timedelta(0)
        )
        assert _deadline(seat) == seated_at + pause_left + timedelta(days=2)
