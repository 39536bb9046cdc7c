"""games.rowsread: a game and its seats read in one round trip are the rows the ORM reads,
locked for a write, or each with the version of its row for the row cache; so are users
with their players."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction

from games.models import Game, Player, Seat
from games.rowsread import read_together, read_with_related

pytestmark = pytest.mark.django_db


def columns(instance: Any) -> list[Any]:
    return [getattr(instance, f.attname) for f in instance._meta.concrete_fields]


def xmin_of(model: Any, pk: int) -> str:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT xmin::text FROM {model._meta.db_table} WHERE id = %s", [pk])
        return str(cursor.fetchone()[0])


class TestReadTogether:
    def test_reads_the_game_and_its_seats_in_seat_order_in_one_query_as_the_orm_does(
        self, action_game: Game, django_assert_num_queries: Any
    ) -> None:
        Seat.objects.filter(game=action_game, position=1).update(standing_order=["a", "b"])
        # One query although the site's connection binds parameters on the server, which
        # takes one statement an execute (tests/games/test_prepared_statements.py).
        with transaction.atomic(), django_assert_num_queries(1):
            game, seats = read_together(Game, action_game.pk, Seat, "game", "position", lock=True)
        orm_game = Game.objects.get(pk=action_game.pk)
        orm_seats = list(Seat.objects.filter(game=action_game).order_by("position"))
        assert columns(game) == columns(orm_game)
        assert game.engine_state() == orm_game.engine_state()  # the snapshot's JSON read
        assert [columns(s) for s in seats] == [columns(s) for s in orm_seats]
        assert [s.position for s in seats] == [0, 1] and seats[1].standing_order == ["a", "b"]

    def test_each_row_read_with_its_version_carries_its_xmin(self, action_game: Game) -> None:
        game, seats = read_together(Game, action_game.pk, Seat, "game", "position", versions=True)
        assert game.row_version == xmin_of(Game, game.pk)
        assert [s.row_version for s in seats] == [xmin_of(Seat, s.pk) for s in seats]
        assert columns(game) == columns(Game.objects.get(pk=action_game.pk))
        Game.objects.filter(pk=game.pk).update(version=game.version + 1)
        again, _seats = read_together(Game, game.pk, Seat, "game", "position", versions=True)
        assert again.row_version != game.row_version and again.version == game.version + 1

    def test_a_game_that_is_not_there_is_refused_as_get_refuses_it(self) -> None:
        with pytest.raises(Game.DoesNotExist):
            read_together(Game, 987654321, Seat, "game", "position", versions=True)
        with pytest.raises(Game.DoesNotExist), transaction.atomic():
            read_together(Game, 987654321, Seat, "game", "position", lock=True)


class TestReadWithRelated:
    def test_reads_the_users_without_their_password_and_their_players_in_one_query(
        self, action_game: Game, django_assert_num_queries: Any
    ) -> None:
        user_model = get_user_model()
        ids = [seat.user_id for seat in action_game.seats.all()]
        with django_assert_num_queries(1):
            users, players = read_with_related(
                user_model, ids, Player, "user", leave_out=("password",)
            )
        by_id = {user.pk: user for user in users}
        assert sorted(by_id) == sorted(ids)
        for user in users:
            orm_user = user_model.objects.get(pk=user.pk)
            assert user.get_deferred_fields() == {"password"}
            assert user.username == orm_user.username and user.email == orm_user.email
            assert user.row_version == xmin_of(user_model, user.pk)
        assert sorted(p.user_id for p in players) == sorted(ids)
        for player in players:
            assert columns(player) == columns(Player.objects.get(pk=player.pk))
            assert player.row_version == xmin_of(Player, player.pk)

    def test_rows_that_are_not_there_are_left_out(self) -> None:
        users, players = read_with_related(
            get_user_model(), [987654321], Player, "user", leave_out=("password",)
        )
        assert users == [] and players == []
