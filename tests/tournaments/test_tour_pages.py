"""The public club, event and player pages: what each visitor sees, and the buttons."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from tests.games.gamehelpers import client_for, committed, make_user
from tests.tournaments.tourpageshelpers import club_of, end_round, event_of, started
from tournaments import services
from tournaments.models import Club, Event, JoinRequest, Membership, Registration, Table

pytestmark = pytest.mark.django_db


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def page(client: Any, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


class TestClubList:
    def test_anyone_sees_the_clubs_with_members_and_running_events(self, alice, bob):
        club = club_of(alice, "Oak", bob)
        club_of(alice, "Pine", invite_only=True)
        html = page(client_for(None), reverse("tournaments:clubs"))
        assert club.get_absolute_url() in html
        assert "2 members" in html and "invite only" in html
        assert "Log in to start a club" in html

    def test_the_navigation_links_to_the_clubs(self, alice):
        html = page(client_for(alice), reverse("games:home"))
        assert reverse("tournaments:clubs") in html


class TestStartingAClub:
    def test_a_player_starts_a_club_and_becomes_its_organizer_with_admin_access(self, alice):
        response = client_for(alice).post(
            reverse("tournaments:club_create"),
            {"name": "Willow Club", "description": "Tuesdays.", "invite_only": "on"},
        )
        club = Club.objects.get()
        assert response.status_code == 302
        assert response["Location"] == club.get_absolute_url()
        assert club.slug == "willow-club" and not club.is_public
        assert club.is_organizer(alice)
        alice.refresh_from_db()
        assert alice.is_staff

    def test_a_club_needs_a_name(self, alice):
        response = client_for(alice).post(reverse("tournaments:club_create"), {"name": " "})
        assert response.status_code == 200
        assert "This field is required." in response.content.decode()
        assert not Club.objects.exists()

    def test_a_visitor_is_sent_to_log_in(self, db):
        response = client_for(None).get(reverse("tournaments:club_create"))
        assert response.status_code == 302
        assert reverse("account_login") in response["Location"]


class TestClubPage:
    def test_it_shows_members_events_and_the_leaderboard(self, alice, bob):
        club = club_of(alice, "Oak", bob)
        event = started(event_of(club, alice, alice, bob), alice)
        html = page(client_for(None), club.get_absolute_url())
        assert "Alice" in html and "Bob" in html
        assert "organizer" in html
        assert event.get_absolute_url() in html
        assert "Club leaderboard" in html
        assert "Log in to join" in html
        assert club.invite_code not in html  # the invitation is for organizers only

    def test_organizers_get_their_tools_the_invitation_and_the_requests(self, alice, bob):
        club = club_of(alice, "Oak", invite_only=True)
        services.request_to_join(club, bob, "Hello there")
        html = page(client_for(alice), club.get_absolute_url())
        assert "Organizer tools" in html
        assert reverse("tournaments:club_invite", args=[club.invite_code]) in html
        assert "Hello there" in html and "Accept Bob" in html
        assert reverse("admin:tournaments_event_add") + f"?club={club.pk}" in html

    def test_a_member_sees_no_organizer_tools(self, alice, bob):
        club = club_of(alice, "Oak", bob)
        html = page(client_for(bob), club.get_absolute_url())
        assert "Organizer tools" not in html
        assert "You are a member of this club." in html
        assert club.invite_code not in html

    def test_drafts_are_listed_for_organizers_only(self, alice, bob):
        club = club_of(alice, "Oak", bob)
        draft = services.create_event(club, alice, name="Secret Cup", rounds=1)
        assert draft.name in page(client_for(alice), club.get_absolute_url())
        assert draft.name not in page(client_for(bob), club.get_absolute_url())

    def test_an_unknown_club_is_404(self, db):
        assert client_for(None).get(reverse("tournaments:club", args=["nope"])).status_code == 404


class TestJoining:
    def test_a_player_joins_a_public_club(self, alice, bob):
        club = club_of(alice, "Oak")
        response = client_for(bob).post(reverse("tournaments:club_join", args=[club.slug]))
        assert response.status_code == 302
        assert club.is_member(bob)
        assert "Welcome to Oak!" in messages_of(response)

    def test_an_invite_only_club_refuses_a_direct_join(self, alice, bob):
        club = club_of(alice, "Oak", invite_only=True)
        response = client_for(bob).post(reverse("tournaments:club_join", args=[club.slug]))
        assert not club.is_member(bob)
        assert any("invite only" in m for m in messages_of(response))

    def test_a_player_asks_to_join_and_an_organizer_accepts(self, alice, bob):
        club = club_of(alice, "Oak", invite_only=True)
        client_for(bob).post(
            reverse("tournaments:club_request", args=[club.slug]), {"message": "Please"}
        )
        request = JoinRequest.objects.get()
        assert request.message == "Please"
        assert "You have asked to join" in page(client_for(bob), club.get_absolute_url())
        response = client_for(alice).post(
            reverse("tournaments:club_decide", args=[club.slug, request.pk]), {"accept": "1"}
        )
        assert "Bob is now a member." in messages_of(response)
        assert club.is_member(bob)

    def test_an_organizer_declines(self, alice, bob):
        club = club_of(alice, "Oak", invite_only=True)
        request = services.request_to_join(club, bob)
        client_for(alice).post(
            reverse("tournaments:club_decide", args=[club.slug, request.pk]), {"accept": "0"}
        )
        request.refresh_from_db()
        assert request.status == JoinRequest.Status.DECLINED
        assert not club.is_member(bob)

    def test_a_member_cannot_answer_requests(self, alice, bob, carol):
        club = club_of(alice, "Oak", bob)
        request = services.request_to_join(club, carol)
        response = client_for(bob).post(
            reverse("tournaments:club_decide", args=[club.slug, request.pk]), {"accept": "1"}
        )
        assert "Only an organizer of this club can do that." in messages_of(response)
        assert not club.is_member(carol)

    def test_a_request_of_another_club_is_404(self, alice, bob, carol):
        oak, pine = club_of(alice, "Oak"), club_of(carol, "Pine", invite_only=True)
        request = services.request_to_join(pine, bob)
        url = reverse("tournaments:club_decide", args=[oak.slug, request.pk])
        assert client_for(alice).post(url, {"accept": "1"}).status_code == 404
        assert not pine.is_member(bob)

    def test_the_invitation_link_lets_a_player_in(self, alice, bob):
        club = club_of(alice, "Oak", invite_only=True)
        url = reverse("tournaments:club_invite", args=[club.invite_code])
        assert "You are invited to Oak" in page(client_for(bob), url)
        anonymous = client_for(None).post(url)
        assert reverse("account_login") in anonymous["Location"]
        response = client_for(bob).post(url)
        assert response["Location"] == club.get_absolute_url()
        assert club.is_member(bob)

    def test_a_new_link_replaces_the_old_one(self, alice, bob):
        club = club_of(alice, "Oak", invite_only=True)
        old = club.invite_code
        client_for(alice).post(reverse("tournaments:club_new_invite", args=[club.slug]))
        club.refresh_from_db()
        assert club.invite_code != old
        response = client_for(bob).get(reverse("tournaments:club_invite", args=[old]))
        assert response.status_code == 404

    def test_a_member_cannot_make_a_new_link(self, alice, bob):
        club = club_of(alice, "Oak", bob)
        old = club.invite_code
        client_for(bob).post(reverse("tournaments:club_new_invite", args=[club.slug]))
        club.refresh_from_db()
        assert club.invite_code == old

    def test_a_member_leaves_but_the_last_organizer_stays(self, alice, bob):
        club = club_of(alice, "Oak", bob)
        client_for(bob).post(reverse("tournaments:club_leave", args=[club.slug]))
        assert not club.is_member(bob)
        response = client_for(alice).post(reverse("tournaments:club_leave", args=[club.slug]))
        assert club.is_organizer(alice)
        assert any("only organizer" in m for m in messages_of(response))

    def test_the_buttons_need_a_post(self, alice, bob):
        club = club_of(alice, "Oak")
        assert (
            client_for(bob).get(reverse("tournaments:club_join", args=[club.slug])).status_code
            == 405
        )
        assert not club.is_member(bob)


class TestEventPage:
    def test_it_shows_the_settings_and_the_timeout_policy(self, alice, bob):
        club = club_of(alice, "Oak", bob)
        event = event_of(club, alice, bob, timeout_policy=Event.TimeoutPolicy.LAST)
        html = page(client_for(None), event.get_absolute_url())
        assert "The timed-out player ranks last at that table" in html
        assert "Swiss" in html and "3 days per move" in html
        assert "Opponents&#x27; points, then Game score, then Head-to-head" in html
        assert "1 registered" in html

    def test_a_member_registers_and_withdraws_within_the_window(self, alice, bob):
        club = club_of(alice, "Oak", bob)
        event = event_of(club, alice)
        client = client_for(bob)
        assert reverse("tournaments:event_register", args=[club.slug, event.slug]) in page(
            client, event.get_absolute_url()
        )
        response = client.post(reverse("tournaments:event_register", args=[club.slug, event.slug]))
        assert "You are registered for Autumn Swiss." in messages_of(response)
        html = page(client, event.get_absolute_url())
        assert "You are registered." in html
        assert reverse("tournaments:event_withdraw", args=[club.slug, event.slug]) in html
        client.post(reverse("tournaments:event_withdraw", args=[club.slug, event.slug]))
        assert Registration.objects.get(user=bob).status == Registration.Status.WITHDRAWN

    def test_withdrawing_from_a_running_event_asks_first(self, alice, bob):
        club = club_of(alice, "Oak", bob)
        event = started(event_of(club, alice, alice, bob), alice)
        url = reverse("tournaments:event_withdraw", args=[club.slug, event.slug])
        client = client_for(bob)
        asked = client.post(url)
        assert asked.status_code == 200
        assert "This cannot be undone." in asked.content.decode()
        assert Registration.objects.get(user=bob).is_active
        done = client.post(url, {"confirm": "1"})
        assert "You have withdrawn: a computer player finishes your games." in messages_of(done)
        assert not Registration.objects.get(user=bob).is_active
        assert Table.objects.get().game.seats.get(user=bob).bot

    def test_no_register_button_outside_the_window(self, alice, bob):
        club = club_of(alice, "Oak", bob)
        event = started(event_of(club, alice, alice, bob), alice)
        carol = make_user("carol")
        html = page(client_for(carol), event.get_absolute_url())
        assert reverse("tournaments:event_register", args=[club.slug, event.slug]) not in html
        response = client_for(carol).post(
            reverse("tournaments:event_register", args=[club.slug, event.slug])
        )
        assert "Registration for this event is not open." in messages_of(response)
        assert not Registration.objects.filter(user=carol).exists()

    def test_an_invite_only_club_asks_outsiders_to_join_first(self, alice, carol):
        club = club_of(alice, "Oak", invite_only=True)
        event = event_of(club, alice)
        html = page(client_for(carol), event.get_absolute_url())
        assert "Only members can register" in html
        response = client_for(carol).post(
            reverse("tournaments:event_register", args=[club.slug, event.slug])
        )
        assert "Only members of this club can register for its events." in messages_of(response)

    def test_standings_show_tiebreaks_and_seats_and_rounds_link_the_games(self, alice, bob, carol):
        club = club_of(alice, "Oak", bob, carol)
        event = started(event_of(club, alice, alice, bob, carol), alice)
        end_round(event, alice, play=True)
        services.seat_next_round(event, alice)
        html = page(client_for(None), event.get_absolute_url())
        for heading in ("Rank", "Points", "Opponents&#x27; points", "Game score", "Head-to-head"):
            assert heading in html
        assert "Seats 1/2" in html
        for table in Table.objects.filter(round__event=event):
            assert table.game.get_absolute_url() in html
        assert "Round 1" in html and "Round 2" in html  # the next round was seated
        assert "Byes:" in html  # three players at tables of two: one bye a round

    def test_a_draft_is_seen_by_its_organizers_only(self, alice, bob):
        club = club_of(alice, "Oak", bob)
        draft = services.create_event(club, alice, name="Secret", rounds=1)
        assert client_for(alice).get(draft.get_absolute_url()).status_code == 200
        assert client_for(bob).get(draft.get_absolute_url()).status_code == 404
        assert client_for(None).get(draft.get_absolute_url()).status_code == 404


class TestPlayerPage:
    def test_it_lists_events_clubs_and_the_rating_chart(self, alice, bob):
        club = club_of(alice, "Oak", bob)
        event = started(event_of(club, alice, alice, bob, rounds=1), alice)
        with committed():  # the rating, after the commit, as a worker makes it
            end_round(event, alice, play=True)
        html = page(client_for(None), reverse("tournaments:player", args=[bob.pk]))
        assert event.get_absolute_url() in html
        assert club.get_absolute_url() in html
        assert "<svg" in html and 'role="img"' in html
        assert reverse("games:rating_player", args=[bob.pk]) in html

    def test_a_player_without_events_or_ratings(self, alice):
        html = page(client_for(None), reverse("tournaments:player", args=[alice.pk]))
        assert "No event yet." in html and "No rated game yet." in html

    def test_an_unknown_player_is_404(self, db):
        assert client_for(None).get(reverse("tournaments:player", args=[999999])).status_code == 404


def test_membership_roles_are_listed(alice, bob):
    club = club_of(alice, "Oak", bob)
    assert Membership.objects.filter(club=club).count() == 2
