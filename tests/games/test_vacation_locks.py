"""Going on vacation and coming back shift the clocks of the player's games through the
same locks as every write to a game: the game row first, then its seats. On PostgreSQL,
with a real row lock held elsewhere, the vacation waits for the game row (so it can never
hold a seat that a move submitted at that moment waits for), then shifts the deadline."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.db import connections, transaction
from django.utils import timezone

from games import services
from games.models import Game, Player, Seat
from tests.games.gamehelpers import make_user
from tests.games.racehelpers import wait_for, waiting_on_locks

pytestmark = [
    pytest.mark.skipif(
        getattr(settings, "TEST_DATABASE_VENDOR", "") != "postgresql",
        reason="row locks need PostgreSQL",
    ),
    pytest.mark.django_db(transaction=True),
]


def a_game_awaiting() -> tuple[Game, Seat]:
    """A game with a day per move, and the seat whose clock runs."""
    game = services.create_game(make_user("alice"), players=2, days_per_move=1)
    services.join_game(game.pk, make_user("bob"))
    game.refresh_from_db()
    seat = game.seats.get(position=game.engine_state().awaiting[0])
    assert seat.deadline is not None
    return game, seat


def in_a_thread_behind_the_game_lock(game: Game, job: Any) -> dict[str, Any]:
    """Run ``job`` in a thread while this test holds the game's row lock; return once
    the job has finished, after checking that it waited for that lock."""
    results: dict[str, Any] = {}

    def run() -> None:
        try:
            results["value"] = job()
        except BaseException as exc:
            results["value"] = exc
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    with transaction.atomic():
        Game.objects.select_for_update().get(pk=game.pk)
        thread.start()
        wait_for(lambda: waiting_on_locks() >= 1, "the vacation to wait for the game row")
    thread.join(60)
    return results


def test_going_on_vacation_waits_for_the_game_row_then_shifts_the_clock() -> None:
    game, seat = a_game_awaiting()
    alice = seat.user
    before = seat.deadline
    assert before is not None

    results = in_a_thread_behind_the_game_lock(game, lambda: services.start_vacation(alice, 3))

    assert isinstance(results["value"], Player), results
    seat.refresh_from_db()
    assert seat.deadline is not None
    assert seat.deadline - before >= timedelta(days=3) - timedelta(minutes=1)


def test_coming_back_early_waits_for_the_game_row_then_restarts_the_clock() -> None:
    game, seat = a_game_awaiting()
    alice = seat.user
    services.start_vacation(alice, 5)

    results = in_a_thread_behind_the_game_lock(game, lambda: services.end_vacation(alice))

    assert isinstance(results["value"], Player), results
    seat.refresh_from_db()
    assert seat.deadline is not None
    assert seat.deadline - timezone.now() < timedelta(days=2)  # a day per move, from now
