"""games.services.onetrip: a write's rows sent in one statement are the rows the ORM would
have written one by one, and a statement that fails writes none of them."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.models import Game, Move, Seat
from games.services.onetrip import OneTrip

pytestmark = pytest.mark.django_db


def new_move(game: Game, number: int, key: str | None = None) -> Move:
    return Move(
        game=game,
        number=number,
        seat=0,
        kind="turn",
        payload={"type": "turn"},
        idempotency_key=key,
        result_version=game.version + 1,
    )


class TestOneTrip:
    def test_writes_the_moves_the_seats_and_the_game_in_one_query(
        self, action_game: Game, django_assert_num_queries: Any
    ) -> None:
        game, seat = action_game, action_game.seats.get(position=0)
        before = timezone.now()
        game.version += 1
        moves = [new_move(game, 1000), new_move(game, 1001)]
        trip = OneTrip()
        trip.update_object(game, ["version", "updated_at"])
        trip.update(Seat, [seat.pk], {"timeouts_in_row": 3, "last_acted_move": 1001})
        trip.insert(moves)
        with django_assert_num_queries(1):
            trip.run()
        # Each new Move has its id, and its auto_now_add time, as bulk_create gives them.
        stored = Move.objects.filter(game=game, number__gte=1000).order_by("number")
        assert [m.pk for m in stored] == [m.pk for m in moves] and None not in [m.pk for m in moves]
        assert all(m.created_at >= before for m in stored)
        assert stored[0].payload == {"type": "turn"} and stored[0].idempotency_key is None
        # The game's fields named, auto_now set on the object and in the row.
        fresh = Game.objects.get(pk=game.pk)
        assert fresh.version == game.version and fresh.updated_at == game.updated_at >= before
        seat.refresh_from_db()
        assert (seat.timeouts_in_row, seat.last_acted_move) == (3, 1001)

    def test_a_clash_on_a_moves_key_writes_nothing_at_all(self, action_game: Game) -> None:
        game = action_game
        Move.objects.bulk_create([new_move(game, 2000, key="once")])
        version = game.version
        game.version += 1
        trip = OneTrip()
        trip.update_object(game, ["version"])
        trip.insert([new_move(game, 2001, key="once")])
        with pytest.raises(IntegrityError), transaction.atomic():
            trip.run()
        assert Game.objects.get(pk=game.pk).version == version
        assert not Move.objects.filter(game=game, number=2001).exists()

    def test_updates_alone_are_one_query_too(
        self, action_game: Game, django_assert_num_queries: Any
    ) -> None:
        seats = list(action_game.seats.order_by("position"))
        trip = OneTrip()
        trip.update(Seat, [s.pk for s in seats], {"timeouts_in_row": 2})
        trip.update_object(action_game, ["needs_closing"])
        with django_assert_num_queries(1):
            trip.run()
        assert {s.timeouts_in_row for s in Seat.objects.filter(game=action_game)} == {2}
