"""Which language a person gets: the profile, else the browser; the switcher on every page."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games.models import Game, Player
from tests.games.gamehelpers import PASSWORD, client_for, user_at
from tests.i18n.i18nworld import speak, two_player_game

pytestmark = pytest.mark.django_db


def html_lang(response) -> str:
    return re.search(r'<html lang="([^"]+)"', response.content.decode()).group(1)


class TestWhichLanguage:
    def test_a_visitor_gets_the_browser_s_language(self):
        assert html_lang(Client(HTTP_ACCEPT_LANGUAGE="fr-CH, fr;q=0.9").get("/")) == "fr"
        assert html_lang(Client(HTTP_ACCEPT_LANGUAGE="ru").get("/")) == "ru"
        assert html_lang(Client(HTTP_ACCEPT_LANGUAGE="ja").get("/")) == "en"

    def test_the_profile_wins_over_the_browser(self, alice):
        speak(alice, "de")
        client = client_for(alice)
        response = client.get(reverse("games:lobby"), HTTP_ACCEPT_LANGUAGE="fr")
        assert html_lang(response) == "de"
        assert "Offene Partien" in response.content.decode()

    def test_a_new_player_keeps_the_language_they_signed_up_in(self):
        client = Client(HTTP_ACCEPT_LANGUAGE="ru")
        response = client.post(
            reverse("account_signup"),
            {
                "email": "ivan@example.org",
                "display_name": "Ivan",
                "password1": PASSWORD,
                "password2": PASSWORD,
            },
        )
        assert response.status_code == 302
        assert Player.objects.get(user__email="ivan@example.org").language == "ru"

    def test_the_api_speaks_the_token_holder_s_profile_language(self, alice, bob):
        speak(alice, "fr")
        game = two_player_game(alice, bob)
        from tests.games.gamehelpers import api_client_for

        response = api_client_for(alice).get(
            reverse("api:game", args=[game.pk + 1000]), HTTP_ACCEPT_LANGUAGE="de"
        )
        assert response.status_code == 404
        assert response.json() == {"code": "not_found", "message": "Cette partie n'existe pas."}


class TestTheSwitcher:
    def test_every_page_has_it_and_marks_the_current_language(self, alice, bob):
        game = two_player_game(alice, bob)
        client = client_for(alice)
        for url in (
            "/",
            reverse("games:lobby"),
            reverse("games:my_games"),
            reverse("games:profile"),
            reverse("games:rules"),
            reverse("games:detail", args=[game.pk]),
            reverse("account_email"),
        ):
            page = client.get(url).content.decode()
            assert f'action="{reverse("set_language")}"' in page, url
            for code in ("en", "de", "fr", "ru"):
                assert f'name="language" value="{code}" lang="{code}"' in page, url
            assert 'value="en" lang="en" class="link" aria-current="true">English<' in page

    def test_a_visitor_switches_with_a_cookie(self):
        client = Client()
        response = client.post(reverse("set_language"), {"language": "de", "next": "/rules/"})
        assert response.status_code == 302 and response["Location"] == "/rules/"
        assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
        page = client.get("/rules/")
        assert html_lang(page) == "de"
        assert "So spielt man Evergreen" in page.content.decode()

    def test_a_player_s_choice_is_stored_in_the_profile_and_used_for_mail(self, alice, bob):
        game = two_player_game(alice, bob)
        client = client_for(alice)
        client.post(reverse("set_language"), {"language": "ru", "next": "/"})
        assert Player.objects.get(user=alice).language == "ru"
        # Another browser, without the cookie: the profile decides.
        other = client_for(alice)
        assert html_lang(other.get(reverse("games:detail", args=[game.pk]))) == "ru"

    def test_an_unknown_language_changes_nothing(self, alice):
        client = client_for(alice)
        client.post(reverse("set_language"), {"language": "xx", "next": "/"})
        assert Player.objects.get(user=alice).language == "en"

    def test_the_profile_form_changes_the_language_too(self, alice):
        client = client_for(alice)
        response = client.post(
            reverse("games:profile"),
            {
                "display_name": "Alice",
                "time_zone": "Europe/Paris",
                "language": "fr",
                "email_mode": "every",
                "email_every_hours": 6,
                "digest_hour": 8,
                "reminder_hours": "24, 2",
            },
        )
        assert response.status_code == 302
        assert html_lang(client.get(reverse("games:profile"))) == "fr"


class TestDates:
    def test_a_deadline_is_in_the_player_s_zone_and_format(self, alice, bob, monkeypatch):
        game = two_player_game(alice, bob, days_per_move=3)
        deadline = datetime(2030, 1, 15, 16, 45, tzinfo=UTC)
        game.seats.update(deadline=deadline)
        waiting = user_at(game, game.engine_state().awaiting[0])
        speak(waiting, "de", "Asia/Tokyo")  # 01:45 the next day in Tokyo
        mine = client_for(waiting).get(reverse("games:my_games")).content.decode()
        assert "16. Januar 2030 01:45" in mine
        speak(waiting, "fr", "America/New_York")  # 11:45 in New York
        mine = client_for(waiting).get(reverse("games:my_games")).content.decode()
        assert "15 janvier 2030 11:45" in mine
        speak(waiting, "en", "UTC")
        mine = client_for(waiting).get(reverse("games:my_games")).content.decode()
        assert "Jan. 15, 2030, 4:45 p.m." in mine

    def test_the_game_page_clock_uses_the_locale_s_short_format(self, alice, bob):
        game = two_player_game(alice, bob, days_per_move=3)
        deadline = datetime(2030, 1, 15, 16, 45, tzinfo=UTC)
        Game.objects.filter(pk=game.pk).update()
        game.seats.update(deadline=deadline)
        speak(alice, "ru", "Europe/Moscow")  # 19:45 in Moscow
        page = client_for(alice).get(reverse("games:detail", args=[game.pk])).content.decode()
        assert "15.01.2030 19:45" in page
        speak(alice, "en", "UTC")
        page = client_for(alice).get(reverse("games:detail", args=[game.pk])).content.decode()
        assert "01/15/2030 4:45 p.m." in page

    def test_a_deadline_within_the_week_shows_the_weekday(self, alice, bob):
        from django.utils import timezone

        game = two_player_game(alice, bob, days_per_move=3)
        soon = timezone.now() + timedelta(days=2)
        game.seats.update(deadline=soon)
        speak(alice, "de", "Europe/Berlin")
        page = client_for(alice).get(reverse("games:detail", args=[game.pk])).content.decode()
        local = soon.astimezone(__import__("zoneinfo").ZoneInfo("Europe/Berlin"))
        weekday = ("Mo", "Di", "Mi", "Do", "Fr", "Sa", "So")[local.weekday()]
        assert f"{weekday} {local:%H:%M}" in page
