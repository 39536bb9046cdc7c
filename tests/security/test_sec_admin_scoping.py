"""Organizers are staff: the admin stays safe by construction.

Anyone who starts a club becomes ``is_staff``. This walks the whole admin as Olga, the
Oak Club's organizer, against the Pine Club's rows (``sechelpers.Clubs``), so that a model,
action or admin URL added later without club scoping fails here:

* every registered model: either Olga has no admin permission on it at all (and its pages
  answer 403), or its admin is club-scoped (``club_lookup``) and its queryset for her holds
  rows of her clubs only, while the table does hold Pine's rows;
* every admin URL that takes an object (change, delete, history, the custom ones), for
  every Pine row: no page of it for Olga, and a POST changes nothing;
* every action Olga is offered, run on Pine's rows: nothing changes;
* every add form Olga may open offers nothing of Pine.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.admin import site as admin_site
from django.db import transaction
from django.db.models import Model
from django.test import Client, RequestFactory
from django.urls import reverse

from tests.security.authzworld import World, routes, url_for

pytestmark = pytest.mark.django_db

REFUSED = {403, 404}
BACK_TO_INDEX = (302, "/admin/")
PERMISSIONS = ("module", "view", "add", "change", "delete")


def request_as(user: Any) -> Any:
    request = RequestFactory().get("/admin/")
    request.user = user
    return request


def permissions(model_admin: Any, request: Any) -> set[str]:
    granted = {
        "module": model_admin.has_module_permission(request),
        "view": model_admin.has_view_permission(request),
        "add": model_admin.has_add_permission(request),
        "change": model_admin.has_change_permission(request),
        "delete": model_admin.has_delete_permission(request),
    }
    return {name for name, yes in granted.items() if yes}


def label(model: type[Model]) -> str:
    return f"{model._meta.app_label}_{model._meta.model_name}"


def snapshot(world: World) -> Any:
    everything = [
        list(model._default_manager.order_by("pk").values()) for model in admin_site._registry
    ]
    return world.pine(), everything


def pine_rows(model_admin: Any, oak: set[int]) -> list[Model]:
    lookup = f"{model_admin.club_lookup}__in"
    return list(model_admin.model._default_manager.exclude(**{lookup: oak}).order_by("pk"))


@pytest.fixture
def world(monkeypatch: pytest.MonkeyPatch) -> World:
    return World(monkeypatch)


@pytest.fixture
def olga(world: World) -> Client:
    client = Client()
    client.raise_request_exception = False
    client.force_login(world.users["organizer_other_club"])
    return client


def oak_ids(world: World) -> set[int]:
    return {world.clubs.other_club.pk}


def scoped_admins(world: World) -> list[Any]:
    request = request_as(world.users["organizer_other_club"])
    return [
        model_admin
        for model_admin in admin_site._registry.values()
        if permissions(model_admin, request)
    ]


def walk_models(world: World, olga: Client) -> tuple[list[str], list[str], list[str]]:
    """The problems found, the scoped models and the closed ones."""
    request = request_as(world.users["organizer_other_club"])
    oak = oak_ids(world)
    problems, scoped, closed = [], [], []
    for model, model_admin in admin_site._registry.items():
        granted = permissions(model_admin, request)
        if not granted:
            closed.append(label(model))
            status = olga.get(reverse(f"admin:{label(model)}_changelist")).status_code
            if status not in REFUSED:
                problems.append(f"{label(model)}: no permission, yet its list answers {status}")
            continue
        if not hasattr(model_admin, "club_lookup"):
            problems.append(f"{label(model)}: an organizer may {sorted(granted)}, unscoped")
            continue
        scoped.append(label(model))
        lookup = f"{model_admin.club_lookup}__in"
        if model_admin.get_queryset(request).exclude(**{lookup: oak}).exists():
            problems.append(f"{label(model)}: the organizer's queryset holds other clubs' rows")
    return problems, scoped, closed


def test_every_model_an_organizer_reaches_is_club_scoped(world: World, olga: Client) -> None:
    problems, scoped, closed = walk_models(world, olga)
    assert not problems, "\n".join(problems)
    # The walk did meet both kinds (so it can fail): the clubs' models and the others.
    assert {"tournaments_club", "tournaments_event", "tournaments_table"} <= set(scoped)
    assert {"auth_user", "games_game", "auth_group"} <= set(closed)
    # The analyses, the seats (with the hints taken) and the rematches are for staff with
    # the permissions.
    assert {"analysis_analysis", "games_seat", "rematches_rematch"} <= set(closed)
    oak = oak_ids(world)
    assert all(
        pine_rows(admin_site._registry[m], oak)
        for m in admin_site._registry
        if label(m) in ("tournaments_event", "tournaments_table")
    )


def test_an_unscoped_admin_for_organizers_is_caught(
    world: World, olga: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A model admin added without scoping (here: byes, with the organizers' view right)
    is reported by the walk."""
    from django.contrib import admin

    from tournaments.models import Bye

    class Unscoped(admin.ModelAdmin):
        def has_view_permission(self, request: Any, obj: Any = None) -> bool:
            return True

    admin_site.register(Bye, Unscoped)
    try:
        problems, _scoped, _closed = walk_models(world, olga)
    finally:
        admin_site.unregister(Bye)
    assert len(problems) == 1 and problems[0].startswith("tournaments_bye: an organizer may")
    assert problems[0].endswith("unscoped")


def test_no_admin_url_of_another_clubs_row_answers_an_organizer(world: World, olga: Client) -> None:
    oak = oak_ids(world)
    by_label = {
        label(model): model_admin
        for model_admin in scoped_admins(world)
        for model in [model_admin.model]
    }
    problems, asked = [], 0
    for route in routes():
        if not route.key.startswith("admin:") or "object_id" not in route.params:
            continue
        name = next((n for n in by_label if route.key.startswith(f"admin:{n}_")), None)
        if name is None:
            continue  # a model the organizer has no permission on: the test above
        kwargs = world.kwargs(route, "active")
        for row in pine_rows(by_label[name], oak):
            url = url_for(route, {**kwargs, "object_id": row.pk})
            before = snapshot(world)
            with transaction.atomic():
                for method in ("GET", "POST"):
                    response = getattr(olga, method.lower())(url)
                    asked += 1
                    found = response.status_code
                    if found in (301, 302, 303):
                        found = (found, response["Location"].split("?")[0])
                    refused = REFUSED | ({405} if method == "GET" else set())  # POST-only
                    if found not in refused and found != BACK_TO_INDEX:
                        problems.append(f"{method} {url}: {found}")
                changed = snapshot(world) != before
                transaction.set_rollback(True)
            if changed:
                problems.append(f"{url}: Pine's data changed")
    assert asked > 50
    assert not problems, "\n".join(problems[:30])


def test_no_action_reaches_another_clubs_rows(world: World, olga: Client) -> None:
    request = request_as(world.users["organizer_other_club"])
    oak = oak_ids(world)
    problems, ran = [], 0
    for model_admin in scoped_admins(world):
        rows = pine_rows(model_admin, oak)
        if not rows:
            continue
        changelist = reverse(f"admin:{label(model_admin.model)}_changelist")
        for action in model_admin.get_actions(request):
            before = snapshot(world)
            with transaction.atomic():
                response = olga.post(
                    changelist,
                    {
                        "action": action,
                        "_selected_action": [row.pk for row in rows],
                        "index": 0,
                        "post": "yes",  # past a confirmation page, if the action has one
                    },
                )
                ran += 1
                changed = snapshot(world) != before
                transaction.set_rollback(True)
            if response.status_code >= 500 or changed:
                problems.append(
                    f"{label(model_admin.model)}.{action}: {response.status_code}, changed={changed}"
                )
    assert ran >= 8
    assert not problems, "\n".join(problems)


def test_no_add_form_offers_another_clubs_rows(world: World, olga: Client) -> None:
    request = request_as(world.users["organizer_other_club"])
    opened = 0
    for model_admin in scoped_admins(world):
        if not model_admin.has_add_permission(request):
            continue
        body = olga.get(reverse(f"admin:{label(model_admin.model)}_add")).content.decode()
        opened += 1
        for secret in ("Pine Club", "Spring Swiss", "Autumn Draft"):
            assert secret not in body, (label(model_admin.model), secret)
    assert opened >= 1  # the event form at least


def test_the_walk_does_see_the_rows_of_a_club_one_runs(world: World) -> None:
    """Pine's organizer gets Pine's change pages: the refusals above are scoping."""
    oscar = Client()
    oscar.force_login(world.users["organizer"])
    event = reverse("admin:tournaments_event_change", args=[world.clubs.event.pk])
    assert oscar.get(event).status_code == 200
