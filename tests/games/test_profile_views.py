"""Accounts (allauth) and the player's profile: sign-up, log-in, settings, language, API token."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.urls import reverse
from rest_framework.authtoken.models import Token

from games import services
from games.models import Player
from tests.games.gamehelpers import PASSWORD, client_for


@pytest.fixture(autouse=True)
def fresh_rate_limits() -> None:
    """allauth counts mails and log-ins per address in the cache: each test starts afresh."""
    cache.clear()


PROFILE = {
    "display_name": "Alice the Gardener",
    "time_zone": "Europe/Berlin",
    "language": "en",
    "email_mode": "coalesced",
    "email_every_hours": "4",
    "digest_hour": "7",
    "quiet_start": "22",
    "quiet_end": "7",
}


class TestAccounts:
    def test_signing_up_creates_the_user_and_their_player_profile(self, db):
        response = client_for(None).post(
            reverse("account_signup"),
            {
                "email": "dana@example.org",
                "display_name": "Dana",
                "password1": PASSWORD,
                "password2": PASSWORD,
            },
        )
        assert response.status_code == 302
        user = get_user_model().objects.get(email="dana@example.org")
        assert Player.objects.get(user=user).display_name == "Dana"

    def test_signing_up_sends_a_verification_mail(self, db):
        client_for(None).post(
            reverse("account_signup"),
            {
                "email": "dana@example.org",
                "display_name": "Dana",
                "password1": PASSWORD,
                "password2": PASSWORD,
            },
        )
        assert [m.to for m in mail.outbox] == [["dana@example.org"]]

    def test_it_refuses_a_sign_up_with_mismatched_passwords(self, db):
        response = client_for(None).post(
            reverse("account_signup"),
            {
                "email": "dana@example.org",
                "display_name": "Dana",
                "password1": PASSWORD,
                "password2": "other-words",
            },
        )
        assert response.status_code == 200
        assert not get_user_model().objects.filter(email="dana@example.org").exists()

    def test_every_new_user_gets_a_profile_even_outside_the_sign_up_page(self, db):
        user = get_user_model().objects.create_user("erin", "erin@example.org", PASSWORD)
        assert user.player.display_name == "erin"

    def test_it_logs_in_by_e_mail_and_lands_on_my_games(self, alice):
        response = client_for(None).post(
            reverse("account_login"), {"login": "alice@example.org", "password": PASSWORD}
        )
        assert response.status_code == 302
        assert response["Location"] == reverse("games:my_games")

    def test_it_refuses_a_wrong_password(self, alice):
        response = client_for(None).post(
            reverse("account_login"), {"login": "alice@example.org", "password": "wrong"}
        )
        assert response.status_code == 200
        assert "_auth_user_id" not in response.wsgi_request.session

    def test_it_logs_out(self, alice):
        client = client_for(alice)
        client.post(reverse("account_logout"))
        assert client.get(reverse("games:profile")).status_code == 302

    def test_it_mails_a_password_reset_link(self, alice):
        response = client_for(None).post(
            reverse("account_reset_password"), {"email": "alice@example.org"}
        )
        assert response.status_code == 302
        assert len(mail.outbox) == 1 and mail.outbox[0].to == ["alice@example.org"]

    @pytest.mark.parametrize("name", ["account_login", "account_signup", "account_reset_password"])
    def test_the_account_pages_use_the_site_layout(self, db, name):
        page = client_for(None).get(reverse(name)).content.decode()
        assert 'class="skip-link"' in page
        assert "css/site.css" in page

    def test_the_e_mail_and_password_pages_load_for_a_player(self, alice):
        client = client_for(alice)
        for name in ("account_email", "account_change_password"):
            page = client.get(reverse(name)).content.decode()
            assert 'class="skip-link"' in page

    def test_it_adds_an_e_mail_address_and_sends_a_verification(self, alice):
        response = client_for(alice).post(
            reverse("account_email"), {"action_add": "", "email": "alice@new.example.org"}
        )
        assert response.status_code == 302
        assert mail.outbox[-1].to == ["alice@new.example.org"]


class TestProfile:
    def test_it_sends_an_anonymous_visitor_to_log_in(self, db):
        response = client_for(None).get(reverse("games:profile"))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("account_login"))

    def test_it_shows_my_settings_and_my_games(self, two_player_game, alice):
        response = client_for(alice).get(reverse("games:profile"))
        assert response.status_code == 200
        page = response.content.decode()
        assert 'value="Alice"' in page
        assert str(two_player_game) in page
        assert reverse("games:api_token") in page

    def test_it_saves_name_time_zone_and_notification_preferences(self, alice):
        response = client_for(alice).post(reverse("games:profile"), PROFILE)
        assert response.status_code == 302
        player = Player.objects.get(user=alice)
        assert player.display_name == "Alice the Gardener"
        assert player.time_zone == "Europe/Berlin"
        assert player.email_mode == "coalesced"
        assert (player.email_every_hours, player.digest_hour) == (4, 7)
        assert (player.quiet_start, player.quiet_end) == (22, 7)

    def test_it_shows_times_in_my_time_zone(self, alice):
        client = client_for(alice)
        client.post(reverse("games:profile"), {**PROFILE, "time_zone": "Asia/Tokyo"})
        response = client.get(reverse("games:profile"))
        assert response.context["TIME_ZONE"] == "Asia/Tokyo"

    def test_saving_a_language_sets_the_language_cookie(self, alice):
        client = client_for(alice)
        response = client.post(reverse("games:profile"), {**PROFILE, "language": "de"})
        assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
        assert Player.objects.get(user=alice).language == "de"
        page = client.get(reverse("games:lobby"))
        assert page["Content-Language"] == "de"
        assert '<html lang="de">' in page.content.decode()

    @pytest.mark.parametrize(
        ("change", "field"),
        [
            ({"display_name": "   "}, "display_name"),
            ({"time_zone": "Mars/Olympus"}, "time_zone"),
            ({"language": "xx"}, "language"),
            ({"email_mode": "sometimes"}, "email_mode"),
            ({"email_every_hours": "0"}, "email_every_hours"),
            ({"digest_hour": "24"}, "digest_hour"),
            ({"quiet_start": "22", "quiet_end": ""}, "quiet_end"),
            ({"quiet_start": "5", "quiet_end": "5"}, "quiet_end"),
        ],
    )
    def test_it_refuses_bad_settings_and_changes_nothing(self, alice, change, field):
        response = client_for(alice).post(reverse("games:profile"), {**PROFILE, **change})
        assert response.status_code == 200
        assert field in response.context["form"].errors
        assert settings.LANGUAGE_COOKIE_NAME not in response.cookies
        player = Player.objects.get(user=alice)
        assert (player.display_name, player.time_zone) == ("Alice", "UTC")

    def test_no_quiet_hours_is_allowed(self, alice):
        client_for(alice).post(
            reverse("games:profile"), {**PROFILE, "quiet_start": "", "quiet_end": ""}
        )
        player = Player.objects.get(user=alice)
        assert (player.quiet_start, player.quiet_end) == (None, None)

    def test_my_new_name_shows_in_my_games(self, alice, bob):
        game = services.create_game(alice, players=2)
        client_for(alice).post(reverse("games:profile"), PROFILE)
        page = client_for(bob).get(reverse("games:invite", args=[game.invite_code]))
        assert "Alice the Gardener" in page.content.decode()


class TestApiToken:
    def test_it_sends_an_anonymous_visitor_to_log_in(self, db):
        response = client_for(None).post(reverse("games:api_token"))
        assert response.status_code == 302
        assert not Token.objects.exists()

    def test_it_offers_to_make_a_token_when_there_is_none(self, alice):
        response = client_for(alice).get(reverse("games:api_token"))
        assert response.status_code == 200
        assert "You have no token yet" in response.content.decode()
        assert not Token.objects.exists()

    def test_it_shows_my_token_and_not_someone_else_s(self, alice, bob):
        mine = Token.objects.create(user=alice)
        theirs = Token.objects.create(user=bob)
        page = client_for(alice).get(reverse("games:api_token")).content.decode()
        assert mine.key in page
        assert theirs.key not in page

    def test_posting_makes_a_new_token_and_retires_the_old_one(self, alice: Any):
        old = Token.objects.create(user=alice)
        response = client_for(alice).post(reverse("games:api_token"))
        assert response["Location"] == reverse("games:api_token")
        new = Token.objects.get(user=alice)
        assert new.key != old.key
        assert not Token.objects.filter(key=old.key).exists()


def test_a_player_goes_on_vacation_and_comes_back_from_the_profile(alice):
    from tests.games.gamehelpers import client_for

    client = client_for(alice)
    response = client.post("/profile/vacation/", {"days": "3"}, follow=True)
    assert "Your clocks are paused until" in response.content.decode()
    alice.player.refresh_from_db()
    assert alice.player.vacation_until is not None and alice.player.vacation_days_used == 3
    assert "End my vacation now" in client.get("/profile/").content.decode()
    response = client.post("/profile/vacation/", {"end": "1"}, follow=True)
    assert "Welcome back" in response.content.decode()
    response = client.post("/profile/vacation/", {"days": "x"}, follow=True)
    assert "1 to 30" in response.content.decode()
    assert client.get("/profile/vacation/").status_code == 405


def test_reminder_hours_are_set_from_the_profile(alice):
    from tests.games.gamehelpers import client_for

    client = client_for(alice)
    form = client.get("/profile/").content.decode()
    assert 'value="24, 2"' in form
    data = {
        "display_name": "Alice",
        "time_zone": "UTC",
        "language": "en",
        "email_mode": "every",
        "email_every_hours": 6,
        "digest_hour": 8,
        "reminder_hours": "2, 48, 12",
    }
    client.post("/profile/", data)
    alice.player.refresh_from_db()
    assert alice.player.reminder_hours == [48, 12, 2]
    response = client.post("/profile/", {**data, "reminder_hours": "soon"})
    assert "whole hours" in response.content.decode()
    alice.player.refresh_from_db()
    assert alice.player.reminder_hours == [48, 12, 2]
