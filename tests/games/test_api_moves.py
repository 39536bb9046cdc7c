"""API moves: pick and turn, every error path. Retries (idempotency keys) and stale
versions are in test_api_move_retries.py, legal targets in test_api_targets.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.evergreen.rules.targets import legal_targets
from games.models import Game
from tests.games.apihelpers import api_url, fixed_seed, in_action_phase, refreshed  # noqa: F401
from tests.games.apimovehelpers import EMPTY_TURN, picker_and_other, post_pick, post_turn, snapshot
from tests.games.gamehelpers import api_client_for, play_until, user_at

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fixed_seed")]


class TestPick:
    def test_the_picker_picks_and_gets_the_new_view(self, two_player_game: Game) -> None:
        picker, _other = picker_and_other(two_player_game)
        card = two_player_game.engine_state().pool[0]
        response = post_pick(picker, two_player_game, card)
        assert response.status_code == 200
        body = response.json()
        game = refreshed(two_player_game)
        assert body["version"] == game.version
        assert body["move"] == {
            "number": 1,
            "seat": body["my_seat"],
            "kind": "pick",
            "payload": {"type": "pick", "seat": body["my_seat"], "card": card},
            "version": game.version,
        }
        assert body["view"]["seats"][body["my_seat"]]["card"] == card
        assert card not in body["view"]["pool"]

    def test_it_is_not_the_other_players_pick(self, two_player_game: Game) -> None:
        _picker, other = picker_and_other(two_player_game)
        before = snapshot(two_player_game)
        response = post_pick(other, two_player_game, two_player_game.engine_state().pool[0])
        assert response.status_code == 409
        assert response.json() == {
            "code": "not_your_turn",
            "message": "It is not your pick: wait for the players before you.",
        }
        assert snapshot(two_player_game) == before

    @pytest.mark.parametrize("visitor", ["carol", "staff"])
    def test_someone_without_a_seat_is_refused_with_403(
        self, request: pytest.FixtureRequest, visitor: str, two_player_game: Game
    ) -> None:
        before = snapshot(two_player_game)
        response = post_pick(
            request.getfixturevalue(visitor),
            two_player_game,
            two_player_game.engine_state().pool[0],
        )
        assert response.status_code == 403
        assert response.json()["code"] == "not_a_player"
        assert snapshot(two_player_game) == before

    def test_a_card_not_in_the_pool_is_illegal_with_the_engines_message(
        self, two_player_game: Game
    ) -> None:
        picker, _other = picker_and_other(two_player_game)
        before = snapshot(two_player_game)
        response = post_pick(picker, two_player_game, "snow/nothing")
        assert response.status_code == 400
        assert response.json() == {
            "code": "card_not_in_pool",
            "message": "The card snow/nothing is not in the drafting pool.",
        }
        assert snapshot(two_player_game) == before

    @pytest.mark.parametrize("card", [None, 7, ["snow/sprout"]])
    def test_a_pick_without_a_card_name_is_malformed(
        self, two_player_game: Game, card: Any
    ) -> None:
        picker, _other = picker_and_other(two_player_game)
        response = post_pick(picker, two_player_game, card)
        assert response.status_code == 400
        assert response.json()["code"] == "bad_card"

    def test_a_body_that_is_not_an_object_is_refused(self, two_player_game: Game) -> None:
        picker, _other = picker_and_other(two_player_game)
        response = api_client_for(picker).post(
            api_url("pick", two_player_game.pk), ["snow/sprout"], format="json"
        )
        assert response.status_code == 400
        assert response.json()["code"] == "bad_request"

    def test_a_pick_during_the_action_phase_is_refused_with_409(self, action_game: Game) -> None:
        response = post_pick(user_at(action_game, 0), action_game, "snow/sprout")
        assert response.status_code == 409
        assert response.json()["code"] == "wrong_phase"

    def test_an_unknown_game_is_404(self, alice: Any) -> None:
        response = api_client_for(alice).post(api_url("pick", 987654), {"card": "x"}, format="json")
        assert response.status_code == 404


class TestTurn:
    def test_a_legal_turn_is_kept_secret_until_the_round_is_revealed(
        self, action_game: Game, carol: Any
    ) -> None:
        alice, bob = user_at(action_game, 0), user_at(action_game, 1)
        state = action_game.engine_state()
        space = legal_targets(state, 0, "plant", partial=None)[0]
        turn = {"action": "D", "effects": [{"plant": list(space)}], "power": None}
        response = post_turn(alice, action_game, turn)
        assert response.status_code == 200
        mine = response.json()["view"]["seats"][0]
        assert mine["submitted"] is True
        assert mine["turn"] == {**turn, "type": "turn", "seat": 0}
        for viewer in (bob, carol):
            theirs = api_client_for(viewer).get(api_url("game", action_game.pk)).json()
            assert theirs["view"]["seats"][0]["submitted"] is True
            assert theirs["view"]["seats"][0]["turn"] is None
            assert theirs["view"]["seats"][0]["board"] == {}

    def test_the_seat_is_the_players_whatever_the_body_says(self, action_game: Game) -> None:
        response = post_turn(user_at(action_game, 1), action_game, {**EMPTY_TURN, "seat": 0})
        assert response.status_code == 200
        assert response.json()["move"]["seat"] == 1
        assert refreshed(action_game).engine_state().seats[0].turn is None

    def test_an_illegal_turn_is_refused_with_the_engines_code_and_message(
        self, action_game: Game
    ) -> None:
        before = snapshot(action_game)
        response = post_turn(
            user_at(action_game, 0),
            action_game,
            {"action": "A", "effects": [{"plant": [99, 99]}], "power": None},
        )
        assert response.status_code == 400
        assert response.json() == {
            "code": "off_planet",
            "message": "The space at row 99, column 99 is off the planet.",
        }
        assert snapshot(action_game) == before

    @pytest.mark.parametrize(
        ("turn", "code"),
        [
            ({"effects": []}, "unknown_action"),
            ({"action": "E"}, "unknown_action"),
            ({"action": "A", "effects": "plant"}, "bad_effect"),
            ({"action": "A", "effects": [{"dig": [1, 1]}]}, "bad_effect"),
            ({"action": "A", "effects": [{"plant": [1]}]}, "bad_space"),
            ({"action": "A", "power": {"power": "teleport"}}, "bad_power"),
        ],
    )
    def test_a_malformed_turn_is_refused_with_the_engines_code(
        self, action_game: Game, turn: dict[str, Any], code: str
    ) -> None:
        before = snapshot(action_game)
        response = post_turn(user_at(action_game, 0), action_game, turn)
        assert response.status_code == 400
        assert response.json()["code"] == code
        assert snapshot(action_game) == before

    def test_a_second_turn_in_the_same_round_is_refused_with_409(self, action_game: Game) -> None:
        alice = user_at(action_game, 0)
        assert post_turn(alice, action_game, EMPTY_TURN).status_code == 200
        response = post_turn(alice, action_game, EMPTY_TURN)
        assert response.status_code == 409
        assert response.json()["code"] == "turn_already_submitted"

    def test_a_turn_during_the_draft_is_refused_with_409(self, two_player_game: Game) -> None:
        picker, _other = picker_and_other(two_player_game)
        response = post_turn(picker, two_player_game, EMPTY_TURN)
        assert response.status_code == 409
        assert response.json()["code"] == "wrong_phase"

    @pytest.mark.parametrize("visitor", ["carol", "staff"])
    def test_someone_without_a_seat_is_refused_with_403(
        self, request: pytest.FixtureRequest, visitor: str, action_game: Game
    ) -> None:
        before = snapshot(action_game)
        response = post_turn(request.getfixturevalue(visitor), action_game, EMPTY_TURN)
        assert response.status_code == 403
        assert snapshot(action_game) == before

    def test_a_finished_game_takes_no_more_moves(self, two_player_game: Game) -> None:
        game = play_until(two_player_game, lambda state: state.is_over, limit=2000)
        response = post_turn(user_at(game, 0), game, EMPTY_TURN)
        assert response.status_code == 409
        assert response.json()["code"] == "game_not_active"

    def test_an_unknown_game_is_404(self, alice: Any) -> None:
        assert post_turn(alice, Game(pk=987654), EMPTY_TURN).status_code == 404
