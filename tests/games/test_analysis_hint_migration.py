"""The hints counted in ``HintUse`` rows move onto the seats (analysis 0003): each row's
count to its seat, the seats without a row keeping 0; backwards, a row again for each seat
that took hints. Run on the models as they were just before 0003, the old table made
again inside the test's transaction (PostgreSQL rolls the DDL back with it; SQLite's
schema editor refuses to work inside one)."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from games import services
from games.models import Game, Seat
from tests.games.gamehelpers import make_user

pytestmark = [
    pytest.mark.skipif(
        getattr(settings, "TEST_DATABASE_VENDOR", "") != "postgresql",
        reason="the old table is made again in the test's transaction: PostgreSQL's DDL",
    ),
    pytest.mark.django_db,
]

NAME = "0003_hint_counts_on_seats"
migration = importlib.import_module(f"games.analysis.migrations.{NAME}")


@pytest.fixture
def old_apps() -> Any:
    """The apps as they were before 0003, with the ``HintUse`` table there again."""
    state = MigrationLoader(connection).project_state(("analysis", NAME), at_end=False)
    with connection.schema_editor() as editor:
        editor.create_model(state.apps.get_model("analysis", "HintUse"))
    return state.apps


def two_games() -> tuple[Game, Game]:
    first = services.create_game(make_user("alice"), players=2)
    services.join_game(first.pk, make_user("bob"))
    return first, services.create_game(make_user("carol"), players=2)


def counts() -> dict[tuple[int, int], int]:
    rows = Seat.objects.values_list("game_id", "position", "hints_used")
    return {(game, position): used for game, position, used in rows}


def test_each_row_s_count_goes_to_its_own_seat_and_the_others_keep_none(old_apps: Any) -> None:
    first, second = two_games()
    HintUse = old_apps.get_model("analysis", "HintUse")
    HintUse.objects.create(game_id=first.pk, seat=1, count=3)
    HintUse.objects.create(game_id=second.pk, seat=0, count=2)
    HintUse.objects.create(game_id=second.pk, seat=1, count=0)

    migration.counts_to_seats(old_apps, None)

    assert counts() == {
        (first.pk, 0): 0,
        (first.pk, 1): 3,
        (second.pk, 0): 2,
        (second.pk, 1): 0,
    }


def test_backwards_each_seat_that_took_hints_has_its_row_again(old_apps: Any) -> None:
    first, second = two_games()
    Seat.objects.filter(game=first, position=1).update(hints_used=3)
    Seat.objects.filter(game=second, position=0).update(hints_used=2)

    migration.counts_to_rows(old_apps, None)

    rows = old_apps.get_model("analysis", "HintUse").objects.values_list("game_id", "seat", "count")
    assert sorted(rows) == sorted([(first.pk, 1, 3), (second.pk, 0, 2)])
