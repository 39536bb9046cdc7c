"""What the API's hottest reads (the game view, the legal targets of a turn) read of a
game's seats: one plain query, no ``Prefetch`` (``games.access.game_and_seats_for_viewer``),
the seats in seat order with the game they belong to and, for the game view, their users;
the targets leave the other players' users unread. Held so that none of it is read twice."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.http import Http404
from django.test.utils import CaptureQueriesContext

from games.access import GameHidden, game_and_seats_for_viewer
from games.models import Game
from tests.games.apihelpers import api_url, fixed_seed  # noqa: F401
from tests.games.gamehelpers import api_client_for, user_at

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fixed_seed")]


def seat_reads(captured: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in captured.captured_queries if 'FROM "games_seat"' in q["sql"]]


class TestGameAndSeatsForViewer:
    def test_gives_the_seats_in_seat_order_with_their_game_and_names_without_another_query(
        self, action_game: Game, carol: Any, django_assert_num_queries: Any
    ) -> None:
        with django_assert_num_queries(2):  # the game; the seats with their users
            game, seats, seat = game_and_seats_for_viewer(action_game.pk, carol)
            assert [s.position for s in seats] == [0, 1]
            assert all(s.game is game for s in seats)
            assert [s.name for s in seats] == ["Alice", "Bob"]
        assert seat is None  # a spectator

    def test_finds_the_viewers_own_seat(self, action_game: Game) -> None:
        bob = user_at(action_game, 1)
        _game, seats, seat = game_and_seats_for_viewer(action_game.pk, bob)
        assert seat is seats[1]
        assert seat.user == bob

    def test_without_users_gives_the_viewer_their_seat_and_reads_no_user(
        self, action_game: Game, django_assert_num_queries: Any
    ) -> None:
        alice = user_at(action_game, 0)
        with django_assert_num_queries(2) as captured:
            _game, _seats, seat = game_and_seats_for_viewer(action_game.pk, alice, with_users=False)
            assert seat is not None and seat.user is alice
        assert '"auth_user"' not in seat_reads(captured)[0]

    def test_answers_404_for_a_game_that_does_not_exist(self, alice: Any) -> None:
        with pytest.raises(Http404):
            game_and_seats_for_viewer(10**9, alice)

    def test_asks_the_guards_as_game_for_viewer_does(
        self, action_game: Game, carol: Any, settings: Any
    ) -> None:
        settings.GAME_VIEW_GUARDS = [f"{__name__}.hide_from_spectators"]
        with pytest.raises(GameHidden):
            game_and_seats_for_viewer(action_game.pk, carol)
        game_and_seats_for_viewer(action_game.pk, user_at(action_game, 0))  # seated: shown


def hide_from_spectators(game: Game, user: Any, seat: Any) -> None:
    if seat is None:
        raise GameHidden("hidden", "Hidden.")


class TestTheReadsOfTheApi:
    def test_the_game_view_reads_the_seats_once(self, action_game: Game) -> None:
        client = api_client_for(user_at(action_game, 0))
        with CaptureQueriesContext(connection) as captured:
            response = client.get(api_url("game", action_game.pk))
        assert response.status_code == 200
        assert [s["name"] for s in response.json()["seats"]] == ["Alice", "Bob"]
        assert len(seat_reads(captured)) == 1

    def test_the_targets_read_the_seats_once_and_no_other_players_user(
        self, action_game: Game, django_assert_num_queries: Any
    ) -> None:
        client = api_client_for(user_at(action_game, 0))
        # The token with its user and player; the game; its seats.
        with django_assert_num_queries(3) as captured:
            response = client.get(api_url("targets", action_game.pk), {"effect": "plant"})
        assert response.status_code == 200
        reads = seat_reads(captured)
        assert len(reads) == 1
        assert '"auth_user"' not in reads[0]
