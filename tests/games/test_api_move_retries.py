"""API moves retried and raced: the same idempotency key plays once, an old version is
refused (If-Match or the body's version), another seat's hidden turn is not a new version.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Game, Move
from tests.games.apihelpers import api_url, fixed_seed, in_action_phase, refreshed  # noqa: F401
from tests.games.apimovehelpers import EMPTY_TURN, picker_and_other, post_pick, post_turn, snapshot
from tests.games.gamehelpers import user_at

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fixed_seed")]


class TestIdempotency:
    def test_the_same_key_twice_plays_once_and_answers_the_same(self, action_game: Game) -> None:
        alice = user_at(action_game, 0)
        first = post_turn(alice, action_game, EMPTY_TURN, HTTP_IDEMPOTENCY_KEY="turn-1")
        moves = Move.objects.filter(game=action_game).count()
        again = post_turn(alice, action_game, EMPTY_TURN, HTTP_IDEMPOTENCY_KEY="turn-1")
        assert (first.status_code, again.status_code) == (200, 200)
        assert again.content == first.content
        assert Move.objects.filter(game=action_game).count() == moves
        assert Move.objects.filter(game=action_game, idempotency_key="turn-1").count() == 1
        assert "Idempotent-Replayed" not in first.headers
        assert again.headers["Idempotent-Replayed"] == "true"

    def test_a_retried_pick_returns_the_first_move_even_after_the_game_moved_on(
        self, two_player_game: Game
    ) -> None:
        picker, other = picker_and_other(two_player_game)
        card = two_player_game.engine_state().pool[0]
        first = post_pick(picker, two_player_game, card, HTTP_IDEMPOTENCY_KEY="pick-1")
        post_pick(other, two_player_game, refreshed(two_player_game).engine_state().pool[0])
        again = post_pick(picker, two_player_game, card, HTTP_IDEMPOTENCY_KEY="pick-1")
        assert again.status_code == 200
        assert again.json()["move"] == first.json()["move"]
        assert again.json()["version"] == refreshed(two_player_game).version

    def test_a_key_used_by_another_seat_is_refused(self, action_game: Game) -> None:
        post_turn(user_at(action_game, 0), action_game, EMPTY_TURN, HTTP_IDEMPOTENCY_KEY="shared")
        before = snapshot(action_game)
        response = post_turn(
            user_at(action_game, 1), action_game, EMPTY_TURN, HTTP_IDEMPOTENCY_KEY="shared"
        )
        assert response.status_code == 409
        assert response.json()["code"] == "idempotency_key_reused"
        assert snapshot(action_game) == before

    def test_an_overlong_key_is_refused(self, action_game: Game) -> None:
        response = post_turn(
            user_at(action_game, 0), action_game, EMPTY_TURN, HTTP_IDEMPOTENCY_KEY="k" * 81
        )
        assert response.status_code == 400
        assert response.json()["code"] == "bad_idempotency_key"


class TestStaleVersion:
    def test_if_match_with_an_old_version_is_refused_with_409(self, action_game: Game) -> None:
        old = action_game.version - 1  # before the draft was revealed: a change it could see
        post_turn(user_at(action_game, 0), action_game, EMPTY_TURN)
        before = snapshot(action_game)
        response = post_turn(
            user_at(action_game, 1), action_game, EMPTY_TURN, HTTP_IF_MATCH=str(old)
        )
        assert response.status_code == 409
        assert response.json()["code"] == "stale_version"
        assert snapshot(action_game) == before

    def test_a_version_in_the_body_works_like_if_match(self, action_game: Game) -> None:
        old = action_game.version - 1
        post_turn(user_at(action_game, 0), action_game, EMPTY_TURN)
        response = post_turn(user_at(action_game, 1), action_game, {**EMPTY_TURN, "version": old})
        assert response.status_code == 409
        assert response.json()["code"] == "stale_version"

    def test_another_seats_hidden_turn_does_not_make_the_version_stale(
        self, action_game: Game
    ) -> None:
        shown = action_game.version  # both players' pages show this version
        post_turn(user_at(action_game, 0), action_game, EMPTY_TURN)
        response = post_turn(
            user_at(action_game, 1), action_game, EMPTY_TURN, HTTP_IF_MATCH=str(shown)
        )
        assert response.status_code == 200, response.json()
        again = post_turn(
            user_at(action_game, 0), action_game, EMPTY_TURN, HTTP_IF_MATCH=str(shown)
        )
        assert again.status_code == 409  # the round was revealed since: that is news
        assert again.json()["code"] == "stale_version"

    @pytest.mark.parametrize("header", ["{v}", '"{v}"', 'W/"{v}"'])
    def test_the_current_version_is_accepted(self, action_game: Game, header: str) -> None:
        response = post_turn(
            user_at(action_game, 0),
            action_game,
            EMPTY_TURN,
            HTTP_IF_MATCH=header.format(v=action_game.version),
        )
        assert response.status_code == 200

    @pytest.mark.parametrize(
        ("headers", "body"),
        [({"HTTP_IF_MATCH": "latest"}, {}), ({}, {"version": "7"}), ({}, {"version": True})],
    )
    def test_a_version_that_is_not_a_number_is_refused(
        self, action_game: Game, headers: dict[str, str], body: dict[str, Any]
    ) -> None:
        response = post_turn(
            user_at(action_game, 0), action_game, {**EMPTY_TURN, **body}, **headers
        )
        assert response.status_code == 400
        assert response.json()["code"] == "bad_version"

    def test_if_match_and_a_different_body_version_are_refused(self, action_game: Game) -> None:
        v = action_game.version
        response = post_turn(
            user_at(action_game, 0),
            action_game,
            {**EMPTY_TURN, "version": v - 1},
            HTTP_IF_MATCH=str(v),
        )
        assert response.status_code == 400
