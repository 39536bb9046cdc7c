"""The organizers' admin running an event: the event's buttons and actions, replacing
players, decisions, league seasons, and the standings' CSV export.
"""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from games.models import Game, Player, Seat
from tests.games.gamehelpers import client_for, make_user
from tests.tournaments.adminhelpers import act, admin_url, messages_of, run_url
from tests.tournaments.tourpageshelpers import club_of, end_round, event_of, started
from tournaments import results, services
from tournaments.admin.export import spreadsheet_text
from tournaments.models import Event, Membership, Registration, Round, Table, TimeoutDecision

pytestmark = pytest.mark.django_db


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
