"""Users and players kept in the cache (``games.usercache``): a write reads its seats
without their users once they are kept, the answer names every player as the rows do,
and a change of a user or a player is heeded by the very next request; the password hash
is never kept."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.core.cache import cache
from django.urls import reverse

from games import usercache
from games.models import Game
from tests.games.apihelpers import api_url, fixed_seed  # noqa: F401
from tests.games.gamehelpers import (
    api_client_for,
    client_for,
    committed,
    deactivated_between_reading_and_keeping,
    marks_gone,
    user_at,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fixed_seed", "kept_users")]

EMPTY_TURN = {"action": "D", "effects": [], "power": None}


def user_reads(captured: Any) -> int:
    return sum('FROM "auth_user"' in q["sql"] for q in captured.captured_queries)


class TestAWriteWithItsPlayersKept:
    def test_reads_no_user_row_and_names_every_player(
        self, action_game: Game, django_assert_max_num_queries: Any
    ) -> None:
        alice, bob = user_at(action_game, 0), user_at(action_game, 1)
        marks_gone()
        first = api_client_for(alice).post(
            api_url("turn", action_game.pk), EMPTY_TURN, format="json"
        )
        assert first.status_code == 200, first.content
        client = api_client_for(bob)
        client.get(api_url("game", action_game.pk))  # bob's token and user kept
        # test_api_turn_cost's six, but for the token with its user and player and the
        # seats' users
        with django_assert_max_num_queries(4) as captured:
            answer = client.post(api_url("turn", action_game.pk), EMPTY_TURN, format="json")
        assert answer.status_code == 200
        assert user_reads(captured) == 0
        assert [seat["name"] for seat in answer.json()["seats"]] == ["Alice", "Bob"]

    def test_a_name_changed_is_in_the_next_answer(self, action_game: Game) -> None:
        alice, bob = user_at(action_game, 0), user_at(action_game, 1)
        marks_gone()
        client = api_client_for(alice)
        assert (
            client.post(api_url("turn", action_game.pk), EMPTY_TURN, format="json").status_code
            == 200
        )
        bob.player.display_name = "Roberto"
        bob.player.save()
        answer = api_client_for(bob).post(
            api_url("turn", action_game.pk), EMPTY_TURN, format="json"
        )
        assert [seat["name"] for seat in answer.json()["seats"]] == ["Alice", "Roberto"]


@pytest.mark.usefixtures("kept_parts")
class TestAReadWithItsPlayersKept:
    def test_the_game_page_and_the_api_view_read_no_user_row(
        self, action_game: Game, django_assert_max_num_queries: Any
    ) -> None:
        alice = user_at(action_game, 0)
        browser, api = client_for(alice), api_client_for(alice)  # a log-in saves alice
        marks_gone()
        page, view = reverse("games:detail", args=[action_game.pk]), api_url("game", action_game.pk)
        browser.get(page), api.get(view)  # alice and bob kept
        with django_assert_max_num_queries(3) as captured:
            html = browser.get(page).content.decode()
        # not even the viewer's password hash: the session is checked against the digest
        assert user_reads(captured) == 0
        # test_api_view_cost's three, but for the token with its user and player
        with django_assert_max_num_queries(2) as captured:
            answer = api.get(view).json()
        assert user_reads(captured) == 0
        assert "Bob" in html
        assert [seat["name"] for seat in answer["seats"]] == ["Alice", "Bob"]


class TestASignedInBrowserWithItsUserKept:
    def test_is_signed_out_by_a_password_change_elsewhere(self, alice: Any) -> None:
        browser = client_for(alice)
        marks_gone()
        assert browser.get(reverse("games:api_token")).status_code == 200  # alice kept
        alice.set_password("changed elsewhere")
        alice.save()
        assert browser.get(reverse("games:api_token")).status_code == 302

    def test_is_signed_out_when_the_user_is_deactivated(self, alice: Any) -> None:
        browser = client_for(alice)
        marks_gone()
        assert browser.get(reverse("games:api_token")).status_code == 200
        alice.is_active = False
        alice.save()
        assert browser.get(reverse("games:api_token")).status_code == 302

    def test_is_checked_without_reading_the_password_hash(
        self, alice: Any, django_assert_max_num_queries: Any
    ) -> None:
        browser = client_for(alice)
        marks_gone()
        assert browser.get(reverse("games:api_token")).status_code == 200  # alice kept
        with django_assert_max_num_queries(1) as captured:  # the session's row
            page = browser.get(reverse("games:rules"))
        assert user_reads(captured) == 0
        assert page.context["user"] == alice

    def test_whose_session_hash_is_not_the_users_is_signed_out(self, alice: Any) -> None:
        browser = client_for(alice)
        marks_gone()
        assert browser.get(reverse("games:api_token")).status_code == 200  # alice kept
        session = browser.session
        session[HASH_SESSION_KEY] = "0" * 64
        session.save()
        assert browser.get(reverse("games:api_token")).status_code == 302
        assert SESSION_KEY not in browser.session

    def test_signed_in_after_a_password_change_stays_signed_in(self, alice: Any) -> None:
        browser = client_for(alice)
        marks_gone()
        assert browser.get(reverse("games:api_token")).status_code == 200  # alice kept
        alice.set_password("a new secret")
        alice.save()
        browser.force_login(alice)  # the session hash of the new password
        assert browser.get(reverse("games:api_token")).status_code == 200
        assert browser.get(reverse("games:api_token")).status_code == 200  # kept again


class TestTheKeptRows:
    def test_hold_no_password_hash_and_never_write_one_back(self, alice: Any) -> None:
        marks_gone()
        usercache.users([alice.pk])
        kept = usercache.users([alice.pk])[alice.pk]
        kept_values = repr(cache.get_many([f"user-rows:{alice.pk}"]))
        assert alice.password not in kept_values
        assert alice.get_session_auth_hash() not in kept_values  # only its digest
        alice.set_password("a new secret")
        alice.save()
        kept.first_name = "Alicia"
        kept.save()
        alice.refresh_from_db()
        assert alice.first_name == "Alicia"
        assert alice.check_password("a new secret")

    def test_a_lookup_that_read_them_before_a_change_does_not_keep_them(
        self, alice: Any, monkeypatch: Any
    ) -> None:
        marks_gone()
        with deactivated_between_reading_and_keeping(monkeypatch, alice):
            assert usercache.users([alice.pk])[alice.pk].is_active  # what it had read
        assert not usercache.users([alice.pk])[alice.pk].is_active

    def test_a_deleted_user_is_not_found(self) -> None:
        carl = get_user_model().objects.create_user("carl", "carl@example.org", "pw")
        assert usercache.users([carl.pk])[carl.pk].username == "carl"
        carl.delete()
        assert usercache.users([carl.pk]) == {}


class TestAUserJustMade:
    def test_is_kept_with_its_player_once_committed(self, django_assert_num_queries: Any) -> None:
        with committed():
            rowan = get_user_model().objects.create_user("rowan", "rowan@example.org", "pw")
        with django_assert_num_queries(0):
            kept = usercache.users([rowan.pk])[rowan.pk]
            assert kept.player.display_name == rowan.player.display_name
            assert usercache.kept_with_session(rowan.pk) is not None

    def test_signs_in_with_the_kept_rows(self, client: Any) -> None:
        with committed():
            rowan = get_user_model().objects.create_user("rowan", "rowan@example.org", "pw")
        client.force_login(rowan)
        page = client.get(reverse("games:lobby"))
        assert page.wsgi_request.user.pk == rowan.pk

    def test_renamed_in_the_same_transaction_is_kept_with_its_new_name(self) -> None:
        with committed():
            rowan = get_user_model().objects.create_user("rowan", "rowan@example.org", "pw")
            player = type(rowan.player).objects.get(user=rowan)  # another copy, as sign-up's
            player.display_name = "Rowan Ash"
            player.save()
        kept = usercache.users([rowan.pk])[rowan.pk]
        assert kept.player.display_name == "Rowan Ash"

    def test_is_not_kept_while_users_are_not(self, settings: Any) -> None:
        settings.USER_CACHE_SECONDS = 0
        with committed():
            rowan = get_user_model().objects.create_user("rowan", "rowan@example.org", "pw")
        assert cache.get(f"user-rows:{rowan.pk}") is None


@pytest.mark.django_db(transaction=True)
def test_a_user_made_outside_a_transaction_is_kept_with_its_player(
    django_assert_num_queries: Any,
) -> None:
    rowan = get_user_model().objects.create_user("rowan", "rowan@example.org", "pw")
    with django_assert_num_queries(0):
        assert usercache.users([rowan.pk])[rowan.pk].player.pk == rowan.player.pk
