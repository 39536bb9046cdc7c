"""API moves: pick, turn and legal targets, every error path, idempotency, stale versions."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games import services
from games.evergreen.rules import Turn
from games.evergreen.rules.targets import legal_targets
from games.models import Game, Move
from tests.games.apihelpers import api_url, fixed_seed, in_action_phase, refreshed  # noqa: F401
from tests.games.gamehelpers import api_client_for, play_until, user_at

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fixed_seed")]

EMPTY_TURN = {"action": "D", "effects": [], "power": None}


def snapshot(game: Game) -> tuple[int, int, Any]:
    """What must not change when a move is refused."""
    game.refresh_from_db()
    return game.version, Move.objects.filter(game=game).count(), game.state


def picker_and_other(game: Game) -> tuple[Any, Any]:
    seat = game.engine_state().awaiting[0]
    return user_at(game, seat), user_at(game, 1 - seat)


@pytest.fixture
def action_game(two_player_game: Game) -> Game:
    """alice and bob in the first Action phase, both to play."""
    return refreshed(play_until(two_player_game, in_action_phase))


def post_pick(user: Any, game: Game, card: Any, **headers: str) -> Any:
    return api_client_for(user).post(
        api_url("pick", game.pk), {"card": card}, format="json", **headers
    )


def post_turn(user: Any, game: Game, turn: Any, **headers: str) -> Any:
    return api_client_for(user).post(api_url("turn", game.pk), turn, format="json", **headers)


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


class TestTargets:
    def get(self, user: Any, game: Game, **params: Any) -> Any:
        if "partial" in params and not isinstance(params["partial"], str):
            params["partial"] = json.dumps(params["partial"])
        return api_client_for(user).get(api_url("targets", game.pk), params)

    def test_it_lists_the_legal_spaces_as_row_column_pairs(self, action_game: Game) -> None:
        alice = user_at(action_game, 0)
        response = self.get(alice, action_game, effect="plant", partial={"action": "A"})
        assert response.status_code == 200
        state = action_game.engine_state()
        expected = legal_targets(state, 0, "plant", partial=Turn(0, "A"))
        assert response.json() == [list(space) for space in expected]
        assert response.json()

    def test_it_follows_the_partly_built_turn(self, action_game: Game) -> None:
        alice = user_at(action_game, 0)
        first = self.get(alice, action_game, effect="plant", partial={"action": "A"}).json()
        effects = [{"plant": first[0]}]
        after = self.get(
            alice, action_game, effect="plant", partial={"action": "A", "effects": effects}
        ).json()
        assert first[0] not in after
        done = self.get(
            alice,
            action_game,
            effect="plant",
            partial={"action": "D", "effects": effects},
        ).json()
        assert done == []  # Action D has a single effect

    def test_without_a_partial_turn_it_answers_for_action_d(self, action_game: Game) -> None:
        response = self.get(user_at(action_game, 0), action_game, effect="plant")
        assert response.status_code == 200
        assert len(response.json()) > 0

    def test_during_the_draft_there_is_nowhere_to_go(self, two_player_game: Game) -> None:
        picker, _other = picker_and_other(two_player_game)
        assert self.get(picker, two_player_game, effect="plant").json() == []

    @pytest.mark.parametrize(
        ("params", "code"),
        [
            ({"effect": "dig"}, "unknown_effect"),
            ({}, "unknown_effect"),
            ({"effect": "plant", "partial": "{not json"}, "bad_partial"),
            ({"effect": "plant", "partial": "[1, 2]"}, "bad_partial"),
            ({"effect": "plant", "partial": {"action": "Z"}}, "unknown_action"),
            (
                {"effect": "plant", "partial": {"action": "A", "effects": [{"plant": [99, 99]}]}},
                "off_planet",
            ),
            ({"effect": "lake_grow"}, "no_lake"),
            ({"effect": "lake_grow", "lake": "north"}, "bad_space"),
        ],
    )
    def test_a_bad_question_is_answered_400(
        self, action_game: Game, params: dict[str, Any], code: str
    ) -> None:
        response = self.get(user_at(action_game, 0), action_game, **params)
        assert response.status_code == 400
        assert response.json()["code"] == code

    @pytest.mark.parametrize("visitor", ["carol", "staff"])
    def test_someone_without_a_seat_is_refused_with_403(
        self, request: pytest.FixtureRequest, visitor: str, action_game: Game
    ) -> None:
        response = self.get(request.getfixturevalue(visitor), action_game, effect="plant")
        assert response.status_code == 403
        assert response.json()["code"] == "not_a_player"

    def test_a_game_not_started_is_refused_with_409(self, alice: Any) -> None:
        game = services.create_game(alice, players=2)
        response = self.get(alice, game, effect="plant")
        assert response.status_code == 409
        assert response.json()["code"] == "game_not_started"

    def test_an_unknown_game_is_404(self, alice: Any) -> None:
        assert self.get(alice, Game(pk=987654), effect="plant").status_code == 404
