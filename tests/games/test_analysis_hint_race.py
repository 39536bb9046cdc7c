"""Two hints given at once are both counted: the count on the seat is raised by an UPDATE
of its own (``F("hints_used") + 1``), which waits for the other's row lock and then adds
to the count that one committed, never to the one it saw before. On PostgreSQL, with the
first hint's transaction still open while the second comes."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.conf import settings
from django.db import connections, transaction

from games import services
from games.analysis.hints import record_hint
from games.models import Seat
from tests.games.gamehelpers import make_user
from tests.games.racehelpers import wait_for, waiting_on_locks

pytestmark = [
    pytest.mark.skipif(
        getattr(settings, "TEST_DATABASE_VENDOR", "") != "postgresql",
        reason="row locks need PostgreSQL",
    ),
    pytest.mark.django_db(transaction=True),
]


def test_a_hint_given_while_another_is_being_counted_waits_and_both_count() -> None:
    game = services.create_game(make_user("alice"), players=2)
    services.join_game(game.pk, make_user("bob"))
    errors: list[BaseException] = []

    def second_hint() -> None:
        try:
            record_hint(game, 0)
        except BaseException as exc:  # handed to the test, which fails on it
            errors.append(exc)
        finally:
            connections.close_all()

    thread = threading.Thread(target=second_hint)
    with transaction.atomic():
        record_hint(game, 0)  # counted, not yet committed: the seat's row stays locked
        thread.start()
        wait_for(lambda: waiting_on_locks() >= 1, "the second hint to wait for the first")
    thread.join(60)

    assert not errors, errors
    counts: dict[int, Any] = dict(
        Seat.objects.filter(game=game).values_list("position", "hints_used")
    )
    assert counts == {0: 2, 1: 0}
