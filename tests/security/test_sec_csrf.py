"""CSRF on every form: each URL that takes a POST refuses one without the CSRF token (403)
and answers it with the token as the authorization matrix says; the API's
session-authenticated writes need the token too, its token-authenticated ones do not.

The URLs come from the resolver and the matrix (``authz.EXPECTED``): a new POST view is
checked here as soon as it has its matrix entry. The only exemptions are listed in
``EXEMPT`` with the reason.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.db import transaction
from django.test import Client

from tests.games.gamehelpers import api_client_for
from tests.security.authz import LIKE, ROLES
from tests.security.authzworld import World, expected_for, matches, outcome, routes, url_for

pytestmark = pytest.mark.django_db

EXEMPT = {
    # One-click unsubscribe (RFC 8058): mail providers POST without a token; the signed
    # token in the address is the permission, and all it can do is turn mail off.
    "games:unsubscribe": "signed link, RFC 8058 one-click",
    # Exchanges a password for a token returned in the body: no session, no cookie, so
    # nothing a forged cross-site request could ride on (and its answer is unreadable).
    "api:token": "no session: credentials in the body",
}


def post_role(spec: dict[str, Any]) -> str | None:
    """The first role for whom the view takes the POST (not 405, not sent to log in)."""
    for role in ("player", "staff", "anonymous", *ROLES):
        expected = spec["POST"].get(role, spec["POST"].get(LIKE.get(role, role)))
        if expected not in (405, 401, "login", "admin_login"):
            return role
    return None


def token_from(client: Client, user: Any) -> str:
    page = "/profile/" if user is not None else "/accounts/login/"
    assert client.get(page).status_code == 200
    return str(client.cookies["csrftoken"].value)


def post(client: Client, url: str, token: str | None) -> Any:
    with transaction.atomic():
        if url.startswith("/api/"):
            headers = {"HTTP_X_CSRFTOKEN": token} if token else {}
            response = client.post(url, "{}", content_type="application/json", **headers)
        else:
            response = client.post(url, {"csrfmiddlewaretoken": token} if token else {})
        transaction.set_rollback(True)
    return response


def post_views(world: World) -> list[tuple[str, str, str]]:
    found = []
    for route in routes():
        spec = expected_for(route.key)
        assert spec is not None, route.key  # test_sec_authz_matrix names the missing ones
        role = post_role(spec)
        if role is None or route.key in EXEMPT:
            continue
        url = url_for(route, world.kwargs(route, spec.get("game", "active")))
        found.append((route.key, url, role))
    return found


@pytest.mark.slow  # every POST URL for every role
def test_every_post_needs_the_csrf_token(monkeypatch: pytest.MonkeyPatch) -> None:
    world = World(monkeypatch)
    views = post_views(world)
    assert len(views) > 40  # the site's forms, the API's writes, allauth's, the admin's
    wrong = []
    # A role's CSRF token, read once from a page (a page costs a quarter of a second; the
    # token is the cookie's, whatever view takes it). Each POST comes from a new client
    # with the role's session: without the token, none of its cookies; with it, the cookie.
    tokens: dict[str, str] = {}
    for key, url, role in views:
        user = world.users[role]
        refused = post(world.client(role, enforce_csrf_checks=True), url, None)
        if refused.status_code != 403:
            wrong.append(f"{url} ({key}) as {role} without a token: {refused.status_code}")
        if role not in tokens:
            tokens[role] = token_from(world.client(role, enforce_csrf_checks=True), user)
        client = world.client(role, enforce_csrf_checks=True)
        client.cookies[settings.CSRF_COOKIE_NAME] = tokens[role]
        accepted = outcome(post(client, url, tokens[role]))
        spec = expected_for(key)
        assert spec is not None
        expected = spec["POST"].get(role, spec["POST"].get(LIKE.get(role, role)))
        if not matches(expected, accepted):
            wrong.append(f"{url} ({key}) as {role} with the token: {accepted}, not {expected}")
    assert not wrong, "\n".join(wrong)


def test_the_exemptions_are_still_views_that_take_a_post(monkeypatch: pytest.MonkeyPatch) -> None:
    keys = {route.key for route in routes()}
    assert set(EXEMPT) <= keys


def test_an_api_write_with_a_token_needs_no_csrf_token(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    world = World(monkeypatch)
    alice = world.users["player"]
    client = api_client_for(alice)
    client.handler.enforce_csrf_checks = True
    response = client.post("/api/games/", {"players": 2}, format="json")
    assert response.status_code == 201
    session = Client(enforce_csrf_checks=True)
    session.force_login(alice)
    refused = session.post("/api/games/", {"players": 2}, content_type="application/json")
    assert refused.status_code == 403
    assert "CSRF" in refused.json()["message"]
