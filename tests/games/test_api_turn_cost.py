"""What one move costs the API in SQL queries, held so it cannot creep back: the turn that
leaves the round open and the one that completes it (whose reveal waits for a worker),
and no write of a seat the move did not change. (Time is measured in ``make bench``.)"""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.evergreen.rules.targets import legal_targets
from games.models import Game, Seat
from tests.games.apihelpers import api_url, fixed_seed, refreshed  # noqa: F401
from tests.games.gamehelpers import api_client_for, user_at

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fixed_seed")]

EMPTY_TURN = {"action": "D", "effects": [], "power": None}
# One API turn: the token, the savepoint, the game and its seats (locked, in one round
# trip), the seats' users (kept in the cache in production: not there), the Move row, the
# game and the player's seat written in one statement (``games.services.onetrip``), the
# savepoint released. The answer's hints taken per seat (``hints_used``) are on the
# seats read. Raise it only knowingly.
TURN_QUERIES = 6


def post_turn(user: Any, game: Game, turn: Any) -> Any:
    return api_client_for(user).post(api_url("turn", game.pk), turn, format="json")


class TestTurnCost:
    def test_a_turn_reads_the_game_and_its_seats_once_and_answers_without_reading_them_again(
        self, action_game: Game, django_assert_max_num_queries: Any
    ) -> None:
        # The token with its user and player; the savepoint; the game and its seats, both
        # locked; their users; the Move row, the game and the player's own seat (bob's did
        # not change) in one statement; the savepoint released. The answer (names, clocks, hints taken, view) comes from
        # the seats already read.
        alice = user_at(action_game, 0)
        client = api_client_for(alice)
        state = action_game.engine_state()
        space = legal_targets(state, 0, "plant", partial=None)[0]
        turn = {"action": "D", "effects": [{"plant": list(space)}], "power": None}
        with django_assert_max_num_queries(TURN_QUERIES) as captured:
            response = client.post(api_url("turn", action_game.pk), turn, format="json")
        assert response.status_code == 200
        assert [s["name"] for s in response.json()["seats"]] == ["Alice", "Bob"]
        seat_reads = [q for q in captured.captured_queries if 'FROM "games_seat"' in q["sql"]]
        assert len(seat_reads) == 1
        seat_writes = [q for q in captured.captured_queries if 'UPDATE "games_seat"' in q["sql"]]
        assert len(seat_writes) == 1
        # Only what the move changed: never the hints taken, which a hint given meanwhile
        # raises with an UPDATE of its own (games.analysis.hints.record_hint).
        assert '"hints_used"' not in seat_writes[0]["sql"]

    def test_the_turn_that_completes_the_round_costs_no_more_and_leaves_the_reveal_to_a_worker(
        self, action_game: Game, django_assert_max_num_queries: Any
    ) -> None:
        alice, bob = user_at(action_game, 0), user_at(action_game, 1)
        assert post_turn(alice, action_game, EMPTY_TURN).status_code == 200
        client = api_client_for(bob)
        with django_assert_max_num_queries(TURN_QUERIES):
            response = client.post(api_url("turn", action_game.pk), EMPTY_TURN, format="json")
        assert response.status_code == 200
        # Not revealed in the request: the closing waits for the commit and a worker.
        game = refreshed(action_game)
        assert game.needs_closing
        assert game.engine_state().seats[0].turn is not None

    def test_a_seat_the_turn_did_not_change_is_not_written(self, action_game: Game) -> None:
        bob_seat = action_game.seats.get(position=1)
        before = {f: getattr(bob_seat, f) for f in services.SEAT_STATE_FIELDS}
        # Changed behind the services' back: a turn of alice's must not write it over.
        Seat.objects.filter(pk=bob_seat.pk).update(standing_order=["marker"])
        assert post_turn(user_at(action_game, 0), action_game, EMPTY_TURN).status_code == 200
        bob_seat.refresh_from_db()
        assert bob_seat.standing_order == ["marker"]
        after = {f: getattr(bob_seat, f) for f in services.SEAT_STATE_FIELDS}
        assert {f for f in after if after[f] != before[f]} == {"standing_order"}
