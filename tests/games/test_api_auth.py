"""API authentication: the token endpoint, 401 for anonymous callers, the error shape."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.games.apihelpers import api_url
from tests.games.gamehelpers import PASSWORD, api_client_for, client_for, make_user

pytestmark = pytest.mark.django_db

# Every endpoint, with the method a client would use (game 1 need not exist: the
# authentication check comes first).
ENDPOINTS = [
    ("get", "games", ()),
    ("post", "games", ()),
    ("get", "game", (1,)),
    ("post", "join", (1,)),
    ("get", "targets", (1,)),
    ("post", "pick", (1,)),
    ("post", "turn", (1,)),
    ("get", "record", (1,)),
]


@pytest.fixture(autouse=True)
def _fresh_throttle() -> None:
    cache.clear()  # the login throttle counts requests in the cache


def login(email: str, password: str) -> Any:
    return APIClient().post(api_url("token"), {"email": email, "password": password}, format="json")


class TestToken:
    def test_it_gives_a_token_for_the_right_email_and_password(self, alice: Any) -> None:
        response = login("alice@example.org", PASSWORD)
        assert response.status_code == 200
        assert response.json() == {"token": Token.objects.get(user=alice).key}

    def test_it_gives_the_same_token_every_time(self, alice: Any) -> None:
        assert (
            login("alice@example.org", PASSWORD).json()
            == login("alice@example.org", PASSWORD).json()
        )

    def test_it_finds_the_user_by_email_whatever_the_case_and_the_username(self, db: Any) -> None:
        user = get_user_model().objects.create_user(
            username="zed-the-gardener", email="Zed@Example.org", password=PASSWORD
        )
        response = login("zed@EXAMPLE.org", PASSWORD)
        assert response.status_code == 200
        assert response.json()["token"] == Token.objects.get(user=user).key

    def test_the_token_works_on_the_other_endpoints(self, alice: Any) -> None:
        token = login("alice@example.org", PASSWORD).json()["token"]
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        assert client.get(api_url("games")).status_code == 200

    def test_it_refuses_a_wrong_password_with_400(self, alice: Any) -> None:
        response = login("alice@example.org", "not-the-password")
        assert response.status_code == 400
        assert response.json() == {
            "code": "bad_credentials",
            "message": "The e-mail address or the password is wrong.",
        }
        assert not Token.objects.filter(user=alice).exists()

    def test_it_answers_an_unknown_address_exactly_like_a_wrong_password(self, alice: Any) -> None:
        unknown = login("nobody@example.org", PASSWORD)
        wrong = login("alice@example.org", "not-the-password")
        assert (unknown.status_code, unknown.json()) == (wrong.status_code, wrong.json())

    def test_it_refuses_an_inactive_user(self, alice: Any) -> None:
        alice.is_active = False
        alice.save()
        assert login("alice@example.org", PASSWORD).status_code == 400

    def test_it_refuses_a_malformed_body_with_the_problems_per_field(self, db: Any) -> None:
        response = APIClient().post(api_url("token"), {"email": "nope"}, format="json")
        assert response.status_code == 400
        body = response.json()
        assert body["code"] == "invalid"
        assert body["message"].startswith("email: ")
        assert set(body["errors"]) == {"email", "password"}

    def test_it_ignores_a_stale_token_sent_along(self, alice: Any) -> None:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION="Token deleted-long-ago")
        response = client.post(
            api_url("token"), {"email": "alice@example.org", "password": PASSWORD}, format="json"
        )
        assert response.status_code == 200

    def test_it_slows_down_password_guessing(self, alice: Any) -> None:
        # Many accounts from one address: the per-address throttle (one account's own
        # failures lock it sooner: django-axes, tests/security/test_sec_login_throttle.py).
        statuses = [login(f"guess-{n}@example.org", "guess").status_code for n in range(31)]
        assert statuses[:30] == [400] * 30
        assert statuses[30] == 429
        assert login("alice@example.org", PASSWORD).json()["code"] == "throttled"


class TestAnonymous:
    @pytest.mark.parametrize(("method", "name", "args"), ENDPOINTS)
    def test_it_answers_401_with_a_token_challenge(
        self, method: str, name: str, args: tuple[int, ...]
    ) -> None:
        response = getattr(APIClient(), method)(api_url(name, *args), {}, format="json")
        assert response.status_code == 401
        assert response.headers["WWW-Authenticate"] == "Token"
        assert response.json()["code"] == "not_authenticated"
        assert response.json()["message"]

    @pytest.mark.parametrize(("method", "name", "args"), ENDPOINTS)
    def test_it_answers_401_to_a_bad_token(
        self, method: str, name: str, args: tuple[int, ...]
    ) -> None:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
        response = getattr(client, method)(api_url(name, *args), {}, format="json")
        assert response.status_code == 401
        assert response.json()["code"] == "authentication_failed"

    def test_a_deactivated_users_token_stops_working(self, alice: Any) -> None:
        client = api_client_for(alice)
        assert client.get(api_url("games")).status_code == 200
        alice.is_active = False
        alice.save(update_fields=["is_active"])
        response = client.get(api_url("games"))
        assert response.status_code == 401
        assert response.json()["code"] == "authentication_failed"


class TestSessionsAndErrorShape:
    def test_a_logged_in_browser_session_may_use_the_api_too(self, alice: Any) -> None:
        assert client_for(alice).get(api_url("games")).status_code == 200

    def test_a_wrong_method_is_answered_in_the_same_shape(self, alice: Any) -> None:
        response = api_client_for(alice).delete(api_url("games"))
        assert response.status_code == 405
        assert response.json()["code"] == "method_not_allowed"
        assert set(response.json()) == {"code", "message"}

    def test_malformed_json_is_answered_400(self, alice: Any) -> None:
        response = api_client_for(alice).post(
            api_url("games"), "{not json", content_type="application/json"
        )
        assert response.status_code == 400
        assert response.json()["code"] == "parse_error"

    def test_staff_have_no_special_powers_here(self, staff: Any) -> None:
        make_user("dora")
        assert api_client_for(staff).get(api_url("games")).json()["count"] == 0
