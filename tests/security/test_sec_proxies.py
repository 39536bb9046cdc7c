"""Addresses behind proxies: ``X-Forwarded-For`` is believed only as far as the site's own
proxies (``NUM_PROXIES``) wrote it, for the token endpoint's throttle and for the login
lock alike; a visitor who writes the header himself gains nothing."""

from __future__ import annotations

from typing import Any

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.urls import reverse
from rest_framework.test import APIClient

from evergreen.proxy import client_ip
from tests.games.gamehelpers import PASSWORD

pytestmark = pytest.mark.django_db

PROXY = "10.0.0.1"


def api_token(email: str, password: str, *, forwarded: str | None = None) -> Any:
    headers = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {}
    return APIClient(REMOTE_ADDR=PROXY, **headers).post(
        reverse("api:token"), {"email": email, "password": password}, format="json"
    )


def test_the_default_trusts_no_proxy() -> None:
    assert settings.NUM_PROXIES == 0
    assert settings.AXES_CLIENT_IP_CALLABLE == "evergreen.proxy.client_ip"


def test_a_forged_forwarded_header_does_not_escape_the_token_throttle(alice: Any) -> None:
    statuses = [
        api_token(f"nobody{n}@example.org", "wrong", forwarded=f"198.51.100.{n}").status_code
        for n in range(35)
    ]
    assert statuses[:30] == [400] * 30
    assert statuses[30:] == [429] * 5


def test_a_forged_forwarded_header_does_not_escape_the_login_lock(alice: Any) -> None:
    for n in range(settings.AXES_FAILURE_LIMIT):
        api_token("alice@example.org", "wrong", forwarded=f"198.51.100.{n}")
    response = api_token("alice@example.org", PASSWORD, forwarded="203.0.113.9")
    assert response.status_code == 429
    assert response.json()["code"] == "locked_out"
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {PROXY}


def test_behind_one_proxy_the_lock_is_for_the_real_client(alice: Any, settings: Any) -> None:
    settings.NUM_PROXIES = 1
    attacker = "198.51.100.7"
    for _attempt in range(settings.AXES_FAILURE_LIMIT):
        # The attacker's own header value comes first; the proxy appends what it saw.
        api_token("alice@example.org", "wrong", forwarded=f"1.2.3.4, {attacker}")
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {attacker}
    locked = api_token("alice@example.org", PASSWORD, forwarded=attacker)
    assert locked.status_code == 429
    elsewhere = api_token("alice@example.org", PASSWORD, forwarded="203.0.113.9")
    assert elsewhere.status_code == 200  # another visitor behind the same proxy logs in


def test_behind_one_proxy_the_throttle_counts_per_real_client(alice: Any, settings: Any) -> None:
    settings.NUM_PROXIES = 1
    for n in range(30):
        assert api_token(f"x{n}@example.org", "wrong", forwarded="198.51.100.7").status_code == 400
    assert api_token("x@example.org", "wrong", forwarded="198.51.100.7").status_code == 429
    assert api_token("alice@example.org", PASSWORD, forwarded="203.0.113.9").status_code == 200


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, "1.1.1.1", PROXY),
        (1, "1.1.1.1, 2.2.2.2", "2.2.2.2"),
        (2, "1.1.1.1, 2.2.2.2, 3.3.3.3", "2.2.2.2"),
        (3, "2.2.2.2", "2.2.2.2"),
        (1, " , ", PROXY),
        (1, "", PROXY),
    ],
)
def test_the_client_address_is_counted_from_the_right(
    settings: Any, rf: Any, proxies: int, forwarded: str, expected: str
) -> None:
    settings.NUM_PROXIES = proxies
    request = rf.get("/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=forwarded)
    assert client_ip(request) == expected
