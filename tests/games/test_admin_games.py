"""The Django admin for games: pages load for staff, search, filter, the abort action."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from games import services
from games.models import Game
from tests.games.gamehelpers import client_for, play_until


def changelist(model: str = "game") -> str:
    return reverse(f"admin:games_{model}_changelist")


class TestPagesLoad:
    @pytest.mark.parametrize("model", ["game", "player", "seat", "move"])
    def test_the_changelists_load_for_staff(self, superuser, two_player_game, model):
        assert client_for(superuser).get(changelist(model)).status_code == 200

    def test_the_game_page_shows_seats_moves_and_the_fertility_zone(
        self, superuser, two_player_game
    ):
        game = play_until(two_player_game, lambda state: state.round >= 2)
        response = client_for(superuser).get(reverse("admin:games_game_change", args=[game.pk]))
        assert response.status_code == 200
        page = response.content.decode()
        assert "Alice" in page and "Bob" in page
        assert "Fertility Zone" in page
        assert str(game.fertility_cards.first()) in page  # "Snow (Small Tree Growth)"
        assert "Moves" in page

    def test_the_game_page_keeps_the_seed_and_the_deck_secret(self, superuser, two_player_game):
        response = client_for(superuser).get(
            reverse("admin:games_game_change", args=[two_player_game.pk])
        )
        page = response.content.decode()
        assert str(two_player_game.seed) not in page
        assert '"deck"' not in page

    def test_the_move_and_player_pages_load(self, superuser, two_player_game):
        game = play_until(two_player_game, lambda state: state.picks_done >= 1)
        client = client_for(superuser)
        move = game.moves.first()
        assert client.get(reverse("admin:games_move_change", args=[move.pk])).status_code == 200
        player = game.created_by.player
        assert client.get(reverse("admin:games_player_change", args=[player.pk])).status_code == 200

    def test_games_cannot_be_added_or_deleted_in_the_admin(self, superuser, two_player_game):
        client = client_for(superuser)
        assert client.get(reverse("admin:games_game_add")).status_code == 403
        assert (
            client.get(reverse("admin:games_game_delete", args=[two_player_game.pk])).status_code
            == 403
        )


class TestSearchAndFilter:
    def test_it_searches_by_player_display_name(self, superuser, two_player_game, carol):
        other = services.create_game(carol, players=2)
        response = client_for(superuser).get(changelist(), {"q": "Bob"})
        assert list(response.context["cl"].result_list) == [two_player_game]
        assert other not in response.context["cl"].result_list

    def test_it_searches_by_player_e_mail(self, superuser, two_player_game, carol):
        mine = services.create_game(carol, players=2)
        response = client_for(superuser).get(changelist(), {"q": "carol@example.org"})
        assert list(response.context["cl"].result_list) == [mine]

    def test_it_searches_by_game_number(self, superuser, two_player_game, carol):
        services.create_game(carol, players=2)
        response = client_for(superuser).get(changelist(), {"q": str(two_player_game.pk)})
        assert list(response.context["cl"].result_list) == [two_player_game]

    def test_it_filters_by_status(self, superuser, two_player_game, carol):
        open_game = services.create_game(carol, players=2)
        response = client_for(superuser).get(changelist(), {"status__exact": Game.Status.OPEN})
        assert list(response.context["cl"].result_list) == [open_game]


class TestAbortAction:
    def abort(self, user: Any, *games: Game) -> Any:
        return client_for(user).post(
            changelist(),
            {"action": "abort_games", "_selected_action": [g.pk for g in games]},
            follow=True,
        )

    def test_it_aborts_the_selected_games_through_the_services(
        self, superuser, two_player_game, carol
    ):
        other = services.create_game(carol, players=2)
        response = self.abort(superuser, two_player_game, other)
        assert response.status_code == 200
        assert "2 games aborted." in response.content.decode()
        for game in (two_player_game, other):
            game.refresh_from_db()
            assert game.status == Game.Status.ABORTED
            assert game.finished_at is not None

    def test_it_reports_a_game_that_is_already_over_and_aborts_the_rest(
        self, superuser, two_player_game, carol
    ):
        done = services.create_game(carol, players=2)
        services.abort_game(done.pk)
        response = self.abort(superuser, two_player_game, done)
        page = response.content.decode()
        assert "This game is already over." in page
        assert "1 game aborted." in page
        two_player_game.refresh_from_db()
        assert two_player_game.status == Game.Status.ABORTED

    def test_staff_without_the_change_permission_cannot_abort(self, staff, two_player_game):
        staff.user_permissions.add(Permission.objects.get(codename="view_game"))
        response = self.abort(staff, two_player_game)
        assert response.status_code == 200  # the changelist, without the action
        two_player_game.refresh_from_db()
        assert two_player_game.status == Game.Status.ACTIVE


class TestRefused:
    def test_it_sends_an_anonymous_visitor_to_the_admin_log_in(self, two_player_game):
        response = client_for(None).get(changelist())
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("admin:login"))

    def test_it_refuses_a_player_who_is_not_staff(self, alice, two_player_game):
        response = client_for(alice).get(changelist())
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("admin:login"))
        change = client_for(alice).get(
            reverse("admin:games_game_change", args=[two_player_game.pk])
        )
        assert change.status_code == 302

    def test_it_refuses_staff_without_permissions(self, staff, two_player_game):
        assert client_for(staff).get(changelist()).status_code == 403

    def test_a_non_staff_player_cannot_abort(self, alice, two_player_game):
        client_for(alice).post(
            changelist(), {"action": "abort_games", "_selected_action": [two_player_game.pk]}
        )
        two_player_game.refresh_from_db()
        assert two_player_game.status == Game.Status.ACTIVE
