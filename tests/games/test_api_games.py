"""API games: list, create, join, my view of a game, the game record, as each visitor."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.evergreen.rules.record import GameRecord
from games.evergreen.rules.view import player_view
from games.models import Game, Move
from tests.games.apihelpers import api_url, fixed_seed, in_action_phase, refreshed  # noqa: F401
from tests.games.gamehelpers import api_client_for, play_until, user_at

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fixed_seed")]


class TestList:
    def test_it_lists_only_my_games(self, alice: Any, bob: Any, carol: Any) -> None:
        mine = services.create_game(alice, players=2)
        services.create_game(carol, players=2)
        body = api_client_for(alice).get(api_url("games")).json()
        assert body["count"] == 1
        assert [g["id"] for g in body["results"]] == [mine.pk]
        assert body["results"][0]["my_seat"] == 0

    def test_status_open_lists_the_games_anyone_may_join(
        self, alice: Any, bob: Any, carol: Any, two_player_game: Game
    ) -> None:
        waiting = services.create_game(alice, players=3)
        body = api_client_for(carol).get(api_url("games"), {"status": "open"}).json()
        assert [g["id"] for g in body["results"]] == [waiting.pk]
        assert body["results"][0]["my_seat"] is None
        assert [s["is_open"] for s in body["results"][0]["seats"]] == [False, True, True]

    def test_another_status_filters_my_games(self, alice: Any, two_player_game: Game) -> None:
        services.create_game(alice, players=3)
        client = api_client_for(alice)
        active = client.get(api_url("games"), {"status": "active"}).json()
        assert [g["id"] for g in active["results"]] == [two_player_game.pk]
        assert client.get(api_url("games"), {"status": "finished"}).json()["count"] == 0

    def test_it_says_when_a_game_waits_for_me(
        self, alice: Any, bob: Any, two_player_game: Game
    ) -> None:
        picker = user_at(two_player_game, two_player_game.engine_state().awaiting[0])
        other = bob if picker == alice else alice
        assert api_client_for(picker).get(api_url("games")).json()["results"][0]["my_move"]
        assert not api_client_for(other).get(api_url("games")).json()["results"][0]["my_move"]

    def test_it_pages_the_list(self, alice: Any) -> None:
        for _ in range(3):
            services.create_game(alice, players=2)
        body = api_client_for(alice).get(api_url("games"), {"limit": 2}).json()
        assert (body["count"], len(body["results"])) == (3, 2)
        assert body["next"] is not None

    def test_it_refuses_an_unknown_status(self, alice: Any) -> None:
        response = api_client_for(alice).get(api_url("games"), {"status": "lost"})
        assert response.status_code == 400
        assert response.json()["code"] == "bad_status"


class TestCreate:
    def test_it_opens_a_game_with_me_in_seat_0(self, alice: Any) -> None:
        response = api_client_for(alice).post(api_url("games"), {"players": 3}, format="json")
        assert response.status_code == 201
        body = response.json()
        game = Game.objects.get(pk=body["id"])
        assert (body["status"], body["my_seat"], body["players"]) == ("open", 0, 3)
        assert body["view"] is None
        assert body["invite_url"].endswith(f"/invite/{game.invite_code}/")
        assert game.seats.get(position=0).user == alice

    def test_computer_players_fill_the_seats_and_the_game_starts(self, alice: Any) -> None:
        response = api_client_for(alice).post(
            api_url("games"),
            {"players": 2, "computer_seats": 1, "bot": "random", "sun_start": "E"},
            format="json",
        )
        body = response.json()
        assert (body["status"], body["sun_start"]) == ("active", "E")
        assert body["seats"][1]["bot"] == "random"
        assert body["view"]["viewer"] == 0
        assert body["invite_url"] is None  # nobody else can join now

    def test_solo_is_one_player(self, alice: Any) -> None:
        body = api_client_for(alice).post(api_url("games"), {"players": 1}, format="json").json()
        assert (body["solo"], body["status"]) == (True, "active")

    def test_it_refuses_five_players_with_the_service_code(self, alice: Any) -> None:
        response = api_client_for(alice).post(api_url("games"), {"players": 5}, format="json")
        assert response.status_code == 400
        assert response.json() == {
            "code": "bad_player_count",
            "message": "A game has 1 to 4 players.",
        }
        assert not Game.objects.exists()

    def test_the_creator_picks_the_level_of_the_computer_player(self, alice: Any) -> None:
        response = api_client_for(alice).post(
            api_url("games"), {"players": 2, "computer_seats": 1, "bot": "hard"}, format="json"
        )
        assert response.status_code == 201
        game = Game.objects.get(pk=response.json()["id"])
        assert game.status == Game.Status.ACTIVE
        assert game.seats.get(position=1).bot == "hard"
        assert response.json()["seats"][1]["bot"] == "hard"

    def test_it_refuses_an_unknown_computer_player_with_a_stable_code(self, alice: Any) -> None:
        response = api_client_for(alice).post(
            api_url("games"), {"players": 2, "computer_seats": 1, "bot": "brilliant"}, format="json"
        )
        assert response.status_code == 400
        assert response.json() == {
            "code": "bad_bot",
            "message": "Evergreen has no computer player “brilliant”: choose Easy, Medium, "
            "Hard, Strong, Greedy, Random.",
        }
        assert not Game.objects.exists()

    def test_it_refuses_a_wrong_type_per_field(self, alice: Any) -> None:
        response = api_client_for(alice).post(
            api_url("games"), {"players": "many", "sun_start": "X"}, format="json"
        )
        assert response.status_code == 400
        assert set(response.json()["errors"]) == {"players", "sun_start"}
        assert not Game.objects.exists()


class TestJoin:
    def test_the_last_player_to_join_starts_the_game(self, alice: Any, bob: Any) -> None:
        game = services.create_game(alice, players=2)
        response = api_client_for(bob).post(api_url("join", game.pk), {}, format="json")
        assert response.status_code == 200
        body = response.json()
        assert (body["status"], body["my_seat"]) == ("active", 1)
        assert body["view"]["viewer"] == 1

    def test_a_player_cannot_join_twice(self, alice: Any) -> None:
        game = services.create_game(alice, players=3)
        response = api_client_for(alice).post(api_url("join", game.pk), {}, format="json")
        assert response.status_code == 409
        assert response.json()["code"] == "already_joined"

    def test_a_started_game_is_not_open(self, carol: Any, two_player_game: Game) -> None:
        version = two_player_game.version
        response = api_client_for(carol).post(
            api_url("join", two_player_game.pk), {}, format="json"
        )
        assert response.status_code == 409
        assert response.json()["code"] == "game_not_open"
        assert refreshed(two_player_game).version == version

    def test_a_wrong_invitation_code_is_refused_with_403(self, alice: Any, bob: Any) -> None:
        game = services.create_game(alice, players=2)
        response = api_client_for(bob).post(
            api_url("join", game.pk), {"invite_code": "guessed"}, format="json"
        )
        assert response.status_code == 403
        assert response.json()["code"] == "bad_invite"
        assert refreshed(game).status == Game.Status.OPEN

    def test_the_right_invitation_code_is_welcome(self, alice: Any, bob: Any) -> None:
        game = services.create_game(alice, players=2)
        response = api_client_for(bob).post(
            api_url("join", game.pk), {"invite_code": game.invite_code}, format="json"
        )
        assert response.status_code == 200

    def test_an_unknown_game_is_404(self, bob: Any) -> None:
        response = api_client_for(bob).post(api_url("join", 987654), {}, format="json")
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"


class TestDetail:
    def test_a_player_sees_the_game_from_their_seat(
        self, alice: Any, bob: Any, two_player_game: Game
    ) -> None:
        body = api_client_for(bob).get(api_url("game", two_player_game.pk)).json()
        assert body["my_seat"] == 1
        assert body["version"] == two_player_game.version
        assert body["view"]["viewer"] == 1
        assert [(s["name"], s["is_you"]) for s in body["seats"]] == [
            ("Alice", False),
            ("Bob", True),
        ]

    @pytest.mark.parametrize("visitor", ["carol", "staff"])
    def test_anyone_else_sees_what_a_spectator_sees(
        self, request: pytest.FixtureRequest, visitor: str, two_player_game: Game
    ) -> None:
        user = request.getfixturevalue(visitor)
        response = api_client_for(user).get(api_url("game", two_player_game.pk))
        assert response.status_code == 200
        body = response.json()
        state = two_player_game.engine_state()
        assert body["my_seat"] is None
        assert body["invite_url"] is None
        assert body["view"] == player_view(state, None)

    def test_an_open_game_has_no_view_yet(self, alice: Any, carol: Any) -> None:
        game = services.create_game(alice, players=2)
        assert api_client_for(alice).get(api_url("game", game.pk)).json()["view"] is None
        spectator = api_client_for(carol).get(api_url("game", game.pk)).json()
        assert (spectator["view"], spectator["invite_url"]) == (None, None)

    def test_an_unknown_game_is_404(self, alice: Any) -> None:
        response = api_client_for(alice).get(api_url("game", 987654))
        assert response.status_code == 404
        assert response.json() == {"code": "not_found", "message": "There is no such game."}


class TestRecord:
    def test_a_game_in_progress_has_its_moves_but_no_seed(
        self, alice: Any, two_player_game: Game
    ) -> None:
        play_until(two_player_game, lambda state: state.round == 2)
        body = api_client_for(alice).get(api_url("record", two_player_game.pk)).json()
        assert "seed" not in body
        assert body["in_progress"] is True
        assert body["players"] == ["Alice", "Bob"]
        assert body["moves"] == [m.payload for m in two_player_game.moves.order_by("number")]

    def test_a_turn_not_yet_revealed_is_shown_to_its_player_only(
        self, alice: Any, bob: Any, carol: Any, two_player_game: Game
    ) -> None:
        game = play_until(two_player_game, in_action_phase)
        first = game.engine_state().awaiting[0]
        play_until(game, lambda state: len(state.submitted) == 1)
        pending = game.moves.order_by("number").last()
        assert pending is not None and pending.kind == "turn" and pending.seat == first
        mover, other = user_at(game, first), user_at(game, 1 - first)
        assert api_client_for(mover).get(api_url("record", game.pk)).json()["moves"][-1] == (
            pending.payload
        )
        for viewer in (other, carol):
            moves = api_client_for(viewer).get(api_url("record", game.pk)).json()["moves"]
            assert len(moves) == game.moves.count() - 1
            assert pending.payload not in moves[-2:]

    def test_a_finished_game_has_its_whole_record_which_replays(
        self, carol: Any, two_player_game: Game
    ) -> None:
        game = play_until(two_player_game, lambda state: state.is_over, limit=2000)
        assert refreshed(game).status == Game.Status.FINISHED
        body = api_client_for(carol).get(api_url("record", game.pk)).json()
        assert "in_progress" not in body
        assert body["seed"] == game.seed
        final = GameRecord.from_json(body).replay()
        assert list(final.outcome.scores) == body["result"]["scores"]
        assert list(final.outcome.scores) == [s.score for s in game.seats.order_by("position")]
        assert len(body["moves"]) == Move.objects.filter(game=game).count()

    def test_an_unknown_game_is_404(self, alice: Any) -> None:
        assert api_client_for(alice).get(api_url("record", 987654)).status_code == 404

    def test_a_game_not_started_has_an_empty_record_without_a_seed(self, alice: Any) -> None:
        game = services.create_game(alice, players=2)
        body = api_client_for(alice).get(api_url("record", game.pk)).json()
        assert (body["moves"], body["in_progress"]) == ([], True)
        assert "seed" not in body
