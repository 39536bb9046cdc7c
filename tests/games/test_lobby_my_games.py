""" "My games": my move first, then waiting, then finished, in a fixed number of queries."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.evergreen import rules
from games.evergreen.rules.bots import RandomBot
from games.models import Game
from games.views.lobby import awaiting_positions, with_projection
from tests.games.gamehelpers import client_for, make_user, play_until, submit, user_at


def sections(response: Any) -> dict[str, list[int]]:
    return {
        name: [row.game.pk for row in response.context[name]]
        for name in ("my_move", "waiting", "finished")
    }


def waiting_on(position: int):
    return lambda state: state.awaiting == (position,)


@pytest.fixture
def finished_game(alice: Any, monkeypatch: pytest.MonkeyPatch) -> Game:
    """Alice's random moves against a computer player, which wins (a fixed seed)."""
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: 1)
    game = services.create_game(alice, players=2, computer_seats=1)
    return play_until(game, lambda state: False)


class TestMyGames:
    def test_it_sends_an_anonymous_visitor_to_log_in(self, db):
        response = client_for(None).get(reverse("games:my_games"))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("account_login"))

    def test_it_shows_my_move_first_then_waiting_then_finished(
        self, alice, bob, carol, finished_game
    ):
        my_pick = services.create_game(alice, players=2)
        services.join_game(my_pick.pk, bob)
        my_pick = play_until(my_pick, waiting_on(0))
        their_pick = services.create_game(bob, players=2)
        services.join_game(their_pick.pk, alice)
        their_pick = play_until(their_pick, waiting_on(0))
        open_game = services.create_game(alice, players=3)
        someone_else = services.create_game(carol, players=2)

        response = client_for(alice).get(reverse("games:my_games"))

        assert response.status_code == 200
        assert sections(response) == {
            "my_move": [my_pick.pk],
            "waiting": [their_pick.pk, open_game.pk],
            "finished": [finished_game.pk],
        }
        page = response.content.decode()
        assert (
            page.index(str(my_pick)) < page.index(str(their_pick)) < page.index(str(finished_game))
        )
        assert str(someone_else) not in page
        assert "Waiting for Bob" in page
        assert reverse("games:invite", args=[open_game.invite_code]) in page

    def test_it_shows_a_turn_to_play_as_my_move(self, alice, bob):
        game = services.create_game(alice, players=2)
        services.join_game(game.pk, bob)
        game = play_until(game, lambda s: s.phase is rules.Phase.ACTION)
        state = game.engine_state()
        services.submit_move(game.pk, bob, RandomBot(1).choose(state, 1))
        response = client_for(alice).get(reverse("games:my_games"))
        assert sections(response)["my_move"] == [game.pk]
        assert "Play your turn" in response.content.decode()
        bob_sees = client_for(bob).get(reverse("games:my_games"))
        assert sections(bob_sees)["waiting"] == [game.pk]

    def test_it_shows_final_scores_and_the_winner(self, alice, finished_game):
        outcome = finished_game.engine_state().outcome
        assert outcome.winner == 1  # the computer player
        response = client_for(alice).get(reverse("games:my_games"))
        row = response.context["finished"][0]
        assert row.winner.position == outcome.winner
        assert [s.score for s in row.seats] == list(outcome.scores)
        page = response.content.decode()
        for score in outcome.scores:
            assert f"{score} points" in page
        assert f"Winner: {row.winner.name}" in page
        assert "You won!" not in page

    def test_the_winner_reads_that_they_won_and_the_loser_who_won(self, alice, bob):
        game = services.create_game(alice, players=2)
        services.join_game(game.pk, bob)
        game = play_until(game, lambda state: False)
        winner = user_at(game, game.engine_state().outcome.winner)
        loser = bob if winner == alice else alice

        winners_page = client_for(winner).get(reverse("games:my_games"))
        losers_page = client_for(loser).get(reverse("games:my_games"))

        assert "You won!" in winners_page.content.decode()
        row = losers_page.context["finished"][0]
        assert row.winner.user_id == winner.pk
        assert f"Winner: {row.winner.name}" in losers_page.content.decode()
        assert "You won!" not in losers_page.content.decode()

    def test_it_shows_the_solo_title(self, alice):
        game = play_until(services.create_game(alice, players=1), lambda state: False)
        response = client_for(alice).get(reverse("games:my_games"))
        row = response.context["finished"][0]
        assert row.title == game.engine_state().outcome.title
        assert row.title in response.content.decode()

    def test_it_lists_aborted_games_as_finished_without_a_winner(self, two_player_game, alice):
        services.abort_game(two_player_game.pk)
        response = client_for(alice).get(reverse("games:my_games"))
        assert sections(response)["finished"] == [two_player_game.pk]
        assert response.context["finished"][0].winner is None
        assert "Aborted" in response.content.decode()

    def test_it_never_loads_the_state_snapshot(self, alice, two_player_game):
        response = client_for(alice).get(reverse("games:my_games"))
        rows = [*response.context["my_move"], *response.context["waiting"]]
        assert rows
        assert all("state" in row.game.get_deferred_fields() for row in rows)

    def test_it_uses_the_same_number_of_queries_for_one_game_or_many(
        self, alice, bob, django_assert_max_num_queries
    ):
        def count() -> int:
            client = client_for(alice)
            with CaptureQueriesContext(connection) as queries:
                assert client.get(reverse("games:my_games")).status_code == 200
            return len(queries)

        def one_of_each() -> None:
            services.create_game(alice, players=1)  # my pick
            other = services.create_game(bob, players=2)
            services.join_game(other.pk, alice)  # waiting for Bob's pick
            services.abort_game(services.create_game(alice, players=3).pk)  # finished

        one_of_each()
        one = count()
        for _ in range(3):
            one_of_each()
        play_until(services.create_game(alice, players=1), lambda state: False)
        services.create_game(alice, players=4, computer_seats=2)
        assert count() == one
        client = client_for(alice)
        with django_assert_max_num_queries(8):
            client.get(reverse("games:my_games"))


class TestTheProjection:
    """``awaiting_positions`` reads a few keys of the snapshot; it must agree with the engine."""

    @pytest.mark.parametrize(("players", "computers"), [(1, 0), (3, 1), (4, 0)])
    def test_it_agrees_with_the_engine_at_every_move(self, alice, bob, carol, players, computers):
        game = services.create_game(alice, players=players, computer_seats=computers)
        for user in [bob, carol, make_user("dave")][: players - 1 - computers]:
            services.join_game(game.pk, user)
        bot = RandomBot(7)
        for _ in range(60):
            projected = with_projection(Game.objects.filter(pk=game.pk)).get()
            state = Game.objects.get(pk=game.pk).engine_state()
            assert awaiting_positions(projected) == state.awaiting
            if state.is_over:
                break
            seat = state.awaiting[0]
            submit(game.pk, user_at(game, seat), bot.choose(state, seat))

    def test_it_awaits_nobody_in_an_open_game(self, alice):
        game = services.create_game(alice, players=2)
        assert awaiting_positions(with_projection(Game.objects.filter(pk=game.pk)).get()) == ()


def test_my_games_shows_the_deadline_counting_down(alice, bob):
    from games import services
    from tests.games.gamehelpers import client_for

    game = services.create_game(alice, players=2, days_per_move=2)
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    picker = game.seats.get(position=game.engine_state().awaiting[0]).user
    html = client_for(picker).get("/games/mine/").content.decode()
    assert "due in 1\xa0day" in html or "due in 2\xa0days" in html
    other = bob if picker == alice else alice
    assert "(due in" in client_for(other).get("/games/mine/").content.decode()
