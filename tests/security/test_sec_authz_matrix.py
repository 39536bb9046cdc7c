"""The authorization matrix: every URL the site serves, GET and POST, for every role.

The URL patterns are enumerated from the resolver, so a URL added without an entry in
``authz.EXPECTED`` fails ``test_every_url_has_an_entry``. Each request runs in a savepoint
rolled back afterwards, so a POST that is allowed (joining a game, logging out) changes
nothing for the next one. See ``authz.py`` for how to add URLs and roles.

``AUTHZ_PRINT=1`` prints the statuses found instead of checking them (to write entries).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

import pytest
from authz import ADMIN_LOGIN, ARGS, EXPECTED, LIKE, LOGIN, ROLES
from django.contrib.admin import site as admin_site
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from gamehelpers import make_user
from sechelpers import Clubs, fixed_seed, open_game, turn_submitted_game

from games import signed_links
from games.models import Game
from tournaments.models import Club, Event, JoinRequest, Membership, Registration, Table

pytestmark = pytest.mark.django_db

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


def request(world: World, role: str, method: str, url: str, watch: bool = False) -> Any:
    """The response; with ``watch``, also whether it changed the Pine Club's data."""
    client = Client()
    client.raise_request_exception = False
    user = world.users[role]
    if user is not None:
        client.force_login(user)
    with transaction.atomic():
        before = world.pine() if watch else None
        if method == "POST" and url.startswith("/api/"):
            response = client.post(url, "{}", content_type="application/json")
        else:
            response = getattr(client, method.lower())(url)
        changed = watch and world.pine() != before
        transaction.set_rollback(True)
    return (response, changed) if watch else response


def test_every_url_has_an_entry() -> None:
    missing = [route.key for route in routes() if expected_for(route.key) is None]
    assert not missing, f"add these URLs to tests/security/authz.py EXPECTED: {missing}"


def test_every_role_has_a_user_and_a_full_row(monkeypatch: pytest.MonkeyPatch) -> None:
    world = World(monkeypatch)
    assert set(world.users) == set(ROLES)
    for key, spec in EXPECTED.items():
        for method in ("GET", "POST"):
            named = set(spec[method])
            assert named | set(LIKE) >= set(ROLES), (key, method, set(ROLES) - named)


PARTS = 4  # the URLs in four shares, so that pytest-xdist's workers split them


@pytest.mark.parametrize("part", range(PARTS))
def test_the_authorization_matrix(monkeypatch: pytest.MonkeyPatch, part: int) -> None:
    world = World(monkeypatch)
    printing = bool(os.environ.get("AUTHZ_PRINT"))
    wrong: list[str] = []
    for route in routes()[part::PARTS]:
        spec = expected_for(route.key)
        if spec is None:
            if not printing:
                continue  # reported by test_every_url_has_an_entry
            spec = {"GET": {}, "POST": {}}
        url = url_for(route, world.kwargs(route, spec.get("game", "active")))
        for method in ("GET", "POST"):
            row = []
            writers = spec.get("changes") if method == "POST" else None
            for role in ROLES:
                if writers is None:
                    found = outcome(request(world, role, method, url))
                else:
                    response, changed = request(world, role, method, url, watch=True)
                    found = outcome(response)
                    if changed != (role in writers):
                        wrong.append(
                            f"POST {url} ({route.key}) as {role}: "
                            f"{'changed' if changed else 'did not change'} the club's data"
                        )
                row.append(found)
                expected = spec[method].get(role, spec[method].get(LIKE.get(role, role)))
                if not matches(expected, found):
                    wrong.append(f"{method} {url} ({route.key}) as {role}: {found}, not {expected}")
            if printing:
                print(f"{route.key:45} {method:5} {url:40} {row}")
    assert not wrong, "\n".join(wrong)


RUNNERS = {"organizer", "staff"}  # Pine's organizer and the site's superuser


def test_only_the_clubs_organizers_see_its_organizer_parts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same URLs answer everyone, but the organizer's parts of them (the invitation
    link, the join requests, the draft event) only Pine's organizer and the superuser."""
    world = World(monkeypatch)
    clubs = world.clubs
    draft_page = clubs.draft.get_absolute_url()
    wrong = []
    for role in ROLES:
        runs = role in RUNNERS
        page = request(world, role, "GET", clubs.club.get_absolute_url()).content.decode()
        for part, what in (
            (clubs.club.invite_code, "the invitation link"),
            ("May I?", "Erin's join request"),
            (clubs.draft.name, "the draft event"),
        ):
            if (part in page) != runs:
                wrong.append(f"the club page as {role}: {what} {'missing' if runs else 'shown'}")
        status = request(world, role, "GET", draft_page).status_code
        if status != (200 if runs else 404):
            wrong.append(f"the draft's page as {role}: {status}")
        api = request(world, role, "GET", f"/api/events/{clubs.draft.pk}/").status_code
        if api != (200 if runs else 401 if role == "anonymous" else 404):
            wrong.append(f"the draft in the API as {role}: {api}")
        for url in ("/api/events/", f"/api/clubs/{clubs.club.slug}/"):
            body = request(world, role, "GET", url).content.decode()
            if role != "anonymous" and (clubs.draft.name in body) != runs:
                wrong.append(f"{url} as {role}: the draft {'missing' if runs else 'listed'}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(
    "model", ["club", "membership", "joinrequest", "event", "registration", "round", "table"]
)
def test_an_organizer_of_another_club_sees_none_of_its_rows(
    monkeypatch: pytest.MonkeyPatch, model: str
) -> None:
    """The changelists answer Olga (Oak) with her own club's rows only: nothing of Pine,
    whose organizer does see them (so the check can fail)."""
    world = World(monkeypatch)
    url = f"/admin/tournaments/{model}/"
    theirs = request(world, "organizer_other_club", "GET", url).content.decode()
    mine = request(world, "organizer", "GET", url).content.decode()
    assert "Pine" not in theirs and "Spring Swiss" not in theirs and "May I?" not in theirs
    assert "Pine" in mine or "Spring Swiss" in mine or "Round 1" in mine
    assert "Oak" not in mine


def test_the_event_form_offers_an_organizer_only_their_clubs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    world = World(monkeypatch)
    form = request(world, "organizer_other_club", "GET", "/admin/tournaments/event/add/")
    body = form.content.decode()
    assert "Oak Club" in body and "Pine Club" not in body
