"""The game page as each kind of visitor sees it, and what it costs in queries."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.evergreen import rules
from games.models import Game
from tests.games.gamehelpers import client_for, play_until, turn_text, user_at


def page(user: Any, game: Game, query: str = "") -> Any:
    return client_for(user).get(reverse("games:detail", args=[game.pk]) + query)


def picker(game: Game) -> int:
    return game.engine_state().to_pick


class TestVisitors:
    def test_anonymous_sees_the_spectator_view(self, two_player_game):
        response = page(None, two_player_game)
        html = response.content.decode()
        assert response.status_code == 200
        assert "Drafting pool" in html and "Fertility Zone" in html and "Scores" in html
        assert reverse("games:pick", args=[two_player_game.pk]) not in html
        assert "Waiting for" in html
        assert "(you)" not in html

    def test_the_player_to_pick_sees_a_button_per_card(self, two_player_game):
        game = two_player_game
        state = game.engine_state()
        html = page(user_at(game, picker(game)), game).content.decode()
        assert "Your pick" in html
        assert html.count('class="card-button"') == len(state.pool)
        for card in state.pool:
            assert f'name="card" value="{card}"' in html
        assert f'name="version" value="{game.version}"' in html
        assert re.search(r'name="key" value="[0-9a-f]{32}"', html)

    def test_the_other_player_waits(self, two_player_game):
        game = two_player_game
        other = user_at(game, 1 - picker(game))
        html = page(other, game).content.decode()
        assert "Waiting for" in html
        assert 'class="card-button"' not in html
        assert "(you)" in html

    def test_staff_can_read_but_has_no_seat(self, two_player_game, staff):
        response = page(staff, two_player_game)
        assert response.status_code == 200
        assert 'class="card-button"' not in response.content.decode()

    def test_an_unknown_game_is_404(self, db):
        assert client_for(None).get(reverse("games:detail", args=[999999])).status_code == 404

    def test_an_open_game_invites_others_to_join(self, alice, carol):
        game = services.create_game(alice, players=2)
        html = page(carol, game).content.decode()
        assert "Waiting for players to join" in html
        assert reverse("games:join", args=[game.pk]) in html
        assert reverse("games:join", args=[game.pk]) not in page(alice, game).content.decode()


class TestWhatThePageDraws:
    def test_every_planet_is_drawn_with_its_biomes_and_crevices(self, two_player_game, alice):
        html = page(alice, two_player_game).content.decode()
        assert html.count('class="cell cell-crevice"') == 2 * 4
        assert html.count('class="cell cell-biome') == 2 * 41
        assert 'id="pat-snow"' in html and "url(#pat-snow)" in html
        assert "Legend" in html

    def test_my_planet_is_large_and_the_others_readable_beside_it(
        self, two_player_game, alice, bob
    ):
        html = page(bob, two_player_game).content.decode()
        assert re.search(r'class="planet planet-large[^"]*" id="planet-1"', html)
        assert re.search(r'class="planet planet-medium[^"]*" id="planet-0"', html)
        assert "Enlarge Alice's planet" in html

    def test_focus_enlarges_another_planet(self, two_player_game, bob):
        html = page(bob, two_player_game, "?focus=0").content.decode()
        assert re.search(r'class="planet planet-large[^"]*" id="planet-0"', html)
        assert "Back to your planet" in html
        assert "Power tracks of Alice" in html

    def test_a_bad_focus_falls_back_to_my_planet(self, two_player_game, bob):
        html = page(bob, two_player_game, "?focus=7").content.decode()
        assert re.search(r'class="planet planet-large[^"]*" id="planet-1"', html)

    def test_the_sun_now_and_next_season(self, two_player_game, alice):
        html = page(alice, two_player_game).content.decode()
        assert "The Sun now shines from the north (top)" in html
        assert "Next season the Sun shines from the east (right)" in html
        assert "round 1 of 5" in html

    def test_the_first_player_token_is_on_a_pool_card_after_the_first_pick(self, two_player_game):
        game = play_until(two_player_game, lambda s: s.picks_done == 1)
        html = page(None, game).content.decode()
        assert html.count('<li class="pool-card has-token"') == 1

    def test_the_scoring_breakdown_after_a_season(self, two_player_game, alice):
        game = play_until(two_player_game, lambda s: s.season == 2)
        state = game.engine_state()
        html = page(alice, game).content.decode()
        assert "The last scored season was Spring." in html
        first = state.seats[0].seasons[0]
        assert (
            f"{first.light} / {first.forest} / {first.bud} = <strong>{first.total}</strong>" in html
        )

    def test_a_finished_game_names_the_winner(self, two_player_game, alice):
        game = play_until(two_player_game, lambda s: s.is_over)
        html = page(alice, game).content.decode()
        assert "Game over" in html
        assert "Fertility" in html
        assert "hx-trigger" not in html  # no polling once the game is over

    def test_a_solo_game_shows_the_cards_the_ai_took(self, alice):
        game = services.create_game(alice, players=1)
        game = play_until(game, lambda s: s.phase is rules.Phase.ACTION)
        response = page(alice, game)
        html = response.content.decode()
        assert response.status_code == 200
        assert "Cards the A.I. took this season:" in html
        assert "Your turn" in html

    def test_a_game_with_a_computer_player_shows_its_level(self, alice):
        game = services.create_game(alice, players=2, computer_seats=1)
        html = page(None, game).content.decode()
        assert "Computer (Strong)" in html

    def test_an_aborted_game_offers_nothing_to_play(self, two_player_game):
        game = two_player_game
        services.abort_game(game.pk)
        html = page(user_at(game, picker(game)), game).content.decode()
        assert "This game was aborted." in html
        assert 'class="card-button"' not in html
        assert "hx-trigger" not in html


class TestQueryBudget:
    def queries(self, user: Any, game: Game, query: str = "") -> int:
        client = client_for(user)
        url = reverse("games:detail", args=[game.pk]) + query
        client.get(url)  # warm the session
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url)
        assert response.status_code == 200
        return len(captured)

    @pytest.mark.parametrize("who", ["alice", "anonymous"])
    def test_the_page_costs_the_same_whatever_the_number_of_moves(
        self, two_player_game, alice, who, django_assert_max_num_queries
    ):
        user = alice if who == "alice" else None
        early = self.queries(user, two_player_game)
        game = play_until(two_player_game, lambda s: s.season == 2 and s.round == 2)
        assert game.moves.count() > 20
        later = self.queries(user, game)
        assert early == later
        client = client_for(user)
        with django_assert_max_num_queries(8):
            client.get(reverse("games:detail", args=[game.pk]))

    def test_a_turn_in_progress_costs_no_more_queries(self, two_player_game, alice):
        game = play_until(two_player_game, lambda s: s.phase is rules.Phase.ACTION)
        assert self.queries(
            alice, game, "?" + urlencode({"turn": turn_text("D", "none")})
        ) == self.queries(alice, game)
