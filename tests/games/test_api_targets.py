"""API legal targets: where the partly built turn's next piece may go, and every refusal."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games import services
from games.evergreen.rules import Turn
from games.evergreen.rules.targets import legal_targets
from games.models import Game
from tests.games.apihelpers import api_url, fixed_seed, in_action_phase, refreshed  # noqa: F401
from tests.games.apimovehelpers import picker_and_other
from tests.games.gamehelpers import api_client_for, user_at

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fixed_seed")]


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
