"""The landing page, the lobby, creating a game, joining from the lobby and by invitation."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from games import services
from games.models import Game, Seat
from tests.games.gamehelpers import client_for


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def detail_url(game: Game) -> str:
    return reverse("games:detail", args=[game.pk])


VALID = {
    "players": "2",
    "computer_seats": "0",
    "bot": "greedy",
    "sun_start": "N",
    "days_per_move": "",
}


class TestHome:
    def test_it_shows_the_landing_page_to_anyone(self, db):
        response = client_for(None).get(reverse("games:home"))
        assert response.status_code == 200
        assert reverse("account_signup") in response.content.decode()

    def test_it_links_a_signed_in_player_to_their_games(self, alice):
        response = client_for(alice).get(reverse("games:home"))
        assert reverse("games:my_games") in response.content.decode()


class TestLobby:
    def test_it_lists_open_games_with_seats_creator_sun_and_time_control(self, alice, bob):
        game = services.create_game(alice, players=3, sun_start="W", days_per_move=5)
        started = services.create_game(alice, players=2, computer_seats=1)
        response = client_for(bob).get(reverse("games:lobby"))
        assert response.status_code == 200
        page = response.content.decode()
        assert str(game) in page
        assert str(started) not in page
        assert "1 of 3 taken" in page
        assert "Alice" in page
        assert "West" in page
        assert "5 days per move" in page
        assert reverse("games:join", args=[game.pk]) in page

    def test_it_counts_computer_players_as_taken_seats(self, alice, bob):
        services.create_game(alice, players=4, computer_seats=2)
        page = client_for(bob).get(reverse("games:lobby")).content.decode()
        assert "3 of 4 taken" in page

    def test_it_offers_my_own_game_s_invitation_link_instead_of_join(self, alice):
        game = services.create_game(alice, players=2)
        page = client_for(alice).get(reverse("games:lobby")).content.decode()
        assert reverse("games:invite", args=[game.invite_code]) in page
        assert reverse("games:join", args=[game.pk]) not in page

    def test_it_asks_an_anonymous_visitor_to_log_in_to_join(self, alice):
        game = services.create_game(alice, players=2)
        page = client_for(None).get(reverse("games:lobby")).content.decode()
        assert str(game) in page
        assert "Log in to join" in page
        assert reverse("games:join", args=[game.pk]) not in page

    def test_it_says_when_no_game_is_open(self, db):
        page = client_for(None).get(reverse("games:lobby")).content.decode()
        assert "No game is waiting for players" in page

    def test_it_never_shows_the_invitation_code_of_someone_else_s_game(self, alice, bob):
        game = services.create_game(alice, players=2)
        page = client_for(bob).get(reverse("games:lobby")).content.decode()
        assert game.invite_code not in page


class TestCreate:
    def test_it_sends_an_anonymous_visitor_to_log_in(self, db):
        response = client_for(None).get(reverse("games:create"))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("account_login"))

    def test_it_shows_the_form(self, alice):
        response = client_for(alice).get(reverse("games:create"))
        assert response.status_code == 200
        assert 'name="players"' in response.content.decode()

    def test_it_opens_a_two_player_game_and_shows_the_invitation_link(self, alice):
        response = client_for(alice).post(reverse("games:create"), VALID)
        game = Game.objects.get()
        assert response.status_code == 302
        assert response["Location"] == detail_url(game)
        assert game.status == Game.Status.OPEN and game.players == 2
        assert game.seats.get(position=0).user == alice
        assert any(
            reverse("games:invite", args=[game.invite_code]) in m for m in messages_of(response)
        )

    def test_it_starts_a_solo_game_against_the_ai_drafter(self, alice):
        response = client_for(alice).post(reverse("games:create"), {**VALID, "players": "1"})
        game = Game.objects.get()
        assert response["Location"] == detail_url(game)
        assert game.solo and game.players == 1 and game.status == Game.Status.ACTIVE

    def test_it_fills_seats_with_computer_players_and_starts_when_full(self, alice):
        client_for(alice).post(
            reverse("games:create"),
            {**VALID, "players": "3", "computer_seats": "2", "bot": "random"},
        )
        game = Game.objects.get()
        assert game.status == Game.Status.ACTIVE
        assert [s.bot for s in game.seats.order_by("position")] == ["", "random", "random"]

    def test_the_creator_picks_the_level_of_the_computer_players(self, alice):
        client_for(alice).post(
            reverse("games:create"),
            {**VALID, "players": "2", "computer_seats": "1", "bot": "medium"},
        )
        assert Game.objects.get().seats.get(position=1).bot == "medium"

    @pytest.mark.parametrize(
        "language, words",
        [
            ("en", ["Easy", "Medium", "Hard", "Strong"]),
            ("de", ["Leicht", "Mittel", "Schwer", "Stark"]),
            ("fr", ["Facile", "Moyen", "Difficile", "Fort"]),
            ("ru", ["Лёгкий", "Средний", "Сложный", "Сильный"]),
        ],
    )
    def test_the_form_offers_the_levels_in_the_visitor_s_language(self, alice, language, words):
        client = client_for(alice)
        alice.player.language = language
        alice.player.save(update_fields=["language"])
        html = client.get(reverse("games:create"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        for value, word in zip(["easy", "medium", "hard", "strong"], words, strict=True):
            assert f'<option value="{value}"' in html
            assert f">{word}</option>" in html
        assert '<option value="strong" selected>' in html  # the game's default

    def test_it_leaves_the_other_seats_open_when_computers_fill_only_some(self, alice):
        client_for(alice).post(
            reverse("games:create"), {**VALID, "players": "4", "computer_seats": "1"}
        )
        game = Game.objects.get()
        assert game.status == Game.Status.OPEN
        assert sum(s.is_open for s in game.seats.all()) == 2

    @pytest.mark.parametrize("sun", ["N", "E", "S", "W"])
    def test_it_starts_the_sun_where_asked(self, alice, sun):
        client_for(alice).post(reverse("games:create"), {**VALID, "sun_start": sun})
        assert Game.objects.get().sun_start == sun

    @pytest.mark.parametrize("days", [1, 2, 3, 5, 7])
    def test_it_records_the_days_per_move(self, alice, days):
        client_for(alice).post(reverse("games:create"), {**VALID, "days_per_move": str(days)})
        assert Game.objects.get().days_per_move == days

    def test_it_records_no_time_limit_when_none_is_chosen(self, alice):
        client_for(alice).post(reverse("games:create"), VALID)
        assert Game.objects.get().days_per_move is None

    def test_it_makes_a_rated_game_between_people(self, alice):
        client_for(alice).post(reverse("games:create"), {**VALID, "rated": "on"})
        assert Game.objects.get().rated

    @pytest.mark.parametrize(
        ("change", "field"),
        [
            ({"players": "5"}, "players"),
            ({"players": "0"}, "players"),
            ({"players": "two"}, "players"),
            ({"computer_seats": "2"}, "computer_seats"),
            ({"computer_seats": "-1"}, "computer_seats"),
            ({"players": "1", "computer_seats": "1"}, "computer_seats"),
            ({"computer_seats": "1", "rated": "on"}, "rated"),
            ({"players": "1", "rated": "on"}, "rated"),
            ({"bot": "clever"}, "bot"),
            ({"sun_start": "X"}, "sun_start"),
            ({"days_per_move": "4"}, "days_per_move"),
        ],
    )
    def test_it_refuses_bad_input_with_a_form_error_and_creates_nothing(self, alice, change, field):
        response = client_for(alice).post(reverse("games:create"), {**VALID, **change})
        assert response.status_code == 200
        assert field in response.context["form"].errors
        assert 'class="errorlist' in response.content.decode()
        assert not Game.objects.exists()


class TestJoinFromTheLobby:
    def test_it_seats_the_player_and_starts_the_full_game(self, alice, bob):
        game = services.create_game(alice, players=2)
        response = client_for(bob).post(reverse("games:join", args=[game.pk]))
        assert response.status_code == 302
        assert response["Location"] == detail_url(game)
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE
        assert game.seats.get(position=1).user == bob

    def test_it_says_when_i_already_have_a_seat(self, alice):
        game = services.create_game(alice, players=2)
        response = client_for(alice).post(reverse("games:join", args=[game.pk]))
        assert response["Location"] == reverse("games:lobby")
        assert messages_of(response) == ["You already have a seat in this game."]

    def test_it_says_when_the_game_is_full(self, two_player_game, carol):
        response = client_for(carol).post(reverse("games:join", args=[two_player_game.pk]))
        assert response["Location"] == reverse("games:lobby")
        assert messages_of(response) == ["This game is not open for players any more."]
        assert not Seat.objects.filter(user=carol).exists()

    def test_it_says_when_the_game_was_aborted(self, alice, bob):
        game = services.create_game(alice, players=2)
        services.abort_game(game.pk)
        response = client_for(bob).post(reverse("games:join", args=[game.pk]))
        assert messages_of(response) == ["This game is not open for players any more."]

    def test_it_answers_404_for_a_game_that_does_not_exist(self, bob):
        response = client_for(bob).post(reverse("games:join", args=[999999]))
        assert response.status_code == 404

    def test_it_only_joins_on_post(self, alice, bob):
        game = services.create_game(alice, players=2)
        response = client_for(bob).get(reverse("games:join", args=[game.pk]))
        assert response.status_code == 405
        assert not Seat.objects.filter(user=bob).exists()

    def test_it_sends_an_anonymous_visitor_to_log_in(self, alice):
        game = services.create_game(alice, players=2)
        response = client_for(None).post(reverse("games:join", args=[game.pk]))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("account_login"))
        assert game.seats.filter(user__isnull=True).count() == 1


class TestInvitation:
    def test_it_shows_the_game_and_a_join_button(self, alice, bob):
        game = services.create_game(alice, players=3, sun_start="S")
        response = client_for(bob).get(reverse("games:invite", args=[game.invite_code]))
        assert response.status_code == 200
        page = response.content.decode()
        assert "Alice invites you" in page
        assert "South" in page
        assert "Join this game" in page

    def test_it_joins_with_the_invitation_code(self, alice, bob):
        game = services.create_game(alice, players=2)
        response = client_for(bob).post(reverse("games:invite", args=[game.invite_code]))
        assert response["Location"] == detail_url(game)
        assert game.seats.get(position=1).user == bob

    def test_it_asks_an_anonymous_visitor_to_log_in_and_come_back(self, alice):
        game = services.create_game(alice, players=2)
        url = reverse("games:invite", args=[game.invite_code])
        page = client_for(None).get(url).content.decode()
        assert f"{reverse('account_login')}?next={url}" in page
        assert f"{reverse('account_signup')}?next={url}" in page

    def test_it_sends_an_anonymous_join_to_log_in_and_back(self, alice):
        game = services.create_game(alice, players=2)
        url = reverse("games:invite", args=[game.invite_code])
        response = client_for(None).post(url)
        assert response.status_code == 302
        assert response["Location"] == f"{reverse('account_login')}?next={url}"
        assert game.seats.filter(user__isnull=True).count() == 1

    def test_it_comes_back_to_the_invitation_after_logging_in(self, alice, bob):
        from tests.games.gamehelpers import PASSWORD

        game = services.create_game(alice, players=2)
        url = reverse("games:invite", args=[game.invite_code])
        response = client_for(None).post(
            reverse("account_login"), {"login": bob.email, "password": PASSWORD, "next": url}
        )
        assert response["Location"] == url

    def test_it_refuses_a_wrong_code_clearly(self, alice, bob):
        game = services.create_game(alice, players=2)
        response = client_for(bob).post(reverse("games:invite", args=["not-the-code"]))
        assert response.status_code == 404
        assert "This invitation link is not valid" in response.content.decode()
        assert game.seats.filter(user__isnull=True).count() == 1

    def test_it_says_when_the_game_is_full(self, two_player_game, carol):
        url = reverse("games:invite", args=[two_player_game.invite_code])
        page = client_for(carol).get(url).content.decode()
        assert "not open for players any more" in page
        response = client_for(carol).post(url)
        assert response["Location"] == url
        assert messages_of(response) == ["This game is not open for players any more."]

    def test_it_says_when_i_already_have_a_seat(self, alice):
        game = services.create_game(alice, players=2)
        url = reverse("games:invite", args=[game.invite_code])
        page = client_for(alice).get(url).content.decode()
        assert "You have a seat in this game" in page
        response = client_for(alice).post(url)
        assert messages_of(response) == ["You already have a seat in this game."]


def test_a_game_is_created_with_hours_a_time_bank_and_a_timeout_policy(alice):
    from games.models import Game
    from tests.games.gamehelpers import client_for

    response = client_for(alice).post(
        "/games/new/",
        {
            "players": 2,
            "computer_seats": 0,
            "bot": "greedy",
            "sun_start": "N",
            "hours_per_move": 4,
            "time_bank_hours": 48,
            "timeout_policy": "minimal",
        },
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert (game.hours_per_move, game.time_bank_hours, game.timeout_policy) == (4, 48, "minimal")
    assert game.move_hours == 4


def test_days_and_hours_per_move_together_are_refused(alice):
    from games.models import Game
    from tests.games.gamehelpers import client_for

    response = client_for(alice).post(
        "/games/new/",
        {
            "players": 2,
            "computer_seats": 0,
            "bot": "greedy",
            "sun_start": "N",
            "days_per_move": 1,
            "hours_per_move": 4,
            "time_bank_hours": 0,
            "timeout_policy": "bot",
        },
    )
    assert response.status_code == 200
    assert "not both" in response.content.decode()
    assert not Game.objects.exists()
