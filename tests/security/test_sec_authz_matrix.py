"""The authorization matrix: every URL the site serves, GET and POST, for every role.

The URL patterns are enumerated from the resolver, so a URL added without an entry in
``authz.EXPECTED`` fails ``test_every_url_has_an_entry``. Each request runs in a savepoint
rolled back afterwards, so a POST that is allowed (joining a game, logging out) changes
nothing for the next one. See ``authz.py`` for how to add URLs and roles.

``AUTHZ_PRINT=1`` prints the statuses found instead of checking them (to write entries).
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from django.db import transaction

from tests.security.authz import EXPECTED, LIKE, ROLES
from tests.security.authzworld import World, expected_for, matches, outcome, routes, url_for

pytestmark = pytest.mark.django_db


def request(world: World, role: str, method: str, url: str, watch: bool = False) -> Any:
    """The response; with ``watch``, also whether it changed the Pine Club's data."""
    client = world.client(role)
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


@pytest.mark.slow  # every URL, GET and POST, for every role
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
