"""Odd query parameters and headers on every endpoint: each URL the site has (pages, htmx
regions, API, admin) is asked with every query parameter the site reads and the headers it
reads set to awkward values (a superscript digit, 4,301 digits, a negative number, a
right-to-left override, a NUL, JSON shapes, a long string): never a 500.

The endpoints come from the URL resolver (``test_sec_authz_matrix.routes``), filled with
real objects (its ``World``); a new URL is fuzzed without being listed here. Every request
runs in a transaction rolled back afterwards.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from tests.games.gamehelpers import api_client_for
from tests.security.authzworld import World, routes, url_for

pytestmark = pytest.mark.django_db

ODD = [
    "²",
    "9" * 4301,
    "-1",
    "\uff11\u202e",  # a full-width one, a right-to-left override
    "1\x00",
    '{"a": [1, {"b": null}]}',
    "x" * 3000,
    "",
]
# What the site reads from query strings, anywhere (views, API, admin, allauth).
PARAMETERS = [
    "limit", "offset", "page", "club", "status", "version", "turn", "focus", "move",
    "effect", "partial", "mine", "next", "q", "o", "p", "e", "_changelist_filters",
    "_popup", "_to_field", "lang", "format", "seat", "round", "event", "all",
]  # fmt: skip
HEADERS = [
    "HTTP_IF_MATCH", "HTTP_IF_NONE_MATCH", "HTTP_IDEMPOTENCY_KEY", "HTTP_ACCEPT_LANGUAGE",
    "HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_HX_REQUEST", "HTTP_HX_CURRENT_URL",
    "HTTP_HX_TARGET", "HTTP_ACCEPT", "HTTP_RANGE", "HTTP_IF_MODIFIED_SINCE", "HTTP_REFERER",
]  # fmt: skip


def header_value(value: str) -> str:
    """As a WSGI server hands it over: the bytes read as latin-1, one line."""
    return value.encode("utf-8", "replace").decode("latin-1").replace("\x00", "")[:2000]


def ask(client: Client, method: str, url: str, value: str) -> Any:
    query = urlencode(dict.fromkeys(PARAMETERS, value))
    extra = {name: header_value(value) for name in HEADERS}
    with transaction.atomic():
        if method == "POST":
            response = client.post(f"{url}?{query}", "{}", content_type="application/json", **extra)
        else:
            response = client.get(f"{url}?{query}", **extra)
        transaction.set_rollback(True)
    return response


@pytest.fixture
def world(monkeypatch: pytest.MonkeyPatch) -> World:
    return World(monkeypatch)


def clients(world: World) -> dict[str, Client]:
    found = {}
    for role in ("player", "staff", "organizer"):
        client = Client()
        client.raise_request_exception = False
        client.force_login(world.users[role])
        found[role] = client
    return found


def test_no_endpoint_answers_odd_queries_or_headers_with_a_500(world: World) -> None:
    by_role = clients(world)
    failures = []
    asked = 0
    for route in routes():
        if route.key in ("account_logout",) or "logout" in route.route:
            continue
        url = url_for(route, world.kwargs(route, "active"))
        roles = ("staff", "organizer") if url.startswith("/admin/") else ("player",)
        methods = ("GET", "POST") if url.startswith("/api/") else ("GET",)
        for role in roles:
            for method in methods:
                for value in ODD:
                    response = ask(by_role[role], method, url, value)
                    asked += 1
                    if response.status_code >= 500:
                        failures.append(f"{role} {method} {url} with {value[:12]!r}")
    assert asked > 500
    assert not failures, f"{len(failures)} answers were 5xx:\n" + "\n".join(failures[:30])


# --- The findings, one by one ----------------------------------------------------------


def test_if_match_with_a_superscript_digit_is_a_clean_400(alice: Any, bob: Any) -> None:
    from tests.security.sechelpers import turn_submitted_game

    game = turn_submitted_game(alice, bob)
    client = api_client_for(alice)
    for value in ("²", "9" * 4301, "1" * 19):
        response = client.post(
            reverse("api:turn", args=[game.pk]), {}, format="json", HTTP_IF_MATCH=value
        )
        assert response.status_code == 400, value
        assert response.json()["code"] == "bad_version"


def test_a_body_version_beyond_the_database_is_a_clean_400(alice: Any, bob: Any) -> None:
    from tests.security.sechelpers import turn_submitted_game

    game = turn_submitted_game(alice, bob)
    response = api_client_for(alice).post(
        reverse("api:turn", args=[game.pk]), {"version": 2**63}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "bad_version"


@pytest.mark.parametrize("name", ["limit", "offset"])
@pytest.mark.parametrize("url", ["/api/games/", "/api/ratings/", "/api/clubs/", "/api/events/"])
@pytest.mark.parametrize("value", ["9" * 4301, "9" * 30, "²"])
def test_huge_or_odd_paging_numbers_are_clean_400s(
    alice: Any, url: str, name: str, value: str
) -> None:
    response = api_client_for(alice).get(url, {name: value})
    assert response.status_code == 400
    assert response.json()["code"] == f"bad_{name}"


def test_the_admins_event_form_with_an_odd_club_is_a_clean_400(world: World) -> None:
    client = clients(world)["organizer"]
    add = reverse("admin:tournaments_event_add")
    assert client.get(add, {"club": "²"}).status_code == 400
    assert client.get(add, {"club": "9" * 4301}).status_code == 400
    assert client.get(add, {"club": str(world.clubs.club.pk)}).status_code == 200


def test_the_admin_refuses_an_empty_to_field_cleanly(world: World) -> None:
    client = clients(world)["staff"]
    url = reverse("admin:auth_group_change", args=[1])
    assert client.get(url, {"_to_field": ""}).status_code == 400
    assert client.get(url).status_code in (200, 302)
