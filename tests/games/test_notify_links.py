"""Signed links from mails: one-click unsubscribe (RFC 8058) and the private iCal feed (RFC 5545)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.core import signing
from django.test import Client
from django.utils import timezone

from games import notifications, services, signed_links
from games.models import Game, Notification, Player
from tests.games.gamehelpers import client_for, user_at

T0 = datetime(2025, 1, 6, 12, 0, tzinfo=UTC)


@pytest.fixture
def now(monkeypatch: Any) -> datetime:
    monkeypatch.setattr(timezone, "now", lambda: T0)
    return T0


def path_of(url: str) -> str:
    return url.removeprefix("http://testserver")


def mode_of(user: Any) -> str:
    return Player.objects.get(user=user).email_mode


def forged(token: str) -> str:
    return token[:-1] + ("A" if token[-1] != "A" else "B")


class TestUnsubscribe:
    def test_get_says_what_will_change_and_changes_nothing(self, alice):
        url = path_of(notifications.unsubscribe_url(alice))
        response = Client().get(url)  # not logged in
        assert response.status_code == 200
        page = response.content.decode()
        assert "Unsubscribing turns all e-mail from Evergreen off" in page
        assert "“At most one mail per few hours per game”" in page and "a…@example.org" in page
        assert '<form method="post">' in page
        assert mode_of(alice) == "coalesced"

    def test_post_turns_mail_off_and_says_so(self, alice):
        url = path_of(notifications.unsubscribe_url(alice))
        response = Client().post(url)
        assert response.status_code == 200
        assert "Evergreen sends no more e-mails to a…@example.org" in response.content.decode()
        assert mode_of(alice) == "off"
        again = Client().get(url)
        assert "already turned off" in again.content.decode()

    def test_the_one_click_post_of_a_mail_provider_works_without_csrf(self, alice, bob):
        url = path_of(notifications.unsubscribe_url(bob))
        client = Client(enforce_csrf_checks=True)
        response = client.post(
            url,
            data="List-Unsubscribe=One-Click",
            content_type="application/x-www-form-urlencoded",
        )
        assert response.status_code == 200
        assert mode_of(bob) == "off" and mode_of(alice) == "coalesced"

    def test_the_link_in_a_mail_header_unsubscribes_its_recipient(self, alice, bob, now):
        game = services.create_game(alice, players=2)
        services.join_game(game.pk, bob)
        game.refresh_from_db()
        user = user_at(game, game.engine_state().awaiting[0])
        note = Notification.objects.get(user=user, kind="your_move")
        header = notifications.render(note).extra_headers["List-Unsubscribe"]
        Client(enforce_csrf_checks=True).post(
            path_of(header.strip("<>")),
            data="List-Unsubscribe=One-Click",
            content_type="application/x-www-form-urlencoded",
        )
        assert mode_of(user) == "off"
        assert notifications.deliver(note.pk) == "skipped"  # a waiting mail no longer goes

    @pytest.mark.parametrize("method", ["get", "post"])
    def test_a_forged_token_gets_a_clear_400_and_changes_nothing(self, alice, method):
        token = signed_links.unsubscribe_token(alice)
        other = signing.TimestampSigner(salt="other").sign_object({"u": alice.pk})
        for bad in (forged(token), "nonsense", other):
            response = getattr(Client(), method)(f"/mail/unsubscribe/{bad}/")
            assert response.status_code == 400
            assert "This unsubscribe link is not valid" in response.content.decode()
        assert mode_of(alice) == "coalesced"

    def test_the_calendar_token_does_not_unsubscribe(self, alice):
        token = signed_links.calendar_token(alice)
        assert Client().post(f"/mail/unsubscribe/{token}/").status_code == 400
        assert mode_of(alice) == "coalesced"

    def test_a_token_for_a_deleted_account_is_404(self, alice, carol):
        url = path_of(notifications.unsubscribe_url(carol))
        carol.delete()
        response = Client().post(url)
        assert response.status_code == 404
        assert "not valid" in response.content.decode()

    def test_other_methods_are_refused(self, alice):
        url = path_of(notifications.unsubscribe_url(alice))
        assert Client().put(url).status_code == 405
        assert mode_of(alice) == "coalesced"

    def test_the_page_speaks_the_player_s_language(self, alice):
        Player.objects.filter(user=alice).update(language="de")
        response = Client().get(path_of(notifications.unsubscribe_url(alice)))
        assert response.status_code == 200
        assert '<html lang="de">' in response.content.decode()


def unfold(body: str) -> list[str]:
    return body.replace("\r\n ", "").split("\r\n")


@pytest.fixture
def timed_game(alice: Any, bob: Any, now: datetime) -> Game:
    game = services.create_game(alice, players=2, days_per_move=2)
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    return game


class TestCalendar:
    def test_the_feed_lists_the_player_s_deadlines(self, timed_game):
        state = timed_game.engine_state()
        user = user_at(timed_game, state.awaiting[0])
        seat = timed_game.seats.get(user=user)
        assert seat.deadline == T0 + timedelta(days=2)
        Player.objects.filter(user=user).update(reminder_hours=[24, 2])
        response = Client().get(path_of(notifications.calendar_url(user)))
        assert response.status_code == 200
        assert response["Content-Type"] == "text/calendar; charset=utf-8"
        body = response.content.decode()
        assert body.startswith("BEGIN:VCALENDAR\r\n") and body.endswith("END:VCALENDAR\r\n")
        assert "\n" not in body.replace("\r\n", "")
        lines = unfold(body)
        assert "VERSION:2.0" in lines and lines.count("BEGIN:VEVENT") == 1
        assert "DTSTART:20250108T120000Z" in lines
        assert f"UID:evergreen-seat-{seat.pk}-{int(seat.deadline.timestamp())}@testserver" in lines
        assert f"URL:http://testserver/games/{timed_game.pk}/" in lines
        assert f"SUMMARY:Evergreen game #{timed_game.pk}: your move is due" in lines
        assert "TRIGGER:-PT24H" in lines and "TRIGGER:-PT2H" in lines
        assert lines.count("BEGIN:VALARM") == 2

    def test_the_uid_is_stable_and_other_players_see_only_their_own(self, timed_game, carol):
        state = timed_game.engine_state()
        user = user_at(timed_game, state.awaiting[0])
        other = user_at(timed_game, 1 - state.awaiting[0])
        url = path_of(notifications.calendar_url(user))
        first = [x for x in unfold(Client().get(url).content.decode()) if x.startswith("UID:")]
        second = [x for x in unfold(Client().get(url).content.decode()) if x.startswith("UID:")]
        assert first == second and len(first) == 1
        for nobody in (other, carol):
            body = Client().get(path_of(notifications.calendar_url(nobody))).content.decode()
            assert "BEGIN:VEVENT" not in body and body.startswith("BEGIN:VCALENDAR")

    def test_a_forged_calendar_token_is_404(self, alice):
        token = signed_links.calendar_token(alice)
        unsubscribe = signed_links.unsubscribe_token(alice)
        for bad in (forged(token), unsubscribe, "x"):
            response = Client().get(f"/calendar/{bad}.ics")
            assert response.status_code == 404
            assert "This calendar address is not valid." in response.content.decode()

    def test_the_calendar_url_is_stable_and_private_per_player(self, alice, bob):
        assert notifications.calendar_url(alice) == notifications.calendar_url(alice)
        assert notifications.calendar_url(alice) != notifications.calendar_url(bob)
        assert notifications.calendar_url(alice).endswith(".ics")

    def test_text_values_are_escaped(self):
        assert notifications.ical_escape("a,b;c\\d\ne") == "a\\,b\\;c\\\\d\\ne"

    def test_long_lines_fold_at_75_octets_without_splitting_a_character(self):
        line = "SUMMARY:" + "Zürich; Über Bäume " * 12
        folded = notifications.ical_fold(line)
        physical = folded.split("\r\n")
        assert len(physical) > 2
        assert all(len(p.encode("utf-8")) <= 75 for p in physical)
        assert all(p.startswith(" ") for p in physical[1:])
        assert folded.replace("\r\n ", "") == line
        assert notifications.ical_fold("SHORT:x") == "SHORT:x"

    def test_the_profile_shows_the_private_calendar_address(self, alice):
        response = client_for(alice).get("/profile/")
        assert response.status_code == 200
        assert notifications.calendar_url(alice) in response.content.decode()
