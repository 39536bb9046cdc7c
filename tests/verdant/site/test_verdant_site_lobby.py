"""Creating a Verdant game from the lobby's form: the choice of game and its options."""

from __future__ import annotations

from games import services
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

    def test_the_form_offers_each_games_own_computer_players(self, alice):
        page = client_for(alice).get("/games/new/").content.decode()
        verdant = page[page.index('<optgroup label="Verdant">') :]
        verdant = verdant[: verdant.index("</optgroup>")]
        assert 'value="greedy"' in verdant and 'value="random"' in verdant
        assert 'value="strong"' in verdant
        assert 'value="hard"' not in verdant
        evergreen = page[page.index('<optgroup label="Evergreen">') :]
        assert 'value="hard"' in evergreen[: evergreen.index("</optgroup>")]
        assert 'data-kind="verdant"' in page and 'data-kind="evergreen"' in page

    def test_a_level_verdant_does_not_have_is_refused_clearly_and_nothing_is_made(self, alice):
        answer = client_for(alice).post(
            "/games/new/",
            {
                "kind": "verdant",
                "players": 2,
                "computer_seats": 1,
                "bot": "hard",
                "sun_start": "N",
                "verdant_variant": "standard",
                "time_bank_hours": 0,
            },
        )
        assert answer.status_code == 200 and not Game.objects.exists()
        assert (
            "Verdant has no computer player “hard”: choose Random, Greedy, Strong."
            in answer.content.decode()
        )

    def test_without_computer_seats_an_evergreen_level_is_no_matter(self, alice):
        client_for(alice).post(
            "/games/new/",
            {"kind": "verdant", "players": 2, "computer_seats": 0, "bot": "hard",
             "sun_start": "N", "time_bank_hours": 0},
        )  # fmt: skip
        assert Game.objects.get().kind == "verdant"


class TestTheLobbyList:
    def test_each_open_game_shows_its_game_and_its_own_options(self, alice):
        services.create_game(
            alice, kind="verdant", players=3, options={"variant": "family", "goals": True}
        )
        services.create_game(alice, kind="evergreen", players=2, sun_start="E")
        page = client_for(alice).get("/lobby/").content.decode()
        rows = page.split("<tbody>")[1].split("</tr>")
        verdant = next(row for row in rows if ">Verdant<" in row)
        evergreen = next(row for row in rows if ">Evergreen<" in row)
        assert "Family (no green thumbs, simpler scoring) · Goal cards" in verdant
        assert "Sun start" not in verdant
        assert "Sun start: East" in evergreen
        assert "Board game" in page


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


class TestTheInvitation:
    def test_the_invitation_names_verdant_and_its_options(self, alice, bob):
        game = services.create_game(alice, kind="verdant", players=2, options={"goals": True})
        page = client_for(bob).get(f"/invite/{game.invite_code}/").content.decode()
        assert "Alice invites you to play Verdant" in page
        assert "Standard · Goal cards" in page and "Sun start" not in page
