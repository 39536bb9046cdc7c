"""Login throttling (django-axes): failed logins lock an account out for the address they
came from, with a clear message, on the log-in page and on the API's token endpoint alike;
a correct password is refused until the cool-off has passed or ``axes_reset`` is run."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.core.management import call_command
from django.db.models import F
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.games.gamehelpers import PASSWORD

pytestmark = pytest.mark.django_db

LOGIN = "account_login"
LOCKED = "Too many failed logins to this account from your address"


def log_in(password: str, *, email: str = "alice@example.org", ip: str = "127.0.0.1") -> Any:
    client = Client(REMOTE_ADDR=ip)
    response = client.post(reverse(LOGIN), {"login": email, "password": password})
    response.client_logged_in = "_auth_user_id" in client.session
    return response


def api_token(password: str, *, ip: str = "127.0.0.1", email: str = "alice@example.org") -> Any:
    return APIClient(REMOTE_ADDR=ip).post(
        reverse("api:token"), {"email": email, "password": password}, format="json"
    )


def lock_out(alice: Any) -> None:
    for attempt in range(1, settings.AXES_FAILURE_LIMIT):
        response = log_in("wrong password")
        assert response.status_code == 200, attempt  # the form again, with its error
        assert not response.client_logged_in
    response = log_in("wrong password")
    assert response.status_code == 429
    assert LOCKED in response.content.decode()


def test_the_limit_is_sensible() -> None:
    assert 3 <= settings.AXES_FAILURE_LIMIT <= 10
    assert timedelta(minutes=5) <= settings.AXES_COOLOFF_TIME <= timedelta(hours=1)
    assert settings.AUTHENTICATION_BACKENDS[0] == "axes.backends.AxesStandaloneBackend"


def test_failed_logins_lock_the_account_with_a_clear_message(alice: Any) -> None:
    lock_out(alice)
    response = log_in(PASSWORD)
    assert response.status_code == 429
    assert not response.client_logged_in
    html = response.content.decode()
    assert LOCKED in html and "15 minutes" in html
    assert reverse("account_reset_password") in html


def test_the_lock_is_for_that_account_from_that_address_only(alice: Any, bob: Any) -> None:
    lock_out(alice)
    assert log_in(PASSWORD, ip="10.1.2.3").client_logged_in
    assert log_in(PASSWORD, email="bob@example.org").client_logged_in


def test_the_api_token_endpoint_counts_and_obeys_the_same_lock(alice: Any) -> None:
    for _attempt in range(settings.AXES_FAILURE_LIMIT - 1):
        assert api_token("wrong").status_code == 400
    response = api_token("wrong")
    assert response.status_code == 429
    assert response.json()["code"] == "locked_out"
    assert LOCKED in response.json()["message"]
    assert log_in(PASSWORD).status_code == 429  # the page shares the count: one account
    assert api_token(PASSWORD).status_code == 429


def test_a_correct_login_works_again_after_the_cool_off(alice: Any) -> None:
    lock_out(alice)
    assert log_in(PASSWORD).status_code == 429
    AccessAttempt.objects.update(
        attempt_time=F("attempt_time") - settings.AXES_COOLOFF_TIME - timedelta(seconds=1)
    )
    assert log_in(PASSWORD).client_logged_in
    assert api_token(PASSWORD).status_code == 200


def test_axes_reset_lifts_the_lock(alice: Any) -> None:
    lock_out(alice)
    call_command("axes_reset", verbosity=0)
    assert log_in(PASSWORD).client_logged_in


def test_a_successful_login_clears_earlier_failures(alice: Any) -> None:
    for _attempt in range(settings.AXES_FAILURE_LIMIT - 1):
        log_in("wrong password")
    assert log_in(PASSWORD).client_logged_in
    assert log_in("wrong password").status_code == 200  # counting starts again


def test_the_lockout_page_speaks_the_visitors_language(alice: Any) -> None:
    """The page is rendered in the visitor's language (the message is marked for
    translation with ngettext; the catalogues carry it)."""
    lock_out(alice)
    response = Client(REMOTE_ADDR="127.0.0.1", HTTP_ACCEPT_LANGUAGE="de").post(
        reverse(LOGIN), {"login": "alice@example.org", "password": PASSWORD}
    )
    assert response.status_code == 429
    assert 'lang="de"' in response.content.decode()
