"""What the API's game view (``GET /api/games/<id>/``, read every 15 s by API players)
costs in SQL queries, held so it cannot creep up; and that what it shows outside the
game's version (the hints each seat took) is read afresh on every request, so a cache of
the view keyed on the version could not silently serve it stale.

Profiled (200 warm requests, test client, a 4-player game in its second season): about
9 ms of CPU a request, of which the four queries' ORM work (four then: the hints each seat
took were a query of their own before they moved onto the seat) is over half and the
player's view (``player_view`` and parsing the state) under 0.15 ms. (Time is measured by
``tests/benchmarks/kindcost.py``.)"""

from __future__ import annotations

from typing import Any

import pytest

from games.analysis.hints import record_hint
from games.models import Game
from tests.games.apihelpers import api_url, fixed_seed  # noqa: F401
from tests.games.gamehelpers import api_client_for, user_at

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fixed_seed")]

# The token with its user and player; the game; its seats with their users and players
# (and the hints each took). Raise it only knowingly.
VIEW_QUERIES = 3


class TestGameViewCost:
    def test_a_player_sees_the_game_in_three_queries(
        self, action_game: Game, django_assert_num_queries: Any
    ) -> None:
        client = api_client_for(user_at(action_game, 0))
        with django_assert_num_queries(VIEW_QUERIES):
            response = client.get(api_url("game", action_game.pk))
        assert response.status_code == 200
        assert response.json()["my_seat"] == 0

    def test_a_spectator_sees_the_game_in_as_many(
        self, action_game: Game, carol: Any, django_assert_num_queries: Any
    ) -> None:
        client = api_client_for(carol)
        with django_assert_num_queries(VIEW_QUERIES):
            response = client.get(api_url("game", action_game.pk))
        assert response.status_code == 200
        assert response.json()["my_seat"] is None


class TestGameViewFreshness:
    def test_a_hint_taken_shows_at_once_though_the_version_did_not_change(
        self, action_game: Game
    ) -> None:
        client = api_client_for(user_at(action_game, 1))
        before = client.get(api_url("game", action_game.pk)).json()
        record_hint(action_game, 0)
        after = client.get(api_url("game", action_game.pk)).json()
        assert after["version"] == before["version"]
        assert [s["hints_used"] for s in before["seats"]] == [0, 0]
        assert [s["hints_used"] for s in after["seats"]] == [1, 0]
