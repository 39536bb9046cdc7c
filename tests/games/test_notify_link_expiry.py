"""Links that end: an unsubscribe link works for UNSUBSCRIBE_LINK_DAYS days, then its
page says so and offers to log in; the calendar address is the player's own secret (no
user id), and "Reset my calendar link" ends the old one at once."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.conf import settings
from django.core import signing
from django.test import Client
from django.urls import reverse

from games import notifications, signed_links
from games.models import Player
from tests.games.gamehelpers import client_for

pytestmark = pytest.mark.django_db

DAY = 86400


def path_of(url: str) -> str:
    return url.removeprefix("http://testserver")


def made_days_ago(monkeypatch: pytest.MonkeyPatch, user: Any, days: float) -> str:
    """An unsubscribe link as a mail sent ``days`` ago carried it."""
    then = int(time.time() - days * DAY)
    monkeypatch.setattr(signing.TimestampSigner, "timestamp", lambda self: signing.b62_encode(then))
    url = path_of(notifications.unsubscribe_url(user))
    monkeypatch.undo()
    return url


def mode_of(user: Any) -> str:
    return str(Player.objects.get(user=user).email_mode)


def test_the_unsubscribe_link_lasts_a_stated_time() -> None:
    assert settings.UNSUBSCRIBE_LINK_DAYS == 60


def test_a_recent_unsubscribe_link_works(alice: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    url = made_days_ago(monkeypatch, alice, settings.UNSUBSCRIBE_LINK_DAYS - 1)
    assert Client().post(url).status_code == 200
    assert mode_of(alice) == "off"


@pytest.mark.parametrize("method", ["get", "post"])
def test_an_expired_unsubscribe_link_changes_nothing_and_offers_to_log_in(
    alice: Any, monkeypatch: pytest.MonkeyPatch, method: str
) -> None:
    url = made_days_ago(monkeypatch, alice, settings.UNSUBSCRIBE_LINK_DAYS + 1)
    response = getattr(Client(), method)(url)
    assert response.status_code == 410
    html = response.content.decode()
    assert "This unsubscribe link has expired" in html and "60 days" in html
    assert f"{reverse('account_login')}?next={reverse('games:profile')}" in html
    assert mode_of(alice) == "coalesced"  # as it was: the default


def test_the_expired_page_speaks_the_visitors_language(
    alice: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = made_days_ago(monkeypatch, alice, settings.UNSUBSCRIBE_LINK_DAYS + 1)
    response = Client(HTTP_ACCEPT_LANGUAGE="de").get(url)
    assert '<html lang="de">' in response.content.decode()
    assert "abgelaufen" in response.content.decode()


def test_the_calendar_address_carries_a_secret_and_no_user_id(alice: Any, bob: Any) -> None:
    secret = Player.objects.get(user=alice).calendar_secret
    assert len(secret) >= 32
    assert notifications.calendar_url(alice) == f"http://testserver/calendar/{secret}.ics"
    assert Player.objects.get(user=bob).calendar_secret != secret
    with pytest.raises(signing.BadSignature):
        signing.Signer().unsign_object(secret)


def test_resetting_the_calendar_link_ends_the_old_address(alice: Any) -> None:
    old = path_of(notifications.calendar_url(alice))
    assert Client().get(old).status_code == 200
    client = client_for(alice)
    profile = client.get(reverse("games:profile")).content.decode()
    assert "Reset my calendar link" in profile and old in profile
    response = client.post(reverse("games:reset_calendar"))
    assert response.status_code == 302
    assert response["Location"] == reverse("games:profile") + "#calendar"
    new = path_of(notifications.calendar_url(alice))
    assert new != old
    assert Client().get(old).status_code == 404
    assert Client().get(new).status_code == 200
    assert new in client.get(reverse("games:profile")).content.decode()


def test_only_a_post_by_the_player_resets_it(alice: Any) -> None:
    before = notifications.calendar_url(alice)
    assert client_for(alice).get(reverse("games:reset_calendar")).status_code == 405
    anonymous = Client().post(reverse("games:reset_calendar"))
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert notifications.calendar_url(alice) == before


def test_a_user_id_signed_as_before_is_no_calendar_address(alice: Any) -> None:
    old_style = signing.Signer(salt="games.notifications.calendar").sign_object({"u": alice.pk})
    assert Client().get(f"/calendar/{old_style}.ics").status_code == 404
    assert signed_links.user_for_calendar("") is None
