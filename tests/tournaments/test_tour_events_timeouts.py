"""Timeout policies of events through the real path: the deadline sweep times a seat
out, ``seat_timed_out`` reaches the receiver, the task logs the decision."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from games import timeouts
from games.models import Seat
from games.services import NotAPlayer
from tests.games.gamehelpers import Clock
from tests.tournaments.tourhelpers import current_tables, event_with, finish_by_bots, make_players
from tournaments import results, services, tasks
from tournaments.models import Event, TimeoutDecision


def _awaiting_seat(table: Any) -> Seat:
    table.game.refresh_from_db()
    position = table.game.engine_state().awaiting[0]
    return Seat.objects.get(game=table.game, position=position)


def _sweep_after(clock: Clock, hours: float, capture: Any) -> dict[str, Any]:
    clock.advance(hours=hours)
    with capture(execute=True):
        return timeouts.sweep(clock.now)


def test_rank_last_policy_logs_the_decision_hands_the_seat_over_and_ranks_last(
    alice: Any, monkeypatch: Any, django_capture_on_commit_callbacks: Any
) -> None:
    players = make_players(3)
    event = event_with(
        alice,
        players,
        rounds=1,
        table_size=3,
        min_table_size=3,
        days_per_move=1,
        timeout_policy=Event.TimeoutPolicy.LAST,
    )
    services.start_event(event, alice)
    [table] = current_tables(event)
    seat = _awaiting_seat(table)
    assert seat.deadline is not None
    clock = Clock.installed(monkeypatch, seat.deadline - timedelta(hours=1))
    outcome = _sweep_after(clock, 2, django_capture_on_commit_callbacks)
    assert outcome.get("timed out") == 1

    decision = TimeoutDecision.objects.get(game=table.game, position=seat.position)
    assert decision.user_id == seat.user_id
    assert decision.policy == Event.TimeoutPolicy.LAST
    assert decision.outcome == TimeoutDecision.Outcome.RANKS_LAST
    assert decision.ranks_last and not decision.is_overridden
    seat.refresh_from_db()
    assert seat.bot and seat.handed_to_bot and seat.user_id == decision.user_id
    # Idempotent: the task again (a retry) or the safety net change nothing.
    assert tasks.timeout_decision(table.game_id, seat.position, "timed out") == "last"
    assert services.pending_timeout_decisions() == []
    assert TimeoutDecision.objects.count() == 1

    finish_by_bots(table.game_id)
    services.advance(event.pk)
    rows = results.event_standings(event)
    assert rows[-1].player == seat.user_id and rows[-1].points == 0.0

    services.override_timeout_decision(decision, alice, ranks_last=False, note="Ill")
    table.game.refresh_from_db()
    by_score = sorted(table.game.seats.all(), key=lambda s: -s.score)
    rows = results.event_standings(event)
    # The scenario (the fixed seeds make it so): the bot that took the timed-out seat
    # over won the game outright; ranked last until the override, first after it.
    assert by_score[0].user_id == seat.user_id, "the seeds give the timed-out seat the win"
    assert by_score[0].score > by_score[1].score
    assert rows[0].player == seat.user_id
    points = {r.player: r.points for r in rows}
    mine = next(s for s in by_score if s.user_id == seat.user_id)
    better = sum(1 for s in by_score if s.score > mine.score)
    same = sum(1 for s in by_score if s.score == mine.score)
    assert points[seat.user_id] == sum([2, 1, 0][better : better + same]) / same


def test_bot_policy_after_two_timeouts_logs_first_then_hands_the_seat_over(
    alice: Any, monkeypatch: Any, django_capture_on_commit_callbacks: Any
) -> None:
    players = make_players(2)
    event = event_with(
        alice,
        players,
        rounds=1,
        table_size=2,
        min_table_size=2,
        hours_per_move=6,
        timeout_policy=Event.TimeoutPolicy.BOT,
        timeouts_before_decision=2,
    )
    services.start_event(event, alice)
    [table] = current_tables(event)
    seat = _awaiting_seat(table)
    clock = Clock.installed(monkeypatch, seat.deadline - timedelta(minutes=1))
    _sweep_after(clock, 1, django_capture_on_commit_callbacks)
    decision = TimeoutDecision.objects.get(game=table.game, position=seat.position)
    assert decision.outcome == TimeoutDecision.Outcome.TIMED_OUT
    seat.refresh_from_db()
    assert not seat.bot and seat.timeouts_in_row == 1

    # Everyone keeps missing deadlines: the sweep times out whoever must move.
    for _ in range(12):
        seat.refresh_from_db()
        if seat.handed_to_bot:
            break
        _sweep_after(clock, 7, django_capture_on_commit_callbacks)
    decision.refresh_from_db()
    seat.refresh_from_db()
    assert decision.outcome == TimeoutDecision.Outcome.BOT_FINISHES
    assert decision.policy == Event.TimeoutPolicy.BOT
    assert decision.timeouts == 2 and not decision.ranks_last
    assert seat.handed_to_bot and seat.bot == "strong"


def test_an_organizer_of_another_club_cannot_override(alice: Any, bob: Any) -> None:
    players = make_players(2)
    event = event_with(alice, players, rounds=1, table_size=2, min_table_size=2)
    services.start_event(event, alice)
    [table] = current_tables(event)
    seat = Seat.objects.get(game=table.game, position=0)
    Seat.objects.filter(pk=seat.pk).update(timeouts_in_row=1)
    services.apply_timeout_policy(table.game_id, 0)
    decision = TimeoutDecision.objects.get()
    services.create_club(bob, "Other Club")
    with pytest.raises(NotAPlayer) as refused:
        services.override_timeout_decision(decision, bob, ranks_last=True)
    assert refused.value.code == "not_organizer"
    decision.refresh_from_db()
    assert not decision.is_overridden


def test_the_safety_net_takes_a_decision_whose_task_was_lost(alice: Any, monkeypatch: Any) -> None:
    players = make_players(3)
    event = event_with(
        alice,
        players,
        rounds=1,
        table_size=3,
        min_table_size=3,
        days_per_move=1,
        timeout_policy=Event.TimeoutPolicy.LAST,
    )
    services.start_event(event, alice)
    [table] = current_tables(event)
    seat = _awaiting_seat(table)
    clock = Clock.installed(monkeypatch, seat.deadline + timedelta(minutes=1))
    assert timeouts.sweep(clock.now).get("timed out") == 1  # commit callbacks never run
    assert not TimeoutDecision.objects.exists()
    assert services.pending_timeout_decisions() == [(table.game_id, seat.position)]
    assert tasks.events_safety_net()["timeout_decisions"] == 1
    decision = TimeoutDecision.objects.get()
    assert decision.ranks_last and decision.user_id == seat.user_id
    assert services.pending_timeout_decisions() == []
    assert tasks.events_safety_net()["timeout_decisions"] == 0
