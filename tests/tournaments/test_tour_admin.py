"""The organizers' admin: its pages load, creating and editing events, a club's settings,
deleting. Running an event (buttons, actions, seasons) and the CSV export are in
test_tour_admin_running.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.games.gamehelpers import PASSWORD, client_for
from tests.tournaments.adminhelpers import admin_url, messages_of, run_url
from tests.tournaments.tourpageshelpers import club_of, event_of, started
from tournaments import services
from tournaments.models import Event, Registration, Table

pytestmark = pytest.mark.django_db


class TestPagesLoad:
    @pytest.mark.parametrize(
        "model",
        [
            "club",
            "membership",
            "joinrequest",
            "event",
            "registration",
            "round",
            "table",
            "timeoutdecision",
        ],
    )
    def test_every_changelist_loads_for_an_organizer_and_a_superuser(
        self, oak, alice, bob, superuser, model
    ):
        started(event_of(oak, alice, alice, bob), alice)
        for user in (alice, superuser):
            assert client_for(user).get(admin_url(model)).status_code == 200

    def test_the_event_page_has_the_buttons_of_its_state(self, oak, alice, bob):
        event = event_of(oak, alice, alice, bob)
        html = client_for(alice).get(admin_url("event", "change", event.pk)).content.decode()
        assert run_url(event, "start") in html
        assert run_url(event, "next") not in html
        assert reverse("admin:tournaments_event_standings", args=[event.pk]) in html
        started(event, alice)
        html = client_for(alice).get(admin_url("event", "change", event.pk)).content.decode()
        assert run_url(event, "next") in html and run_url(event, "close") in html
        assert run_url(event, "start") not in html

    def test_the_round_table_and_decision_pages_load(self, oak, alice, bob):
        event = started(event_of(oak, alice, alice, bob), alice)
        table = Table.objects.get()
        client = client_for(alice)
        assert client.get(admin_url("round", "change", table.round.pk)).status_code == 200
        assert client.get(admin_url("table", "change", table.pk)).status_code == 200
        registration = Registration.objects.filter(event=event).first()
        assert client.get(admin_url("registration", "change", registration.pk)).status_code == 200


def places(*points: float) -> dict[str, Any]:
    """The points-by-place boxes of the event form (1st to 4th; the rest left empty)."""
    return {f"points_scheme_{i}": points[i] if i < len(points) else "" for i in range(4)}


class TestCreatingAndEditing:
    def form(self, club: Any, **overrides: Any) -> dict[str, Any]:
        data = {
            "club": club.pk,
            "name": "Winter Swiss",
            "slug": "winter-swiss",
            "description": "",
            "format": "swiss",
            "table_size": 4,
            "min_table_size": 3,
            "rounds": 4,
            "rated": "on",
            "days_per_move": 3,
            "hours_per_move": "",
            "time_bank_hours": 0,
            "timeout_policy": "bot",
            "timeouts_before_decision": 1,
            "bye_points": 0,
            **places(),
            "tiebreaks_0": "opponents",
            "tiebreaks_1": "score",
            "tiebreaks_2": "head_to_head",
            "knockout_advance": 2,
            "division_size": "",
            "promote": 1,
            "relegate": 1,
            "registration_opens_0": "",
            "registration_opens_1": "",
            "registration_closes_0": "",
            "registration_closes_1": "",
            "vacation_limit_days": 7,
            "registrations-TOTAL_FORMS": 0,
            "registrations-INITIAL_FORMS": 0,
            "divisions-TOTAL_FORMS": 0,
            "divisions-INITIAL_FORMS": 0,
        }
        return {**data, **overrides}

    def test_an_organizer_creates_an_event_of_their_club(self, oak, alice):
        response = client_for(alice).post(admin_url("event", "add"), self.form(oak))
        assert response.status_code == 302, response.content.decode()[:3000]
        event = Event.objects.get()
        assert (event.club, event.created_by, event.status) == (oak, alice, Event.Status.DRAFT)
        assert event.seed

    def test_the_add_form_offers_and_accepts_only_their_clubs(self, oak, alice, carol):
        pine = club_of(carol, "Pine")
        client = client_for(alice)
        html = client.get(admin_url("event", "add") + f"?club={oak.pk}").content.decode()
        assert "Oak" in html and "Pine" not in html
        response = client.post(admin_url("event", "add"), self.form(pine))
        assert response.status_code == 200
        assert not Event.objects.exists()

    @pytest.mark.parametrize("club", ["²", "1x", "-1"])
    def test_a_club_that_is_no_number_is_a_bad_request(self, oak, alice, club):
        response = client_for(alice).get(admin_url("event", "add"), {"club": club})
        assert response.status_code == 400

    def test_settings_an_event_cannot_run_with_are_refused(self, oak, alice):
        response = client_for(alice).post(admin_url("event", "add"), self.form(oak, **places(1, 2)))
        assert response.status_code == 200
        assert "cannot grow for a worse place" in response.content.decode()
        assert not Event.objects.exists()

    def test_points_and_tie_breaks_are_form_fields_not_json(self, oak, alice):
        html = client_for(alice).get(admin_url("event", "add") + f"?club={oak.pk}").content
        page = html.decode()
        assert 'name="points_scheme_0"' in page and 'name="points_scheme_3"' in page
        assert '<select name="tiebreaks_0"' in page
        data = self.form(oak, **places(5, 3, 1), tiebreaks_0="head_to_head", tiebreaks_1="")
        data["tiebreaks_2"] = ""
        response = client_for(alice).post(admin_url("event", "add"), data)
        assert response.status_code == 302, response.content.decode()[:3000]
        event = Event.objects.get()
        assert (event.points_scheme, event.tiebreaks) == ([5.0, 3.0, 1.0], ["head_to_head"])

    def test_a_tie_break_chosen_twice_is_refused(self, oak, alice):
        data = self.form(oak, tiebreaks_0="score", tiebreaks_1="score")
        response = client_for(alice).post(admin_url("event", "add"), data)
        assert response.status_code == 200
        assert "Choose each tie-break at most once." in response.content.decode()
        assert not Event.objects.exists()

    def test_a_place_left_out_before_a_filled_one_is_refused(self, oak, alice):
        data = self.form(oak, points_scheme_0=3, points_scheme_1="", points_scheme_2=1)
        response = client_for(alice).post(admin_url("event", "add"), data)
        assert response.status_code == 200
        assert "up to the last one you fill in" in response.content.decode()

    def test_a_bye_left_empty_is_worth_a_win(self, oak, alice):
        client = client_for(alice)
        assert (
            client.post(admin_url("event", "add"), self.form(oak, bye_points="")).status_code == 302
        )
        assert Event.objects.get().bye_points == 3.0  # 1st of 4 at the default scheme
        Event.objects.all().delete()
        data = self.form(oak, bye_points="", **places(5, 3, 1, 0))
        assert client.post(admin_url("event", "add"), data).status_code == 302
        assert Event.objects.get().bye_points == 5.0

    def test_the_admin_asks_for_the_e_mail_to_log_in(self, alice):
        get_user_model().objects.filter(pk=alice.pk).update(is_staff=True)
        client = client_for(None)
        assert "E-mail" in client.get(reverse("admin:login")).content.decode()
        response = client.post(
            reverse("admin:login"), {"username": "alice@example.org", "password": PASSWORD}
        )
        assert response.status_code == 302

    def test_an_organizer_seeds_the_players_before_the_start(self, oak, alice, bob, carol):
        event = event_of(oak, alice, bob, carol, table_size=4, min_table_size=2, rounds=1)
        data = self.form(oak, name=event.name, table_size=4, min_table_size=2, rounds=1)
        del data["club"], data["slug"]
        registrations = list(event.registrations.order_by("status", "seed_rank", "registered_at"))
        data["registrations-TOTAL_FORMS"] = data["registrations-INITIAL_FORMS"] = 2
        for index, (registration, rank) in enumerate(zip(registrations, (2, 1), strict=True)):
            data[f"registrations-{index}-id"] = registration.pk
            data[f"registrations-{index}-event"] = event.pk
            data[f"registrations-{index}-seed_rank"] = rank
        response = client_for(alice).post(admin_url("event", "change", event.pk), data)
        assert response.status_code == 302, response.content.decode()[:2000]
        ranks = dict(event.registrations.values_list("user__username", "seed_rank"))
        assert ranks == {"bob": 2, "carol": 1}
        started(event, alice)
        with pytest.raises(services.Conflict):
            services.set_seed_ranks(event, alice, {registrations[0].pk: 1})

    def test_a_running_event_keeps_its_settings(self, oak, alice, bob):
        event = started(event_of(oak, alice, alice, bob), alice)
        client = client_for(alice)
        html = client.get(admin_url("event", "change", event.pk)).content.decode()
        assert 'name="table_size"' not in html and 'name="name"' in html
        data = {
            "name": "Renamed",
            "description": "now with a description",
            "registrations-TOTAL_FORMS": 2,
            "registrations-INITIAL_FORMS": 2,
            "divisions-TOTAL_FORMS": 0,
            "divisions-INITIAL_FORMS": 0,
        }
        for index, registration in enumerate(
            event.registrations.order_by("status", "seed_rank", "registered_at")
        ):
            data[f"registrations-{index}-id"] = registration.pk
            data[f"registrations-{index}-event"] = event.pk
        response = client.post(admin_url("event", "change", event.pk), data)
        assert response.status_code == 302, response.content.decode()[:3000]
        event.refresh_from_db()
        assert (event.name, event.table_size) == ("Renamed", 2)


class TestClubSettings:
    def form(self, club: Any, **overrides: Any) -> dict[str, Any]:
        return {
            "name": club.name,
            "slug": club.slug,
            "description": club.description,
            "visibility": club.visibility,
            "memberships-TOTAL_FORMS": 0,
            "memberships-INITIAL_FORMS": 0,
            **overrides,
        }

    def test_an_organizer_renames_the_club_and_makes_it_invite_only(self, oak, alice):
        response = client_for(alice).post(
            admin_url("club", "change", oak.pk),
            self.form(oak, name="Oak Leaves", slug="oak-leaves", visibility="invite"),
        )
        assert response.status_code == 302
        oak.refresh_from_db()
        assert (oak.name, oak.slug, oak.is_public) == ("Oak Leaves", "oak-leaves", False)

    def test_a_reserved_short_name_is_refused_with_a_message(self, oak, alice):
        response = client_for(alice).post(
            admin_url("club", "change", oak.pk), self.form(oak, slug="new")
        )
        assert "Another club already uses this short name." in messages_of(response)
        oak.refresh_from_db()
        assert oak.slug == "oak"


class TestDeleting:
    def test_only_an_event_without_players_can_be_deleted(self, oak, alice, bob):
        waiting = event_of(oak, alice)
        joined = event_of(oak, alice, bob, name="Joined")
        running = started(event_of(oak, alice, alice, bob, name="Running"), alice)
        client = client_for(alice)
        for kept in (joined, running):
            assert client.get(admin_url("event", "delete", kept.pk)).status_code == 403
        response = client.post(admin_url("event", "delete", waiting.pk), {"post": "yes"})
        assert response.status_code == 302
        assert set(Event.objects.all()) == {joined, running}

    def test_clubs_are_deleted_by_superusers_only(self, oak, alice):
        assert client_for(alice).get(admin_url("club", "delete", oak.pk)).status_code == 403
