"""Creating a Verdant game from the lobby's form: the choice of game and its options."""

from __future__ import annotations

from games.models import Game
from tests.verdant.site.verdant_site_helpers import client_for


class TestTheCreateForm:
    def test_the_form_offers_both_games_and_verdants_options(self, alice):
        page = client_for(alice).get("/games/new/").content.decode()
        assert 'value="evergreen"' in page and 'value="verdant"' in page
        assert 'name="verdant_variant"' in page and 'name="verdant_goals"' in page
        assert '<option value="5">' in page

    def test_a_five_player_family_game_with_goal_cards(self, alice):
        answer = client_for(alice).post(
            "/games/new/",
            {
                "kind": "verdant",
                "players": 5,
                "computer_seats": 4,
                "bot": "random",
                "sun_start": "N",
                "verdant_variant": "family",
                "verdant_goals": "on",
                "time_bank_hours": 0,
            },
        )
        game = Game.objects.get()
        assert answer.status_code == 302 and answer["Location"] == f"/games/{game.pk}/"
        assert game.kind == "verdant" and game.players == 5
        assert game.options == {"variant": "family", "goals": True}
        assert game.status == Game.Status.ACTIVE
        assert game.engine_state().family and len(game.engine_state().goals) == 3

    def test_evergreen_refuses_five_players_on_the_form(self, alice):
        answer = client_for(alice).post(
            "/games/new/",
            {
                "kind": "evergreen",
                "players": 5,
                "computer_seats": 0,
                "bot": "greedy",
                "sun_start": "N",
                "time_bank_hours": 0,
            },
        )
        assert answer.status_code == 200 and not Game.objects.exists()
        assert "Evergreen is played by 1 to 4 players." in answer.content.decode()

    def test_an_evergreen_game_ignores_verdants_options(self, alice):
        client_for(alice).post(
            "/games/new/",
            {
                "kind": "evergreen",
                "players": 2,
                "computer_seats": 1,
                "bot": "greedy",
                "sun_start": "E",
                "verdant_variant": "family",
                "time_bank_hours": 0,
            },
        )
        game = Game.objects.get()
        assert game.kind == "evergreen" and game.sun_start == "E" and "variant" not in game.options


class TestMyGames:
    def test_a_verdant_game_waits_on_my_games_for_the_player_to_move(
        self, verdant_game, alice, bob
    ):
        from tests.verdant.site.verdant_site_helpers import play_moves

        game = play_moves(verdant_game, lambda s: s.phase.value == "play")
        mover = game.engine_state().to_play
        users = {0: alice, 1: bob}
        mine = client_for(users[mover]).get("/games/mine/")
        theirs = client_for(users[1 - mover]).get("/games/mine/")
        assert [row.game.pk for row in mine.context["my_move"]] == [game.pk]
        assert theirs.context["my_move"] == []

    def test_a_finished_verdant_game_names_its_winner(self, verdant_game, alice):
        from tests.verdant.site.verdant_site_helpers import play_moves

        game = play_moves(verdant_game, seed=6)
        row = client_for(alice).get("/games/mine/").context["finished"][0]
        assert row.winner.position == game.engine_state().outcome.winner
