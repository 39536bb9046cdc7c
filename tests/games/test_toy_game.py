"""A third game added without a change to the platform: Nim (tests/toygame/nim.py), listed
in the test settings' ``GAME_KINDS`` only, played to the end through the services, the
pages and the API that serve Evergreen."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.urls import reverse

from games import kinds, services, timeouts
from games.models import Game, Move, Seat
from tests.games.gamehelpers import api_client_for, client_for

pytestmark = pytest.mark.django_db


def nim_game(alice: Any, bob: Any, stones: int = 7, **kwargs: Any) -> Game:
    game = services.create_game(alice, kind="nim", players=2, options={"stones": stones}, **kwargs)
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    return game


def test_the_toy_game_is_registered_by_the_test_settings_only() -> None:
    assert "tests.toygame.nim.Nim" in settings.GAME_KINDS
    assert list(kinds.kinds()) == ["evergreen", "verdant", "nim"]
    assert kinds.default_name() == "evergreen"


class TestThroughTheServices:
    def test_two_players_take_stones_until_the_last_one_wins(self, alice: Any, bob: Any) -> None:
        game = nim_game(alice, bob, stones=7)
        assert game.kind == "nim" and game.status == Game.Status.ACTIVE
        assert game.options == {"stones": 7}
        players = [alice, bob]
        for number, count in enumerate([3, 1, 2, 1], start=0):
            result = services.submit_move(
                game.pk, players[number % 2], {"type": "take", "count": count}
            )
        game.refresh_from_db()
        assert result.state.stones == 0
        assert game.status == Game.Status.FINISHED
        assert [s.score for s in game.seats.order_by("position")] == [0, 1]
        assert list(Move.objects.filter(game=game).values_list("kind", flat=True)) == ["take"] * 4
        assert services.rebuild_state(game) == game.engine_state()

    def test_it_refuses_a_move_out_of_turn_and_too_many_stones(self, alice: Any, bob: Any) -> None:
        game = nim_game(alice, bob)
        with pytest.raises(services.Conflict) as out_of_turn:
            services.submit_move(game.pk, bob, {"type": "take", "count": 1})
        assert out_of_turn.value.code == "not_your_turn"
        with pytest.raises(services.ServiceError) as too_many:
            services.submit_move(game.pk, alice, {"type": "take", "count": 4})
        assert too_many.value.code == "bad_count" and too_many.value.status == 400
        game.refresh_from_db()
        assert game.moves_count == 0 and game.engine_state().stones == 7

    def test_a_computer_player_answers_each_move_at_once(self, alice: Any) -> None:
        game = services.create_game(alice, kind="nim", players=2, computer_seats=1)
        assert game.status == Game.Status.ACTIVE
        while not game.is_finished:
            services.submit_move(game.pk, alice, {"type": "take", "count": 1})
            game.refresh_from_db()
        # 10 stones, the bot leaves multiples of 4: it takes the last one.
        assert game.engine_state().winner == 1

    def test_its_own_setup_rules_are_the_games(self, alice: Any) -> None:
        with pytest.raises(services.ServiceError) as three:
            services.create_game(alice, kind="nim", players=3)
        assert three.value.code == "bad_player_count"
        with pytest.raises(services.ServiceError) as unknown:
            services.create_game(alice, kind="chess")
        assert unknown.value.code == "bad_kind"

    def test_a_missed_deadline_makes_the_bots_move_for_the_seat(self, alice: Any, bob: Any) -> None:
        game = nim_game(alice, bob, days_per_move=1)
        seat = game.seats.get(position=0)
        assert seat.deadline is not None
        later = seat.deadline + timedelta(minutes=1)
        assert timeouts.sweep(later) == {"timed out": 1}
        game.refresh_from_db()
        assert game.engine_state().stones == 7 - 3  # 7 % 4: the greedy take
        assert game.seats.get(position=1).deadline is not None


class TestThroughThePages:
    def test_it_is_created_joined_and_played_to_the_end_on_the_site(
        self, alice: Any, bob: Any
    ) -> None:
        page = client_for(alice).get(reverse("games:create"))
        assert 'value="nim"' in page.content.decode()  # two games: a choice to make
        created = client_for(alice).post(
            reverse("games:create"),
            {
                "kind": "nim",
                "players": 2,
                "computer_seats": 0,
                "bot": "greedy",
                "sun_start": "N",
                "time_bank_hours": 0,
                "timeout_policy": "bot",
            },
        )
        assert created.status_code == 302
        game = Game.objects.get(kind="nim")
        assert client_for(bob).post(reverse("games:join", args=[game.pk])).status_code == 302
        players = {0: alice, 1: bob}
        while True:
            game.refresh_from_db()
            if game.is_finished:
                break
            mover = players[game.engine_state().to_move]
            html = client_for(mover).get(reverse("games:detail", args=[game.pk])).content.decode()
            assert f"Stones left: {game.engine_state().stones}" in html
            assert "Take 1" in html
            answer = client_for(mover).post(
                reverse("games:move", args=[game.pk]),
                {"count": 1, "version": game.version, "key": f"k{game.version}"},
            )
            assert answer.status_code == 303
        html = client_for(alice).get(reverse("games:detail", args=[game.pk])).content.decode()
        bob_name, alice_name = game.seats.get(position=1).name, game.seats.get(position=0).name
        assert f"{bob_name} took the last stone and won." in html
        replay = client_for(alice).get(reverse("games:replay", args=[game.pk]) + "?move=3")
        assert f"{alice_name} took 1." in replay.content.decode()
        assert "Stones left: 7" in replay.content.decode()
        record = client_for(alice).get(reverse("games:record", args=[game.pk])).json()
        assert record["result"] == {"winner": 1} and len(record["moves"]) == 10

    def test_a_refused_move_shows_the_games_reason_and_changes_nothing(
        self, alice: Any, bob: Any
    ) -> None:
        game = nim_game(alice, bob)
        answer = client_for(alice).post(
            reverse("games:move", args=[game.pk]), {"count": 5, "version": game.version}
        )
        assert answer.status_code == 400
        assert 'data-code="bad_count"' in answer.content.decode()
        game.refresh_from_db()
        assert game.moves_count == 0

    def test_my_games_shows_whose_move_it_is(self, alice: Any, bob: Any) -> None:
        game = nim_game(alice, bob)
        html = client_for(alice).get(reverse("games:my_games")).content.decode()
        mine = html[: html.index("Waiting") if "Waiting" in html else len(html)]
        assert reverse("games:detail", args=[game.pk]) in mine
        services.submit_move(game.pk, alice, {"type": "take", "count": 1})
        rows = client_for(bob).get(reverse("games:my_games")).context["my_move"]
        assert [row.game.pk for row in rows] == [game.pk]


class TestThroughTheApi:
    def test_it_is_created_joined_and_played_to_the_end_through_the_api(
        self, alice: Any, bob: Any
    ) -> None:
        api = {0: api_client_for(alice), 1: api_client_for(bob)}
        created = api[0].post(
            "/api/games/", {"kind": "nim", "players": 2, "options": {"stones": 5}}, format="json"
        )
        assert created.status_code == 201, created.content
        game_id = created.json()["id"]
        joined = api[1].post(f"/api/games/{game_id}/join/", {}, format="json")
        assert joined.status_code == 200
        detail = joined.json()
        assert detail["view"] == {"stones": 5, "to_move": 0, "winner": None, "viewer": 1}
        while detail["status"] == "active":
            mover = detail["awaiting"][0]
            answer = api[mover].post(
                f"/api/games/{game_id}/move/",
                {
                    "type": "take",
                    "count": 2 if detail["view"]["stones"] >= 2 else 1,
                    "version": detail["version"],
                },
                format="json",
            )
            assert answer.status_code == 200, answer.content
            detail = answer.json()
            assert detail["move"]["kind"] == "take"
        assert detail["status"] == "finished"
        assert detail["view"]["winner"] == 0  # 2, 2, 1: alice takes the last stone
        stale = api[1].post(
            f"/api/games/{game_id}/move/", {"type": "take", "count": 1}, format="json"
        )
        assert stale.status_code == 409

    def test_a_malformed_move_is_refused_with_the_games_code(self, alice: Any, bob: Any) -> None:
        game = nim_game(alice, bob)
        answer = api_client_for(alice).post(
            f"/api/games/{game.pk}/move/", {"type": "pick", "card": "snow/sprout"}, format="json"
        )
        assert answer.status_code == 400
        assert answer.json()["code"] == "bad_move"
        game.refresh_from_db()
        assert game.moves_count == 0 and game.engine_state().to_move == 0
        assert Seat.objects.get(game=game, position=0).last_acted_move == 0
