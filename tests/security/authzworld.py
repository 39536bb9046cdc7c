"""The world of the authorization matrix: every URL the resolver serves (``routes``), the
objects that fill their parameters and a user per role (``World``), and how a response is
read in the notation of ``authz`` (``outcome``, ``matches``). Used by the matrix and the
CSRF tests."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings
from django.contrib.admin import site as admin_site
from django.contrib.contenttypes.models import ContentType
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from games import signed_links
from games.models import Game
from tests.games.gamehelpers import make_user
from tests.security.authz import ADMIN_LOGIN, ARGS, EXPECTED, LOGIN
from tests.security.sechelpers import Clubs, fixed_seed, open_game, turn_submitted_game
from tournaments.models import Club, Event, JoinRequest, Membership, Registration, Table

PARAM = re.compile(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>[^)]*\)")


@dataclass(frozen=True)
class Route:
    key: str  # the namespaced name, or the route when it has none
    route: str
    params: tuple[str, ...]


def routes() -> list[Route]:
    found: list[Route] = []

    def walk(patterns: list[Any], prefix: str, namespace: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = namespace + (f"{pattern.namespace}:" if pattern.namespace else "")
                walk(pattern.url_patterns, prefix + str(pattern.pattern), inner)
            elif isinstance(pattern, URLPattern):
                route = prefix + str(pattern.pattern)
                key = namespace + pattern.name if pattern.name else route
                params = tuple(a or b for a, b in PARAM.findall(route))
                found.append(Route(key, route, params))

    walk(get_resolver().url_patterns, "", "")
    return found


def admin_model_key(key: str) -> tuple[str, str] | None:
    """("app_model", action) for the admin's per-model URLs, else None."""
    for model in admin_site._registry:
        name = f"{model._meta.app_label}_{model._meta.model_name}"
        if key.startswith(f"admin:{name}_"):
            return name, key.removeprefix(f"admin:{name}_")
        if key == f"admin/{model._meta.app_label}/{model._meta.model_name}/<path:object_id>/":
            return name, "redirect"  # the old address of the change page
    return None


def expected_for(key: str) -> dict[str, Any] | None:
    if key in EXPECTED:
        return EXPECTED[key]
    model = admin_model_key(key)
    if model is not None:
        return EXPECTED.get(f"admin:<model>_{model[1]}")
    return None


class World:
    """The objects the URLs are filled with, and a user per role."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        fixed_seed(monkeypatch)
        alice, bob = make_user("alice"), make_user("bob")
        carol = make_user("carol")
        staff = make_user("staff", staff=True)
        staff.is_superuser = True
        staff.save(update_fields=["is_superuser"])
        oscar, olga = make_user("oscar"), make_user("olga")
        self.users = {
            "anonymous": None,
            "player": alice,
            "other_player": carol,
            "staff": staff,
            "organizer": oscar,
            "organizer_other_club": olga,
        }
        self.games = {"active": turn_submitted_game(alice, bob), "open": open_game(alice)}
        open_game(carol)  # carol plays games too: she is another player, not a stranger
        # Oscar runs the Pine Club, where Alice (a member) plays its running event; Olga
        # runs the Oak Club. Pine's rows are the admin's first ones.
        self.clubs = Clubs(oscar, olga, alice, bob, make_user("erin"))
        self.token = {
            "games:unsubscribe": signed_links.unsubscribe_token(alice),
            "games:calendar": signed_links.calendar_token(alice),
        }
        self._sessions: dict[str, str] = {}

    def client(self, role: str, **options: Any) -> Client:
        """A new test client (``options``: ``Client``'s), logged in as ``role``'s user
        (none for "anonymous").

        Each role logs in once (``force_login``: a session row, an axes log entry); every
        client of the role carries that session's cookie, and nothing else. A request run
        in a transaction rolled back afterwards (a logout, a new session key) leaves the
        session as it was for the next one.
        """
        client = Client(**options)
        client.raise_request_exception = False
        user = self.users[role]
        if user is None:
            return client
        if role not in self._sessions:
            first = Client()
            first.force_login(user)
            self._sessions[role] = first.cookies[settings.SESSION_COOKIE_NAME].value
        client.cookies[settings.SESSION_COOKIE_NAME] = self._sessions[role]
        return client

    def kwargs(self, route: Route, game: str) -> dict[str, Any]:
        values = {
            "game": lambda: self.games[game].pk,
            "invite_code": lambda: self.games["open"].invite_code,
            "token": lambda: self.token[route.key],
            "bad_key": lambda: "not-a-key",
            "bad_uid": lambda: "zz",
            "game_content_type": lambda: ContentType.objects.get_for_model(Game).pk,
            "admin_object": lambda: self._admin_object(route.key),
            "app_label": lambda: "games",
            "missing_admin_path": lambda: "no/such/page/",
            "club": lambda: self.clubs.club.slug,
            "club_invite_code": lambda: self.clubs.club.invite_code,
            "event": lambda: self.clubs.event.slug,
            "event_id": lambda: self.clubs.event.pk,
            "round": lambda: 1,
            "join_request": lambda: self.clubs.join_request.pk,
            "player_id": lambda: self.users["player"].pk,
            "open": lambda: "open",
            "draft_id": lambda: self.clubs.draft.pk,
            "challenge_kind": lambda: "verdant",
            "challenge_day": lambda: "2000-01-01",
            "discussion": lambda: "discuss",
        }
        found = {}
        for param in route.params:
            name = ARGS.get(f"{route.key}/{param}", ARGS.get(param))
            assert name is not None, f"no value for the URL parameter {param!r}: add it to ARGS"
            found[param] = values[name]()
        return found

    def pine(self) -> tuple[Any, ...]:
        """Everything of the Pine Club an organizer's write would change."""
        club = self.clubs.club
        return (
            list(Club.objects.filter(pk=club.pk).values()),
            list(Membership.objects.filter(club=club).order_by("pk").values()),
            list(JoinRequest.objects.filter(club=club).order_by("pk").values()),
            list(Event.objects.filter(club=club).order_by("pk").values()),
            list(Registration.objects.filter(event__club=club).order_by("pk").values()),
            list(Table.objects.filter(round__event__club=club).order_by("pk").values()),
        )

    def _admin_object(self, key: str) -> Any:
        if key == "admin:view_on_site":
            return self.games["active"].pk
        model_key = admin_model_key(key)
        assert model_key is not None, key
        for model in admin_site._registry:
            if f"{model._meta.app_label}_{model._meta.model_name}" == model_key[0]:
                first = model._default_manager.order_by("pk").first()
                return first.pk if first is not None else 0
        raise AssertionError(key)


def url_for(route: Route, kwargs: dict[str, Any]) -> str:
    path = route.route
    for name, value in kwargs.items():
        path = re.sub(rf"<(?:\w+:)?{name}>|\(\?P<{name}>[^)]*\)", str(value), path)
    return "/" + path.replace("^", "").replace("$", "")


def outcome(response: Any) -> Any:
    """What a response amounts to, in the notation of ``authz``."""
    if response.status_code in (301, 302, 303):
        location = response["Location"]
        if location.startswith("/accounts/login/?next="):
            return LOGIN
        if location.startswith("/admin/login/?next="):
            return ADMIN_LOGIN
        return (response.status_code, location.split("?")[0])
    return response.status_code


def matches(expected: Any, found: Any) -> bool:
    if isinstance(expected, tuple) and isinstance(found, tuple):
        if expected[1].startswith("="):
            return found == (expected[0], expected[1][1:])
        return found[0] == expected[0] and found[1].startswith(expected[1])
    if isinstance(expected, set):
        return any(matches(one, found) for one in expected)
    return bool(expected == found)
