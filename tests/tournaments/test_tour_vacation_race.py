"""A vacation's event limits applied at the moment the player submits a move in that
event game, on PostgreSQL with real row locks and threads: the vacation locks the game
row before the seats, as the submission does, so one waits for the other, neither
deadlocks, and the seat ends as the later of the two left it."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.db import connections, transaction
from django.utils import timezone

from games import services as games
from games.models import Game, Move, Player, Seat
from tests.games.gamehelpers import make_user
from tests.games.racehelpers import wait_for, waiting_on_locks
from tests.tournaments.tourhelpers import current_tables, event_with
from tournaments import services, vacations
from tournaments.models import VacationUse

pytestmark = [
    pytest.mark.skipif(
        getattr(settings, "TEST_DATABASE_VENDOR", "") != "postgresql",
        reason="row locks need PostgreSQL",
    ),
    pytest.mark.django_db(transaction=True),
]

LIMIT_DAYS = 3


def away_in_an_event_game() -> tuple[Game, Seat]:
    """An event game (2 days per move, vacations paused 3 days at most) whose awaited
    player has just gone away for 10 days: their clock shifted by all of it, as
    ``games.services.start_vacation`` shifts it, the event's limit not yet applied."""
    organizer, first, second = make_user("olive"), make_user("pia"), make_user("quinn")
    event = event_with(
        organizer,
        [first, second],
        rounds=1,
        table_size=2,
        min_table_size=2,
        days_per_move=2,
        vacation_limit_days=LIMIT_DAYS,
    )
    services.start_event(event, organizer)
    [table] = current_tables(event)
    game = table.game
    game.refresh_from_db()
    seat = Seat.objects.get(game=game, position=game.engine_state().awaiting[0])
    until = timezone.now() + timedelta(days=10)
    # Row updates, not the service: no receiver applies the limit before the race does.
    Player.objects.filter(user_id=seat.user_id).update(vacation_until=until)
    Seat.objects.filter(pk=seat.pk).update(deadline=until + timedelta(days=2))
    return game, seat


def race(
    game: Game, first: tuple[str, Callable[[], Any]], second: tuple[str, Callable[[], Any]]
) -> dict[str, Any]:
    """Run both jobs in threads, the first queued for the game row before the second."""
    results: dict[str, Any] = {}

    def run(name: str, job: Callable[[], Any]) -> None:
        try:
            results[name] = job()
        except BaseException as exc:
            results[name] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=job, name=job[0]) for job in (first, second)]
    with transaction.atomic():
        Game.objects.select_for_update().get(pk=game.pk)
        for waiting, thread in enumerate(threads, start=1):
            thread.start()
            wait_for(
                lambda n=waiting: waiting_on_locks() >= n, f"{thread.name} to wait for the game"
            )
    for thread in threads:
        thread.join(60)
    return results


def jobs(game: Game, seat: Seat) -> tuple[tuple[str, Callable[[], Any]], ...]:
    user = seat.user
    card = game.engine_state().pool[0]
    return (
        ("vacation", lambda: vacations.enforce_vacation_limits(seat.user_id)),
        ("submit", lambda: games.submit_move(game.pk, user, {"type": "pick", "card": card})),
    )


def test_a_vacation_queued_first_limits_the_clock_and_the_move_then_stops_it() -> None:
    game, seat = away_in_an_event_game()
    vacation, submit = jobs(game, seat)

    results = race(game, vacation, submit)

    assert results["vacation"] == 1, results  # the event's limit shortened the clock
    assert isinstance(results["submit"], games.SubmitResult), results
    use = VacationUse.objects.get(user_id=seat.user_id)
    assert use.seconds == LIMIT_DAYS * 86400
    seat.refresh_from_db()
    assert seat.deadline is None and seat.awaiting_since is None  # the move was made
    assert Move.objects.filter(game=game).count() == 1


def test_a_move_queued_first_leaves_the_vacation_no_clock_to_limit() -> None:
    game, seat = away_in_an_event_game()
    vacation, submit = jobs(game, seat)

    results = race(game, submit, vacation)

    assert isinstance(results["submit"], games.SubmitResult), results
    assert results["vacation"] == 0, results  # it read the seat after the move: not awaited
    seat.refresh_from_db()
    assert seat.deadline is None and seat.awaiting_since is None
    assert Move.objects.filter(game=game).count() == 1
