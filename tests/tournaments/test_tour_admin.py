"""The organizers' admin: pages, the event's buttons and actions, the CSV export."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.urls import reverse

from games.models import Game, Player, Seat
from tests.games.gamehelpers import PASSWORD, client_for, make_user
from tests.tournaments.tourpageshelpers import club_of, end_round, event_of, started
from tournaments import results, services
from tournaments.admin.export import spreadsheet_text
from tournaments.models import Event, Membership, Registration, Round, Table, TimeoutDecision

pytestmark = pytest.mark.django_db


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def admin_url(model: str, action: str = "changelist", *args: Any) -> str:
    return reverse(f"admin:tournaments_{model}_{action}", args=args)


def run_url(event: Event, operation: str) -> str:
    return reverse("admin:tournaments_event_run", args=[event.pk, operation])


def act(client: Any, model: str, action: str, *objects: Any) -> Any:
    return client.post(
        admin_url(model),
        {"action": action, "_selected_action": [str(o.pk) for o in objects], "post": "yes"},
        follow=False,
    )


@pytest.fixture
def oak(alice, bob, carol):
    """Alice organizes Oak; Bob and Carol are members."""
    return club_of(alice, "Oak", bob, carol)


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


class TestRunningAnEvent:
    def test_open_start_next_round_and_close_with_the_buttons(self, oak, alice, bob, carol):
        event = services.create_event(
            oak, alice, name="Cup", rounds=3, table_size=2, min_table_size=2, knockout_advance=1
        )
        client = client_for(alice)
        client.post(run_url(event, "open"))
        for player in (alice, bob):
            services.register(event, player)
        response = client.post(run_url(event, "start"))
        assert response["Location"] == admin_url("event", "change", event.pk)
        assert "The event has started: round 1 is seated." in messages_of(response)
        event.refresh_from_db()
        assert event.status == Event.Status.RUNNING and Table.objects.count() == 1
        refused = client.post(run_url(event, "next"))
        assert any("still being played" in m for m in messages_of(refused))
        end_round(event, alice)
        client.post(run_url(event, "next"))
        assert Round.objects.filter(event=event).count() == 2
        end_round(event, alice)
        asked = client.post(run_url(event, "close"))
        assert asked.status_code == 200 and "This cannot be undone." in asked.content.decode()
        closed = client.post(run_url(event, "close"), {"post": "yes"})
        assert "The event is closed." in messages_of(closed), messages_of(closed)
        event.refresh_from_db()
        assert event.status == Event.Status.FINISHED

    def test_the_buttons_need_a_post(self, oak, alice, bob):
        event = event_of(oak, alice, alice, bob)
        assert client_for(alice).get(run_url(event, "start")).status_code == 405
        event.refresh_from_db()
        assert event.status == Event.Status.REGISTRATION

    def test_an_unknown_operation_is_404(self, oak, alice, bob):
        event = event_of(oak, alice, alice, bob)
        assert client_for(alice).post(run_url(event, "explode")).status_code == 404

    def test_the_start_action_on_the_changelist(self, oak, alice, bob):
        event = event_of(oak, alice, alice, bob)
        act(client_for(alice), "event", "start_events", event)
        event.refresh_from_db()
        assert event.status == Event.Status.RUNNING

    def test_a_refused_action_says_why(self, oak, alice, bob):
        event = event_of(oak, alice, bob)  # one player: too few
        response = act(client_for(alice), "event", "start_events", event)
        assert any("must be registered to start" in m for m in messages_of(response))

    def test_replacing_a_player_with_the_bot(self, oak, alice, bob):
        event = started(event_of(oak, alice, alice, bob), alice)
        registration = Registration.objects.get(event=event, user=bob)
        act(client_for(alice), "registration", "withdraw_and_replace", registration)
        seat = Seat.objects.get(user=bob)
        assert (seat.bot, seat.handed_to_bot) == ("strong", True)  # the game's default
        registration.refresh_from_db()
        assert registration.status == Registration.Status.WITHDRAWN

    def test_adjudicating_a_stalled_game(self, oak, alice, bob):
        started(event_of(oak, alice, alice, bob), alice)
        table = Table.objects.get()
        asked = client_for(alice).post(
            admin_url("table"), {"action": "adjudicate", "_selected_action": [table.pk]}
        )
        assert "Adjudicate these games?" in asked.content.decode()
        table.refresh_from_db()
        assert not table.adjudicated
        act(client_for(alice), "table", "adjudicate", table)
        table.refresh_from_db()
        assert table.adjudicated and table.adjudicated_by == alice
        assert table.game.status == Game.Status.FINISHED

    def test_overruling_a_timeout_decision(self, oak, alice, bob):
        event = started(event_of(oak, alice, alice, bob, timeout_policy="last"), alice)
        table = Table.objects.get()
        Seat.objects.filter(game=table.game, position=0).update(timeouts_in_row=1)
        services.apply_timeout_policy(table.game_id, 0)
        decision = TimeoutDecision.objects.get()
        assert decision.ranks_last
        response = client_for(alice).post(
            admin_url("timeoutdecision", "change", decision.pk),
            {"note": "Server outage that day", "ranks_last": ""},
        )
        assert response.status_code == 302
        decision.refresh_from_db()
        assert not decision.ranks_last and decision.overridden_by == alice
        assert decision.note == "Server outage that day"
        assert (
            "Server outage that day"
            in client_for(None).get(event.get_absolute_url()).content.decode()
        )

    def test_answering_join_requests_and_changing_roles(self, alice, bob, carol):
        club = club_of(alice, "Oak", invite_only=True)
        request = services.request_to_join(club, bob)
        client = client_for(alice)
        act(client, "joinrequest", "accept_requests", request)
        membership = Membership.objects.get(club=club, user=bob)
        act(client, "membership", "make_organizers", membership)
        bob.refresh_from_db()
        assert club.is_organizer(bob) and bob.is_staff
        act(client, "membership", "make_members", membership)
        bob.refresh_from_db()
        assert not club.is_organizer(bob) and not bob.is_staff
        act(client, "membership", "remove_members", membership)
        assert not club.is_member(bob)
        last = act(client, "membership", "remove_members", Membership.objects.get(user=alice))
        assert "Oak" in str(messages_of(last)) or club.is_organizer(alice)
        assert club.is_organizer(alice)


class TestLeagueSeasons:
    def test_the_next_season_button_after_a_finished_league(self, oak, alice, bob, carol):
        dora = make_user("dora")
        services.join_club(oak, dora)
        league = started(
            event_of(
                oak,
                alice,
                alice,
                bob,
                carol,
                dora,
                name="League",
                format="league",
                rounds=None,
                division_size=2,
            ),
            alice,
        )
        client = client_for(alice)
        for _ in range(5):
            end_round(league, alice)
            league.refresh_from_db()
            if league.status == Event.Status.FINISHED:
                break
            services.advance(league.pk)
        league.refresh_from_db()
        assert league.status == Event.Status.FINISHED
        change = client.get(admin_url("event", "change", league.pk)).content.decode()
        assert run_url(league, "season") in change
        response = client.post(run_url(league, "season"))
        season = Event.objects.get(previous_season=league)
        assert response["Location"] == admin_url("event", "change", season.pk)
        assert season.status == Event.Status.REGISTRATION and season.season == 2
        assert season.divisions.count() == 2
        again = client.post(run_url(league, "season"))
        assert any("already exists" in m for m in messages_of(again))
        html = client_for(None).get(league.get_absolute_url()).content.decode()
        assert season.get_absolute_url() in html
        assert "<caption>Division 1</caption>" in html and "<caption>Division 2</caption>" in html
        html = client_for(None).get(season.get_absolute_url()).content.decode()
        assert league.get_absolute_url() in html


class TestStandingsCsv:
    def test_the_export_has_every_column_and_player(self, oak, alice, bob, carol):
        event = started(event_of(oak, alice, alice, bob, carol), alice)
        end_round(event, alice, play=True)
        response = client_for(alice).get(
            reverse("admin:tournaments_event_standings", args=[event.pk])
        )
        assert response.status_code == 200
        assert response["Content-Type"] == "text/csv; charset=utf-8"
        assert (
            response["Content-Disposition"]
            == 'attachment; filename="oak-autumn-swiss-standings.csv"'
        )
        rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
        header, body = rows[0], rows[1:]
        assert header[:6] == ["club", "event", "division", "rank", "player", "player id"]
        assert "opponents' points" in header and "seat 4" in header
        assert len(body) == 3
        expected = results.event_standings(event)
        by_id = {int(row[5]): row for row in body}
        for row in expected:
            line = by_id[row.player]
            assert int(line[3]) == row.rank
            assert float(line[6]) == row.points
            assert float(line[7]) == row.opponents
            assert int(line[8]) == row.score
            assert [int(x) for x in line[12:16]] == list(row.seats)
        assert sum(int(line[10]) for line in body) == 2  # one table of two played
        assert sum(int(line[11]) for line in body) == 1  # and one bye

    def test_a_name_that_looks_like_a_formula_is_exported_as_text(self, oak, alice, bob):
        bob.player.display_name = '=HYPERLINK("http://x","y")'
        bob.player.save(update_fields=["display_name"])
        event = event_of(oak, alice, alice, bob, name="+Autumn Swiss")
        response = client_for(alice).get(
            reverse("admin:tournaments_event_standings", args=[event.pk])
        )
        rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))[1:]
        by_id = {int(row[5]): row for row in rows}
        assert by_id[bob.pk][4] == '\'=HYPERLINK("http://x","y")'
        assert by_id[alice.pk][4] == Player.objects.get(user=alice).display_name
        assert {row[1] for row in rows} == {"'+Autumn Swiss"}

    @pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
    def test_a_cell_that_would_start_a_formula_gets_an_apostrophe(self, start):
        assert spreadsheet_text(f"{start}1+2") == f"'{start}1+2"

    def test_other_cells_are_exported_as_they_are(self):
        assert [spreadsheet_text(v) for v in ["Rowan", "1.5", "", 3, "a=b"]] == [
            "Rowan",
            "1.5",
            "",
            3,
            "a=b",
        ]

    def test_the_export_action_covers_several_events(self, oak, alice, bob):
        one = event_of(oak, alice, alice, bob)
        two = event_of(oak, alice, bob, name="Spring Swiss")
        response = act(client_for(alice), "event", "export_standings", one, two)
        assert response["Content-Disposition"] == 'attachment; filename="standings.csv"'
        rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))[1:]
        assert sorted(row[1] for row in rows) == ["Autumn Swiss", "Autumn Swiss", "Spring Swiss"]
