"""A move submitted at the moment the deadline sweep times the same seat out, on
PostgreSQL with real row locks and threads: both lock the game row first, so one waits
for the other and neither deadlocks; exactly one of them moves for the seat."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.db import connections, transaction

from games import services, timeouts
from games.models import Game, Move, Seat
from tests.games.gamehelpers import make_user
from tests.games.racehelpers import wait_for, waiting_on_locks

pytestmark = [
    pytest.mark.skipif(
        getattr(settings, "TEST_DATABASE_VENDOR", "") != "postgresql",
        reason="row locks need PostgreSQL",
    ),
    pytest.mark.django_db(transaction=True),
]


def test_a_move_and_the_sweep_at_the_same_moment_neither_deadlock_nor_both_play() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    game = services.create_game(alice, players=2, days_per_move=1)
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    state = game.engine_state()
    picker = state.awaiting[0]
    seat = Seat.objects.get(game=game, position=picker)
    assert seat.deadline is not None
    deadline, user = seat.deadline, seat.user
    results: dict[str, Any] = {}

    def run(name: str, job: Callable[[], Any]) -> None:
        try:
            results[name] = job()
        except BaseException as exc:
            results[name] = exc
        finally:
            connections.close_all()

    submit = threading.Thread(
        target=run,
        args=(
            "submit",
            lambda: services.submit_move(game.pk, user, {"type": "pick", "card": state.pool[0]}),
        ),
    )
    sweep = threading.Thread(
        target=run,
        args=(
            "sweep",
            lambda: timeouts.time_out(seat.pk, deadline, deadline + timedelta(minutes=1)),
        ),
    )
    with transaction.atomic():
        Game.objects.select_for_update().get(pk=game.pk)
        # The submission queues for the game row first; then the sweep. Had the sweep
        # claimed the seat row before queueing for the game row, the submission (which
        # writes that seat once it has the game) and the sweep would wait on each other.
        submit.start()
        wait_for(lambda: waiting_on_locks() >= 1, "the submission to wait for the game row")
        sweep.start()
        wait_for(lambda: waiting_on_locks() >= 2, "the sweep to wait for the game row")
    submit.join(60)
    sweep.join(60)

    assert isinstance(results["submit"], services.SubmitResult), results
    assert results["sweep"] == "already handled", results
    assert Move.objects.filter(game=game).count() == 1
    played = Move.objects.get(game=game)
    assert (played.seat, played.user_id) == (picker, user.pk)
