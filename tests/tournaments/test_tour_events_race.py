"""The next round is seated exactly once, on PostgreSQL with real commits: two workers
racing, the organizer racing the task, and the whole chain from a game's end to the
next round's mails."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.conf import settings
from django.core import mail
from django.db import connection

from games.models import Game
from games.services import Conflict
from games.signals import game_ended
from tests.tournaments.tourhelpers import current_tables, event_with, finish_by_bots, make_players
from tournaments import receivers, services, tasks
from tournaments.models import Event, Round, Table

pytestmark = [
    pytest.mark.slow,  # threads racing on PostgreSQL
    pytest.mark.skipif(
        getattr(settings, "TEST_DATABASE_VENDOR", "") != "postgresql",
        reason="row locks need PostgreSQL",
    ),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def no_auto_advance() -> Iterator[None]:
    """Games end without the receiver seating the next round (as if its task was lost)."""
    game_ended.disconnect(sender=Game, dispatch_uid="tournaments_game_ended")
    try:
        yield
    finally:
        game_ended.connect(
            receivers.on_game_ended, sender=Game, dispatch_uid="tournaments_game_ended"
        )


def _round_one_over(organizer: Any, count: int = 8) -> Event:
    players = make_players(count)
    event = event_with(organizer, players, rounds=3, table_size=4, min_table_size=3)
    services.start_event(event, organizer)
    for table in current_tables(event):
        finish_by_bots(table.game_id)
    return event


def _race(*calls: Callable[[], Any]) -> list[Any]:
    barrier = threading.Barrier(len(calls))
    outcomes: list[Any] = []

    def run(call: Callable[[], Any]) -> None:
        barrier.wait()
        try:
            outcomes.append(call())
        except Exception as exc:
            outcomes.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def test_two_workers_seat_the_next_round_exactly_once(alice: Any, no_auto_advance: None) -> None:
    event = _round_one_over(alice)
    assert Round.objects.filter(event=event).count() == 1
    outcomes = _race(
        lambda: tasks.advance_event(event.pk),
        lambda: tasks.advance_event(event.pk),
    )
    assert sorted(outcomes, key=lambda o: o is None) == [2, None]  # one seated round 2
    assert Round.objects.filter(event=event).count() == 2
    round2 = Round.objects.get(event=event, number=2)
    assert round2.tables.count() == 2
    assert Table.objects.filter(round__event=event).count() == 4
    assert Game.objects.filter(event_table__round=round2).count() == 2
    event.refresh_from_db()
    assert event.current_round == 2
    # A late retry of the task finds nothing to do.
    assert tasks.advance_event(event.pk) is None
    assert Round.objects.filter(event=event).count() == 2


def test_the_organizer_racing_the_task_seats_one_round(alice: Any, no_auto_advance: None) -> None:
    event = _round_one_over(alice)
    outcomes = _race(
        lambda: services.advance(event.pk),
        lambda: services.seat_next_round(Event.objects.get(pk=event.pk), alice),
    )
    rounds = [o for o in outcomes if isinstance(o, Round)]
    others = [o for o in outcomes if not isinstance(o, Round)]
    assert len(rounds) == 1
    assert others == [None] or (
        isinstance(others[0], Conflict) and others[0].code == "round_not_finished"
    )
    assert Round.objects.filter(event=event, number=2).count() == 1
    assert Table.objects.filter(round__number=2, round__event=event).count() == 2


def test_the_last_game_of_a_round_seats_the_next_and_mails_its_players(
    alice: Any, caplog: Any
) -> None:
    players = make_players(8)
    event = event_with(alice, players, rounds=2, table_size=4, min_table_size=3)
    mail.outbox.clear()
    services.start_event(event, alice)
    # Round 1 seated: each player got the "you play at table" mail (among "your move" mails).
    seated = [m for m in mail.outbox if "round 1: you play at table" in m.subject]
    assert sorted(m.to[0] for m in seated) == sorted(p.email for p in players)
    first, second = current_tables(event)
    finish_by_bots(first.game_id)
    assert Round.objects.filter(event=event).count() == 1  # one game still running
    mail.outbox.clear()
    finish_by_bots(second.game_id)  # its commit → game_ended → the task seats round 2
    # on_commit(robust=True) logs what a callback raised and goes on: show it here.
    assert not [r for r in caplog.records if "on_commit" in r.getMessage()], caplog.text
    event.refresh_from_db()
    assert event.current_round == 2
    assert Round.objects.get(event=event, number=1).status == Round.Status.FINISHED
    seated = [m for m in mail.outbox if "round 2: you play at table" in m.subject]
    assert len(seated) == 8
    body = seated[0].body
    assert "Spring Open" in body and "/games/" in body
    for table in current_tables(event):
        finish_by_bots(table.game_id)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED


def test_the_safety_net_seats_a_round_whose_task_was_lost(
    alice: Any, no_auto_advance: None
) -> None:
    event = _round_one_over(alice)
    assert services.events_ready_to_advance() == [event.pk]
    assert tasks.events_safety_net()["rounds"] == 1
    assert Round.objects.filter(event=event).count() == 2
    assert services.events_ready_to_advance() == []
    assert tasks.events_safety_net()["rounds"] == 0
